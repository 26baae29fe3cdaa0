#!/usr/bin/env python3
# Signals: SIGINT and SIGTERM (SIGHUP and SIGQUIT too) stop every job of
# a run within a second (async engines at depth, sync ones, a job still
# waiting for another),
# the report of what ran is printed and marked interrupted, and the exit
# status is 128 + the signal.  With the device throttled so that the I/O
# in flight takes seconds to drain, the first signal waits for it and a
# second one ends the program at once.  One line per failure, then
# "signals: N passed, M failed".  Waits (rate, thinktime, startdelay,
# ramp_time) end at the runtime's end and at a signal too.
#
# Environment (set by CTest): IOGAUGE_BIN, IOGAUGE_SRC.
import json
import os
import shutil
import signal
import subprocess
import tempfile
import time

from clitest import check, finish, start_running, whole_disk

BIN = os.path.abspath(os.environ["IOGAUGE_BIN"])


def start(tmp, job, args=(), prefix=()):
    path = os.path.join(tmp, "job.fio")
    with open(path, "w") as f:
        f.write(job)
    return subprocess.Popen(list(prefix) + [BIN] + list(args) + [path], cwd=tmp,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def stop_after(p, sig, delay, timeout):
    """Sends @sig to @p after @delay seconds (no signal when @sig is None)
    and waits for it, killing it after @timeout: its output, and the seconds
    from the signal (or from the call) to its end."""
    t0 = time.monotonic()
    if sig:
        time.sleep(delay)
        t0 = time.monotonic()
        p.send_signal(sig)
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
    return out, err, time.monotonic() - t0


def running(p, timeout=15):
    """Waits until @p has forked a clone's process (its signal handlers
    are in place by then), at most @timeout seconds: a fixed sleep was too
    short once, under a blkio throttle that slowed the program's start."""
    end = time.monotonic() + timeout
    path = "/proc/%d/task/%d/children" % (p.pid, p.pid)
    while time.monotonic() < end and p.poll() is None:
        try:
            with open(path) as f:
                if f.read().strip():
                    return
        except OSError:
            return
        time.sleep(0.05)


def engines():
    out = subprocess.run([BIN, "--list-engines"], capture_output=True, text=True).stdout
    return [e for e in ("io_uring", "libaio") if e in out]


def stop_all(tmp):
    async_jobs = "".join(
        "[%s]\nioengine=%s\niodepth=32\ndirect=1\nrw=randread\nfilename=%s/%s.dat\nnumjobs=2\n" %
        (e, e, tmp, e) for e in engines())
    job = ("[global]\nsize=64m\nbs=4k\ntime_based\nruntime=60\n%s"
           "[sync]\nioengine=psync\nrw=randwrite\nfilename=%s/s.dat\n"
           "[later]\nioengine=psync\nrw=read\nfilename=%s/l.dat\nwait_for=sync\n" %
           (async_jobs, tmp, tmp))
    # Laid out first: a signal during set-up would stop the run before any job.
    for name in engines() + ["s", "l"]:
        subprocess.run([BIN, "--name=lay", "--filename=%s/%s.dat" % (tmp, name), "--size=64m",
                        "--rw=read", "--bs=1m", "--io_size=1m"], capture_output=True)
    for sig, want in ((signal.SIGINT, 130), (signal.SIGTERM, 143)):
        for fmt in ("json", "normal"):
            p = start(tmp, job, ["--output-format=" + fmt])
            out, err, took = stop_after(p, sig, 1.5, 20)
            what = "%s (%s)" % (signal.Signals(sig).name, fmt)
            check(p.returncode == want and took < 1.0,
                  "%s: exit %d after %.2f s (want %d within 1 s) %s" %
                  (what, p.returncode, took, want, err[-300:]))
            if fmt == "normal":
                check(out.startswith("iogauge") and "(interrupted: partial results)" in
                      out.splitlines()[0] and "IOs/sec:" in out, "%s: report %r" % (what, out[:200]))
                continue
            try:
                jobs = {j["jobname"]: j for j in json.loads(out)["jobs"]}
            except ValueError:
                check(False, "%s: no JSON: %r" % (what, out[:200]))
                continue
            ios = {n: j["read"]["total_ios"] + j["write"]["total_ios"] for n, j in jobs.items()}
            check(all(j["iogauge"]["interrupted"] == 1 for j in jobs.values()),
                  "%s: not every entry says interrupted" % what)
            check(all(ios[n] > 0 for n in ios if n != "later") and ios["later"] == 0,
                  "%s: I/Os per job %r (the waiting job must not start)" % (what, ios))


def waits(tmp):
    # Every wait (rate pacing, thinktime, startdelay, a rated ramp_time) is a
    # minute or more here: it must end at the runtime's end, or within a
    # second of a signal, in a thread and in a process, and the report must
    # still come.  A wait slept in one piece shows as a run that does not end.
    cases = (
        # what, options, signal (None: the runtime ends it), measured I/Os
        ("rate=1 time_based", "rate=1\nruntime=2\ntime_based\n", None, 1),
        ("thinktime=60s runtime=2", "thinktime=60s\nruntime=2\n", None, 1),
        ("rate=1k bs=64k", "rate=1k\nbs=64k\nruntime=60\n", signal.SIGINT, 1),
        ("thinktime=60s", "thinktime=60s\nruntime=30\n", signal.SIGINT, 1),
        ("startdelay=60", "startdelay=60\nruntime=2\n", signal.SIGTERM, 0),
        # Still in the ramp when stopped: nothing measured.
        ("ramp_time=60 rate=1k bs=64k", "ramp_time=60\nrate=1k\nbs=64k\nruntime=2\n",
         signal.SIGINT, 0),
    )
    for thread in (0, 1):
        for what, opts, sig, ios in cases:
            what = "%s, thread=%d" % (what, thread)
            p = start(tmp, "[x]\nioengine=null\nsize=1m\nthread=%d\n%s" % (thread, opts),
                      ["--output-format=json"])
            # Set-up takes milliseconds (no files): after 1.5 s it waits.
            out, err, took = stop_after(p, sig, 1.5, 8)
            # The runtime (2 s) from the start, or the stop from the signal.
            bound = 1.0 if sig else 3.5
            want = 128 + sig if sig else 0
            if not check(p.returncode == want and took < bound,
                         "%s: exit %d after %.2f s (want %d within %.1f s) %s" %
                         (what, p.returncode, took, want, bound, err[-300:])):
                continue
            try:
                j = json.loads(out)["jobs"][0]
            except (ValueError, IndexError, KeyError):
                check(False, "%s: no JSON report: %r" % (what, out[:200]))
                continue
            check(j["iogauge"]["interrupted"] == (1 if sig else 0) and
                  j["read"]["total_ios"] == ios,
                  "%s: interrupted %r, %r I/Os (want %d)" %
                  (what, j["iogauge"]["interrupted"], j["read"]["total_ios"], ios))
            if not sig:
                check(1900 <= j["job_runtime"] <= 2600,
                      "%s: job_runtime %r ms (want the runtime, 2000)" % (what, j["job_runtime"]))


def hup_quit(tmp):
    # SIGHUP (the terminal closed) and SIGQUIT (Ctrl-\) stop the run as
    # SIGINT does: within a second, the report of what ran, 128 + the
    # signal, and the unlink=1 file removed; in a process and in a thread.
    for sig in (signal.SIGHUP, signal.SIGQUIT):
        for thread in (0, 1):
            what = "%s, thread=%d" % (signal.Signals(sig).name, thread)
            path = os.path.join(tmp, "hq.dat")
            try:
                p = start_running([BIN, "--eta=always", "--output-format=json", "--name=hq",
                                   "--ioengine=psync", "--rw=randrw", "--bs=4k",
                                   "--size=8m", "--filename=" + path, "--unlink=1",
                                   "--time_based", "--runtime=60", "--thread=%d" % thread],
                                  os.path.join(tmp, "hq.err"))
            except RuntimeError as e:
                check(False, "%s: %s" % (what, e))
                continue
            out, _, took = stop_after(p, sig, 0, 20)
            want = 128 + sig
            check(p.returncode == want and took < 1.0,
                  "%s: exit %d after %.2f s (want %d within 1 s)" %
                  (what, p.returncode, took, want))
            try:
                j = json.loads(out)["jobs"][0]
                check(j["iogauge"]["interrupted"] == 1 and
                      j["read"]["total_ios"] + j["write"]["total_ios"] > 0,
                      "%s: report %r" % (what, j["iogauge"]))
            except (ValueError, IndexError, KeyError):
                check(False, "%s: no JSON report: %r" % (what, out[:200]))
            check(not os.path.exists(path), "%s: the unlink=1 file was left behind" % what)


def killed_clone(tmp):
    # A clone's process killed (SIGKILL: the OOM killer, an operator) is an
    # error of its job, and the run goes on: a job waiting for it (wait_for)
    # starts, the report comes, the exit status is 1.  Before, the waiting
    # job waited for ever.  [b] is a thread: [a]'s is the one child process.
    job = ("[global]\nioengine=psync\nbs=4k\nsize=8m\ntime_based\n"
           "[a]\nrw=randread\nfilename=%s/a.dat\nruntime=60\n"
           "[b]\nrw=read\nfilename=%s/b.dat\nruntime=1\nthread=1\nwait_for=a\n" %
           (tmp, tmp))
    path = os.path.join(tmp, "kc.fio")
    with open(path, "w") as f:
        f.write(job)
    err_path = os.path.join(tmp, "kc.err")
    try:
        p = start_running([BIN, "--eta=always", "--output-format=json", path], err_path)
    except RuntimeError as e:
        check(False, "killed clone: %s" % e)
        return
    with open("/proc/%d/task/%d/children" % (p.pid, p.pid)) as f:
        kids = f.read().split()
    if not check(len(kids) == 1, "killed clone: children %r (want [a]'s alone)" % kids):
        p.kill()
        p.communicate()
        return
    os.kill(int(kids[0]), signal.SIGKILL)
    out, _, took = stop_after(p, None, 0, 20)
    with open(err_path) as f:
        err = f.read()
    check(p.returncode == 1 and took < 10 and
          "iogauge: [a] clone 1 of 1: its process was killed by signal 9" in err,
          "killed clone: exit %d after %.2f s (want 1 within 10 s), stderr %r" %
          (p.returncode, took, err[-300:]))
    try:
        jobs = {j["jobname"]: j for j in json.loads(out)["jobs"]}
        check(jobs["a"]["error"] != 0 and jobs["b"]["read"]["total_ios"] > 0,
              "killed clone: [a] error %r, [b] %r reads (want an error, and [b] run)" %
              (jobs["a"]["error"], jobs["b"]["read"]["total_ios"]))
    except (ValueError, KeyError):
        check(False, "killed clone: no JSON report: %r" % out[:200])


def wait_for(cond, timeout=30):
    """Polls @cond until it is true, at most @timeout seconds: its last value."""
    end = time.monotonic() + timeout
    while not cond() and time.monotonic() < end:
        time.sleep(0.02)
    return cond()


def file_size(path):
    try:
        return os.stat(path).st_size
    except OSError:
        return -1


def layout_interrupt(tmp):
    # SIGINT while a 3 GiB file is laid out stops the layout at once (it took
    # the whole layout, 7 s, before): exit 130, no report, the file removed
    # when this run created it, kept when it only extended it.  A progress
    # line comes on stderr with --eta=always (or a terminal), not otherwise.
    for eta, existed in (("always", False), ("never", False), ("always", True)):
        what = "layout, --eta=%s, %s" % (eta, "existing 1 MiB file" if existed else "new file")
        path = os.path.join(tmp, "big.dat")
        if existed:
            with open(path, "wb") as f:
                f.write(b"\x33" * (1 << 20))
        err_path = os.path.join(tmp, "big.err")
        with open(err_path, "w") as err:
            p = subprocess.Popen([BIN, "--eta=" + eta, "--name=big", "--ioengine=psync",
                                  "--filename=" + path, "--size=3g", "--rw=read", "--bs=1m",
                                  "--io_size=1m"], stdout=subprocess.PIPE, stderr=err, text=True)

        def progress():
            with open(err_path) as f:
                return "laying out %s: " % path in f.read()
        # Under way: the progress line (after a second), or 64 MiB written.
        started = wait_for(progress if eta == "always" else
                           lambda: file_size(path) > (64 << 20) or p.poll() is not None)
        out, _, took = stop_after(p, signal.SIGINT, 0, 20)
        with open(err_path) as f:
            err = f.read()
        check(started and p.returncode == 130 and took < 1.5 and out == "",
              "%s: started %r, exit %d after %.2f s (want 130 within 1.5 s, no report), %r" %
              (what, started, p.returncode, took, err[-300:]))
        check("big.dat: laying out the file: interrupted at offset " in err,
              "%s: stderr %r" % (what, err[-300:]))
        check(("laying out %s: " % path in err) == (eta == "always"),
              "%s: progress line %s" % (what, "missing" if eta == "always" else "unasked"))
        check(file_size(path) >= (1 << 20) if existed else file_size(path) < 0,
              "%s: file of %d bytes left (want %s)" %
              (what, file_size(path), "it kept" if existed else "none"))
        if os.path.exists(path):
            os.unlink(path)


def layout_tty(tmp):
    # On a terminal (--eta=auto) the layout's line is rewritten in place.
    import pty
    path = os.path.join(tmp, "tty.dat")
    master, slave = pty.openpty()
    p = subprocess.Popen([BIN, "--name=t", "--ioengine=psync", "--filename=" + path,
                          "--size=3g", "--rw=read", "--bs=1m", "--io_size=1m"],
                         stdout=subprocess.PIPE, stderr=slave, text=True)
    os.close(slave)
    seen = b""
    end = time.monotonic() + 30
    while b"\rlaying out " not in seen and time.monotonic() < end and p.poll() is None:
        try:
            seen += os.read(master, 4096)
        except OSError:
            break
    out, _, _ = stop_after(p, signal.SIGINT, 0, 20)
    os.close(master)
    check(b"\rlaying out %s: " % path.encode() in seen and p.returncode == 130,
          "layout on a terminal: exit %r, stderr %r" % (p.returncode, seen[-200:]))
    check(not os.path.exists(path), "layout on a terminal: the file was left behind")


def pre_read_interrupt(tmp):
    # pre_read of a file out of the page cache, the disk throttled to 16 MiB/s:
    # SIGINT ends it at once, the file (not created by the run) stays.
    cg = "/sys/fs/cgroup/blkio/iogauge-signals-pr-%d" % os.getpid()
    if not (os.path.isdir("/sys/fs/cgroup/blkio") and os.geteuid() == 0):
        print("skip: no cgroup v1 blkio, or not root: the pre_read check")
        return
    path = os.path.join(tmp, "pr.dat")
    with open(path, "wb") as f:
        f.write(os.urandom(1 << 20) * 256)
        f.flush()
        os.fsync(f.fileno())
        os.posix_fadvise(f.fileno(), 0, 0, os.POSIX_FADV_DONTNEED)
    os.mkdir(cg)
    try:
        with open(os.path.join(cg, "blkio.throttle.read_bps_device"), "w") as f:
            f.write("%s %d\n" % (whole_disk(tmp), 16 << 20))
        err_path = os.path.join(tmp, "pr.err")
        with open(err_path, "w") as err:
            p = subprocess.Popen(["sh", "-c", 'echo $$ > %s/cgroup.procs && exec "$@"' % cg,
                                  "sh", BIN, "--eta=always", "--name=pr", "--ioengine=psync",
                                  "--filename=" + path, "--size=256m", "--pre_read=1",
                                  "--rw=read", "--bs=1m", "--io_size=1m"],
                                 stdout=subprocess.PIPE, stderr=err, text=True)

        def progress():
            with open(err_path) as f:
                return "pre-reading %s: " % path in f.read()
        started = wait_for(progress)
        out, _, took = stop_after(p, signal.SIGINT, 0, 30)
        with open(err_path) as f:
            err = f.read()
        check(started and p.returncode == 130 and took < 1.5 and out == "" and
              "pr.dat: pre_read: interrupted at offset" in err and file_size(path) == 256 << 20,
              "pre_read: started %r, exit %d after %.2f s (want 130 within 1.5 s), %r" %
              (started, p.returncode, took, err[-300:]))
    finally:
        os.rmdir(cg)


def drain_then_second(tmp):
    # 4 reads/s at the device under 16 in flight: the drain takes seconds.
    cg = "/sys/fs/cgroup/blkio/iogauge-signals-%d" % os.getpid()
    if not (os.path.isdir("/sys/fs/cgroup/blkio") and os.geteuid() == 0 and engines()):
        print("skip: no cgroup v1 blkio, not root, or no async engine: the drain check")
        return
    os.mkdir(cg)
    try:
        with open(os.path.join(cg, "blkio.throttle.read_iops_device"), "w") as f:
            f.write("%s 4\n" % whole_disk(tmp))
        in_cg = ("sh", "-c", 'echo $$ > %s/cgroup.procs && exec "$@"' % cg, "sh")
        job = ("[d]\nioengine=%s\niodepth=16\ndirect=1\nrw=randread\nbs=4k\nsize=16m\n"
               "filename=%s/d.dat\ntime_based\nruntime=60\n" % (engines()[0], tmp))
        subprocess.run([BIN, "--name=lay", "--filename=%s/d.dat" % tmp, "--size=16m",
                        "--rw=read", "--bs=1m"], capture_output=True)
        p = start(tmp, job, ["--output-format=json"], in_cg)
        running(p)
        time.sleep(2)
        p.send_signal(signal.SIGINT)
        time.sleep(0.5)
        draining = p.poll() is None
        t0 = time.monotonic()
        p.send_signal(signal.SIGINT)
        try:
            out, _ = p.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            p.kill()
            out, _ = p.communicate()
        took = time.monotonic() - t0
        check(draining, "first SIGINT: the program ended before its I/O in flight drained")
        check(p.returncode == -signal.SIGINT and took < 0.5 and out == "",
              "second SIGINT: exit %r after %.2f s, output %r (want killed by SIGINT at once)"
              % (p.returncode, took, out[:100]))
        # One signal: the drain completes and the report comes, 130.
        p = start(tmp, job, ["--output-format=json"], in_cg)
        running(p)
        time.sleep(2)
        p.send_signal(signal.SIGINT)
        out, _ = p.communicate(timeout=30)
        j = json.loads(out)["jobs"][0] if out else None
        check(p.returncode == 130 and j and j["read"]["total_ios"] > 0,
              "drained: exit %d, %r" % (p.returncode, j and j["read"]["total_ios"]))
    finally:
        os.rmdir(cg)


def told_twice(tmp):
    # timeout(1) signals the program, then its whole process group: the
    # main process gets SIGTERM twice within microseconds, and once took
    # the repeat as the second signal that ends it without a report (found
    # with fio's 1mbs_clients.fio under timeout).  Processes, several
    # clones, one sleeping in its pacing, the others in their startdelay.
    job = ("[global]\nioengine=psync\nrw=read\nsize=1m\nrate=1250\nruntime=30\n"
           "directory=%s\n[a]\n[b]\nstartdelay=20\n[c]\nstartdelay=25\n" % tmp)
    path = os.path.join(tmp, "twice.fio")
    with open(path, "w") as f:
        f.write(job)
    for how in ("timeout", "kill"):
        if how == "timeout":
            p = subprocess.Popen(["timeout", "--preserve-status", "-s", "TERM", "3", BIN, path,
                                  "--output-format=json"], stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True)
        else:
            p = subprocess.Popen([BIN, path, "--output-format=json"], stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True)
            time.sleep(3)
            p.send_signal(signal.SIGTERM)
            p.send_signal(signal.SIGTERM)
        try:
            out, err = p.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            p.kill()
            out, err = p.communicate()
        try:
            names = [j["jobname"] for j in json.loads(out)["jobs"]]
        except ValueError:
            names = None
        check(p.returncode == 143 and names == ["a", "b", "c"],
              "SIGTERM told twice (%s): exit %r, jobs %r, stderr %r" %
              (how, p.returncode, names, err[-200:]))


def main():
    tmp = tempfile.mkdtemp(prefix="iogauge-signals-")
    try:
        stop_all(tmp)
        waits(tmp)
        hup_quit(tmp)
        killed_clone(tmp)
        layout_interrupt(tmp)
        layout_tty(tmp)
        pre_read_interrupt(tmp)
        drain_then_second(tmp)
        told_twice(tmp)
    finally:
        shutil.rmtree(tmp)
    finish("signals")


if __name__ == "__main__":
    main()
