#!/usr/bin/env python3
# The engines that move no data (falloc, ftruncate, filecreate, filestat,
# filedelete), each checked by what it leaves on disk (sizes, allocated
# blocks, files present or gone) and by its counts in the JSON report, with
# fio 3.33 running the same job in the same directory layout where it is
# installed.  One line per failure, then "fileengines: N passed, M failed".
#
# Environment (set by CTest): IOGAUGE_BIN.
import json
import os
import shutil
import subprocess
import tempfile

from clitest import check, finish, tmpfs

BIN = os.path.abspath(os.environ["IOGAUGE_BIN"])
FIO = shutil.which("fio")


def run(tool, job, tmp):
    """@tool on the job text @job (tmp/job.fio) with JSON output: (exit
    status, the first job's JSON or None, stdout + stderr)."""
    path = os.path.join(tmp, "job.fio")
    with open(path, "w") as f:
        f.write(job)
    p = subprocess.run([tool, "--output-format=json", path], cwd=tmp, capture_output=True,
                       text=True, timeout=120)
    try:
        js = json.loads(p.stdout[p.stdout.index("{"):])["jobs"][0]
    except ValueError:
        js = None
    return p.returncode, js, p.stdout + p.stderr


def counts(js):
    """Per direction with I/O: (bytes, I/Os, clat samples, lat samples)."""
    out = {}
    for d in ("read", "write", "trim"):
        x = js[d]
        if x["total_ios"] or x["clat_ns"]["N"]:
            out[d] = (x["io_bytes"], x["total_ios"], x["clat_ns"]["N"], x["lat_ns"]["N"])
    return out


def fresh(tmp, name):
    d = os.path.join(tmp, name)
    shutil.rmtree(d, ignore_errors=True)
    os.mkdir(d)
    return d


def both(tmp, name, job, after):
    """Runs @job (with %(dir)s for a fresh directory) under iogauge, then
    fio; @after(dir) says what is on disk.  Checks that both succeed and
    that the counts and the disk state agree; returns iogauge's."""
    res = {}
    for tool in [BIN] + ([FIO] if FIO else []):
        d = fresh(tmp, name)
        rc, js, out = run(tool, job % {"dir": d}, tmp)
        tag = "%s %s" % (name, os.path.basename(tool))
        if not check(rc == 0 and js is not None, "%s: exit %d %s" % (tag, rc, out[-300:])):
            return None
        res[tool] = (counts(js), after(d))
    if FIO:
        check(res[BIN] == res[FIO], "%s: iogauge %r, fio %r" % (name, res[BIN], res[FIO]))
    return res[BIN]


def listing(d):
    return sorted((n, os.stat(os.path.join(d, n)).st_size, oct(os.stat(os.path.join(d, n)).st_mode & 0o777))
                  for n in os.listdir(d))


def fileops(tmp):
    # filecreate: N empty files, mode 0600; each pass of each file is one
    # clat sample, every bs of filesize one I/O; no total latency.
    r = both(tmp, "fc", "[t0]\nioengine=filecreate\ndirectory=%(dir)s\nnrfiles=5\nfilesize=8k\n"
             "loops=2\n", listing)
    if r:
        check(r[0] == {"read": (81920, 20, 10, 0)}, "filecreate counts %r" % (r[0],))
        check(r[1] == [("t0.0.%d" % i, 0, "0o600") for i in range(5)], "filecreate left %r" % r[1])
    # rw=write: the same, counted as writes.
    r = both(tmp, "fcw", "[t0]\nioengine=filecreate\nrw=write\ndirectory=%(dir)s\nnrfiles=3\n"
             "filesize=4k\n", listing)
    if r:
        check(r[0] == {"write": (12288, 3, 3, 0)}, "filecreate rw=write counts %r" % (r[0],))
    # No size: each file is one block (fio's filecreate sizes them so).
    r = both(tmp, "fcn", "[t0]\nioengine=filecreate\ndirectory=%(dir)s\nnrfiles=3\n", listing)
    if r:
        check(r[0] == {"read": (12288, 3, 3, 0)} and len(r[1]) == 3,
              "filecreate without a size: %r" % (r,))
    # filestat, each stat_type: the files are laid out and stay.
    for st in ("stat", "lstat", "statx"):
        r = both(tmp, "fs" + st, "[t0]\nioengine=filestat\nstat_type=%s\ndirectory=%%(dir)s\n"
                 "nrfiles=4\nfilesize=8k\n" % st, lambda d: [x[:2] for x in listing(d)])
        if r:
            check(r[0] == {"read": (32768, 8, 4, 0)}, "filestat %s counts %r" % (st, r[0]))
            check(r[1] == [("t0.0.%d" % i, 8192) for i in range(4)],
                  "filestat %s left %r" % (st, r[1]))
    # filedelete: laid out, then gone.
    r = both(tmp, "fd", "[t0]\nioengine=filedelete\ndirectory=%(dir)s\nnrfiles=6\nfilesize=4k\n",
             listing)
    if r:
        check(r[0] == {"read": (24576, 6, 6, 0)} and r[1] == [],
              "filedelete: counts %r, left %r" % r)
    # filecreate with unlink=1 removes what it made.
    d = fresh(tmp, "fcu")
    rc, js, out = run(BIN, "[t0]\nioengine=filecreate\ndirectory=%s\nnrfiles=3\nfilesize=4k\n"
                      "unlink=1\n" % d, tmp)
    check(rc == 0 and os.listdir(d) == [], "filecreate unlink=1: exit %d, left %r %s" %
          (rc, os.listdir(d), out[-200:]))
    # A second filedelete pass finds nothing: exit 1 naming the file and ENOENT.
    d = fresh(tmp, "fd2")
    rc, js, out = run(BIN, "[t0]\nioengine=filedelete\ndirectory=%s\nnrfiles=1\nfilesize=4k\n"
                      "loops=2\n" % d, tmp)
    check(rc == 1 and "t0.0.0: filedelete at offset 0, size 4096: No such file or directory" in out,
          "filedelete loops=2: exit %d %s" % (rc, out[-300:]))


