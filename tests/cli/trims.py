#!/usr/bin/env python3
# rw=trimwrite and randtrimwrite, and trim_percentage, trim_backlog,
# trim_backlog_batch and trim_verify_zero, on a loop device over a file on
# a tmpfs this test mounts (the loop device offers discard because tmpfs
# punches holes: a discarded block reads as zeros), beside fio 3.33 on the
# same device: the trims, writes and reads counted, each trim followed by
# the write of its block (strace), the blocks trimmed again read back as
# zeros.  Root only (77 otherwise).
# One line per failure, then "trims: N passed, M failed".
#
# Environment (set by CTest): IOGAUGE_BIN.
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

from clitest import check, finish

BIN = os.environ.get("IOGAUGE_BIN", "iogauge")
FIO = shutil.which("fio")
STRACE = shutil.which("strace")
TOOLS = [BIN] + ([FIO] if FIO else [])


def name(tool):
    return "iogauge" if tool == BIN else "fio"


def run(tool, dev, args):
    p = subprocess.run([tool, "--name=w", "--filename=" + dev, "--size=1m", "--bs=4k",
                        "--output-format=json"] + args, capture_output=True, text=True)
    out = p.stdout[p.stdout.find("{"):] if "{" in p.stdout else ""
    j = json.loads(out)["jobs"][0] if out else None
    if not j:
        return p.returncode, None, p.stderr
    return p.returncode, tuple(j[d]["total_ios"] for d in ("trim", "write", "read")), p.stderr


