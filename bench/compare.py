#!/usr/bin/env python3
"""fio and iogauge side by side, on the same job files (bench/cases/*.fio).

For each case, PAIRS pairs of runs (who goes first alternates), each tool at
its defaults, each writing fio's JSON to a file.  Per run it takes, from the
tool's own JSON, IOPS (read + write + trim) and the total I/O count, and
from wait4()'s rusage of the tool's process (with every child it waited for,
so fio's job processes are included), usr+sys CPU seconds; and the peak
resident set: the largest VmHWM among the tool's processes, polled.
Device-bound cases also compare the clat p50 and p99.

It prints, per case, the median and range of the per-pair ratios
iogauge/fio, and whether the median meets the target in docs/PERFORMANCE.md.
--markdown prints the same as the table that file holds.  The exit status
says only whether every run worked: nothing here asserts a speed.

The data files are made in --dir (random bytes, so reads reach the device)
and removed at the end, with the JSON outputs, unless --keep.

usage: bench/compare.py [--pairs N] [--runtime S] [--cases A,B] [--smoke]
                        [--markdown] [--keep] [--iogauge BIN] [--fio BIN]
                        [--dir DIR]
"""
import argparse
import difflib
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))

# name: (data file, latency compared, targets); a target is (metric, op,
# ratio).  Metrics: iops, cpu (usr+sys s per million I/Os), rss, p50 and p99
# (of clat, or of the fsync latency with "sync").
NULL = [("iops", ">=", 2.0), ("rss", "<=", 1.0)]
CPU = [("iops", ">=", 1.0), ("cpu", "<=", 0.8), ("rss", "<=", 1.0)]
DEV = [("p50", "~", 0.10), ("p99", "~", 0.10)]
CASES = [
    ("null-randread-qd1", None, "clat", NULL),
    ("null-randread-qd32", None, "clat", NULL),
    ("psync-randread-cached", "cached.dat", "clat", CPU),
    ("io_uring-randread-direct-qd32", "direct.dat", "clat", CPU + DEV),
    ("libaio-randread-direct-qd32", "direct.dat", "clat", CPU + DEV),
    ("io_uring-read-1m-direct-qd8", "direct.dat", "clat", CPU + DEV),
    ("psync-write-fsync1", "fsync.dat", "sync", CPU + DEV),
    ("mmap-randread-cached", "cached.dat", "clat", [("iops", ">=", 1.0), ("rss", "<=", 1.0)]),
]
FILES = {"cached.dat": 256 << 20, "direct.dat": 1 << 30, "fsync.dat": 64 << 20}


