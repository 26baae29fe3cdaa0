#!/usr/bin/env python3
# File options, each checked by what it does to real files, with fio 3.33
# running the same job where it is installed: create_fsync (fsync calls
# under strace), allow_file_create, file_append, create_only, opendir,
# unique_filename, create_serialize (a later job set up after an earlier
# one filled a 4 MiB tmpfs made here; root only), unlink_each_loop, lockfile (overlapping I/Os under strace),
# the folders of a file that do not exist made as fio makes them.  One line per failure,
# then "fileopts: N passed, M failed".
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
STRACE = shutil.which("strace")
TOOLS = [BIN] + ([FIO] if FIO else [])


def run(tool, args, cwd, prefix=()):
    """(exit status, the JSON's jobs or None, stderr).  Under strace (@prefix)
    without LeakSanitizer, which cannot run under ptrace (ASan build)."""
    env = dict(os.environ)
    if prefix:
        env["ASAN_OPTIONS"] = env.get("ASAN_OPTIONS", "") + ":detect_leaks=0"
    p = subprocess.run(list(prefix) + [tool, "--output-format=json"] + args, cwd=cwd,
                       capture_output=True, text=True, timeout=120, env=env)
    try:
        jobs = json.loads(p.stdout[p.stdout.index("{\n"):])["jobs"]
    except ValueError:
        jobs = None
    return p.returncode, jobs, p.stderr


def io(job):
    return {d: (job[d]["io_bytes"], job[d]["total_ios"]) for d in ("read", "write")
            if job[d]["total_ios"]}


def fresh(tmp, name):
    d = os.path.join(tmp, name)
    shutil.rmtree(d, ignore_errors=True)
    os.mkdir(d)
    return d


def per_tool(fn):
    """fn(tool) for iogauge and fio; checks they agree; iogauge's result."""
    res = {t: fn(t) for t in TOOLS}
    if FIO:
        check(res[BIN] == res[FIO], "%s: iogauge %r, fio %r" % (fn.__name__, res[BIN], res[FIO]))
    return res[BIN]


def options(tmp):
    if STRACE:
        def create_fsync(tool):
            d = fresh(tmp, "cf")
            out = []
            for c in (1, 0):
                trace = os.path.join(tmp, "trace")
                rc, _, err = run(tool, ["--name=c", "--filename=%s/f%d" % (d, c), "--rw=read",
                                        "--size=1m", "--create_fsync=%d" % c], d,
                                 ("strace", "-f", "-e", "trace=fsync", "-o", trace))
                with open(trace) as f:
                    out.append((rc, sum("fsync(" in line for line in f)))
            return out
        check(per_tool(create_fsync) == [(0, 1), (0, 0)], "create_fsync")

    def allow_file_create(tool):
        d = fresh(tmp, "afc")
        rc, _, err = run(tool, ["--name=c", "--filename=%s/nf" % d, "--rw=read", "--size=1m",
                                "--allow_file_create=0"], d)
        return rc, os.listdir(d), "allow_file_create" in err
    check(per_tool(allow_file_create) == (1, [], True), "allow_file_create=0")

    def file_append(tool):
        d = fresh(tmp, "fa")
        head = os.urandom(65536)
        with open(os.path.join(d, "f"), "wb") as f:
            f.write(head)
        rc, jobs, err = run(tool, ["--name=c", "--filename=%s/f" % d, "--rw=write",
                                   "--size=128k", "--file_append=1"], d)
        with open(os.path.join(d, "f"), "rb") as f:
            data = f.read()
        return rc, jobs and io(jobs[0]), len(data), data[:65536] == head
    check(per_tool(file_append) == (0, {"write": (131072, 32)}, 196608, True), "file_append")

    def create_only(tool):
        d = fresh(tmp, "co")
        rc, jobs, err = run(tool, ["--name=c", "--filename=%s/f" % d, "--rw=read", "--size=1m",
                                   "--create_only=1"], d)
        return rc, jobs and io(jobs[0]), os.path.getsize(os.path.join(d, "f"))
    check(per_tool(create_only) == (0, {}, 1 << 20), "create_only")

    def opendir(tool):
        d = fresh(tmp, "od")
        os.mkdir(os.path.join(d, "sub"))
        for name, size in (("a", 65536), ("b", 131072), ("sub/c", 262144)):
            with open(os.path.join(d, name), "wb") as f:
                f.write(b"\1" * size)
        rc, jobs, err = run(tool, ["--name=c", "--opendir=" + d, "--rw=read"], tmp)
        return rc, jobs and io(jobs[0])
    check(per_tool(opendir) == (0, {"read": (458752, 112)}), "opendir")
    d = fresh(tmp, "odbad")
    rc, _, err = run(BIN, ["--name=c", "--opendir=%s/none" % d, "--rw=read"], tmp)
    check(rc == 2 and "opendir" in err, "opendir missing: exit %d %s" % (rc, err[-200:]))
    rc, _, err = run(BIN, ["--name=c", "--opendir=" + d, "--rw=read"], tmp)
    check(rc == 2 and "no regular file" in err, "opendir empty: exit %d %s" % (rc, err[-200:]))

    def unique_filename(tool):
        out = []
        for u in (0, 1):
            d = fresh(tmp, "uf")
            rc, _, err = run(tool, ["--name=c", "--directory=" + d, "--nrfiles=2", "--size=8k",
                                    "--unique_filename=%d" % u], tmp)
            out.append((rc, sorted(os.listdir(d))))
        return out
    check(per_tool(unique_filename) == [(0, ["c.0.0", "c.0.1"])] * 2, "unique_filename")


