#!/usr/bin/env python3
# Latency per I/O priority in the reports (fio's clat_prio), when cmdprio*
# splits a job's I/Os or group_reporting puts jobs of different prio in
# one report: each job run by iogauge and by fio 3.33 on a real file in
# the same run.  Checked: the per-priority sample counts add up to the
# direction's total; the share of I/Os given a priority is within a
# binomial bound of what cmdprio_percentage (or cmdprio_bssplit) asks;
# the "prios" array's priorities, order, field names and nesting are
# fio's (clat_ns, lat_ns with lat_percentiles, json+ bins, no percentiles
# with clat_percentiles=0); none is written with one priority; and the
# text report has a "clat prio C/L" line per priority, as fio's normal
# output has.  One line per failure, then "prio_report: N passed, M failed".
#
# Environment (set by CTest): IOGAUGE_BIN.
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile

from clitest import check, finish

BIN = os.path.abspath(os.environ["IOGAUGE_BIN"])
FIO = shutil.which("fio")


def run(tool, job, tmp, args):
    """@tool on the job text @job (tmp/NAME.fio): (exit status, stdout, stderr)."""
    path = os.path.join(tmp, "%s.fio" % os.path.basename(tool))
    with open(path, "w") as f:
        f.write(job)
    p = subprocess.run([tool] + list(args) + [path], cwd=tmp, capture_output=True, text=True,
                       timeout=120)
    return p.returncode, p.stdout, p.stderr


def jobs_json(tool, job, tmp, fmt="json"):
    """The "jobs" of @tool's JSON report on @job, or None (a failure said)."""
    rc, out, err = run(tool, job, tmp, ["--output-format=" + fmt])
    if not check(rc == 0, "%s: exit %d %s" % (os.path.basename(tool), rc, err[-300:])):
        return None
    return json.loads(out[out.index("{"):])["jobs"]


def shape(o):
    """@o's keys and nesting, its numbers and the percentile and bin keys
    (which depend on the latencies) left out."""
    if isinstance(o, dict):
        return {k: "..." if k in ("percentile", "bins") else shape(v) for k, v in o.items()}
    if isinstance(o, list):
        return [shape(x) for x in o]
    return type(o).__name__


def prio_list(d):
    """[(prioclass, prio, N)] of a direction's "prios", or None."""
    if "prios" not in d:
        return None
    out = []
    for p in d["prios"]:
        lat = p.get("clat_ns", p.get("lat_ns", {}))
        out.append((p["prioclass"], p["prio"], lat.get("N", -1)))
    return out


def near(k, n, p):
    """k of n within 5 standard deviations of a binomial(n, p) mean: a
    sound run fails this about once in 1.7 million."""
    sd = math.sqrt(n * p * (1 - p))
    return abs(k - n * p) <= 5 * sd + 1


def both(name, job, tmp, fmt="json"):
    """[(tool name, jobs)] for iogauge and fio (fio's left out without fio)."""
    out = []
    for tool in [BIN] + ([FIO] if FIO else []):
        jobs = jobs_json(tool, job, tmp, fmt)
        if jobs is not None:
            out.append((os.path.basename(tool), jobs))
    if len(out) == 2:
        check(shape(out[0][1][0]["read"].get("prios")) == shape(out[1][1][0]["read"].get("prios"))
              and shape(out[0][1][0]["write"].get("prios"))
              == shape(out[1][1][0]["write"].get("prios")),
              "%s: iogauge's prios %s, fio's %s" % (name, shape(out[0][1][0]["read"].get("prios")),
                                                   shape(out[1][1][0]["read"].get("prios"))))
    return out