def direngines(tmp):
    # dircreate, dirstat, dirdelete (fio 3.37's; fio 3.33 has none, so no
    # comparison: fio's --enghelp is checked not to list them).  The same
    # counts as the file engines: one clat per directory and pass, one I/O
    # per bs of filesize, no total latency.
    if FIO:
        p = subprocess.run([FIO, "--enghelp"], capture_output=True, text=True, timeout=60)
        check("filestat" in p.stdout and "dircreate" not in p.stdout,
              "fio 3.33 --enghelp lists: %s" % p.stdout[-300:])
    d = fresh(tmp, "dirs")
    rc, js, out = run(BIN, "[d]\nioengine=dircreate\ndirectory=%s\nnrfiles=4\nfilesize=8k\n"
                      "loops=1\n" % d, tmp)
    modes = sorted((n, oct(os.stat(os.path.join(d, n)).st_mode)) for n in os.listdir(d))
    check(rc == 0 and counts(js) == {"read": (32768, 8, 4, 0)} and
          modes == [("d.0.%d" % i, "0o40700") for i in range(4)],
          "dircreate: exit %d %r %r %s" % (rc, js and counts(js), modes, out[-200:]))
    rc, js, out = run(BIN, "[d]\nioengine=dircreate\ndirectory=%s\nnrfiles=4\nfilesize=8k\n" % d,
                      tmp)
    check(rc == 1 and "File exists" in out, "dircreate again: exit %d %s" % (rc, out[-200:]))
    rc, js, out = run(BIN, "[d]\nioengine=dirstat\ndirectory=%s\nnrfiles=6\nfilesize=8k\n" % d,
                      tmp)
    check(rc == 0 and counts(js) == {"read": (49152, 12, 6, 0)} and len(os.listdir(d)) == 6 and
          all(os.path.isdir(os.path.join(d, n)) for n in os.listdir(d)),
          "dirstat: exit %d %r %r %s" % (rc, js and counts(js), os.listdir(d), out[-200:]))
    rc, js, out = run(BIN, "[d]\nioengine=dirdelete\nrw=write\ndirectory=%s\nnrfiles=7\n"
                      "filesize=4k\n" % d, tmp)
    check(rc == 0 and counts(js) == {"write": (28672, 7, 7, 0)} and os.listdir(d) == [],
          "dirdelete: exit %d %r %r %s" % (rc, js and counts(js), os.listdir(d), out[-200:]))
    rc, js, out = run(BIN, "[d]\nioengine=dirstat\ndirectory=%s\nnrfiles=3\nfilesize=4k\n"
                      "unlink=1\n" % d, tmp)
    check(rc == 0 and os.listdir(d) == [], "dirstat unlink=1: exit %d %r" % (rc, os.listdir(d)))


def blocks(path):
    st = os.stat(path)
    return st.st_size, st.st_blocks * 512


