#!/usr/bin/env python3
"""fio and iogauge side by side on a throttled block device: is what the
sweep and slo tests see of blk-throttle the kernel's, or the tool's?

The device is the one tests/cli/sweep.py's device part uses: a loop device
over a file on a tmpfs mounted in a temporary folder, its reads capped at
--cap IOPS (2000) by a cgroup v1 blkio group that both tools run in.  All
of it is made here and removed at the end (also on an error, Ctrl-C or
SIGTERM).  Must be run as root.

Every case is the same command line for both tools, the sweep test's job:
  --readonly --name=CASE --filename=DEV --rw=randread --bs=4k --direct=1
  --ioengine=libaio --ramp_time=200ms --time_based --runtime=R
plus --iodepth=D (closed loop: each depth of --depths at each runtime of
--runtimes), then the open loop: --iodepth=16 --rate_iops=RATE (--rate,
2300) at each runtime.  For each case, --pairs pairs of runs (who goes
first alternates); fio's JSON from each.  Per run it also reads the
cgroup's own count of reads it let through (blkio.throttle.io_serviced,
before and after): the kernel's count, which neither tool computes, over
the run's wall time including start-up, ramp and exit.

What it found (kernel 6.18, HZ=250, 2 CPUs, loads of 4 to 7, 2026-12):
  - blk-throttle hands out its budget a slice (100 ms here: the loop
    device is "rotational") at a time, all of it at the slice's start: at
    depth 1 a burst of 200 reads, then nothing for ~95 ms.  A closed loop
    therefore has no service time and saturates at depth 1.
  - fio ends ramp_time at the first I/O after it, so its measured time
    starts at a burst: 1976-2046 (99-102%) at depths 1, 4 and 16 for 0.5 s,
    1 s and 3 s runs.  iogauge ended the ramp by the clock, so its time
    began in the idle gap before a burst: 1598-2076 (80-104%) in the same
    runs (qd4 0.5 s: median 1788; qd1 1 s: 1824).  iogauge now ends the
    ramp as fio does (src/run/worker.c, ramp_over): 1958-2056 (98-103%).
  - The open loop at 2300/s through the 2000 cap is the kernel's: with 0.5 s
    idle before each run, fio read 2253-2295 in 4 of 12 half-second runs
    and iogauge 2334 in 2 of 6 (the cgroup's own count agrees: 1566 reads
    in 0.7 s, not 1400); at 1 s both read 2008-2019.  A new slice starts
    with a slice's budget, and an idle gap shorter than the slice's life
    (a process that starts in 70 ms, as iogauge's runs do back to back,
    not one that starts in 400 ms, as fio's) is credited as well: with no
    gap, iogauge's half-second open loops read 2248-2294 in 3 of 4.

It prints per case each tool's IOPS (median and range, and as a % of the
cap) and the median of the per-pair ratios iogauge/fio.  Nothing here
asserts a speed.  Exit status: 0 when every run worked, 1 when one failed,
2 for bad arguments, 77 when it cannot run here (not root, no cgroup v1
blkio, no tmpfs or loop device).

usage: bench/throttle.py [--pairs N] [--cap IOPS] [--depths 1,4,16]
                         [--runtimes 0.5,1,3] [--rate IOPS] [--gap S]
                         [--markdown] [--smoke] [--slowdev BIN]
                         [--iogauge BIN] [--fio BIN]
(--slowdev: the device is tests/slowdev.c's file under a loop device with
direct I/O instead, 10 ms a read on 20 slots, 2000 IOPS, not throttled;
depths 10, 20, 40, 80 unless --depths, no open loop.  "fio bw/4k" is
fio's bandwidth in reads per second: fio's IOPS count the reads issued
after the ramp, its bandwidth the reads completed.)
(--smoke: one pair of 0.2 s runs at depth 1 and of the open loop, so that
the harness cannot rot: CTest's bench_throttle_smoke.)
(--depths= with nothing: the open loop alone; --gap: seconds idle before
each run, 0 by default.)
"""
import argparse
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

SKIP = 77
BLKIO = "/sys/fs/cgroup/blkio"
HERE = os.path.dirname(os.path.abspath(__file__))


class Unavailable(Exception):
    """The device cannot be made here: the run is skipped, not failed."""


class RunFailed(Exception):
    pass


def put(path, text):
    with open(path, "w") as f:
        f.write(text)


def sh(argv):
    """Runs a set-up command: its stdout, or RunFailed with its stderr."""
    p = subprocess.run(argv, capture_output=True, text=True)
    if p.returncode:
        raise RunFailed("%s: exit %d: %s" % (" ".join(argv), p.returncode, p.stderr.strip()))
    return p.stdout.strip()


