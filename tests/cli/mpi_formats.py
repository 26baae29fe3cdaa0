#!/usr/bin/env python3
# Every output format's per-host and per-rank rows under mpirun (issue 25).
# mpirun -np 4 on this machine, a randrw job of two clones on real files
# (a file per rank and clone), one run asking for terse, json+, CSV and
# OpenMetrics at once and the HTML page beside them, each read by a real
# consumer: the terse lines split on ';', the JSON by json, the CSV by the
# csv module, OpenMetrics by python3-prometheus-client's parser, the page
# by html.parser and, where chromium is installed, by the browser.  In each: the host rows name this host and equal the
# aggregate (one host), the four ranks' rows add up to the aggregate's
# I/Os (KiB in terse, which has no count), each rank did its own share.
# Then without --per-rank: host rows and no rank rows.  mpi_hosts.py runs
# the same with two hosts (LAUNCH and HOSTS set): a row per host, each
# its two ranks' share.
#
# Environment (set by CTest): IOGAUGE_BIN, IOGAUGE_MPI (1: built with MPI;
# otherwise skipped, 77).
import csv
import io
import json
import os
import re
import shutil
import socket
import sys
import tempfile
from html.parser import HTMLParser

from clitest import capture, check, finish, mpirun_env

BIN = os.environ.get("IOGAUGE_BIN", "build/iogauge")
HOST = socket.gethostname()
NP = 4
CLONES = 2
SIZE = 128 * 1024
BS = 4096
ONE = SIZE // BS  # I/Os of one clone: reads and writes together
# mpirun's placement arguments and each rank's host (mpi_hosts.py sets both).
LAUNCH = ["--oversubscribe", "--mca", "btl_vader_single_copy_mechanism", "none"]
HOSTS = [HOST] * NP


def host_names():
    """The distinct hosts, in rank order."""
    return [h for i, h in enumerate(HOSTS) if h not in HOSTS[:i]]


def host_share(h):
    """I/Os of host @h's ranks."""
    return HOSTS.count(h) * CLONES * ONE


def load_om_parser():
    """Debian's python3-prometheus-client, also when python3 is pyenv's."""
    for extra in ([], ["/usr/lib/python3/dist-packages"]):
        sys.path.extend(extra)
        try:
            from prometheus_client.openmetrics import parser
            return parser.text_string_to_metric_families
        except ImportError:
            pass
    return None


def mpirun(args):
    return capture(["mpirun", "-np", str(NP)] + LAUNCH + [BIN] + args, timeout=60,
                   env=mpirun_env())


def job_args(tmp):
    return ["--name=mf", "--ioengine=psync", "--rw=randrw", "--bs=%d" % BS, "--size=%d" % SIZE,
            "--numjobs=%d" % CLONES, "--randseed=7",
            "--filename_format=%s/r$rank.$jobnum.$clonenum" % tmp]


def split(out):
    """The combined report: terse lines, then the JSON document, then the
    CSV, then OpenMetrics (main.c's order)."""
    lines = out.splitlines(keepends=True)
    i = 0
    terse = []
    while i < len(lines) and lines[i].startswith("3;"):
        terse.append(lines[i].rstrip("\n"))
        i += 1
    j = i
    while j < len(lines) and lines[j] != "}\n":
        j += 1
    doc = "".join(lines[i:j + 1])
    k = j + 1
    while k < len(lines) and not lines[k].startswith("# TYPE"):
        k += 1
    return terse, doc, "".join(lines[j + 1:k]), "".join(lines[k:])


