#!/usr/bin/env python3
# Where and as what a job runs, and what its buffers hold, each checked by
# its effect and against fio 3.33 on the same job in the same run: NUMA
# placement (the set_mempolicy and sched_setaffinity calls strace sees),
# buffer_pattern (the file's bytes and sha256), dedupe_* (the share of
# duplicate blocks in the written files).  One line per failure, then
# "placement: N passed, M failed".  Skips (77) without fio or strace.
#
# Environment (set by CTest): IOGAUGE_BIN, IOGAUGE_SRC.
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile

from clitest import check, finish

BIN = os.path.abspath(os.environ["IOGAUGE_BIN"])
FIO = shutil.which("fio")
STRACE = shutil.which("strace")
# An ASan build: its mlock does nothing (lockmem cannot show), and its
# leak check cannot run under strace (turned off there).
with open(BIN, "rb") as _f:
    ASAN = b"__asan_init" in _f.read()


def run(tool, job, tmp, args=(), prefix=(), name="job.fio"):
    """@tool on the job text @job (as tmp/@name): (exit status, stdout + stderr)."""
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        f.write(job)
    env = dict(os.environ)
    if prefix:
        env["ASAN_OPTIONS"] = "detect_leaks=0"
    p = subprocess.run(list(prefix) + [tool] + list(args) + [path], cwd=tmp, capture_output=True,
                       text=True, timeout=300, env=env)
    return p.returncode, p.stdout + p.stderr


def traced(tool, job, tmp, calls):
    """The lines of strace -f for @calls while @tool runs @job, and its status."""
    log = os.path.join(tmp, "strace.log")
    rc, out = run(tool, job, tmp, prefix=(STRACE, "-f", "-qq", "-o", log, "-e", "trace=" + calls) +
                  (("-e", "raw=pwrite64", "-e", "signal=none")
                   if "pwrite64" in calls else ()))
    with open(log) as f:
        lines = f.read().splitlines()
    os.unlink(log)
    return rc, out, lines


def syscalls(lines, name):
    """@name's calls in strace lines: (arguments, result), without the pid."""
    got = []
    for ln in lines:
        m = re.search(r"\b%s\((.*)\) +=  *(\S+)" % name, ln)
        if m:
            got.append((m.group(1), m.group(2)))
    return got


def node_count():
    with open("/sys/devices/system/node/online") as f:
        last = f.read().strip().split(",")[-1]
    return int(last.split("-")[-1]) + 1


def numa(tmp):
    """numa_cpu_nodes, numa_mem_policy: the clone's calls, fio's and ours."""
    nodes = node_count()
    base = "[global]\nfilename=%s/n.dat\nsize=256k\nrw=write\n" % tmp
    rc, out = run(BIN, base + "[n]\nnuma_cpu_nodes=0\n", tmp, args=("--parse-only",))
    if "has no libnuma" in out:
        print("placement: this build has no libnuma; NUMA options not tested")
        return
    cases = ["numa_cpu_nodes=0\nnuma_mem_policy=bind:0\n",
             "numa_cpu_nodes=all\nnuma_mem_policy=interleave\n",
             "numa_mem_policy=interleave:0\n",
             "numa_mem_policy=prefer:0\n",
             "numa_mem_policy=local\n",
             "numa_cpu_nodes=0\nthread=1\nnuma_mem_policy=bind:0\n"]
    for c in cases:
        job = base + "[n]\n" + c
        seen = {}
        for tool in (FIO, BIN):
            rc, out, lines = traced(tool, job, tmp, "set_mempolicy,sched_setaffinity")
            check(rc == 0, "%s %r: exit %d %s" % (tool, c, rc, out[-300:]))
            # The policies set after start-up (libnuma's own probe at load
            # is MPOL_PREFERRED_MANY then MPOL_DEFAULT, in both).
            pol = [s for s in syscalls(lines, "set_mempolicy")
                   if not s[0].startswith(("MPOL_PREFERRED_MANY", "MPOL_DEFAULT"))]
            # libnuma's, for the calling thread (0); fio binds its own
            # helper threads by their ids.
            aff = [s for s in syscalls(lines, "sched_setaffinity") if s[0].startswith("0, ")]
            seen[tool] = (pol, aff)
        check(seen[FIO] == seen[BIN],
              "%r: fio's calls %s, iogauge's %s" % (c, seen[FIO], seen[BIN]))
        check(len(seen[BIN][0]) == 1 and len(seen[BIN][1]) == ("numa_cpu_nodes" in c),
              "%r: iogauge's calls %s" % (c, seen[BIN]))
    # A node the machine lacks, and policies fio refuses: both refuse.
    bad = ["numa_cpu_nodes=%d\n" % nodes, "numa_cpu_nodes=0-%d\n" % nodes,
           "numa_mem_policy=bind:%d\n" % nodes, "numa_mem_policy=bind\n",
           "numa_mem_policy=local:0\n", "numa_mem_policy=prefer\n",
           "numa_mem_policy=prefer:0-1\n", "numa_mem_policy=often:0\n"]
    for c in bad:
        job = base + "[n]\n" + c
        frc, fout = run(FIO, job, tmp)
        rc, out = run(BIN, job, tmp)
        check("failed parsing" in fout or "fio: " in fout and frc != 0,
              "fio took %r: %s" % (c, fout[-200:]))
        check(rc == 2 and "job.fio:6" in out, "iogauge %r: exit %d %s" % (c, rc, out[-200:]))
    # fio's example, as far as this machine's nodes go.
    with open("/usr/share/doc/fio/examples/numa.fio") as f:
        ex = f.read().replace("/dev/sdb1", os.path.join(tmp, "ex.dat")).replace("512m", "2m")
    frc, fout = run(FIO, ex, tmp)
    rc, out = run(BIN, ex, tmp)
    check((frc == 0) == (nodes > 1) and (rc == 0) == (nodes > 1),
          "numa.fio on %d node(s): fio exit %d, iogauge exit %d %s" % (nodes, frc, rc, out[-300:]))
    if nodes == 1:
        check(rc == 2 and "numa_cpu_nodes=0-1" in out and "job.fio:19" in out,
              "numa.fio on one node: %s" % out[-300:])


