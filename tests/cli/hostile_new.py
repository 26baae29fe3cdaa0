#!/usr/bin/env python3
# Hostile input to what landed in round 4 (iogauge compare, witness, sweep):
# each check is a finding that once broke, with the behaviour it has now.
# compare given /dev/zero is refused at 256 MiB (it took all memory).
#
# Environment (set by CTest): IOGAUGE_BIN.
import os
import subprocess
import sys
import tempfile

from clitest import check, finish

BIN = os.path.abspath(os.environ["IOGAUGE_BIN"])


def run(args, timeout=20, **kw):
    p = subprocess.run([BIN] + args, capture_output=True, text=True, timeout=timeout, **kw)
    return p.returncode, p.stdout, p.stderr


def small_report(tmp):
    out = os.path.join(tmp, "a.json")
    rc, _, err = run(["--name=j", "--ioengine=null", "--size=1m", "--rw=read",
                      "--output-format=json", "--output=" + out])
    check(rc == 0, "the null run for a report: exit %d: %s" % (rc, err))
    return out


def compare_endless(tmp, report):
    """An endless input (/dev/zero) is refused at 256 MiB, exit 2, naming
    it (it was read into memory until the machine ran out)."""
    rc, out, err = run(["compare", report, "/dev/zero"], timeout=10)
    check(rc == 2 and "/dev/zero: not a JSON report (over 256 MiB)" in err and not out,
          "compare /dev/zero: exit %d, %r" % (rc, err[-300:]))


def main():
    with tempfile.TemporaryDirectory(prefix="hostile_new.") as tmp:
        report = small_report(tmp)
        compare_endless(tmp, report)
    finish("hostile_new")


main()
