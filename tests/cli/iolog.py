#!/usr/bin/env python3
# write_iolog: the I/Os issued, in fio's iolog version 3 format, compared
# with what fio 3.33 writes for the same size-bound job (the same lines but
# the times; for a random job, the same blocks), read back by fio's own
# read_iolog (a replay of iogauge's log issues exactly the logged I/Os,
# checked with fio's write_iolog of the replay), appended to as fio does,
# and a log that cannot be opened (exit 1, naming it and the errno text,
# before any I/O).  One line per failure, then "iolog: N passed, M failed".
#
# Environment (set by CTest): IOGAUGE_BIN.  Skips (77) without fio.
import os
import shutil
import sys
import tempfile

from clitest import capture, check, finish, lay_out

BIN = os.path.abspath(os.environ["IOGAUGE_BIN"])
FIO = shutil.which(os.environ.get("FIO", "fio"))
TMP = None


def run(argv):
    return capture(argv, TMP)


def read_log(path):
    """(header lines, [(time, file, action, rest...)]) of an iolog file."""
    with open(path) as f:
        lines = f.read().splitlines()
    heads = [ln for ln in lines if ln.startswith("fio version")]
    recs = [ln.split() for ln in lines if not ln.startswith("fio version")]
    return heads, recs


def logged(tool, job, log):
    """Runs @tool on the command-line @job with write_iolog=@log (removed
    first): (exit status, stderr, header lines, records)."""
    if os.path.exists(log):
        os.unlink(log)
    rc, _, err = run([tool, "--output=/dev/null"] + job + ["--write_iolog=" + log])
    if rc:
        return rc, err, [], []
    heads, recs = read_log(log)
    return rc, err, heads, recs


def ios(recs):
    """The I/O lines without their times: (file, action, offset, length)."""
    return [tuple(r[1:]) for r in recs if len(r) == 5]


def compare(tmp):
    data = os.path.join(tmp, "d.dat")
    lay_out(data, 1 << 20)
    cases = [
        ("seq write", ["--rw=write", "--bs=16k", "--size=256k"], False),
        ("seq read", ["--rw=read", "--bs=4k", "--size=128k", "--offset=64k"], False),
        ("seq rw mix", ["--rw=rw", "--bs=8k", "--size=128k", "--rwmixread=100"], False),
        ("randread", ["--rw=randread", "--bs=4k", "--size=256k"], True),
        ("randwrite libaio", ["--rw=randwrite", "--bs=8k", "--size=256k", "--ioengine=libaio",
                              "--iodepth=4", "--direct=1"], True),
    ]
    for what, opts, random in cases:
        job = ["--name=j", "--filename=" + data] + opts
        frc, ferr, fh, fr = logged(FIO, job, os.path.join(tmp, "fio.log"))
        rc, err, ih, ir = logged(BIN, job, os.path.join(tmp, "iog.log"))
        if not check(frc == 0 and rc == 0, "%s: fio exit %d %s; iogauge exit %d %s" %
                     (what, frc, ferr[-200:], rc, err[-200:])):
            continue
        check(fh == ih == ["fio version 3 iolog"], "%s: headers fio %s, iogauge %s" %
              (what, fh, ih))
        fa = [tuple(r[1:]) for r in fr if len(r) == 3]
        ia = [tuple(r[1:]) for r in ir if len(r) == 3]
        check(fa == ia == [(data, "add"), (data, "open"), (data, "close")],
              "%s: file lines fio %s, iogauge %s" % (what, fa, ia))
        fi, ii = ios(fr), ios(ir)
        if random:
            # Another generator: the same blocks (a random map), in its order.
            check(sorted(fi) == sorted(ii) and len(ii) == len(set(ii)),
                  "%s: %d I/Os by fio, %d by iogauge, %d blocks in common" %
                  (what, len(fi), len(ii), len(set(fi) & set(ii))))
        else:
            check(fi == ii, "%s: fio %s..., iogauge %s..." % (what, fi[:3], ii[:3]))
        times = [int(r[0]) for r in ir]
        check(times == sorted(times), "%s: times go back: %s" % (what, times[:10]))


def replay(tmp):
    """fio's read_iolog runs iogauge's log: the same I/Os in the same
    order, as strace shows fio's pread64/pwrite64 calls."""
    data = os.path.join(tmp, "r.dat")
    lay_out(data, 1 << 20)
    log = os.path.join(tmp, "iog.log")
    rc, err, _, ir = logged(BIN, ["--name=j", "--filename=" + data, "--rw=randrw",
                                  "--bs=4k", "--size=512k"], log)
    if not check(rc == 0, "randrw: exit %d %s" % (rc, err)):
        return
    if not shutil.which("strace"):
        check(False, "strace is not installed")
        return
    trace = os.path.join(tmp, "strace.out")
    frc, out, ferr = run(["strace", "-f", "-qq", "-y", "-e", "trace=pread64,pwrite64", "-o", trace,
                          FIO, "--name=r", "--read_iolog=" + log, "--minimal"])
    if not check(frc == 0, "fio --read_iolog of iogauge's log: exit %d %s" % (frc, ferr)):
        return
    calls = []
    with open(trace) as f:
        for ln in f:
            # 123 pread64(5</path/r.dat>, "..."..., 4096, 8192) = 4096
            if ("pread64(" not in ln and "pwrite64(" not in ln) or "<%s>" % data not in ln:
                continue
            op = "read" if "pread64(" in ln else "write"
            args = ln.rsplit(")", 1)[0].rsplit(",", 2)
            calls.append((data, op, args[2].strip(), args[1].strip()))
    check(calls == ios(ir) and len(calls) > 100,
          "fio's replay of iogauge's log: %d I/Os logged, %d issued, first %s / %s" %
          (len(ios(ir)), len(calls), ios(ir)[:2], calls[:2]))
    f = out.split(";")
    nr = sum(1 for r in ios(ir) if r[1] == "read")
    check(int(f[5]) * 1024 == nr * 4096, "fio's replay read %s KiB, the log %d reads" %
          (f[5], nr))