def written(tool, tmp, body, files=("w.dat",)):
    """The bytes of each file that the job @body (run in a fresh folder) leaves."""
    d = os.path.join(tmp, "out-" + os.path.basename(tool))
    shutil.rmtree(d, ignore_errors=True)
    os.mkdir(d)
    rc, out = run(tool, body, d)
    if not check(rc == 0, "%s %r: exit %d %s" % (tool, body, rc, out[-300:])):
        return [b"" for _ in files]
    got = []
    for name in files:
        with open(os.path.join(d, name), "rb") as f:
            got.append(f.read())
    return got


def buffer_pattern(tmp):
    """Each of fio's pattern forms: the same file as fio's, byte for byte."""
    forms = ["0xdeadbeef", '"abc"', "1234", '0xaa"xy"12', "-1", "0xabc", "0x1", '"a"0x00"b"',
             "305419896"]
    for form in forms:
        for rw in ("write", "randwrite"):
            body = ("[w]\nfilename=w.dat\nsize=192k\nbs=4k\nrw=%s\nbuffer_pattern=%s\n"
                    % (rw, form))
            want, = written(FIO, tmp, body)
            got, = written(BIN, tmp, body)
            check(got and hashlib.sha256(got).hexdigest() == hashlib.sha256(want).hexdigest(),
                  "buffer_pattern=%s rw=%s: sha256 %s, fio's %s" % (
                      form, rw, hashlib.sha256(got).hexdigest()[:16],
                      hashlib.sha256(want).hexdigest()[:16]))
    # With compression the zeros of each chunk are the pattern, as fio's:
    # the same bytes wherever fio's are not random.
    body = ("[w]\nfilename=w.dat\nsize=64k\nbs=4k\nrw=write\nbuffer_pattern=0x55aa\n"
            "buffer_compress_percentage=75\nbuffer_compress_chunk=1024\n")
    want, = written(FIO, tmp, body)
    got, = written(BIN, tmp, body)
    tails = lambda d: [d[i + 256:i + 1024] for i in range(0, len(d), 1024)]
    check(len(got) == len(want) == 65536 and tails(got) == tails(want) and
          tails(got)[0] == b"\x55\xaa" * 384 and got[:256] != want[:256],
          "buffer_pattern with compression: the tails differ from fio's")
    # As fio: the pattern turns scramble_buffers off, unless it is set
    # after it (then each write's blocks are stamped, in both).
    for order, scrambled in (("buffer_pattern=0x5a\nscramble_buffers=1\n", True),
                             ("scramble_buffers=1\nbuffer_pattern=0x5a\n", False),
                             ("buffer_pattern=0x5a\nzero_buffers=1\n", False)):
        body = "[w]\nfilename=w.dat\nsize=64k\nrw=write\n" + order
        want, = written(FIO, tmp, body)
        got, = written(BIN, tmp, body)
        check(bool(want.strip(b"\x5a")) == bool(got.strip(b"\x5a")) == scrambled,
              "%r: scrambled %s, fio's %s" % (order, bool(got.strip(b"\x5a")),
                                               bool(want.strip(b"\x5a"))))
    # fio's pattern takes no format: refused, as fio refuses it.
    rc, out = run(BIN, "[w]\nfilename=w.dat\nsize=64k\nbuffer_pattern=0x12%o\n", tmp)
    check(rc == 2 and "job.fio:4" in out and not os.path.exists(os.path.join(tmp, "w.dat")),
          "buffer_pattern=0x12%%o: exit %d %s" % (rc, out))


def dup_share(datas, bs=4096):
    """Of the 4 KiB blocks in @datas together, the % that repeat another."""
    seen = set()
    n = 0
    for d in datas:
        for i in range(0, len(d), bs):
            seen.add(d[i:i + bs])
            n += 1
    return 100.0 * (n - len(seen)) / n


