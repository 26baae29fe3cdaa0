#!/usr/bin/env python3
# Faults during a run, through the command line: a file cut short under a
# running job (the error names file, offset, size and what happened; the
# report of what ran comes; exit 1), a file removed under it (Linux keeps
# the open file: the run goes on), and a full filesystem (ENOSPC on a
# small tmpfs) stopping a job, with continue_on_error=write too (as fio's,
# it passes over EIO and EILSEQ alone; ignore_error.py has the rest).
# One line per failure, then "faults: N passed, M failed".
#
# Environment (set by CTest): IOGAUGE_BIN, IOGAUGE_SRC.
import json
import os
import re
import shutil
import subprocess
import tempfile
import time

from clitest import check, finish, tmpfs

BIN = os.path.abspath(os.environ["IOGAUGE_BIN"])


def engines():
    out = subprocess.run([BIN, "--list-engines"], capture_output=True, text=True).stdout
    return ["psync"] + [e for e in ("io_uring", "libaio") if e in out]


def lay(path, size="16m"):
    subprocess.run([BIN, "--name=lay", "--filename=" + path, "--size=" + size, "--rw=read",
                    "--io_size=64k"], capture_output=True, check=True)


def under(path, args, action, after=1.0):
    """Runs a 10 s time-based read of @path with @args, does @action after
    @after s: (exit status, stdout, stderr, seconds it ran)."""
    t0 = time.monotonic()
    p = subprocess.Popen([BIN, "--name=r", "--filename=" + path, "--size=16m", "--rw=read",
                          "--bs=4k", "--time_based", "--runtime=10", "--output-format=json"]
                         + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(after)
    action()
    out, err = p.communicate(timeout=30)
    return p.returncode, out, err, time.monotonic() - t0


def cut_short(tmp):
    for eng in engines():
        path = os.path.join(tmp, "cut-%s.dat" % eng)
        lay(path)
        rc, out, err, took = under(path, ["--ioengine=" + eng, "--iodepth=4"],
                                   lambda: os.truncate(path, 1 << 20))
        m = re.search(r"%s: read at offset (\d+), size 4096: short transfer \(end of file\)"
                      % re.escape(path), err)
        j = json.loads(out)["jobs"][0] if out.startswith("{") else None
        check(rc == 1 and m and int(m.group(1)) >= 1 << 20 and took < 5 and j and
              j["read"]["total_ios"] > 0 and j["error"] != 0,
              "%s, file cut to 1 MiB: exit %d after %.1f s, %s" % (eng, rc, took, err[-300:]))


def removed(tmp):
    path = os.path.join(tmp, "gone.dat")
    lay(path)
    rc, out, err, took = under(path, ["--runtime=2"], lambda: os.unlink(path))
    j = json.loads(out)["jobs"][0] if out.startswith("{") else None
    check(rc == 0 and j and j["read"]["total_ios"] > 0 and took >= 2 and not os.path.exists(path),
          "file removed under the job: exit %d %s" % (rc, err[-200:]))


def full(tmp):
    if os.geteuid() != 0:
        print("skip: not root: the ENOSPC check (it mounts a small tmpfs)")
        return
    mnt = os.path.join(tmp, "mnt")
    os.mkdir(mnt)
    with tmpfs(mnt, "1m") as mounted:
        if not mounted:
            print("skip: no tmpfs mount: the ENOSPC check")
            return
        path = os.path.join(mnt, "f.dat")
        for coe, want_rc in (("none", 1), ("write", 1)):
            with open(path, "wb") as f:
                f.truncate(4 << 20)  # sparse: the writes find the space missing
            p = subprocess.run([BIN, "--name=w", "--filename=" + path, "--size=4m", "--rw=write",
                                "--bs=64k", "--continue_on_error=" + coe, "--output-format=json"],
                               capture_output=True, text=True)
            j = json.loads(p.stdout)["jobs"][0] if p.stdout.startswith("{") else None
            w = j["write"]["total_ios"] if j else -1
            # ENOSPC is not among the errors continue_on_error passes over
            # alone (EIO, EILSEQ): both stop, as fio's (ignore_error.py).
            ok = re.search(r"%s: write at offset \d+, size 65536: No space left on device"
                           % re.escape(path), p.stderr) and 0 < w < 64
            check(p.returncode == want_rc and ok, "ENOSPC, continue_on_error=%s: exit %d, "
                  "%d writes %s" % (coe, p.returncode, w, p.stderr[-300:]))
            os.unlink(path)


def main():
    tmp = tempfile.mkdtemp(prefix="iogauge-faults-")
    try:
        cut_short(tmp)
        removed(tmp)
        full(tmp)
    finally:
        shutil.rmtree(tmp)
    finish("faults")


if __name__ == "__main__":
    main()
