#!/usr/bin/env python3
# The native report's latency histograms: a microsecond row (log-spaced
# buckets, each up to its label) and SQLIO's millisecond row, each over a
# row of percentages that add up to 100 (largest-remainder rounding), in
# aligned columns.  The oracle is the same run's json+ (printed with the
# text by --output-format=normal,json+): its lat_ns bins, summed into the
# microsecond buckets, and its iogauge/histogram_ms counts, rounded the
# same way, give the same rows.
#
# Environment (set by CTest): IOGAUGE_BIN.
import json
import os
import shutil
import subprocess
import tempfile

from clitest import check, finish

BIN = os.path.abspath(os.environ["IOGAUGE_BIN"])
US_HI = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000]


def largest_remainder(counts):
    total = sum(counts)
    if not total:
        return [0] * len(counts)
    pct = [c * 100 // total for c in counts]
    rem = [c * 100 % total for c in counts]
    for _ in range(100 - sum(pct)):
        best = max(range(len(counts)), key=lambda i: (rem[i], -i))
        pct[best] += 1
        rem[best] = 0
    return pct


def us_counts(bins):
    out = [0] * (len(US_HI) + 1)
    for ns, n in bins.items():
        k = 0
        while k < len(US_HI) and int(ns) > US_HI[k] * 1000:
            k += 1
        out[k] += n
    return out


def rows(text, what):
    """[(labels line, shares line)] of every '  WHAT:' row in @text."""
    lines = text.splitlines()
    return [(lines[i], lines[i + 1]) for i in range(len(lines) - 1)
            if lines[i].startswith("  %s:" % what) and lines[i + 1].startswith("  %:")]


def aligned(labels, shares):
    """Each label's column ends where its share ends."""
    def ends(line):
        out, i = [], 0
        while i < len(line):
            if line[i] != " " and (i + 1 == len(line) or line[i + 1] == " "):
                out.append(i)
            i += 1
        return out[1:]  # past the row's name
    return ends(labels) == ends(shares)


def case(name, args, tmp):
    p = subprocess.run([BIN, "--output-format=normal,json+"] + args, cwd=tmp,
                       capture_output=True, text=True)
    if not check(p.returncode == 0, "%s: exit %d: %s" % (name, p.returncode, p.stderr)):
        return
    # fio's order: the JSON document, then the normal report.
    doc, end = json.JSONDecoder().raw_decode(p.stdout, p.stdout.index("{"))
    text = p.stdout[end:]
    job = doc["jobs"][0]
    dirs = [d for d in ("read", "write", "trim", "sync") if job.get(d, {}).get("total_ios")]
    hms = job["iogauge"]["histogram_ms"]
    # The ms row counts total latency: none without it (disable_lat).
    timed = [d for d in dirs if sum(hms.get(d, [0]))]
    us, ms = rows(text, "us"), rows(text, "ms")
    check(len(us) == len(dirs) and len(ms) == len(timed),
          "%s: %d us rows, %d ms rows for %s (%s timed)" % (name, len(us), len(ms), dirs, timed))
    ms = dict(zip(timed, ms))
    for d, (ul, us_row) in zip(dirs, us):
        ml, ms_row = ms.get(d, (None, None))
        for what, labels, shares in (("us", ul, us_row), ("ms", ml, ms_row)):
            if labels is None:
                continue
            got = [int(v) for v in shares.split()[1:]]
            check(sum(got) == 100, "%s %s %s row sums to %d: %r" % (name, d, what, sum(got), shares))
            check(aligned(labels, shares), "%s %s %s columns not aligned:\n%s\n%s" %
                  (name, d, what, labels, shares))
        bins = job[d]["lat_ns"].get("bins") or job[d].get("clat_ns", {}).get("bins", {})
        want = largest_remainder(us_counts(bins))
        check([int(v) for v in us_row.split()[1:]] == want,
              "%s %s us row %s, json+ bins give %s" % (name, d, us_row.split()[1:], want))
        if ms_row:
            want = largest_remainder(hms[d])
            check([int(v) for v in ms_row.split()[1:]] == want,
                  "%s %s ms row %s, histogram_ms gives %s" % (name, d, ms_row.split()[1:], want))
        print("%s %s: us %s" % (name, d, " ".join(us_row.split()[1:])))


def main():
    tmp = tempfile.mkdtemp(prefix="histogram.")
    try:
        f = "--filename=%s/h.dat" % tmp
        case("randread", ["--name=r", f, "--size=8m", "--rw=randread", "--runtime=1"], tmp)
        case("null", ["--name=n", "--ioengine=null", "--size=64m", "--rw=randrw"], tmp)
        # Latencies spread over milliseconds: a sync write each 4 KiB of a
        # file with fsync, and reads beside them.
        case("fsync", ["--name=s", f, "--size=2m", "--rw=randrw", "--fsync=1", "--runtime=1"], tmp)
        # disable_lat: the rows come from clat.
        case("disable_lat", ["--name=c", f, "--size=4m", "--rw=read", "--disable_lat=1"], tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    finish("histogram")


if __name__ == "__main__":
    main()