def dedupe(tmp):
    """The share of duplicate blocks, in each file and in both, near fio's
    and near what was asked (2048 blocks a file: a few points of chance)."""
    with open("/usr/share/doc/fio/examples/dedupe-global.fio") as f:
        example = f.read().replace("size=100m", "size=16m")
    cases = [("dedupe-global.fio (16m)", example, None),
             ("repeat 30%", "dedupe_percentage=30\n", 30),
             ("repeat 100%", "dedupe_percentage=100\n", 100),
             ("repeat 70%, compressible", "dedupe_percentage=70\nbuffer_compress_percentage=40\n",
              70),
             ("working_set 40% of 20%", "dedupe_percentage=40\ndedupe_mode=working_set\n"
              "dedupe_working_set_percentage=20\n", 40),
             ("working_set, randwrite", "dedupe_percentage=50\ndedupe_mode=working_set\n"
              "rw=randwrite\n", 50),
             ("working_set, global", "dedupe_percentage=50\ndedupe_mode=working_set\n"
              "dedupe_global=1\ndedupe_working_set_percentage=30\n", 50)]
    for what, opts, asked in cases:
        body = opts if asked is None else (
            "[global]\nsize=8m\nbs=4k\nrw=write\n%s[a]\n[b]\n" % opts)
        fa, fb = written(FIO, tmp, body, ("a.0.0", "b.0.0"))
        ia, ib = written(BIN, tmp, body, ("a.0.0", "b.0.0"))
        if not (fa and ia):
            continue
        for part, f, i in (("a", [fa], [ia]), ("b", [fb], [ib]), ("a and b", [fa, fb], [ia, ib])):
            fs, gs = dup_share(f), dup_share(i)
            # dedupe_global spreads each file's repeats over both.
            check(abs(fs - gs) <= 5 and (asked is None or part != "a and b" or
                                         abs(gs - asked) <= 5),
                  "%s, %s: %.1f%% of blocks repeat, fio's %.1f%%" % (what, part, gs, fs))
        print("dedupe %s: iogauge %.1f%% %.1f%% both %.1f%%, fio %.1f%% %.1f%% both %.1f%%" % (
            what, dup_share([ia]), dup_share([ib]), dup_share([ia, ib]), dup_share([fa]),
            dup_share([fb]), dup_share([fa, fb])))
    # Without dedupe, no block repeats (scramble_buffers, as fio's).
    ia, ib = written(BIN, tmp, "[global]\nsize=4m\nbs=4k\nrw=write\n[a]\n[b]\n",
                     ("a.0.0", "b.0.0"))
    check(dup_share([ia]) == 0, "no dedupe: %.1f%% of blocks repeat" % dup_share([ia]))
    # What fio refuses of working_set, refused at the line that set it.
    for opts, line in (("dedupe_percentage=20\ndedupe_mode=working_set\nnrfiles=2\n", 6),
                       ("dedupe_percentage=96\ndedupe_mode=working_set\n", 4),
                       ("dedupe_percentage=20\ndedupe_mode=working_set\nsize=50%\n", 6)):
        job = "[d]\nfilename_format=d.$filenum\nsize=1m\n" + opts
        frc, fout = run(FIO, job, tmp)
        rc, out = run(BIN, job, tmp)
        check(frc != 0 or "fio: " in fout, "fio took %r: %s" % (opts, fout[-200:]))
        check(rc == 2 and "job.fio:%d" % line in out and not os.path.exists(
            os.path.join(tmp, "d.0")), "%r: exit %d %s" % (opts, rc, out[-300:]))