def split(tmp):
    """cmdprio_percentage / cmdprio_bssplit: counts, shares, order, names."""
    f = os.path.join(tmp, "p.dat")
    base = "[p]\nfilename=%s\nsize=8m\niodepth=4\n" % f
    # (name, job, per direction: {(class, level): expected share}, fmt)
    cases = [
        ("io_uring 30% realtime",
         base + "rw=randread\nbs=4k\nioengine=io_uring\ncmdprio_percentage=30\n"
         "cmdprio_class=1\nnumber_ios=2000\n",
         {"read": {(0, 0): 0.7, (1, 0): 0.3}}, "json"),
        ("libaio 30%,60% classes 1,3",
         base + "rw=randrw\nbs=4k\nioengine=libaio\ndirect=1\ncmdprio_percentage=30,60\n"
         "cmdprio_class=1,3\ncmdprio=2,0\nnumber_ios=2000\n",
         {"read": {(0, 0): 0.7, (1, 2): 0.3}, "write": {(0, 0): 0.4, (3, 0): 0.6}}, "json"),
        # norandommap and room for every I/O: the sizes are drawn 50/50
        # for each I/O, not cut short by the blocks still free.
        ("io_uring bssplit json+ threads",
         base.replace("size=8m", "size=32m") + "norandommap\nrw=randread\nbssplit=4k/50:16k/50\nioengine=io_uring\ndirect=1\n"
         "cmdprio_bssplit=4k/30/1/0:4k/20/3/0:16k/50/2/5\nnumber_ios=2000\nthread\n",
         {"read": {(0, 0): 0.5, (1, 0): 0.15, (3, 0): 0.1, (2, 5): 0.25}}, "json+"),
        ("lat_percentiles, job prio 2/4",
         base + "rw=randwrite\nbs=4k\nioengine=io_uring\ncmdprio_percentage=40\n"
         "prioclass=2\nprio=4\nlat_percentiles=1\nnumber_ios=1500\n",
         {"write": {(2, 4): 0.6, (1, 0): 0.4}}, "json"),
    ]
    for name, job, want, fmt in cases:
        got = both(name, job, tmp, fmt)
        for tool, jobs in got:
            j = jobs[0]
            for d in ("read", "write"):
                pl = prio_list(j[d])
                if d not in want:
                    check(pl is None, "%s %s: %s has prios %s" % (tool, name, d, pl))
                    continue
                if not check(pl is not None, "%s %s: %s has no prios" % (tool, name, d)):
                    continue
                total = j[d]["total_ios"]
                check(sum(n for _, _, n in pl) == total,
                      "%s %s: %s prios' N %s do not add up to %d" % (tool, name, d, pl, total))
                check([(c, l) for c, l, _ in pl] == list(want[d]),
                      "%s %s: %s priorities %s, want %s in that order"
                      % (tool, name, d, pl, list(want[d])))
                for c, l, n in pl:
                    check(near(n, total, want[d].get((c, l), 0)),
                          "%s %s: %s prio %d/%d has %d of %d I/Os, want about %.0f%%"
                          % (tool, name, d, c, l, n, total, 100 * want[d].get((c, l), 0)))
                key = "lat_ns" if "lat_percentiles" in job else "clat_ns"
                for p in j[d]["prios"]:
                    lat = p.get(key)
                    if not check(lat is not None and set(p) == {"prioclass", "prio", key},
                                 "%s %s: a prio's keys %s, want prioclass, prio, %s"
                                 % (tool, name, sorted(p), key)):
                        continue
                    check("percentile" in lat and ("bins" in lat) == (fmt == "json+"),
                          "%s %s: %s's keys %s" % (tool, name, key, sorted(lat)))
                    if fmt == "json+":
                        check(sum(lat["bins"].values()) == lat["N"],
                              "%s %s: bins add up to %d, N %d"
                              % (tool, name, sum(lat["bins"].values()), lat["N"]))
                    whole = j[d][key]
                    check(whole["min"] <= lat["min"] <= lat["max"] <= whole["max"],
                          "%s %s: prio %d/%d min..max %d..%d outside %s's %d..%d"
                          % (tool, name, p["prioclass"], p["prio"], lat["min"], lat["max"], key,
                             whole["min"], whole["max"]))
                mean = sum(p[key]["mean"] * p[key]["N"] for p in j[d]["prios"]) / total
                check(abs(mean - j[d][key]["mean"]) <= 1e-6 * j[d][key]["mean"] + 1,
                      "%s %s: the prios' means make %.1f, %s's mean is %.1f"
                      % (tool, name, mean, key, j[d][key]["mean"]))
            print("split %s %s: %s" % (tool, name, {d: prio_list(j[d]) for d in ("read", "write")}))