def unlink_each_loop(tmp):
    # Before loops 2 and 3 the file is removed and made again (0600) by the
    # writes; a job that only reads finds it gone: exit 1 naming ENOENT.
    if STRACE:
        def each_loop(tool):
            d = fresh(tmp, "ul")
            trace = os.path.join(tmp, "trace")
            rc, jobs, err = run(tool, ["--name=u", "--filename=%s/f" % d, "--rw=write",
                                       "--size=256k", "--bs=64k", "--loops=3",
                                       "--unlink_each_loop=1"], d,
                                ("strace", "-f", "-e", "trace=unlink,unlinkat", "-o", trace))
            with open(trace) as f:
                removed = sum(line.rstrip().endswith("= 0") and "/ul/f" in line for line in f)
            st = os.stat(os.path.join(d, "f"))
            return rc, jobs and io(jobs[0]), removed, st.st_size, oct(st.st_mode & 0o777)
        check(per_tool(each_loop) == (0, {"write": (786432, 12)}, 2, 262144, "0o600"),
              "unlink_each_loop write")

    def each_loop_read(tool):
        d = fresh(tmp, "ulr")
        rc, jobs, err = run(tool, ["--name=u", "--filename=%s/f" % d, "--rw=read", "--size=256k",
                                   "--bs=64k", "--loops=3", "--unlink_each_loop=1"], d)
        return rc, "No such file or directory" in err or bool(
            jobs and jobs[0]["error"] == 2), os.listdir(d)
    check(per_tool(each_loop_read) == (1, True, []), "unlink_each_loop read")


def lockfile(tmp):
    # Two jobs on one file, threads, 256 random 4k I/Os each: under strace
    # a call that another thread's call interrupts is printed "unfinished",
    # so their count is how often two I/Os overlapped.  exclusive, and
    # readwrite with writes, keep them apart (a stray line or two from
    # strace aside); none, and readwrite with reads, let them overlap (the
    # control that shows overlaps can be seen; on a busy machine the threads
    # may take turns anyway, which is only reported).  The clones of one job are
    # kept apart too.  (fio 3.33 acts on lockfile only when it comes before
    # filename in the job: here it does.)
    if not STRACE:
        return
    d = fresh(tmp, "lk")
    with open(os.path.join(d, "f"), "wb") as f:
        f.write(os.urandom(4 << 20))

    def overlaps(tool, mode, rw, jobs):
        trace = os.path.join(tmp, "trace")
        rc, _, err = run(tool, ["--thread", "--lockfile=" + mode, "--filename=%s/f" % d,
                                "--rw=" + rw, "--size=4m", "--bs=4k", "--io_size=1m"] + jobs, d,
                         ("strace", "-f", "-e", "trace=pwrite64,pread64", "-o", trace))
        with open(trace) as f:
            n = sum("unfinished" in line for line in f)
        check(rc == 0, "lockfile=%s %s %r %s: exit %d %s" % (mode, rw, jobs, tool, rc, err[-200:]))
        return n

    two, clones = ["--name=a", "--name=b"], ["--name=l", "--numjobs=2"]
    for tool in TOOLS:
        name = os.path.basename(tool)
        for mode, rw, jobs, apart in (("exclusive", "randwrite", two, True),
                                      ("exclusive", "randread", two, True),
                                      ("readwrite", "randwrite", two, True),
                                      ("readwrite", "randread", two, False),
                                      ("none", "randwrite", two, False),
                                      ("exclusive", "randwrite", clones, True),
                                      ("none", "randwrite", clones, False)):
            n = overlaps(tool, mode, rw, jobs)
            if apart:
                check(n <= 2, "%s lockfile=%s rw=%s %r: %d overlapping I/Os" %
                      (name, mode, rw, jobs, n))
            elif n < 10:
                # A loaded machine may run the two threads one after the
                # other: the control says nothing then (not a failure).
                print("fileopts: %s lockfile=%s rw=%s %r: only %d overlapping I/Os (a busy "
                      "machine?)" % (name, mode, rw, jobs, n))


