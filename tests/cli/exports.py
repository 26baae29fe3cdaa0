#!/usr/bin/env python3
# --output-format=spreadsheet (CSV with a header) and openmetrics, each
# read by a real consumer: the CSV by Python's csv module, the OpenMetrics text by
# python3-prometheus-client's OpenMetrics parser (the one the Prometheus
# Python tooling uses).  The oracle is the same run's json+, printed in
# the same report (--output-format=json+,spreadsheet,openmetrics): every figure
# of both exports equals the JSON's, and the histogram's buckets equal
# its lat_ns bins summed.  fio has neither format; its JSON for the same
# job moves the same I/Os.  fio's own "csv" is its terse format (fio
# 3.33's init.c, not in its HOWTO): iogauge's is too, the same fields as
# fio's for the same job.  Bad combinations fail as the other formats.
#
# Environment (set by CTest): IOGAUGE_BIN.
import csv
import io
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile

from clitest import check, finish


def load_parsers():
    """python3-prometheus-client's OpenMetrics parser and its parser of the
    older Prometheus text format; Debian's package when python3 is not
    Debian's (pyenv, a venv).  Exits 77 (skip) without it."""
    for extra in ([], ["/usr/lib/python3/dist-packages"]):
        sys.path.extend(extra)
        try:
            from prometheus_client.openmetrics import parser as om
            from prometheus_client import parser as classic
            return om.text_string_to_metric_families, classic.text_string_to_metric_families
        except ImportError:
            pass
    print("exports: python3-prometheus-client is not installed (.ci/setup installs it)")
    sys.exit(77)


text_string_to_metric_families, text_string_to_metric_families_classic = load_parsers()
BIN = os.path.abspath(os.environ["IOGAUGE_BIN"])
HEADER = ("jobname,group,clone,clones,direction,ios,bytes,runtime_ms,iops,bw_bytes,"
          "lat_min_ns,lat_mean_ns,lat_p50_ns,lat_p90_ns,lat_p99_ns,lat_p99.9_ns,"
          "lat_p99.99_ns,lat_max_ns,lat_stddev_ns,clat_mean_ns,slat_mean_ns,errors,error").split(",")
PCTS = ["50", "90", "99", "99.9", "99.99"]
# A job name a spreadsheet must see whole: a comma, quotes, a backslash.
ODD = 'a,"b"\\c'


def job_file(tmp):
    return """[global]
filename=%s/f
size=512k
bs=4k
ioengine=psync
lat_percentiles=1
percentile_list=50:90:99:99.9:99.99
[%s]
rw=randrw
numjobs=2
[grouped]
new_group
rw=randwrite
numjobs=2
group_reporting
unified_rw_reporting=both
""" % (tmp, ODD)


def close(a, b, rel=1e-9, absolute=1e-6):
    return abs(a - b) <= max(absolute, rel * max(abs(a), abs(b)))


def json_dirs(job):
    return [d for d in ("read", "write", "trim", "mixed") if d in job]