def appends(tmp):
    """A second run adds to the log, as fio's fopen(..., "a"), clones too."""
    data = os.path.join(tmp, "a.dat")
    lay_out(data, 1 << 20)
    for tool, name in ((FIO, "fio"), (BIN, "iogauge")):
        log = os.path.join(tmp, name + ".app.log")
        if os.path.exists(log):
            os.unlink(log)
        job = ["--name=j", "--filename=" + data, "--rw=read", "--bs=64k", "--size=256k",
               "--write_iolog=" + log, "--output=/dev/null"]
        run([tool] + job)
        run([tool] + job + ["--numjobs=2"])
        heads, recs = read_log(log)
        check(len(heads) == 3 and len(ios(recs)) == 12, "%s: two runs (1 and 2 clones) left "
              "%d headers and %d I/Os, not 3 and 12" % (name, len(heads), len(ios(recs))))


def errors(tmp):
    data = os.path.join(tmp, "e.dat")
    bad = os.path.join(tmp, "nodir", "x.log")
    rc, out, err = run([BIN, "--name=j", "--filename=" + data, "--rw=write", "--size=64k",
                        "--write_iolog=" + bad])
    check(rc == 1 and not out and bad in err and "No such file or directory" in err,
          "write_iolog in a missing folder: exit %d %r" % (rc, err))
    check(not os.path.exists(data), "write_iolog in a missing folder: the data file was made")


def inflate(tmp):
    """--inflate-log prints what fio's --inflate-log prints for the logs fio
    stores compressed: bandwidth, latency with offsets, with priorities."""
    import glob
    data = os.path.join(tmp, "z.dat")
    lay_out(data, 4 << 20)
    jobs = [("bw", ["--write_bw_log=zb", "--log_avg_msec=0"]),
            ("lat with offsets", ["--write_lat_log=zl", "--log_offset=1"]),
            ("iops with prio", ["--write_iops_log=zp", "--log_prio=1"])]
    for what, opts in jobs:
        for f in glob.glob(os.path.join(tmp, "z[blp]_*")):
            os.unlink(f)
        rc, _, err = run([FIO, "--name=z", "--filename=" + data, "--size=4m", "--rw=randrw",
                          "--log_compression=16k", "--log_store_compressed=1",
                          "--output=/dev/null"] + opts)
        logs = sorted(glob.glob(os.path.join(tmp, "z[blp]_*.fz")))
        if not check(rc == 0 and logs, "fio %s: exit %d, logs %s %s" % (what, rc, logs, err)):
            continue
        for log in logs:
            frc, fout, _ = run([FIO, "--inflate-log=" + log])
            irc, iout, ierr = run([BIN, "--inflate-log=" + log])
            if not os.path.getsize(log):
                # An empty log (psync has no slat): both fail.
                check(frc != 0 and irc == 1 and not iout, "--inflate-log of an empty "
                      "%s: fio %d, iogauge %d %r" % (os.path.basename(log), frc, irc, ierr))
                continue
            check(frc == irc == 0 and fout == iout and len(iout.splitlines()) > 100,
                  "--inflate-log %s (%s): fio %d lines, iogauge %d %s; first %r / %r" %
                  (os.path.basename(log), what, len(fout.splitlines()),
                   len(iout.splitlines()), ierr, fout[:40], iout[:40]))
    bad = os.path.join(tmp, "bad.fz")
    with open(bad, "wb") as f:
        f.write(b"not zlib at all\n")
    rc, out, err = run([BIN, "--inflate-log=" + bad])
    check(rc == 1 and not out and bad in err, "--inflate-log of a text file: %d %r" % (rc, err))
    rc, out, err = run([BIN, "--inflate-log=" + bad + ".none"])
    check(rc == 1 and "No such file or directory" in err, "--inflate-log of nothing: %d %r" %
          (rc, err))


def main():
    global TMP
    if not FIO:
        print("SKIP: fio is not installed")
        sys.exit(77)
    tmp = TMP = tempfile.mkdtemp(prefix="iolog.")
    try:
        compare(tmp)
        replay(tmp)
        appends(tmp)
        errors(tmp)
        inflate(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    finish("iolog")


if __name__ == "__main__":
    main()