def create_serialize(tmp):
    # The verify phase of fio's surface-scan.fio: a job after a stonewall
    # reads the file an earlier job filled (fill_device).  Set up as its
    # batch starts (0), it reads all of it; set up with the others (1), it
    # finds an empty file.
    if os.geteuid() != 0:
        print("fileopts: not root: create_serialize skipped")
        return
    mnt = fresh(tmp, "mnt")
    with tmpfs(mnt, "4m") as mounted:
        if not check(mounted, "mount a 4 MiB tmpfs"):
            return
        for cs in (0, 1):
            job = os.path.join(tmp, "cs.fio")
            with open(job, "w") as f:
                f.write("[w]\nfilename=%s/f\nrw=write\nfill_device=1\nbs=64k\n[r]\nstonewall\n"
                        "create_serialize=%d\nfilename=%s/f\nrw=read\nbs=64k\n" % (mnt, cs, mnt))

            def serialize(tool):
                if os.path.exists(os.path.join(mnt, "f")):
                    os.unlink(os.path.join(mnt, "f"))
                rc, jobs, err = run(tool, [job], tmp)
                return rc, jobs and [io(j) for j in jobs]
            serialize.__name__ = "create_serialize=%d" % cs
            if cs == 0:
                check(per_tool(serialize) == (0, [{"write": (4 << 20, 65)},
                                                  {"read": (4 << 20, 64)}]), "create_serialize=0")
            else:
                # fio runs [w] and fails [r] (exit 1); iogauge refuses the
                # run before any I/O (exit 2).
                rc, jobs = serialize(BIN)
                check(rc == 2 and not os.path.exists(os.path.join(mnt, "f")),
                      "create_serialize=1: exit %d" % rc)


def folders(tmp):
    """A file named in folders that do not exist: each is made (0700), as
    fio 3.33's setup_files makes them; a folder whose name a file has
    cannot be made, and a directory= that does not exist is not made
    (fio refuses it as it parses it): exit 1, nothing made."""
    def made(tool):
        d = fresh(tmp, "mk")
        rc, jobs, err = run(tool, ["--name=m", "--filename=%s/a/b/f" % d, "--rw=write",
                                   "--size=64k"], d)
        modes = sorted((os.path.relpath(os.path.join(r, n), d),
                        oct(os.stat(os.path.join(r, n)).st_mode & 0o777))
                       for r, ds, fs in os.walk(d) for n in ds)
        return rc, jobs and io(jobs[0]), modes
    check(per_tool(made) == (0, {"write": (65536, 16)}, [("a", "0o700"), ("a/b", "0o700")]),
          "folders made")

    def blocked(tool):
        d = fresh(tmp, "mkf")
        open(os.path.join(d, "a"), "w").close()
        rc, jobs, err = run(tool, ["--name=m", "--filename=%s/a/b/f" % d, "--rw=write",
                                   "--size=64k"], d)
        return rc, "Not a directory" in err, os.listdir(d)
    check(per_tool(blocked) == (1, True, ["a"]), "folder blocked by a file")

    def no_directory(tool):
        d = fresh(tmp, "mkd")
        rc, jobs, err = run(tool, ["--name=m", "--directory=%s/a/b" % d, "--rw=write",
                                   "--size=64k"], d)
        return rc, os.listdir(d)
    check(per_tool(no_directory) == (1, []), "directory= missing")


def main():
    tmp = tempfile.mkdtemp(prefix="iogauge-fileopts.")
    try:
        folders(tmp)
        options(tmp)
        unlink_each_loop(tmp)
        lockfile(tmp)
        create_serialize(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    finish("fileopts")


if __name__ == "__main__":
    main()