def read(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return None


def exec_hooks(tmp):
    """exec_prerun runs after the file is laid out and before the I/O,
    exec_postrun after it, their output in NAME.prerun.txt and
    NAME.postrun.txt, as fio's; a failing one is an error (fio: exit 0)."""
    body = ("[t]\nfilename=e.dat\nsize=64k\nrw=write\nbuffer_pattern=0x5a\n"
            "exec_prerun=stat -c %s e.dat\nexec_postrun=od -An -tx1 -N4 e.dat\n")
    got = {}
    for tool in (FIO, BIN):
        d = os.path.join(tmp, "exec-" + os.path.basename(tool))
        os.mkdir(d)
        rc, out = run(tool, body, d)
        check(rc == 0, "%s exec hooks: exit %d %s" % (tool, rc, out[-300:]))
        got[tool] = (read(os.path.join(d, "t.prerun.txt")), read(os.path.join(d, "t.postrun.txt")))
    check(got[BIN] == got[FIO] == ("65536\n", " 5a 5a 5a 5a\n"),
          "exec hooks' output: iogauge %r, fio %r" % (got[BIN], got[FIO]))
    # Each clone runs them, in its own process (numjobs=3: three lines).
    d = os.path.join(tmp, "exec-clones")
    os.mkdir(d)
    rc, out = run(BIN, "[t]\nfilename=e.dat\nsize=64k\nrw=write\nnumjobs=3\n"
                  "exec_prerun=echo $PPID | tee -a pids\n", d)
    pids = (read(os.path.join(d, "pids")) or "").split()
    check(rc == 0 and len(set(pids)) == 3, "exec_prerun with numjobs=3: exit %d, pids %s" % (rc, pids))
    # A failing prerun: no I/O, exit 1 naming the command; fio exits 0.
    for tool in (FIO, BIN):
        d = os.path.join(tmp, "exec-fail-" + os.path.basename(tool))
        os.mkdir(d)
        rc, out = run(tool, "[t]\nfilename=e.dat\nsize=64k\nrw=write\nbuffer_pattern=0x5a\n"
                      "exec_prerun=exit 3\n", d)
        with open(os.path.join(d, "e.dat"), "rb") as f:
            wrote = b"\x5a" in f.read()
        if tool == FIO:
            check(rc == 0 and not wrote, "fio, failing prerun: exit %d, wrote %s" % (rc, wrote))
        else:
            check(rc == 1 and not wrote and "exec_prerun=exit 3: exit status 3" in out,
                  "iogauge, failing prerun: exit %d, wrote %s: %s" % (rc, wrote, out[-300:]))


F_GET_RW_HINT = 1035


def write_hint(tmp):
    """The hint each value leaves on the file's inode, read back with
    F_GET_RW_HINT, as fio's; with direct=1 fio's fcntl is refused."""
    import fcntl
    import struct
    for value, want in (("none", 1), ("short", 2), ("medium", 3), ("long", 4), ("extreme", 5)):
        got = {}
        for tool in (FIO, BIN):
            path = os.path.join(tmp, "hint-%s.dat" % os.path.basename(tool))
            if os.path.exists(path):
                os.unlink(path)
            rc, out = run(tool, "[h]\nfilename=%s\nsize=64k\nrw=write\nwrite_hint=%s\n"
                          % (path, value), tmp)
            fd = os.open(path, os.O_RDONLY)
            got[tool] = struct.unpack("Q", fcntl.fcntl(fd, F_GET_RW_HINT, bytes(8)))[0]
            os.close(fd)
            check(rc == 0, "%s write_hint=%s: exit %d %s" % (tool, value, rc, out[-200:]))
        check(got[BIN] == got[FIO] == want, "write_hint=%s: iogauge left %d, fio %d" % (
            value, got[BIN], got[FIO]))
    path = os.path.join(tmp, "hint-direct.dat")
    rc, out = run(BIN, "[h]\nfilename=%s\nsize=64k\nrw=write\ndirect=1\nwrite_hint=short\n"
                  % path, tmp)
    if rc == 0:
        fd = os.open(path, os.O_RDONLY)
        hint = struct.unpack("Q", fcntl.fcntl(fd, F_GET_RW_HINT, bytes(8)))[0]
        os.close(fd)
        check(hint == 2, "write_hint=short, direct=1: left %d" % hint)
    else:
        check("O_DIRECT" in out, "write_hint, direct=1: exit %d %s" % (rc, out[-200:]))
    rc, out = run(BIN, "[h]\nfilename=%s\nsize=64k\nwrite_hint=brief\n" % path, tmp)
    check(rc == 2 and "job.fio:4" in out, "write_hint=brief: exit %d %s" % (rc, out[-200:]))


def task_ids(pid):
    """(tid, uid, gid) of every thread of @pid and of its children."""
    import time
    out = []
    try:
        kids = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True,
                              text=True).stdout.split()
    except OSError:
        kids = []
    for p in [str(pid)] + kids:
        try:
            tids = os.listdir("/proc/%s/task" % p)
        except OSError:
            continue
        for t in tids:
            st = read("/proc/%s/task/%s/status" % (p, t)) or ""
            u = re.search(r"^Uid:\s+(\d+)", st, re.M)
            g = re.search(r"^Gid:\s+(\d+)", st, re.M)
            if u and g:
                out.append((int(t), int(u.group(1)), int(g.group(1))))
    return out


def ids_while_running(tool, tmp, job):
    """The tasks of @tool running @job, sampled until one has taken uid
    65534 (5 s at most), and its exit status."""
    import time
    path = os.path.join(tmp, "ids.fio")
    with open(path, "w") as f:
        f.write(job)
    p = subprocess.Popen([tool, path], cwd=tmp, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    seen = []
    end = time.monotonic() + 5
    while time.monotonic() < end and p.poll() is None:
        seen = task_ids(p.pid)
        if any(u == 65534 for _, u, _ in seen):
            break
        time.sleep(0.05)
    out = p.communicate(timeout=60)[0].decode()
    return p.pid, seen, p.returncode, out


def uid_gid(tmp):
    """uid=, gid=: the clone's task takes them before its I/O (read from
    /proc while it runs), as fio's job does; with thread=1 only the clone's
    thread, where fio's setuid changes the whole process."""
    os.chmod(tmp, 0o755)
    data = os.path.join(tmp, "ids.dat")
    with open(data, "wb") as f:
        f.write(os.urandom(1 << 20))
    os.chmod(data, 0o644)
    for thread in (0, 1):
        job = ("[i]\nfilename=%s\nsize=1m\nrw=randread\nuid=65534\ngid=65533\n"
               "time_based\nruntime=2\nthread=%d\n" % (data, thread))
        for tool in (FIO, BIN):
            pid, seen, rc, out = ids_while_running(tool, tmp, job)
            check(rc == 0 and (65534, 65533) in [(u, g) for _, u, g in seen],
                  "%s uid/gid thread=%d: exit %d, tasks %s %s" % (tool, thread, rc, seen,
                                                                  out[-200:]))
            if tool == BIN:
                main = [(u, g) for t, u, g in seen if t == pid]
                check(main == [(0, 0)] if os.getuid() == 0 else True,
                      "iogauge thread=%d: the run's own thread took %s" % (thread, main))
    # A job that may not take the id fails before its I/O, exit 1.
    p = subprocess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", BIN,
                        "--name=i", "--filename=" + data, "--size=64k", "--rw=read", "--uid=0"],
                       cwd=tmp, capture_output=True, text=True, timeout=60)
    check(p.returncode == 1 and "[i] uid=0: setuid: Operation not permitted" in p.stderr,
          "uid=0 as nobody: exit %d %s" % (p.returncode, p.stderr[-200:]))
    rc, out = run(BIN, "[i]\nfilename=%s\nsize=64k\nrw=read\nuid=4294967295\n" % data, tmp)
    check(rc == 2 and "job.fio:5" in out, "uid=4294967295: exit %d %s" % (rc, out[-200:]))