def check_csv(text, doc):
    rows = list(csv.reader(io.StringIO(text, newline="")))
    check(rows and rows[0] == HEADER, "csv header: %r" % (rows[:1],))
    rows = rows[1:]
    want = [(j, d) for j in doc["jobs"] for d in json_dirs(j)]
    check(len(rows) == len(want), "csv: %d rows for %d entries x directions" %
          (len(rows), len(want)))
    clones = {}
    for row, (j, d) in zip(rows, want):
        r = dict(zip(HEADER, row))
        jd = j[d]
        lat = jd["lat_ns"]
        name = "%s/%s" % (j["jobname"], d)
        check(r["jobname"] == j["jobname"] and int(r["group"]) == j["groupid"] and
              r["direction"] == d, "csv %s: names %r" % (name, row[:5]))
        check(int(r["ios"]) == jd["total_ios"] and int(r["bytes"]) == jd["io_bytes"] and
              int(r["runtime_ms"]) == jd["runtime"] and int(r["bw_bytes"]) == jd["bw_bytes"],
              "csv %s: ios/bytes/runtime/bw %r vs %r" % (name, row[5:10], jd))
        check(close(float(r["iops"]), jd["iops"]), "csv %s: iops %s vs %s" %
              (name, r["iops"], jd["iops"]))
        check(int(r["lat_min_ns"]) == lat["min"] and int(r["lat_max_ns"]) == lat["max"] and
              close(float(r["lat_mean_ns"]), lat["mean"], absolute=1e-3) and
              close(float(r["lat_stddev_ns"]), lat["stddev"], absolute=1e-3) and
              close(float(r["clat_mean_ns"]), jd["clat_ns"]["mean"], absolute=1e-3) and
              close(float(r["slat_mean_ns"]), jd["slat_ns"]["mean"], absolute=1e-3),
              "csv %s: latency %r vs %r" % (name, row[10:], lat))
        pct = {float(k): v for k, v in lat.get("percentile", {}).items()}
        for p in PCTS:
            check(int(r["lat_p%s_ns" % p]) == pct.get(float(p), 0),
                  "csv %s: p%s %s vs %s" % (name, p, r["lat_p%s_ns" % p], pct.get(float(p))))
        check(int(r["errors"]) == j["iogauge"]["total_err"] and int(r["error"]) == j["error"],
              "csv %s: errors" % name)
        clones.setdefault(j["jobname"], set()).add((r["clone"], r["clones"]))
    # Two clones of the first job, each its own row; the group's rows are no clone's.
    check(clones.get(ODD) == {("0", "1"), ("1", "1")}, "csv clones: %r" % clones.get(ODD))
    check(clones.get("grouped") == {("", "2")}, "csv group: %r" % clones.get("grouped"))
    return rows


def key(labels, drop=()):
    return tuple(sorted((k, v) for k, v in labels.items() if k not in drop))


