#!/usr/bin/env python3
# A rank's faults under mpirun -np 4 (issue 25), with the heartbeat's
# limit set small (IOGAUGE_MPI_HEARTBEAT): a rank 10x slower than the
# others (size-bound) ends normally although IOGAUGE_MPI_TIMEOUT is
# shorter than its extra time; a rank stopped with SIGSTOP is named as
# hung within the limit, the others report; a rank whose file system
# fills (ENOSPC; exitall_on_error ends its other job), whose files vanish, or that is killed (SIGKILL) mid-run
# ends the run within 10 s, named with its host, its error text (file,
# offset, size, errno text) printed once, the other ranks' unlink=1 files
# removed; a bad IOGAUGE_MPI_HEARTBEAT is refused (exit 2), told once.
# Every run is time_based for 20 s: one that ends in 10 s was ended by
# the fault.  Skipped (77) without an MPI build or mpirun.
#
# Environment (set by CTest): IOGAUGE_BIN, IOGAUGE_MPI (1: built with MPI).
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

from clitest import check, concurrently, finish, mpirun_env, tmpfs

BIN = os.path.realpath(os.environ.get("IOGAUGE_BIN", "build/iogauge"))
HOST = socket.gethostname()
LAUNCH = ["--oversubscribe", "--mca", "btl_vader_single_copy_mechanism", "none"]
# Each rank's host (tests/cli/mpi_hosts.py sets both for two namespaces).
HOSTS = [HOST] * 4
LIMIT = "2"  # s: IOGAUGE_MPI_HEARTBEAT in these runs


def env_of(**extra):
    return mpirun_env(**dict({"IOGAUGE_MPI_HEARTBEAT": LIMIT}, **extra))


def mpirun_argv(args, np=4, env_names=("IOGAUGE_MPI_HEARTBEAT",)):
    xs = [a for n in env_names for a in ("-x", n)]
    return ["mpirun", "-np", str(np)] + LAUNCH + xs + [BIN] + args


def rank_pid(rank, tag):
    """The pid of rank @rank's iogauge process of the run whose argv holds
    @tag (not a clone: its parent is not iogauge), or None."""
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            if os.readlink("/proc/%s/exe" % d) != BIN:
                continue
            if tag.encode() not in open("/proc/%s/cmdline" % d, "rb").read():
                continue
            envs = open("/proc/%s/environ" % d, "rb").read().split(b"\0")
            if ("OMPI_COMM_WORLD_RANK=%d" % rank).encode() not in envs:
                continue
            ppid = open("/proc/%s/stat" % d).read().rsplit(")", 1)[1].split()[1]
            if os.readlink("/proc/%s/exe" % ppid) == BIN:
                continue
            return int(d)
        except OSError:
            pass
    return None


def wait_for(cond, secs=20.0):
    end = time.monotonic() + secs
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(0.05)
    return False


def run_until(argv, env, ready, act, timeout=30):
    """Starts @argv; once ready() holds, act() (the fault); then waits for
    the end.  (exit status, stderr, seconds from the fault to the end)."""
    p = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         text=True)
    t0 = None
    try:
        if wait_for(lambda: p.poll() is not None or ready()) and p.poll() is None:
            t0 = time.monotonic()
            act()
        _, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        p.kill()
        _, err = p.communicate()
        err += "\n(mpirun did not end in %d s)" % timeout
    secs = time.monotonic() - t0 if t0 is not None else -1.0
    return p.returncode, err, secs


def size_of(path):
    try:
        return os.path.getsize(path)
    except OSError:
        return -1


def report(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return {}


def ranks_in(doc):
    return sorted(e["port"] for e in doc.get("client_stats", []) if e["jobname"] != "All clients")


def slow_rank(tmp):
    """Rank 3 writes 12x the others' 256 KiB at 2 MiB/s: 1.4 s longer
    than them, past IOGAUGE_MPI_TIMEOUT=1 and the 1 s heartbeat limit."""
    job = ["--name=s", "--ioengine=psync", "--rw=write", "--bs=4k", "--rate=2m", "--unlink=1",
           "--filename_format=%s/s$rank" % tmp, "--output-format=json"]
    env = env_of(IOGAUGE_MPI_TIMEOUT="1", IOGAUGE_MPI_HEARTBEAT="1")
    names = ("IOGAUGE_MPI_HEARTBEAT", "IOGAUGE_MPI_TIMEOUT")
    argv = (mpirun_argv(job + ["--size=256k"], np=3, env_names=names) + [":", "-np", "1"] +
            [a for n in names for a in ("-x", n)] + [BIN] + job + ["--size=3072k"])
    p = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=60)
    try:
        doc = json.loads(p.stdout)
    except ValueError:
        doc = {}
    got = {e["port"]: e["write"]["io_bytes"] for e in doc.get("client_stats", [])
           if e["jobname"] != "All clients"}
    check(p.returncode == 0, "slow rank: exit %d, not 0: %s" % (p.returncode, p.stderr[-600:]))
    check(got == {0: 262144, 1: 262144, 2: 262144, 3: 3145728},
          "slow rank: each rank wrote its whole size: %s" % got)


