#!/usr/bin/env python3
# Bad input, run for real (not --parse-only): every malformed job file of
# tests/data/bad, generated ones (empty, binary, NUL bytes, a 10 MB line,
# 100,000 sections, an unset variable in a number), bad command lines and
# writes to a block device that holds something must end with exit status 2, their message on stderr, nothing on stdout,
# no file created, no crash, and a bounded peak RSS.  One line per
# failure, then "badinput: N passed, M failed".
#
# Environment (set by CTest): IOGAUGE_BIN, IOGAUGE_SRC.
import os
import shutil
import subprocess
import tempfile

from clitest import check, finish

BIN = os.path.abspath(os.environ["IOGAUGE_BIN"])
SRC = os.environ["IOGAUGE_SRC"]
# Peak RSS of one refused run.  The floor is the test's own Python (a child
# starts with its parent's pages counted); an ASan build keeps shadow memory.
ASAN = "AddressSanitizer" in subprocess.run(
    [BIN, "--version"], env=dict(os.environ, ASAN_OPTIONS="help=1"),
    capture_output=True, text=True).stderr
RSS_MAX_KIB = (256 if ASAN else 64) * 1024
if os.environ.get("IOGAUGE_VALGRIND"):
    RSS_MAX_KIB = 1 << 40  # valgrind's own memory is counted: no bound then


def refused(args, cwd, want, what, env=None):
    """Runs iogauge @args in @cwd: exit 2 with @want on stderr, no stdout,
    nothing new in @cwd, peak RSS under the bound."""
    before = set(os.listdir(cwd))
    with tempfile.TemporaryFile() as fo, tempfile.TemporaryFile() as fe:
        p = subprocess.Popen([BIN] + args, cwd=cwd, stdout=fo, stderr=fe,
                             env=dict(os.environ, **(env or {})))
        # wait4: this child's own peak RSS (ru_maxrss, KiB).
        _, status, ru = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
        fo.seek(0)
        fe.seek(0)
        out, err = fo.read(), fe.read().decode(errors="replace")
    new = set(os.listdir(cwd)) - before
    check(p.returncode == 2 and want in err and not out and not new and
          ru.ru_maxrss < RSS_MAX_KIB,
          "%s: exit %d, %d KiB, new files %r, stdout %r, stderr %r (want %r)" %
          (what, p.returncode, ru.ru_maxrss, sorted(new), out[:80], err[-300:], want))


def corpus(tmp):
    """tests/data/bad/*.fio, run as jobs from a scratch copy of the folder."""
    work = os.path.join(tmp, "corpus")
    shutil.copytree(os.path.join(SRC, "tests", "data", "bad"), os.path.join(work, "bad"))
    for name in sorted(os.listdir(os.path.join(work, "bad"))):
        if not name.endswith(".fio"):
            continue
        path = os.path.join(work, "bad", name)
        with open(path) as f:
            lines = f.read().splitlines()
        want = lines[0][len("; expect: "):] if lines and lines[0].startswith("; expect: ") else None
        env = {}
        if len(lines) > 1 and lines[1].startswith("; env: "):
            env = dict(kv.split("=", 1) for kv in lines[1][len("; env: "):].split())
        if not check(want is not None, "%s: no '; expect:' line" % name):
            continue
        refused(["bad/" + name], work, want, "bad/" + name, env)


def generated(tmp):
    work = os.path.join(tmp, "gen")
    os.mkdir(work)

    def write(name, data):
        with open(os.path.join(work, name), "wb") as f:
            f.write(data)
        return name

    cases = [
        (write("empty.fio", b""), "the job files define no jobs"),
        (write("binary.fio", bytes(range(256)) * 16), "a NUL byte in the line"),
        (write("nul.fio", b"[a]\nsize=1m\nbs=4k\0junk\n"), "nul.fio:3: a NUL byte in the line"),
        (write("long.fio", b"[a]\nfilename=" + b"x" * (10 << 20) + b"\n"),
         "long.fio:2: line too long"),
        (write("sections.fio", b"".join(b"[j%d]\nsize=1m\n" % i for i in range(100000))),
         "sections.fio:131073: [j65536]: more than 65536 jobs"),
        (write("unset.fio", b"[a]\nsize=1m\nbs=${IOGAUGE_TEST_UNSET}k\n"),
         "unset.fio:3: bs: 'k' is not a number (IOGAUGE_TEST_UNSET is not set"),
        (write("crlf.fio", b"[a]\r\nsize=1m\r\nbogus=1\r\n"), "crlf.fio:3: unknown option 'bogus'"),
        (write("size-zero.fio", b"[a]\nsize=0\nrw=read\n"), "the file does not exist"),
    ]
    for name, want in cases:
        refused([name], work, want, name)


