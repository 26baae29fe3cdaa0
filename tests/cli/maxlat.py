#!/usr/bin/env python3
# max_latency: a job whose I/Os take longer than the limit fails (exit 1,
# the I/O and ETIMEDOUT's text), per direction, and not when the total
# latency is not measured (disable_lat), each against fio 3.33's exit
# status on the same job file and file in the same run.
# One line per failure, then "maxlat: N passed, M failed".
#
# Environment (set by CTest): IOGAUGE_BIN.
import os
import shutil
import subprocess
import tempfile

from clitest import check, finish

BIN = os.path.abspath(os.environ["IOGAUGE_BIN"])
FIO = shutil.which("fio")


def run(tool, tmp, opts):
    path = os.path.join(tmp, "m.fio")
    with open(path, "w") as f:
        f.write("[m]\nfilename=%s/m.dat\nsize=1m\nbs=4k\n%s" % (tmp, opts))
    p = subprocess.run([tool, path], cwd=tmp, capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout + p.stderr


def case(tmp, opts, fails, op=None):
    rc, out = run(BIN, tmp, opts)
    want = 1 if fails else 0
    check(rc == want, "%r: exit %d, want %d: %s" % (opts, rc, want, out[-300:]))
    if fails:
        check("m.dat: %s at offset" % op in out and "above max_latency=1000 ns" in out and
              "Connection timed out" in out, "%r: message %s" % (opts, out[-300:]))
    if FIO:
        frc, fout = run(FIO, tmp, opts)
        check(frc == rc, "%r: fio exit %d, iogauge %d" % (opts, frc, rc))
        if fails:
            check("exceeds specified max (1000 nsec)" in fout and " %s " % op in fout,
                  "%r: fio said %s" % (opts, fout[-300:]))


def main():
    tmp = tempfile.mkdtemp(prefix="iogauge-maxlat-")
    try:
        case(tmp, "rw=randwrite\nmax_latency=10s\n", False)
        case(tmp, "rw=randwrite\nmax_latency=1\n", True, "write")
        case(tmp, "rw=randwrite\nmax_latency=1\ndisable_lat=1\n", False)
        case(tmp, "rw=write\nmax_latency=1,10s\n", False)
        case(tmp, "rw=read\nmax_latency=1,10s\n", True, "read")
        case(tmp, "rw=randrw\nmax_latency=10s,1\n", True, "write")
        rc, out = run(BIN, tmp, "rw=read\nmax_latency=1x\n")
        check(rc == 2 and "m.fio:6" in out and "max_latency" in out, "bad value: %d %s"
              % (rc, out[-200:]))
    finally:
        shutil.rmtree(tmp)
    finish("maxlat")


main()
