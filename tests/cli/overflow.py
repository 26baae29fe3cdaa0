#!/usr/bin/env python3
# Sizes, offsets and times near 2^63 and 2^64 (issue 21): each once
# crashed (SIGSEGV) or wrapped to 0 and ended the run at once with exit 0.
# Now each is refused before anything starts (exit 2, the flag or
# file:line named, nothing on stdout, no file created), and values just
# inside the limits still run.  One line per failure, then
# "overflow: N passed, M failed".
#
# Environment (set by CTest): IOGAUGE_BIN, IOGAUGE_SRC.
import os
import shutil
import subprocess
import tempfile

from badinput import refused
from clitest import check, finish

BIN = os.path.abspath(os.environ["IOGAUGE_BIN"])
NULL = ["--ioengine=null"]
P63 = 1 << 63
P64 = 1 << 64


def crashes(work):
    """The reports of issue 21, as given, and in threads (a crash there
    was the whole program's: exit 139)."""
    for mode in ([], ["--thread"]):
        tag = " ".join(mode)
        refused(["--name=x", "--ioengine=null", "--size=1024p", "--bs=1024p", "--iodepth=16"] +
                mode, work,
                "--bs: [x] a block size of 1152921504606846976 bytes (for reads) is larger "
                "than 2147479552", "bs=1024p " + tag)
        refused(["--name=x", "--offset=18446744073708503040", "--size=1m", "--rw=write"] + mode,
                work, "--offset: [x] the I/O region (offset 18446744073708503040, 1048576 bytes) "
                "ends past 9223372036854775807", "offset 2^64 - 1m " + tag)
    # runtime fit 64 bits as ns, and wrapped the deadline: rc 0 at once.
    refused(["--name=x", "--runtime=18446744073", "--time_based", "--size=1m"] + NULL, work,
            "--runtime=18446744073: '18446744073': longer than the limit of 2^62 ns", "runtime")


def refusals(work):
    lim = P63 - 1 - (1 << 20)  # the last offset at which a 1m region fits
    cases = [
        (["--startdelay=18446744073", "--size=1m"],
         "--startdelay=18446744073: '18446744073': longer"),
        (["--startdelay=1-18446744073", "--size=1m"], "--startdelay=1-18446744073"),
        (["--ramp_time=4611686019", "--size=1m"], "--ramp_time=4611686019"),
        (["--thinktime=4611686018427388us", "--size=1m"], "--thinktime"),
        (["--runtime=4611686018427387905ns", "--size=1m"], "longer than the limit"),
        (["--size=4g", "--bs=2147479553"], "--bs: [x] a block size of 2147479553 bytes"),
        (["--size=8g", "--bs=4k,4g"], "--bs: [x] a block size of 4294967296 bytes (for writes)"),
        (["--size=8g", "--bsrange=4k-3g"], "--bsrange: [x] a block size of 3221225472"),
        (["--size=8g", "--bssplit=4k/50:4g/50"], "--bssplit: [x] a block size of 4294967296"),
        (["--offset=%d" % (lim + 1), "--size=1m"], "--offset: [x] the I/O region"),
        (["--size=%d" % P63], "--size: [x] the I/O region (offset 0, %d bytes)" % P63),
        (["--offset=1m", "--size=%d" % (P64 - 1)], "--size: [x] the I/O region"),
        (["--size=1m", "--offset_increment=%d" % (1 << 62), "--numjobs=3"],
         "--offset_increment: [x] the I/O region of the last clone (offset %d," % P63),
        (["--size=1m", "--offset_increment=%d" % P63, "--numjobs=3"],
         "--offset_increment: [x] offset=0 plus offset_increment=%d for each of 3 clones is "
         "past 2^64 bytes" % P63),
        (["--filesize=%d" % P63], "--filesize: [x] the I/O region"),
    ]
    for args, want in cases:
        refused(["--name=x"] + NULL + args, work, want, " ".join(args))
    # Not the null engine: refused before the file is created.
    refused(["--name=x", "--filename=f.dat", "--offset=%d" % (lim + 1), "--size=1m"], work,
            "--offset: [x] the I/O region", "psync, offset past 2^63")
    # --output is not created for a run refused.
    refused(["--name=x", "--output=out.json", "--bs=1024p", "--size=1024p"] + NULL, work,
            "--bs: [x]", "--output")


