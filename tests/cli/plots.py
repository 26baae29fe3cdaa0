#!/usr/bin/env python3
# The --plot SVGs of a real run (a file, psync, reads, writes and fsyncs,
# the histogram log kept), read back by Python's xml.etree: every file
# parses, no two texts' boxes (data-box) intersect, the latency CDF's
# steps equal the same run's json+ percentiles within a bucket, the heat
# maps' cells add up to the I/Os of each direction and, window by window,
# to the histogram log file's lines, the millisecond bars are the json+
# histogram_ms counts in percent and, under iogauge sqlio, SQLIO's "%:"
# row before rounding.  A group_reporting group of two clones has one
# heat map holding every I/O of the group.  The default job's plots
# (jobs/default.ini, scaled down) have no overlapping text either.  Where
# Chromium is installed, it draws the plots and each text's real box must
# lie within its data-box.
#
# Environment (set by CTest): IOGAUGE_BIN, IOGAUGE_SRC.
import json
import os
import re
import shutil
import subprocess
import tempfile
import xml.etree.ElementTree as ET

from clitest import capture, check, finish

BIN = os.path.abspath(os.environ["IOGAUGE_BIN"])
SRC = os.environ.get("IOGAUGE_SRC", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
NS = "{http://www.w3.org/2000/svg}"


def boxes_apart(name, root):
    """Every <text> has a data-box; no two intersect."""
    texts = list(root.iter(NS + "text"))
    boxes = []
    for t in texts:
        b = t.get("data-box")
        if not check(b is not None, "%s: a text without data-box: %r" % (name, t.text)):
            return
        boxes.append([float(v) for v in b.split()] + ["".join(t.itertext())])
    hits = [(a[4], b[4]) for i, a in enumerate(boxes) for b in boxes[:i]
            if a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]]
    check(not hits and len(texts) > 5, "%s: %d texts, overlapping: %s" % (name, len(texts), hits[:5]))


BOXES_JS = """
let n = 0, out = [];
for (const t of document.querySelectorAll('text[data-box]')) {
  const [x, y, w, h] = t.dataset.box.split(' ').map(Number);
  const r = t.getBoundingClientRect(), s = t.ownerSVGElement.getBoundingClientRect();
  const bx = r.left - s.left, by = r.top - s.top;
  const over = Math.max(x - bx, bx + r.width - (x + w), y - by, by + r.height - (y + h));
  n++;
  if (over > 1) out.push(t.textContent + ': box ' + [x, y, w, h].join(' ') + ', drawn ' +
                         [bx, by, r.width, r.height].map(v => v.toFixed(1)).join(' '));
}
document.getElementById('result').textContent = 'texts ' + n + '\\n' + out.join('\\n');
"""


def browser_boxes(tmp, files):
    """The SVGs drawn by Chromium: each text's real box lies within its
    data-box (so boxes that do not intersect mean texts that do not)."""
    chromium = shutil.which("chromium")
    if not chromium:
        print("chromium not installed: the boxes are not checked against a browser's")
        return
    page = os.path.join(tmp, "boxes.html")
    with open(page, "w") as f:
        f.write("<!DOCTYPE html><html><body>")
        for n in files:
            f.write(open(n).read().split("?>", 1)[1])
        f.write('<pre id="result"></pre><script>%s</script></body></html>' % BOXES_JS)
    try:
        rc, out, err = capture([chromium, "--headless", "--no-sandbox", "--disable-gpu",
                                "--user-data-dir=" + os.path.join(tmp, "chromium"), "--dump-dom",
                                "file://" + page], timeout=40)
    except subprocess.TimeoutExpired:
        check(False, "chromium: no page after 40 s")
        return
    m = re.search(r'<pre id="result">texts (\d+)\n?(.*?)</pre>', out, re.S)
    if check(rc == 0 and m, "chromium: exit %d, no result: %s" % (rc, err[-300:])):
        if check(int(m.group(1)) > 50 and not m.group(2).strip(),
                 "chromium: %s texts, drawn outside their data-box:\n%s" % (m.group(1), m.group(2))):
            print("chromium: %s texts, each drawn within its data-box" % m.group(1))


