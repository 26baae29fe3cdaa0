#!/usr/bin/env python3
# ioengine=mmap and SIGBUS: a copy that touches a page the file cannot
# back (the file truncated under the running job, a full tmpfs) must fail
# that I/O with an error naming the file and the offset, and the run must
# still print its report (exit 1), in a clone's process and in a thread.
# Before, the signal killed the clone's process, or with thread=1 the whole
# program, with no report.  One line per failure, then
# "mmapbus: N passed, M failed".
#
# Environment (set by CTest): IOGAUGE_BIN.
import json
import os
import re
import shutil
import subprocess
import tempfile

from clitest import check, finish, start_running

BIN = os.path.abspath(os.environ["IOGAUGE_BIN"])


def report_of(what, out):
    """The JSON report's first job, or None (a failed check) without one."""
    try:
        return json.loads(out)["jobs"][0]
    except (ValueError, IndexError, KeyError):
        check(False, "%s: no JSON report: %r" % (what, out[:200]))
        return None


def truncated(tmp):
    # The file is cut to nothing while the job runs: a read past the new end
    # is short (end of file, as pread's), a write there cannot be placed.
    for rw, why in (("randread", "short transfer (end of file)"), ("randwrite", "Bad address")):
        for thread in (0, 1):
            what = "truncated under rw=%s, thread=%d" % (rw, thread)
            path = os.path.join(tmp, "t.dat")
            with open(path, "wb") as f:
                f.write(b"\x5a" * (16 << 20))
            try:
                p = start_running([BIN, "--eta=always", "--output-format=json", "--name=t",
                                   "--ioengine=mmap", "--rw=" + rw, "--bs=4k", "--size=16m",
                                   "--filename=" + path, "--time_based", "--runtime=60",
                                   "--thread=%d" % thread], os.path.join(tmp, "t.err"))
            except RuntimeError as e:
                check(False, "%s: %s" % (what, e))
                continue
            os.truncate(path, 0)
            try:
                out, _ = p.communicate(timeout=20)
            except subprocess.TimeoutExpired:
                p.kill()
                out, _ = p.communicate()
            with open(os.path.join(tmp, "t.err")) as f:
                err = f.read()
            want = re.compile(r"iogauge: \[t\] %s: %s at offset [0-9]+, size 4096: %s" %
                              (re.escape(path), rw[4:], re.escape(why)))
            check(p.returncode == 1 and want.search(err),
                  "%s: exit %d, stderr %r (want 1 and %r)" %
                  (what, p.returncode, err[-300:], want.pattern))
            j = report_of(what, out)
            if j:
                check(j["error"] != 0 and j[rw[4:]]["total_ios"] > 0,
                      "%s: report error %r, %r I/Os" % (what, j["error"], j[rw[4:]]["total_ios"]))


def full_tmpfs(tmp):
    # A 16 MiB sparse file on a tmpfs of 4 MiB: the write that needs the
    # 5th MiB finds no page.  No timing: the place of the failure is known.
    if os.geteuid() != 0:
        print("skip: not root: the full tmpfs check")
        return
    mnt = tempfile.mkdtemp(prefix="iogauge-mmapbus-mnt-")
    try:
        if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "iogauge-mmapbus", mnt],
                          capture_output=True).returncode:
            print("skip: cannot mount a tmpfs: the full tmpfs check")
            return
        try:
            for thread in (0, 1):
                what = "full tmpfs, thread=%d" % thread
                path = os.path.join(mnt, "f.dat")
                with open(path, "wb") as f:
                    f.truncate(16 << 20)
                p = subprocess.run([BIN, "--output-format=json", "--name=f", "--ioengine=mmap",
                                    "--rw=write", "--bs=64k", "--size=16m",
                                    "--filename=" + path, "--thread=%d" % thread],
                                   capture_output=True, text=True, timeout=60)
                want = ("iogauge: [f] %s: write at offset 4194304, size 65536: "
                        "No space left on device\n" % path)
                check(p.returncode == 1 and p.stderr.endswith(want),
                      "%s: exit %d, stderr %r (want 1 and %r)" %
                      (what, p.returncode, p.stderr[-300:], want))
                j = report_of(what, p.stdout)
                if j:
                    check(j["error"] == 28 and j["write"]["io_bytes"] == 4 << 20,
                          "%s: report error %r, %r bytes written (want 28, 4 MiB)" %
                          (what, j["error"], j["write"]["io_bytes"]))
                os.unlink(path)
        finally:
            subprocess.run(["umount", mnt])
    finally:
        os.rmdir(mnt)


def main():
    tmp = tempfile.mkdtemp(prefix="iogauge-mmapbus-")
    try:
        truncated(tmp)
        full_tmpfs(tmp)
    finally:
        shutil.rmtree(tmp)
    finish("mmapbus")


if __name__ == "__main__":
    main()
