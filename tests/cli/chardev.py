#!/usr/bin/env python3
# Character devices as a job's filename (/dev/zero, /dev/null), with fio
# 3.33 running the same job where it is installed: the device has no size
# of its own, so the job's size (or filesize) is taken for it and the
# region is what of it lies past the offset; nothing is laid out; O_DIRECT
# only when asked.  Compared: I/O counts and bytes, the offsets of
# write_iolog, and the refusals.  unlink=1 and unlink_each_loop leave a
# character device in place (a node made here with mknod, root only).  One
# line per failure, then "chardev: N passed, M failed".
#
# Environment (set by CTest): IOGAUGE_BIN.
import json
import os
import shutil
import stat
import subprocess
import tempfile

from clitest import check, finish

BIN = os.path.abspath(os.environ["IOGAUGE_BIN"])
FIO = shutil.which("fio")
TOOLS = [BIN] + ([FIO] if FIO else [])


def run(tool, args, cwd):
    """(exit status, {direction: (total_ios, io_bytes)} or None, stderr+stdout,
    [(op, offset, length)] from write_iolog)."""
    log = os.path.join(cwd, "iolog.%s" % os.path.basename(tool))
    if os.path.exists(log):
        os.unlink(log)
    p = subprocess.run([tool, "--output-format=json", "--name=c", "--write_iolog=" + log] + args,
                       cwd=cwd, capture_output=True, text=True, timeout=60)
    counts = None
    if p.returncode == 0:
        job = json.loads(p.stdout[p.stdout.index("{\n"):])["jobs"][0]
        counts = {d: (job[d]["total_ios"], job[d]["io_bytes"]) for d in ("read", "write", "trim")
                  if job[d]["total_ios"]}
    ios = []
    if os.path.exists(log):
        with open(log) as f:
            for line in f:
                w = line.split()
                if len(w) == 5 and w[2] in ("read", "write", "trim"):
                    ios.append((w[2], int(w[3]), int(w[4])))
    return p.returncode, counts, p.stderr + p.stdout, ios


def same(what, args, cwd, want, sort=False):
    """Runs @args with both tools: iogauge's counts must be @want and
    fio's, and the offsets of their iologs the same (as sets when @sort:
    random offsets)."""
    res = {t: run(t, args, cwd) for t in TOOLS}
    rc, counts, err, ios = res[BIN]
    check(rc == 0 and counts == want, "%s: iogauge exit %d, %r (want %r) %s" %
          (what, rc, counts, want, err.strip()[-300:]))
    if FIO:
        frc, fcounts, ferr, fios = res[FIO]
        check(frc == 0 and fcounts == counts, "%s: fio exit %d %r, iogauge %r %s" %
              (what, frc, fcounts, counts, ferr.strip()[-300:]))
        a, b = (sorted(ios), sorted(fios)) if sort else (ios, fios)
        check(a == b and len(a) == sum(c[0] for c in want.values()),
              "%s: iolog offsets: iogauge %r..., fio %r..." % (what, a[:6], b[:6]))
    return ios


def refused(what, args, cwd, text, fio_text):
    """iogauge refuses @args with exit 2 and @text; fio fails it too (exit 1
    with @fio_text)."""
    rc, _, err, ios = run(BIN, args, cwd)
    check(rc == 2 and text in err and not ios, "%s: iogauge exit %d: %s" % (what, rc, err[-300:]))
    if FIO:
        rc, _, err, _ = run(FIO, args, cwd)
        check(rc == 1 and fio_text in err, "%s: fio exit %d: %s" % (what, rc, err[-300:]))


def main():
    tmp = tempfile.mkdtemp(prefix="chardev.")
    try:
        z, n = ["--filename=/dev/zero", "--bs=4k"], ["--filename=/dev/null", "--bs=4k"]
        ios = same("read /dev/zero", z + ["--rw=read", "--size=1m"], tmp,
                   {"read": (256, 1 << 20)})
        check([o for _, o, _ in ios] == list(range(0, 1 << 20, 4096)),
              "read /dev/zero: offsets not 0, 4k, .. 1m-4k")
        same("randread /dev/zero, libaio", z + ["--rw=randread", "--size=256k",
             "--ioengine=libaio", "--iodepth=4"], tmp, {"read": (64, 256 << 10)}, sort=True)
        same("mmap /dev/zero", z + ["--rw=read", "--size=64k", "--ioengine=mmap"], tmp,
             {"read": (16, 64 << 10)})
        same("write /dev/null", n + ["--rw=write", "--size=1m"], tmp, {"write": (256, 1 << 20)})
        # The device's size is size=: an offset takes from the region.
        ios = same("write /dev/null, offset 512k", n + ["--rw=write", "--size=1m",
                   "--offset=512k"], tmp, {"write": (128, 512 << 10)})
        check(ios and ios[0][1] == 512 << 10 and ios[-1][1] == (1 << 20) - 4096,
              "offset 512k: writes from %r to %r" % (ios[:1], ios[-1:]))
        same("write /dev/null, offset 10%", n + ["--rw=write", "--size=1m", "--offset=10%"],
             tmp, {"write": (230, 942080)})
        same("randwrite /dev/null, filesize", n + ["--rw=randwrite", "--size=1m",
             "--filesize=256k"], tmp, {"write": (64, 256 << 10)}, sort=True)
        same("write /dev/null, io_size 2m", n + ["--rw=write", "--size=1m", "--io_size=2m"],
             tmp, {"write": (512, 2 << 20)})
        refused("no size", z + ["--rw=read"], tmp, "a character device has no size of its own",
                "you need to specify size=")
        refused("size=50%", n + ["--rw=write", "--size=50%"], tmp,
                "a character device has no size of its own", "you need to specify size=")
        refused("direct=1", z + ["--rw=read", "--size=64k", "--direct=1"], tmp,
                "the device refuses O_DIRECT", "does not support O_DIRECT")
        # fio runs the second clone with nothing to do; iogauge refuses it.
        rc, _, err, _ = run(BIN, n + ["--rw=write", "--size=1m", "--numjobs=2",
                                      "--offset_increment=1m"], tmp)
        check(rc == 2 and "at or past the 1048576 bytes" in err,
              "offset_increment past size: iogauge exit %d: %s" % (rc, err[-300:]))
        if os.geteuid() == 0:
            # A node of our own (the null device's numbers): unlink=1 and
            # unlink_each_loop remove regular files, never a device.
            node = os.path.join(tmp, "null")
            os.mknod(node, 0o600 | stat.S_IFCHR, os.makedev(1, 3))
            for extra in (["--unlink=1"], ["--unlink_each_loop=1", "--loops=2"]):
                for t in TOOLS:
                    rc, counts, err, _ = run(t, ["--filename=" + node, "--bs=4k", "--rw=write",
                                                 "--size=64k"] + extra, tmp)
                    st = os.stat(node, follow_symlinks=False) if os.path.lexists(node) else None
                    check(rc == 0 and st and stat.S_ISCHR(st.st_mode),
                          "%s %s: exit %d, the node %s: %s" %
                          (os.path.basename(t), extra, rc, "kept" if st else "removed",
                           err[-200:]))
                    if not st:
                        os.mknod(node, 0o600 | stat.S_IFCHR, os.makedev(1, 3))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    finish("chardev")


if __name__ == "__main__":
    main()
