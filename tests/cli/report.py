#!/usr/bin/env python3
# Reports for tools: --output-format (json, json+, terse, lists), --output,
# the write_*_log files, --plot SVGs and --eta, checked against fio's
# schema and, where fio is installed, against fio itself on the same job
# file.  One line per failure, then "report: N passed, M failed".
#
# Environment (set by CTest): IOGAUGE_BIN, the binary.  FIO names fio
# (default "fio"); without it the side-by-side checks fail unless
# IOGAUGE_NO_FIO=1 says to skip them.
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

from clitest import check, finish, parts, start_running

BIN = os.path.abspath(os.environ["IOGAUGE_BIN"])
FIO = os.environ.get("FIO", "fio")
HAVE_FIO = shutil.which(FIO) is not None


def run(args, tool=None, cwd=None, stdin=None):
    p = subprocess.run([tool or BIN] + args, cwd=cwd, input=stdin, capture_output=True,
                       text=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


def job(tmp, name, text):
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def get(d, path):
    for k in path.split("/"):
        if isinstance(d, list):
            d = d[int(k)]
        else:
            d = d[k]
    return d


def has(d, path):
    try:
        get(d, path)
        return True
    except (KeyError, IndexError, ValueError, TypeError):
        return False


TOP = ["fio version", "timestamp", "timestamp_ms", "time", "jobs"]
JOB = ["jobname", "groupid", "error", "job options", "read", "write", "trim", "sync",
       "job_runtime", "usr_cpu", "sys_cpu", "ctx", "majf", "minf", "iodepth_level",
       "iodepth_submit", "iodepth_complete", "latency_ns", "latency_us", "latency_ms",
       "iogauge/histogram_ms", "iogauge/clock"]
DIR = ["io_bytes", "io_kbytes", "bw_bytes", "bw", "iops", "runtime", "total_ios", "short_ios",
       "drop_ios", "bw_min", "bw_max", "bw_agg", "bw_mean", "bw_dev", "bw_samples", "iops_min",
       "iops_max", "iops_mean", "iops_stddev", "iops_samples"]
LAT = ["min", "max", "mean", "stddev", "N"]


def schema(doc, what):
    """fio 3.x's key paths, with the types fio gives them."""
    ok = all(check(has(doc, k), "%s: no top-level '%s'" % (what, k)) for k in TOP)
    for i, j in enumerate(doc.get("jobs", [])):
        for k in JOB:
            ok &= check(has(j, k), "%s: jobs[%d] has no '%s'" % (what, i, k))
        for d in ("read", "write", "trim"):
            for k in DIR:
                ok &= check(has(j, d + "/" + k), "%s: jobs[%d].%s has no %s" % (what, i, d, k))
            for lat in ("slat_ns", "clat_ns", "lat_ns"):
                for k in LAT:
                    ok &= check(has(j, "%s/%s/%s" % (d, lat, k)),
                                "%s: jobs[%d].%s.%s has no %s" % (what, i, d, lat, k))
            ok &= check(isinstance(get(j, d + "/bw"), int), "%s: %s.bw is not an integer" % (what, d))
            if get(j, d + "/clat_ns/N"):
                pct = get(j, d + "/clat_ns").get("percentile", {})
                ok &= check("99.000000" in pct and "50.000000" in pct,
                            "%s: jobs[%d].%s.clat_ns.percentile lacks 50/99: %s" % (what, i, d, pct))
        ok &= check(has(j, "sync/total_ios") and has(j, "sync/lat_ns/N"),
                    "%s: jobs[%d].sync lacks total_ios or lat_ns" % (what, i))
        ok &= check(sorted(j["latency_ms"].keys(), key=len)[-1] == ">=2000",
                    "%s: latency_ms has no '>=2000'" % what)
        for k in ("iodepth", "numjobs", "bs", "rw"):
            opts = dict(doc.get("global options", {}))
            opts.update(j["job options"])
            # fio-plot needs these four as strings, from global or job options
            if k in opts:
                ok &= check(isinstance(opts[k], str), "%s: option %s is not a string" % (what, k))
    return ok


def json_run(args, what, cwd=None):
    rc, out, err = run(args, cwd=cwd)
    check(rc == 0, "%s: exit %d: %s" % (what, rc, err.strip()))
    try:
        doc = json.loads(out)
    except ValueError as e:
        check(False, "%s: stdout is not one JSON document: %s\n%s" % (what, e, out[:300]))
        return None, err
    check(True, what + ": parses")
    return doc, err


def test_shapes(tmp):
    data = os.path.join(tmp, "data")
    os.mkdir(data)
    g = "[global]\nioengine=null\nsize=16m\nbs=4k\n"
    cases = {
        "one job": g + "[a]\nrw=randread\n",
        "numjobs=2": g + "[a]\nrw=randread\nnumjobs=2\n",
        "numjobs=2 group_reporting": g + "[a]\nrw=randread\nnumjobs=2\ngroup_reporting\n",
        "mix": g + "[a]\nrw=randrw\nrwmixread=70\n",
        "stonewall": g + "[a]\nrw=read\n[b]\nstonewall\nrw=write\n[c]\nrw=read\n",
        "fsync": "[a]\nioengine=psync\nfilename=%s/f\nsize=1m\nrw=write\nfsync=4\n" % data,
    }
    docs = {}
    for name, text in cases.items():
        doc, _ = json_run(["--output-format=json", job(tmp, "s.fio", text)], name)
        if doc is not None:
            schema(doc, name)
            docs[name] = doc
    d = docs.get("one job")
    if d:
        check(len(d["jobs"]) == 1 and d["global options"] == {"ioengine": "null", "size": "16m", "bs": "4k"},
              "one job: global options as written: %s" % d.get("global options"))
        check(d["jobs"][0]["job options"] == {"rw": "randread"},
              "one job: job options: %s" % d["jobs"][0]["job options"])
        r = d["jobs"][0]["read"]
        check(r["total_ios"] == 4096 and r["io_bytes"] == 16 << 20 and r["io_kbytes"] == 16384,
              "one job: total_ios %d io_bytes %d" % (r["total_ios"], r["io_bytes"]))
        check(r["clat_ns"]["N"] == r["lat_ns"]["N"] == 4096 and r["slat_ns"]["N"] == 4096,
              "one job: latency counts")
        check(abs(sum(d["jobs"][0]["latency_ns"].values()) + sum(d["jobs"][0]["latency_us"].values())
                  + sum(d["jobs"][0]["latency_ms"].values()) - 100) < 0.2,
              "one job: latency maps sum to 100%")
        check(abs(d["jobs"][0]["iodepth_level"]["1"] - 100) < 1e-6, "one job: iodepth 1=100%")
        check(d["jobs"][0]["write"]["total_ios"] == 0 and d["jobs"][0]["write"]["runtime"] == 0,
              "one job: write is empty")
    d = docs.get("numjobs=2")
    if d:
        check(len(d["jobs"]) == 2 and all(j["read"]["total_ios"] == 4096 for j in d["jobs"]),
              "numjobs=2: one entry per clone with 4096 reads each: %s" % [j["read"]["total_ios"] for j in d["jobs"]])
    d = docs.get("numjobs=2 group_reporting")
    if d:
        check(len(d["jobs"]) == 1 and d["jobs"][0]["read"]["total_ios"] == 8192
              and d["jobs"][0]["iogauge"]["threads"] == 2,
              "group_reporting: one entry with both clones: %s" % [j["read"]["total_ios"] for j in d["jobs"]])
    d = docs.get("mix")
    if d:
        r, w = d["jobs"][0]["read"]["total_ios"], d["jobs"][0]["write"]["total_ios"]
        check(r + w == 4096 and 0.65 < r / 4096 < 0.75, "mix: reads %d writes %d" % (r, w))
    d = docs.get("stonewall")
    if d:
        check([j["groupid"] for j in d["jobs"]] == [0, 1, 1], "stonewall: groupids %s" % [j["groupid"] for j in d["jobs"]])
    d = docs.get("fsync")
    if d:
        s = d["jobs"][0]["sync"]
        check(s["total_ios"] == 64 and s["lat_ns"]["N"] == 64 and s["lat_ns"]["min"] > 0,
              "fsync: 256 writes, fsync=4 gives 64 syncs: %s" % s)

    # json+: bins per latency kind, keyed by bucket middle, summing to the I/Os.
    doc, _ = json_run(["--output-format=json+", job(tmp, "p.fio", g + "[a]\nrw=randrw\n")], "json+")
    if doc:
        schema(doc, "json+")
        for d in ("read", "write"):
            for lat in ("slat_ns", "clat_ns", "lat_ns"):
                o = doc["jobs"][0][d][lat]
                bins = o.get("bins", {})
                check(sum(bins.values()) == o["N"] == doc["jobs"][0][d]["total_ios"] > 0,
                      "json+: %s.%s bins sum %d, N %d" % (d, lat, sum(bins.values()), o["N"]))
                check(all(int(k) >= o["min"] // 2 and v > 0 for k, v in bins.items()),
                      "json+: %s.%s bins keys/values" % (d, lat))
    # A warning goes to stderr; stdout stays one document.
    doc, err = json_run(["--output-format=json", job(tmp, "w.fio", g + "[a]\nrw=randread\ngtod_cpu=1\n")],
                        "warning run")
    check("warning" in err and "gtod_cpu" in err, "warning run: the warning is on stderr: %r" % err)
    doc, err = json_run(["--output-format=json", job(tmp, "w2.fio", "[a]\nioengine=psync\niodepth=8\nsize=1m\n"
                                                    "filename=%s/w2\nrw=read\n" % data)], "warning run 2")
    check("iodepth" in err, "warning run 2: the iodepth warning is on stderr: %r" % err)
    # Several formats, and --output.
    rc, out, err = run(["--output-format=normal,terse,json", job(tmp, "m.fio", g + "[a]\nrw=read\n")])
    # fio 3.33's order, whatever the flag's: terse, then JSON, then normal.
    check(rc == 0 and out.startswith("3;iogauge-") and "\n{\n" in out and "}\niogauge " in out
          and out.index("\n{\n") < out.index("}\niogauge "),
          "normal,terse,json: all three, in fio's order (terse, json, normal): %r" % out[:200])
    out_file = os.path.join(tmp, "out.json")
    rc, out, err = run(["--output-format=json", "--output=" + out_file, job(tmp, "o.fio", g + "[a]\nrw=read\n")])
    check(rc == 0 and out == "", "--output: nothing on stdout: %r" % out[:100])
    try:
        with open(out_file) as f:
            check(json.load(f)["jobs"][0]["read"]["total_ios"] == 4096, "--output: the file holds the JSON")
    except (OSError, ValueError) as e:
        check(False, "--output: %s" % e)
    # Bad flags: exit 2, named, nothing run.
    for args, want in ((["--output-format=jsno"], "did you mean 'json'"),
                       (["--output-format="], "--output-format"),
                       (["--eta=sometimes"], "--eta=sometimes"),
                       (["--output=" + os.path.join(tmp, "no/such/dir/x")], "--output=")):
        rc, out, err = run(args + [job(tmp, "b.fio", "[a]\nioengine=psync\nsize=1m\nfilename=%s/bad\nrw=write\n" % data)])
        check(rc == 2 and want in err and not os.path.exists(os.path.join(data, "bad")),
              "%s: exit %d, %r" % (args, rc, err.strip()))


def test_intervals(tmp):
    """500 ms windows give the bw/iops min/max/mean/dev and rusage fills the CPU fields."""
    text = "[a]\nioengine=null\nsize=1g\nbs=4k\nrw=randread\ntime_based\nruntime=2\n"
    doc, _ = json_run(["--output-format=json", job(tmp, "i.fio", text)], "intervals")
    if not doc:
        return
    j = doc["jobs"][0]
    r = j["read"]
    check(r["bw_samples"] == r["iops_samples"] and 3 <= r["iops_samples"] <= 4,
          "intervals: 2 s gives 3-4 samples of 500 ms: %d" % r["iops_samples"])
    check(r["iops_min"] <= r["iops_mean"] <= r["iops_max"] and r["bw_min"] <= r["bw_mean"] <= r["bw_max"],
          "intervals: min <= mean <= max")
    check(abs(r["iops_mean"] / r["iops"] - 1) < 0.25,
          "intervals: iops_mean %.0f near iops %.0f" % (r["iops_mean"], r["iops"]))
    check(abs(r["bw_mean"] / (r["iops_mean"] * 4) - 1) < 0.01, "intervals: bw_mean is 4 KiB x iops_mean")
    check(abs(r["bw_agg"] - 100) < 15, "intervals: one job is ~100%% of its group: %.1f" % r["bw_agg"])
    # CPU-bound, in user space; how much of the wall time it got depends on
    # what else the machine runs (28% seen with seven builds beside it).
    check(j["usr_cpu"] > 5 and j["sys_cpu"] < j["usr_cpu"] and j["usr_cpu"] + j["sys_cpu"] < 101,
          "intervals: a null-engine job is CPU-bound: usr %.1f sys %.1f" % (j["usr_cpu"], j["sys_cpu"]))
    check(1900 <= j["job_runtime"] <= 2200 and r["runtime"] == j["job_runtime"],
          "intervals: runtime %d ms" % j["job_runtime"])
    # A last window cut short is no sample in fio 3.33 (its helper thread
    # takes samples while the job runs; none at its end): 2.2 s gives the
    # 4 whole windows, and their mean is the run's rate.
    path = job(tmp, "i2.fio", text.replace("runtime=2", "runtime=2200ms"))
    ours, _ = json_run(["--output-format=json", path], "intervals 2.2 s")
    theirs = fio_json(path) if HAVE_FIO else None
    for tool, doc in (("iogauge", ours), ("fio", theirs)):
        if not doc:
            check(tool == "iogauge" or os.environ.get("IOGAUGE_NO_FIO") == "1",
                  "intervals 2.2 s: fio did not run")
            continue
        r = doc["jobs"][0]["read"]
        check(r["iops_samples"] == r["bw_samples"] == 4 and
              abs(r["iops_mean"] / r["iops"] - 1) < 0.1,
              "intervals 2.2 s (%s): %d samples, iops_mean %.0f, iops %.0f" %
              (tool, r["iops_samples"], r["iops_mean"], r["iops"]))


def fio_json(path):
    rc, out, err = run(["--output-format=json", path], tool=FIO)
    return json.loads(out[out.index("{"):]) if rc == 0 else None


def test_fio_counts(tmp):
    """Size-bound null-engine jobs: the same I/O counts and bytes as fio."""
    if not HAVE_FIO:
        check(os.environ.get("IOGAUGE_NO_FIO") == "1", "fio is not installed")
        return
    texts = [
        "[global]\nioengine=null\nsize=64m\n[a]\nrw=randread\nbs=4k\n",
        "[global]\nioengine=null\nsize=64m\n[a]\nrw=write\nbs=64k\n[b]\nnew_group\nrw=read\nbs=1m\nnumjobs=2\n",
        "[global]\nioengine=null\nsize=10m\n[a]\nrw=read\nbs=12k\nloops=3\n",
        "[global]\nioengine=null\nsize=32m\n[a]\nrw=randwrite\nbs=8k\nnumjobs=3\ngroup_reporting\n",
        "[global]\nioengine=null\nsize=16m\n[a]\nrw=read\nbs=4k\nio_size=8m\n",
        "[global]\nioengine=null\nsize=16m\n[a]\nrw=randrw\nbs=4k\n",
        "[global]\nioengine=null\nsize=64m\n[a]\nrw=randrw\nbs=8k\nrwmixread=30\nnumjobs=2\n",
    ]
    # Mixes with a block size per direction: fio's rwmix runs, drawn from
    # fio's seed, give its count in each direction, I/O for I/O.
    for mix in (50, 70):
        for bs in ("4k,64k", "64k,4k"):
            texts.append("[global]\nioengine=null\nsize=64m\n[a]\nrw=rw\nbs=%s\nrwmixread=%d\n"
                         % (bs, mix))
    texts.append("[global]\nioengine=null\nsize=64m\n[a]\nrw=randrw\nbs=4k\nrwmixread=70\n")
    # Random, each direction's offsets aligned to its own block (fio's
    # blockalign default): no block is cut at the region's end.
    texts.append("[global]\nioengine=null\nsize=64m\n[a]\nrw=randrw\nbs=4k,64k\nrwmixread=70\n"
                 "norandommap\n")
    for n, text in enumerate(texts):
        path = job(tmp, "c%d.fio" % n, text)
        ours, _ = json_run(["--output-format=json", path], "fio counts %d" % n)
        theirs = fio_json(path)
        if not check(theirs is not None and ours is not None, "fio counts %d: both ran" % n):
            continue
        check(len(ours["jobs"]) == len(theirs["jobs"]),
              "fio counts %d: %d entries, fio %d" % (n, len(ours["jobs"]), len(theirs["jobs"])))
        for a, b in zip(ours["jobs"], theirs["jobs"]):
            got = [(a[d]["total_ios"], a[d]["io_bytes"]) for d in ("read", "write")]
            want = [(b[d]["total_ios"], b[d]["io_bytes"]) for d in ("read", "write")]
            if "rw=rw\nbs=" in text:
                # One stream over the region here, one per direction in
                # fio: the I/O that ends the job is cut at the region's end
                # here, whole in fio (which stops once size is reached).
                got = [x[0] for x in got] + [sum(x[1] for x in got) // 65536]
                want = [x[0] for x in want] + [sum(x[1] for x in want) // 65536]
            check(got == want, "fio counts %d [%s]: ours %s, fio %s" % (n, a["jobname"], got, want))


def test_group_runtime(tmp):
    """group_reporting, as fio's sum_thread_stats: job_runtime and the CPU
    shares are over the clones' runtimes summed; runtime, bw and iops over
    the longest clone, so the rates stay the group's."""
    text = ("[a]\nioengine=null\nsize=1g\nbs=4k\nrw=randread\ntime_based\nruntime=1\n"
            "numjobs=4\ngroup_reporting\n")
    path = job(tmp, "g.fio", text)
    ours, _ = json_run(["--output-format=json", path], "group runtime")
    theirs = fio_json(path) if HAVE_FIO else None
    for tool, doc in (("iogauge", ours), ("fio", theirs)):
        if not doc:
            check(tool == "iogauge" or os.environ.get("IOGAUGE_NO_FIO") == "1",
                  "group runtime: fio did not run")
            continue
        j = doc["jobs"][0]
        r = j["read"]
        # Four clones of 1 s each: ~4000 ms summed, the longest ~1000 ms.
        check(3900 <= j["job_runtime"] <= 4400 and 990 <= r["runtime"] <= 1100,
              "group runtime (%s): job_runtime %d ms, runtime %d ms" %
              (tool, j["job_runtime"], r["runtime"]))
        check(abs(r["iops"] * r["runtime"] / 1000 / r["total_ios"] - 1) < 0.01 and
              abs(r["bw"] * 1024 * r["runtime"] / 1000 / r["io_bytes"] - 1) < 0.01,
              "group runtime (%s): iops %.0f, bw %d over runtime %d ms of %d I/Os" %
              (tool, r["iops"], r["bw"], r["runtime"], r["total_ios"]))
        # The group's samples are its clones' added (fio's sum_stat with
        # pure_sum): the mean is the group's rate, not a clone's.
        check(abs(r["iops_mean"] / r["iops"] - 1) < 0.25 and 4 <= r["iops_samples"] <= 12 and
              r["iops_min"] <= r["iops_mean"] <= r["iops_max"] and
              abs(r["bw_mean"] / (r["iops_mean"] * 4) - 1) < 0.01,
              "group runtime (%s): iops_mean %.0f of %d samples (min %d, max %d), iops %.0f" %
              (tool, r["iops_mean"], r["iops_samples"], r["iops_min"], r["iops_max"], r["iops"]))
        # 4 CPU-bound clones on any number of CPUs: at most 100% of their time.
        check(j["usr_cpu"] + j["sys_cpu"] <= 101,
              "group runtime (%s): usr %.1f%% sys %.1f%% of the clones' time" %
              (tool, j["usr_cpu"], j["sys_cpu"]))

def lat_shape(doc):
    """Which latencies a report has: (N > 0, has percentiles) per section, and the map."""
    j = doc["jobs"][0]
    r = j["read"]
    return ([(k, r[k]["N"] > 0, "percentile" in r[k]) for k in ("slat_ns", "clat_ns", "lat_ns")],
            sum(j["latency_ns"].values()) + sum(j["latency_us"].values()) > 0)


def test_gtod_reduce(tmp):
    """gtod_reduce and each disable_*: the same latency sections as fio's, empty ones all zero."""
    base = "[global]\nioengine=null\niodepth=4\nsize=8m\nrw=randread\n[a]\n"
    for extra in ("", "gtod_reduce=1\n", "disable_lat=1\n", "disable_clat=1\n", "disable_slat=1\n",
                  "gtod_reduce=1\ndisable_clat=0\n", "disable_lat=1\ngtod_reduce=1\n"):
        what = "gtod %r" % extra
        path = job(tmp, "g.fio", base + extra)
        ours, _ = json_run(["--output-format=json", path], what)
        if ours is None:
            continue
        r = ours["jobs"][0]["read"]
        for k in ("slat_ns", "clat_ns", "lat_ns"):
            if r[k]["N"] == 0:
                check((r[k]["min"], r[k]["max"], r[k]["mean"], r[k]["stddev"]) == (0, 0, 0, 0),
                      "%s: empty %s is all zero: %s" % (what, k, r[k]))
        if not HAVE_FIO:
            check(os.environ.get("IOGAUGE_NO_FIO") == "1", "fio is not installed")
            continue
        theirs = fio_json(path)
        if check(theirs is not None, "%s: fio ran" % what):
            check(lat_shape(ours) == lat_shape(theirs),
                  "%s: ours %s, fio %s" % (what, lat_shape(ours), lat_shape(theirs)))
    rc, out, _ = run(["--output-format=terse", job(tmp, "g.fio", base + "gtod_reduce=1\n")])
    f = out.strip().split(";")
    if check(rc == 0 and len(f) == 121, "gtod terse: %d fields" % len(f)):
        # slat, clat min..stddev, the percentiles' padding, lat: fio's zeros.
        check(f[9:17] == ["0", "0", "0.000000", "0.000000"] * 2 and f[17] == "0%=0" and
              f[37:41] == ["0", "0", "0.000000", "0.000000"],
              "gtod terse: empty latencies %s %s %s" % (f[9:17], f[17], f[37:41]))


def log_lines(path):
    with open(path) as f:
        return [ln.rstrip("\n").split(", ") for ln in f]


def test_logs(tmp):
    d = tempfile.mkdtemp(dir=tmp)
    per_io = ("[a]\nioengine=null\nsize=4m\nbs=4k\nrw=randrw\nnumjobs=2\nwrite_bw_log\n"
              "write_iops_log=x\nwrite_lat_log\nlog_offset=1\n")
    doc, _ = json_run(["--output-format=json", job(d, "l.fio", per_io)], "per-I/O logs", cwd=d)
    names = sorted(os.listdir(d))
    want = ["a_bw.1.log", "a_bw.2.log", "a_clat.1.log", "a_clat.2.log", "a_lat.1.log", "a_lat.2.log",
            "a_slat.1.log", "a_slat.2.log", "l.fio", "x_iops.1.log", "x_iops.2.log"]
    check(names == want, "per-I/O logs: files %s" % names)
    if doc and names == want:
        for clone in (1, 2):
            jj = doc["jobs"][clone - 1]
            for kind in ("bw", "lat", "clat", "slat"):
                rows = log_lines(os.path.join(d, "a_%s.%d.log" % (kind, clone)))
                check(len(rows) == 1024 and all(len(r) == 6 for r in rows),
                      "per-I/O %s log %d: 1024 rows of 6 columns: %d" % (kind, clone, len(rows)))
                check(all(r[2] in ("0", "1") and r[3] == "4096" and int(r[4]) % 4096 == 0 and r[5] == "0"
                          for r in rows), "per-I/O %s log %d: ddir, bs, offset, prio" % (kind, clone))
                ws = sum(r[2] == "1" for r in rows)
                check(ws == jj["write"]["total_ios"], "per-I/O %s log: %d writes, JSON %d" %
                      (kind, ws, jj["write"]["total_ios"]))
            rows = log_lines(os.path.join(d, "a_lat.%d.log" % clone))
            lat = sorted(int(r[1]) for r in rows if r[2] == "0")
            check(lat[0] == jj["read"]["lat_ns"]["min"] and lat[-1] == jj["read"]["lat_ns"]["max"],
                  "per-I/O lat log: min/max equal the JSON's")
            rows = log_lines(os.path.join(d, "x_iops.%d.log" % clone))
            check(all(r[1] == "1" for r in rows), "per-I/O iops log: value 1 per I/O")
    # Averaged windows and histogram lines, time-bound.
    d = tempfile.mkdtemp(dir=tmp)
    avg = ("[a]\nioengine=null\nsize=64m\nbs=4k\nrw=randrw\ntime_based\nruntime=1600ms\n"
           "write_bw_log=w\nwrite_iops_log=w\nwrite_lat_log=w\nwrite_hist_log=w\nlog_avg_msec=500\n"
           "log_hist_msec=500\n")
    doc, _ = json_run(["--output-format=json", job(d, "a.fio", avg)], "averaged logs", cwd=d)
    for kind in ("bw", "iops", "lat", "clat", "slat"):
        p = os.path.join(d, "w_%s.1.log" % kind)
        if not check(os.path.exists(p), "averaged logs: %s" % p):
            continue
        rows = log_lines(p)
        times = [int(r[0]) for r in rows]
        check(all(len(r) == 5 and r[3] == "0" and r[4] == "0" for r in rows),
              "averaged %s log: 5 columns, bs 0, prio 0" % kind)
        check(times[:6] == [500, 500, 1000, 1000, 1500, 1500] and 8 <= len(rows) <= 8,
              "averaged %s log: two rows per 500 ms window and a last one: %s" % (kind, times))
    p = os.path.join(d, "w_iops.1.log")
    if doc and os.path.exists(p):
        rows = log_lines(p)
        reads = [int(r[1]) for r in rows[:6] if r[2] == "0"]
        check(all(abs(v / doc["jobs"][0]["read"]["iops"] - 1) < 0.3 for v in reads),
              "averaged iops log: read windows %s near the run's %.0f" % (reads, doc["jobs"][0]["read"]["iops"]))
    p = os.path.join(d, "w_clat_hist.1.log")
    if check(os.path.exists(p), "histogram log exists"):
        rows = log_lines(p)
        check(len(rows) >= 6 and all(len(r) == 1859 for r in rows),
              "histogram log: rows of 1859 columns (fio's): %s" % sorted(set(len(r) for r in rows)))
        if doc:
            for dd, name in ((0, "read"), (1, "write")):
                total = sum(sum(int(x) for x in r[3:]) for r in rows if r[1] == str(dd))
                check(total == doc["jobs"][0][name]["total_ios"],
                      "histogram log: %s counts sum %d, JSON %d" % (name, total, doc["jobs"][0][name]["total_ios"]))
    # After a ramp_time, times count from its end (fio 3.33 resets its
    # epoch there): the first window closes 500 ms after it, not 800.
    dr = tempfile.mkdtemp(dir=tmp)
    ramp = ("[a]\nioengine=null\nsize=64m\nrw=read\ntime_based\nruntime=1200ms\n"
            "ramp_time=300ms\nrate_iops=1000\nwrite_iops_log=r\nlog_avg_msec=500\n")
    for tool in [None] + ([FIO] if HAVE_FIO else []):
        rc, _, _ = run([job(dr, "r.fio", ramp)], tool=tool, cwd=dr)
        p = os.path.join(dr, "r_iops.1.log")
        times = [int(r[0]) for r in log_lines(p)] if rc == 0 and os.path.exists(p) else []
        check(len(times) >= 2 and abs(times[0] - 500) <= 25 and abs(times[1] - 1000) <= 25,
              "%s: iops log after a 300 ms ramp: times %s" % (tool or "iogauge", times))
        shutil.rmtree(dr, ignore_errors=True)
        os.mkdir(dr)
    d2 = tempfile.mkdtemp(dir=tmp)
    rc, _, err = run([job(d2, "c.fio", "[a]\nioengine=null\nsize=8m\nrw=read\nwrite_hist_log\n"
                          "log_hist_msec=1\nlog_hist_coarseness=3\n")], cwd=d2)
    rows = log_lines(os.path.join(d2, "a_clat_hist.1.log")) if rc == 0 else []
    check(rows and all(len(r) == 3 + 1856 // 8 for r in rows),
          "log_hist_coarseness=3: 235 columns: %s" % sorted(set(len(r) for r in rows)))
    if HAVE_FIO:
        # fio's own column counts for the same kinds of log.
        d3 = tempfile.mkdtemp(dir=tmp)
        rc, _, _ = run([job(d3, "f.fio", per_io.replace("size=4m", "size=64k"))], tool=FIO, cwd=d3)
        rc2, _, _ = run([job(d3, "g.fio", avg.replace("runtime=1600ms", "runtime=600ms"))], tool=FIO, cwd=d3)
        for f, cols in (("a_bw.1.log", 6), ("a_lat.1.log", 6), ("x_iops.1.log", 6), ("w_bw.1.log", 5),
                        ("w_lat.1.log", 5), ("w_clat_hist.1.log", 1859)):
            p = os.path.join(d3, f)
            got = sorted(set(len(r) for r in log_lines(p))) if os.path.exists(p) else None
            check(got == [cols], "fio's %s has %s columns, ours %d" % (f, got, cols))
    # A log that cannot be written: found before the run, exit 2, named, no report.
    d4 = tempfile.mkdtemp(dir=tmp)
    rc, out, err = run([job(d4, "e.fio", "[a]\nioengine=null\nsize=1m\nrw=read\nwrite_bw_log=%s/no/dir/p\n" % d4)])
    check(rc == 2 and "no/dir/p_bw.1.log" in err and "cannot create" in err and out == "",
          "unwritable log: exit %d, %r" % (rc, err.strip()))


def test_terse(tmp):
    text = "[global]\nioengine=null\nsize=16m\nbs=4k\n[a]\nrw=randrw\n"
    rc, out, err = run(["--output-format=terse", job(tmp, "t.fio", text)])
    lines = out.splitlines()
    check(rc == 0 and len(lines) == 1, "terse: one line: %r" % out[:200])
    f = lines[0].split(";") if lines else []
    check(len(f) == 121, "terse: 121 fields without disks, as fio 3.33: %d" % len(f))
    if len(f) == 121:
        check(f[0] == "3" and f[1].startswith("iogauge-") and f[2] == "a" and f[3] == "0" and f[4] == "0",
              "terse: header fields %s" % f[:5])
        reads, writes = int(f[5]), int(f[46])
        check(reads + writes == 16384, "terse: read KiB %d + write KiB %d = 16384" % (reads, writes))
        check(re.fullmatch(r"1\.000000%=\d+", f[17]) and f[34] == "0%=0" and f[36] == "0%=0",
              "terse: 17 percentiles then padding: %s %s" % (f[17], f[34]))
        check(all(x.endswith("%") for x in f[92:99]), "terse: 7 iodepth fields: %s" % f[92:99])
        check(abs(sum(float(x[:-1]) for x in f[99:121]) - 100) < 0.5, "terse: lat_us + lat_ms sum to 100%")
    if HAVE_FIO:
        rc, fout, _ = run(["--output-format=terse", job(tmp, "t.fio", text)], tool=FIO)
        check(rc == 0 and len(fout.splitlines()[0].split(";")) == len(f),
              "terse: fio's field count %d, ours %d" % (len(fout.splitlines()[0].split(";")) if fout else -1, len(f)))
    # On a real disk the disk fields follow: 9 per disk.
    data = tempfile.mkdtemp(dir="/var/tmp")
    try:
        text = "[a]\nioengine=psync\nfilename=%s/f\nsize=4m\nrw=read\ndirect=1\n" % data
        rc, out, _ = run(["--output-format=terse", job(tmp, "d.fio", text)])
        f = out.strip().split(";")
        if check(rc == 0 and (len(f) - 121) % 9 == 0 and len(f) > 121, "terse: disks add 9 fields each: %d" % len(f)):
            check(int(f[122]) >= 1024 and f[129].endswith("%"), "terse disk: %s read ios %s" % (f[121], f[122]))
        rc, out, _ = run([job(tmp, "d.fio", text)])
        m = re.search(r"\nDisk stats \(read/write\):\n  (\w+): ios=(\d+)/\d+, merge=\d+/\d+, "
                      r"ticks=\d+/\d+, in_queue=\d+, util=[0-9.]+%\n", out)
        check(rc == 0 and m and int(m.group(2)) >= 1024, "normal report: Disk stats line: %r" % out[-300:])
        check(re.search(r"\ncpu: usr=[0-9.]+% sys=[0-9.]+% ctx=\d+ majf=\d+ minf=\d+\n", out),
              "normal report: cpu line")
        doc, _ = json_run(["--output-format=json", job(tmp, "d.fio", text)], "disk_util")
        if doc:
            du = doc.get("disk_util", [])
            check(len(du) == 1 and du[0]["read_ios"] >= 1024 and 0 < du[0]["util"] <= 100
                  and du[0]["read_sectors"] >= 8192,
                  "disk_util: one disk with the 1024 direct reads: %s" % du)
            if du and os.path.exists("/sys/block/" + du[0]["name"]):
                check(True, "disk_util: name is a whole disk")
            else:
                check(False, "disk_util: %s is not in /sys/block" % du)
    finally:
        shutil.rmtree(data)


def test_plots(tmp):
    d = os.path.join(tmp, "plots")
    text = "[a]\nioengine=null\nsize=1g\nbs=4k\nrw=randrw\ntime_based\nruntime=1200ms\n[b]\nioengine=null\nsize=8m\nrw=read\n"
    rc, out, err = run(["--plot", d, job(tmp, "pl.fio", text)])
    check(rc == 0, "plot: exit %d %s" % (rc, err))
    names = sorted(os.listdir(d)) if os.path.isdir(d) else []
    want = ["a.1_bw.svg", "a.1_cdf.svg", "a.1_iops.svg", "a.1_lat-read.svg", "a.1_lat-write.svg",
            "a.1_ms.svg", "b.2_bw.svg", "b.2_cdf.svg", "b.2_iops.svg", "b.2_lat-read.svg", "b.2_ms.svg"]
    check(names == want, "plot: files %s" % names)
    ns = "{http://www.w3.org/2000/svg}"
    for n in names:
        try:
            root = ET.parse(os.path.join(d, n)).getroot()
        except ET.ParseError as e:
            check(False, "plot: %s is not well-formed: %s" % (n, e))
            continue
        check(root.tag == ns + "svg", "plot: %s root is <svg>" % n)
        if n.startswith("a.1_iops") or n.startswith("a.1_bw"):
            series = [p for p in root.iter(ns + "polyline") if p.get("class") == "series"]
            check(sorted(p.get("data-name") for p in series) == ["read", "write"],
                  "plot: %s has read and write series" % n)
            check(all(len(p.get("points").split()) == 2 for p in series),
                  "plot: %s: 2 windows of 500 ms in 1.2 s: %s" % (n, [p.get("points") for p in series]))
        if "_lat-" in n:
            pcts = [g.get("data-p") for g in root.iter(ns + "g") if g.get("class") == "pct"]
            check("50" in pcts and "99" in pcts, "plot: %s has p50 and p99 markers: %s" % (n, pcts))


def test_eta(tmp):
    text = "[a]\nioengine=null\nsize=1g\nrw=read\ntime_based\nruntime=2500ms\n"
    rc, out, err = run(["--eta=always", job(tmp, "e.fio", text)])
    lines = [ln for ln in err.splitlines() if ln.startswith("Jobs: ")]
    check(rc == 0 and 2 <= len(lines) <= 3, "--eta=always: a line a second: %r" % err)
    if lines:
        check(re.match(r"Jobs: 1 \(done 0 of 1\): \[[0-9.]+%\]\[r=[0-9.]+[KMGT]iB/s,w=0KiB/s\]"
                       r"\[r=[0-9.]+[kM]?,w=0 IOPS\]\[eta \d\dm:\d\ds\]$", lines[0]),
              "--eta line: %r" % lines[0])
    rc, out, err = run([job(tmp, "e.fio", text.replace("2500ms", "1200ms"))])
    check(rc == 0 and "Jobs:" not in err, "--eta=auto without a terminal: no status: %r" % err)


def test_interrupted(tmp):
    """Ctrl-C: exit 130, and standard output is still one JSON document."""
    p = start_running([BIN, "--output-format=json", "--name=x", "--ioengine=null", "--size=1g",
                       "--rw=randread", "--time_based", "--runtime=30", "--eta=always"],
                      os.path.join(tmp, "int.err"))
    p.send_signal(2)
    out, _ = p.communicate(timeout=10)
    err = open(os.path.join(tmp, "int.err")).read()
    try:
        j = json.loads(out)["jobs"][0]
        check(p.returncode == 130 and j["iogauge"]["interrupted"] == 1 and 900 < j["job_runtime"] < 15000
              and j["read"]["total_ios"] > 0,
              "SIGINT: rc %d, interrupted %s, runtime %d" % (p.returncode, j["iogauge"]["interrupted"], j["job_runtime"]))
    except ValueError as e:
        check(False, "SIGINT: stdout is not JSON: %s %r" % (e, out[:200]))


def main():
    tmp = tempfile.mkdtemp()
    try:
        # "timed": per-window rates, runtimes, status lines (CTest runs it
        # alone); "shapes": counts, fields and files.
        for t in parts({"shapes": [test_shapes, test_fio_counts, test_gtod_reduce, test_terse,
                                   test_interrupted],
                        "timed": [test_intervals, test_group_runtime, test_logs, test_plots,
                                  test_eta]}):
            t(tmp)
    finally:
        shutil.rmtree(tmp)
    finish("report")


main()
