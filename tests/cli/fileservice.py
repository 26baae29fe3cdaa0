#!/usr/bin/env python3
# openfiles and file_service_type, checked by the order in which a clone's
# reads reach its files (strace -y on pread64), against fio 3.33 on the
# same job: the exact order where fio's rule is deterministic (roundrobin,
# sequential, :N, openfiles), and for the drawn kinds the per-file counts,
# the skew and how many files are in use at once.  Exit 77 without strace.
# One line per failure, then "fileservice: N passed, M failed".
#
# Environment (set by CTest): IOGAUGE_BIN.
import collections
import itertools
import os
import re
import shutil
import subprocess
import sys
import tempfile

from clitest import check, finish

BIN = os.path.abspath(os.environ["IOGAUGE_BIN"])
FIO = shutil.which("fio")
STRACE = shutil.which("strace")
# LeakSanitizer cannot run under ptrace: off for the traced runs (ASan build).
TRACED_ENV = dict(os.environ, ASAN_OPTIONS=os.environ.get("ASAN_OPTIONS", "") + ":detect_leaks=0")
READ = re.compile(r"pread64\(\d+<[^>]*/j\.0\.(\d+)>.*, (\d+), (\d+)\) = \d+$")


def order(tool, tmp, nfiles, fsize, args):
    """The file number of each 4k read of the job, in order, or None."""
    d = os.path.join(tmp, "f%d_%d" % (nfiles, fsize))
    if not os.path.isdir(d):
        os.mkdir(d)
        for i in range(nfiles):
            with open(os.path.join(d, "j.0.%d" % i), "wb") as f:
                f.write(os.urandom(fsize))
    trace = os.path.join(tmp, "trace")
    p = subprocess.run([STRACE, "-f", "-y", "-e", "trace=pread64", "-o", trace, tool, "--name=j",
                        "--directory=" + d, "--nrfiles=%d" % nfiles, "--filesize=%d" % fsize,
                        "--bs=4k", "--rw=read"] + args, capture_output=True, text=True,
                       timeout=120, env=TRACED_ENV)
    if not check(p.returncode == 0, "%s %r: exit %d %s" % (tool, args, p.returncode,
                                                          p.stderr[-300:])):
        return None
    seq = []
    with open(trace) as f:
        for line in f:
            m = READ.search(line.rstrip())
            if m and m.group(2) == "4096":
                seq.append(int(m.group(1)))
    return seq


def overlap(seq):
    """The most files in use at once (a file is in use from its first read
    to its last)."""
    first, last = {}, {}
    for i, f in enumerate(seq):
        first.setdefault(f, i)
        last[f] = i
    return max(sum(1 for f in first if first[f] <= i <= last[f]) for i in range(len(seq)))


EXACT = [
    # (arguments, iogauge's own expectation for 4 files of 4 blocks)
    ([], [0, 1, 2, 3] * 4),
    (["--openfiles=2"], [0, 1] * 4 + [2, 3] * 4),
    (["--openfiles=1"], [0] * 4 + [1] * 4 + [2] * 4 + [3] * 4),
    (["--file_service_type=sequential"], [0] * 4 + [1] * 4 + [2] * 4 + [3] * 4),
    (["--file_service_type=roundrobin:3"], [0] * 3 + [1] * 3 + [2] * 3 + [3] * 3 + [0, 1, 2, 3]),
    (["--file_service_type=roundrobin:3", "--openfiles=2"],
     [0, 0, 0, 1, 1, 1, 0, 1, 2, 2, 2, 3, 3, 3, 2, 3]),
    (["--openfiles=3", "--loops=2"], ([0, 1, 2] * 4 + [3] * 4) * 2),
    (["--file_service_type=sequential:2", "--openfiles=2"],
     [0] * 4 + [1] * 4 + [2] * 4 + [3] * 4),
]


def exact(tmp):
    for args, want in EXACT:
        got = order(BIN, tmp, 4, 16384, args)
        check(got == want, "%r: iogauge %r, expected %r" % (args, got, want))
        if FIO:
            f = order(FIO, tmp, 4, 16384, args)
            check(got == f, "%r: iogauge %r, fio %r" % (args, got, f))


