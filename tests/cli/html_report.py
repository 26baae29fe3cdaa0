#!/usr/bin/env python3
# --output-format=html, read by a real browser: Debian's chromium, headless,
# driven over the DevTools protocol (chromium.py).  One run of two jobs (a
# random read/write mix, and a reader whose name is markup) writes its json+
# to standard output and its page to --html=FILE; the page must load with
# nothing in the console, hold every section and plot, fetch nothing, run
# no script, show the markup name as text, give the mix read, write and
# total rows whose figures are the JSON's, fit a phone's width, print, and
# no two text boxes of a plot may overlap.  Then the page alone on
# --output, and the bad combinations (exit 2, nothing run or written).
#
# Environment (set by CTest): IOGAUGE_BIN.  Skips (77) only without chromium.
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from clitest import capture, check, finish, start_running, tmpfs
import chromium

BIN = os.path.abspath(os.environ["IOGAUGE_BIN"])
BROWSER = chromium.find()
if not BROWSER:
    print("html_report: chromium is not installed (.ci/setup installs it); skipped")
    sys.exit(77)

ODD = '<script>alert("x")</script> & \'q\''
PCTS = {"p50": "50.000000", "p90": "90.000000", "p99": "99.000000", "p99.9": "99.900000",
        "p99.99": "99.990000"}


def job_file(tmp):
    return """[global]
directory=%s
size=1m
bs=4k
ioengine=psync
runtime=1
time_based
lat_percentiles=1
percentile_list=50:90:99:99.9:99.99

[mix]
filename=mix.dat
rw=randrw
rwmixread=60
write_hist_log=%s/mix
log_hist_msec=250

[%s]
filename=odd.dat
rw=randread
rate_iops=500
""" % (tmp, tmp, ODD)


# Everything the test reads off the page, in one evaluation.
PAGE_FACTS = r"""(() => {
  const q = s => document.querySelector(s), qa = s => [...document.querySelectorAll(s)];
  const text = e => e ? e.textContent.trim() : null;
  const kv = (table, key) => text(q(table + ' tr[data-key="' + key + '"] td'));
  const overlaps = [];
  qa('.plot').forEach(div => {
    const boxes = [...div.querySelectorAll('svg text')].filter(t => t.textContent.trim())
      .map(t => { const r = t.getBoundingClientRect();
                  return {l: r.left, t: r.top, r: r.right, b: r.bottom, s: t.textContent}; });
    for (let i = 0; i < boxes.length; i++)
      for (let j = i + 1; j < boxes.length; j++) {
        const a = boxes[i], b = boxes[j];
        const w = Math.min(a.r, b.r) - Math.max(a.l, b.l);
        const h = Math.min(a.b, b.b) - Math.max(a.t, b.t);
        if (w > 0.5 && h > 0.5)
          overlaps.push(div.closest('section').id + ' ' + div.dataset.plot + ': "' + a.s + '" and "' + b.s + '"');
      }
  });
  return {
    title: document.title,
    viewport: q('meta[name=viewport]') ? q('meta[name=viewport]').content : null,
    scripts: qa('script').length,
    fetched: performance.getEntriesByType('resource').map(r => r.name),
    external: qa('[src],link,iframe,object,embed,img,image,use').length,
    sections: qa('header[id],section[id]').map(s => s.id),
    entries: qa('section.entry').map(s => ({
      job: s.dataset.job, heading: text(s.querySelector('h2')),
      plots: [...s.querySelectorAll('.plot')].map(p => {
        const svg = p.querySelector('svg'), r = svg ? svg.getBoundingClientRect() : null;
        return {kind: p.dataset.plot, w: r ? r.width : 0, h: r ? r.height : 0,
                series: p.querySelectorAll('polyline.series').length,
                bars: p.querySelectorAll('rect.bar').length,
                bar_v: [...p.querySelectorAll('rect.bar')].map(b => Number(b.dataset.v)),
                cells: [...p.querySelectorAll('rect.cell')].reduce((n, c) => n + Number(c.dataset.n), 0)};
      }),
      rows: [...s.querySelectorAll('table.perf tr[data-dir]')].map(tr => {
        const row = {dir: tr.dataset.dir, shown: {}, v: {}};
        tr.querySelectorAll('td[data-k]').forEach(td => {
          row.shown[td.dataset.k] = td.textContent; row.v[td.dataset.k] = td.dataset.v; });
        return row;
      }),
      cpu: text(s.querySelector('p.cpu')),
      rate: qa('#' + s.id + ' p.rate').map(p => p.dataset.dir + ': ' + p.textContent),
      usr: Number(s.querySelector('p.cpu').dataset.usr), sys: Number(s.querySelector('p.cpu').dataset.sys),
    })),
    host: {host: kv('#host-table', 'host'), cpus: kv('#host-table', 'CPUs'),
           kernel: kv('#host-table', 'kernel'), memory: kv('#host-table', 'memory'),
           cpu: kv('#host-table', 'CPU')},
    places: qa('table.place').map(t => ({path: t.dataset.path,
      fs: text(t.querySelector('tr[data-key="filesystem"] td')),
      opts: text(t.querySelector('tr[data-key="mount options"] td')),
      mounted: text(t.querySelector('tr[data-key="mounted"] td')),
      devices: [...(t.parentElement.nextElementSibling &&
                    t.parentElement.nextElementSibling.querySelector('table.devices') ?
                    t.parentElement.nextElementSibling.querySelectorAll('tr.device') : [])]
                 .map(tr => [...tr.cells].map(c => c.textContent.trim()))})),
    groups: qa('table.groups tr[data-dir]').map(tr => tr.dataset.dir),
    cmdline: text(q('#cmdline')),
    jobfile: text(q('#jobfile-text')),
    resolved: qa('details.resolved').length,
    overlaps: overlaps,
    width: document.documentElement.scrollWidth,
    links: qa('nav a').map(a => a.getAttribute('href')),
    summary: qa('table.summary tr[data-entry]').map(tr => {
      const v = {}; tr.querySelectorAll('td[data-k]').forEach(td => v[td.dataset.k] = td.dataset.v);
      return {link: tr.querySelector('a').getAttribute('href'), name: text(tr.querySelector('a')), v: v}; }),
    group: Object.fromEntries(qa('div[data-group="0"] table.perf tr[data-dir]').map(tr =>
      [tr.dataset.dir, Object.fromEntries([...tr.querySelectorAll('td[data-k]')].map(td => [td.dataset.k, td.dataset.v]))])),
    totals: qa('section.entry').map(s => {
      const v = {}; s.querySelectorAll('table.perf tr[data-dir="total"] td[data-k]').forEach(td => v[td.dataset.k] = td.dataset.v);
      return v; }),
    dangling: qa('nav a').filter(a => !document.getElementById(a.getAttribute('href').slice(1))).length,
  };
})()"""


