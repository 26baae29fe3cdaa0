#!/usr/bin/env python3
# read_iolog and the replay_* options, against fio 3.33 replaying the same
# logs: the I/Os issued (iogauge's write_iolog of its replay; strace -y of
# fio's pread64/pwrite64), their bytes, the log's times (replay_no_stall,
# replay_time_scale), version 2 logs with wait lines, replay_redirect,
# replay_scale and replay_align, and bad logs (exit 2 with file:line,
# nothing run).  One line per failure, then "replay: N passed, M failed".
#
# Environment (set by CTest): IOGAUGE_BIN.  Skips (77) without fio or strace.
import os
import shutil
import sys
import tempfile

import replaytest
from replaytest import ios_of_log
from clitest import capture, check, finish, lay_out

BIN = os.path.abspath(os.environ["IOGAUGE_BIN"])
FIO = shutil.which(os.environ.get("FIO", "fio"))
STRACE = shutil.which("strace")
TMP = None


def run(argv):
    return capture(argv, TMP)


def iogauge_replay(log, extra=()):
    return replaytest.iogauge_replay(BIN, TMP, log, extra)


def fio_replay(log, extra=(), files=()):
    return replaytest.fio_replay(FIO, STRACE, TMP, log, extra, files)


def same_replay(what, log, files, extra=()):
    rc, f, got = iogauge_replay(log, extra)
    frc, ff, fgot = fio_replay(log, extra, files)
    if not check(rc == 0 and frc == 0, "%s: iogauge exit %d %s; fio exit %d %s" %
                 (what, rc, f if rc else "", frc, ff if frc else "")):
        return None, None
    # Terse v3: read KiB is field 5, write KiB field 46.
    check(got == fgot and len(got) > 0 and (f[5], f[46]) == (ff[5], ff[46]),
          "%s: iogauge issued %d I/Os (%s/%s KiB), fio %d (%s/%s KiB); first %s / %s" %
          (what, len(got), f[5], f[46], len(fgot), ff[5], ff[46], got[:2], fgot[:2]))
    return f, ff