def pairs(dev):
    # Each trim followed by the write of the same block, 256 pairs, and
    # the trims over 256 distinct blocks.
    for rw in ("trimwrite", "randtrimwrite"):
        for tool in TOOLS:
            fd, log = tempfile.mkstemp(prefix="iogauge-trims-")
            os.close(fd)
            subprocess.run([STRACE, "-f", "-y", "-e", "trace=ioctl,pwrite64", "-o", log, tool,
                            "--name=w", "--filename=" + dev, "--size=1m", "--bs=4k",
                            "--rw=" + rw], capture_output=True)
            seq = []
            with open(log) as f:
                for line in f:
                    m = re.search(r"ioctl\(\d+<%s>, BLKDISCARD, \[(\d+), (\d+)\]" % dev, line)
                    if m:
                        seq.append(("T", int(m.group(1)), int(m.group(2))))
                        continue
                    m = re.search(r"pwrite64\(\d+<%s>, .*, (\d+), (\d+)\) = " % dev, line)
                    if m:
                        seq.append(("W", int(m.group(2)), int(m.group(1))))
            os.unlink(log)
            ok = len(seq) == 512 and all(
                seq[i][0] == "T" and seq[i + 1][0] == "W" and seq[i][1:] == seq[i + 1][1:]
                for i in range(0, len(seq), 2))
            blocks = len(set(s[1] for s in seq if s[0] == "T"))
            check(ok and blocks == 256, "%s rw=%s: %d calls, %s..., %d blocks trimmed"
                  % (name(tool), rw, len(seq), "".join(s[0] for s in seq[:8]), blocks))
            print("%s rw=%s: %d trim+write pairs on the same block, %d blocks"
                  % (name(tool), rw, len(seq) // 2 if ok else -1, blocks))


# (options, percent picked): each block written is picked with that chance.
CASES = [
    ([], 0),
    (["--trim_percentage=50", "--trim_backlog=8"], 50),
    (["--trim_percentage=50", "--trim_backlog=8", "--trim_backlog_batch=2"], 50),
    (["--trim_percentage=100", "--trim_backlog=1"], 100),
    (["--trim_percentage=30", "--trim_backlog=8", "--trim_verify_zero=0"], 30),
    (["--trim_percentage=50", "--trim_backlog=16", "--ioengine=libaio", "--iodepth=8",
      "--direct=1"], 50),
]


def counts(dev):
    for rw in ("trimwrite", "randtrimwrite"):
        for extra, pct in CASES:
            got = {}
            for tool in TOOLS:
                rc, c, err = run(tool, dev, ["--rw=" + rw, "--verify=crc32c"] + extra)
                got[tool] = (rc, c)
                what = "%s rw=%s %s" % (name(tool), rw, " ".join(extra))
                if not check(rc == 0 and c, "%s: exit %d %s" % (what, rc, err[-300:])):
                    continue
                trims, writes, reads = c
                again = trims - 256  # picked and trimmed again
                # 256 draws: within 5 standard deviations of the mean.
                sd = (256 * pct * (100 - pct)) ** 0.5 / 100
                zero = "--trim_verify_zero=0" in extra
                check(writes == 256 and abs(again - 2.56 * pct) <= 5 * sd + 0.5 and
                      reads == (256 - again if zero else 256),
                      "%s: %d trims, %d writes, %d reads" % (what, trims, writes, reads))
            if FIO and got[FIO][1] and got[BIN][1]:
                print("rw=%s %s: iogauge trims %d writes %d reads %d (exit %d); fio %d %d %d "
                      "(exit %d)" % ((rw, " ".join(extra)) + got[BIN][1] + (got[BIN][0],) +
                                     got[FIO][1] + (got[FIO][0],)))


def on_file(tmp):
    # A regular file: iogauge punches holes (fio 3.33 cannot trim a file);
    # the blocks trimmed again read back as zeros all the same.
    path = os.path.join(tmp, "f.dat")
    rc, c, err = run(BIN, path, ["--rw=randtrimwrite", "--verify=md5", "--trim_percentage=100",
                                 "--trim_backlog=4"])
    check(rc == 0 and c == (512, 256, 256), "file randtrimwrite trim_percentage=100: exit %d, "
          "%s %s" % (rc, c, err[-300:]))
    with open(path, "rb") as f:
        d = f.read()
    check(len(d) == 1 << 20 and d.count(0) == len(d), "file: not all zeros after every block "
          "written was trimmed again")


def refused(tmp):
    for args, msg in ((["--rw=write", "--verify=crc32c", "--trim_percentage=10",
                        "--trim_backlog=4"], "it needs rw=trimwrite or randtrimwrite"),
                      (["--rw=trimwrite", "--verify=crc32c", "--trim_percentage=10"],
                       "needs trim_backlog"),
                      (["--rw=trimwrite", "--trim_percentage=10", "--trim_backlog=4"],
                       "it needs verify="),
                      (["--rw=trimwrite", "--trim_percentage=101"], "above the maximum")):
        path = os.path.join(tmp, "never")
        p = subprocess.run([BIN, "--name=w", "--filename=" + path, "--size=1m"] + args,
                           capture_output=True, text=True)
        check(p.returncode == 2 and msg in p.stderr and not os.path.exists(path),
              "%s: exit %d %s" % (args, p.returncode, p.stderr))


def main():
    if os.geteuid() != 0:
        print("skip: not root: the trim checks mount a tmpfs and make a loop device")
        sys.exit(77)
    tmp = tempfile.mkdtemp(prefix="iogauge-trims-")
    # fio leaves a verify state file (and dumps) in the current directory.
    old_cwd = os.getcwd()
    os.chdir(tmp)
    mnt = os.path.join(tmp, "mnt")
    os.mkdir(mnt)
    dev = None
    try:
        if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=32m", "iogauge-trims", mnt]).returncode:
            print("skip: no tmpfs mount")
            sys.exit(77)
        back = os.path.join(mnt, "back")
        with open(back, "wb") as f:
            f.truncate(16 << 20)
        p = subprocess.run(["losetup", "-f", "--show", back], capture_output=True, text=True)
        if p.returncode:
            print("skip: no loop device: %s" % p.stderr.strip())
            sys.exit(77)
        dev = p.stdout.strip()
        if STRACE:
            pairs(dev)
        else:
            print("skip: no strace: the trim+write order")
        counts(dev)
        on_file(tmp)
        refused(tmp)
    finally:
        if dev:
            subprocess.run(["losetup", "-d", dev])
        subprocess.run(["umount", mnt], capture_output=True)
        os.chdir(old_cwd)
        shutil.rmtree(tmp)
    finish("trims")


main()