def findmnt(path, col):
    p = subprocess.run(["findmnt", "-n", "-o", col, "-T", path], capture_output=True, text=True)
    return p.stdout.strip() if p.returncode == 0 else None


def sysfs_disk(path):
    """The sysfs folder of the whole disk under @path, or None (tmpfs)."""
    dev = os.stat(path).st_dev
    d = "/sys/dev/block/%d:%d" % (os.major(dev), os.minor(dev))
    if not os.path.exists(d):
        return None
    d = os.path.realpath(d)
    return os.path.dirname(d) if os.path.exists(d + "/partition") else d


def check_rows(entry, j):
    rows = {r["dir"]: r for r in entry["rows"]}
    check(sorted(rows) == ["read", "total", "write"], "mix: rows read, write, total: %s" % sorted(rows))
    if sorted(rows) != ["read", "total", "write"]:
        return
    for d in ("read", "write"):
        js, v, shown = j[d], rows[d]["v"], rows[d]["shown"]
        lat = js["lat_ns"]
        check(int(v["ios"]) == js["total_ios"], "%s I/Os %s, JSON %s" % (d, v["ios"], js["total_ios"]))
        check(int(v["bytes"]) == js["io_bytes"], "%s bytes %s, JSON %s" % (d, v["bytes"], js["io_bytes"]))
        check(int(v["bw_bytes"]) == js["bw_bytes"],
              "%s bw_bytes %s, JSON %s" % (d, v["bw_bytes"], js["bw_bytes"]))
        check(abs(float(v["iops"]) - js["iops"]) <= 1e-6 * max(1, js["iops"]),
              "%s IOPS %s, JSON %s" % (d, v["iops"], js["iops"]))
        check(shown["iops"] == "%.1f" % js["iops"], "%s IOPS shown %s" % (d, shown["iops"]))
        check(shown["bw_bytes"] == "%.2f" % (js["bw_bytes"] / 1048576),
              "%s MiB/s shown %s, JSON %s B/s" % (d, shown["bw_bytes"], js["bw_bytes"]))
        check(abs(float(v["mean"]) - lat["mean"]) < 0.002,
              "%s lat mean %s, JSON %s" % (d, v["mean"], lat["mean"]))
        check(shown["mean"] == "%.1f" % (float(v["mean"]) / 1000), "%s lat avg shown" % d)
        for k, p in PCTS.items():
            check(float(v[k]) == lat["percentile"][p],
                  "%s %s %s, JSON %s" % (d, k, v[k], lat["percentile"][p]))
        check(float(v["max"]) == lat["max"], "%s max %s, JSON %s" % (d, v["max"], lat["max"]))
    r, w, t = j["read"], j["write"], rows["total"]["v"]
    n = r["total_ios"] + w["total_ios"]
    check(int(t["ios"]) == n, "total I/Os %s, JSON %d" % (t["ios"], n))
    check(int(t["bytes"]) == r["io_bytes"] + w["io_bytes"], "total bytes %s" % t["bytes"])
    check(abs(int(t["bw_bytes"]) - r["bw_bytes"] - w["bw_bytes"]) <= 1, "total bw_bytes %s" % t["bw_bytes"])
    check(abs(float(t["iops"]) - r["iops"] - w["iops"]) < 1e-3, "total IOPS %s" % t["iops"])
    mean = (r["lat_ns"]["mean"] * r["total_ios"] + w["lat_ns"]["mean"] * w["total_ios"]) / n
    check(abs(float(t["mean"]) - mean) < 0.01 * mean, "total lat mean %s, JSON's %.3f" % (t["mean"], mean))
    check(float(t["max"]) == max(r["lat_ns"]["max"], w["lat_ns"]["max"]), "total max %s" % t["max"])
    for k, p in PCTS.items():
        lo = min(r["lat_ns"]["percentile"][p], w["lat_ns"]["percentile"][p])
        hi = max(r["lat_ns"]["percentile"][p], w["lat_ns"]["percentile"][p])
        check(lo <= float(t[k]) <= hi, "total %s %s outside read's and write's [%d, %d]" % (k, t[k], lo, hi))