def cpumask(tmp):
    """cpumask=: the CPUs the job binds to (its last sched_setaffinity),
    as fio's; a CPU the machine lacks is refused by both."""
    ncpu = os.cpu_count()
    for mask in ("0x1", "1", "0x%x" % ((1 << min(ncpu, 32)) - 1), "2" if ncpu > 1 else "1"):
        for later in ("", "cpus_allowed=0\n"):
            job = "[c]\nfilename=%s/c.dat\nsize=64k\nrw=write\n%scpumask=%s\n" % (
                tmp, later, mask)
            got = {}
            for tool in (FIO, BIN):
                rc, out, lines = traced(tool, job, tmp, "sched_setaffinity")
                calls = [a.split(", ", 2)[2] for a, r in syscalls(lines, "sched_setaffinity")
                         if not a.startswith("0, ")]
                got[tool] = calls[-1:]
                check(rc == 0, "%s cpumask=%s: exit %d %s" % (tool, mask, rc, out[-200:]))
            check(got[BIN] == got[FIO] and got[BIN],
                  "cpumask=%s after %r: iogauge bound %s, fio %s" % (mask, later, got[BIN],
                                                                    got[FIO]))
    # cpus_allowed after cpumask wins, as in fio (one mask).
    job = "[c]\nfilename=%s/c.dat\nsize=64k\nrw=write\ncpumask=0x1\ncpus_allowed=%d\n" % (
        tmp, ncpu - 1)
    rc, out, lines = traced(BIN, job, tmp, "sched_setaffinity")
    calls = [a for a, r in syscalls(lines, "sched_setaffinity")]
    check(rc == 0 and calls and calls[-1].endswith("[%d]" % (ncpu - 1)),
          "cpus_allowed after cpumask: %s" % calls)
    if ncpu < 32:
        job = "[c]\nfilename=%s/c.dat\nsize=64k\nrw=write\ncpumask=0x%x\n" % (tmp, 1 << ncpu)
        frc, fout = run(FIO, job, tmp)
        rc, out = run(BIN, job, tmp)
        check("too large" in fout, "fio took a CPU it lacks: %s" % fout[-200:])
        check(rc == 2 and "job.fio:5" in out and "cpumask" in out,
              "cpumask of a CPU it lacks: exit %d %s" % (rc, out[-200:]))


def ioscheduler(tmp):
    """ioscheduler=: the loop device's scheduler while the job runs, as
    fio's; put back after (fio leaves it); one the disk lacks refused
    before any I/O (fio fails the job, EINVAL)."""
    import time
    img = os.path.join(tmp, "sched.img")
    with open(img, "wb") as f:
        f.truncate(32 << 20)
    p = subprocess.run(["losetup", "-f", "--show", img], capture_output=True, text=True)
    if p.returncode != 0:
        print("placement: no loop device (%s); ioscheduler not tested" % p.stderr.strip())
        return
    dev = p.stdout.strip()
    sysf = "/sys/block/%s/queue/scheduler" % os.path.basename(dev)
    try:
        line = read(sysf).strip()
        others = [w for w in line.replace("[", "").replace("]", "").split()
                  if "[%s]" % w not in line]
        if not others:
            print("placement: %s offers one scheduler (%s); ioscheduler not tested" % (dev, line))
            return
        want = others[0]
        before = line
        job = ("[s]\nfilename=%s\nrw=randread\nsize=8m\ntime_based\nruntime=2\n"
               "ioscheduler=%s\n" % (dev, want))
        for tool in (FIO, BIN):
            path = os.path.join(tmp, "sched.fio")
            with open(path, "w") as f:
                f.write(job)
            pr = subprocess.Popen([tool, path], cwd=tmp, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT)
            during = None
            end = time.monotonic() + 5
            while time.monotonic() < end and pr.poll() is None:
                during = read(sysf).strip()
                if "[%s]" % want in during:
                    break
                time.sleep(0.05)
            out = pr.communicate(timeout=60)[0].decode()
            after = read(sysf).strip()
            check(pr.returncode == 0 and during and "[%s]" % want in during,
                  "%s ioscheduler=%s: exit %d, during the run %r %s" % (
                      tool, want, pr.returncode, during, out[-200:]))
            if tool == BIN:
                check(after == before, "iogauge left %r, not %r" % (after, before))
            else:
                check("[%s]" % want in after, "fio put back %r" % after)
            with open(sysf, "w") as f:
                f.write(re.search(r"\[(\S+)\]", before).group(1))
        # A clone set up as its batch starts (create_serialize=0) puts it back too.
        rc, out = run(BIN, "[s]\nfilename=%s\nrw=read\nsize=1m\ncreate_serialize=0\n"
                      "ioscheduler=%s\nexec_prerun=cat %s\n" % (dev, want, sysf), tmp)
        during = read(os.path.join(tmp, "s.prerun.txt")) or ""
        check(rc == 0 and "[%s]" % want in during and read(sysf).strip() == before,
              "create_serialize=0: exit %d, during %r, after %r" % (rc, during,
                                                                  read(sysf).strip()))
        # One the disk does not offer: exit 2, nothing started.
        job = "[s]\nfilename=%s\nrw=read\nsize=1m\nioscheduler=elevator9\n" % dev
        frc, fout = run(FIO, job, tmp)
        rc, out = run(BIN, job, tmp)
        check("unable to set io scheduler" in fout, "fio took elevator9: %s" % fout[-200:])
        check(rc == 2 and "offers: " + before in out and read(sysf).strip() == before,
              "ioscheduler=elevator9: exit %d %s" % (rc, out[-200:]))
    finally:
        subprocess.run(["losetup", "-d", dev])


