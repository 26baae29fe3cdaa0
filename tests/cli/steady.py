#!/usr/bin/env python3
# steadystate (ss), steadystate_duration (ss_dur), steadystate_ramp_time
# (ss_ramp): a steady null-engine job ends once its window holds the
# criterion, an unsteady one runs to its runtime, against fio 3.33 on the
# same job files in the same run: how long each ran, whether it attained,
# and the JSON steadystate block.  Then the values refused.
# One line per failure, then "steady: N passed, M failed".
#
# Environment (set by CTest): IOGAUGE_BIN.
import json
import os
import shutil
import subprocess
import tempfile

from clitest import check, finish

BIN = os.path.abspath(os.environ["IOGAUGE_BIN"])
FIO = shutil.which("fio")

# 2000 IOPS, paced: each second's count is 2000 give or take one.
STEADY = "ioengine=null\nsize=1g\nbs=4k\nrw=randread\nrate_iops=2000\ntime_based\n"


def run(tool, tmp, body):
    """@tool's JSON for the job text @body: its jobs, or None."""
    path = os.path.join(tmp, "s.fio")
    with open(path, "w") as f:
        f.write(body)
    p = subprocess.run([tool, "--output-format=json", path], cwd=tmp, capture_output=True,
                       text=True, timeout=120)
    if not check(p.returncode == 0, "%s %r: exit %d %s" % (os.path.basename(tool), body,
                                                          p.returncode, p.stderr[-300:])):
        return None
    return json.loads(p.stdout)["jobs"]


def both(tmp, body):
    """The first job of each tool's report: [iogauge's, fio's (or None)]."""
    out = []
    for tool in [BIN] + ([FIO] if FIO else []):
        jobs = run(tool, tmp, body)
        out.append(jobs[0] if jobs else None)
    return out


def ss_ok(j, what, attained, lo_ms, hi_ms, dur, iops):
    """@j's runtime within [lo_ms, hi_ms], its steadystate block as expected."""
    if not check(j is not None and "steadystate" in j, "%s: no steadystate block" % what):
        return
    s = j["steadystate"]
    check(lo_ms <= j["job_runtime"] <= hi_ms, "%s: ran %d ms, want %d..%d"
          % (what, j["job_runtime"], lo_ms, hi_ms))
    check(s["attained"] == attained, "%s: attained %d" % (what, s["attained"]))
    check(s["duration"] == dur and len(s["data"]["iops"]) == dur and
          len(s["data"]["bw"]) == dur, "%s: window %s" % (what, s))
    if iops:
        check(abs(s["data"]["iops_mean"] - iops) <= iops * 0.05 and
              abs(s["data"]["bw_mean"] - 4096 * iops) <= 4096 * iops * 0.05,
              "%s: means %d IOPS %d B/s, want %d IOPS" % (what, s["data"]["iops_mean"],
                                                          s["data"]["bw_mean"], iops))


def refused(tmp, opts, msg):
    path = os.path.join(tmp, "b.fio")
    with open(path, "w") as f:
        f.write("[b]\nioengine=null\nsize=1m\n%s" % opts)
    p = subprocess.run([BIN, path], cwd=tmp, capture_output=True, text=True, timeout=60)
    check(p.returncode == 2 and msg in p.stderr and "b.fio:5" in p.stderr and not p.stdout,
          "%r: exit %d %s" % (opts, p.returncode, p.stderr[-300:]))


def main():
    tmp = tempfile.mkdtemp(prefix="iogauge-steady-")
    try:
        # Steady: three seconds in, the window of three holds (fio's job
        # starts later in its helper's second: 2.9 s).
        for i, j in enumerate(both(tmp, "[s]\n" + STEADY + "runtime=20\nss=iops:5%\nss_dur=3s\n")):
            ss_ok(j, ["iogauge", "fio"][i] + " iops:5%", 1, 2500, 4500, 3, 2000)
            if j and "steadystate" in j:
                s = j["steadystate"]
                check(s["ss"] == "iops:5.000000%" and s["criterion"].endswith("%") and
                      float(s["criterion"][:-1]) < 5, "iops:5%%: %s" % s)
        # The slope of bandwidth, as an absolute limit (bytes/s per s).
        for i, j in enumerate(both(tmp, "[s]\n" + STEADY + "runtime=20\nss=bw_slope:1m\n"
                                   "ss_dur=2\n")):
            ss_ok(j, ["iogauge", "fio"][i] + " bw_slope:1m", 1, 1500, 3500, 2, 2000)
        # ss_ramp: the first second counted ends a second after it.
        for i, j in enumerate(both(tmp, "[s]\n" + STEADY + "runtime=20\nss=iops:5%\nss_dur=2\n"
                                   "ss_ramp=2\n")):
            ss_ok(j, ["iogauge", "fio"][i] + " ss_ramp=2", 1, 3500, 6500, 2, 2000)
        # A group of two, judged on its sum (the first second of the
        # second clone may be short: both tools then need a third).
        for i, j in enumerate(both(tmp, "[s]\n" + STEADY + "runtime=20\nss=iops:5%\nss_dur=2\n"
                                   "numjobs=2\ngroup_reporting\n")):
            ss_ok(j, ["iogauge", "fio"][i] + " group", 1, 1500, 5000, 2, 4000)
        # Unsteady: bursts of 100 I/Os 2.2 s apart, so any three seconds
        # (even stretched by a loaded machine) hold one or two bursts:
        # never level, never all without I/O; the job runs to its runtime
        # (fio's past it: it finishes the think the runtime ends in).
        for i, j in enumerate(both(tmp, "[s]\nioengine=null\nsize=1g\nbs=4k\nrw=randread\n"
                                   "time_based\nruntime=7\nthinktime=2200ms\n"
                                   "thinktime_blocks=100\nss=iops:10%\nss_dur=3\n")):
            ss_ok(j, ["iogauge", "fio"][i] + " unsteady", 0, 6900, 9500, 3, 0)
            if j and "steadystate" in j:
                check(float(j["steadystate"]["criterion"][:-1]) > 50,
                      "unsteady: criterion %s" % j["steadystate"]["criterion"])
        # Seconds without I/O: fio 3.33 takes 0/0 as steady and ends the job.
        for i, j in enumerate(both(tmp, "[s]\nioengine=null\nsize=1g\nbs=4k\nrw=randread\n"
                                   "time_based\nruntime=20\nthinktime=5s\n"
                                   "thinktime_blocks=100\nss=iops:10%\nss_dur=2\n")):
            ss_ok(j, ["iogauge", "fio"][i] + " idle", 1, 1500, 4500, 2, 0)
        # No ss_dur: no judgement, no block.
        j = run(BIN, tmp, "[s]\n" + STEADY + "runtime=1\nss=iops:5%\n")
        check(j and "steadystate" not in j[0], "ss without ss_dur: a steadystate block")
        refused(tmp, "ss_dur=3\nss=foo:1%\n", "iops, iops_slope, bw, bw_slope")
        refused(tmp, "ss_dur=3\nss=iops\n", "a limit must follow")
        refused(tmp, "ss_dur=3\nss=bw:1q\n", "steadystate: '1q'")
        refused(tmp, "ss_dur=3\nss=iops:x%\n", "steadystate: 'x'")
    finally:
        shutil.rmtree(tmp)
    finish("steady")


main()