def check_openmetrics(text, doc):
    try:
        fams = {f.name: f for f in text_string_to_metric_families(text)}
    except ValueError as e:
        check(False, "openmetrics does not parse: %s" % e)
        return
    check(text.endswith("# EOF\n"), "openmetrics: no # EOF at the end")
    # node_exporter's textfile collector reads Prometheus' older text format,
    # where "# UNIT" and "# EOF" are comments: the same families there.
    try:
        old = {f.name: len(f.samples) for f in text_string_to_metric_families_classic(text)}
    except ValueError as e:
        old = str(e)
    check(old == {n: len(f.samples) for n, f in fams.items()},
          "classic text parser: %r" % (old,))
    host = socket.gethostname()
    byjob = {}
    for j in doc["jobs"]:
        byjob.setdefault(j["jobname"], []).append(j)
    # The JSON's entries with the labels they should carry.
    entries = []
    for name, js in byjob.items():
        for n, j in enumerate(js):
            lab = {"job": name, "group": str(j["groupid"]), "host": host}
            if name == ODD:
                lab["clone"] = str(n)
            entries.append((lab, j))
    units = {"iogauge_bandwidth_bytes_per_second": "bytes_per_second",
             "iogauge_io_bytes": "bytes", "iogauge_runtime_seconds": "seconds",
             "iogauge_latency_seconds": "seconds",
             "iogauge_latency_percentile_seconds": "seconds"}
    for f, u in units.items():
        check(f in fams and fams[f].unit == u and fams[f].documentation,
              "openmetrics %s: unit or help missing" % f)
    gauges = {"iogauge_iops": lambda jd, j: jd["iops"],
              "iogauge_bandwidth_bytes_per_second": lambda jd, j: jd["bw_bytes"],
              "iogauge_io_bytes": lambda jd, j: jd["io_bytes"],
              "iogauge_ios": lambda jd, j: jd["total_ios"],
              "iogauge_runtime_seconds": lambda jd, j: jd["runtime"] / 1000.0}
    for g, want in gauges.items():
        fam = fams.get(g)
        if not check(fam is not None and fam.type == "gauge", "openmetrics: no gauge " + g):
            continue
        got = {key(s.labels): s.value for s in fam.samples}
        n = sum(len(json_dirs(j)) for _, j in entries)
        check(len(got) == n, "openmetrics %s: %d series for %d" % (g, len(got), n))
        for lab, j in entries:
            for d in json_dirs(j):
                k = key(dict(lab, direction=d))
                check(k in got and close(got[k], want(j[d], j)),
                      "openmetrics %s %s: %s vs %s" % (g, k, got.get(k), want(j[d], j)))
    errs = {key(s.labels): s.value for s in fams["iogauge_errors"].samples}
    for lab, j in entries:
        check(errs.get(key(lab)) == j["iogauge"]["total_err"], "openmetrics errors %s" % lab)
    pct = {key(s.labels): s.value for s in fams["iogauge_latency_percentile_seconds"].samples}
    hist = {}
    for s in fams["iogauge_latency_seconds"].samples:
        hist.setdefault(key(s.labels, ("le",)), []).append(s)
    for lab, j in entries:
        for d in json_dirs(j):
            lat = j[d]["lat_ns"]
            jp = {float(k): v for k, v in lat.get("percentile", {}).items()}
            for q, p in (("0.5", 50), ("0.9", 90), ("0.99", 99), ("0.999", 99.9),
                         ("0.9999", 99.99), ("1", None)):
                k = key(dict(lab, direction=d, quantile=q))
                want = (lat["max"] if p is None else jp.get(p, 0)) / 1e9
                check(k in pct and close(pct[k], want), "openmetrics percentile %s: %s vs %s" %
                      (k, pct.get(k), want))
            k = key(dict(lab, direction=d))
            ss = hist.get(k, [])
            buckets = [s for s in ss if s.name.endswith("_bucket")]
            count = [s.value for s in ss if s.name.endswith("_count")]
            total = [s.value for s in ss if s.name.endswith("_sum")]
            les = [float(s.labels["le"]) for s in buckets]
            vals = [s.value for s in buckets]
            check(les and les == sorted(les) and les[-1] == float("inf") and
                  vals == sorted(vals) and count == [vals[-1]] == [lat["N"]],
                  "openmetrics histogram %s: not cumulative to +Inf = _count = N: %r %r" %
                  (k, list(zip(les, vals)), count))
            check(total and close(total[0], lat["mean"] * lat["N"] / 1e9, rel=1e-6, absolute=1e-9),
                  "openmetrics histogram %s: _sum %s vs %s" %
                  (k, total, lat["mean"] * lat["N"] / 1e9))
            # Each bound is 2^k - 1 ns, where a json+ bucket ends: the
            # bins whose middle lies below 2^k are exactly those under it.
            bins = {int(ns): n for ns, n in lat.get("bins", {}).items()}
            for le, v in zip(les[:-1], vals[:-1]):
                lim = round(le * 1e9) + 1
                want = sum(n for ns, n in bins.items() if ns < lim)
                check(v == want, "openmetrics histogram %s le=%s: %s vs json+ %s" %
                      (k, le, v, want))


