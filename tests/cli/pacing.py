#!/usr/bin/env python3
# Pacing options, each checked by its effect on a real file and against
# fio 3.33 on the same job file in the same run: number_ios (I/O counts),
# rate_min, rate_iops_min, rate_cycle (a job paced below its minimum by
# thinktime fails when fio's fails, with EIO and exit 1); prio, prioclass,
# nice (the running clones' I/O priority and nice value, read back); flow,
# flow_id, flow_sleep (the I/O ratio of jobs sharing a flow: fio's
# flow.fio and butterfly.fio scaled down); cmdprio, cmdprio_class,
# cmdprio_percentage, cmdprio_bssplit, log_prio (each I/O's priority from
# the latency logs, and libaio's iocbs under strace; fio's cmdprio-*.fio
# examples on a file); iodepth_low (the IO depths at submission),
# thinktime_blocks_type (the same, and thinks counted), thinktime_iotime
# (the gaps in the latency log), rate_ignore_thinktime (I/O counts).
# One line per failure, then "pacing: N passed, M failed".
#
# Environment (set by CTest): IOGAUGE_BIN.
import json
import os
import shutil
import subprocess
import sys
import tempfile

from clitest import check, finish, parts

BIN = os.path.abspath(os.environ["IOGAUGE_BIN"])
FIO = shutil.which("fio")


def run(tool, job, tmp, args=(), env=None):
    """@tool on the job text @job (as tmp/job.fio): (exit status, stdout, stderr)."""
    path = os.path.join(tmp, "job.fio")
    with open(path, "w") as f:
        f.write(job)
    p = subprocess.run([tool] + list(args) + [path], cwd=tmp, capture_output=True, text=True,
                       timeout=120, env=env)
    return p.returncode, p.stdout, p.stderr


def jobs_json(tool, job, tmp, status=0):
    """The "jobs" of @tool's JSON report on @job, or None (a failure said)."""
    rc, out, err = run(tool, job, tmp, ["--output-format=json"])
    if not check(rc == status, "%s: exit %d %s" % (os.path.basename(tool), rc, err[-300:])):
        return None
    return json.loads(out[out.index("{"):])["jobs"]


def ios(j):
    return (j["read"]["total_ios"], j["write"]["total_ios"])


def both(job, tmp):
    """[iogauge's jobs, fio's jobs] (fio's None without fio)."""
    return [jobs_json(BIN, job, tmp), jobs_json(FIO, job, tmp) if FIO else None]


def number_ios(tmp):
    base = "[n]\nfilename=%s/n.dat\nsize=1m\nbs=4k\n" % tmp
    cases = [
        ("rw=randrw\nioengine=libaio\niodepth=8\nnumber_ios=37\nloops=3\n", 111),
        ("rw=read\nnumber_ios=100\n", 100),
        ("rw=write\nnumber_ios=1000\n", 256),  # the region ends it first
        ("rw=rw\nnumber_ios=200\nloops=2\n", 400),
        ("rw=randwrite\nnumber_ios=50\ntime_based\nruntime=300ms\n", None),  # ignored
    ]
    for opts, want in cases:
        got = both(base + opts, tmp)
        if not got[0]:
            continue
        n = sum(ios(got[0][0]))
        if want is None:
            check(n > 256, "%r: %d I/Os: time_based should ignore number_ios" % (opts, n))
        else:
            check(n == want, "%r: %d I/Os, want %d" % (opts, n, want))
        if got[1] and want is not None:
            # The sum: how a mix splits over loops is rwmix's, not number_ios's.
            check(sum(ios(got[0][0])) == sum(ios(got[1][0])),
                  "%r: iogauge %s, fio %s" % (opts, ios(got[0][0]), ios(got[1][0])))
        print("number_ios %r: iogauge %s fio %s" % (opts.replace("\n", " "), ios(got[0][0]),
                                                   ios(got[1][0]) if got[1] else "-"))
    # fio's exitwhat.fio on a 64 MiB file: slow1 and slow2 end after their
    # number_ios (exit_what ends the others), runsnever never runs.
    src = "/usr/share/doc/fio/examples/exitwhat.fio"
    if os.path.exists(src):
        with open(src) as f:
            job = f.read().replace("filename=/tmp/test", "filename=%s/ew.dat" % tmp).replace(
                "filesize=1G", "filesize=64m")
        got = []
        for tool in [BIN] + ([FIO] if FIO else []):
            j = jobs_json(tool, job, tmp)
            if j:
                n = {x["jobname"]: sum(ios(x)) for x in j}
                check(n.get("slow1") == 1000 and n.get("slow2", 0) >= 1000 and
                      "runsnever" not in n, "exitwhat.fio %s: %s" % (os.path.basename(tool), n))
                print("exitwhat.fio %s: %s" % (os.path.basename(tool), n))
                got.append((n.get("slow1"), n.get("slow2")))
        if len(got) == 2:
            check(got[0] == got[1], "exitwhat.fio: iogauge %s, fio %s" % tuple(got))