def check_page(f, j, tmp, page, shots):
    check(not f["scripts"], "the page has %d <script> elements" % f["scripts"])
    check(not f["fetched"] and not f["external"],
          "the page fetches %s (%d elements with a source)" % (f["fetched"], f["external"]))
    check(f["viewport"] and "width=device-width" in f["viewport"], "viewport meta: %s" % f["viewport"])
    for s in ("top", "summary", "host", "storage", "entry-1", "entry-2", "groups", "disks", "jobfile", "options"):
        check(s in f["sections"], "section %s in %s" % (s, f["sections"]))
    check(len(f["entries"]) == 2, "2 entries: %d" % len(f["entries"]))
    if len(f["entries"]) != 2:
        return
    mix, odd = f["entries"]
    check(mix["job"] == "mix", "entry 1 is mix: %s" % mix["job"])
    check(odd["job"] == ODD and odd["heading"].startswith(ODD),
          "the markup name comes out as text: %r, %r" % (odd["job"], odd["heading"]))
    check(ODD in f["title"] or f["title"] == "iogauge report: mix", "title %r" % f["title"])
    with open(page) as fh:
        raw = fh.read()
    check("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &apos;q&apos;" in raw,
          "the markup name is escaped in the file")
    kinds = {p["kind"]: p for p in mix["plots"]}
    for k in ("cdf", "iops", "bw", "lat-read", "lat-write", "heat-read", "heat-write", "ms"):
        p = kinds.get(k)
        check(p and p["w"] > 100 and p["h"] > 100, "mix: plot %s drawn: %s" % (k, p))
    check(kinds.get("iops", {}).get("series") == 2, "mix: IOPS plot has read and write lines")
    check(kinds.get("lat-read", {}).get("bars", 0) > 0, "mix: read latency bars")
    check(kinds.get("cdf", {}).get("series") == 2, "mix: the CDF has read and write")
    check([p["kind"] for p in odd["plots"]] == ["cdf", "iops", "bw", "lat-read", "ms"],
          "reader's plots: %s" % [p["kind"] for p in odd["plots"]])
    check_rows(mix, j["jobs"][0])
    check(not mix["rate"] and len(odd["rate"]) == 1 and odd["rate"][0].startswith("read: read rate: target 500 IOPS, achieved "),
          "the rate cap's line: %s, %s" % (mix["rate"], odd["rate"]))
    # The heat maps hold every I/O of their direction; the bars are SQLIO's histogram.
    jm = j["jobs"][0]
    for d in ("read", "write"):
        got = kinds.get("heat-" + d, {}).get("cells")
        check(got == jm[d]["total_ios"], "mix: %s heat map holds %s I/Os, JSON %d" % (d, got, jm[d]["total_ios"]))
    ms = [a + b for a, b in zip(jm["iogauge"]["histogram_ms"]["read"], jm["iogauge"]["histogram_ms"]["write"])]
    n = jm["read"]["total_ios"] + jm["write"]["total_ios"]
    want = [round(100.0 * c / n, 1) for c in ms]
    got = [round(v, 1) for v in kinds.get("ms", {}).get("bar_v", [])]
    check(got == want, "mix: ms bars %s, JSON's histogram_ms %s" % (got, want))
    check("heat-read" not in [p["kind"] for p in odd["plots"]], "no heat map without write_hist_log")
    check(mix["cpu"] and mix["cpu"].startswith("CPU: usr "), "mix: CPU line %r" % mix["cpu"])
    cpu = j["jobs"][0]
    check(abs(mix["usr"] - cpu["usr_cpu"]) < 1e-5 and abs(mix["sys"] - cpu["sys_cpu"]) < 1e-5,
          "mix: CPU usr %s sys %s, JSON %s %s" % (mix["usr"], mix["sys"], cpu["usr_cpu"], cpu["sys_cpu"]))
    check(not f["overlaps"], "text boxes overlap: %s" % f["overlaps"][:6])
    # The header: the machine as Python sees it.
    u = os.uname()
    check(f["host"]["host"] == u.nodename, "host %s" % f["host"]["host"])
    check(u.release in (f["host"]["kernel"] or ""), "kernel %s" % f["host"]["kernel"])
    online, conf = os.sysconf("SC_NPROCESSORS_ONLN"), os.sysconf("SC_NPROCESSORS_CONF")
    want = str(online) if online == conf else "%d online of %d" % (online, conf)
    check(f["host"]["cpus"] == want, "CPUs %s, sysconf %s" % (f["host"]["cpus"], want))
    with open("/proc/meminfo") as fh:
        kib = next(l.split()[1] for l in fh if l.startswith("MemTotal:"))
    check((f["host"]["memory"] or "").endswith("(%s KiB)" % kib), "memory %s, MemTotal %s kB" % (f["host"]["memory"], kib))
    with open("/proc/cpuinfo") as fh:
        model = next((l.split(":", 1)[1].strip() for l in fh if l.startswith("model name")), None)
    check(model is None or f["host"]["cpu"] == model, "CPU %r, cpuinfo %r" % (f["host"]["cpu"], model))
    places = {p["path"]: p for p in f["places"]}
    for name in ("mix.dat", "odd.dat"):
        path = os.path.join(tmp, name)
        p = places.get(path)
        check(p is not None, "storage: %s in %s" % (path, list(places)))
        if not p:
            continue
        check(p["fs"] == findmnt(path, "FSTYPE"), "%s: filesystem %s, findmnt %s" % (name, p["fs"], findmnt(path, "FSTYPE")))
        check(p["opts"] == findmnt(path, "VFS-OPTIONS"),
              "%s: mount options %s, findmnt %s" % (name, p["opts"], findmnt(path, "VFS-OPTIONS")))
        disk = sysfs_disk(path)
        if disk:
            with open(disk + "/queue/logical_block_size") as fh:
                lbs = fh.read().strip()
            row = p["devices"][0] if p["devices"] else []
            check(row[:1] == ["/dev/" + os.path.basename(disk)] and row[7:8] == [lbs],
                  "%s: device row %s, sysfs %s logical block %s" % (name, row, disk, lbs))
        else:
            check(not p["devices"], "%s: no block device, none listed" % name)
    check(f["groups"][:3] == ["read", "write", "total"], "group rows %s" % f["groups"])
    check("--html=" + page in (f["cmdline"] or ""), "command line %r" % f["cmdline"])
    check("rw=randrw" in (f["jobfile"] or "") and "[mix]" in f["jobfile"], "jobs as written")
    check(f["resolved"] == 2, "jobs as resolved: %d" % f["resolved"])
    check([(r["link"], r["name"]) for r in f["summary"]] == [("#entry-1", "mix"), ("#entry-2", ODD)]
          and [r["v"] for r in f["summary"]] == f["totals"],
          "summary rows are the entries' total rows: %s" % f["summary"])
    # Group 0 holds both jobs: its table is theirs together.
    g, jobs = f["group"], j["jobs"]
    for d in ("read", "write"):
        want = sum(x[d]["total_ios"] for x in jobs)
        check(g.get(d) and int(g[d]["ios"]) == want, "group 0 %s I/Os %s, JSON %d" % (d, g.get(d), want))
    want = max(x[d]["lat_ns"]["max"] for x in jobs for d in ("read", "write"))
    check(g.get("total") and float(g["total"]["max"]) == want, "group 0 max %s, JSON %d" % (g.get("total"), want))
    check(len(f["links"]) == 9 and not f["dangling"] and all(h.startswith("#") for h in f["links"]),
          "contents: %s, %d dangling" % (f["links"], f["dangling"]))


