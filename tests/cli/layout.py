#!/usr/bin/env python3
# Sizes, places and job control, each checked by its effect on real files
# and, where the outcome is deterministic, against fio 3.33 on the same
# job file: the offsets each clone touches (from the iops log with
# log_offset), the files laid out (names and sizes), the bytes moved, and
# when each job's I/O began (iogauge's JSON start_ns).  One line per
# failure, then "layout: N passed, M failed".
#
# Environment (set by CTest): IOGAUGE_BIN, IOGAUGE_SRC.
import glob
import json
import os
import re
import shutil
import subprocess
import tempfile

from clitest import check, finish

BIN = os.path.abspath(os.environ["IOGAUGE_BIN"])
FIO = shutil.which("fio")


def run(tool, job, cwd, args=()):
    """@tool on the job text @job in the folder @cwd: (exit status, output, stdout)."""
    path = os.path.join(cwd, "job.fio")
    with open(path, "w") as f:
        f.write(job)
    p = subprocess.run([tool] + list(args) + [path], cwd=cwd, capture_output=True, text=True,
                       timeout=120)
    return p.returncode, p.stdout + p.stderr, p.stdout


def fresh(tmp, name):
    d = os.path.join(tmp, name)
    shutil.rmtree(d, ignore_errors=True)
    os.mkdir(d)
    return d


def logged(tool, tmp, job, what):
    """Per clone (log 1, 2, ...): the (direction, bs, offset) of each I/O,
    from the iops log of the job text @job run in a fresh folder."""
    d = fresh(tmp, os.path.basename(tool) + "-" + what)
    rc, out, _ = run(tool, job + "write_iops_log=l\nlog_offset=1\n", d)
    if not check(rc == 0, "%s %s: exit %d %s" % (os.path.basename(tool), what, rc, out[-300:])):
        return {}
    logs = {}
    for p in glob.glob(os.path.join(d, "l_iops.*.log")):
        k = int(p.split(".")[-2])
        with open(p) as f:
            logs[k] = [tuple(int(x) for x in line.split(",")[2:5]) for line in f if line.strip()]
    return logs


def both(tmp, job, what):
    """The logs of iogauge and, with fio installed, fio's (None without)."""
    return logged(BIN, tmp, job, what), logged(FIO, tmp, job, what) if FIO else None