def mount_slowdev(slowdev, mnt, undo):
    """tests/slowdev.c's /img (10 ms a read on average, 20 slots) on @mnt."""
    srv = subprocess.Popen([slowdev, mnt, "32", "10000", "20"], stderr=subprocess.DEVNULL)
    RUNNING.append(srv)
    img = os.path.join(mnt, "img")
    end = time.monotonic() + 10
    while not os.path.exists(img) and srv.poll() is None and time.monotonic() < end:
        time.sleep(0.02)
    if not os.path.exists(img):
        srv.kill()
        srv.wait()
        RUNNING.remove(srv)
        raise Unavailable("%s did not mount" % slowdev)

    def down():
        if subprocess.run(["umount", mnt]).returncode:
            srv.kill()
        srv.wait()
        RUNNING.remove(srv)
    undo.append(down)
    return img


def make_device(cap, undo, slowdev=None):
    """(loop device, MAJ:MIN, cgroup folder): 32 MiB over tmpfs, reads
    capped at @cap/s for the processes in the cgroup; or, with @slowdev,
    over tests/slowdev.c's file with direct I/O, not capped (the cgroup
    only counts).  Each step pushes its undoing onto @undo."""
    if os.geteuid() != 0:
        raise Unavailable("not root")
    if not os.path.isdir(BLKIO):
        raise Unavailable("no cgroup v1 blkio at %s" % BLKIO)
    mnt = tempfile.mkdtemp(prefix="iogauge-throttle-")
    undo.append(lambda: os.rmdir(mnt))
    if slowdev:
        img = mount_slowdev(slowdev, mnt, undo)
    else:
        try:
            sh(["mount", "-t", "tmpfs", "-o", "size=40m", "iogauge-throttle", mnt])
        except RunFailed as e:
            raise Unavailable("no tmpfs: %s" % e)
        undo.append(lambda: sh(["umount", mnt]))
        img = os.path.join(mnt, "img")
        with open(img, "wb") as f:
            f.truncate(32 << 20)
    try:
        dev = sh(["losetup", "-f", "--show"] + (["--direct-io=on", "-r"] if slowdev else []) +
                 [img])
    except RunFailed as e:
        raise Unavailable("no loop device: %s" % e)
    undo.append(lambda: sh(["losetup", "-d", dev]))
    with open("/sys/block/%s/dev" % os.path.basename(dev)) as f:
        majmin = f.read().strip()
    cg = os.path.join(BLKIO, "iogauge-throttle-%d" % os.getpid())
    os.mkdir(cg)
    undo.append(lambda: os.rmdir(cg))
    if not slowdev:
        put(os.path.join(cg, "blkio.throttle.read_iops_device"), "%s %d\n" % (majmin, cap))
    return dev, majmin, cg


def serviced(cg, majmin):
    """The reads the cgroup's throttle has let through to @majmin so far."""
    with open(os.path.join(cg, "blkio.throttle.io_serviced")) as f:
        for line in f:
            w = line.split()
            if len(w) == 3 and w[0] == majmin and w[1] == "Read":
                return int(w[2])
    return 0


RUNNING = []  # the process running now, for the clean-up to stop