# The one browser of the test: launched while the first run runs.
TAB = None


def read_page(page):
    TAB.viewport(1100, 800)
    TAB.load("file://" + page)
    return TAB.evaluate(PAGE_FACTS)


def device_rows(tmp, dev, tag):
    """The storage section's device rows of a run reading block device @dev."""
    page = os.path.join(tmp, tag + ".html")
    rc, out, err = capture([BIN, "--name=" + tag, "--filename=" + dev, "--rw=read", "--size=256k",
                            "--direct=1", "--output-format=html", "--output=" + page])
    check(rc == 0, "%s: exit %d: %s" % (tag, rc, err))
    if rc:
        return []
    f = read_page(page)
    return f["places"][0]["devices"] if f["places"] else []


def spaced_mount(tmp):
    """As root: a tmpfs of 1 MiB mounted on a folder whose name has a space
    (mountinfo writes it \\040): the page names the mount whole, and no block
    device.  The job writes 2 MiB there: its ENOSPC, with file and offset, is
    on the page too, and the run exits 1; then the full tmpfs cannot take a
    page."""
    if os.geteuid() != 0:
        return
    mnt = os.path.join(tmp, "mount point")
    os.mkdir(mnt)
    with tmpfs(mnt, "1m", "iogauge html") as ok:
        if not check(ok, "tmpfs mount on %r" % mnt):
            return
        page = os.path.join(tmp, "spaced.html")
        path = os.path.join(mnt, "f")
        rc, out, err = capture([BIN, "--name=sp", "--filename=" + path, "--size=2m", "--rw=write",
                                "--fallocate=none", "--output-format=html", "--output=" + page])
        check(rc == 1 and "No space left on device" in err, "spaced: exit %d: %s" % (rc, err))
        with open(page) as fh:
            text = fh.read()
        check(any("No space left on device" in line and path in line and "offset" in line
                  and '<p class="warn">' in line for line in text.splitlines()),
              "spaced: the ENOSPC is on the page")
        f = read_page(page)
        p = f["places"][0] if f["places"] else {}
        check(p.get("fs") == "tmpfs" and p.get("mounted") == "iogauge html on " + mnt and not p.get("devices"),
              "spaced: %s" % p)
        # The tmpfs is full now: a page that cannot be written is exit 1,
        # naming --html's file and the errno, the text report still out, no
        # temporary left.
        full = os.path.join(mnt, "page.html")
        rc, out, err = capture([BIN, "--name=fu", "--filename=" + os.path.join(tmp, "fu.dat"), "--size=64k",
                                "--rw=read", "--html=" + full])
        check(rc == 1 and "--html=%s: the report is not written: No space left on device" % full in err
              and "[fu]" in out and not os.path.exists(full) and not [n for n in os.listdir(mnt) if "iogauge" in n],
              "a full filesystem under --html: exit %d, %r, %s" % (rc, err, os.listdir(mnt)))


