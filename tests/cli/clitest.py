# Shared by the Python CLI tests: one check() that counts and prints a
# line per failure, and the summary line and exit status at the end.
import contextlib
import os
import subprocess
import sys
import threading

counts = {"passed": 0, "failed": 0}
# check() may be called from threads (concurrently()).
_lock = threading.Lock()


def check(cond, what):
    with _lock:
        if cond:
            counts["passed"] += 1
        else:
            counts["failed"] += 1
            print("FAIL: " + what, flush=True)
    return cond


def finish(name):
    """Prints "NAME: N passed, M failed" and exits non-zero on a failure."""
    print("%s: %d passed, %d failed" % (name, counts["passed"], counts["failed"]))
    sys.exit(1 if counts["failed"] else 0)


def mpirun_env(**extra):
    """The environment for mpirun: Open MPI's own opt-in for root (without
    it mpirun refuses), ASan's leak check off (it would count Open MPI's
    own allocations), then @extra."""
    env = dict(os.environ)
    if os.getuid() == 0:
        env["OMPI_ALLOW_RUN_AS_ROOT"] = "1"
        env["OMPI_ALLOW_RUN_AS_ROOT_CONFIRM"] = "1"
    env["ASAN_OPTIONS"] = env.get("ASAN_OPTIONS", "") + ":detect_leaks=0"
    env.update(extra)
    return env


def capture(argv, cwd=None, timeout=120, env=None):
    """Runs @argv to its end: (exit status, stdout, stderr) as text."""
    p = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=timeout, env=env)
    return p.returncode, p.stdout, p.stderr


def lay_out(path, size):
    """A file of @size random bytes at @path."""
    with open(path, "wb") as f:
        f.write(os.urandom(size))


def whole_disk(path):
    """"MAJOR:MINOR" of the disk that holds @path (a partition's parent), as
    the blkio cgroup's throttle files take it."""
    dev = os.stat(path).st_dev
    major, minor = os.major(dev), os.minor(dev)
    if os.path.exists("/sys/dev/block/%d:%d/partition" % (major, minor)):
        parent = os.path.realpath("/sys/dev/block/%d:%d/.." % (major, minor))
        with open(os.path.join(parent, "dev")) as f:
            return f.read().strip()
    return "%d:%d" % (major, minor)


@contextlib.contextmanager
def tmpfs(mnt, size, name="tmpfs"):
    """A tmpfs of @size (mount's size=, "4m") on the folder @mnt for the
    with-block, unmounted after: yields whether the mount worked."""
    ok = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=" + size, name, mnt]).returncode == 0
    try:
        yield ok
    finally:
        if ok:
            subprocess.run(["umount", mnt])


def parts(groups):
    """The functions of the groups of @groups (a dict: name -> [functions])
    named on the command line, or of every group without one, in order.  A
    test's timing checks run as one CTest test (RUN_SERIAL) and its other
    checks as another, beside other tests; by hand, with no argument, the
    script runs them all.  Exits 2 on a name it does not know."""
    names = sys.argv[1:] or list(groups)
    bad = [n for n in names if n not in groups]
    if bad:
        print("%s: no part %s (parts: %s)" % (sys.argv[0], ", ".join(bad), ", ".join(groups)))
        sys.exit(2)
    return [f for n in names for f in groups[n]]


def concurrently(fn, items, workers=4):
    """[fn(x) for x in @items], up to @workers calls at a time on threads:
    for independent runs that time nothing (they share the CPUs), so that
    a test is not the sum of many processes' start-up waits."""
    from concurrent.futures import ThreadPoolExecutor
    with ThreadPoolExecutor(workers) as ex:
        return list(ex.map(fn, items))


def start_running(argv, err_path, timeout=30.0):
    """Starts @argv (an iogauge run given --eta=always) with stderr into the
    file @err_path and stdout to a pipe, and returns the Popen once a status
    line shows I/O done: a signal then lands in the run, not in its set-up,
    however loaded the machine.  Raises RuntimeError after @timeout s."""
    import re
    import subprocess
    import time
    err = open(err_path, "w")
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=err, text=True)
    err.close()
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        with open(err_path) as f:
            if re.search(r"Jobs: .*\[r=[0-9.]*[1-9][^,]*,w=|Jobs: .*,w=[0-9.]*[1-9]", f.read()):
                return p
        if p.poll() is not None:
            break
        time.sleep(0.05)
    p.kill()
    p.communicate()
    raise RuntimeError("%s: no status line with I/O in %.0f s" % (" ".join(argv), timeout))