def make_file(path, size, made):
    """Random (not dedupable, not sparse) data, so reads reach the device."""
    if os.path.exists(path) and os.path.getsize(path) == size:
        return
    made.append(path)
    chunk = 1 << 20
    with open(path, "wb") as f:
        for _ in range(size // chunk):
            f.write(os.urandom(chunk))
        f.flush()
        os.fsync(f.fileno())


def warm(path):
    with open(path, "rb") as f:
        while f.read(1 << 20):
            pass


def disk_of(path):
    """The whole disk under path, as /proc/diskstats names it, or None."""
    st = os.stat(path)
    sysfs = "/sys/dev/block/%d:%d" % (os.major(st.st_dev), os.minor(st.st_dev))
    if not os.path.exists(sysfs):
        return None
    real = os.path.realpath(sysfs)
    if os.path.exists(os.path.join(real, "partition")):
        real = os.path.dirname(real)
    return os.path.basename(real)


def disk_counts(disk):
    """(requests, sectors, ms spent on them) read and written so far."""
    if not disk:
        return (0, 0, 0)
    with open("/proc/diskstats") as f:
        for line in f:
            v = line.split()
            if v[2] == disk:
                return (int(v[3]) + int(v[7]), int(v[5]) + int(v[9]), int(v[6]) + int(v[10]))
    return (0, 0, 0)


def children(pid):
    """The PIDs whose parent is pid (this kernel may lack /proc/PID/task/*/children)."""
    found = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open("/proc/%s/stat" % name) as f:
                    if int(f.read().rsplit(")", 1)[1].split()[1]) == pid:
                        found.append(int(name))
            except (OSError, IndexError, ValueError):
                pass
    return found


def hwm(pid):
    """VmHWM of pid in KiB, or 0 once it is gone."""
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def run(argv, out, env, disk):
    """One run: (json document, cpu seconds, peak RSS in KiB, KiB per
    device request, us the device took per request; 0 without a device).

    CPU is wait4's rusage (fio's job processes included: fio waits for
    them).  Peak RSS is the largest VmHWM among the tool's processes,
    read every 10 ms: wait4's ru_maxrss cannot be used, because a process
    started from this one keeps this Python's resident size as a floor
    through exec (about 16 MiB, above iogauge's own peak)."""
    if os.path.exists(out):
        os.unlink(out)
    d0 = disk_counts(disk)
    p = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    peak, procs, tick = {}, [p.pid], 0
    while True:
        pid, status, ru = os.wait4(p.pid, os.WNOHANG)
        if pid:
            break
        if tick % 20 == 0:
            procs = [p.pid] + children(p.pid)
        for q in procs:
            peak[q] = max(peak.get(q, 0), hwm(q))
        tick += 1
        time.sleep(0.01)
    err = p.stderr.read()
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        sys.exit("%s: exit %d\n%s" % (" ".join(argv), p.returncode, err.decode(errors="replace")))
    d1 = disk_counts(disk)
    with open(out) as f:
        doc = json.load(f)
    reqs = d1[0] - d0[0]
    kib = (d1[1] - d0[1]) / 2 / reqs if reqs else 0
    dev = (d1[2] - d0[2]) * 1e3 / reqs if reqs else 0
    return doc, ru.ru_utime + ru.ru_stime, max(peak.values()), kib, dev


def figures(doc, lat, cpu, rss, kib, dev):
    ios = iops = 0
    pct = None
    for job in doc["jobs"]:
        for d in ("read", "write", "trim"):
            ios += job[d]["total_ios"]
            iops += job[d]["iops"]
            if job[d]["total_ios"] and pct is None:
                pct = job[d]["clat_ns"].get("percentile", {})
        if lat == "sync":
            pct = job["sync"]["lat_ns"].get("percentile", {})
    pct = pct or {}
    return {
        "iops": iops,
        "cpu": cpu / ios * 1e6 if ios else float("nan"),
        "rss": rss,
        "p50": pct.get("50.000000", 0) / 1e3,
        "p99": pct.get("99.000000", 0) / 1e3,
        "kib": kib,
        "dev": dev,
    }


def verdict(target, med):
    metric, op, want = target
    if op == ">=":
        return med >= want, "%s >= %.1f" % (metric, want)
    if op == "<=":
        return med <= want, "%s <= %.1f" % (metric, want)
    return abs(med - 1) <= want, "%s within ±%.0f%%" % (metric, want * 100)


def chosen(ap, arg, flag, noun, names):
    """The names a comma list @arg (empty: all of @names) asks for; an
    unknown one is an argparse error naming @flag, with a did-you-mean."""
    want = arg.split(",") if arg else names
    for n in want:
        if n not in names:
            near = difflib.get_close_matches(n, names, 1)
            ap.error("%s: unknown %s '%s'%s; the %ss are: %s" %
                     (flag, noun, n, "; did you mean '%s'?" % near[0] if near else "", noun,
                      ", ".join(names)))
    return want


def add_common(ap, pairs, runtime_help, noun):
    """The options every bench/ script has: --pairs (default @pairs),
    --runtime, --NOUNs (a comma list), --smoke, --markdown, --iogauge, --fio."""
    ap.add_argument("--pairs", type=int, default=pairs)
    ap.add_argument("--runtime", type=int, default=5, help=runtime_help)
    ap.add_argument("--%ss" % noun, default="", help="comma list (default: all)")
    ap.add_argument("--smoke", action="store_true", help="one pair of 1 s runs per %s" % noun)
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--iogauge", default=os.path.join(HERE, "..", "build", "iogauge"))
    ap.add_argument("--fio", default="fio")


def parse_common(ap, noun, names):
    """(the parsed arguments, the names --NOUNs chose) for options made by
    add_common: --smoke is one pair of 1 s runs."""
    a = ap.parse_args()
    if a.smoke:
        a.pairs, a.runtime = 1, 1
    want = chosen(ap, getattr(a, noun + "s"), "--%ss" % noun, noun, names)
    if a.pairs < 1 or a.runtime < 1:
        ap.error("--pairs and --runtime must be at least 1")
    return a, want


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    add_common(ap, 5, "seconds per run", "case")
    ap.add_argument("--dir", default="/tmp/iogauge-bench", help="where the data files go")
    ap.add_argument("--keep", action="store_true", help="keep the data files and JSON outputs")
    a, want = parse_common(ap, "case", [c[0] for c in CASES])
    made = [] if os.path.isdir(a.dir) else [a.dir]
    os.makedirs(a.dir, exist_ok=True)
    try:
        bench(a, want, made)
    finally:
        if not a.keep:
            for path in reversed(made):
                (os.rmdir if os.path.isdir(path) else os.unlink)(path)


def bench(a, want, made):
    env = dict(os.environ, BENCH_DIR=a.dir, BENCH_RUNTIME=str(a.runtime))
    tools = {"fio": [a.fio], "iogauge": [a.iogauge]}
    ver = subprocess.run([a.fio, "--version"], capture_output=True, text=True).stdout.strip()
    print("# fio: %s; iogauge: %s; %d pairs of %d s; %s" %
          (ver, a.iogauge, a.pairs, a.runtime, time.strftime("%Y-%m-%d %H:%M")), flush=True)
    rows = []
    disk = disk_of(a.dir)
    for name, data, lat, targets in (c for c in CASES if c[0] in want):
        if data:
            make_file(os.path.join(a.dir, data), FILES[data], made)
        job = os.path.join(HERE, "cases", name + ".fio")
        got = {"fio": [], "iogauge": []}
        for i in range(a.pairs):
            order = ["fio", "iogauge"] if i % 2 == 0 else ["iogauge", "fio"]
            for t in order:
                if data and "cached" in data:
                    warm(os.path.join(a.dir, data))
                out = os.path.join(a.dir, "%s.%s.json" % (name, t))
                if out not in made:
                    made.append(out)
                # The device figures only where the device sets the pace.
                r = run(tools[t] + ["--output-format=json", "--output=" + out, job], out, env,
                        disk if targets is not None and any(x[0] == "p50" for x in targets)
                        else None)
                got[t].append(figures(r[0], lat, *r[1:]))
            f, g = got["fio"][-1], got["iogauge"][-1]
            print("%-30s pair %d: IOPS fio %.0f iogauge %.0f; CPU s/MIO fio %.3f iogauge %.3f; "
                  "RSS KiB fio %d iogauge %d; %s p50/p99 us fio %.1f/%.1f iogauge %.1f/%.1f; "
                  "on %s KiB/request fio %.0f iogauge %.0f, us/request fio %.0f iogauge %.0f" %
                  (name, i + 1, f["iops"], g["iops"], f["cpu"], g["cpu"], f["rss"], g["rss"], lat,
                   f["p50"], f["p99"], g["p50"], g["p99"], disk, f["kib"], g["kib"], f["dev"],
                   g["dev"]), flush=True)
        rows.append((name, lat, targets, got))
    report(rows, a.markdown)


def ratios(got, metric):
    return sorted(g[metric] / f[metric] if f[metric] else float("nan")
                  for f, g in zip(got["fio"], got["iogauge"]))


METRICS = [("iops", "IOPS", "%.0f"), ("cpu", "CPU s/MIO", "%.3f"), ("rss", "peak RSS KiB", "%.0f"),
           ("p50", "p50 us", "%.1f"), ("p99", "p99 us", "%.1f"), ("kib", "KiB/request", "%.0f"),
           ("dev", "device us/request", "%.0f")]


def report(rows, markdown):
    """Per case and metric: median ratio [range] (fio median -> iogauge
    median); * marks a missed target."""
    if markdown:
        print("\n| case | " + " | ".join(m[1] for m in METRICS) + " | targets missed |")
        print("|" + "---|" * (len(METRICS) + 2))
    else:
        print("\nmedian iogauge/fio [range] (fio -> iogauge medians); * = target missed")
    for name, lat, targets, got in rows:
        cells, missed = [], []
        for m, _, unit in METRICS:
            if not all(x[m] for x in got["fio"] + got["iogauge"]):
                cells.append("–")  # no device under the file, or no latency to compare
                continue
            r = ratios(got, m)
            med = statistics.median(r)
            mark = ""
            for t in (t for t in targets if t[0] == m):
                ok, what = verdict(t, med)
                if not ok:
                    missed.append(what)
                    mark = "*"
            fm = statistics.median(x[m] for x in got["fio"])
            gm = statistics.median(x[m] for x in got["iogauge"])
            cells.append(("%.3f%s [%.3f–%.3f] (" + unit + " → " + unit + ")") %
                         (med, mark, r[0], r[-1], fm, gm))
        label = name if lat == "clat" else "%s (%s latency)" % (name, lat)
        if markdown:
            print("| %s | %s | %s |" % (label, " | ".join(cells), ", ".join(missed) or "none"))
        else:
            print("%s\n  %s\n  missed: %s" % (label, "\n  ".join(
                "%-12s %s" % (m[1], c) for m, c in zip(METRICS, cells)),
                ", ".join(missed) or "none"))


if __name__ == "__main__":
    main()