def cgroup_mount():
    """The folder of the hierarchy fio and iogauge use: the first cgroup
    v1 mount with blkio, or cgroup2, in /proc/mounts; and which it is."""
    for ln in (read("/proc/mounts") or "").splitlines():
        dev, mnt, typ, opts = ln.split()[:4]
        if (typ == "cgroup" and "blkio" in opts.split(",")) or typ == "cgroup2":
            return mnt, typ == "cgroup2"
    return None, False


def cgroups(tmp):
    """cgroup=: the clone's thread is in it while the job runs (its
    /proc/TID/cgroup line), as fio's; the run made it and removes it after,
    unless cgroup_nodelete=1; cgroup_weight where blkio.weight is lacking
    fails, as fio's."""
    import time
    mnt, v2 = cgroup_mount()
    if not mnt:
        print("placement: no blkio or cgroup2 mount; cgroup not tested")
        return
    name = "iogauge-test-%d" % os.getpid()
    where = os.path.join(mnt, name)
    data = os.path.join(tmp, "cg.dat")
    with open(data, "wb") as f:
        f.write(os.urandom(1 << 20))
    want = re.compile(r"^\d+:%s:/%s$" % ("" if v2 else "[^:]*blkio[^:]*", re.escape(name)), re.M)
    try:
        for thread in (0, 1):
            job = ("[g]\nfilename=%s\nsize=1m\nrw=randread\ncgroup=%s\ntime_based\n"
                   "runtime=2\nthread=%d\n" % (data, name, thread))
            for tool in (FIO, BIN):
                path = os.path.join(tmp, "cg.fio")
                with open(path, "w") as f:
                    f.write(job)
                p = subprocess.Popen([tool, path], cwd=tmp, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT)
                inside = []
                end = time.monotonic() + 5
                while time.monotonic() < end and p.poll() is None and not inside:
                    # /proc/TID is there for every thread, listed or not.
                    inside = [t for t, _, _ in task_ids(p.pid)
                              if want.search(read("/proc/%d/cgroup" % t) or "")]
                    time.sleep(0.05)
                out = p.communicate(timeout=60)[0].decode()
                check(p.returncode == 0 and inside,
                      "%s cgroup=%s thread=%d: exit %d, tasks inside %s %s" % (
                          tool, name, thread, p.returncode, inside, out[-200:]))
                check(not os.path.exists(where), "%s left %s" % (tool, where))
                if os.path.exists(where):
                    os.rmdir(where)
        # cgroup_nodelete=1 keeps it, for both.
        for tool in (FIO, BIN):
            rc, out = run(tool, "[g]\nfilename=%s\nsize=64k\nrw=read\ncgroup=%s\n"
                          "cgroup_nodelete=1\n" % (data, name), tmp)
            check(rc == 0 and os.path.isdir(where), "%s cgroup_nodelete=1: exit %d, %s %s" % (
                tool, rc, "kept" if os.path.isdir(where) else "removed", out[-200:]))
            if os.path.isdir(where):
                os.rmdir(where)
        # A weight the hierarchy cannot take: both fail (exit 1), none left.
        if v2 or not os.path.exists(os.path.join(mnt, "blkio.weight")):
            job = "[g]\nfilename=%s\nsize=64k\nrw=read\ncgroup=%s\ncgroup_weight=500\n" % (
                data, name)
            frc, fout = run(FIO, job, tmp)
            if os.path.isdir(where):
                os.rmdir(where)
            rc, out = run(BIN, job, tmp)
            check(frc != 0 and rc == 1 and "cgroup_weight" in out and not os.path.exists(where),
                  "cgroup_weight=500 without blkio.weight: fio exit %d, iogauge %d %s" % (
                      frc, rc, out[-200:]))
        rc, out = run(BIN, "[g]\nfilename=%s\nsize=64k\ncgroup=%s\ncgroup_weight=50\n" % (
            data, name), tmp)
        check(rc == 2 and "job.fio:5" in out, "cgroup_weight=50: exit %d %s" % (rc, out[-200:]))
    finally:
        if os.path.isdir(where):
            os.rmdir(where)