def groups(tmp):
    """Several clones or jobs in one report, and mixed directions."""
    f = os.path.join(tmp, "g.dat")
    base = "[global]\nfilename=%s\nsize=8m\nbs=4k\n" % f
    cases = [
        # Jobs of different prio in a group: one entry per job's priority.
        ("group of prio 2/3 and 3/0",
         base + "rw=randwrite\nioengine=psync\nnumber_ios=300\ngroup_reporting\n"
         "[d1]\nprioclass=2\nprio=3\n[d2]\nprioclass=3\nprio=0\n",
         "write", [(2, 3, 300), (3, 0, 300)], True),
        # The same priority: no prios.
        ("group of one prio", base + "rw=randwrite\nioengine=psync\nnumber_ios=200\n"
         "group_reporting\nprio=5\n[e1]\n[e2]\n", "write", None, True),
        ("numjobs=2 cmdprio 50% clat_percentiles=0",
         base + "rw=randrw\nioengine=io_uring\niodepth=2\ncmdprio_percentage=50\n"
         "clat_percentiles=0\ndisable_lat=1\nnumjobs=2\ngroup_reporting\nnumber_ios=400\n[n]\n",
         "read", [(0, 0, None), (1, 0, None)], False),
        ("mixed", base + "rw=randrw\nioengine=io_uring\niodepth=4\ncmdprio_percentage=50,0\n"
         "unified_rw_reporting=mixed\nnumber_ios=800\n[m]\n", "mixed",
         [(0, 0, None), (1, 0, None)], True),
        ("both", base + "rw=randrw\nioengine=io_uring\niodepth=4\ncmdprio_percentage=50,0\n"
         "unified_rw_reporting=both\nnumber_ios=800\n[m]\n", "mixed",
         [(0, 0, None), (1, 0, None)], True),
        # Every I/O given the priority: one priority with samples, no prios.
        ("cmdprio_percentage=100", base + "rw=randread\nioengine=io_uring\n"
         "cmdprio_percentage=100\nnumber_ios=300\n[h]\n", "read", None, True),
        ("no cmdprio", base + "rw=randread\nioengine=io_uring\nnumber_ios=300\n[z]\n", "read",
         None, True),
    ]
    for name, job, d, want, pcts in cases:
        got = []
        for tool in [BIN] + ([FIO] if FIO else []):
            jobs = jobs_json(tool, job, tmp)
            if jobs is None:
                continue
            tn = os.path.basename(tool)
            check(len(jobs) == 1, "%s %s: %d report entries" % (tn, name, len(jobs)))
            j = jobs[0]
            pl = prio_list(j[d])
            got.append(shape(j[d].get("prios")))
            print("groups %s %s: %s %s" % (tn, name, d, pl))
            if want is None:
                check(pl is None, "%s %s: prios %s, want none" % (tn, name, pl))
                continue
            if not check(pl is not None and len(pl) == len(want),
                         "%s %s: prios %s, want %s" % (tn, name, pl, want)):
                continue
            check(sum(n for _, _, n in pl) == j[d]["total_ios"],
                  "%s %s: N %s do not add up to %d" % (tn, name, pl, j[d]["total_ios"]))
            check([(c, l, n if w is not None else None) for (c, l, n), (_, _, w) in zip(pl, want)]
                  == want, "%s %s: prios %s, want %s" % (tn, name, pl, want))
            for p in j[d]["prios"]:
                check(("percentile" in p["clat_ns"]) == pcts,
                      "%s %s: percentiles %s, want %s" % (tn, name, sorted(p["clat_ns"]), pcts))
        if len(got) == 2:
            check(got[0] == got[1], "%s: iogauge's prios %s, fio's %s" % (name, got[0], got[1]))


def text(tmp):
    """The lines per priority: iogauge's text report and fio's normal one."""
    f = os.path.join(tmp, "t.dat")
    job = ("[t]\nfilename=%s\nsize=8m\nbs=4k\nrw=randrw\nioengine=io_uring\niodepth=4\n"
           "cmdprio_percentage=30,50\ncmdprio_class=1,3\nnumber_ios=1000\n" % f)
    rc, out, err = run(BIN, job, tmp, [])
    if not check(rc == 0, "text: exit %d %s" % (rc, err[-300:])):
        return
    lines = re.findall(r"^  clat prio (\d)/(\d)\(us\): min=\S+ avg=\S+ max=\S+, ([0-9.]+)% of I/Os$",
                       out, re.M)
    pct = re.findall(r"^  clat prio (\d)/(\d) percentiles\(us\): p50=", out, re.M)
    want = [("0", "0"), ("1", "0"), ("0", "0"), ("3", "0")]  # reads', then writes'
    check([(c, l) for c, l, _ in lines] == want,
          "text: prio lines %s, want %s:\n%s" % (lines, want, out))
    check(pct == want, "text: prio percentile lines %s, want %s" % (pct, want))
    for k in (0, 2):
        s = sum(float(p) for _, _, p in lines[k:k + 2])
        check(abs(s - 100) < 0.02, "text: the shares %s add up to %.2f%%" % (lines[k:k + 2], s))
    print("text iogauge: %s" % lines)
    if not FIO:
        return
    rc, out, err = run(FIO, job, tmp, [])
    if not check(rc == 0, "text: fio exit %d %s" % (rc, err[-300:])):
        return
    fl = re.findall(r"^    clat prio (\d)/(\d) \(\w+\): min=", out, re.M)
    check(fl == want, "text: fio's prio lines %s, iogauge's %s" % (fl, want))
    print("text fio: %s" % fl)
    # Without cmdprio neither has them.
    job = job.replace("cmdprio_percentage=30,50\ncmdprio_class=1,3\n", "")
    for tool in (BIN, FIO):
        rc, out, err = run(tool, job, tmp, [])
        check(rc == 0 and " prio " not in out,
              "text: %s without cmdprio: exit %d, %s" % (tool, rc, out[-400:]))


def main():
    tmp = tempfile.mkdtemp(prefix="iogauge-prio-")
    try:
        split(tmp)
        groups(tmp)
        text(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    finish("prio_report")


if __name__ == "__main__":
    if os.geteuid() != 0:
        print("prio_report: cmdprio_class=1 (realtime) needs root, skipped")
        sys.exit(77)
    main()