def stopped_rank(tmp):
    """Rank 3 stopped (SIGSTOP) mid-run: named as hung within the limit."""
    out = os.path.join(tmp, "h.json")
    job = ["--name=h", "--ioengine=psync", "--rw=write", "--bs=4k", "--size=1m", "--rate=256k",
           "--time_based", "--runtime=20", "--unlink=1", "--fallocate=none",
           "--filename_format=%s/h$rank" % tmp, "--output=" + out, "--output-format=json"]
    f3 = os.path.join(tmp, "h3")
    pid = []

    def stop():
        pid.append(rank_pid(3, "--name=h"))
        os.kill(pid[0], signal.SIGSTOP)
    rc, err, secs = run_until(mpirun_argv(job), env_of(), lambda: size_of(f3) > 0, stop)
    if pid:
        try:
            os.kill(pid[0], signal.SIGKILL)  # had mpirun left it stopped
        except OSError:
            pass
    named = "rank 3 (%s): sent no result: its heartbeat stopped for 2 s" % HOSTS[3]
    # Exit 1, rank 0's abort: not mpirun crashing (-11) as two ranks abort.
    check(rc == 1 and 0 <= secs < 10, "stopped rank: exit %d after %.1f s" % (rc, secs))
    check(err.count(named) == 1, "stopped rank: named once with its host: %s" % err[-800:])
    # Rank 3's own file may go too: mpirun's SIGCONT and SIGTERM as it aborts.
    left = [f for f in os.listdir(tmp) if f in ("h0", "h1", "h2")]
    check(not left, "stopped rank: the others removed their unlink=1 files: %s" % left)
    doc = report(out)
    check(ranks_in(doc) == [0, 1, 2], "stopped rank: the others reported: %s" % ranks_in(doc))
    check([f["rank"] for f in doc.get("failed_ranks", [])] == [3],
          "stopped rank: failed_ranks names rank 3: %s" % doc.get("failed_ranks"))


def enospc_rank(tmp):
    """Rank 2's folder is a 1 MiB tmpfs: job e's write at 1 MiB fails, and
    exitall_on_error ends its other job (small, so that it fits) at once."""
    for r in range(4):
        os.mkdir(os.path.join(tmp, "e%d" % r))
    common = ["--ioengine=psync", "--rw=write", "--bs=64k", "--rate=2m", "--fallocate=none",
              "--time_based", "--runtime=20", "--unlink=1", "--exitall_on_error=1"]
    job = (["--output-format=json", "--name=e", "--size=4m",
            "--filename_format=%s/e$rank/f" % tmp] + common +
           ["--name=o", "--size=128k", "--filename_format=%s/e$rank/o" % tmp] + common)
    with tmpfs(os.path.join(tmp, "e2"), "1m") as ok:
        if not check(ok, "ENOSPC: a tmpfs mounted on e2"):
            return
        t0 = time.monotonic()
        p = subprocess.run(mpirun_argv(job), env=env_of(), capture_output=True, text=True,
                           timeout=60)
        secs = time.monotonic() - t0
    # The tmpfs's 1 MiB less job o's 128 KiB: e's write at 896 KiB fails.
    text = ("rank 2 (%s): [e] %s/e2/f: write at offset 917504, size 65536: "
            "No space left on device" % (HOST, tmp))
    check(p.returncode != 0 and secs < 10, "ENOSPC: exit %d in %.1f s" % (p.returncode, secs))
    check(p.stderr.count(text) == 1 and p.stderr.count("No space left") == 1,
          "ENOSPC: rank 2, host, offset, size and errno told once: %s" % p.stderr[-800:])
    left = [os.path.join("e%d" % r, f) for r in (0, 1, 3)
            for f in os.listdir(os.path.join(tmp, "e%d" % r))]
    check(not left, "ENOSPC: the others removed their unlink=1 files: %s" % left)