def main():
    tmp = tempfile.mkdtemp(prefix="iogauge-exports-")
    try:
        with open(os.path.join(tmp, "j.fio"), "w") as f:
            f.write(job_file(tmp))
        p = subprocess.run([BIN, "--output-format=json+,spreadsheet,openmetrics", "j.fio"], cwd=tmp,
                           capture_output=True, text=True, timeout=120)
        if not check(p.returncode == 0, "run: %d %s" % (p.returncode, p.stderr)):
            return
        out = p.stdout
        c = out.find("jobname,group,")
        m = out.find("# TYPE iogauge_")
        check(0 < c < m, "formats out of order: json+ %d, csv %d, openmetrics %d" % (0, c, m))
        doc = json.loads(out[:c])
        check_csv(out[c:m], doc)
        check_openmetrics(out[m:], doc)

        # Each format alone is the same text as in the list.
        for fmt, part in (("spreadsheet", None), ("openmetrics", "# EOF\n")):
            q = subprocess.run([BIN, "--output-format=" + fmt, "j.fio"], cwd=tmp,
                               capture_output=True, text=True, timeout=120)
            check(q.returncode == 0 and (q.stdout.startswith("jobname,") if fmt == "spreadsheet"
                                         else q.stdout.startswith("# TYPE iogauge_iops gauge\n")
                                         and q.stdout.endswith(part)),
                  "--output-format=%s alone: %d %r" % (fmt, q.returncode, q.stdout[:80]))

        # fio 3.33 moves the same I/Os (512 KiB in 4 KiB blocks per clone).
        if shutil.which("fio"):
            rows = list(csv.DictReader(io.StringIO(out[c:m], newline="")))
            f = subprocess.run(["fio", "--output-format=json", "j.fio"], cwd=tmp,
                               capture_output=True, text=True, timeout=120)
            if check(f.returncode == 0, "fio: %s" % f.stderr):
                fd = json.loads(f.stdout[f.stdout.find("{"):])
                fio_ios = {}
                for j in fd["jobs"]:
                    fio_ios[j["jobname"]] = fio_ios.get(j["jobname"], 0) + sum(
                        j[d]["total_ios"] for d in ("read", "write", "trim"))
                ours = {}
                for r in rows:
                    if r["direction"] != "mixed":
                        ours[r["jobname"]] = ours.get(r["jobname"], 0) + int(r["ios"])
                check(ours == fio_ios == {ODD: 256, "grouped": 256},
                      "I/Os per job: iogauge spreadsheet %r, fio json %r" % (ours, fio_ios))
                print("I/Os per job: iogauge spreadsheet %r, fio json %r" % (ours, fio_ios))

        # --output into a textfile collector's folder: the file alone, whole.
        prom = os.path.join(tmp, "textfile", "iogauge.prom")
        os.mkdir(os.path.dirname(prom))
        q = subprocess.run([BIN, "--output-format=openmetrics", "--output=" + prom, "j.fio"],
                           cwd=tmp, capture_output=True, text=True, timeout=120)
        with open(prom) as f:
            text = f.read()
        fams = {m.name for m in text_string_to_metric_families(text)}
        check(q.returncode == 0 and not q.stdout and "iogauge_latency_seconds" in fams and
              os.listdir(os.path.dirname(prom)) == ["iogauge.prom"],
              "--output=%s: %d %r %r" % (prom, q.returncode, q.stderr, sorted(fams)))

        # fio's "csv": terse lines, field for field as fio's own on this job
        # (the figures differ run to run; the names, groups and I/O counts not).
        q = subprocess.run([BIN, "--output-format=csv", "j.fio"], cwd=tmp,
                           capture_output=True, text=True, timeout=120)
        t = subprocess.run([BIN, "--output-format=terse", "j.fio"], cwd=tmp,
                           capture_output=True, text=True, timeout=120)
        ours = [ln.split(";") for ln in q.stdout.splitlines()]
        check(q.returncode == 0 and len(ours) == 3 and
              [ln.split(";")[:5] for ln in t.stdout.splitlines()] == [f[:5] for f in ours],
              "--output-format=csv is not terse: %r" % q.stdout[:300])
        if shutil.which("fio"):
            f = subprocess.run(["fio", "--output-format=csv", "j.fio"], cwd=tmp,
                               capture_output=True, text=True, timeout=120)
            theirs = [ln.split(";") for ln in f.stdout.splitlines() if ln.startswith("3;")]
            pick = [(x[0], x[2], x[3], x[4], len(x)) for x in ours]
            fpick = [(x[0], x[2], x[3], x[4], len(x)) for x in theirs]
            check(f.returncode == 0 and pick == fpick,
                  "--output-format=csv: iogauge %r, fio %r" % (pick, fpick))
            print("--output-format=csv (version;name;group;error;fields): iogauge %r, fio %r" %
                  (pick, fpick))

        # iogauge sqlio takes them after SQLIO's block, as json: one group's row.
        q = subprocess.run([BIN, "sqlio", "-kR", "-s1", "-b4", "--output-format=sqlio,spreadsheet",
                            "f"], cwd=tmp, capture_output=True, text=True, timeout=60)
        rows = list(csv.DictReader(io.StringIO(q.stdout[q.stdout.find("jobname,"):],
                                               newline="")))
        check(q.returncode == 0 and q.stdout.startswith("sqlio v1.5.SG") and
              [(r["jobname"], r["clone"], r["direction"]) for r in rows] ==
              [("sqlio", "", "read"), ("sqlio", "", "write"), ("sqlio", "", "trim")] and
              int(rows[0]["ios"]) > 0,
              "sqlio --output-format=sqlio,spreadsheet: %d %r" % (q.returncode, q.stdout[-400:]))

        # Errors passed over: a sparse 4 MiB file on a 1 MiB tmpfs (mounted
        # here, root only) written with ENOSPC ignored; both exports count
        # them as the JSON does.
        mnt = os.path.join(tmp, "mnt")
        os.mkdir(mnt)
        if os.geteuid() == 0 and not subprocess.run(
                ["mount", "-t", "tmpfs", "-o", "size=1m", "iogauge-exports", mnt]).returncode:
            try:
                path = os.path.join(mnt, "full")
                with open(path, "wb") as f:
                    f.truncate(4 << 20)
                q = subprocess.run([BIN, "--name=w", "--filename=" + path, "--size=4m",
                                    "--rw=write", "--bs=64k", "--ignore_error=,ENOSPC",
                                    "--output-format=json,spreadsheet,openmetrics"],
                                   capture_output=True, text=True, timeout=60)
                c = q.stdout.find("jobname,group,")
                m = q.stdout.find("# TYPE iogauge_")
                want = json.loads(q.stdout[:c])["jobs"][0]["iogauge"]["total_err"]
                rows = list(csv.DictReader(io.StringIO(q.stdout[c:m], newline="")))
                om = {f.name: f for f in text_string_to_metric_families(q.stdout[m:])}
                got = [int(r["errors"]) for r in rows] + [s.value for s in
                                                          om["iogauge_errors"].samples]
                check(q.returncode == 0 and want > 0 and got == [want] * 4,
                      "errors passed over: json %r, spreadsheet and openmetrics %r: %s" %
                      (want, got, q.stderr))
                # Without ignore_error the first ENOSPC ends the job: its errno.
                q = subprocess.run([BIN, "--name=w", "--filename=" + path, "--size=4m",
                                    "--rw=write", "--bs=64k", "--output-format=json,spreadsheet"],
                                   capture_output=True, text=True, timeout=60)
                c = q.stdout.find("jobname,group,")
                want = json.loads(q.stdout[:c])["jobs"][0]["error"] if c > 0 else None
                rows = list(csv.DictReader(io.StringIO(q.stdout[c:], newline="")))
                check(q.returncode == 1 and want == 28 and
                      [int(r["error"]) for r in rows] == [want] * 3,
                      "error: json %r, spreadsheet %r: %d %s" %
                      (want, [r["error"] for r in rows], q.returncode, q.stderr))
            finally:
                subprocess.run(["umount", mnt])
        else:
            print("exports: errors passed over not checked (not root, or no tmpfs mount)")

        # Bad combinations fail as the other formats do: exit 2, nothing run.
        for fmt, words in (("spreadsheet,sqlio", "is the report of 'iogauge sqlio'"),
                           ("openmetrics,sqlio", "is the report of 'iogauge sqlio'"),
                           ("spreadsheet,speadsheet", "did you mean 'spreadsheet'?"),
                           ("openmetrics --status-interval=1", "reads only one document")):
            os.unlink(os.path.join(tmp, "f"))
            q = subprocess.run([BIN, "--output-format=" + fmt.split()[0]] + fmt.split()[1:] +
                               ["j.fio"], cwd=tmp,
                               capture_output=True, text=True, timeout=60)
            check(q.returncode == 2 and words in q.stderr and not q.stdout and
                  not os.path.exists(os.path.join(tmp, "f")),
                  "--output-format=%s: %d %r" % (fmt, q.returncode, q.stderr))
            open(os.path.join(tmp, "f"), "w").close()
    finally:
        shutil.rmtree(tmp)


main()
finish("exports")
