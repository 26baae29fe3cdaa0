# Shared by the Python CLI tests: one check() that counts and prints a
# line per failure, and the summary line and exit status at the end.
import sys

counts = {"passed": 0, "failed": 0}


def check(cond, what):
    if cond:
        counts["passed"] += 1
    else:
        counts["failed"] += 1
        print("FAIL: " + what)
    return cond


def finish(name):
    """Prints "NAME: N passed, M failed" and exits non-zero on a failure."""
    print("%s: %d passed, %d failed" % (name, counts["passed"], counts["failed"]))
    sys.exit(1 if counts["failed"] else 0)


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
