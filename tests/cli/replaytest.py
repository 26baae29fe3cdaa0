# Shared by replay.py and blktrace.py: a log replayed by iogauge (its
# write_iolog of what it issued) and by fio under strace (the preads,
# pwrites and, with @syncs, fsyncs it made to the files named).
import os
import re
import subprocess


def run(argv, cwd):
    p = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


def ios_of_log(path):
    """(file, action, offset, length) of each I/O line of an iolog."""
    out = []
    with open(path) as f:
        for ln in f.read().splitlines()[1:]:
            w = ln.split()
            if len(w) == 5:
                out.append((w[1], w[2], int(w[3]), int(w[4])))
    return out


def iogauge_replay(binary, tmp, log, extra=()):
    """iogauge replays @log: (exit, terse fields or stderr, the I/Os it issued)."""
    again = os.path.join(tmp, "again.log")
    if os.path.exists(again):
        os.unlink(again)
    rc, out, err = run([binary, "--name=r", "--read_iolog=" + log, "--write_iolog=" + again,
                        "--minimal"] + list(extra), tmp)
    if rc:
        return rc, err, []
    return rc, out.split(";"), ios_of_log(again)


def fio_replay(fio, strace, tmp, log, extra=(), files=(), syncs=False):
    """fio replays @log under strace: (exit, terse fields or stderr, its I/Os
    to @files, with its fsyncs as (file, "sync", 0, 0) when @syncs)."""
    trace = os.path.join(tmp, "strace.out")
    calls = "trace=pread64,pwrite64" + (",fsync" if syncs else "")
    rc, out, err = run([strace, "-f", "-qq", "-y", "-e", calls, "-o", trace, fio, "--name=r",
                        "--read_iolog=" + log, "--minimal"] + list(extra), tmp)
    if rc:
        return rc, err, []
    got = []
    with open(trace) as f:
        for ln in f:
            m = re.search(r"(pread64|pwrite64|fsync)\(\d+<([^>]*)>", ln)
            if not m or m.group(2) not in files:
                continue
            if m.group(1) == "fsync":
                got.append((m.group(2), "sync", 0, 0))
                continue
            args = ln.rsplit(")", 1)[0].rsplit(",", 2)
            got.append((m.group(2), "read" if m.group(1) == "pread64" else "write",
                        int(args[2]), int(args[1])))
    return rc, out.split(";"), got