def vmlck_while_running(tool, tmp, job):
    """The largest VmLck (kB) of @tool's processes while it runs @job."""
    import time
    path = os.path.join(tmp, "lock.fio")
    with open(path, "w") as f:
        f.write(job)
    p = subprocess.Popen([tool, path], cwd=tmp, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    most = 0
    end = time.monotonic() + 5
    while time.monotonic() < end and p.poll() is None:
        kids = subprocess.run(["pgrep", "-P", str(p.pid)], capture_output=True,
                              text=True).stdout.split()
        for pid in [str(p.pid)] + kids:
            m = re.search(r"^VmLck:\s+(\d+)", read("/proc/%s/status" % pid) or "", re.M)
            if m:
                most = max(most, int(m.group(1)))
        if most:
            break
        time.sleep(0.05)
    out = p.communicate(timeout=60)[0].decode()
    return most, p.returncode, out


def memory(tmp):
    """lockmem: the clone's locked memory while it runs (VmLck), as fio's;
    iomem_align: where the buffers handed to pwrite start past a page
    boundary (strace), as fio's."""
    os.chmod(tmp, 0o755)
    data = os.path.join(tmp, "mem.dat")
    with open(data, "wb") as f:
        f.write(os.urandom(1 << 20))
    os.chmod(data, 0o644)
    for thread in (0, 1) if not ASAN else ():
        job = ("[l]\nfilename=%s\nsize=1m\nrw=randread\nlockmem=8m\ntime_based\nruntime=2\n"
               "thread=%d\n" % (data, thread))
        got = {}
        for tool in (FIO, BIN):
            kb, rc, out = vmlck_while_running(tool, tmp, job)
            got[tool] = kb
            check(rc == 0, "%s lockmem thread=%d: exit %d %s" % (tool, thread, rc, out[-200:]))
        check(got[BIN] == got[FIO] == 8192, "lockmem=8m thread=%d: VmLck %d kB, fio's %d kB" % (
            thread, got[BIN], got[FIO]))
    # Past RLIMIT_MEMLOCK, without the right to pass it: exit 1, mlock's errno.
    p = subprocess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                        "prlimit", "--memlock=1048576", "true" if ASAN else BIN, "--name=l", "--filename=" + data,
                        "--size=64k", "--rw=read", "--lockmem=8m"],
                       cwd=tmp, capture_output=True, text=True, timeout=60)
    check(ASAN or p.returncode == 1 and "lockmem=8388608: mlock of 8388608 bytes" in p.stderr,
          "lockmem past the limit: exit %d %s" % (p.returncode, p.stderr[-200:]))
    for align in (512, 100, 4095):
        got = {}
        for tool in (FIO, BIN):
            rc, out, lines = traced(tool, "[a]\nfilename=%s\nsize=64k\nrw=write\nbs=8k\n"
                                    "iodepth=1\nmem_align=%d\n" % (os.path.join(tmp, "al.dat"), align),
                                    tmp, "pwrite64")
            # raw arguments: fd, buffer, count, offset
            got[tool] = sorted({int(a.split(", ")[1], 16) % 4096
                                for a, r in syscalls(lines, "pwrite64")})
            check(rc == 0, "%s mem_align=%d: exit %d %s" % (tool, align, rc, out[-200:]))
        check(got[BIN] == got[FIO] == [align],
              "mem_align=%d: buffers at %s past a page, fio's at %s" % (align, got[BIN], got[FIO]))
    rc, out = run(BIN, "[a]\nfilename=%s\nsize=64k\nrw=read\ndirect=1\niomem_align=100\n"
                  % data, tmp)
    # fio's reads fail (EINVAL); iogauge refuses it before any I/O.
    check(rc == 2 and "iomem_align=100: direct=1 needs buffers aligned" in out,
          "iomem_align=100 with direct=1: exit %d %s" % (rc, out[-200:]))


def sync_file_range(tmp):
    """sync_file_range=FLAGS:N: the calls strace sees (range and flags) are
    fio's; iogauge issues one more when the writes end on an N-th (as its
    fsync=N does, where fio syncs only before a next write).  With io_uring
    the ring does them: the sync count in the JSON report."""
    import json
    data = os.path.join(tmp, "sfr.dat")
    for value, nr in (("write:4", 4), ("wait_before,write,wait_after:3", 3), ("write", 1),
                      ("wait_after:5", 5)):
        for engine in ("psync", "libaio"):
            job = ("[s]\nfilename=%s\nsize=64k\nbs=4k\nrw=write\nioengine=%s\n"
                   "sync_file_range=%s\n" % (data, engine, value))
            got = {}
            for tool in (FIO, BIN):
                rc, out, lines = traced(tool, job, tmp, "sync_file_range")
                check(rc == 0, "%s sync_file_range=%s: exit %d %s" % (tool, value, rc, out[-200:]))
                got[tool] = [a.split(", ", 1)[1] for a, r in syscalls(lines, "sync_file_range")]
            extra = 1 if 16 % nr == 0 else 0
            check(got[BIN][:len(got[FIO])] == got[FIO] and len(got[FIO]) == 16 // nr - extra and
                  len(got[BIN]) == len(got[FIO]) + extra,
                  "sync_file_range=%s %s: iogauge %s, fio %s" % (value, engine, got[BIN], got[FIO]))
    rc, out = run(BIN, "[s]\nfilename=%s\nsize=64k\nbs=4k\nrw=write\nioengine=io_uring\n"
                  "sync_file_range=write:4\n" % data, tmp, args=("--output-format=json",))
    try:
        n = json.loads(out[out.index("{"):])["jobs"][0]["sync"]["total_ios"]
    except (ValueError, KeyError, IndexError):
        n = None
    check(rc == 0 and n == 4, "sync_file_range with io_uring: exit %d, %s syncs" % (rc, n))
    for value in ("bogus:2", "write:x", "write,,wait_after"):
        rc, out = run(BIN, "[s]\nfilename=%s\nsize=64k\nsync_file_range=%s\n" % (data, value),
                      tmp)
        check(rc == 2 and "job.fio:4" in out, "sync_file_range=%s: exit %d %s" % (
            value, rc, out[-200:]))
    frc, fout = run(FIO, "[s]\nfilename=%s\nsize=64k\nsync_file_range=bogus:2\n" % data, tmp)
    check("failed parsing" in fout, "fio took sync_file_range=bogus:2")


