#!/usr/bin/env python3
# Writes to block devices that hold something, on loop devices of the
# test's own (losetup -f), as root.  A write without allow_mounted_write
# must be refused, exit 2 with a message naming the device and what holds
# it or what it carries, nothing on stdout and the device's bytes
# unchanged: minix, cramfs, bfs, vfat, ext4 and swap signatures, dos and
# gpt partition tables, a partition mounted, a loop device on a region of
# it (mounted, or only carrying ext4) and one stacked on that, an O_EXCL
# opener, a device-mapper device built on it.  Reads always run; with
# allow_mounted_write=1 writes run.  Skips (77) when not root or without
# losetup.  One line per failure, then "devices: N passed, M failed".
#
# Environment (set by CTest): IOGAUGE_BIN.
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import time

from clitest import check, finish

BIN = os.path.abspath(os.environ["IOGAUGE_BIN"])
SIZE = 16 << 20  # bytes of each backing file
TAIL = ": writing would destroy it; set allow_mounted_write=1 to write anyway"


def sh(*argv, **kw):
    return subprocess.run(list(argv), capture_output=True, text=True, **kw)


class Stack:
    """What the test made, undone in reverse order whatever failed."""

    def __init__(self):
        self.undo = []

    def attach(self, backing, *opts):
        p = sh("losetup", "-f", "--show", *opts, backing)
        if p.returncode:
            raise RuntimeError("losetup %s: %s" % (backing, p.stderr.strip()))
        dev = p.stdout.strip()
        self.undo.append(["losetup", "-d", dev])
        return dev

    def mount(self, dev, where):
        os.makedirs(where, exist_ok=True)
        p = sh("mount", dev, where)
        if p.returncode:
            raise RuntimeError("mount %s: %s" % (dev, p.stderr.strip()))
        self.undo.append(["umount", where])

    def pop(self):
        argv = self.undo.pop()
        p = sh(*argv)
        if p.returncode:
            print("cleanup: %s: %s" % (" ".join(argv), p.stderr.strip()))

    def close(self):
        while self.undo:
            self.pop()


