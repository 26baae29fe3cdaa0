#!/usr/bin/env python3
# serialize_overlap: on a one-block file every write overlaps the ones in
# flight, so with it the depth stays at 1 (JSON iodepth_level "1" 100%),
# without it at iodepth; reads are not held back; as fio 3.33's on the
# same job files in the same run.  libaio and io_uring, direct=1.
# One line per failure, then "overlap: N passed, M failed".
#
# Environment (set by CTest): IOGAUGE_BIN.
import json
import os
import shutil
import subprocess
import tempfile

from clitest import check, finish

BIN = os.path.abspath(os.environ["IOGAUGE_BIN"])
FIO = shutil.which("fio")


def levels(tool, tmp, body):
    path = os.path.join(tmp, "s.fio")
    with open(path, "w") as f:
        f.write("[s]\nfilename=%s/s.dat\ndirect=1\niodepth=8\ntime_based\nruntime=1\n%s"
                % (tmp, body))
    p = subprocess.run([tool, "--output-format=json", path], cwd=tmp, capture_output=True,
                       text=True, timeout=120)
    if not check(p.returncode == 0, "%s %r: exit %d %s" % (os.path.basename(tool), body,
                                                          p.returncode, p.stderr[-300:])):
        return None
    return json.loads(p.stdout)["jobs"][0]["iodepth_level"]


def main():
    tmp = tempfile.mkdtemp(prefix="iogauge-overlap-")
    try:
        with open(os.path.join(tmp, "s.dat"), "wb") as f:
            f.write(b"\1" * 4096)
        for engine in ("libaio", "io_uring"):
            for tool in [BIN] + ([FIO] if FIO else []):
                name = "%s %s" % (os.path.basename(tool), engine)
                base = "size=4k\nbs=4k\nioengine=%s\n" % engine
                on = levels(tool, tmp, base + "rw=randwrite\nserialize_overlap=1\n")
                off = levels(tool, tmp, base + "rw=randwrite\nserialize_overlap=0\n")
                reads = levels(tool, tmp, base + "rw=randread\nserialize_overlap=1\n")
                check(on and on["1"] > 99.9, "%s: serialize_overlap=1 depths %s" % (name, on))
                check(off and off["8"] > 90, "%s: serialize_overlap=0 depths %s" % (name, off))
                check(reads and reads["8"] > 90, "%s: reads held back: %s" % (name, reads))
    finally:
        shutil.rmtree(tmp)
    finish("overlap")


main()
