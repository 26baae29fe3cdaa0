#!/usr/bin/env python3
"""What each durability mode costs, iogauge crash's writer beside fio 3.33:
bench/crash_cost.py [--iogauge BIN] [--dir DIR] [--seconds S] [--pairs N].
For each mode (none, O_DSYNC, O_SYNC, O_DIRECT, fsync=1, fsync=100) the same
4 KiB sequential writes over 4 MiB: fio's write IOPS (psync, time_based) and
the writes per second of one kill round of iogauge crash (its writer also
stamps every block and sends each acknowledgement to its witness, so it
does more per write than fio).  N pairs, interleaved; the medians are
printed, with the ratio.  fsync_window has no fio counterpart."""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

MODES = [("none", []), ("O_DSYNC", ["--sync=dsync"]), ("O_SYNC", ["--sync=sync"]),
         ("O_DIRECT", ["--direct=1"]), ("fsync=1", ["--fsync=1"]),
         ("fsync=100", ["--fsync=100"])]


def fio_rate(fio, path, extra, secs):
    out = subprocess.run([fio, "--name=f", "--filename=" + path, "--rw=write", "--bs=4k",
                          "--size=4m", "--ioengine=psync", "--time_based",
                          "--runtime=%g" % secs, "--output-format=json"] + extra,
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out[out.index("{"):])["jobs"][0]["write"]["iops"]


def crash_rate(bin_, path, extra, secs):
    # runtime= is the latest kill: the round lasts from secs/2 to secs.
    out = subprocess.run([bin_, "crash", "--output-format=json", "--name=c",
                          "--filename=" + path, "--size=4m", "--bs=4k", "--rounds=1",
                          "--runtime=%gs" % (2 * secs), "--unlink=1"] + extra,
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)["jobs"][0]["total"]["writes_per_sec"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--iogauge", default="build/iogauge")
    ap.add_argument("--dir", default=None, help="where the 4 MiB files go (default: /tmp)")
    ap.add_argument("--seconds", type=float, default=2)
    ap.add_argument("--pairs", type=int, default=3)
    a = ap.parse_args()
    fio = shutil.which("fio")
    if not fio:
        print("fio not found")
        return 77
    d = tempfile.mkdtemp(prefix="crash-cost-", dir=a.dir)
    try:
        print("%-10s %14s %14s %7s" % ("mode", "fio IOPS", "crash writes/s", "ratio"))
        for name, extra in MODES:
            f, c = [], []
            for _ in range(a.pairs):
                f.append(fio_rate(fio, os.path.join(d, "fio.dat"), extra, a.seconds))
                c.append(crash_rate(a.iogauge, os.path.join(d, "crash.dat"), extra, a.seconds))
            mf, mc = statistics.median(f), statistics.median(c)
            print("%-10s %14.0f %14.0f %7.2f" % (name, mf, mc, mc / mf if mf else 0), flush=True)
    finally:
        shutil.rmtree(d, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