def digest(dev):
    with open(dev, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def job(dev, rw, *extra):
    return sh(BIN, "--name=d", "--filename=" + dev, "--size=1m", "--bs=64k", "--rw=" + rw,
              *extra)


def refused(dev, want, what, rw="write"):
    """A write job on @dev: exit 2, @want (each string) in the message,
    nothing on stdout, the device's bytes unchanged."""
    before = digest(dev)
    r = job(dev, rw)
    after = digest(dev)
    wants = [want] if isinstance(want, str) else want
    check(r.returncode == 2 and not r.stdout and all(w in r.stderr for w in wants) and
          TAIL in r.stderr and before == after,
          "%s: exit %d, stdout %r, bytes %s, stderr %r (want %r)" %
          (what, r.returncode, r.stdout[:80], "kept" if before == after else "CHANGED",
           r.stderr[-400:], wants))


def readable(dev, what):
    r = job(dev, "randread")
    check(r.returncode == 0, "%s: a read was refused: exit %d %s" %
          (what, r.returncode, r.stderr[-200:]))


def signatures(tmp, st):
    """One loop device, each signature in turn."""
    back = os.path.join(tmp, "sig")
    with open(back, "wb") as f:
        f.truncate(SIZE)
    dev = st.attach(back)
    tree = os.path.join(tmp, "cramfs-tree")
    os.mkdir(tree)
    with open(os.path.join(tree, "f"), "w") as f:
        f.write("cramfs\n")
    img = os.path.join(tmp, "cramfs.img")

    def cramfs():
        sh("mkfs.cramfs", tree, img, check=True)
        with open(img, "rb") as fi, open(dev, "r+b") as fo:
            fo.write(fi.read())

    cases = [
        ("minix", lambda: sh("mkfs.minix", dev, check=True), "a filesystem (blkid: TYPE=minix"),
        ("cramfs", cramfs, "a filesystem (blkid: TYPE=cramfs"),
        ("bfs", lambda: sh("mkfs.bfs", dev, check=True), "a filesystem (blkid: TYPE=bfs"),
        ("vfat", lambda: sh("mkfs.vfat", dev, check=True), "a filesystem (blkid: TYPE=vfat"),
        ("ext4", lambda: sh("mkfs.ext4", "-q", "-F", dev, check=True),
         "a filesystem (blkid: TYPE=ext4, its signature at byte 1080)"),
        ("swap", lambda: sh("mkswap", dev, check=True), "swap space (blkid: TYPE=swap"),
        ("dos", lambda: sh("sfdisk", "-q", dev, input="label: dos\n,4M,L\n", check=True),
         "a partition table (blkid: PTTYPE=dos, its signature at byte 510)"),
        ("gpt", lambda: sh("sfdisk", "-q", dev, input="label: gpt\n,4M,L\n", check=True),
         "a partition table (blkid: PTTYPE=gpt"),
    ]
    r = job(dev, "write")
    check(r.returncode == 0, "empty device: exit %d %s" % (r.returncode, r.stderr[-200:]))
    for name, make, want in cases:
        sh("wipefs", "-a", "-q", dev)
        tool = "sfdisk" if name in ("dos", "gpt") else "mkswap" if name == "swap" else \
            "mkfs." + name
        if not shutil.which(tool):
            check(False, "%s: %s is not installed (.ci/setup installs it)" % (name, tool))
            continue
        try:
            make()
        except subprocess.CalledProcessError as e:
            check(False, "%s: %s failed: %s" % (name, tool, e.stderr))
            continue
        refused(dev, ["%s carries %s" % (dev, want)], name)
        readable(dev, name)
        if name in ("minix", "dos"):
            refused(dev, "%s carries" % dev, name + ", trim", rw="trim")
        before = digest(dev)
        r = job(dev, "write", "--allow_mounted_write=1")
        check(r.returncode == 0 and digest(dev) != before,
              "%s, allow_mounted_write=1: exit %d %s" % (name, r.returncode, r.stderr[-200:]))


def stacked(tmp, st):
    """loop1 on a region of loop0, ext4 on loop1; loop2 on loop1; a
    partition of loop0 mounted; an O_EXCL opener; a dm device."""
    back = os.path.join(tmp, "stack")
    with open(back, "wb") as f:
        f.truncate(SIZE)
    low = st.attach(back)
    r = job(low, "write")
    check(r.returncode == 0, "stack, empty: exit %d %s" % (r.returncode, r.stderr[-200:]))
    # Zeros again, so that a write of the same bytes would show.
    with open(low, "r+b") as f:
        f.write(bytes(2 << 20))

    # losetup -o 1M: ext4 on loop1 begins 1 MiB into loop0, past blkid's view of it.
    mid = st.attach(low, "-o", "1M")
    sh("mkfs.ext4", "-q", "-F", mid, check=True)
    mnt = os.path.join(tmp, "mnt-mid")
    st.mount(mid, mnt)
    refused(low, ["%s is in use: %s is a loop device on %s from byte 1048576" % (low, mid, low),
                  "%s is mounted on %s" % (mid, mnt)], "loop on a region, mounted")
    readable(low, "loop on a region, mounted")
    st.pop()  # umount
    refused(low, ["%s holds data: %s is a loop device on %s from byte 1048576" % (low, mid, low),
                  "%s carries a filesystem (blkid: TYPE=ext4" % mid], "loop on a region, ext4")

    # A third level: loop2 on loop1 with a size limit, ext4 on it, mounted.
    sh("wipefs", "-a", "-q", mid)
    top = st.attach(mid, "-o", "512K", "--sizelimit", "8M")
    sh("mkfs.ext4", "-q", "-F", top, check=True)
    mnt = os.path.join(tmp, "mnt-top")
    st.mount(top, mnt)
    refused(low, ["%s is a loop device on %s from byte 1048576" % (mid, low),
                  "%s is a loop device on %s from byte 524288 (8388608 bytes)" % (top, mid),
                  "%s is mounted on %s" % (top, mnt)], "loop on loop on a region, mounted")
    refused(mid, ["%s is in use: %s is a loop device on %s" % (mid, top, mid)],
            "the middle loop, mounted above")
    st.pop()  # umount
    st.pop()  # losetup -d top
    st.pop()  # losetup -d mid

    # A partition of loop0, mounted (the partition table found first is not
    # what is asked about here: it is wiped, the kernel's partition kept).
    part_back = os.path.join(tmp, "part")
    with open(part_back, "wb") as f:
        f.truncate(SIZE)
    disk = st.attach(part_back, "-P")
    sh("sfdisk", "-q", disk, input="label: dos\n1M,8M,L\n", check=True)
    part = disk + "p1"
    # sfdisk's own re-read may not have taken yet: ask again, then wait for the node.
    sh("blockdev", "--rereadpt", disk)
    if not os.path.exists(part):
        sh("partx", "-a", disk)
    for _ in range(50):
        if os.path.exists(part):
            break
        time.sleep(0.1)
    if os.path.exists(part):
        sh("mkfs.ext4", "-q", "-F", part, check=True)
        mnt = os.path.join(tmp, "mnt-part")
        st.mount(part, mnt)
        refused(disk, ["%s is in use: %s is a partition of %s" % (disk, part, disk),
                       "%s is mounted on %s" % (part, mnt)], "a partition mounted")
        st.pop()
    else:
        print("skip: no %s after losetup -P: the partition check" % part)

    # Something that holds loop0 open with O_EXCL, as a filesystem would.
    holder = subprocess.Popen(
        [sys.executable, "-c", "import os,sys; os.open(sys.argv[1], os.O_RDONLY | os.O_EXCL); "
         "print('held', flush=True); sys.stdin.read()", low],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        if check(holder.stdout.readline().strip() == "held", "the O_EXCL holder did not start"):
            refused(low, "%s is open exclusively by something else" % low, "an O_EXCL opener")
            readable(low, "an O_EXCL opener")
    finally:
        holder.stdin.close()
        holder.wait()

    # A device-mapper device on loop0 holds it (where the kernel has dm).
    name = "iogauge-devices-%d" % os.getpid()
    p = sh("dmsetup", "create", name, "--table", "0 2048 linear %s 0" % low) \
        if shutil.which("dmsetup") else None
    if p is None or p.returncode:
        print("skip: dmsetup create failed (no device-mapper here?): the holder check")
        return
    st.undo.append(["dmsetup", "remove", name])
    refused(low, ["%s is held: " % low, "(device-mapper %s) is built on %s" % (name, low)],
            "a dm device on it")
    readable(low, "a dm device on it")
    st.pop()


def main():
    if os.geteuid() != 0 or not shutil.which("losetup"):
        print("SKIP: not root, or no losetup")
        sys.exit(77)
    tmp = tempfile.mkdtemp(prefix="iogauge-devices-")
    st = Stack()
    try:
        signatures(tmp, st)
        st.close()
        stacked(tmp, st)
    except (RuntimeError, subprocess.CalledProcessError) as e:
        check(False, "set-up failed: %s %s" % (e, getattr(e, "stderr", "") or ""))
    finally:
        st.close()
        shutil.rmtree(tmp)
    finish("devices")


if __name__ == "__main__":
    main()
