#!/usr/bin/env python3
# Interval logs merged across ranks, and runtime ending every rank at one
# moment (issue 25).  In the MPI build (IOGAUGE_MPI=1), mpirun -np 4 on
# this machine with real files, each rank rate-limited (rate_iops) so that
# its count per log window is known:
# - each window of the merged averaged iops log (and of the histogram
#   log) is exactly the ranks' own --per-rank logs added, and its whole
#   windows' mean is 4 times one rank's rate (a rank held up by the load
#   catches up in the next window), the bw log's 4 times one rank's KiB/s;
#   the merged lat log
#   has one entry per I/O of every rank (the ranks' JSON counts added), in
#   time order, within the run's time; --per-rank writes each rank's own
#   as NAME.HOST.rankN with its rank's count; the histogram log's bins add
#   up to every rank's I/Os; fio 3.33's iops log of the
#   same job in one process, its whole windows' mean, is a quarter of ours;
# - rank 0 runs in one folder and ranks 1-3 in another (mpirun's --wdir):
#   the others' folder holds their data files only, no log;
# - a rank whose exec_prerun takes 0.3 s longer runs 0.3 s less and ends
#   with the others: every rank's end within 100 ms on rank 0's clock, the
#   spread printed in the text report and in JSON.
# The last rank runs in a time namespace whose CLOCK_MONOTONIC is 1000 s
# ahead (where one can be made): its times reach rank 0 through its wall
# clock.  Without mpirun, --per-rank adds no rank's file.
#
# Environment (set by CTest): IOGAUGE_BIN, IOGAUGE_MPI (1: built with MPI).
import json
import os
import shutil
import socket
import subprocess
import tempfile

from clitest import capture, check, finish, mpirun_env

BIN = os.path.abspath(os.environ.get("IOGAUGE_BIN", "build/iogauge"))
HOST = socket.gethostname()
NP = 4
RATE = 100  # IOPS per rank
AVG_MS = 200  # log_avg_msec: 20 I/Os per rank per window
LAUNCH = ["--oversubscribe", "--mca", "btl_vader_single_copy_mechanism", "none"]
# The slack of a window's sum: its edges may move one I/O of a rank's 20 in
# or out (5%), and the first I/O of a rate-limited job goes at once.
SLACK = 0.10
# Every rank's end on rank 0's clock: the clocks' error (half a round trip,
# under a millisecond here), a rate sleep waking at the deadline, and four
# ranks on two CPUs scheduled in turn beside other tests (1 to 2 ms when
# the machine is idle; ten times 0.3 s, the late rank's, in the old way).
END_SPREAD_MS = 100
LATE_S = 0.3
# Before the last rank's iogauge: a time namespace, if one can be made.
WRAP = []

JOB = """[global]
ioengine=psync
size=1m
bs=4k
rw=randread
time_based=1
runtime=1s
rate_iops=%d
filename_format=data.$rank

[avg]
write_iops_log=avg
write_bw_log=avg
log_avg_msec=%d
write_hist_log=avg
log_hist_msec=%d

[each]
write_lat_log=each
""" % (RATE, AVG_MS, AVG_MS)


def read_log(path):
    """A log's lines as lists of numbers; none when it is missing (the
    file list's check names it)."""
    rows = []
    if not os.path.exists(path):
        return rows
    with open(path) as f:
        for line in f:
            v = [int(x) for x in line.split(",")]
            rows.append(v)
    return rows


def time_ns_wrap():
    """The last rank's run clock (CLOCK_MONOTONIC) 1000 s ahead of the
    others', in a time namespace (root, Linux 5.6), so that a time not put
    on rank 0's clock shows; [] where one cannot be made."""
    argv = ["unshare", "--time", "--monotonic", "1000", "--fork"]
    try:
        st, _, _ = capture(argv + ["true"], timeout=10)
    except (OSError, subprocess.SubprocessError):
        st = 1
    if st:
        print("mpi_logs: no time namespace here: every rank on one run clock")
        return []
    return argv


def mean(rows):
    return sum(v[1] for v in rows) / len(rows) if rows else 0


