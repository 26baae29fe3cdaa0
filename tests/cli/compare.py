#!/usr/bin/env python3
# iogauge compare on pairs with a known answer: the same rate-capped job
# run twice ("same"), the job against itself with rate_iops halved
# ("slower", ratio 0.5 within 2%), folders of repeated runs (bootstrap,
# ratio 0.75), fio 3.33's own json+ of the same job read as A or B; the
# JSON output parsed, with the text table's rows; the HTML page read by
# html.parser: the text table's cells, each job's latency CDFs (the json+
# percentiles within a bucket), nothing from outside; bad input (a missing file, a non-JSON file, reports
# of different jobs, a report without percentiles) exits 2 naming the
# file, with nothing written.
#
# Environment (set by CTest): IOGAUGE_BIN.
import html.parser
import json
import os
import shutil
import subprocess
import sys
import tempfile

from clitest import check, finish

BIN = os.path.abspath(os.environ["IOGAUGE_BIN"])
FIO = shutil.which("fio")


def run_job(tool, out, rate, runtime="2", name="j", extra=()):
    """A rate-capped random read of 16 MiB on the null engine (no device
    to vary, little CPU), its json+ into @out."""
    args = [tool, "--name=" + name, "--ioengine=null", "--size=16m", "--rw=randread",
            "--rate_iops=%d" % rate, "--runtime=" + runtime, "--time_based",
            "--output-format=json+", "--output=" + out] + list(extra)
    p = subprocess.run(args, capture_output=True, text=True)
    check(p.returncode == 0, "%s: exit %d: %s" % (" ".join(args), p.returncode, p.stderr))


def steady(path, rate):
    """Whether the run in @path kept to its rate: IOPS within 1% of it and,
    with two windows or more, a spread of under 5% (a loaded machine may
    starve a run, and then the two runs really differ)."""
    r = json.load(open(path))["jobs"][0]["read"]
    ok = abs(r["iops"] - rate) <= 0.01 * rate and (r["iops_samples"] < 2 or
                                                   r["iops_stddev"] < 0.05 * r["iops_mean"])
    if not ok:
        print("note: %s did not keep to %d IOPS (%.1f, windows %.1f +- %.1f): the machine is "
              "loaded; its verdict is not checked" % (path, rate, r["iops"], r["iops_mean"],
                                                      r["iops_stddev"]))
    return ok


def mean_iops(*paths):
    return sum(json.load(open(p))["jobs"][0]["read"]["iops"] for p in paths) / len(paths)


