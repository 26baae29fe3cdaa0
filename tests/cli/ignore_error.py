#!/usr/bin/env python3
# ignore_error and error_dump against fio 3.33 on a full filesystem: a
# sparse 4 MiB file on a 1 MiB tmpfs this test mounts, written in 64 KiB
# blocks, so that 16 writes land and 48 fail with ENOSPC.  For each set of
# options, iogauge and fio (when installed) must agree on the exit status,
# the errors counted (total_err), the first errno and the bytes written;
# error_dump must list the errors after the first.  Root only (it mounts).
# One line per failure, then "ignore_error: N passed, M failed".
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

# (extra options, exit status, errors counted, bytes written)
CASES = [
    (["--continue_on_error=write"], 1, 1, 1 << 20),  # ENOSPC is not EIO: it stops
    (["--continue_on_error=write", "--ignore_error=,ENOSPC"], 0, 48, 1 << 20),
    (["--ignore_error=,ENOSPC:EIO"], 0, 48, 1 << 20),  # a list alone continues
    (["--ignore_error=EIO,28", "--error_dump=1"], 0, 48, 1 << 20),
    (["--ignore_error=,ENOSPC", "--continue_on_error=none"], 1, 1, 1 << 20),  # later wins
    (["--ignore_error=ENOSPC"], 1, 1, 1 << 20),  # the read list: writes still stop
]


def run(tool, path, extra):
    with open(path, "wb") as f:
        f.truncate(4 << 20)  # sparse: the writes find the space missing
    p = subprocess.run([tool, "--name=w", "--filename=" + path, "--size=4m", "--rw=write",
                        "--bs=64k", "--output-format=json"] + extra,
                       capture_output=True, text=True)
    os.unlink(path)
    out = p.stdout[p.stdout.find("{"):] if "{" in p.stdout else ""
    j = json.loads(out)["jobs"][0] if out else None
    if j is None:
        return p.returncode, None, None, None, p.stderr
    # fio counts a job stopped by an error in total_err too (one), and
    # without continue_on_error has neither total_err nor first_error.
    g = j["iogauge"] if "iogauge" in j else j
    err = g.get("total_err", 0) or (1 if p.returncode else 0)
    return (p.returncode, err, g.get("first_error", 0) or j["error"], j["write"]["io_bytes"],
            p.stderr)


def verify_list(tmp):
    # The third list is verify's: a block that fails verify (EILSEQ, 84,
    # which fio names by number only) is counted and passed over, exit 0.
    for tool in [BIN] + ([FIO] if FIO else []):
        path = os.path.join(tmp, "v.dat")
        job = [tool, "--name=w", "--filename=" + path, "--size=64k", "--rw=write", "--bs=4k",
               "--verify=crc32c", "--output-format=json"]
        subprocess.run(job + ["--do_verify=0"], capture_output=True)
        with open(path, "r+b") as f:
            f.seek(8192 + 1000)
            c = f.read(1)
            f.seek(8192 + 1000)
            f.write(bytes([c[0] ^ 0x40]))
        p = subprocess.run(job + ["--verify_only=1", "--ignore_error=,,84"], capture_output=True,
                           text=True)
        out = p.stdout[p.stdout.find("{"):] if "{" in p.stdout else ""
        j = json.loads(out)["jobs"][0] if out else None
        g = (j.get("iogauge") or j) if j else {}
        got = (p.returncode, j["read"]["total_ios"] if j else -1, g.get("total_err"),
               g.get("first_error"))
        check(got == (0, 16, 1, 84), "%s ignore_error=,,84 on a bad block: exit, reads, "
              "total_err, first_error %s: %s" % (tool, got, p.stderr[-300:]))
        print("%s ignore_error=,,84: exit %d, %d reads, total_err %s, first_error %s"
              % ((os.path.basename(tool),) + got))
        os.unlink(path)


def main():
    if os.geteuid() != 0:
        print("skip: not root: ignore_error's checks mount a small tmpfs")
        sys.exit(77)
    tmp = tempfile.mkdtemp(prefix="iogauge-ignerr-")
    # fio leaves a verify state file (and dumps) in the current directory.
    old_cwd = os.getcwd()
    os.chdir(tmp)
    mnt = os.path.join(tmp, "mnt")
    os.mkdir(mnt)
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "iogauge-ignerr", mnt]).returncode:
        shutil.rmtree(tmp)
        print("skip: no tmpfs mount")
        sys.exit(77)
    try:
        path = os.path.join(mnt, "f.dat")
        for extra, rc, nerr, nbytes in CASES:
            what = " ".join(extra)
            got = run(BIN, path, extra)
            check(got[:4] == (rc, nerr, 28, nbytes),
                  "%s: exit %s, %s errors, first errno %s, %s bytes; want %d, %d, 28, %d: %s"
                  % ((what,) + got[:4] + (rc, nerr, nbytes, got[4][-300:])))
            if FIO:
                theirs = run(FIO, path, extra)
                check(got[:4] == theirs[:4], "%s: iogauge %r, fio %r" % (what, got[:4], theirs[:4]))
                print("%s: iogauge exit %s errors %s errno %s bytes %s; fio %s %s %s %s"
                      % ((what,) + got[:4] + theirs[:4]))
            listed = re.findall(r"write at offset (\d+), size 65536: No space left", got[4])
            if "--error_dump=1" in extra:
                # Each error at its own offset, in order, from the first.
                offs = [int(o) for o in listed]
                check(len(offs) >= 20 and offs == [(1 << 20) + k * 65536 for k in range(len(offs))]
                      and ("the rest are counted" in got[4]) == (len(offs) < 48),
                      "error_dump=1: %d errors listed: %s" % (len(offs), got[4][-300:]))
            else:
                check(len(listed) == 1, "%s: %d errors listed, want the first alone"
                      % (what, len(listed)))
        verify_list(tmp)
    finally:
        subprocess.run(["umount", mnt])
        os.chdir(old_cwd)
        shutil.rmtree(tmp)
    finish("ignore_error")


main()