def stacked(tmp):
    """As root: a loop device of 4 KiB sectors, and a device-mapper device
    on it where the kernel has device-mapper, each read through; the page's
    device rows must be sysfs's (size, block sizes), dm's first with the
    loop device below it.  Skipped otherwise, with a line saying so."""
    if os.geteuid() != 0 or not shutil.which("losetup"):
        print("html_report: not root or no losetup: block devices are not checked")
        return
    backing = os.path.join(tmp, "backing.img")
    with open(backing, "wb") as fh:
        fh.truncate(8 << 20)
    p = subprocess.run(["losetup", "--find", "--show", "--sector-size", "4096", backing],
                       capture_output=True, text=True)
    if p.returncode:
        print("html_report: no loop device (%s): block devices are not checked" % p.stderr.strip())
        return
    loop = p.stdout.strip()
    name = "iogauge-html-%d" % os.getpid()
    try:
        rows = device_rows(tmp, loop, "loop")
        check([r[:2] + r[7:9] for r in rows] == [[loop, "0.01 GiB", "4096", "4096"]],
              "loop: its row, 8 MiB, 4 KiB blocks: %s" % rows)
        if not shutil.which("dmsetup") or not os.path.exists("/dev/mapper/control"):
            print("html_report: no device-mapper here: the stacked device is not checked")
            return
        p = subprocess.run(["dmsetup", "create", name, "--table", "0 16384 linear %s 0" % loop],
                           capture_output=True, text=True)
        if p.returncode:
            print("html_report: dmsetup create failed (%s): not checked" % p.stderr.strip().splitlines()[0])
            return
        try:
            subprocess.run(["udevadm", "settle"], capture_output=True)
            dev = "/dev/mapper/" + name
            dm = os.path.basename(os.path.realpath(dev))
            rows = device_rows(tmp, dev, "dm")
            check(len(rows) == 2 and rows[0][0] == "/dev/%s (%s)" % (dm, name)
                  and rows[1][0].endswith(loop), "dm: %s on %s: %s" % (dm, loop, rows))
            check(all(r[7:9] == ["4096", "4096"] for r in rows), "dm: 4 KiB blocks: %s" % rows)
        finally:
            subprocess.run(["dmsetup", "remove", name], capture_output=True)
    finally:
        subprocess.run(["losetup", "-d", loop], capture_output=True)