def summed(logs, value):
    """The ranks' own logs added window by window as rank 0 does: each
    entry in its nearest window, a rank's entries in distinct, increasing
    windows (its last, partial one in a window of its own).  The ranks
    here share one clock and start within milliseconds of each other, far
    from half a window."""
    total = {}
    for rows in logs:
        nxt = 0
        for v in rows:
            k = max((v[0] + AVG_MS // 2) // AVG_MS, nxt)
            nxt = k + 1
            total[k * AVG_MS] = total.get(k * AVG_MS, 0) + value(v)
    return sorted(total.items())


def first_json(out):
    try:
        return json.JSONDecoder().raw_decode(out)[0]
    except ValueError:
        return None


def ios_of(doc, job, port=None):
    return sum(e["read"]["total_ios"] for e in doc["client_stats"]
               if e["jobname"] == job and (port is None or e.get("port") == port))


def merged_logs(tmp):
    root, rest = os.path.join(tmp, "r0"), os.path.join(tmp, "rest")
    os.mkdir(root)
    os.mkdir(rest)
    job = os.path.join(tmp, "j.fio")
    with open(job, "w") as f:
        f.write(JOB)
    args = [BIN, "--per-rank", "--output-format=json", job]
    argv = (["mpirun"] + LAUNCH + ["-np", "1", "--wdir", root] + args +
            [":", "-np", str(NP - 2), "--wdir", rest] + args +
            [":", "-np", "1", "--wdir", rest] + WRAP + args)
    st, out, err = capture(argv, timeout=60, env=mpirun_env())
    doc = first_json(out)
    check(st == 0 and doc is not None, "logs: exit %d, JSON read: %s" % (st, err[-400:]))
    if st or doc is None:
        return
    kinds = {"avg": ["bw", "iops", "clat_hist"], "each": ["lat", "clat", "slat"]}
    num = {"avg": 1, "each": 2}
    want = set()
    for name, ks in kinds.items():
        for k in ks:
            base = "%s_%s.%d.log" % (name, k, num[name])
            want.add(base)
            want.update("%s.%s.rank%d" % (base, HOST, r) for r in range(NP))
    want.add("data.0")
    have = set(os.listdir(root))
    check(have == want, "logs: rank 0's folder holds the merged and per-rank logs: "
          "missing %s, extra %s" % (sorted(want - have), sorted(have - want)))
    others = sorted(os.listdir(rest))
    check(others == ["data.%d" % r for r in range(1, NP)],
          "logs: ranks 1-%d wrote their data files and no log: %s" % (NP - 1, others))

    # Averaged: each whole window (not the first, whose first I/O goes at
    # once, nor the last, partial) holds NP times one rank's rate.
    iops = read_log(os.path.join(root, "avg_iops.1.log"))
    bw = read_log(os.path.join(root, "avg_bw.1.log"))
    inner = [v for v in iops if AVG_MS < v[0] < 1000]
    check(len(inner) >= 3, "iops log: %d whole windows in 1 s of %d ms: %s" %
          (len(inner), AVG_MS, iops))
    # A rank held up (four ranks share two CPUs with other tests) catches
    # up in the next window: the whole windows' mean is NP x RATE, and each
    # window holds exactly what the ranks' own logs put in it.
    check(inner and abs(mean(inner) - NP * RATE) <= SLACK * NP * RATE,
          "iops log: the whole windows' mean is %d ranks' %d IOPS (+-%d%%): %s" %
          (NP, RATE, SLACK * 100, [v[:2] for v in iops]))
    ranks_iops = [read_log(os.path.join(root, "avg_iops.1.log.%s.rank%d" % (HOST, r)))
                  for r in range(NP)]
    check(sorted((v[0], v[1]) for v in iops) == summed(ranks_iops, lambda v: v[1]),
          "iops log: each window the sum of the ranks' own: %s, ranks' %s" %
          ([v[:2] for v in iops], summed(ranks_iops, lambda v: v[1])))
    check(len({v[0] for v in iops}) == len(iops) and all(v[0] % AVG_MS == 0 for v in iops),
          "iops log: one entry per window, at its multiple of %d ms: %s" %
          (AVG_MS, [v[0] for v in iops]))
    kib = NP * RATE * 4
    check(abs(mean([v for v in bw if AVG_MS < v[0] < 1000]) - kib) <= SLACK * kib,
          "bw log: the whole windows' mean is %d KiB/s (+-%d%%): %s" %
          (kib, SLACK * 100, [v[:2] for v in bw]))
    # The histogram log: every rank's completions, NP x 20 a whole window.
    hist = read_log(os.path.join(root, "avg_clat_hist.1.log"))
    per = NP * RATE * AVG_MS // 1000
    counts = [(v[0], sum(v[3:])) for v in hist]
    whole = [(t, c) for t, c in counts if AVG_MS < t < 1000]
    check(sum(c for _, c in counts) == ios_of(doc, "avg") and whole and
          abs(mean(whole) - per) <= SLACK * per,
          "hist log: %d I/Os in all (the ranks' %d), %d a whole window: %s" %
          (sum(c for _, c in counts), ios_of(doc, "avg"), per, counts))
    ranks_hist = [read_log(os.path.join(root, "avg_clat_hist.1.log.%s.rank%d" % (HOST, r)))
                  for r in range(NP)]
    check(sorted(counts) == summed(ranks_hist, lambda v: sum(v[3:])),
          "hist log: each window the sum of the ranks' own: %s" % counts)
    # fio 3.33 on the same job, one process: its mean over the whole
    # windows (one window of its may be 15% off, its rate pacing's), NP
    # times, is ours, within 15% (the two runs are paced apart).
    fio_dir = os.path.join(tmp, "fio")
    os.mkdir(fio_dir)
    with open(os.path.join(fio_dir, "j.fio"), "w") as f:
        f.write(JOB.split("[each]")[0].replace("$rank", "0"))
    if shutil.which("fio"):
        st, _, err = capture(["fio", "j.fio"], cwd=fio_dir, timeout=30)
        theirs = [v[1] for v in read_log(os.path.join(fio_dir, "avg_iops.1.log"))
                  if AVG_MS < v[0] < 900]
        mine = [v[1] for v in inner if v[0] < 900]
        check(st == 0 and theirs and mine and
              abs(sum(mine) / len(mine) - NP * sum(theirs) / len(theirs)) <=
              1.5 * SLACK * NP * RATE,
              "iops log: its whole windows' mean %d times fio's for one process: "
              "fio %s, ours %s" % (NP, theirs, mine))
    one = read_log(os.path.join(root, "avg_iops.1.log.%s.rank1" % HOST))
    inner = [v for v in one if AVG_MS < v[0] < 1000]
    check(len(inner) >= 3 and abs(mean(inner) - RATE) <= SLACK * RATE,
          "rank 1's own iops log: %d IOPS a window: %s" % (RATE, [v[:2] for v in one]))

    # Per I/O: every rank's entries, in time order, within the run.
    lat = read_log(os.path.join(root, "each_lat.2.log"))
    total = ios_of(doc, "each")
    check(len(lat) == total and total >= NP * RATE * 8 // 10,
          "lat log: %d entries, the ranks' I/Os %d" % (len(lat), total))
    times = [v[0] for v in lat]
    check(times == sorted(times) and times and times[-1] <= 1000 + END_SPREAD_MS,
          "lat log: times in order, the last at %s ms of a 1 s run" %
          (times[-1] if times else None))
    for r in range(NP):
        own = read_log(os.path.join(root, "each_lat.2.log.%s.rank%d" % (HOST, r)))
        check(len(own) == ios_of(doc, "each", r),
              "rank %d's lat log: %d entries, its I/Os %d" % (r, len(own), ios_of(doc, "each", r)))


def one_end(tmp):
    wd = os.path.join(tmp, "late")
    os.mkdir(wd)
    with open(os.path.join(wd, "j.fio"), "w") as f:
        f.write("[late]\nioengine=psync\nsize=1m\nbs=4k\nrw=randread\ntime_based=1\n"
                "runtime=1s\nrate_iops=200\nfilename_format=data.$rank\n"
                "exec_prerun=test \"$OMPI_COMM_WORLD_RANK\" != 2 || sleep %s\n" % LATE_S)
    args = [BIN, "--output-format=json,normal", "j.fio"]
    argv = (["mpirun"] + LAUNCH + ["-np", str(NP - 1)] + args + [":", "-np", "1"] + WRAP +
            args)
    st, out, err = capture(argv, cwd=wd, timeout=60, env=mpirun_env())
    doc = first_json(out)
    check(st == 0 and doc is not None, "end: exit %d, JSON read: %s" % (st, err[-400:]))
    if st or doc is None:
        return
    done = {c["rank"]: c["done_ns"] for c in doc["mpi"]["clocks"]}
    spread = max(done.values()) - min(done.values())
    check(spread <= END_SPREAD_MS * 1000000,
          "end: every rank ended within %d ms on rank 0's clock: %.3f ms %s" %
          (END_SPREAD_MS, spread / 1e6, done))
    check(doc["mpi"].get("end_spread_ns") == spread,
          "end: JSON's end_spread_ns %s is the ranks' %d" % (doc["mpi"].get("end_spread_ns"),
                                                           spread))
    check("End spread: %.3f ms" % (spread / 1e6) in out,
          "end: the text report prints the spread, %.3f ms" % (spread / 1e6))
    run = {e["port"]: e["read"]["runtime"] for e in doc["client_stats"]
           if e["jobname"] != "All clients"}
    short = run[0] - run[2]
    check(abs(short - LATE_S * 1000) <= END_SPREAD_MS,
          "end: the rank whose prerun slept %.1f s ran that much less: %s ms" %
          (LATE_S, run))
    check(all(abs(run[r] - 1000) <= END_SPREAD_MS for r in run if r != 2),
          "end: the other ranks ran about 1 s: %s ms" % run)


def single_rank(tmp):
    """Without mpirun: the log name as the job asks, no rank's file."""
    wd = os.path.join(tmp, "single")
    os.mkdir(wd)
    st, out, err = capture([BIN, "--per-rank", "--name=s", "--ioengine=psync", "--rw=read",
                            "--size=64k", "--filename=d", "--write_iops_log=s"], cwd=wd)
    files = sorted(os.listdir(wd))
    check(st == 0 and files == ["d", "s_iops.1.log"],
          "single rank: exit %d, files %s: %s" % (st, files, err.strip()))
    check(len(read_log(os.path.join(wd, "s_iops.1.log"))) == 16,
          "single rank: an iops entry per I/O, 16")


def main():
    tmp = tempfile.mkdtemp(prefix="iogauge-mpilogs-")
    try:
        single_rank(tmp)
        if os.environ.get("IOGAUGE_MPI") != "1" or not shutil.which("mpirun"):
            print("mpi_logs: built without MPI: the single-rank part only")
        else:
            WRAP.extend(time_ns_wrap())
            merged_logs(tmp)
            one_end(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    finish("mpi_logs")


if __name__ == "__main__":
    main()
