#!/usr/bin/env python3
# The engines of fio's sync family and its neighbours, each against a real
# file and against fio 3.33 running the same job in the same run: the
# system calls each one makes (strace -f -c counts, and the flags each call
# carries), the bytes it writes (the file's sha256 equal to psync's for the
# same job and seed), and what bad values are refused.  One line per
# failure, then "syncengines: N passed, M failed".
#
# Environment (set by CTest): IOGAUGE_BIN.
import hashlib
import json
import os
import re
import shutil
import subprocess
import tempfile

from clitest import capture, check, finish

BIN = os.path.abspath(os.environ["IOGAUGE_BIN"])
FIO = shutil.which("fio")
STRACE = shutil.which("strace")
# LeakSanitizer cannot run under ptrace: an ASan build checks leaks in the
# runs that strace does not watch.
TRACED = dict(os.environ, ASAN_OPTIONS="detect_leaks=0")


def run(argv, timeout=120, env=None):
    return capture(argv, timeout=timeout, env=env)


def write_job(tmp, text, name="job.fio"):
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def counts(tmp, argv):
    """(exit status, {system call: calls}) of @argv under strace -f -c."""
    out = os.path.join(tmp, "strace.out")
    rc, _, _ = run([STRACE, "-f", "-c", "-o", out] + argv, env=TRACED)
    calls = {}
    with open(out) as f:
        for line in f:
            m = re.match(r"\s*[\d.]+\s+[\d.]+\s+\d+\s+(\d+)\s+(?:\d+\s+)?(\w+)\s*$", line)
            if m:
                calls[m.group(2)] = int(m.group(1))
    return rc, calls


def trace(tmp, argv, calls):
    """(exit status, the lines strace -f prints for @calls) of @argv."""
    out = os.path.join(tmp, "trace.out")
    rc, _, _ = run([STRACE, "-f", "-o", out, "-e", "trace=" + calls] + argv, env=TRACED)
    with open(out) as f:
        return rc, [l for l in f if re.search(r"\b(%s)\(" % calls.replace(",", "|"), l)]


