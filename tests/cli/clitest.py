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
