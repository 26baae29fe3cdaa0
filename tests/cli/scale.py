#!/usr/bin/env python3
# Many clones (issue 21): starting, watching and collecting them must grow
# with their number, not with its square, and so must the memory.
#   - 1000 clones in processes (null engine, 1 s each) end within 90 s,
#     every one of them having done I/O;
#   - at 512 clones the peak RSS (the largest process's, as /usr/bin/time
#     gives it) stays below 150 MB, and below fio's for the same command
#     line when fio is installed; 512 clones as threads too;
#   - 200 clones waiting (wait_for) on 200 others all run after them;
#     exitall among 300 clones ends every one of them.
# One line per failure, then "scale: N passed, M failed".
#
# Environment (set by CTest): IOGAUGE_BIN.
import json
import os
import shutil
import subprocess
import tempfile
import threading
import time

from clitest import check, finish

BIN = os.path.abspath(os.environ["IOGAUGE_BIN"])
NULL_ARGS = ["--ioengine=null", "--size=1g", "--runtime=1", "--time_based"]


def run(argv, cwd, timeout):
    """Runs @argv; its exit status, stdout, seconds, and peak RSS in MB:
    the largest of the process and the clones it waited for, as wait4
    reports it.  Killed (status None) after @timeout s."""
    t0 = time.monotonic()
    p = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out = []
    reader = threading.Thread(target=lambda: out.append(p.stdout.read()))
    reader.start()
    err_reader = threading.Thread(target=lambda: p.stderr.read())
    err_reader.start()
    end = t0 + timeout
    status = None
    while time.monotonic() < end:
        pid, st, ru = os.wait4(p.pid, os.WNOHANG)
        if pid == p.pid:
            status = os.waitstatus_to_exitcode(st)
            break
        time.sleep(0.05)
    if status is None:
        p.kill()
        _, st, ru = os.wait4(p.pid, 0)
    p.returncode = status if status is not None else -9
    reader.join()
    err_reader.join()
    return status, out[0].decode() if out else "", time.monotonic() - t0, ru.ru_maxrss / 1024.0


def jobs_of(out):
    try:
        return json.loads(out)["jobs"]
    except (ValueError, KeyError):
        return []


def thousand(tmp):
    st, out, secs, rss = run([BIN, "--name=many", "--output-format=json", "--numjobs=1000"] +
                             NULL_ARGS, tmp, 150)
    jobs = jobs_of(out)
    idle = [i for i, j in enumerate(jobs) if j["error"] or not j["read"]["total_ios"]]
    check(st == 0, "1000 clones: exit %r after %.1f s" % (st, secs))
    check(secs < 90, "1000 clones: %.1f s, want < 90 s" % secs)
    check(len(jobs) == 1000 and not idle,
          "1000 clones: %d reported, %d without I/O or with an error (first %s)" %
          (len(jobs), len(idle), idle[:5]))
    print("1000 clones: %.1f s, peak RSS %.0f MB" % (secs, rss))


def rss_512(tmp):
    args = ["--name=rss", "--group_reporting", "--numjobs=512"] + NULL_ARGS
    st, out, secs, rss = run([BIN, "--output-format=json"] + args, tmp, 150)
    jobs = jobs_of(out)
    check(st == 0 and len(jobs) == 1 and jobs[0]["read"]["total_ios"] > 0 and
          jobs[0]["iogauge"]["threads"] == 512,
          "512 clones: exit %r, %d entries" % (st, len(jobs)))
    check(rss < 150, "512 clones: peak RSS %.0f MB, want < 150 MB" % rss)
    fio = shutil.which("fio")
    if fio:
        fst, _, fsecs, frss = run([fio, "--output-format=json"] + args, tmp, 300)
        if fst == 0:
            check(rss < frss, "512 clones: peak RSS %.0f MB, fio's %.0f MB" % (rss, frss))
        print("512 clones: iogauge %.1f s %.0f MB, fio %.1f s %.0f MB (exit %r)" %
              (secs, rss, fsecs, frss, fst))
    else:
        print("512 clones: %.1f s, peak RSS %.0f MB (no fio to compare)" % (secs, rss))
    st, out, secs, rss = run([BIN, "--output-format=json", "--thread"] + args, tmp, 150)
    jobs = jobs_of(out)
    check(st == 0 and len(jobs) == 1 and jobs[0]["read"]["total_ios"] > 0,
          "512 threads: exit %r, %d entries" % (st, len(jobs)))
    check(rss < 150, "512 threads: peak RSS %.0f MB, want < 150 MB" % rss)
    print("512 threads: %.1f s, peak RSS %.0f MB" % (secs, rss))


def waits(tmp):
    """A job's clones wait for all of another's (one wake-up when the last
    ends), and exitall ends every clone of a large run when the first ends."""
    path = os.path.join(tmp, "wait.fio")
    with open(path, "w") as f:
        f.write("[global]\nioengine=null\nbs=4k\n"
                "[a]\nnumjobs=200\nsize=64m\n"
                "[b]\nwait_for=a\nnumjobs=200\nsize=16m\n")
    st, out, secs, _ = run([BIN, "--output-format=json", path], tmp, 120)
    jobs = jobs_of(out)
    a = [j for j in jobs if j["jobname"] == "a"]
    b = [j for j in jobs if j["jobname"] == "b"]
    check(st == 0 and len(a) == 200 and len(b) == 200 and
          all(j["read"]["io_bytes"] == 64 << 20 for j in a) and
          all(j["read"]["io_bytes"] == 16 << 20 for j in b),
          "wait_for over 200 clones: exit %r, %d and %d entries" % (st, len(a), len(b)))
    # b's clones start once a's are all done: the last of a ended before
    # the first of b began (ns from the run's start).
    if a and b:
        a_end = max(j["iogauge"]["start_ns"] + j["iogauge"]["runtime_ns"] for j in a)
        b_start = min(j["iogauge"]["start_ns"] for j in b)
        check(b_start >= a_end, "wait_for: b's first clone started at %d ns, a's last ended "
              "at %d ns" % (b_start, a_end))

    with open(path, "w") as f:
        f.write("[global]\nioengine=null\nbs=4k\nexitall\n"
                "[short]\nsize=4m\n"
                "[long]\nnumjobs=300\nsize=1t\ntime_based\nruntime=60\n")
    st, out, secs, _ = run([BIN, "--output-format=json", path], tmp, 120)
    jobs = jobs_of(out)
    check(st == 0 and len(jobs) == 301 and secs < 45,
          "exitall over 300 clones: exit %r, %d entries, %.1f s (runtime=60 cut short)" %
          (st, len(jobs), secs))


def main():
    tmp = tempfile.mkdtemp(prefix="iogauge-scale-")
    try:
        thousand(tmp)
        rss_512(tmp)
        waits(tmp)
    finally:
        shutil.rmtree(tmp)
    finish("scale")


if __name__ == "__main__":
    main()