def check_cdf(root, job):
    series = {p.get("data-name"): p for p in root.iter(NS + "polyline") if p.get("class") == "series"}
    check(sorted(series) == ["read", "sync", "write"], "cdf: series %s" % sorted(series))
    for d, p in series.items():
        stats = job[d]["lat_ns"] if d == "sync" else job[d]["clat_ns"]
        ps = [float(v) for v in p.get("data-p").split()]
        ns = [int(v) for v in p.get("data-ns").split()]
        check(len(ps) == len(ns) and ps == sorted(ps) and abs(ps[-1] - 100) < 1e-6 and ns[-1] == stats["max"],
              "cdf %s: steps up to 100%% and max %d: %s %s" % (d, stats["max"], ps[-3:], ns[-3:]))
        worst = 0
        for key, want in stats["percentile"].items():
            got = next(n for q, n in zip(ps, ns) if q >= float(key) - 1e-6)
            worst = max(worst, abs(got - want) / want)
            check(abs(got - want) <= want / 64 + 2,
                  "cdf %s: p%s is %d, json+ says %d" % (d, key, got, want))
        print("cdf %s: %d steps, %d percentiles within %.2f%% of json+" %
              (d, len(ps), len(stats["percentile"]), 100 * worst))


def check_heat(name, root, job, d, hist_log):
    """The cells add up to the direction's I/Os, and column by column to
    the histogram log file's lines (time, ddir, bs, bins...)."""
    cells = [c for c in root.iter(NS + "rect") if c.get("class") == "cell"]
    n = sum(int(c.get("data-n")) for c in cells)
    ts = sorted({int(c.get("data-t")) for c in cells})
    check(n == job[d]["total_ios"] and len(ts) >= 4,
          "%s: %d cells of %d I/Os in %d columns; json+ %d I/Os" % (name, len(cells), n, len(ts), job[d]["total_ios"]))
    cols, logged = {}, {}
    for c in cells:
        cols[int(c.get("data-t"))] = cols.get(int(c.get("data-t")), 0) + int(c.get("data-n"))
    for line in open(hist_log):
        f = [int(v) for v in line.split(",")]
        if f[1] == ("read", "write").index(d) and sum(f[3:]):
            logged[f[0]] = logged.get(f[0], 0) + sum(f[3:])
    check(cols == logged, "%s: columns %s, the log file's windows %s" % (name, cols, logged))
    print("%s: %d cells, %d I/Os, %d windows as in %s" % (name, len(cells), n, len(ts),
                                                          os.path.basename(hist_log)))


def check_bars(root, job):
    bars = [b for b in root.iter(NS + "rect") if b.get("class") == "bar"]
    ms = [r + w for r, w in zip(job["iogauge"]["histogram_ms"]["read"], job["iogauge"]["histogram_ms"]["write"])]
    total = sum(ms)
    labels = [b.get("data-label") for b in bars]
    check(labels == [str(i) for i in range(24)] + ["24+"], "ms: labels %s" % labels)
    got = [float(b.get("data-v")) for b in bars]
    want = [100 * c / total for c in ms]
    check(len(got) == 25 and all(abs(g - w) <= 0.051 for g, w in zip(got, want)),
          "ms: bars %s, json+ histogram_ms %s" % (got, ms))
    print("ms: bars %s" % got[:4])