def vanished_files(tmp):
    """Rank 2's two files are removed mid-run; openfiles=1 opens each
    again as the I/O moves to it, and that open fails."""
    for r in range(4):
        os.mkdir(os.path.join(tmp, "v%d" % r))
    job = ["--name=v", "--ioengine=psync", "--rw=randread", "--bs=4k", "--size=256k",
           "--nrfiles=2", "--openfiles=1", "--file_service_type=roundrobin:4",
           "--rate=512k", "--time_based", "--runtime=20", "--unlink=1",
           "--filename_format=%s/v$rank/f.$filenum" % tmp, "--output-format=json"]
    files = [os.path.join(tmp, "v2", "f.%d" % i) for i in range(2)]

    def remove():
        time.sleep(0.3)
        for f in files:
            os.unlink(f)
    rc, err, secs = run_until(mpirun_argv(job), env_of(),
                              lambda: all(size_of(f) == 131072 for f in files), remove)
    check(rc != 0 and 0 <= secs < 10, "vanished: exit %d after %.1f s" % (rc, secs))
    prefix = "rank 2 (%s): [v] %s/v2/f." % (HOST, tmp)
    lines = [ln for ln in err.splitlines() if "No such file or directory" in ln]
    check(len(lines) == 1 and lines[0].startswith("iogauge: " + prefix),
          "vanished: rank 2, its host and file told once: %s" % err[-800:])
    left = [os.path.join("v%d" % r, f) for r in (0, 1, 3)
            for f in os.listdir(os.path.join(tmp, "v%d" % r))]
    check(not left, "vanished: the others removed their unlink=1 files: %s" % left)


def killed_rank(tmp):
    """Rank 3 killed (SIGKILL) mid-run: mpirun stops the others with
    SIGTERM, and rank 0 reports before mpirun's SIGKILL, naming rank 3."""
    out = os.path.join(tmp, "k.json")
    job = ["--name=k", "--ioengine=psync", "--rw=write", "--bs=4k", "--size=1m", "--rate=256k",
           "--time_based", "--runtime=20", "--unlink=1", "--fallocate=none",
           "--filename_format=%s/k$rank" % tmp, "--output=" + out, "--output-format=json"]
    f3 = os.path.join(tmp, "k3")
    # mpirun's SIGKILL 3 s after its SIGTERM, not 1 s: rank 0 then waits
    # 1.5 s for the others' results, room for a loaded host.
    argv = mpirun_argv(job)
    argv[3:3] = ["--mca", "odls_base_sigkill_timeout", "3"]
    rc, err, secs = run_until(argv, env_of(), lambda: size_of(f3) > 0,
                              lambda: os.kill(rank_pid(3, "--name=k"), signal.SIGKILL))
    # Rank 0 sees that a process on its own host is gone; of another
    # host's it knows only that no result came (in the 1.5 s after the
    # stop signal, or its heartbeat's 2 s, whichever ends first).
    named = "rank 3 (%s): %s" % (HOSTS[3], "its process is gone: killed or crashed"
                                 if HOSTS[3] == HOSTS[0] else "sent no result")
    check(rc != 0 and 0 <= secs < 10, "killed rank: exit %d after %.1f s" % (rc, secs))
    check(err.count(named) == 1, "killed rank: named once with its host: %s" % err[-800:])
    left = [f for f in os.listdir(tmp) if f in ("k0", "k1", "k2")]
    check(not left, "killed rank: the others removed their unlink=1 files: %s" % left)
    doc = report(out)
    check(ranks_in(doc) == [0, 1, 2], "killed rank: the others reported: %s" % ranks_in(doc))


def stopped_and_killed(tmp):
    """The two runs that wait on Open MPI's own timing, side by side."""
    concurrently(lambda part: part(tmp), [stopped_rank, killed_rank])


def bad_limit():
    p = subprocess.run(mpirun_argv(["--name=b", "--ioengine=null", "--size=1m"]),
                       env=env_of(IOGAUGE_MPI_HEARTBEAT="2x"), capture_output=True, text=True,
                       timeout=60)
    check(p.returncode == 2 and p.stderr.count("IOGAUGE_MPI_HEARTBEAT='2x'") == 1,
          "bad IOGAUGE_MPI_HEARTBEAT: exit %d, told once: %s" % (p.returncode, p.stderr[-600:]))


def main():
    if os.environ.get("IOGAUGE_MPI") != "1" or not shutil.which("mpirun"):
        print("mpi_faults: built without MPI")
        sys.exit(77)
    tmp = tempfile.mkdtemp(prefix="iogauge-mpifaults-")
    try:
        for part in (slow_rank, enospc_rank, vanished_files, stopped_and_killed):
            t = time.monotonic()
            part(tmp)
            print("mpi_faults: %s %.1f s" % (part.__name__, time.monotonic() - t), flush=True)
        bad_limit()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    finish("mpi_faults")


if __name__ == "__main__":
    main()