def refused(tmp, opts, msg):
    """A job with @opts exits 2 before any I/O, saying @msg."""
    path = os.path.join(tmp, "b.dat")
    rc, out, err = run(BIN, "[b]\nfilename=%s\nsize=1m\nrw=write\n%s" % (path, opts), tmp)
    check(rc == 2 and msg in err and not os.path.exists(path),
          "%r: exit %d %s" % (opts, rc, err[-200:]))


def rate_min(tmp):
    # 4k every ~10 ms: about 400 KB/s, 100 IOPS.
    base = "[slow]\nfilename=%s/r.dat\nsize=4m\nbs=4k\nrw=write\nthinktime=10ms\n" % tmp
    cases = [  # options, whether the job fails, its runtime in ms (fio's figures)
        ("rate_min=1m\n", True, 3000),
        ("ratemin=1m\nratecycle=500\n", True, 2500),
        ("rate_iops_min=200\n", True, 3000),
        ("rate_min=100k\nsize=1m\n", False, 2600),
        ("rate_min=0,1m\nrw=read\nsize=1m\n", False, 2600),  # no writes: never measured
    ]
    for opts, fails, ms in cases:
        got = [jobs_json(BIN, base + opts, tmp, 1 if fails else 0)]
        if FIO:
            got.append(jobs_json(FIO, base + opts, tmp, 1 if fails else 0))
        for tool, j in zip(("iogauge", "fio"), got):
            if not j:
                continue
            j = j[0]
            check(j["error"] == (5 if fails else 0), "%s %r: error %s" % (tool, opts, j["error"]))
            check(abs(j["job_runtime"] - ms) < ms * 0.15 + 150,
                  "%s %r: ran %d ms, want about %d" % (tool, opts, j["job_runtime"], ms))
            print("rate_min %s %r: error=%s runtime=%d ms ios=%s" % (
                tool, opts.replace("\n", " "), j["error"], j["job_runtime"], ios(j)))
        if len(got) == 2 and got[0] and got[1]:
            check(abs(got[0][0]["job_runtime"] - got[1][0]["job_runtime"]) < ms * 0.15 + 150,
                  "%r: iogauge ran %d ms, fio %d" % (opts, got[0][0]["job_runtime"],
                                                    got[1][0]["job_runtime"]))
    rc, out, err = run(BIN, base + "rate_min=1m\n", tmp)
    check(rc == 1 and "[slow] rate_min=1048576B/s not met, got " in err and
          "(writes, over 10" in err, "rate_min's message: exit %d %s" % (rc, err))
    refused(tmp, "rate=1m\nrate_min=2m\n", "rate_min=2097152 is above rate=1048576 for reads: it cannot")
    refused(tmp, "rate_iops=10\nrate_iops_min=20\n", "rate_iops_min=20 is above rate_iops=10")
    refused(tmp, "rate_min=1m\nrate_iops_min=20\n", "rate_min and rate_iops_min are one or")
    refused(tmp, "rate_cycle=-1\n", "rate_cycle")
    refused(tmp, "number_ios=x\n", "number_ios")