def logs(tmp):
    data = os.path.join(tmp, "d.dat")
    lay_out(data, 1 << 20)
    # A log fio wrote, replayed by both: the same I/Os in the same order.
    flog = os.path.join(tmp, "fio.log")
    rc, _, err = run([FIO, "--name=w", "--filename=" + data, "--rw=randrw", "--bs=4k",
                      "--size=512k", "--write_iolog=" + flog, "--output=/dev/null"])
    check(rc == 0, "fio --write_iolog: %d %s" % (rc, err))
    f, _ = same_replay("fio's log", flog, [data])
    check(f is not None and ios_of_log(flog) == iogauge_replay(flog)[2],
          "iogauge's replay of fio's log differs from the log")
    # read_iolog_chunked: fio reads the log in pieces, iogauge whole (it
    # warns); the I/Os are the same.
    same_replay("read_iolog_chunked=1", flog, [data], ["--read_iolog_chunked=1"])
    rc, _, err = run([BIN, "--name=r", "--read_iolog=" + flog, "--read_iolog_chunked=1",
                      "--output=/dev/null"])
    check(rc == 0 and "read_iolog_chunked" in err and "warning" in err,
          "read_iolog_chunked: exit %d %r" % (rc, err))
    # libaio at depth 8: iogauge issues every logged I/O; fio 3.33 leaves
    # out the last iodepth - 1 (its replay ends when the list is empty).
    deep = ["--ioengine=libaio", "--iodepth=8", "--direct=1"]
    rc, f, got = iogauge_replay(flog, deep)
    frc, out, _ = run([FIO, "--name=r", "--read_iolog=" + flog, "--minimal"] + deep)
    ff = out.split(";")
    logged = ios_of_log(flog)
    kib = sum(n for _, _, _, n in logged) // 1024
    check(rc == 0 and frc == 0 and got == logged and
          int(f[5]) + int(f[46]) == kib and int(ff[5]) + int(ff[46]) == kib - 7 * 4,
          "libaio iodepth=8: iogauge %d of %d I/Os, %s KiB; fio %s KiB" %
          (len(got), len(logged), rc == 0 and int(f[5]) + int(f[46]),
           frc == 0 and int(ff[5]) + int(ff[46])))
    # A log iogauge wrote, with mixed block sizes.
    ilog = os.path.join(tmp, "iog.log")
    os.unlink(ilog) if os.path.exists(ilog) else None
    rc, _, err = run([BIN, "--name=w", "--filename=" + data, "--rw=randrw",
                      "--bssplit=4k/50:16k/50", "--size=512k", "--write_iolog=" + ilog,
                      "--output=/dev/null"])
    check(rc == 0, "iogauge --write_iolog: %d %s" % (rc, err))
    same_replay("iogauge's log, bssplit", ilog, [data])
    # replay_scale and replay_align: offsets divided, then rounded down.
    rc, _, got = iogauge_replay(flog, ["--replay_scale=3", "--replay_align=8192"])
    want = [(p, a, o // 3 // 8192 * 8192, n) for p, a, o, n in ios_of_log(flog)]
    check(rc == 0 and got == want, "replay_scale=3 replay_align=8192: %s... not %s..." %
          (got[:2], want[:2]))
    same_replay("replay_scale=3 replay_align=8192", flog, [data],
                ["--replay_scale=3", "--replay_align=8192"])
    # replay_redirect: every I/O to another file; the logged one untouched.
    other = os.path.join(tmp, "o.dat")
    lay_out(other, 1 << 20)
    with open(data, "rb") as fh:
        before = fh.read()
    rc, _, got = iogauge_replay(flog, ["--replay_redirect=" + other])
    check(rc == 0 and got == [(other,) + g[1:] for g in ios_of_log(flog)],
          "replay_redirect: %s..." % (got[:2],))
    same_replay("replay_redirect", flog, [other], ["--replay_redirect=" + other])
    with open(data, "rb") as fh:
        check(fh.read() == before, "replay_redirect: the logged file was written")


def times(tmp):
    data = os.path.join(tmp, "t.dat")
    lay_out(data, 1 << 20)
    v3 = os.path.join(tmp, "slow3.log")
    with open(v3, "w") as f:
        f.write("fio version 3 iolog\n0 %s add\n0 %s open\n10 %s read 0 4096\n"
                "400000 %s read 4096 4096\n800000 %s write 8192 4096\n800100 %s close\n" %
                ((data,) * 6))
    v2 = os.path.join(tmp, "slow2.log")
    with open(v2, "w") as f:
        f.write("fio version 2 iolog\n%s add\n%s open\n%s read 0 4096\n%s wait 600 0\n"
                "%s read 8192 4096\n%s close\n" % ((data,) * 6))
    # Terse v3: read runtime (ms) is field 8.
    for what, log, extra, lo, hi in (("v3 times", v3, [], 750, 1300),
                                     ("v3 replay_time_scale=200", v3, ["--replay_time_scale=200"],
                                      350, 700),
                                     ("v3 replay_no_stall", v3, ["--replay_no_stall=1"], 0, 150),
                                     ("v2 wait 600 ms", v2, [], 550, 1000)):
        f, ff = same_replay(what, log, [data], extra)
        if f is None:
            continue
        a, b = int(f[8]), int(ff[8])
        # fio counts a version 2 wait from its own start, before its set-up:
        # its job waits less.  iogauge counts from the job's start.
        flo = lo - 250 if log == v2 else lo
        check(lo <= a <= hi and flo <= b <= hi + 300,
              "%s: iogauge ran %d ms, fio %d ms (expected %d..%d)" % (what, a, b, lo, hi))


def bad(tmp):
    data = os.path.join(tmp, "b.dat")
    lay_out(data, 1 << 20)
    cases = [
        ("fio version 1 iolog\n", "not fio's iolog version 2 or 3"),
        ("fio version 3 iolog\n0 %s add\n5 %s jump 0 4096\n" % (data, data), ":3:"),
        ("fio version 3 iolog\n5 %s read 0 4096\n" % data, "no 'add' line"),
        ("fio version 2 iolog\n%s add\n%s read 0\n" % (data, data), ":3:"),
        ("fio version 3 iolog\n0 %s add\n" % data, "no I/O in it"),
    ]
    for i, (text, msg) in enumerate(cases):
        log = os.path.join(tmp, "bad%d.log" % i)
        with open(log, "w") as f:
            f.write(text)
        rc, out, err = run([BIN, "--name=r", "--read_iolog=" + log])
        check(rc == 2 and not out and msg in err and log in err,
              "bad log %r: exit %d %r" % (text, rc, err))
    good = os.path.join(tmp, "good.log")
    with open(good, "w") as f:
        f.write("fio version 3 iolog\n0 %s add\n5 %s read 0 4096\n" % (data, data))
    for opt in ("--size=1m", "--rw=write", "--verify=crc32c", "--filename=" + data,
                "--time_based"):
        rc, out, err = run([BIN, "--name=r", "--read_iolog=" + good, opt, "--runtime=1"])
        check(rc == 2 and "read_iolog" in err, "read_iolog with %s: exit %d %r" %
              (opt, rc, err))
    rc, out, err = run([BIN, "--name=r", "--read_iolog=" + os.path.join(tmp, "none.log")])
    check(rc == 2 and "none.log" in err and "No such file or directory" in err,
          "a missing log: exit %d %r" % (rc, err))


def main():
    global TMP
    if not FIO or not STRACE:
        print("SKIP: fio or strace is not installed")
        sys.exit(77)
    tmp = TMP = tempfile.mkdtemp(prefix="replay.")
    try:
        logs(tmp)
        times(tmp)
        bad(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    finish("replay")


if __name__ == "__main__":
    main()