def falloc(tmp):
    # A file laid out, half of it punched (randtrim), then reserved again by
    # reads (KEEP_SIZE), then grown by writes past its end (mode 0).
    steps = [("randtrim", "size=512k\n"), ("read", "size=1m\n"),
             ("write", "offset=1m\nsize=1m\n")]
    got = {}
    for tool in [BIN] + ([FIO] if FIO else []):
        d = fresh(tmp, "fa")
        path = os.path.join(d, "f")
        with open(path, "wb") as f:
            f.write(b"\x5a" * (1 << 20))
            os.fsync(f.fileno())
        seen = []
        for rw, extra in steps:
            rc, js, out = run(tool, "[a]\nioengine=falloc\nfilename=%s\nbs=64k\nrw=%s\n%s" %
                              (path, rw, extra), tmp)
            if not check(rc == 0, "falloc rw=%s %s: exit %d %s" % (rw, tool, rc, out[-300:])):
                return
            seen.append((counts(js), blocks(path)))
        got[tool] = seen
    s = got[BIN]
    check(s[0][0] == {"trim": (524288, 8, 8, 8)}, "falloc randtrim counts %r" % (s[0][0],))
    # 512 KiB of holes: what was allocated less at least that (ext4 and tmpfs
    # may keep a block of metadata).
    check(s[0][1][0] == 1 << 20 and s[0][1][1] <= (1 << 20) - (512 << 10) + 8192,
          "falloc randtrim left %r" % (s[0][1],))
    check(s[1][0] == {"read": (1 << 20, 16, 16, 16)} and s[1][1][0] == 1 << 20 and
          s[1][1][1] >= 1 << 20, "falloc read: %r" % (s[1],))
    check(s[2][0] == {"write": (1 << 20, 16, 16, 16)} and s[2][1][0] == 2 << 20 and
          s[2][1][1] >= 2 << 20, "falloc write: %r" % (s[2],))
    if FIO:
        f = got[FIO]
        check([x[0] for x in s] == [x[0] for x in f] and
              [x[1][0] for x in s] == [x[1][0] for x in f] and
              all(abs(a[1][1] - b[1][1]) <= 8192 for a, b in zip(s, f)),
              "falloc: iogauge %r, fio %r" % (s, f))


def ftruncate(tmp):
    # Sequential writes of 64k over 1 MiB: the last sets the size to 960k.
    r = both(tmp, "ft", "[a]\nioengine=ftruncate\nfilename=%(dir)s/f\nrw=write\nbs=64k\n"
             "size=1m\n", lambda d: blocks(os.path.join(d, "f")))
    if r:
        check(r == ({"write": (1 << 20, 16, 16, 16)}, (983040, 0)), "ftruncate: %r" % (r,))


def create_on_open(tmp):
    # Not laid out: the job's open makes the file (0600) and its writes
    # fill it; a read job meets the end of the empty file and fails.
    r = both(tmp, "coo", "[c]\nfilename=%(dir)s/f\ncreate_on_open=1\nrw=write\nbs=64k\nsize=1m\n",
             lambda d: listing(d) + [blocks(os.path.join(d, "f"))[1] >= 1 << 20])
    if r:
        check(r == ({"write": (1 << 20, 16, 16, 16)}, [("f", 1 << 20, "0o600"), True]),
              "create_on_open write: %r" % (r,))
    for tool in [BIN] + ([FIO] if FIO else []):
        d = fresh(tmp, "coor")
        rc, js, out = run(tool, "[c]\nfilename=%s/f\ncreate_on_open=1\nrw=read\nbs=64k\n"
                          "size=1m\n" % d, tmp)
        check(rc != 0 and listing(d) == [("f", 0, "0o600")],
              "create_on_open read %s: exit %d, %r" % (tool, rc, listing(d)))
    # fio's example, with 40 files a job instead of 31250.
    with open("/usr/share/doc/fio/examples/filecreate-ioengine.fio") as f:
        ex = f.read().replace("nrfiles=31250", "nrfiles=40")
    res = {}
    for tool in [BIN] + ([FIO] if FIO else []):
        d = fresh(tmp, "ex")
        with open(os.path.join(d, "fc.fio"), "w") as f:
            f.write(ex)
        p = subprocess.run([tool, "--output-format=json", "fc.fio"], cwd=d, capture_output=True,
                           text=True, timeout=120)
        if not check(p.returncode == 0, "filecreate-ioengine.fio %s: exit %d %s" %
                     (tool, p.returncode, p.stderr[-300:])):
            return
        jobs = json.loads(p.stdout[p.stdout.index("{"):])["jobs"]
        res[tool] = ([counts(j) for j in jobs], len(os.listdir(d)) - 1)
    check(res[BIN] == ([{"read": (163840, 40, 40, 0)}] * 16, 640),
          "filecreate-ioengine.fio: %r" % (res[BIN],))
    if FIO:
        check(res[BIN] == res[FIO], "filecreate-ioengine.fio: iogauge %r, fio %r" %
              (res[BIN], res[FIO]))