def compare(*args):
    p = subprocess.run([BIN, "compare"] + list(args), capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def text_tables(out):
    """The text output's tables: for each, its rows as lists of the ten
    columns, cut where the header's words start."""
    tables, cols = [], None
    for line in out.splitlines():
        if line.startswith("job "):
            cols = [line.index(w) for w in ("job", "dir", "metric", "unit", " A ", " B ", "change",
                                            "95% interval", "verdict", "how")]
            cols = [c + 1 if c and line[c] == " " else c for c in cols]
            tables.append([])
        elif cols and line.strip():
            tables[-1].append([line[a:b].strip() for a, b in zip(cols, cols[1:] + [None])])
        else:
            cols = None
    return tables


class Page(html.parser.HTMLParser):
    """What the HTML page holds: its tables' cells, the CDF figures and
    their series, and what would fetch from elsewhere or run."""

    def __init__(self):
        super().__init__()
        self.tables, self.figures, self.outside, self.stack = [], [], [], []
        self.cell = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag in ("script", "link", "iframe", "img", "object"):
            self.outside.append(tag)
        for k in ("src", "href"):
            if k in a:
                self.outside.append("%s=%s" % (k, a[k]))
        if tag == "table":
            self.tables.append([])
        elif tag == "tr" and self.tables:
            self.tables[-1].append([])
        elif tag == "td":
            self.cell = ""
        elif tag == "figure":
            self.figures.append({"job": a.get("data-job"), "dir": a.get("data-direction"),
                                 "series": {}})
        elif tag == "polyline" and a.get("class") == "series" and self.figures:
            self.figures[-1]["series"][a["data-name"]] = (
                [float(v) for v in a["data-p"].split()], [int(v) for v in a["data-ns"].split()])
        if tag not in ("meta", "br"):
            self.stack.append(tag)

    def handle_endtag(self, tag):
        if tag == "td" and self.cell is not None:
            self.tables[-1][-1].append(self.cell)
            self.cell = None
        check(self.stack and self.stack[-1] == tag,
              "html: </%s> closes %s" % (tag, self.stack[-1:] or "nothing"))
        if self.stack and self.stack[-1] == tag:
            self.stack.pop()

    def handle_data(self, data):
        if self.cell is not None:
            self.cell += data


def check_page(paths, comps, text):
    """The HTML page of @paths: the text table's cells, a CDF per job and
    direction with a series per side (all json+ here), nothing from outside."""
    rc, out, err = compare("--output-format=html", *paths)
    if not check(rc == 0 and out.startswith("<!DOCTYPE html>"), "html %s: exit %d %s" % (paths, rc, err)):
        return
    page = Page()
    page.feed(out)
    page.close()
    check(not page.outside, "html: refers outside or runs: %s" % page.outside)
    check(page.stack == [], "html: unclosed %s" % page.stack)
    got = [[r for r in t if r] for t in page.tables]
    check(got == text, "html: tables differ from the text's:\n%s\n%s" % (got, text))
    sides = [chr(ord("A") + i) for i in range(len(paths))]
    want = sorted({(r["job"], r["direction"]) for r in comps[0]["rows"]})
    check(sorted((f["job"], f["dir"]) for f in page.figures) == want,
          "html: figures %s, want %s" % ([(f["job"], f["dir"]) for f in page.figures], want))
    for f in page.figures:
        check(sorted(f["series"]) == sides, "html: %s %s series %s" % (f["job"], f["dir"], sorted(f["series"])))
        for name, (ps, ns) in f["series"].items():
            check(ps and abs(ps[-1] - 100) < 1e-6 and ns == sorted(ns),
                  "html: %s %s %s: steps %s" % (f["job"], f["dir"], name, ps[-3:]))
        # A single report's curve is its json+ percentiles, within a
        # bucket: iogauge's, and fio's as fio computed them.
        for side, path in zip(sides, paths):
            if not os.path.isfile(path) or side not in f["series"]:
                continue
            ps, ns = f["series"][side]
            text = open(path).read()
            job = [j for j in json.loads(text[text.index("{"):])["jobs"] if j["jobname"] == f["job"]][0]
            for key, v in job[f["dir"]]["clat_ns"]["percentile"].items():
                k = next(i for i, q in enumerate(ps) if q >= float(key) - 1e-6)
                # Where p/100 * N is a whole rank, fio (long double) may
                # take the next I/O: the next step then is fio's.
                got = ns[k:k + 2] if abs(ps[k] - float(key)) < 1e-6 else ns[k:k + 1]
                check(any(abs(n - v) <= v / 64 + 2 for n in got), "html: %s (%s) %s p%s %s, json+ %d" %
                      (side, path, f["dir"], key, got, v))


def rows(*paths):
    rc, out, err = compare("--output-format=json", *paths)
    check(rc == 0, "compare %s: exit %d: %s" % (paths, rc, err))
    try:
        doc = json.loads(out)
    except ValueError:
        check(False, "compare %s: not JSON: %r" % (paths, out[:200]))
        return []
    # The JSON has the text table's rows: same jobs, metrics, figures, verdicts.
    rc, out, err = compare(*paths)
    text = text_tables(out)
    check(len(text) == len(doc["comparisons"]), "text %s: %d tables, json %d" %
          (paths, len(text), len(doc["comparisons"])))
    for t, c in zip(text, doc["comparisons"]):
        check(len(t) == len(c["rows"]), "text %s: %d rows, json %d" % (paths, len(t), len(c["rows"])))
        for tr, jr in zip(t, c["rows"]):
            dec = 2 if jr["unit"] in ("us", "MiB/s") else 1
            want = [jr["job"], jr["direction"], jr["metric"], jr["unit"], "%.*f" % (dec, jr["a"]),
                    "%.*f" % (dec, jr["b"]), "%+.1f%%" % jr["change_pct"]]
            check(tr[:7] == want and tr[8:] == [jr["verdict"], jr["method"]],
                  "text %s: row %s, json %s" % (paths, tr, jr))
    check_page(paths, doc["comparisons"], text)
    return doc["comparisons"]


def row(comp, metric, direction="read"):
    for r in comp["rows"]:
        if r["metric"] == metric and r["direction"] == direction:
            return r
    check(False, "no %s %s row in %s" % (direction, metric, [r["metric"] for r in comp["rows"]]))
    return {"verdict": None, "ratio": 0, "method": ""}


def bad(what, args, names, tmp):
    """@args must exit 2 naming each of @names, and leave no --output file."""
    out = os.path.join(tmp, "never.txt")
    rc, so, err = compare("--output=" + out, *args)
    check(rc == 2, "%s: exit %d, want 2 (%s)" % (what, rc, err))
    for n in names:
        check(n in err, "%s: the message does not name %s: %r" % (what, n, err))
    check(not os.path.exists(out), "%s: %s was written" % (what, out))
    check(so == "", "%s: printed %r" % (what, so))


def main():
    tmp = tempfile.mkdtemp(prefix="compare.")
    try:
        a1, a2, b = (os.path.join(tmp, n) for n in ("a1.json", "a2.json", "b.json"))
        # 4 s: 8 windows of samples, enough for an interval within 5%.
        run_job(BIN, a1, 2000, runtime="4")
        run_job(BIN, a2, 2000, runtime="4")
        run_job(BIN, b, 1000)

        # The same job twice: its IOPS and bandwidth are the same.
        (c,) = rows(a1, a2)
        for m in ("IOPS", "bandwidth"):
            r = row(c, m)
            if steady(a1, 2000) and steady(a2, 2000):
                check(r["verdict"] == "same", "A vs A again: %s %s, want same (%s)" %
                      (m, r["verdict"], r))
            check(r["method"] == "per-window samples", "A vs A again: %s by %s" % (m, r["method"]))
        check(abs(row(c, "IOPS")["ratio"] - mean_iops(a2) / mean_iops(a1)) < 1e-5,
              "A vs A again: IOPS ratio %s, the files' %s" % (row(c, "IOPS")["ratio"],
                                                           mean_iops(a2) / mean_iops(a1)))
        # The job against itself: every ratio is 1, the rank row 50%.
        (c,) = rows(a1, a1)
        for r in c["rows"]:
            check(abs(r["ratio"] - 1) < 1e-9, "A vs A: %s ratio %s" % (r["metric"], r["ratio"]))
        # Its interval is its own windows' spread: "same" when it kept its rate.
        check(not steady(a1, 2000) or row(c, "IOPS")["verdict"] == "same",
              "A vs A: IOPS %s" % row(c, "IOPS"))
        check(abs(row(c, "P(B slower)")["b"] - 50) < 1e-6, "A vs A: P(B slower) %s" %
              row(c, "P(B slower)"))
        # rate_iops halved: slower, by half.
        (c,) = rows(a1, b)
        kept = steady(a1, 2000) and steady(b, 1000)
        for m in ("IOPS", "bandwidth"):
            r = row(c, m)
            check(r["verdict"] == "slower", "rate halved: %s %s, want slower" % (m, r["verdict"]))
            check(not kept or abs(r["ratio"] - 0.5) <= 0.01,
                  "rate halved: %s ratio %.4f, want 0.5 within 2%%" % (m, r["ratio"]))
            check(r["ratio_low"] <= r["ratio"] <= r["ratio_high"],
                  "rate halved: %s interval [%s, %s] misses %s" %
                  (m, r["ratio_low"], r["ratio_high"], r["ratio"]))
        for m in ("clat p50", "clat p90", "clat p99", "clat p99.9"):
            check(row(c, m)["method"] == "json+ bins, order statistics",
                  "%s by %s" % (m, row(c, m)["method"]))
        # Without json+ bins the HTML page says so where the curve would be.
        nobins = os.path.join(tmp, "nobins.json")
        doc = json.load(open(b))
        del doc["jobs"][0]["read"]["clat_ns"]["bins"]
        json.dump(doc, open(nobins, "w"))
        rc, out, err = compare("--output-format=html", a1, nobins)
        check(rc == 0 and "<svg" not in out and "no latency bins in every report" in out,
              "html without json+: exit %d %s" % (rc, err))
        # Three comparisons against one A: one table each.
        comps = rows(a1, a2, b)
        check([x["b"] for x in comps] == [a2, b], "A B C: %s" % [x["b"] for x in comps])

        # Folders of repeated runs: the bootstrap, 1500 against 2000.
        fa, fb = os.path.join(tmp, "A"), os.path.join(tmp, "B")
        os.mkdir(fa)
        os.mkdir(fb)
        for i in range(3):
            run_job(BIN, os.path.join(fa, "%d.json" % i), 2000, runtime="1")
            run_job(BIN, os.path.join(fb, "%d.json" % i), 1500, runtime="1")
        (c,) = rows(fa, fb)
        r = row(c, "IOPS")
        check(r["method"] == "bootstrap over runs", "folders: IOPS by %s" % r["method"])
        check(r["verdict"] == "slower", "folders: IOPS %s, want slower" % r["verdict"])
        runs_a = [os.path.join(fa, "%d.json" % i) for i in range(3)]
        runs_b = [os.path.join(fb, "%d.json" % i) for i in range(3)]
        check(abs(r["ratio"] - mean_iops(*runs_b) / mean_iops(*runs_a)) < 1e-5,
              "folders: IOPS ratio %s, the files' %s" % (r["ratio"],
                                                      mean_iops(*runs_b) / mean_iops(*runs_a)))
        if all(steady(p, 2000) for p in runs_a) and all(steady(p, 1500) for p in runs_b):
            check(abs(r["ratio"] - 0.75) <= 0.015,
                  "folders: IOPS ratio %.4f, want 0.75 within 2%%" % r["ratio"])
        (c,) = rows(fa, b)
        check(row(c, "IOPS")["method"] == "spread of runs",
              "folder vs file: IOPS by %s" % row(c, "IOPS")["method"])

        # fio's own json+ of the same job, read as B.
        if FIO:
            f = os.path.join(tmp, "fio.json")
            run_job(FIO, f, 2000, runtime="4")
            (c,) = rows(a1, f)
            r = row(c, "IOPS")
            if steady(a1, 2000) and steady(f, 2000):
                check(r["verdict"] == "same", "iogauge vs fio: IOPS %s, want same (%s)" %
                      (r["verdict"], r))
            check(len([x for x in c["rows"] if x["direction"] == "read"]) == 8,
                  "iogauge vs fio: %d read rows, want 8" % len(c["rows"]))
        else:
            print("fio not installed: its JSON not read")

        # The text table: a header and a row per metric, columns aligned.
        rc, out, err = compare(a1, b)
        check(rc == 0 and "95% interval" in out, "text: exit %d, %r" % (rc, out[:200]))
        lines = [l for l in out.splitlines() if l.startswith("j ")]
        check(len(lines) == 8, "text: %d rows, want 8: %r" % (len(lines), out))
        check(len({l.index("read") for l in lines}) == 1, "text: columns not aligned: %r" % lines)
        check(any("slower" in l and l.split()[2] == "IOPS" for l in lines), "text: %r" % lines)
        # --output: the file, nothing on standard output.
        dest = os.path.join(tmp, "cmp.txt")
        rc, so, err = compare("--output=" + dest, a1, b)
        check(rc == 0 and so == "" and open(dest).read() == out,
              "--output: exit %d, stdout %r" % (rc, so))

        # Bad input: exit 2, each bad one named, nothing written.
        notjson = os.path.join(tmp, "notjson.json")
        with open(notjson, "w") as fh:
            fh.write("[global]\nrw=read\n")
        other = os.path.join(tmp, "other.json")
        run_job(BIN, other, 2000, runtime="1", name="k")
        nopct = os.path.join(tmp, "nopct.json")
        run_job(BIN, nopct, 2000, runtime="1", extra=["--clat_percentiles=0"])
        missing = os.path.join(tmp, "missing.json")
        bad("a missing file", [a1, missing], [missing], tmp)
        bad("html, a missing file", ["--output-format=html", a1, missing], [missing], tmp)
        bad("an unknown format", ["--output-format=xml", a1, b], ["--output-format=xml"], tmp)
        bad("not JSON", [a1, notjson], [notjson, "not a JSON report"], tmp)
        bad("two bad at once", [missing, notjson], [missing, notjson], tmp)
        bad("different jobs", [a1, other], [other, "not runs of the same jobs"], tmp)
        bad("no percentiles", [a1, nopct], [nopct, "percentile"], tmp)
        bad("one report", [a1], ["two reports"], tmp)
        bad("unknown flag", ["--bogus", a1, b], ["--bogus"], tmp)
        bad("bad threshold", ["--threshold=x", a1, b], ["--threshold=x"], tmp)
        bad("empty folder", [a1, tmp + "/A/../B/../empty"], ["empty"], tmp)
        os.mkdir(os.path.join(tmp, "mixed"))
        shutil.copy(a1, os.path.join(tmp, "mixed", "1.json"))
        shutil.copy(other, os.path.join(tmp, "mixed", "2.json"))
        bad("a folder of different jobs", [a1, os.path.join(tmp, "mixed")], ["2.json"], tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    finish("compare")


if __name__ == "__main__":
    main()
