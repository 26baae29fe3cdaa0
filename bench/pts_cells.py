#!/usr/bin/env python3
"""The cells of iogauge pts throughput and latency, run by fio and by iogauge.

Each PTS cell is a command-line job that `iogauge pts` hands to a child
iogauge; fio runs the same job.  On a loop device over a file on a tmpfs
(made here, removed at the end, also on an error or Ctrl-C), its writes
throttled through a cgroup v1 blkio group of its own (--write-bps; 0 for
none), both tools run each cell in PAIRS pairs (who goes first
alternates), with the options run.c gives them:
  --name=c --filename=DEV --ioengine=libaio --direct=1 --time_based=1
  --runtime=R (in ms), and per cell:
  tp-read-1024k   --rw=read --bs=1048576 --iodepth=32
  tp-write-128k   --rw=write --bs=131072 --iodepth=32
  lat-write-4k    --rw=randwrite --bs=4096 --iodepth=1 --norandommap=1 --randrepeat=0
  lat-mix-8k      --rw=randrw --rwmixread=65 --bs=8192 --iodepth=1 --norandommap=1 --randrepeat=0
From each tool's JSON: MB/s (bytes over the job's runtime, both
directions) and, for the latency cells, the mean and max completion
latency (both directions, weighted by I/Os).  It prints each tool's median
and the median ratio iogauge/fio.  Nothing here asserts a speed.

--smoke: one pair of 0.2 s runs of the two throttled cells of 128k and 4k
writes on 8 MiB, so that the harness cannot rot (CTest's
bench_pts_cells_smoke).

Exit status: 0, 1 when a run failed, 77 when it cannot run here (not
root, or no tmpfs, loop device or blkio cgroup to be had).

usage: bench/pts_cells.py [--pairs N] [--runtime S] [--size MIB]
                          [--write-bps N] [--smoke] [--iogauge BIN] [--fio BIN]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

CELLS = [
    ("tp-read-1024k", ["--rw=read", "--bs=1048576", "--iodepth=32"], False),
    ("tp-write-128k", ["--rw=write", "--bs=131072", "--iodepth=32"], False),
    ("lat-write-4k", ["--rw=randwrite", "--bs=4096", "--iodepth=1", "--norandommap=1",
                      "--randrepeat=0"], True),
    ("lat-mix-8k", ["--rw=randrw", "--rwmixread=65", "--bs=8192", "--iodepth=1",
                    "--norandommap=1", "--randrepeat=0"], True),
]


def figures(doc):
    """MB/s, mean and max clat in us over both directions of the one job."""
    job = doc["jobs"][0]
    moved = ms = n = lat = hi = 0
    for d in ("read", "write"):
        j = job[d]
        moved += j["io_bytes"]
        ms = max(ms, j["runtime"])
        c = j["clat_ns"]
        n += c["N"]
        lat += c["mean"] * c["N"]
        hi = max(hi, c["max"])
    return moved / (ms / 1e3) / 1e6 if ms else 0, lat / n / 1e3 if n else 0, hi / 1e3


def run(tool, dev, cell, runtime, cg):
    argv = [tool, "--name=c", "--filename=" + dev, "--ioengine=libaio", "--direct=1",
            "--time_based=1", "--runtime=%dms" % (runtime * 1000), "--output-format=json"] + cell
    if cg:
        argv = ["sh", "-c", 'echo $$ > %s/cgroup.procs && exec "$@"' % cg, "sh"] + argv
    r = subprocess.run(argv, capture_output=True, text=True)
    if r.returncode:
        raise RuntimeError("%s: exit %d: %s" % (" ".join(argv), r.returncode, r.stderr[-400:]))
    return figures(json.loads(r.stdout[r.stdout.index("{"):]))


def main():
    ap = argparse.ArgumentParser(usage=__doc__.split("usage: ")[1])
    ap.add_argument("--pairs", type=int, default=3)
    ap.add_argument("--runtime", type=float, default=2)
    ap.add_argument("--size", type=int, default=64, help="MiB")
    ap.add_argument("--write-bps", type=int, default=32000000)
    ap.add_argument("--iogauge", default=os.path.join(os.path.dirname(__file__), "..", "build",
                                                      "iogauge"))
    ap.add_argument("--fio", default="fio")
    ap.add_argument("--smoke", action="store_true")
    a = ap.parse_args()
    cells = CELLS
    if a.smoke:
        a.pairs, a.runtime, a.size = 1, 0.2, 8
        cells = CELLS[1:3]
    if os.geteuid():
        print("skip: not root")
        return 77
    undo = []
    try:
        mnt = tempfile.mkdtemp(prefix="iogauge-ptscells-")
        undo.append(lambda: os.rmdir(mnt))
        if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=%dm" % (a.size + 1),
                           "iogauge-ptscells", mnt]).returncode:
            print("skip: no tmpfs")
            return 77
        undo.append(lambda: subprocess.run(["umount", mnt]))
        back = os.path.join(mnt, "back")
        with open(back, "wb") as f:
            f.write(os.urandom(a.size << 20))
        undo.append(lambda: os.unlink(back))
        r = subprocess.run(["losetup", "-f", "--show", back], capture_output=True, text=True)
        if r.returncode:
            print("skip: no loop device: " + r.stderr.strip())
            return 77
        dev = r.stdout.strip()
        undo.append(lambda: subprocess.run(["losetup", "-d", dev]))
        cg = None
        if a.write_bps:
            cg = "/sys/fs/cgroup/blkio/iogauge-ptscells-%d" % os.getpid()
            try:
                os.mkdir(cg)
            except OSError as e:
                print("skip: no blkio cgroup: %s" % e)
                return 77
            undo.append(lambda: os.rmdir(cg))
            with open("/sys/block/%s/dev" % os.path.basename(dev)) as f:
                majmin = f.read().strip()
            with open(cg + "/blkio.throttle.write_bps_device", "w") as f:
                f.write("%s %d\n" % (majmin, a.write_bps))
        print("# %s: %d MiB loop device over tmpfs, writes throttled to %s B/s, %g s runs, "
              "%d pairs" % (dev, a.size, a.write_bps or "no limit", a.runtime, a.pairs))
        print("%-14s %-8s %10s %10s %12s" % ("cell", "tool", "MB/s", "mean us", "max us"))
        for name, cell, lat in cells:
            got = {"fio": [], "iogauge": []}
            for i in range(a.pairs):
                order = [("fio", a.fio), ("iogauge", a.iogauge)]
                for who, tool in (order if i % 2 == 0 else order[::-1]):
                    got[who].append(run(tool, dev, cell, a.runtime, cg))
            for who in ("fio", "iogauge"):
                med = [statistics.median(v[k] for v in got[who]) for k in range(3)]
                print("%-14s %-8s %10.1f %10s %12s" % (
                    name, who, med[0], "%.1f" % med[1] if lat else "-",
                    "%.1f" % med[2] if lat else "-"))
            ratio = statistics.median(g[0] / f[0] for f, g in zip(got["fio"], got["iogauge"]))
            print("%-14s %-8s %10.3f" % (name, "ratio", ratio))
        return 0
    except RuntimeError as e:
        print("pts_cells: %s" % e, file=sys.stderr)
        return 1
    finally:
        for f in reversed(undo):
            f()


sys.exit(main())
