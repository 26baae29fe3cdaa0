#!/usr/bin/env python3
"""MPI scale-out on one machine: bench/mpi_scale.py IOGAUGE_MPI_BUILD [SECONDS].

Runs the null engine (randread, 4 KiB, time_based) under mpirun at 1, 2, 4,
8 and 16 ranks and prints per rank count the summed IOPS (All clients),
IOPS per rank, the ranks' start spread and clock offsets, rank 0's wait
and cost for the final sum (JSON's mpi object), and the largest resident
memory of one rank (its process's ru_maxrss, through /usr/bin/time when
present, else the ranks' VmHWM is not read).  Then the final sum's cost
for 64 ranks, as a share of a 10 s run.  Past the machine's CPUs the ranks
are oversubscribed (--oversubscribe): the sum stays flat where the CPUs
are busy, and that is what the table shows, not a limit of iogauge.
Exits 1 when a run fails."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

BIN = sys.argv[1] if len(sys.argv) > 1 else "build-mpi/iogauge"
SECS = int(sys.argv[2]) if len(sys.argv) > 2 else 2


def env():
    e = dict(os.environ)
    if os.getuid() == 0:
        e["OMPI_ALLOW_RUN_AS_ROOT"] = "1"
        e["OMPI_ALLOW_RUN_AS_ROOT_CONFIRM"] = "1"
    return e


def run(np, secs, tmp):
    """One mpirun: (JSON document, the largest maxrss of a rank in KiB or None)."""
    rss_dir = os.path.join(tmp, "rss%d" % np)
    os.makedirs(rss_dir, exist_ok=True)
    job = ["--name=n", "--ioengine=null", "--rw=randread", "--bs=4k", "--size=1g",
           "--time_based", "--runtime=%d" % secs, "--output-format=json"]
    timer = shutil.which("time") or ("/usr/bin/time" if os.path.exists("/usr/bin/time") else None)
    prog = [BIN]
    if timer:
        # %M: the maximum resident set size in KiB, one file per rank.
        prog = ["sh", "-c", '%s -f %%M -o %s/$OMPI_COMM_WORLD_RANK "$@"' % (timer, rss_dir),
                "sh", BIN]
    argv = ["mpirun", "--oversubscribe", "-np", str(np),
            "--mca", "btl_vader_single_copy_mechanism", "none"] + prog + job
    p = subprocess.run(argv, capture_output=True, text=True, env=env(), timeout=secs * 10 + 120)
    if p.returncode:
        print("mpirun -np %d: exit %d\n%s" % (np, p.returncode, p.stderr))
        sys.exit(1)
    rss = None
    if timer:
        vals = []
        for f in os.listdir(rss_dir):
            with open(os.path.join(rss_dir, f)) as fh:
                lines = fh.read().split()
                if lines and lines[-1].isdigit():
                    vals.append(int(lines[-1]))
        rss = max(vals) if vals else None
    return json.loads(p.stdout), rss


def figures(doc):
    stats = doc["client_stats"] if "client_stats" in doc else doc["jobs"]
    alls = [e for e in stats if e["jobname"] == "All clients"] or stats
    iops = sum(e["read"]["iops"] for e in alls)
    m = doc.get("mpi", {})
    clocks = m.get("clocks", [])
    skew = max((abs(c["start_skew_ns"]) for c in clocks), default=0) / 1000
    off = max((abs(c["clock_offset_ns"]) for c in clocks), default=0) / 1000
    return (iops, skew, off, m.get("gather_wait_us", 0), m.get("gather_sum_us", 0),
            m.get("gather_add_us", 0))


def main():
    tmp = tempfile.mkdtemp(prefix="iogauge-mpibench-")
    try:
        print("CPUs: %d; null engine, randread 4k, %d s per run" % (os.cpu_count(), SECS))
        print("%5s %14s %14s %12s %12s %12s %12s %12s %10s" % (
            "ranks", "IOPS (sum)", "IOPS / rank", "start us", "clock us", "wait us",
            "sum us", "add us", "RSS KiB"))
        for np in (1, 2, 4, 8, 16):
            doc, rss = run(np, SECS, tmp)
            iops, skew, off, wait, cost, add = figures(doc)
            print("%5d %14.0f %14.0f %12.1f %12.1f %12d %12d %12d %10s" % (
                np, iops, iops / np, skew, off, wait, cost, add, rss if rss else "-"))
        doc, rss = run(64, 1, tmp)
        iops, skew, off, wait, cost, add = figures(doc)
        print("64 ranks, 1 s: the final sum took %d us on rank 0 (%.4f%% of a 10 s run), "
              "%d us of it reading and adding (no MPI); its wait for the last rank %d us; "
              "largest rank RSS %s KiB" % (cost, cost / 1e5, add, wait, rss if rss else "-"))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