def tasks(pid):
    """Every thread of process @pid and of its descendants: [(tid, is_top)]."""
    out, todo = [], [(pid, True)]
    while todo:
        p, top = todo.pop()
        try:
            tids = os.listdir("/proc/%d/task" % p)
        except OSError:
            continue
        for t in tids:
            out.append((int(t), top))
            try:
                with open("/proc/%d/task/%s/children" % (p, t)) as f:
                    todo += [(int(c), False) for c in f.read().split()]
            except OSError:
                pass
    return out


def priorities(tool, job, tmp, shows):
    """While @tool runs @job, the (ionice -p, nice, is the top process) of
    each thread of it and its clones: a set, taken once @shows (a test of
    such a set) holds and the clones have had a moment more to settle, or
    the last taken when it never holds while the run lasts.  Not after a
    fixed sleep: a loaded machine may start the clones late."""
    import time

    def sample():
        seen = set()
        for tid, top in tasks(p.pid):
            io = subprocess.run(["ionice", "-p", str(tid)], capture_output=True,
                                text=True).stdout
            try:
                with open("/proc/%d/stat" % tid) as f:
                    nice = int(f.read().rsplit(")", 1)[1].split()[16])
            except (OSError, ValueError, IndexError):
                continue
            if io:
                seen.add((io.strip(), nice, top))
        return seen
    path = os.path.join(tmp, "job.fio")
    with open(path, "w") as f:
        f.write(job)
    p = subprocess.Popen([tool, path], cwd=tmp, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
    seen, end = set(), time.monotonic() + 30
    while p.poll() is None and time.monotonic() < end:
        now = sample()
        seen = now or seen
        if shows(now):
            time.sleep(0.3)
            seen = sample() or seen
            break
        time.sleep(0.05)
    rc = p.wait(timeout=60)
    check(rc == 0, "%s: exit %d" % (tool, rc))
    return seen


def prio(tmp):
    if not shutil.which("ionice"):
        print("prio: no ionice, skipped")
        return
    base = ("[p]\nfilename=%s/p.dat\nsize=1m\nrw=randread\ntime_based\nruntime=2\n"
            "thinktime=1ms\n" % tmp)
    cases = [("prio=5\n", "best-effort: prio 5", 0),
             ("prioclass=3\nnice=7\n", "idle", 7),
             ("prioclass=1\nprio=2\nthread\n", "realtime: prio 2", 0),
             ("prioclass=2\nprio=6\nnice=-3\nthread\n", "best-effort: prio 6", -3)]
    if os.geteuid() != 0:
        cases = cases[:2]
    for opts, want, nice in cases:
        got = []
        for tool in [BIN] + ([FIO] if FIO else []):
            def clones_of(seen):
                return {(io, n) for io, n, top in seen if not top or "thread" in opts}
            seen = priorities(tool, base + opts, tmp,
                              lambda seen: (want, nice) in clones_of(seen))
            clones = clones_of(seen)
            check((want, nice) in clones,
                  "%s %r: clones' priorities %s, want %s" % (tool, opts, seen, (want, nice)))
            if tool == BIN and "thread" not in opts:
                # The top process keeps its own: only the clones change.
                check(all(io != want for io, n, top in seen if top),
                      "%r: iogauge's own process took %s" % (opts, want))
            print("prio %s %r: %s" % (os.path.basename(tool), opts.replace("\n", " "),
                                      sorted(clones)))
            got.append(clones)
        if len(got) == 2:
            check(got[0] == got[1], "%r: iogauge's clones %s, fio's %s" % (opts, got[0], got[1]))
    refused(tmp, "prio=8\n", "prio")
    refused(tmp, "prioclass=4\n", "prioclass")
    refused(tmp, "nice=-21\n", "nice")
    refused(tmp, "nice=20\n", "nice")


def per_job(tool, job, tmp):
    """{job name: I/Os} summed over clones, or None."""
    jobs = jobs_json(tool, job, tmp)
    if not jobs:
        return None
    out = {}
    for j in jobs:
        out[j["jobname"]] = out.get(j["jobname"], 0) + sum(ios(j))
    return out


def flow(tmp):
    cases = [
        # fio's flow.fio, 3 s not 30, a 64 MiB file not 100 GiB: about 1:8.
        ("[global]\nnorandommap\nthread\ntime_based\nruntime=2\ndirect=1\nioengine=libaio\n"
         "iodepth=16\nsize=64m\nbs=8k\nfilename=%s/flow.dat\nflow_sleep=1000\n"
         "[job2]\nnumjobs=1\nrw=write\nflow=1\n[job1]\nnumjobs=1\nrw=randread\nflow=8\n",
         {"job1": 8.0}),
        # butterfly.fio, with forward slowed by thinktime: backward keeps to its pace.
        ("[global]\nfilename=%s/bfly.dat\nbs=4k\ndirect=1\nsize=8m\ntime_based\nruntime=2\n"
         "[forward]\nrw=read\nflow=2\nthinktime=1ms\n[backward]\nrw=read:-8k\nflow=2\n",
         {"backward": 1.0}),
        # Weights per clone: 3 : 2+2 (numjobs=2) : 1, as fio adds a weight per clone.
        ("[global]\nfilename=%s/w.dat\nsize=4m\nbs=4k\nrw=randread\ntime_based\nruntime=2\n"
         "flow_sleep=200\n[a]\nflow=3\n[b]\nflow=2\nnumjobs=2\n[c]\nflow=1\nthinktime=500\n",
         {"a": 3.0, "b": 4.0}),
        # Two flow_ids: the slow job holds back only its own flow.
        ("[global]\nfilename=%s/i.dat\nsize=4m\nbs=4k\nrw=randread\ntime_based\nruntime=2\n"
         "[slow]\nflow=1\nflow_id=1\nthinktime=1ms\n[fast]\nflow=1\nflow_id=2\n"
         "[held]\nflow=1\nflow_id=1\n", {"held": 1.0, "fast": None}),
    ]
    for job, want in cases:
        job = job % tmp
        base = [n for n in ("job2", "forward", "c", "slow") if "[%s]" % n in job][0]
        got = [per_job(BIN, job, tmp)] + ([per_job(FIO, job, tmp)] if FIO else [])
        for tool, n in zip(("iogauge", "fio"), got):
            if not n:
                continue
            for name, ratio in want.items():
                r = n[name] / max(n[base], 1)
                if ratio is None:
                    check(r > 5, "%s: %s ran %.2f times %s: it is in no flow of %s's" % (
                        tool, name, r, base, base))
                else:
                    check(abs(r - ratio) < ratio * 0.15,
                          "%s: %s/%s = %.2f, want %.1f (%s)" % (tool, name, base, r, ratio, n))
            print("flow %s: %s" % (tool, n))
        if len(got) == 2 and got[0] and got[1]:
            for name, ratio in want.items():
                if ratio is None:
                    continue
                a, b = (g[name] / max(g[base], 1) for g in got)
                check(abs(a - b) < ratio * 0.15,
                      "%s/%s: iogauge %.2f, fio %.2f" % (name, base, a, b))
    refused(tmp, "flow=1001\n", "flow")
    refused(tmp, "flow=-1\n", "flow")


def lat_log_prios(tool, job, tmp):
    """{(ddir, bs, last column): count} of the lat log @tool's run of @job
    writes (write_lat_log=prio in @job), or None."""
    for f in os.listdir(tmp):
        if f.startswith("prio_"):
            os.unlink(os.path.join(tmp, f))
    rc, out, err = run(tool, job, tmp)
    if not check(rc == 0, "%s: exit %d %s" % (os.path.basename(tool), rc, err[-300:])):
        return None
    counts = {}
    with open(os.path.join(tmp, "prio_lat.1.log")) as f:
        for line in f:
            c = [x.strip() for x in line.split(",")]
            key = (int(c[2]), int(c[3]), c[-1])
            counts[key] = counts.get(key, 0) + 1
    return counts


def share(counts, pred):
    n = sum(v for k, v in counts.items() if pred(k))
    return n, sum(counts.values())


def cmdprio(tmp):
    base = ("[global]\nfilename=%s/cp.dat\ndirect=1\nwrite_lat_log=prio\nsize=16m\n"
            "norandommap\n" % tmp)
    # fio's cmdprio-percentage.fio on a file, each engine, log_prio on and off.
    for eng in ("libaio", "io_uring"):
        for log_prio in (1, 0):
            job = base + ("log_prio=%d\n[randread]\nrw=randread\nbs=4k\nioengine=%s\n"
                          "iodepth=8\nprioclass=3\ncmdprio_percentage=20\ncmdprio_class=1\n"
                          % (log_prio, eng))
            rt = "0x2000" if log_prio else "1"
            other = "0x6000" if log_prio else "0"
            got = []
            for tool in [BIN] + ([FIO] if FIO else []):
                c = lat_log_prios(tool, job, tmp)
                if not c:
                    continue
                n, total = share(c, lambda k: k[2] == rt)
                m, _ = share(c, lambda k: k[2] == other)
                check(total == 4096 and n + m == total and abs(n / total - 0.2) < 0.04,
                      "%s %s log_prio=%d: %d of %d I/Os %s, %d %s" % (
                          os.path.basename(tool), eng, log_prio, n, total, rt, m, other))
                print("cmdprio_percentage %s %s log_prio=%d: %d of %d %s, %d %s" % (
                    os.path.basename(tool), eng, log_prio, n, total, rt, m, other))
                got.append(n / max(total, 1))
            if len(got) == 2:
                check(abs(got[0] - got[1]) < 0.05, "%s: iogauge %.3f, fio %.3f RT" % (
                    eng, got[0], got[1]))
    # The iocbs themselves: libaio's aio_reqprio with IOCB_FLAG_IOPRIO.
    if shutil.which("strace"):
        job = base.replace("size=16m", "size=1m") + (
            "[r]\nrw=randread\nbs=4k\nioengine=libaio\niodepth=4\n"
            "cmdprio_percentage=30\ncmdprio_class=2\ncmdprio=3\n")
        for tool in [BIN] + ([FIO] if FIO else []):
            trace = os.path.join(tmp, "strace.txt")
            # An ASan build's leak check cannot run under ptrace.
            env = dict(os.environ, ASAN_OPTIONS="detect_leaks=0")
            rc, out, err = run("strace", job, tmp, ["-f", "-qq", "-e", "trace=io_submit", "-o",
                                                      trace, tool], env)
            with open(trace) as f:
                t = f.read()
            iocbs = t.count("aio_lio_opcode=IOCB_CMD_PREAD")
            prio = t.count("aio_reqprio=IOPRIO_PRIO_VALUE(IOPRIO_CLASS_BE, 3)")
            flag = t.count("IOCB_FLAG_IOPRIO")
            check(rc == 0 and iocbs == 256 and prio == flag and abs(prio / 256 - 0.3) < 0.1,
                  "%s: %d iocbs, %d with BE/3 and %d flagged" % (tool, iocbs, prio, flag))
            print("cmdprio strace %s: %d of %d iocbs BE/3" % (os.path.basename(tool), prio,
                                                              iocbs))
    # fio's cmdprio-bssplit.fio's advanced forms, 4k and 8k for counts.
    job = base + ("log_prio=1\n[adv]\nrw=randrw\nioengine=io_uring\niodepth=16\n"
                  "bssplit=4k/40:8k/60,8k/100\nprioclass=2\nprio=7\n"
                  "cmdprio_bssplit=4k/25/1/1:4k/75/3/2:8k/0,8k/0\n")
    for tool in [BIN] + ([FIO] if FIO else []):
        c = lat_log_prios(tool, job, tmp)
        if not c:
            continue
        small = {k[2]: v for k, v in c.items() if k[0] == 0 and k[1] == 4096}
        rest = {k[2] for k in c if not (k[0] == 0 and k[1] == 4096)}
        n = sum(small.values())
        check(n > 200 and set(small) <= {"0x2001", "0x6002"} and
              abs(small.get("0x2001", 0) / n - 0.25) < 0.06 and rest == {"0x4007"},
              "%s: 4k reads %s, the others %s" % (tool, small, rest))
        print("cmdprio_bssplit %s: 4k reads %s, the others %s" % (os.path.basename(tool),
                                                                 small, rest))
    # One block size's list for every direction, class and level from
    # cmdprio_class and cmdprio; a size it does not name keeps the job's.
    job = base + ("log_prio=1\n[one]\nrw=randrw\nioengine=libaio\niodepth=8\n"
                  "bssplit=4k/50:8k/50\ncmdprio_bssplit=8k/100\ncmdprio_class=3\ncmdprio=4\n")
    for tool in [BIN] + ([FIO] if FIO else []):
        c = lat_log_prios(tool, job, tmp)
        if c:
            want = {(d, bs, "0x6004" if bs == 8192 else "0x0000") for d, bs, _ in c}
            check(set(c) == want, "%s: %s" % (tool, c))
    refused(tmp, "ioengine=libaio\ncmdprio_percentage=10\ncmdprio_bssplit=4k/10\n",
            "cmdprio_percentage and cmdprio_bssplit are one or the other")
    refused(tmp, "ioengine=io_uring\ncmdprio_class=4\n", "cmdprio_class")
    refused(tmp, "ioengine=io_uring\ncmdprio_class=0\n", "cmdprio_class")
    refused(tmp, "ioengine=libaio\ncmdprio=8\n", "cmdprio")
    refused(tmp, "ioengine=libaio\ncmdprio_bssplit=4k/60:4k/50\n", "add up to 110%")
    refused(tmp, "ioengine=libaio\ncmdprio_bssplit=4k/10/4/1\n", "class 4")
    refused(tmp, "ioengine=libaio\ncmdprio_bssplit=4k/10/1\n", "bs/percentage")
    refused(tmp, "ioengine=psync\ncmdprio_percentage=10\n", "ioengine=psync does not use it")


def think(tmp):
    tool_list = [BIN] + ([FIO] if FIO else [])
    name = lambda t: os.path.basename(t)
    base = "[t]\nfilename=%s/t.dat\nsize=1m\nbs=4k\nrw=randread\ndirect=1\n" % tmp
    # iodepth_low: a full queue of 16 drains to 4 before it is filled.
    for low, want16 in ((0, 99.0), (4, 8.4)):
        job = base.replace("size=1m", "size=16m") + (
            "ioengine=libaio\niodepth=16\niodepth_low=%d\n" % low)
        got = []
        for tool in tool_list:
            j = jobs_json(tool, job, tmp)
            if j:
                lv = j[0]["iodepth_level"]
                check(abs(lv["16"] - want16) < 1.5, "%s iodepth_low=%d: depths %s" % (
                    name(tool), low, lv))
                print("iodepth_low=%d %s: %s" % (low, name(tool), lv))
                got.append(lv)
        if len(got) == 2:
            check(all(abs(got[0][k] - got[1][k]) < 1.0 for k in got[1]),
                  "iodepth_low=%d: iogauge %s, fio %s" % (low, got[0], got[1]))
    # thinktime_blocks_type: what is counted shows in the depths of a queue
    # of 8 thinking every 4 I/Os (fio's figures, exactly), and the thinks of
    # 5 ms in the job's time: 64 when issued I/Os count, fewer when
    # completed ones do (those a think waits for count towards the next).
    for ty, want, ms in (("complete", {"1": 18.36, "2": 18.36, "4": 35.94, "8": 27.34}, 200),
                         ("issue", {"1": 25.0, "2": 50.0, "4": 25.0, "8": 0.0}, 320),
                         ("", {"1": 18.36, "2": 18.36, "4": 35.94, "8": 27.34}, 200)):
        job = base + ("ioengine=libaio\niodepth=8\nthinktime=5ms\nthinktime_blocks=4\n%s" %
                      ("thinktime_blocks_type=%s\n" % ty if ty else ""))
        for tool in tool_list:
            j = jobs_json(tool, job, tmp)
            if j:
                lv = j[0]["iodepth_level"]
                check(all(abs(lv[k] - v) < 0.5 for k, v in want.items()) and
                      j[0]["job_runtime"] >= ms,
                      "%s thinktime_blocks_type=%s: depths %s, %d ms" % (
                          name(tool), ty or "(default)", lv, j[0]["job_runtime"]))
                print("thinktime_blocks_type=%s %s: %s, %d ms" % (ty, name(tool), lv,
                                                                  j[0]["job_runtime"]))
    # thinktime_iotime: thinks by the clock (1 s of I/O, 0.5 s of think),
    # and with thinktime_blocks as well, whichever comes first.
    for extra, starts in (("", [1500, 3000]),
                          ("thinktime_blocks=1000\n", [500, 1000, 1500, 2000, 2500, 3000])):
        job = ("[i]\nfilename=%s/t.dat\nsize=1m\nbs=4k\nrw=randread\nthinktime=500ms\n"
               "thinktime_iotime=1\ntime_based\nruntime=4\nnorandommap\nwrite_lat_log=it\n"
               "rate_iops=2000\n%s" % (tmp, extra))
        for tool in tool_list:
            for f in os.listdir(tmp):
                if f.startswith("it_"):
                    os.unlink(os.path.join(tmp, f))
            rc, out, err = run(tool, job, tmp)
            if not check(rc == 0, "%s thinktime_iotime: exit %d %s" % (name(tool), rc, err)):
                continue
            with open(os.path.join(tmp, "it_lat.1.log")) as f:
                ts = [int(line.split(",")[0]) for line in f]
            gaps = [(a, b - a) for a, b in zip(ts, ts[1:]) if b - a > 300]
            check(len(gaps) == len(starts) and
                  all(abs(g[0] - s) < 60 and 450 < g[1] < 600 for g, s in zip(gaps, starts)),
                  "%s thinktime_iotime %r: thinks at %s, want at %s" % (name(tool), extra, gaps,
                                                                       starts))
            print("thinktime_iotime %r %s: %d I/Os, thinks (start, ms) %s" % (
                extra, name(tool), len(ts), gaps))
    # rate_ignore_thinktime: 50 I/Os at 200 IOPS, then 250 ms of think: the
    # schedule catches up after it (about 550 I/Os in 3 s), or not (about 300).
    for ig, want in ((0, 550), (1, 306)):
        job = ("[r]\nfilename=%s/t.dat\nsize=1m\nbs=4k\nrw=randread\nrate_iops=200\n"
               "thinktime=250ms\nthinktime_blocks=50\ntime_based\nruntime=3\nnorandommap\n"
               "rate_ignore_thinktime=%d\n" % (tmp, ig))
        got = []
        for tool in tool_list:
            j = jobs_json(tool, job, tmp)
            if j:
                n = j[0]["read"]["total_ios"]
                check(abs(n - want) < want * 0.08, "%s rate_ignore_thinktime=%d: %d I/Os" % (
                    name(tool), ig, n))
                print("rate_ignore_thinktime=%d %s: %d I/Os" % (ig, name(tool), n))
                got.append(n)
        if len(got) == 2:
            check(abs(got[0] - got[1]) < want * 0.08, "rate_ignore_thinktime=%d: iogauge %d, "
                  "fio %d" % (ig, got[0], got[1]))
    refused(tmp, "thinktime_blocks_type=issued\n", "thinktime_blocks_type")
    refused(tmp, "iodepth_low=-1\n", "iodepth_low")
    refused(tmp, "thinktime_iotime=1x\n", "thinktime_iotime")


def main():
    tmp = tempfile.mkdtemp(prefix="iogauge-pacing-")
    try:
        # "timed": rates, runtimes, flows, depths that follow completions
        # and thinks (CTest runs it alone); "counted": I/O counts, the
        # priorities of running clones and each I/O's priority.
        for f in parts({"counted": [number_ios, prio, cmdprio],
                        "timed": [rate_min, flow, think]}):
            f(tmp)
    finally:
        shutil.rmtree(tmp)
    finish("pacing")


main()