def places(tmp):
    # offset_increment: clone k starts k MiB in, and keeps to its own MiB.
    job = ("[o]\nfilename=%s/o.dat\nsize=1m\noffset_increment=1m\nnumjobs=4\nrw=write\n"
           "bs=64k\n" % tmp)
    ours, fio = both(tmp, job, "offset_increment")
    check(sorted(ours) == [1, 2, 3, 4] and all(
        sorted(o for _, _, o in ours[k]) == [(k - 1) << 20 | i << 16 for i in range(16)]
        for k in ours), "offset_increment: clone regions %r" %
        {k: (min(o for _, _, o in v), max(o for _, _, o in v)) for k, v in ours.items()})
    if fio is not None:
        # fio numbers its logs in its own order: compare the regions as a set.
        check(sorted(sorted(v) for v in ours.values()) == sorted(sorted(v) for v in fio.values()),
              "offset_increment: fio's clones wrote elsewhere")
    # rw=write:64k: a 64k hole after each 64k write; rw=read:-8k backwards.
    for rw, what in (("write:64k", "holes"), ("read:-8k", "backwards")):
        job = "[h]\nfilename=%s/h.dat\nsize=1m\nrw=%s\nbs=4k\n" % (tmp, rw)
        ours, fio = both(tmp, job, what)
        offs = [o for _, _, o in ours.get(1, [])]
        if rw.startswith("write"):
            ok = offs[:4] == [0, 68 << 10, 136 << 10, 204 << 10]
        else:
            # 4k blocks 8k back: steps of -4k; from 0 the wrap is to the end
            # less the gap, as fio's get_next_seq_offset.
            ok = len(offs) == 256 and offs[1] == (1 << 20) - (8 << 10) and offs[2] - offs[1] == -4096
        check(ok, "rw=%s: offsets begin %r" % (rw, offs[:4]))
        if fio is not None:
            check(ours == fio, "rw=%s: %d offsets, fio %d; first %r, fio %r" % (
                rw, len(offs), len(fio.get(1, [])), offs[:4],
                [o for _, _, o in fio.get(1, [])][:4]))
    # blockalign=8k with 4k blocks: every random offset a multiple of 8k.
    job = ("[a]\nfilename=%s/a.dat\nsize=1m\nrw=randread\nbs=4k\nblockalign=8k\nnorandommap\n"
           "io_size=4m\n" % tmp)
    ours, fio = both(tmp, job, "blockalign")
    offs = [o for _, _, o in ours.get(1, [])]
    check(len(offs) == 1024 and all(o % 8192 == 0 for o in offs) and
          len(set(offs)) > 100, "blockalign=8k: %d I/Os, %d off 8k" %
          (len(offs), sum(o % 8192 != 0 for o in offs)))
    if fio is not None:
        check(all(o % 8192 == 0 for _, _, o in fio.get(1, [])) and len(fio.get(1, [])) == 1024,
              "blockalign=8k: fio's offsets differ in kind")
    # io_size: 2 MiB of I/O over an 8 MiB region, as fio.
    job = "[s]\nfilename=%s/s.dat\nsize=8m\nrw=randread\nbs=4k\nio_size=2m\n" % tmp
    ours, fio = both(tmp, job, "io_size")
    check(len(ours.get(1, [])) == 512 and (fio is None or len(fio.get(1, [])) == 512),
          "io_size=2m: %d I/Os, fio %r" % (len(ours.get(1, [])),
                                          fio and len(fio.get(1, []))))
    # Several block sizes under the random map: as fio, a pass covers every
    # 4k unit exactly once (blocks cut back where a unit is taken), and
    # the I/O count is close to fio's (within 5%).
    job = "[m]\nfilename=%s/m.dat\nsize=4m\nrw=randread\nbssplit=4k/50:64k/50\n" % tmp
    ours, fio = both(tmp, job, "randommap")
    for tool, logs in (("iogauge", ours), ("fio", fio)):
        if logs is None:
            continue
        cover = {}
        for _, bs, o in logs.get(1, []):
            for u in range(o // 4096, (o + bs) // 4096):
                cover[u] = cover.get(u, 0) + 1
        check(len(cover) == 1024 and set(cover.values()) == {1},
              "%s random map with bssplit: %d units, covered %r times" %
              (tool, len(cover), sorted(set(cover.values()))))
    if FIO:
        # The count over 256 MiB (tens of thousands of I/Os: the draw's noise
        # is well under the bound).
        n = {}
        for tool in (BIN, FIO):
            d = fresh(tmp, "count")
            rc, out, stdout = run(tool, "[c]\nioengine=null\nsize=256m\nrw=randread\n"
                                  "bssplit=512/10:4k/60:16k/20:64k/10\n", d,
                                  ["--output-format=json"])
            n[tool] = json.loads(stdout[stdout.index("{"):])["jobs"][0]["read"]["total_ios"] \
                if rc == 0 else 0
        check(n[FIO] and abs(n[BIN] - n[FIO]) <= 0.05 * n[FIO],
              "random map with bssplit over 256 MiB: %d I/Os, fio %d" % (n[BIN], n[FIO]))
    # bssplit: per direction, the shares of each size within 2 points.
    job = ("[b]\nioengine=null\nsize=64m\nrw=randrw\nbssplit=4k/25:16k/75,64k/10:8k/90\n"
           "norandommap\nio_size=512m\n")
    ios = logged(BIN, tmp, job, "bssplit").get(1, [])
    for d, want in ((0, {4096: 25, 16384: 75}), (1, {65536: 10, 8192: 90})):
        n = [bs for dd, bs, _ in ios if dd == d]
        got = {bs: 100.0 * n.count(bs) / len(n) for bs in set(n)} if n else {}
        check(set(got) == set(want) and all(abs(got[b] - want[b]) <= 2 for b in want),
              "bssplit direction %d: %r, want %r" % (d, got, want))


def files(tool, tmp, job, what):
    """Name -> size of the files the job text @job lays out in a fresh folder."""
    d = fresh(tmp, os.path.basename(tool) + "-" + what)
    rc, out, _ = run(tool, job.replace("DIR", d), d)
    check(rc == 0, "%s %s: exit %d %s" % (os.path.basename(tool), what, rc, out[-300:]))
    return {n: os.path.getsize(os.path.join(d, n)) for n in os.listdir(d) if n != "job.fio"}


def layouts(tmp):
    # nrfiles: size is split over the files, named as fio names them; and
    # numjobs: each clone its own files.
    for job, what, want in (
            ("[n]\ndirectory=DIR\nnrfiles=4\nsize=4m\nrw=read\nbs=64k\n", "nrfiles",
             {"n.0.%d" % i: 1 << 20 for i in range(4)}),
            ("[c]\ndirectory=DIR\nnumjobs=3\nsize=1m\nrw=write\nbs=64k\n", "per-clone",
             {"c.%d.0" % i: 1 << 20 for i in range(3)})):
        ours = files(BIN, tmp, job, what)
        check(ours == want, "%s: %r" % (what, ours))
        if FIO:
            theirs = files(FIO, tmp, job, what)
            check(ours == theirs, "%s: fio laid out %r" % (what, theirs))
    # filesize ranges: each file between the bounds (in whole blocks).
    job = "[f]\ndirectory=DIR\nnrfiles=8\nfilesize=1m-3m\nrw=read\nbs=64k\n"
    for tool in [BIN] + ([FIO] if FIO else []):
        got = files(tool, tmp, job, "filesize")
        check(len(got) == 8 and all((1 << 20) <= v <= (3 << 20) for v in got.values()) and
              len(set(got.values())) > 1, "%s filesize=1m-3m: %r" %
              (os.path.basename(tool), sorted(got.values())))


def io_amounts(tmp):
    # With filesize sizing the file, size is the I/O to do up to the file's
    # size: fio caps it there (a size above it is not a second pass).
    for size, want in (("64k", 1), ("256k", 4), ("4m", 16)):
        job = "[s]\nfilename=s.dat\nfilesize=1m\nsize=%s\nrw=randread\nbs=64k\n" % size
        ours, fio = both(tmp, job, "size-" + size)
        got = sum(len(v) for v in ours.values())
        check(got == want, "filesize=1m size=%s: %d I/Os of 64k, wanted %d" % (size, got, want))
        if fio is not None:
            theirs = sum(len(v) for v in fio.values())
            check(theirs == got, "filesize=1m size=%s: fio did %d I/Os, iogauge %d" %
                  (size, theirs, got))


def starts(tmp, job):
    """jobname -> (start_ns, job_runtime ms, I/Os) from iogauge's JSON."""
    d = fresh(tmp, "starts")
    rc, out, stdout = run(BIN, job.replace("DIR", d), d, ["--output-format=json"])
    if not check(rc == 0, "%r: exit %d %s" % (job[:60], rc, out[-300:])):
        return {}
    return {j["jobname"]: (j["iogauge"]["start_ns"], j["job_runtime"],
                           j["read"]["total_ios"] + j["write"]["total_ios"])
            for j in json.loads(stdout)["jobs"]}


def control(tmp):
    # startdelay: this job's I/O starts 1 s in, the other's at once.
    s = starts(tmp, "[late]\nfilename=DIR/a\nsize=1m\nrw=read\nstartdelay=1\n"
               "[now]\nfilename=DIR/b\nsize=1m\nrw=read\n")
    check(s and s["late"][0] >= 1e9 and s["now"][0] < 0.5e9, "startdelay=1: %r" % s)
    s = starts(tmp, "[r]\nfilename=DIR/a\nsize=64k\nrw=read\nstartdelay=300ms-700ms\n"
               "numjobs=4\n")
    check(s and 0.3e9 <= s["r"][0] <= 0.8e9, "startdelay=300ms-700ms: %r" % s)
    # wait_for: the second starts when the first has ended, not with it.
    s = starts(tmp, "[first]\nfilename=DIR/a\nsize=1m\nrw=randread\ntime_based\nruntime=1\n"
               "[second]\nfilename=DIR/b\nsize=1m\nrw=read\nwait_for=first\n")
    check(s and s["second"][0] >= s["first"][0] + 1e9, "wait_for: %r" % s)
    # stonewall: the same, for every job before it.
    s = starts(tmp, "[first]\nfilename=DIR/a\nsize=1m\nrw=randread\ntime_based\nruntime=1\n"
               "[second]\nfilename=DIR/b\nsize=1m\nrw=read\nstonewall\n")
    check(s and s["second"][0] >= s["first"][0] + 1e9, "stonewall: %r" % s)
    # exitall: the short job's end ends its group's 10 s job; a later
    # stonewalled group still runs.
    s = starts(tmp, "[short]\nfilename=DIR/a\nsize=1m\nrw=read\nexitall\n"
               "[long]\nfilename=DIR/b\nsize=1m\nrw=randread\ntime_based\nruntime=10\n"
               "[after]\nfilename=DIR/c\nsize=1m\nrw=read\nstonewall\n")
    check(s and s["long"][1] < 2000 and s["after"][2] == 256, "exitall: %r" % s)
    # exitall in one job holds for every job, as fio's (a global flag
    # there): the 1 s job without it ends the 10 s job that has it.
    s = starts(tmp, "[long]\nfilename=DIR/a\nsize=1m\nrw=randread\ntime_based\nruntime=10\n"
               "exitall\n[short]\nfilename=DIR/b\nsize=1m\nrw=randread\ntime_based\nruntime=1\n")
    check(s and s["long"][1] < 2000, "exitall in another job: %r" % s)
    # exit_what: the 1 s job's end ends the job running in another group
    # (stonewall: the running jobs; all: every job), not the one still
    # waiting for it (stonewall), nor the next stonewall batch (stonewall),
    # which with all never start.  fio 3.33 gives the same: runtimes 1000
    # and 999 ms then 256 I/Os each, or no I/O at all for the last two.
    for what, rest in (("stonewall", 256), ("all", 0)):
        s = starts(tmp, "[global]\nsize=1m\nexitall\n"
                   "[slow]\nfilename=DIR/a\nrw=randread\ntime_based\nruntime=1\n"
                   "exit_what=%s\n"
                   "[fast]\nnew_group\nfilename=DIR/b\nrw=randread\ntime_based\nruntime=10\n"
                   "[waiting]\nnew_group\nfilename=DIR/c\nrw=read\nwait_for=slow\n"
                   "[after]\nstonewall\nfilename=DIR/d\nrw=read\n" % what)
        check(s and s["fast"][1] < 2000 and s["waiting"][2] == rest and s["after"][2] == rest,
              "exit_what=%s: %r" % (what, s))
    # exitall_on_error: writes into a sparse 4 MiB file on a 1 MiB tmpfs
    # fail with ENOSPC part way, and that ends the group's 10 s job.
    if os.geteuid() == 0:
        mnt = fresh(tmp, "mnt")
        if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", mnt]).returncode == 0:
            try:
                with open(os.path.join(mnt, "full"), "wb") as f:
                    f.truncate(4 << 20)
                d = fresh(tmp, "eoe")
                job = ("[long]\nfilename=%s/b\nsize=1m\nrw=randread\ntime_based\nruntime=10\n"
                       "[fill]\nfilename=%s/full\nsize=4m\nrw=write\nbs=64k\n"
                       "exitall_on_error\n" % (d, mnt))
                rc, out, stdout = run(BIN, job, d, ["--output-format=json"])
                j = {x["jobname"]: x for x in json.loads(stdout)["jobs"]} if stdout else {}
                check(rc == 1 and "No space left on device" in out and j and
                      j["long"]["job_runtime"] < 2000,
                      "exitall_on_error: exit %d %s" % (rc, out[-300:]))
            finally:
                subprocess.run(["umount", mnt])
    else:
        print("skip: not root: the exitall_on_error check (it mounts a small tmpfs)")


def advice(tmp):
    # fio's fadvise_hint (random access for a random job, sequential for the
    # others, none with 0) and loop_cache_invalidate (a time_based job drops
    # the cache after each pass over its file), seen with strace.
    if not shutil.which("strace"):
        print("skip: no strace: the fadvise checks")
        return
    path = os.path.join(tmp, "adv.dat")
    subprocess.run([BIN, "--name=lay", "--filename=" + path, "--size=1m", "--rw=read"],
                   capture_output=True)
    for rw, hint, want in (("randread", "1", "POSIX_FADV_RANDOM"),
                           ("read", "1", "POSIX_FADV_SEQUENTIAL"),
                           ("randread", "sequential", "POSIX_FADV_SEQUENTIAL"),
                           ("randread", "0", None)):
        p = subprocess.run(["strace", "-f", "-e", "trace=fadvise64", BIN, "--name=a",
                            "--filename=" + path, "--size=1m", "--rw=" + rw, "--time_based",
                            "--runtime=1", "--fadvise_hint=" + hint], capture_output=True,
                           text=True,
                           # LeakSanitizer cannot run under ptrace: an ASan build
                           # would fail at exit.
                           env=dict(os.environ, ASAN_OPTIONS="detect_leaks=0"))
        calls = re.findall(r"fadvise64\(\d+, 0, 1048576, (POSIX_FADV_\w+)\)", p.stderr)
        hints = [c for c in calls if c != "POSIX_FADV_DONTNEED"]
        check(p.returncode == 0 and hints == ([want] if want else []) and
              calls.count("POSIX_FADV_DONTNEED") >= 3,
              "rw=%s fadvise_hint=%s: %r ... (%d drops)" %
              (rw, hint, hints, calls.count("POSIX_FADV_DONTNEED")))


def reserved(tmp):
    """A write job's new file, under each fallocate= mode: no data is written
    before the job (the job's own 4 KiB is the only write) and the file's
    size and allocated blocks after the job are fio's: native and posix
    reserve the 8 MiB, keep reserves it at size 0 until the write, truncate
    and none leave it sparse (truncate at 8 MiB, none at the write's end)."""
    for mode in ("native", "posix", "keep", "truncate", "none"):
        got = {}
        for tool in [BIN] + ([FIO] if FIO else []):
            d = fresh(tmp, "reserve")
            job = ("[w]\nfilename=r.dat\nsize=8m\nrw=write\nbs=4k\nio_size=4k\n"
                   "fallocate=%s\n" % mode)
            trace = os.path.join(tmp, "reserve.strace")
            with open(os.path.join(d, "job.fio"), "w") as f:
                f.write(job)
            # LeakSanitizer cannot run under ptrace: off for the ASan build here.
            env = dict(os.environ, ASAN_OPTIONS=os.environ.get("ASAN_OPTIONS", "") +
                       ":detect_leaks=0")
            p = subprocess.run(["strace", "-f", "-e", "trace=pwrite64,write,fallocate",
                                "-o", trace, tool, "--output-format=terse", "job.fio"],
                               cwd=d, capture_output=True, text=True, timeout=120, env=env)
            check(p.returncode == 0, "fallocate=%s %s: exit %d %s" %
                  (mode, os.path.basename(tool), p.returncode, p.stderr[-300:]))
            st = os.stat(os.path.join(d, "r.dat"))
            # Data written to the file: pwrite/write calls of 4 KiB or more
            # (the report's writes to stdout are smaller than a block here).
            writes = sum(int(m) for m in re.findall(r"(?:pwrite64|write)\([0-9]+, .*?, ([0-9]+)",
                                                    open(trace).read())
                         if int(m) >= 4096)
            got[tool] = (st.st_size, st.st_blocks * 512 >= 8 << 20, writes)
            print("fallocate=%s %s: size %d, blocks %d, data written %d" %
                  (mode, os.path.basename(tool), st.st_size, st.st_blocks * 512, writes))
        size, full, writes = got[BIN]
        check(writes == 4096, "fallocate=%s: iogauge wrote %d bytes, want the job's 4096" %
              (mode, writes))
        check(size == (4096 if mode in ("keep", "none") else 8 << 20),
              "fallocate=%s: iogauge's file is %d bytes" % (mode, size))
        check(full == (mode in ("native", "posix", "keep")),
              "fallocate=%s: iogauge's file %s its 8 MiB allocated" %
              (mode, "has" if full else "does not have"))
        if FIO:
            check(got[BIN] == got[FIO], "fallocate=%s: iogauge %s, fio %s (size, 8 MiB "
                  "allocated, bytes written)" % (mode, got[BIN], got[FIO]))


def main():
    tmp = tempfile.mkdtemp(prefix="iogauge-layout-")
    try:
        places(tmp)
        layouts(tmp)
        io_amounts(tmp)
        control(tmp)
        advice(tmp)
        if shutil.which("strace"):
            reserved(tmp)
        else:
            print("no strace: fallocate= not checked")
    finally:
        shutil.rmtree(tmp)
    finish("layout")


if __name__ == "__main__":
    main()