def hugepage_size(tmp):
    """hugepage-size: iomem=mmaphuge maps the buffers rounded up to it,
    as fio's (strace's MAP_HUGETLB mmap length, whether or not huge pages
    are reserved); shmhuge asks shmget for as much."""
    data = os.path.join(tmp, "huge.dat")
    for size, want in (("4m", 4 << 20), ("8m", 8 << 20)):
        job = ("[h]\nfilename=%s\nsize=64k\nbs=4k\nrw=write\niomem=mmaphuge\n"
               "hugepage-size=%s\n" % (data, size))
        got = {}
        for tool in (FIO, BIN):
            rc, out, lines = traced(tool, job, tmp, "mmap")
            got[tool] = [int(a.split(", ")[1]) for a, r in syscalls(lines, "mmap")
                         if "MAP_HUGETLB" in a]
        check(got[BIN] == got[FIO] == [want],
              "hugepage-size=%s: iogauge mapped %s, fio %s" % (size, got[BIN], got[FIO]))
        rc, out, lines = traced(BIN, job.replace("mmaphuge", "shmhuge"), tmp, "shmget")
        sizes = [int(a.split(", ")[1]) for a, r in syscalls(lines, "shmget") if "SHM_HUGETLB" in a]
        check(sizes == [want], "hugepage-size=%s, shmhuge: shmget of %s" % (size, sizes))
    rc, out = run(BIN, "[h]\nfilename=%s\nsize=64k\niomem=mmaphuge\nhugepage-size=6m\n" % data,
                  tmp)
    check(rc == 2 and "job.fio:5" in out and "power of two" in out,
          "hugepage-size=6m: exit %d %s" % (rc, out[-200:]))


def write_barrier(tmp):
    """write_barrier=N: fio 3.33 acts on it in its libpmem engine alone, so
    the writes fio makes with it are those it makes without; iogauge's too
    (strace: the same pwrite64 and fdatasync calls, for both)."""
    data = os.path.join(tmp, "bar.dat")
    seen = {}
    for tool in (FIO, BIN):
        for opt in ("", "write_barrier=4\n"):
            rc, out, lines = traced(tool, "[b]\nfilename=%s\nsize=64k\nbs=4k\nrw=write\n"
                                    "ioengine=psync\n%s" % (data, opt), tmp,
                                    "pwrite64,fsync,fdatasync,sync_file_range")
            check(rc == 0 and (tool != BIN or ("write_barrier=4 does nothing" in out) == bool(opt)),
                  "%s %r: exit %d %s" % (tool, opt, rc, out[-200:]))
            calls = [(n, a.split(", ", 2)[2] if n == "pwrite64" else a)
                     for n in ("pwrite64", "fsync", "fdatasync", "sync_file_range")
                     for a, r in syscalls(lines, n)]
            seen[(tool, opt)] = calls
        check(seen[(tool, "")] == seen[(tool, "write_barrier=4\n")] and len(seen[(tool, "")]) == 16,
              "%s: write_barrier changed the calls: %s" % (tool, seen[(tool, "write_barrier=4\n")]))
    check(seen[(BIN, "")] == seen[(FIO, "")], "the writes differ from fio's: %s / %s" % (
        seen[(BIN, "")], seen[(FIO, "")]))
    rc, out = run(BIN, "[b]\nfilename=%s\nsize=64k\ncgroup_weight=200\n" % data, tmp)
    check(rc == 0 and "cgroup_weight=200 without cgroup= does nothing" in out,
          "cgroup_weight without cgroup: exit %d %s" % (rc, out[-200:]))
    rc, out = run(BIN, "[b]\nfilename=%s\nsize=64k\nwrite_barrier=often\n" % data, tmp)
    check(rc == 2 and "job.fio:4" in out, "write_barrier=often: exit %d %s" % (rc, out[-200:]))


def main():
    if not FIO or not STRACE:
        print("placement: needs fio and strace; skipped")
        sys.exit(77)
    tmp = tempfile.mkdtemp(prefix="iogauge-placement-")
    try:
        numa(tmp)
        buffer_pattern(tmp)
        dedupe(tmp)
        exec_hooks(tmp)
        write_hint(tmp)
        sync_file_range(tmp)
        hugepage_size(tmp)
        write_barrier(tmp)
        cpumask(tmp)
        if os.getuid() == 0:
            uid_gid(tmp)
            ioscheduler(tmp)
            cgroups(tmp)
            memory(tmp)
    finally:
        shutil.rmtree(tmp)
    finish("placement")


main()