def check_terse(terse):
    # v3: read's section is 41 fields from field 5 (KiB first), write's next.
    kib = {}
    for line in terse:
        f = line.split(";")
        kib.setdefault(f[2], 0)
        kib[f[2]] += int(f[5]) + int(f[46])
    alls = kib.pop("All clients", None)
    check(alls == NP * CLONES * SIZE // 1024,
          "terse: All clients moved %s KiB, %d ranks x %d clones x %d" %
          (alls, NP, CLONES, SIZE // 1024))
    for h in host_names():
        got = kib.pop("mf@%s" % h, None)
        want = host_share(h) * BS // 1024
        check(got == want, "terse: host line mf@%s moved %s KiB, its ranks' %d" % (h, got, want))
    want = sorted("mf@%s:%d" % (HOSTS[r], r) for r in range(NP))
    check(sorted(kib) == want, "terse: a line per rank and clone, NAME@HOST:RANK: %s" %
          sorted(kib))
    check(sum(kib.values()) == alls,
          "terse: the ranks' KiB %s add up to All clients' %s" % (sorted(kib.values()), alls))
    lines = CLONES * (len(host_names()) + NP + 1)
    check(len(terse) == lines,
          "terse: %d lines (hosts', ranks', All clients', per clone), not %d" %
          (lines, len(terse)))


def check_json(doc):
    try:
        d = json.loads(doc)
    except ValueError as e:
        check(False, "json+: parses: %s" % e)
        return
    cs = d.get("client_stats", [])
    alls = [e for e in cs if e["jobname"] == "All clients"]
    ranks = [e for e in cs if e["jobname"] != "All clients"]
    ios = lambda e: e["read"]["total_ios"] + e["write"]["total_ios"]
    check(sum(ios(e) for e in alls) == NP * CLONES * ONE,
          "json+: All clients' I/Os %d" % sum(ios(e) for e in alls))
    check(sum(ios(e) for e in ranks) == sum(ios(e) for e in alls),
          "json+: the ranks' entries' I/Os add up to All clients'")
    check(all(e["hostname"] == HOSTS[e["port"]] for e in ranks),
          "json+: every rank's entries name its host, %s" % host_names())
    # iogauge's own per-host entries: each host's ranks' I/Os and bins.
    hs = {h["hostname"]: h for h in d.get("mpi", {}).get("host_stats", [])}
    check(sorted(hs) == sorted(host_names()), "json+: mpi.host_stats of %s" % sorted(hs))
    for h, v in hs.items():
        check(v["ranks"] == HOSTS.count(h) and sum(ios(e) for e in v["jobs"]) == host_share(h),
              "json+: host_stats %s: %d ranks, %d I/Os" % (h, v["ranks"], host_share(h)))
        mine = {}
        for e in ranks:
            if e["hostname"] != h:
                continue
            for k, n in e["write"]["clat_ns"].get("bins", {}).items():
                mine[k] = mine.get(k, 0) + n
        theirs = {}
        for e in v["jobs"]:
            for k, n in e["write"]["clat_ns"].get("bins", {}).items():
                theirs[k] = theirs.get(k, 0) + n
        check(mine == theirs and mine, "json+: host %s's write bins are its ranks' added" % h)
    # fio's json+ carries each client's bins: the ranks' add up to the sum's.
    for dr in ("read", "write"):
        total = {}
        for e in ranks:
            for k, v in e[dr]["clat_ns"].get("bins", {}).items():
                total[k] = total.get(k, 0) + v
        agg = {}
        for e in alls:
            for k, v in e[dr]["clat_ns"].get("bins", {}).items():
                agg[k] = agg.get(k, 0) + v
        check(total == agg and sum(agg.values()) > 0,
              "json+: the ranks' %s clat bins add up to All clients' (%d samples)" %
              (dr, sum(agg.values())))


def check_csv(text, per_rank, what):
    rows = list(csv.DictReader(io.StringIO(text)))
    got = {}
    for r in rows:
        key = (r.get("scope"), r.get("host"), r.get("rank"))
        check(key[0] in ("all", "host", "rank"), "%s: scope %r" % (what, key[0]))
        got[key] = got.get(key, 0) + int(r["ios"])
    alls = got.pop(("all", "", ""), None)
    check(alls == NP * CLONES * ONE, "%s: the aggregate rows' I/Os %s" % (what, alls))
    for h in host_names():
        got_h = got.pop(("host", h, ""), None)
        check(got_h == host_share(h), "%s: host %s's rows' I/Os %s, its ranks' %d" %
              (what, h, got_h, host_share(h)))
    if not per_rank:
        check(not got, "%s: without --per-rank no rank rows: %s" % (what, sorted(got)))
        return
    want = sorted(("rank", HOSTS[r], str(r)) for r in range(NP))
    check(sorted(got) == want, "%s: rows of ranks %s" % (what, sorted(got)))
    check(sum(got.values()) == alls, "%s: the ranks' I/Os %s add up to the aggregate's %s" %
          (what, sorted(got.values()), alls))
    check(all(v == CLONES * ONE for v in got.values()),
          "%s: each rank did its own %d I/Os" % (what, CLONES * ONE))


def check_openmetrics(text, parse):
    if parse is None:
        check(False, "openmetrics: python3-prometheus-client is installed (.ci/setup)")
        return
    try:
        fams = {f.name: f for f in parse(text)}
    except ValueError as e:
        check(False, "openmetrics: parses: %s" % e)
        return
    got = {}
    for s in fams["iogauge_ios"].samples:
        key = (s.labels.get("scope"), s.labels.get("host"), s.labels.get("rank", ""))
        got[key] = got.get(key, 0) + int(s.value)
    alls = got.pop(("all", "", ""), None)
    check(alls == NP * CLONES * ONE, "openmetrics: scope=all iogauge_ios %s" % alls)
    for h in host_names():
        got_h = got.pop(("host", h, ""), None)
        check(got_h == host_share(h), "openmetrics: host=%s scope=host iogauge_ios %s, not %d"
              % (h, got_h, host_share(h)))
    check(sorted(got) == sorted(("rank", HOSTS[r], str(r)) for r in range(NP)),
          "openmetrics: rank= labels %s" % sorted(got))
    check(sum(got.values()) == alls, "openmetrics: the ranks' iogauge_ios add up: %s" %
          sorted(got.values()))
    # The histogram family too: each rank's count, the sum's.
    counts = {}
    for s in fams["iogauge_latency_seconds"].samples:
        if s.name.endswith("_count"):
            k = s.labels.get("rank", s.labels.get("scope"))
            counts[k] = counts.get(k, 0) + int(s.value)
    check(counts.get("all") == sum(counts.get(str(r), 0) for r in range(NP)) == alls,
          "openmetrics: latency histogram counts, ranks' %s, all %s" %
          ([counts.get(str(r)) for r in range(NP)], counts.get("all")))


class Page(HTMLParser):
    """Each total row's I/Os, by the innermost section around it."""

    def __init__(self):
        super().__init__()
        self.stack = []
        self.row = None
        self.totals = []  # (section attrs, ios)
        self.overview = []  # the hosts and ranks table: (scope, ios)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "section":
            self.stack.append(a)
        elif tag == "tr":
            self.row = a.get("data-dir") or "scope:" + a.get("data-scope", "")
        elif tag == "td" and self.row == "total" and a.get("data-k") == "ios":
            self.totals.append((self.stack[-1] if self.stack else {}, int(a["data-v"])))
        elif tag == "td" and (self.row or "").startswith("scope:") and a.get("data-k") == "ios":
            self.overview.append((self.row[6:], int(a["data-v"])))

    def handle_endtag(self, tag):
        if tag == "section" and self.stack:
            self.stack.pop()
        elif tag == "tr":
            self.row = None


# In the browser: each scope section's total I/Os, whether it is laid out.
SCOPES_JS = """Array.from(document.querySelectorAll('section.scope')).map(s => ({
  scope: s.dataset.scope, host: s.dataset.host, rank: s.dataset.rank || '',
  height: s.getBoundingClientRect().height,
  ios: Array.from(s.querySelectorAll('tr[data-dir=total] td[data-k=ios]'))
         .reduce((a, td) => a + Number(td.dataset.v), 0)}))"""


def check_browser(path, want):
    """The page in Debian's chromium (tests/cli/chromium.py), when there:
    no console error, every scope laid out, its I/Os as html.parser read."""
    import chromium
    exe = chromium.find()
    if not exe:
        print("mpi_formats: chromium is not installed: the page is read by html.parser only")
        return
    b = chromium.Browser(exe)
    try:
        b.load("file://" + path)
        got = b.evaluate(SCOPES_JS)
        check(not b.errors(), "chromium: console: %s" % b.errors())
    finally:
        b.close()
    check(all(s["height"] > 0 for s in got), "chromium: every scope section is laid out")
    seen = {}
    for s in got:
        key = (s["scope"], s["host"], s["rank"])
        seen[key] = seen.get(key, 0) + int(s["ios"])
    check(seen == want, "chromium: the scopes' I/Os %s, as html.parser read them %s" %
          (seen, want))


def check_html(path):
    p = Page()
    with open(path, encoding="utf-8") as f:
        p.feed(f.read())
    entries = sum(v for a, v in p.totals if a.get("class") == "entry")
    hosts = {}
    ranks = {}
    for a, v in p.totals:
        if a.get("data-scope") == "host":
            hosts[a["data-host"]] = hosts.get(a["data-host"], 0) + v
        if a.get("data-scope") == "rank":
            check(a.get("data-host") == HOSTS[int(a["data-rank"])], "html: rank %s's host %s" %
                  (a.get("data-rank"), a.get("data-host")))
            ranks[a["data-rank"]] = ranks.get(a["data-rank"], 0) + v
    check(entries == NP * CLONES * ONE, "html: the entries' total rows' I/Os %d" % entries)
    check(hosts == {h: host_share(h) for h in host_names()},
          "html: each host's tables hold its ranks' I/Os: %s" % hosts)
    check(sorted(ranks) == [str(r) for r in range(NP)] and sum(ranks.values()) == entries,
          "html: a section per rank %s, their I/Os adding up to %d" % (ranks, entries))
    over = [v for sc, v in p.overview if sc == "host"], [v for sc, v in p.overview if sc == "rank"]
    check(len(over[0]) == len(host_names()) and sum(over[0]) == entries and
          len(over[1]) == NP and sum(over[1]) == entries,
          "html: the hosts and ranks table, hosts' I/Os %s, ranks' %s" % over)
    want = {("host", h, ""): v for h, v in hosts.items()}
    want.update({("rank", HOSTS[int(r)], r): v for r, v in ranks.items()})
    check_browser(path, want)


def formats(tmp):
    """Both runs, the files in @tmp (each rank's own, on a shared folder)."""
    parse = load_om_parser()
    page = os.path.join(tmp, "report.html")
    st, out, err = mpirun(job_args(tmp) + [
        "--per-rank", "--output-format=terse,json+,spreadsheet,openmetrics",
        "--html=%s" % page])
    check(st == 0, "per-rank run: exit %d: %s" % (st, err.strip()[-500:]))
    terse, doc, text, om = split(out)
    check_terse(terse)
    check_json(doc)
    check_csv(text, True, "csv --per-rank")
    check_openmetrics(om, parse)
    check_html(page)
    st, out, err = mpirun(job_args(tmp) + ["--output-format=spreadsheet"])
    check(st == 0, "host-only run: exit %d: %s" % (st, err.strip()[-500:]))
    check_csv(out, False, "csv")
    # Rank 2's folder cannot be made (a file has its name): it never ran,
    # so its host counts the others.
    gone = os.path.join(tmp, "gone")
    for r in range(NP):
        if r != 2:
            os.makedirs(os.path.join(gone, "d%d" % r))
    open(os.path.join(gone, "d2"), "w").close()
    st, out, err = mpirun(job_args(tmp)[:-1] + [
        "--filename_format=%s/d$rank/f.$jobnum.$clonenum" % gone, "--output-format=json"])
    # Exit 1, rank 2 named.  The report may be missing: when rank 2's
    # failure reaches rank 0 while it still lays out its own files, rank
    # 0's run never started (then it says its layout was interrupted).
    check(st == 1 and "rank 2 (" in err, "rank 2 failed: exit %d: %s" % (st, err[-500:]))
    if "{" in out or "laying out the file: interrupted" not in err:
        doc = json.loads(out[out.index("{"):]) if "{" in out else {}
        hs = doc.get("mpi", {}).get("host_stats", [])
        check(sum(h["ranks"] for h in hs) == NP - 1,
              "rank 2 failed: host_stats ranks %r" % [(h["hostname"], h["ranks"]) for h in hs])


def sqlio(tmp):
    """iogauge sqlio joins the ranks as the job-file path does: SQLIO's
    text once, from rank 0, for every rank's I/Os, then the host table."""
    st, out, err = mpirun(["sqlio", "-kR", "-s1", "-frandom", "-o2", "-b8", "-LS",
                           "--ioengine=null", os.path.join(tmp, "sq.dat")])
    iops = re.findall(r"^IOs/sec: +([0-9.]+)$", out, re.M)
    row = re.search(r"^  (\S+) +(\d+) +(\d+) +0 ", out, re.M)
    check(st == 0 and out.count("CUMULATIVE DATA:") == 1 and
          ("Hosts: %d ranks on" % NP) in out and len(iops) == 1 and row and
          HOSTS[0].startswith(row.group(1)) and int(row.group(2)) == NP and
          abs(int(row.group(3)) - float(iops[0])) <= 1,
          "sqlio under mpirun: exit %d, report %r, %s" % (st, out[-900:], err.strip()[-300:]))


def main():
    if os.environ.get("IOGAUGE_MPI") != "1" or not shutil.which("mpirun"):
        print("mpi_formats: needs a build with MPI (IOGAUGE_WITH_MPI=ON) and mpirun")
        sys.exit(77)
    tmp = tempfile.mkdtemp(prefix="iogauge-mpi-formats-")
    try:
        formats(tmp)
        sqlio(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    finish("mpi_formats")


if __name__ == "__main__":
    main()