def main():
    tmp = tempfile.mkdtemp(prefix="iogauge-plots-")
    try:
        jobfile = os.path.join(tmp, "p.fio")
        with open(jobfile, "w") as f:
            f.write("[a]\nfilename=%s/data\nsize=8m\nrw=randrw\nbs=4k\nruntime=1\ntime_based\n"
                    "fsync=16\nwrite_hist_log=%s/h\nlog_hist_msec=200\n" % (tmp, tmp))
        d = os.path.join(tmp, "plots")
        rc, out, err = capture([BIN, "--plot", d, "--output-format=json+", jobfile])
        if not check(rc == 0, "run: exit %d %s" % (rc, err)):
            return
        job = json.loads(out)["jobs"][0]
        names = sorted(os.listdir(d))
        want = ["a.1_%s.svg" % k for k in ["bw", "cdf", "heat-read", "heat-write", "iops", "lat-read",
                                           "lat-sync", "lat-write", "ms"]]
        check(names == want, "files %s" % names)
        for n in names:
            try:
                root = ET.parse(os.path.join(d, n)).getroot()
            except ET.ParseError as e:
                check(False, "%s is not well-formed: %s" % (n, e))
                continue
            check(root.tag == NS + "svg", "%s: root is <svg>" % n)
            boxes_apart(n, root)
            if n == "a.1_cdf.svg":
                check_cdf(root, job)
            elif "_heat-" in n:
                check_heat(n, root, job, n.split("-")[1][:-4], os.path.join(tmp, "h_clat_hist.1.log"))
            elif n == "a.1_ms.svg":
                check_bars(root, job)
            elif n == "a.1_lat-read.svg":
                marks = [g.get("data-p") for g in root.iter(NS + "g") if g.get("class") == "pct"]
                check(len(marks) == 17, "lat-read: fio's 17 percentiles: %s" % marks)
        browser_boxes(tmp, [os.path.join(d, n) for n in names])
        # A group of two clones (group_reporting): one heat map, the
        # clones' windows summed, every I/O of the group in it.
        d = os.path.join(tmp, "group")
        rc, out, err = capture([BIN, "--plot", d, "--output-format=json", "--name=g", "--ioengine=null",
                                "--size=64m", "--rw=randread", "--runtime=1", "--time_based",
                                "--numjobs=2", "--group_reporting", "--write_hist_log=" + os.path.join(tmp, "g"),
                                "--log_hist_msec=250"])
        if check(rc == 0 and os.path.exists(os.path.join(d, "g.1_heat-read.svg")),
                 "group: exit %d %s %s" % (rc, err, os.listdir(d) if os.path.isdir(d) else None)):
            job = json.loads(out)["jobs"][0]
            cells = [c for c in ET.parse(os.path.join(d, "g.1_heat-read.svg")).getroot().iter(NS + "rect")
                     if c.get("class") == "cell"]
            n = sum(int(c.get("data-n")) for c in cells)
            check(n == job["read"]["total_ios"] and not os.path.exists(os.path.join(d, "g.2_heat-read.svg")),
                  "group: the heat map holds %d I/Os, the group %d" % (n, job["read"]["total_ios"]))
            print("group of 2 clones: one heat map of %d I/Os, %d cells" % (n, len(cells)))
        # iogauge sqlio --plot: the bars are SQLIO's "%:" row, unrounded.
        d = os.path.join(tmp, "sqlio")
        rc, out, err = capture([BIN, "sqlio", "-kR", "-s1", "-LS", "-frandom", "-b4",
                                os.path.join(tmp, "data"), "--plot=" + d])
        row = [ln for ln in out.splitlines() if ln.startswith("%:")]
        if check(rc == 0 and row and os.path.exists(os.path.join(d, "sqlio.1_ms.svg")),
                 "sqlio --plot: exit %d %s %s" % (rc, err, os.listdir(d) if os.path.isdir(d) else None)):
            sq = [int(v) for v in row[0][2:].split()]
            bars = [float(b.get("data-v")) for b in ET.parse(os.path.join(d, "sqlio.1_ms.svg")).getroot().iter(NS + "rect")
                    if b.get("class") == "bar"]
            check(len(bars) == 25 and all(abs(b - q) <= 0.55 for b, q in zip(bars, sq)),
                  "sqlio --plot: bars %s, SQLIO's row %s" % (bars, sq))
            print("sqlio: bars %s, SQLIO's %%: row %s" % (bars[:3], sq[:3]))
        # The default job (jobs/default.ini), a second a job: nothing overlaps.
        d = os.path.join(tmp, "default")
        rc, out, err = capture([BIN, "--plot", d, "--set", "size=16m", "--set", "runtime=1",
                                os.path.join(SRC, "jobs", "default.ini")], cwd=tmp)
        if check(rc == 0, "default.ini: exit %d %s" % (rc, err)):
            names = sorted(os.listdir(d))
            check("randread-4k.1_lat-read.svg" in names and "seqwrite-64k.2_cdf.svg" in names,
                  "default.ini: files %s" % names)
            for n in names:
                boxes_apart("default.ini " + n, ET.parse(os.path.join(d, n)).getroot())
    finally:
        shutil.rmtree(tmp)


main()
finish("plots")