def cmdlines(tmp):
    work = os.path.join(tmp, "cmd")
    os.mkdir(work)
    f = "--filename=%s/x.dat" % work
    cases = [
        (["--name=a", "--iodpeth=4"], "did you mean '--iodepth'?"),
        (["--name=a", "--ioengine=bogus"], "--ioengine"),
        (["--name=a", "--iodepth=99999999", f, "--size=1m"], "--iodepth=99999999"),
        (["--name=a", "--ioengine=io_uring", "--iodepth=40000", f, "--size=1m"],
         "--iodepth: [a] iodepth=40000 is above io_uring's limit of 32768"),
        (["--name=a", "--numjobs=100000", f, "--size=1m"], "--numjobs=100000"),
        (["--name=a", "--size=-1", f], "--size=-1"),
        (["--name=a", "--size=1m", "--bs=2m", f], "block size 2097152 is larger than the size"),
        (["--name=a", "--size=1m", "--bs=4q", f], "--bs=4q"),
        (["--name=a", "--size=1m", "--direct=1", "--bs=1000", f], "multiples of 512 bytes"),
        (["--name=a", "--rw=read", f], "does not exist and the job gives no size"),
        (["sqlio", "-t999999", "x.dat"], "-t999999"),
        (["sqlio", "-kX", "x.dat"], "-kX"),
        (["nosuchfile.fio"], "nosuchfile.fio"),
        (["--readonly", "--name=a", "--size=1m", "--rw=randrw", f],
         "[a] rw=randrw writes, and --readonly refuses"),
        (["--readonly", "--name=a", "--size=1m", "--rw=trim", f], "rw=trim trims"),
        (["--readonly", "--name=a", "--size=1m", "--rw=read", f],
         "--readonly: the file does not exist and would be created"),
        (["sqlio", "--readonly", "-kW", "-s1", "x.dat"], "--readonly refuses"),
        # 1 PiB of buffers: refused before any is allocated, on any machine.
        (["--name=big", "--ioengine=null", "--size=1g", "--bs=1g", "--iodepth=65536",
          "--numjobs=16"], "the I/O buffers need 1073741824 MiB"),
    ]
    for args, want in cases:
        refused(args, work, want, " ".join(args).replace(work, "DIR"))
    # --readonly lets reads of an existing file run, and changes nothing in it.
    path = os.path.join(work, "r.dat")
    subprocess.run([BIN, "--name=lay", "--filename=" + path, "--size=1m", "--rw=read"],
                   capture_output=True)
    with open(path, "rb") as fh:
        before = fh.read()
    st = os.stat(path)
    p = subprocess.run([BIN, "--readonly", "--name=r", "--filename=" + path, "--size=1m",
                        "--rw=randread", "--ioengine=io_uring"], capture_output=True, text=True)
    with open(path, "rb") as fh:
        after = fh.read()
    check(p.returncode == 0 and "IOs/sec" in p.stdout and before == after and
          os.stat(path).st_mtime_ns == st.st_mtime_ns,
          "--readonly read: exit %d %s" % (p.returncode, p.stderr[-200:]))


def devices(tmp):
    # A loop device: written when empty; refused (exit 2, nothing written)
    # with an ext4 signature, mounted, or swap; read all the same; written
    # with allow_mounted_write=1.
    if os.geteuid() != 0 or not shutil.which("losetup") or not shutil.which("mkfs.ext4"):
        print("skip: not root, or no losetup/mkfs.ext4: the device checks")
        return
    work = os.path.join(tmp, "dev")
    os.mkdir(work)
    back = os.path.join(work, "back")
    with open(back, "wb") as f:
        f.truncate(64 << 20)
    p = subprocess.run(["losetup", "-f", "--show", back], capture_output=True, text=True)
    if p.returncode:
        print("skip: losetup failed: the device checks")
        return
    dev = p.stdout.strip()
    mnt = os.path.join(work, "mnt")
    os.mkdir(mnt)

    def job(rw, extra=()):
        return subprocess.run([BIN, "--name=d", "--filename=" + dev, "--size=1m", "--rw=" + rw]
                              + list(extra), capture_output=True, text=True)

    def head():
        with open(back, "rb") as f:
            return f.read(2 << 20)

    try:
        check(job("write").returncode == 0, "empty device: the write was refused")
        subprocess.run(["mkfs.ext4", "-q", "-F", dev], check=True, capture_output=True)
        before = head()
        r = job("write")
        check(r.returncode == 2 and "%s carries a filesystem (blkid: TYPE=ext4" % dev in r.stderr and
              "allow_mounted_write=1" in r.stderr and head() == before,
              "ext4 device: exit %d %s" % (r.returncode, r.stderr[-200:]))
        check(job("randread").returncode == 0, "ext4 device: a read was refused")
        if subprocess.run(["mount", dev, mnt], capture_output=True).returncode == 0:
            try:
                r = job("randwrite")
                check(r.returncode == 2 and "%s is mounted on %s" % (dev, mnt) in r.stderr,
                      "mounted device: exit %d %s" % (r.returncode, r.stderr[-200:]))
            finally:
                subprocess.run(["umount", mnt])
        r = job("write", ["--allow_mounted_write=1", "--size=64k"])
        check(r.returncode == 0 and head() != before, "allow_mounted_write=1: exit %d %s" %
              (r.returncode, r.stderr[-200:]))
        subprocess.run(["mkswap", dev], check=True, capture_output=True)
        r = job("trim")
        check(r.returncode == 2 and "carries swap space (blkid: TYPE=swap" in r.stderr,
              "swap device, trim: exit %d %s" % (r.returncode, r.stderr[-200:]))
    finally:
        subprocess.run(["losetup", "-d", dev])


def main():
    tmp = tempfile.mkdtemp(prefix="iogauge-badinput-")
    try:
        corpus(tmp)
        generated(tmp)
        cmdlines(tmp)
        devices(tmp)
    finally:
        shutil.rmtree(tmp)
    finish("badinput")


if __name__ == "__main__":
    main()