def sqlio_start(tmp):
    """iogauge sqlio --html, a 1 s run started in the background."""
    sq = os.path.join(tmp, "sqlio.dat")
    with open(sq, "wb") as fh:
        fh.write(os.urandom(1 << 20))
    spage = os.path.join(tmp, "sqlio.html")
    p = subprocess.Popen([BIN, "sqlio", "-kR", "-s1", "-b4", "-BY", "--html=" + spage, sq],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return p, sq, spage


def sqlio_check(p, sq, spage):
    """SQLIO's report on standard output, the page with its millisecond bars
    beside it; sqlio,html without --html is refused."""
    out, err = p.communicate(timeout=60)
    with open(spage) if os.path.exists(spage) else open(os.devnull) as fh:
        text = fh.read()
    check(p.returncode == 0 and out.startswith("sqlio v1.5.SG") and 'data-plot="ms"' in text
          and " sqlio -kR -s1 -b4 -BY --html=" in text, "iogauge sqlio --html: exit %d: %s" % (p.returncode, err))
    rc, out, err = capture([BIN, "sqlio", "-kR", "-s1", "--output-format=sqlio,html", sq])
    check(rc == 2 and out == "" and "--html=FILE" in err, "iogauge sqlio sqlio,html: exit %d, %r" % (rc, err))


def main():
    global TAB
    tmp = tempfile.mkdtemp(prefix="iogauge-html-")
    try:
        jf = os.path.join(tmp, "jobs.fio")
        with open(jf, "w") as fh:
            fh.write(job_file(tmp))
        page = os.path.join(tmp, "page.html")
        run = subprocess.Popen([BIN, "--output-format=json+", "--html=" + page, jf],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        TAB = b = chromium.Browser(BROWSER)
        out, err = run.communicate(timeout=60)
        check(run.returncode == 0, "run: exit %d: %s" % (run.returncode, err))
        j = json.loads(out)
        sq = sqlio_start(tmp)
        try:
            b.load("file://" + page)
            f = b.evaluate(PAGE_FACTS)
            check(not b.errors(), "console: %s" % b.errors())
            check_page(f, j, tmp, page, tmp)
            png = b.screenshot(os.path.join(tmp, "page.png"))
            check(png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 20000, "screenshot: %d bytes" % len(png))
            check(b.pdf()[:5] == b"%PDF-", "printed to PDF")
            # On paper: nothing hidden in a scroll box, the folded options shown.
            b.call("Emulation.setEmulatedMedia", {"media": "print"})
            pr = b.evaluate("""(() => ({
              overflow: getComputedStyle(document.querySelector('.scroll')).overflowX,
              folded: document.querySelector('details.resolved pre').getBoundingClientRect().height}))()""")
            check(pr["overflow"] == "visible" and pr["folded"] > 100, "print: %s" % pr)
            b.call("Emulation.setEmulatedMedia", {"media": ""})
            # A phone: the page scrolls down only; tables scroll inside their boxes.
            b.viewport(390, 800, mobile=True)
            b.load("file://" + page)
            w = b.evaluate("document.documentElement.scrollWidth")
            check(w <= 390, "on a 390 px phone the page is %d px wide" % w)
            check(not b.errors(), "console on a phone: %s" % b.errors())
        finally:
            sqlio_check(*sq)
        # The page alone goes to --output, whole.
        alone = os.path.join(tmp, "alone.html")
        rc, out, err = capture([BIN, "--name=a", "--filename=" + os.path.join(tmp, "a.dat"),
                                "--size=64k", "--rw=write", "--verify=crc32c", "--output-format=html",
                                "--output=" + alone])
        with open(alone) as fh:
            text = fh.read()
        check(rc == 0 and out == "" and text.startswith("<!DOCTYPE html>") and text.endswith("</html>\n"),
              "--output-format=html --output: exit %d, %d bytes" % (rc, len(text)))
        check('<p class="verify">verify=crc32c: 16 blocks (0.06 MiB) read back and checked, 0 mismatched</p>'
              in text, "the verify pass is told")
        stacked(tmp)
        spaced_mount(tmp)
        # Many entries: every table, the plots of the first 32 only.
        rc, out, err = capture([BIN, "--name=many", "--ioengine=null", "--size=16k", "--numjobs=33",
                                "--thread", "--output-format=html"])
        check(rc == 0 and out.count('<section class="entry"') == 33 and out.count('data-plot="iops"') == 32
              and 'id="plots-cut"' in out, "33 entries: exit %d, %d sections, %d with plots" %
              (rc, out.count('<section class="entry"'), out.count('data-plot="iops"')))
        # Ctrl-C: the run stops within half a second and the page still comes,
        # saying so; no temporary is left beside it.
        stopped = os.path.join(tmp, "stopped.html")
        p = start_running([BIN, "--eta=always", "--eta-interval=250ms", "--name=long",
                           "--filename=" + os.path.join(tmp, "long.dat"), "--size=1m", "--rw=randread",
                           "--time_based", "--runtime=60", "--html=" + stopped],
                          os.path.join(tmp, "long.err"))
        t0 = time.monotonic()
        p.send_signal(signal.SIGINT)
        p.communicate(timeout=30)
        took = time.monotonic() - t0
        check(p.returncode == 130 and took < 0.5, "Ctrl-C: exit %d after %.2f s" % (p.returncode, took))
        with open(stopped) as fh:
            text = fh.read()
        check('id="interrupted"' in text and text.endswith("</html>\n"), "Ctrl-C: the page says interrupted")
        check(not [n for n in os.listdir(tmp) if "iogauge-" in n], "Ctrl-C: a temporary left: %s" % os.listdir(tmp))
        # Bad input: exit 2, nothing run, nothing written.
        data = os.path.join(tmp, "never.dat")
        for extra, what in ((["--output-format=normal,html"], "other formats"),
                            (["--output-format=html", "--status-interval=1"], "status-interval"),
                            (["--html=" + os.path.join(tmp, "no", "p.html")], "folder"),
                            (["--html=" + os.path.join(tmp, "r"), "--output=" + os.path.join(tmp, "r")],
                             "same file")):
            rc, out, err = capture([BIN, "--name=a", "--filename=" + data, "--size=64k", "--rw=write"] + extra)
            check(rc == 2 and out == "" and not os.path.exists(data) and "html" in err,
                  "%s: exit %d, %r" % (what, rc, err))
    finally:
        if TAB:
            TAB.close()
        shutil.rmtree(tmp, ignore_errors=True)
    finish("html_report")


main()