def run(argv, cg, majmin):
    """(fio's JSON of @argv run in the cgroup, reads the kernel let through,
    wall s).  RunFailed if it exits non-zero."""
    before = serviced(cg, majmin)
    t0 = time.monotonic()
    p = subprocess.Popen(["sh", "-c", 'echo $$ > %s/cgroup.procs && exec "$@"' % cg, "sh"] +
                         argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    RUNNING.append(p)
    out, err = p.communicate()
    RUNNING.remove(p)
    wall = time.monotonic() - t0
    if p.returncode:
        raise RunFailed("%s: exit %d\n%s" % (" ".join(argv), p.returncode, err))
    # fio may print notes before its JSON.
    doc = json.loads(out[out.index("{"):])
    return doc, serviced(cg, majmin) - before, wall


def figures(doc, kernel, wall):
    if len(doc["jobs"]) != 1:
        raise RunFailed("%d jobs in the JSON, wanted 1" % len(doc["jobs"]))
    r = doc["jobs"][0]["read"]
    return {"iops": r["iops"], "ios": r["total_ios"], "kernel": kernel, "wall": wall,
            "bw_ios": r["bw_bytes"] / 4096,
            "p99": r["clat_ns"].get("percentile", {}).get("99.000000", 0) / 1e6}


def cases(a):
    out = []
    for rt in a.runtimes:
        for d in a.depths:
            out.append(("qd%d %gs" % (d, rt), ["--iodepth=%d" % d, "--runtime=%dms" % round(rt * 1000)], rt))
        if a.slowdev:
            continue  # over its capacity an open loop only queues
        out.append(("rate %d qd16 %gs" % (a.rate, rt),
                    ["--iodepth=16", "--rate_iops=%d" % a.rate, "--runtime=%dms" % round(rt * 1000)], rt))
    return out


def bench(a, dev, majmin, cg):
    common = ["--readonly", "--output-format=json", "--filename=" + dev, "--rw=randread",
              "--bs=4k", "--direct=1", "--ioengine=libaio", "--ramp_time=200ms",
              "--time_based"]
    tools = {"fio": a.fio, "iogauge": a.iogauge}
    rows = []
    for name, opts, rt in cases(a):
        got = {"fio": [], "iogauge": []}
        for i in range(a.pairs):
            order = ("fio", "iogauge") if i % 2 == 0 else ("iogauge", "fio")
            for t in order:
                time.sleep(a.gap)
                argv = [tools[t], "--name=" + name.replace(" ", "-")] + common + opts
                got[t].append(figures(*run(argv, cg, majmin)))
        rows.append((name, rt, got))
        f, g = got["fio"], got["iogauge"]
        print("# %-18s fio %s  iogauge %s" % (name, " ".join("%.0f" % x["iops"] for x in f),
                                              " ".join("%.0f" % x["iops"] for x in g)),
              flush=True)
    return rows


def spread(vals, cap):
    m = statistics.median(vals)
    return "%5.0f [%4.0f-%4.0f] %3.0f%%" % (m, min(vals), max(vals), 100 * m / cap)


def report(rows, a):
    head = ("case", "fio IOPS median [range] %cap", "iogauge IOPS median [range] %cap",
            "ratio ig/fio", "kernel/s fio", "kernel/s ig", "fio bw/4k")
    if a.markdown:
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
    else:
        print("%-18s %-28s %-28s %-12s %-12s %-11s %s" % head)
    for name, rt, got in rows:
        f, g = got["fio"], got["iogauge"]
        ratio = statistics.median(y["iops"] / x["iops"] for x, y in zip(f, g) if x["iops"])
        # The kernel's count over the time the I/O ran: runtime plus ramp.
        kf = statistics.median(x["kernel"] / (rt + 0.2) for x in f)
        kg = statistics.median(x["kernel"] / (rt + 0.2) for x in g)
        cells = (name, spread([x["iops"] for x in f], a.cap),
                 spread([x["iops"] for x in g], a.cap), "%.3f" % ratio, "%.0f" % kf, "%.0f" % kg,
                 "%.0f" % statistics.median(x["bw_ios"] for x in f))
        if a.markdown:
            print("| " + " | ".join(cells) + " |")
        else:
            print("%-18s %-28s %-28s %-12s %-12s %-11s %s" % cells)


def floats(s):
    return [float(x) for x in s.split(",")]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pairs", type=int, default=3)
    ap.add_argument("--cap", type=int, default=2000)
    ap.add_argument("--depths", type=lambda s: [int(x) for x in s.split(",") if x],
                    default=[1, 4, 16])
    ap.add_argument("--gap", type=float, default=0.0)
    ap.add_argument("--runtimes", type=floats, default=[0.5, 1, 3])
    ap.add_argument("--rate", type=int, default=2300)
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--smoke", action="store_true")
    ap.add_argument("--slowdev", metavar="BIN")
    ap.add_argument("--iogauge", default=os.path.join(HERE, "..", "build", "iogauge"))
    ap.add_argument("--fio", default=shutil.which("fio") or "fio")
    a = ap.parse_args()
    if a.slowdev and a.depths == [1, 4, 16]:
        a.depths = [10, 20, 40, 80]
    if a.smoke:
        # The harness alone (CTest's bench_throttle_smoke): one pair of
        # 0.2 s runs at depth 1 and of the open loop.
        a.pairs, a.depths, a.runtimes = 1, [1], [0.2]
    if a.pairs < 1 or a.cap < 1 or a.rate < 1 or a.gap < 0 or not a.runtimes:
        ap.error("--pairs, --cap, --rate, --gap and --runtimes must be positive")
    undo = []

    def stop(signum, frame):
        for p in RUNNING:
            p.kill()
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    status = 0
    try:
        dev, majmin, cg = make_device(a.cap, undo, a.slowdev)
        print("# %s (%s), %s; load %.1f; %d pairs; %.2f s idle before each run" %
              (dev, majmin, "over slowdev (10 ms, 20 slots: 2000 IOPS)" if a.slowdev else
               "reads capped at %d/s" % a.cap, os.getloadavg()[0], a.pairs, a.gap), flush=True)
        report(bench(a, dev, majmin, cg), a)
    except Unavailable as e:
        print("skip: %s" % e)
        status = SKIP
    except (RunFailed, OSError, ValueError, KeyError) as e:
        print("failed: %s" % e, file=sys.stderr)
        status = 1
    except KeyboardInterrupt:
        status = 130
    finally:
        for u in reversed(undo):
            try:
                u()
            except (RunFailed, OSError) as e:
                print("clean-up: %s" % e, file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