def fill_device(tmp):
    # fill_device on a 4 MiB tmpfs made here (root only): written until
    # ENOSPC, which ends the job without an error; the failed write counts
    # as an I/O without bytes, as fio's.  A read job lays the file out until
    # the filesystem is full, then reads it all.
    if os.geteuid() != 0:
        print("fileengines: not root: fill_device skipped")
        return
    mnt = os.path.join(tmp, "mnt")
    os.mkdir(mnt)
    with tmpfs(mnt, "4m") as mounted:
        if not check(mounted, "mount a 4 MiB tmpfs"):
            return
        for job, want in (("rw=write\nbs=64k\n", {"write": (4 << 20, 65, 64, 64)}),
                          ("rw=write\nbs=192k\n", {"write": (4128768, 22, 21, 21)}),
                          ("rw=read\nbs=64k\n", {"read": (4 << 20, 64, 64, 64)}),
                          ("rw=write\nbs=64k\nfill_fs=1\nloops=3\n",
                           {"write": (4 << 20, 65, 64, 64)})):
            res = {}
            for tool in [BIN] + ([FIO] if FIO else []):
                for n in os.listdir(mnt):
                    os.unlink(os.path.join(mnt, n))
                rc, js, out = run(tool, "[f]\nfilename=%s/f\nfill_device=1\n%s" % (mnt, job), tmp)
                if not check(rc == 0 and js and js["error"] == 0, "fill_device %r %s: exit %d %s" %
                             (job, tool, rc, out[-300:])):
                    return
                res[tool] = (counts(js), os.stat(os.path.join(mnt, "f")).st_size)
            check(res[BIN] == (want, 4 << 20), "fill_device %r: %r" % (job, res[BIN]))
            # fio counts a write cut short by ENOSPC as one more (short) I/O.
            if FIO and "192k" not in job:
                check(res[BIN] == res[FIO], "fill_device %r: iogauge %r, fio %r" %
                      (job, res[BIN], res[FIO]))


def refusals(tmp):
    for job, msg in (("ioengine=ftruncate\nrw=read\n", "ioengine=ftruncate only writes"),
                     ("ioengine=filestat\nstat_type=fstat\n", "stat_type"),
                     ("ioengine=filecreate\nrw=randrw\n", "mixes directions or trims"),
                     ("ioengine=filedelete\nrw=trim\n", "mixes directions or trims"),
                     ("ioengine=falloc\nrw=write\nverify=crc32c\n", "has nothing to read back"),
                     ("ioengine=ftruncate\nrw=write\nverify=md5\n", "has nothing to read back"),
                     ("ioengine=filestat\nverify=crc32c\n", "has nothing to read back")):
        d = fresh(tmp, "bad")
        rc, js, out = run(BIN, "[b]\nfilename=%s/b\nsize=64k\n%s" % (d, job), tmp)
        check(rc == 2 and "job.fio:" in out and msg in out and not os.listdir(d),
              "%r: exit %d %s" % (job, rc, out[-300:]))
    d = fresh(tmp, "ro")
    path = os.path.join(d, "f")
    with open(path, "wb") as f:
        f.write(b"\1" * 65536)
    p = subprocess.run([BIN, "--readonly", "--name=r", "--filename=" + path, "--size=64k",
                        "--ioengine=filedelete"], capture_output=True, text=True, timeout=60)
    check(p.returncode != 0 and os.path.exists(path) and "--readonly" in p.stderr,
          "filedelete --readonly: exit %d %s" % (p.returncode, p.stderr[-200:]))


def main():
    tmp = tempfile.mkdtemp(prefix="iogauge-fileengines.")
    try:
        fileops(tmp)
        direngines(tmp)
        falloc(tmp)
        ftruncate(tmp)
        create_on_open(tmp)
        fill_device(tmp)
        refusals(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    finish("fileengines")


if __name__ == "__main__":
    main()