def jobfiles(work):
    """A job file's line is named."""
    texts = [
        ("o.fio", "[global]\nioengine=null\n[j]\nsize=1m\noffset=%d\n" % (P64 - 4096),
         "o.fio:5: [j] the I/O region"),
        ("b.fio", "[j]\nioengine=null\nsize=8g\n\nbs=3g\n", "b.fio:5: [j] a block size"),
        ("r.fio", "[j]\nioengine=null\nruntime=18446744073\n", "r.fio:3: runtime:"),
    ]
    for name, text, want in texts:
        with open(os.path.join(work, name), "w") as f:
            f.write(text)
        refused([name], work, want, name)
        os.unlink(os.path.join(work, name))


def run(args):
    return subprocess.run([BIN, "--output-format=terse"] + args, capture_output=True,
                          text=True, timeout=120)


def near_limits(work):
    """Values just inside the limits are planned and run."""
    lim = P63 - 1 - (1 << 20)
    cases = [
        # The region ends at byte 2^63 - 1 exactly.
        ["--offset=%d" % lim, "--size=1m"],
        # The last of 4 clones ends there too (threads: a clone's process
        # keeps the null engines of the clones forked after it, which
        # valgrind counts as lost).
        ["--offset_increment=%d" % ((P63 - 1 - (1 << 20)) // 3), "--size=1m", "--numjobs=4",
         "--thread"],
        # 2^64 - 2 bytes in two files: two regions of 2^63 - 1.
        ["--nrfiles=2", "--size=%d" % (P64 - 2), "--io_size=1m"],
        # Three regions of 2^63 - 1: their sum passes 2^64, half of it is the I/O.
        ["--nrfiles=3", "--filesize=%d" % (P63 - 1), "--io_size=50%", "--runtime=1"],
        # The longest runtime taken; the size ends the job first.
        ["--runtime=4611686018", "--size=1m"],
        ["--startdelay=0", "--ramp_time=0", "--thinktime=4611686018427387us",
         "--thinktime_blocks=1000000", "--size=1m"],
    ]
    for args in cases:
        r = run(["--name=x"] + NULL + args)
        check(r.returncode == 0 and r.stdout.startswith("3;"),
              "%s: exit %d, %s" % (" ".join(args), r.returncode, r.stderr[-300:]))
    # bs at its bound is planned: the memory check (the plan's sum) is what
    # refuses 16 x 65536 slots of it, with the sum right.
    refused(["--name=x", "--size=4g", "--bs=2147479552", "--iodepth=65536", "--numjobs=16"] +
            NULL, work, "the I/O buffers need 2147479552 MiB", "bs at its bound")
    # A real file, offsets in percentages of it, taken without a wrap.
    path = os.path.join(work, "p.dat")
    r = run(["--name=p", "--filename=" + path, "--size=1m", "--rw=write"])
    r2 = run(["--name=p", "--filename=" + path, "--offset=50%", "--size=25%", "--rw=read",
              "--offset_increment=10%", "--numjobs=2"])
    check(r.returncode == 0 and r2.returncode == 0 and os.path.getsize(path) == 1 << 20,
          "percentages: exit %d, %d: %s" % (r.returncode, r2.returncode, r2.stderr[-300:]))
    os.unlink(path)


def main():
    tmp = tempfile.mkdtemp(prefix="iogauge-overflow-")
    try:
        crashes(tmp)
        refusals(tmp)
        jobfiles(tmp)
        near_limits(tmp)
    finally:
        shutil.rmtree(tmp)
    finish("overflow")


if __name__ == "__main__":
    main()