def sha(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def job(engine, path, rw="write", extra=""):
    return ("[j]\nioengine=%s\nfilename=%s\nrw=%s\nbs=4k\nsize=256k\nrandseed=77\n"
            "invalidate=0\n%s" % (engine, path, rw, extra))


# engine: (the write call, the read call, extra calls per I/O)
CALLS = {
    "pvsync": ("pwritev", "preadv"),
    "pvsync2": ("pwritev2", "preadv2"),
    "vsync": ("writev", "readv"),
}


def sync_family(tmp):
    ref = os.path.join(tmp, "ref.dat")
    rc, _, err = run([BIN, write_job(tmp, job("psync", ref))])
    check(rc == 0, "psync reference: exit %d: %s" % (rc, err))
    for eng, (wcall, rcall) in CALLS.items():
        for rw, call in (("write", wcall), ("read", rcall)):
            path = os.path.join(tmp, "%s.dat" % eng)
            if rw == "write" and os.path.exists(path):
                os.unlink(path)
            text = job(eng, path, rw)
            rc, mine = counts(tmp, [BIN, write_job(tmp, text)])
            check(rc == 0, "%s %s: exit %d" % (eng, rw, rc))
            check(mine.get(call) == 64, "%s rw=%s: %s calls %s, not 64" % (eng, rw, call,
                                                                          mine.get(call)))
            if eng == "vsync":
                check(mine.get("lseek", 0) >= 64,
                      "vsync rw=%s: %s lseek calls, not one per I/O" % (rw, mine.get("lseek")))
            if rw == "write":
                check(sha(path) == sha(ref), "%s: the file's bytes differ from psync's" % eng)
            if FIO:
                fpath = os.path.join(tmp, "fio-%s.dat" % eng)
                rc, theirs = counts(tmp, [FIO, write_job(tmp, job(eng, fpath, rw), "fio.fio")])
                check(rc == 0, "fio %s %s: exit %d" % (eng, rw, rc))
                check(theirs.get(call) == mine.get(call),
                      "%s rw=%s: %s calls: iogauge %s, fio %s" %
                      (eng, rw, call, mine.get(call), theirs.get(call)))


def vsync_gathers(tmp):
    # Adjacent I/Os queued together go out as one writev of 8 iovecs.
    extra = "iodepth=8\niodepth_batch_submit=8\niodepth_batch_complete_min=8\n"
    path = os.path.join(tmp, "g.dat")
    rc, lines = trace(tmp, [BIN, write_job(tmp, job("vsync", path, "write", extra))], "writev")
    check(rc == 0, "vsync gathered: exit %d" % rc)
    check(len(lines) == 8, "vsync iodepth=8: %d writev calls, not 8" % len(lines))
    check(all(l.count("iov_len=4096") == 8 for l in lines),
          "vsync iodepth=8: a writev without 8 iovecs: %r" % lines[:1])
    if FIO:
        rc, flines = trace(tmp, [FIO, write_job(tmp, job("vsync", os.path.join(tmp, "fg.dat"),
                                                         "write", extra), "fio.fio")], "writev")
        check(len(flines) == len(lines), "vsync iodepth=8: writev calls: iogauge %d, fio %d" %
              (len(lines), len(flines)))


def pvsync2_flags(tmp):
    path = os.path.join(tmp, "ref.dat")
    # nowait on a file in the page cache: every read carries RWF_NOWAIT.
    for tool in [BIN] + ([FIO] if FIO else []):
        rc, lines = trace(tmp, [tool, write_job(tmp, job("pvsync2", path, "read", "nowait=1\n"),
                                                "f.fio")], "preadv2")
        check(rc == 0, "%s pvsync2 nowait=1: exit %d" % (tool, rc))
        check(len(lines) == 64 and all("RWF_NOWAIT" in l for l in lines),
              "%s pvsync2 nowait=1: %d preadv2, not all with RWF_NOWAIT" % (tool, len(lines)))
    # hipri on half of them, chosen at random: RWF_HIPRI on some, not all.
    for tool in [BIN] + ([FIO] if FIO else []):
        rc, lines = trace(tmp, [tool, write_job(tmp, job("pvsync2", path, "read",
                                                         "hipri\nhipri_percentage=50\n"),
                                                "f.fio")], "preadv2")
        hi = sum("RWF_HIPRI" in l for l in lines)
        check(rc == 0 and len(lines) == 64 and 16 <= hi <= 48,
              "%s pvsync2 hipri_percentage=50: %d of %d with RWF_HIPRI" % (tool, hi, len(lines)))
    rc, lines = trace(tmp, [BIN, write_job(tmp, job("pvsync2", path, "read", "hipri\n"))],
                      "preadv2")
    check(rc == 0 and len(lines) == 64 and all("RWF_HIPRI" in l for l in lines),
          "pvsync2 hipri: not every preadv2 has RWF_HIPRI")
    # uncached: RWF_DONTCACHE (0x80) on buffered writes, none with direct=1.
    # fio 3.33 sets 0x40 (RWF_ATOMIC since Linux 6.11): not compared.
    w = os.path.join(tmp, "u.dat")
    rc, lines = trace(tmp, [BIN, write_job(tmp, job("pvsync2", w, "write", "uncached=1\n"))],
                      "pwritev2")
    flagged = sum(bool(re.search(r", (0x80|RWF_DONTCACHE)\b", l)) for l in lines)
    if rc == 1 and lines and "EOPNOTSUPP" in lines[0]:
        check(True, "")  # a kernel before 6.14: the first I/O fails, exit 1
    else:
        check(rc == 0 and flagged == 64, "pvsync2 uncached=1: exit %d, %d of %d pwritev2 "
              "with RWF_DONTCACHE" % (rc, flagged, len(lines)))
    rc, lines = trace(tmp, [BIN, write_job(tmp, job("pvsync2", w, "write",
                                                    "uncached=1\ndirect=1\n"))], "pwritev2")
    check(rc == 0 and len(lines) == 64 and not any("0x80" in l for l in lines),
          "pvsync2 uncached=1 direct=1: a flag on direct I/O")


def refusals(tmp):
    path = os.path.join(tmp, "r.dat")
    for extra, msg in (("hipri_percentage=101\n", "hipri_percentage"),
                       ("nowait=2\n", "nowait"),
                       ("hipri_percentage=50\n", None)):
        f = write_job(tmp, job("pvsync2", path, "read", extra), "bad.fio")
        rc, _, err = run([BIN, "--parse-only", f])
        if msg:
            check(rc == 2 and re.search(r"bad\.fio:9: %s" % msg, err),
                  "%s: exit %d, %r" % (extra.strip(), rc, err))
        else:
            check(rc == 0, "%s: exit %d: %s" % (extra.strip(), rc, err))
    # An engine's option under another engine is refused, naming both.
    f = write_job(tmp, job("pvsync", path, "read", "nowait=1\n"), "bad.fio")
    rc, _, err = run([BIN, "--parse-only", f])
    check(rc == 2 and "ioengine=pvsync does not use it" in err,
          "nowait under pvsync: exit %d, %r" % (rc, err))


def report(tool, path, extra=()):
    """(exit status, the JSON report's jobs by name) of @tool on @path."""
    rc, out, err = run([tool, "--output-format=json"] + list(extra) + [path])
    try:
        jobs = json.loads(out[out.index("{"):])["jobs"]
    except (ValueError, KeyError):
        check(False, "%s %s: no JSON report (exit %d): %s" % (tool, path, rc, err[-300:]))
        return rc, {}
    by = {}
    for j in jobs:
        by.setdefault(j["jobname"], []).append(j)
    return rc, by


def cpuio(tmp):
    # fio's own example, shortened: two groups of two clones, noop then qsort.
    with open("/usr/share/doc/fio/examples/cpuio.fio") as f:
        example = f.read().replace("runtime=15", "runtime=2")
    path = write_job(tmp, example, "cpuio.fio")
    results = {}
    for tool in [BIN] + ([FIO] if FIO else []):
        rc, jobs = report(tool, path)
        check(rc == 0, "%s cpuio.fio: exit %d" % (tool, rc))
        results[tool] = jobs
        for name, n in (("burn_2x50_noop", 2), ("burn_2x50%_qsort", 2)):
            clones = jobs.get(name, [])
            check(len(clones) == n, "%s cpuio.fio: %d clones of %s" % (tool, len(clones), name))
            for j in clones:
                check(j["read"]["io_bytes"] == 0 and j["write"]["total_ios"] == 0,
                      "%s %s: bytes moved" % (tool, name))
                check(j["read"]["total_ios"] >= 1, "%s %s: no chunk counted" % (tool, name))
                # fio's qsort chunk (about 200 ms) may run past the 2 s.
                check(1900 <= j["job_runtime"] <= 3600,
                      "%s %s: ran %d ms, not 2 s" % (tool, name, j["job_runtime"]))
    if FIO:
        # 50 ms of spin and 50 ms asleep: about 20 chunks in 2 s, in both.
        mine = sum(j["read"]["total_ios"] for j in results[BIN]["burn_2x50_noop"])
        theirs = sum(j["read"]["total_ios"] for j in results[FIO]["burn_2x50_noop"])
        print("cpuio.fio noop chunks: iogauge %d, fio %d" % (mine, theirs))
        check(abs(mine - theirs) <= 8 and 24 <= mine <= 42,
              "cpuio.fio noop: %d chunks, fio %d (about 40 each)" % (mine, theirs))
    # The load: cpuload=100 spins the whole time, cpuload=25 a quarter of it.
    for load, lo, hi in ((100, 60, 105), (25, 8, 40)):
        path = write_job(tmp, "[b]\nioengine=cpuio\ncpuload=%d\ncpuchunks=20000\n"
                         "time_based\nruntime=1\n" % load, "load.fio")
        rc, jobs = report(BIN, path)
        j = jobs.get("b", [{}])[0]
        cpu = j.get("usr_cpu", 0) + j.get("sys_cpu", 0)
        ios = j.get("read", {}).get("total_ios", 0)
        # Chunks are 20 ms of spin: 50 at cpuload=100, 12 at 25 (20 ms + 60 ms);
        # a loaded machine runs the clone late after some.
        want = 1000 // (20 * 100 // load)
        check(rc == 0 and want * 0.4 - 1 <= ios <= want + 1,
              "cpuload=%d: %d chunks in 1 s, not about %d" % (load, ios, want))
        # CPU time is only as good as the machine is idle: a loose bound.
        check(cpu <= hi, "cpuload=%d: %.1f%% of a CPU, above %d%%" % (load, cpu, hi))
    # exit_on_io_done: the burn ends with the I/O job, not at its runtime.
    text = ("[burn]\nioengine=cpuio\ncpuload=20\ncpuchunks=10000\nexit_on_io_done=1\n"
            "time_based\nruntime=20\n[io]\nfilename=%s/eo.dat\nrw=write\nbs=4k\n"
            "size=256k\nrate=512k\n" % tmp)
    path = write_job(tmp, text, "eo.fio")
    for tool in [BIN] + ([FIO] if FIO else []):
        rc, jobs = report(tool, path)
        burn = jobs.get("burn", [{"job_runtime": -1}])[0]["job_runtime"]
        check(rc == 0 and 300 <= burn <= 2500,
              "%s exit_on_io_done=1: the burn ran %d ms, not about 500" % (tool, burn))
    # Refused while the options are read: status 2, the file and line.
    for extra, want in (("", "b.fio:2: .*needs cpuload="),
                        ("cpuload=101\n", "b.fio:3: cpuload: '101' is above the maximum"),
                        ("cpuload=5\ncpumode=foo\n", "b.fio:4: cpumode: 'foo'"),
                        ("cpuload=5\ncpuchunks=0\n", "b.fio:4: cpuchunks: '0' is below"),
                        ("cpuload=5\nexit_on_io_done\n", "b.fio:4: exit_on_io_done: .*needs a value")):
        path = write_job(tmp, "[c]\nioengine=cpuio\n%sruntime=1\n" % extra, "b.fio")
        rc, _, err = run([BIN, "--parse-only", path])
        check(rc == 2 and re.search(want, err), "cpuio %r: exit %d, %r" % (extra, rc, err))


PROG = """#!/bin/sh
echo "args: $*"
echo "pid: $$"
echo "to stderr" >&2
trap '%s' TERM
while :; do sleep 0.05; done
"""


def alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open("/proc/%d/stat" % pid) as f:
        return f.read().split(") ")[1][0] != "Z"


def execio(tmp):
    import time
    # A program that notes SIGTERM, takes 0.3 s over it, and ends.
    prog = os.path.join(tmp, "prog.sh")
    with open(prog, "w") as f:
        f.write(PROG % 'echo term >> sig.log; sleep 0.3; echo after >> sig.log; exit 0')
    os.chmod(prog, 0o755)
    text = ("[e1]\nioengine=exec\nprogram=%s\narguments=a  %%r %%n b%%n\ntime_based\n"
            "runtime=2\ngrace_time=2\n" % prog)
    path = write_job(tmp, text, "ex.fio")
    for tool in [BIN] + ([FIO] if FIO else []):
        for f in ("sig.log", "e1.stdout", "e1.stderr"):
            if os.path.exists(os.path.join(tmp, f)):
                os.unlink(os.path.join(tmp, f))
        t0 = time.monotonic()
        rc, out, err = run([tool, "--output-format=json", path], timeout=60)
        took = time.monotonic() - t0
        name = "iogauge" if tool == BIN else "fio"
        check(rc == 0, "%s exec: exit %d: %s" % (name, rc, err))
        try:
            j = json.loads(out[out.index("{"):])["jobs"][0]
        except ValueError:
            check(False, "%s exec: no JSON" % name)
            continue
        # 50 ms in the I/O and 50 ms after it: about 20 in 2 s.
        print("exec: %s counted %d reads of %d bytes in %d ms" %
              (name, j["read"]["total_ios"], j["read"]["io_bytes"], j["job_runtime"]))
        check(17 <= j["read"]["total_ios"] <= 22 and j["read"]["io_bytes"] == 0,
              "%s exec: %d reads counted in 2 s, not about 20" % (name, j["read"]["total_ios"]))
        with open(os.path.join(tmp, "e1.stdout")) as f:
            lines = f.read().splitlines()
        check(lines and lines[0] == "args: a 2 e1 be1",
              "%s exec: arguments %r, not 'a 2 e1 be1'" % (name, lines[:1]))
        with open(os.path.join(tmp, "e1.stderr")) as f:
            check(f.read() == "to stderr\n", "%s exec: e1.stderr" % name)
        pid = int(lines[1].split()[1]) if len(lines) > 1 else 0
        if tool == BIN:
            # SIGTERM at the end, the program's 0.3 s let run, and waited for.
            with open(os.path.join(tmp, "sig.log")) as f:
                check(f.read() == "term\nafter\n", "exec: no SIGTERM, or it was cut short")
            check(pid and not alive(pid), "exec: the program is still there after the run")
            check(took < 4.5, "exec: the run took %.1f s (runtime 2, 0.3 s to end)" % took)
        else:
            # fio 3.33 sends SIGTERM only when a check falls past its
            # runtime, then sleeps all of grace_time inside the job's time
            # (see DIFFERENCES FROM FIO): shown, not checked.
            print("exec: fio sent SIGTERM: %s" % os.path.exists(os.path.join(tmp, "sig.log")))
    # In a thread (thread=1) as in a process, the program ends with its
    # job, not when the run's longer job ends.
    for thread in (0, 1):
        if os.path.exists(os.path.join(tmp, "sig.log")):
            os.unlink(os.path.join(tmp, "sig.log"))
        text = ("[global]\nthread=%d\n[e3]\nioengine=exec\nprogram=%s\nruntime=1\n"
                "[long]\nioengine=cpuio\ncpuload=5\nruntime=3\n" % (thread, prog))
        t0 = time.monotonic()
        rc, _, err = run([BIN, write_job(tmp, text, "ex3.fio")], timeout=60)
        took = time.monotonic() - t0
        st = os.stat(os.path.join(tmp, "sig.log")) if os.path.exists(
            os.path.join(tmp, "sig.log")) else None
        # sig.log was last written 0.3 s after the SIGTERM: about 1.3 s in.
        early = st and time.time() - st.st_mtime > 1.0
        check(rc == 0 and early and took >= 2.9,
              "exec thread=%d: the program did not end with its job (exit %d, %s)" %
              (thread, rc, "sig.log at %.1f s before the end" % (time.time() - st.st_mtime)
               if st else "no SIGTERM"))
    # A program that ignores SIGTERM: SIGKILL after grace_time.
    with open(prog, "w") as f:
        f.write(PROG % "")
    for grace, lo, hi in ((0, 1.0, 2.6), (2, 2.9, 4.8)):
        text = ("[e2]\nioengine=exec\nprogram=%s\nruntime=1\ngrace_time=%d\n"
                "std_redirect=0\n" % (prog, grace))
        t0 = time.monotonic()
        rc, out, err = run([BIN, write_job(tmp, text, "ex2.fio")], timeout=60)
        took = time.monotonic() - t0
        m = re.search(r"pid: (\d+)", out)
        check(rc == 0 and m and "args: \n" in out,
              "exec std_redirect=0: exit %d, the program's output not on stdout: %r" % (rc, out[:200]))
        check(m and not alive(int(m.group(1))), "exec grace_time=%d: the program survived" % grace)
        check(lo <= took <= hi, "exec grace_time=%d: the run took %.1f s, not %.1f to %.1f" %
              (grace, took, lo, hi))
        check(not os.path.exists(os.path.join(tmp, "e2.stdout")),
              "exec std_redirect=0: e2.stdout written")
    # fio's example with its programs swapped for ours, and shorter.
    with open("/usr/share/doc/fio/examples/exec.fio") as f:
        example = f.read()
    example = (example.replace("/usr/sbin/turbostat", prog).replace("runtime=30", "runtime=2")
               .replace("runtime=10", "runtime=1").replace("numjobs=12", "numjobs=2"))
    path = write_job(tmp, example, "exec.fio")
    for tool in [BIN] + ([FIO] if FIO else []):
        rc, jobs = report(tool, path)
        name = "iogauge" if tool == BIN else "fio"
        check(rc == 0, "%s exec.fio: exit %d" % (name, rc))
        for job, n in (("monitoring_noop", 1), ("cpuload_noop", 2), ("sleep", 1),
                       ("monitoring_qsort", 1), ("cpuload_qsort", 2)):
            check(len(jobs.get(job, [])) == n, "%s exec.fio: %d clones of %s, not %d" %
                  (name, len(jobs.get(job, [])), job, n))
        with open(os.path.join(tmp, "monitoring_qsort.stdout")) as f:
            check(f.readline().startswith("args: -c package -qS --interval 5 -s Busy%,"),
                  "%s exec.fio: monitoring_qsort's arguments" % name)
    # Refused: no program (status 2, the line of ioengine=), one not there
    # (status 1 at set-up, nothing started).
    rc, _, err = run([BIN, "--parse-only", write_job(tmp, "[e]\nioengine=exec\nruntime=1\n",
                                                     "b.fio")])
    check(rc == 2 and "b.fio:2: [e] ioengine=exec needs program=" in err,
          "exec without program: exit %d, %r" % (rc, err))
    rc, _, err = run([BIN, write_job(tmp, "[e]\nioengine=exec\nprogram=/nonexistent/x\n"
                                     "runtime=1\n", "b.fio")])
    check(rc == 1 and "program=/nonexistent/x: No such file or directory" in err,
          "exec of a missing program: exit %d, %r" % (rc, err))
    rc, _, err = run([BIN, "--parse-only", write_job(tmp, "[e]\nioengine=exec\nprogram=x\n"
                                                     "grace_time=-1\n", "b.fio")])
    check(rc == 2 and "b.fio:4: grace_time" in err, "grace_time=-1: exit %d, %r" % (rc, err))


def posixaio(tmp):
    # glibc's POSIX AIO: its threads do pread64 and pwrite64, one per I/O.
    ref = os.path.join(tmp, "ref.dat")
    for rw, call, depth in (("write", "pwrite64", 1), ("read", "pread64", 4),
                            ("write", "fsync", 4)):
        extra = "iodepth=%d\n" % depth + ("fsync=4\n" if call == "fsync" else "")
        got = {}
        for tool in [BIN] + ([FIO] if FIO else []):
            path = os.path.join(tmp, "pa-%s.dat" % os.path.basename(tool))
            if rw == "write" and os.path.exists(path):
                os.unlink(path)
            rc, calls = counts(tmp, [tool, write_job(tmp, job("posixaio", path, rw, extra),
                                                     "pa.fio")])
            name = "iogauge" if tool == BIN else "fio"
            check(rc == 0, "%s posixaio rw=%s: exit %d" % (name, rw, rc))
            got[name] = calls.get(call, 0)
            if tool == BIN and rw == "write" and depth == 1:
                check(sha(path) == sha(ref), "posixaio: the file's bytes differ from psync's")
            if tool == BIN:
                check(calls.get("clone3", 0) + calls.get("clone", 0) >= 1,
                      "posixaio: no thread made (glibc's AIO threads)")
        # fsync=4: one aio_fsync per 4 writes (and the layout's one).  fio
        # 3.33 sends one per I/O slot at each boundary (60 at iodepth=4):
        # shown, not checked (see DIFFERENCES FROM FIO).
        want = (16, 17) if call == "fsync" else (64, 66)
        for name, n in got.items():
            if name == "fio" and call == "fsync":
                continue
            check(want[0] <= n <= want[1], "posixaio rw=%s iodepth=%d: %s made %d %s calls" %
                  (rw, depth, name, n, call))
        print("posixaio rw=%s iodepth=%d %s: %s" % (rw, depth, call, got))


def splice_engine(tmp):
    # 1 MiB in 128 KiB I/Os: each is two 64 KiB trips through the pipe.
    ref = os.path.join(tmp, "sp-ref.dat")
    text = "[j]\nioengine=%s\nfilename=%s\nrw=%s\nbs=128k\nsize=1m\nrandseed=77\ninvalidate=0\n"
    rc, _, err = run([BIN, write_job(tmp, text % ("psync", ref, "write"))])
    check(rc == 0, "splice: psync reference: exit %d" % rc)
    for rw in ("write", "read"):
        got = {}
        for tool in [BIN] + ([FIO] if FIO else []):
            name = "iogauge" if tool == BIN else "fio"
            path = os.path.join(tmp, "sp-%s.dat" % name)
            if rw == "write" and os.path.exists(path):
                os.unlink(path)
            rc, calls = counts(tmp, [tool, write_job(tmp, text % ("splice", path, rw), "sp.fio")])
            check(rc == 0, "%s splice rw=%s: exit %d" % (name, rw, rc))
            got[name] = (calls.get("splice", 0), calls.get("vmsplice", 0))
            if tool == BIN:
                check(got[name] == (16, 16), "splice rw=%s: %d splice, %d vmsplice, not 16 each"
                      % ((rw,) + got[name]))
                if rw == "write":
                    check(sha(path) == sha(ref), "splice: the file's bytes differ from psync's")
            else:
                # fio's buffers are not page-aligned: a 128 KiB write takes it
                # three trips (shown); its reads make ours.
                check(got[name][0] >= 16 and got[name][1] >= 16,
                      "fio splice rw=%s: %s" % (rw, got[name]))
        print("splice rw=%s (splice, vmsplice): %s" % (rw, got))
    # The bytes read through the pipe are the ones written: verify passes.
    for tool in [BIN] + ([FIO] if FIO else []):
        path = os.path.join(tmp, "spv.dat")
        if os.path.exists(path):
            os.unlink(path)
        rc, jobs = report(tool, write_job(tmp, "[v]\nioengine=splice\nfilename=%s\n"
                                          "rw=randwrite\nbs=16k\nsize=1m\nverify=crc32c\n"
                                          % path, "spv.fio"))
        j = jobs.get("v", [{}])[0]
        check(rc == 0 and j.get("read", {}).get("total_ios") == 64,
              "%s splice verify=crc32c: exit %d, %s blocks read back" %
              (tool, rc, j.get("read", {}).get("total_ios")))


PERF = shutil.which("perf")


def uring_sqes(tmp, argv):
    """(exit status, {(opcode, IOSQE_ASYNC set): entries}) of @argv, from
    perf's io_uring:io_uring_submit_req events, or None without perf."""
    out = os.path.join(tmp, "perf.data")
    rc, _, _ = run([PERF, "record", "-q", "-o", out, "-e", "io_uring:io_uring_submit_req", "--"]
                   + argv, env=TRACED)
    p = subprocess.run([PERF, "script", "-i", out], capture_output=True, text=True)
    got = {}
    for m in re.finditer(r"opcode (\w+), flags (0x[0-9a-f]+)", p.stdout):
        # REQ_F_FORCE_ASYNC is IOSQE_ASYNC's bit (1 << 4) in the request.
        key = (m.group(1), bool(int(m.group(2), 16) & 0x10))
        got[key] = got.get(key, 0) + 1
    return rc, got


def resident(path):
    """Bytes of @path in the page cache (fincore), or None without it."""
    p = subprocess.run(["fincore", "-b", "-n", "-o", "RES", path], capture_output=True,
                       text=True)
    return int(p.stdout.split()[0]) if p.returncode == 0 and p.stdout.split() else None


def sq_thread_cpus(marker):
    """Cpus_allowed_list of each io_uring SQ thread of a process whose
    command line holds @marker."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open("/proc/%s/cmdline" % pid, "rb") as f:
                if marker.encode() not in f.read():
                    continue
            for tid in os.listdir("/proc/%s/task" % pid):
                base = "/proc/%s/task/%s/" % (pid, tid)
                with open(base + "comm") as f:
                    if not f.read().startswith("iou-sqp-"):
                        continue
                with open(base + "status") as f:
                    found += re.findall(r"Cpus_allowed_list:\s*(\S+)", f.read())
        except OSError:
            continue
    return found


def uring_options(tmp):
    import time
    data = os.path.join(tmp, "ring.dat")
    with open(data, "wb") as f:
        f.write(os.urandom(4 << 20))
    base = "[u]\nioengine=%s\nfilename=" + data + "\nrw=read\nbs=64k\nsize=4m\n%s"
    tools = [BIN] + ([FIO] if FIO else [])
    # The opcode and IOSQE_ASYNC of each entry, as perf sees them submitted.
    if PERF:
        for extra, want in (("nonvectored=0\n", {("READV", False): 64}),
                            ("nonvectored=1\n", {("READ", False): 64}),
                            ("", {("READ", False): 64}),
                            ("force_async=4\n", {("READ", False): 48, ("READ", True): 16})):
            for tool in tools:
                rc, got = uring_sqes(tmp, [tool, write_job(tmp, base % ("io_uring", extra),
                                                           "u.fio")])
                name = "iogauge" if tool == BIN else "fio"
                check(rc == 0 and got == want, "io_uring %s: %s submitted %s, not %s" %
                      (extra.strip() or "(default)", name, got, want))
        print("io_uring nonvectored and force_async: entries as fio's")
    else:
        print("skip: no perf: the io_uring opcode and IOSQE_ASYNC checks")
    # uncached: a buffered read leaves none of the file in the page cache.
    for engine in ("io_uring", "pvsync2"):
        for unc in (0, 1):
            rc, _, err = run([BIN, write_job(tmp, base % (engine, "uncached=%d\n" % unc))])
            res = resident(data)
            if res is None:
                break
            ok = res == 0 if unc else res >= (4 << 20)
            check(rc == 0 and ok, "%s uncached=%d read: exit %d, %d bytes left in the cache"
                  % (engine, unc, rc, res))
    # nowait: a read of what is not in the cache fails with EAGAIN (the job
    # drops it first, invalidate=1); of what is, it goes through.
    for engine in ("io_uring", "libaio", "pvsync2"):
        for tool in tools:
            name = "iogauge" if tool == BIN else "fio"
            rc, out, err = run([tool, write_job(tmp, base % (engine, "nowait=1\n"), "nw.fio")])
            check(rc == 1 and "Resource temporarily unavailable" in out + err,
                  "%s %s nowait=1 on a dropped cache: exit %d, no EAGAIN" % (name, engine, rc))
            with open(data, "rb") as f:
                f.read()
            rc, out, err = run([tool, write_job(tmp, base % (engine, "nowait=1\ninvalidate=0\n"),
                                                "nw.fio")])
            check(rc == 0, "%s %s nowait=1 on a cached file: exit %d: %s" % (name, engine, rc,
                                                                            err[-200:]))
    # sqthread_poll_cpu: the SQ thread is bound to that CPU.
    if (os.cpu_count() or 1) >= 2:
        for tool in tools:
            name = "iogauge" if tool == BIN else "fio"
            job_path = write_job(tmp, base % ("io_uring", "sqthread_poll=1\nsqthread_poll_cpu=1\n"
                                             "time_based\nruntime=3\n"), "sq-%s.fio" % name)
            p = subprocess.Popen([tool, job_path], stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL)
            cpus = []
            for _ in range(40):
                time.sleep(0.05)
                cpus = sq_thread_cpus(job_path)
                if cpus:
                    break
            rc = p.wait(timeout=30)
            # The set-up's ring (made to check, then let go) may still have
            # its thread for a moment: every SQ thread seen must be on CPU 1.
            check(rc == 0 and cpus and set(cpus) == {"1"},
                  "%s sqthread_poll_cpu=1: exit %d, the SQ thread's CPUs %s" % (name, rc, cpus))
    # Refused while the options are read.
    for extra, want in (("sqthread_poll_cpu=1\n", "sqthread_poll, which is not set"),
                        ("sqthread_poll=1\nsqthread_poll_cpu=x\n", "not a CPU number"),
                        ("sqthread_poll=1\nsqthread_poll_cpu=4096\n", "this machine has CPUs"),
                        ("nonvectored=2\n", "nonvectored"),
                        ("force_async=-1\n", "force_async")):
        rc, _, err = run([BIN, "--parse-only", write_job(tmp, base % ("io_uring", extra),
                                                         "b.fio")])
        check(rc == 2 and want in err and "b.fio:" in err,
              "io_uring %r: exit %d, %r" % (extra, rc, err))


def main():
    if not STRACE:
        print("strace not installed")
        raise SystemExit(77)
    tmp = tempfile.mkdtemp(prefix="iogauge-syncengines.")
    cwd = os.getcwd()
    # Run where nothing else is: exec writes JOBNAME.stdout there, and fio
    # its verify state files.
    os.chdir(tmp)
    try:
        sync_family(tmp)
        vsync_gathers(tmp)
        pvsync2_flags(tmp)
        refusals(tmp)
        posixaio(tmp)
        splice_engine(tmp)
        uring_options(tmp)
        cpuio(tmp)
        execio(tmp)
    finally:
        os.chdir(cwd)
        shutil.rmtree(tmp)
    finish("syncengines")


main()