def drawn(tmp):
    # 8 files of 64 blocks: uniform picks serve every block once, with at
    # most openfiles files in use at once; :4 serves runs of 4.
    for args, most in ((["--file_service_type=random"], 8),
                       (["--file_service_type=random", "--openfiles=3"], 3),
                       (["--file_service_type=random:4", "--openfiles=2"], 2)):
        res = {}
        for tool in [BIN] + ([FIO] if FIO else []):
            seq = order(tool, tmp, 8, 262144, args)
            if seq is None:
                return
            c = collections.Counter(seq)
            res[tool] = (sorted(c.values()), overlap(seq))
        check(res[BIN] == ([64] * 8, most), "%r: iogauge %r" % (args, res[BIN]))
        if FIO:
            check(res[BIN] == res[FIO], "%r: iogauge %r, fio %r" % (args, res[BIN], res[FIO]))
    seq = order(BIN, tmp, 8, 262144, ["--file_service_type=random:4"])
    if seq:
        runs = [len(list(g)) for _, g in itertools.groupby(seq)]
        # Runs of 4 (64 blocks a file), two merged when a draw repeats.
        check(all(r % 4 == 0 for r in runs), "random:4 runs %r" % runs)
    # The skewed kinds: the hottest file's share and the files used, near fio's.
    for args, lo, hi in ((["--file_service_type=zipf:1.2"], 0.80, 0.97),
                         (["--file_service_type=pareto:0.3"], 0.40, 0.65),
                         (["--file_service_type=normal:10"], 0.30, 0.55)):
        shares = {}
        for tool in [BIN] + ([FIO] if FIO else []):
            seq = order(tool, tmp, 8, 262144, args)
            if seq is None:
                return
            c = collections.Counter(seq)
            shares[tool] = max(c.values()) / len(seq)
        check(lo <= shares[BIN] <= hi, "%r: hottest file's share %.3f, expected %.2f-%.2f" %
              (args, shares[BIN], lo, hi))
        if FIO:
            check(abs(shares[BIN] - shares[FIO]) < 0.08, "%r: hottest share iogauge %.3f, fio %.3f" %
                  (args, shares[BIN], shares[FIO]))


def descriptors(tmp):
    # openfiles is a limit on descriptors too: the most files open at once
    # (strace -y, openat and close) is openfiles, as fio's; and 300 files
    # with openfiles=4 run under a limit of 64 descriptors.
    import resource
    d = os.path.join(tmp, "many")
    os.mkdir(d)
    for i in range(300):
        with open(os.path.join(d, "m.0.%d" % i), "wb") as f:
            f.write(b"\1" * 8192)
    for tool in [BIN] + ([FIO] if FIO else []):
        trace = os.path.join(tmp, "trace")
        p = subprocess.run([STRACE, "-f", "-y", "-e", "trace=openat,close", "-o", trace, tool,
                            "--name=m", "--directory=" + d, "--nrfiles=300", "--filesize=8k",
                            "--bs=4k", "--openfiles=4", "--rw=read"], capture_output=True,
                           text=True, timeout=120, env=TRACED_ENV,
                           preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_NOFILE,
                                                                 (64, 64)))
        cur, most = set(), 0
        with open(trace) as f:
            for line in f:
                m = re.search(r'openat\(.*"%s/(m\.0\.\d+)".*= \d+<' % re.escape(d), line)
                if m:
                    cur.add(m.group(1))
                    most = max(most, len(cur))
                    continue
                m = re.search(r"close\(\d+<%s/(m\.0\.\d+)>\)" % re.escape(d), line)
                if m:
                    cur.discard(m.group(1))
        check(p.returncode == 0 and most == 4, "%s openfiles=4 of 300 under 64 descriptors: "
              "exit %d, at most %d open %s" % (tool, p.returncode, most, p.stderr[-200:]))


def refused(tmp):
    for val, msg in (("bogus", "not a valid file_service_type"),
                     ("roundrobin:0", "I/Os per file must be 1"),
                     ("zipf:1", "zipf theta"), ("pareto:1.5", "pareto h"),
                     ("normal:100", "normal deviation"), ("random:x", "")):
        path = os.path.join(tmp, "bad.fio")
        with open(path, "w") as f:
            f.write("[b]\nfilename=%s/b\nsize=64k\nfile_service_type=%s\n" % (tmp, val))
        p = subprocess.run([BIN, path], capture_output=True, text=True, timeout=60)
        check(p.returncode == 2 and "bad.fio:4" in p.stderr and msg in p.stderr and
              not os.path.exists(os.path.join(tmp, "b")),
              "file_service_type=%s: exit %d %s" % (val, p.returncode, p.stderr[-200:]))
    for eng, msg in (("--ioengine=mmap", "keeps every file open"),
                     ("--ioengine=io_uring --registerfiles", "registerfiles registers every file")):
        p = subprocess.run([BIN, "--name=b", "--filename=%s/a:%s/b" % (tmp, tmp), "--size=64k",
                            "--openfiles=1"] + eng.split(), capture_output=True, text=True,
                           timeout=60)
        check(p.returncode == 2 and msg in p.stderr and not os.path.exists(tmp + "/a"),
              "%s openfiles=1 of 2: exit %d %s" % (eng, p.returncode, p.stderr[-200:]))
    p = subprocess.run([BIN, "--name=b", "--filename=%s/b" % tmp, "--size=64k", "--openfiles=-1"],
                       capture_output=True, text=True, timeout=60)
    check(p.returncode == 2 and "openfiles" in p.stderr, "openfiles=-1: exit %d %s" %
          (p.returncode, p.stderr[-200:]))


def main():
    if not STRACE:
        print("fileservice: strace is not installed; skipped")
        sys.exit(77)
    tmp = tempfile.mkdtemp(prefix="iogauge-fileservice.")
    try:
        exact(tmp)
        drawn(tmp)
        descriptors(tmp)
        refused(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    finish("fileservice")


if __name__ == "__main__":
    main()
