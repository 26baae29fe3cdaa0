#!/usr/bin/env python3
# Many ranks, one report (issue 25).  In every build: filename_format's
# $rank, $nranks and $hostname name a real file (0, 1 and this host
# without mpirun).  In the MPI build (IOGAUGE_MPI=1), mpirun -np 4 on this
# machine, with the null engine and with real files in a scratch folder:
# the "All clients" totals are 4 times one rank's for size-bound jobs, and
# equal numjobs=4 on one rank; the summed histogram's N is the ranks' N
# added, its bins are theirs added, and its p99 is the p99 of all their
# samples (read from those bins as fio reads a percentile); the text
# report's host and rank rows; a rank whose folder cannot be made ends the run
# within 10 s, named with its host, the others' unlink=1 files gone; bad
# input is refused by every rank and told once.
#
# Environment (set by CTest): IOGAUGE_BIN, IOGAUGE_MPI (1: built with MPI).
import json
import os
import shutil
import socket
import subprocess
import tempfile
import time

from clitest import capture, check, finish, mpirun_env

BIN = os.environ.get("IOGAUGE_BIN", "build/iogauge")
HOST = socket.gethostname()
NP = 4
# Where the ranks run (tests/cli/mpi_hosts.py sets both for two network
# namespaces): mpirun's placement arguments, and each rank's host name.
LAUNCH = ["--oversubscribe", "--mca", "btl_vader_single_copy_mechanism", "none"]
HOSTS = [HOST] * NP


def host_names():
    """The distinct hosts, in rank order."""
    return [h for i, h in enumerate(HOSTS) if h not in HOSTS[:i]]


def mpirun(args, np=NP, cwd=None, timeout=60):
    # Four ranks on two cores: --oversubscribe.  Shared memory without
    # CMA (ptrace may be refused in a container).
    argv = ["mpirun", "-np", str(np)] + LAUNCH + [BIN] + args
    return capture(argv, cwd=cwd, timeout=timeout, env=mpirun_env())


def single_rank_names(tmp):
    """$rank, $nranks, $hostname without mpirun: 0, 1 and this host."""
    st, out, err = capture([BIN, "--name=f", "--ioengine=psync", "--rw=write", "--size=64k",
                            "--filename_format=%s/r$rank.n$nranks.$hostname.$jobnum" % tmp,
                            "--output-format=json"])
    path = os.path.join(tmp, "r0.n1.%s.0" % HOST)
    check(st == 0, "single rank: exit %d: %s" % (st, err.strip()))
    check(os.path.exists(path) and os.path.getsize(path) == 65536,
          "single rank: %s written with 64 KiB (folder: %s)" % (path, os.listdir(tmp)))
    check("client_stats" not in out, "single rank: JSON has jobs, not client_stats")


def clat(entry):
    return entry["read"]["clat_ns"] if entry["read"]["total_ios"] else entry["write"]["clat_ns"]


def p99_of_bins(bins, lo, hi):
    """fio's percentile from json+ bins: the first bin whose running count
    reaches ceil(99% of N), clamped to the samples' min and max."""
    n = sum(bins.values())
    rank = max(1, -(-99 * n // 100))
    seen = 0
    for mid in sorted(bins, key=int):
        seen += bins[mid]
        if seen >= rank:
            return min(max(int(mid), lo), hi)
    return hi


def ios(entry):
    return entry["read"]["total_ios"] + entry["write"]["total_ios"]


def sums(doc, key):
    """Per rank (from its hostname/port entries) and All clients: total I/Os."""
    ranks = {}
    for e in doc[key]:
        if e["jobname"] == "All clients":
            continue
        ranks[e["port"]] = ranks.get(e["port"], 0) + ios(e)
    alls = [e for e in doc[key] if e["jobname"] == "All clients"]
    return ranks, alls


def check_run(name, doc, one_rank_ios):
    check("client_stats" in doc, "%s: client_stats in the JSON" % name)
    if "client_stats" not in doc:
        return
    ranks, alls = sums(doc, "client_stats")
    check(sorted(ranks) == list(range(NP)), "%s: entries of ranks %s" % (name, sorted(ranks)))
    check(all(e["hostname"] == HOSTS[e["port"]] for e in doc["client_stats"]),
          "%s: every entry's hostname is its rank's, %s" % (name, HOSTS))
    check(len(alls) == 1, "%s: one All clients entry, not %d" % (name, len(alls)))
    if not alls:
        return
    agg = alls[0]
    check(ios(agg) == NP * one_rank_ios,
          "%s: All clients did %d I/Os, %d x one rank's %d" % (name, ios(agg), NP, one_rank_ios))
    check(all(v == one_rank_ios for v in ranks.values()),
          "%s: each rank did one rank's I/Os: %s" % (name, ranks))
    parts = [clat(e) for e in doc["client_stats"] if e["jobname"] != "All clients"]
    total = clat(agg)
    check(total["N"] == sum(p["N"] for p in parts),
          "%s: summed N %d = the ranks' %s" % (name, total["N"], [p["N"] for p in parts]))
    bins = {}
    for p in parts:
        for k, v in p["bins"].items():
            bins[k] = bins.get(k, 0) + v
    check(bins == total["bins"], "%s: All clients' bins are the ranks' added" % name)
    lo = min(p["min"] for p in parts)
    hi = max(p["max"] for p in parts)
    want = p99_of_bins(bins, lo, hi)
    got = total["percentile"]["99.000000"]
    check(got == want, "%s: All clients' p99 %d = the p99 of every sample %d" % (name, got, want))
    # One host, one clock: each measured offset is within its error (half
    # the ping's round trip), and every rank started (skew measured).
    m = doc.get("mpi", {})
    check(m.get("ranks") == NP and m.get("hosts") == len(host_names()),
          "%s: mpi ranks and hosts: %s" % (name, m))
    clocks = m.get("clocks", [])
    check(len(clocks) == NP and all(
        abs(c["clock_offset_ns"]) * 2 <= c["clock_rtt_ns"] for c in clocks[1:]),
        "%s: each clock offset within half its round trip: %s" % (name, clocks))


def null_engine(tmp):
    job = ["--name=n", "--ioengine=null", "--rw=randread", "--size=8m", "--bs=4k"]
    st, out, err = capture([BIN, "--output-format=json+"] + job)
    one = ios(json.loads(out)["jobs"][0]) if st == 0 else -1
    check(one == 2048, "null, one rank without mpirun: %d I/Os (exit %d %s)" % (one, st, err))
    st, out, err = mpirun(["--output-format=json+"] + job)
    check(st == 0, "null, %d ranks: exit %d: %s" % (NP, st, err.strip()))
    if st == 0:
        check_run("null", json.loads(out), one)
    # numjobs=4 on one rank and numjobs=1 on 4 ranks: the same totals.
    st, out, err = capture([BIN, "--output-format=json", "--numjobs=4",
                            "--group_reporting"] + job)
    local = json.loads(out)["jobs"][0] if st == 0 else None
    st, out, err = mpirun(["--output-format=json"] + job)
    alls = [e for e in json.loads(out)["client_stats"] if e["jobname"] == "All clients"] \
        if st == 0 else []
    if check(local is not None and len(alls) == 1, "numjobs: both runs reported"):
        for d in ("read", "write"):
            for k in ("total_ios", "io_bytes"):
                check(local[d][k] == alls[0][d][k],
                      "numjobs=4 locally %s %s %d = 4 ranks' %d" %
                      (d, k, local[d][k], alls[0][d][k]))


def real_files(tmp):
    for r in range(NP):
        os.mkdir(os.path.join(tmp, "d%d" % r))
    job = ["--name=w", "--ioengine=psync", "--rw=randwrite", "--size=512k", "--bs=4k",
           "--filename_format=%s/d$rank/f.$nranks.$jobnum" % tmp]
    st, out, err = mpirun(["--output-format=json+"] + job)
    check(st == 0, "files, %d ranks: exit %d: %s" % (NP, st, err.strip()))
    if st == 0:
        check_run("files", json.loads(out), 128)
        # A consumer: iogauge compare reads the All clients entries.
        with open(os.path.join(tmp, "a.json"), "w") as f:
            f.write(out)
        st, out, err = capture([BIN, "compare", os.path.join(tmp, "a.json"),
                                os.path.join(tmp, "a.json")])
        check(st == 0 and "All clients  write  IOPS" in out,
              "compare reads client_stats' All clients (exit %d): %s%s" % (st, out, err))
    for r in range(NP):
        path = os.path.join(tmp, "d%d" % r, "f.%d.0" % NP)
        check(os.path.exists(path) and os.path.getsize(path) == 512 * 1024,
              "files: rank %d wrote %s (512 KiB)" % (r, path))
    text_rows(job)


def text_rows(job):
    """The text report: the summed entry, a row per host and (--per-rank)
    a row per rank, 128 I/Os each."""
    st, out, err = mpirun(["--per-rank"] + job)
    nh = len(host_names())
    check(st == 0 and "Hosts: %d ranks on %d host%s" % (NP, nh, "" if nh == 1 else "s") in out,
          "text: the hosts table (exit %d)\n%s" % (st, out))
    rows = [line for line in out.splitlines() if line.strip().startswith(tuple(
        "%d (%s)" % (r, HOSTS[r]) for r in range(NP)))]
    check(len(rows) == NP, "text: --per-rank gives %d rank rows: %s" % (NP, rows))
    for h in host_names():
        n = HOSTS.count(h)
        row = [line.split() for line in out.splitlines() if line.split()[:2] == [h, str(n)]]
        check(len(row) == 1 and row[0][6] == str(n * 128),
              "text: host %s's row counts %d I/Os: %s" % (h, n * 128, row))


def shared_file(tmp):
    """offset_rank_increment: 4 ranks write a quarter each of one file."""
    path = os.path.join(tmp, "shared")
    job = ["--name=s", "--ioengine=psync", "--rw=write", "--size=256k", "--bs=4k",
           "--filename=%s" % path, "--offset_rank_increment=256k", "--output-format=json"]
    st, out, err = mpirun(job)
    check(st == 0, "shared file: exit %d: %s" % (st, err.strip()))
    size = os.path.getsize(path) if os.path.exists(path) else -1
    check(size == NP * 256 * 1024, "shared file: %d bytes, 4 x 256 KiB" % size)
    zero = bytes(4096)
    empty = []
    if size > 0:
        with open(path, "rb") as f:
            data = f.read()
        empty = [i // 4096 for i in range(0, len(data), 4096) if data[i:i + 4096] == zero]
    check(not empty, "shared file: every 4 KiB block written (unwritten: %s)" % empty[:8])
    # Without MPI it is rank 0's: the same as no option.
    st, out, err = capture([BIN] + job[:-1] + ["--filename=%s.1" % path])
    check(st == 0 and os.path.getsize(path + ".1") == 256 * 1024,
          "shared file, one rank: 256 KiB from offset 0 (exit %d %s)" % (st, err.strip()))


def stonewall():
    """100 I/Os a rank, rank 0 paced at 200 IOPS (0.5 s), the others not
    paced (a few ms): one of them is done first, rank 0 last.
    --rank-stonewall stops every rank when the first is done; without it
    each does its 100."""
    def run(flag):
        argv = ["mpirun", "-np", str(NP)] + LAUNCH + ["sh", "-c",
                'exec "$0" "$@" --rate_iops=$((OMPI_COMM_WORLD_RANK ? 0 : 200))', BIN,
                "--name=s", "--ioengine=null", "--rw=read", "--bs=4k", "--size=1m",
                "--number_ios=100", "--output-format=json"] + flag
        st, out, err = capture(argv, timeout=60, env=mpirun_env())
        check(st == 0, "stonewall %s: exit %d: %s" % (flag, st, err.strip()))
        return json.loads(out) if st == 0 else None

    for flag in ([], ["--rank-stonewall"]):
        doc = run(flag)
        if not doc:
            continue
        done = {c["rank"]: c for c in doc["mpi"]["clocks"]}
        ios = {e["port"]: e["read"]["total_ios"] for e in doc["client_stats"]
               if e["jobname"] != "All clients"}
        # The first done of the ranks not stopped: a rank whose last I/O
        # ended first (done_ns is its I/O's end) may still be joining its
        # clones when the first to report stops it, and is then "stopped".
        first = min((r for r in done if not done[r]["stopped"]),
                    key=lambda r: done[r]["done_ns"], default=0)
        last = max(done, key=lambda r: done[r]["done_ns"])
        check(first != 0 and ios[first] == 100 and not done[first]["stopped"],
              "stonewall %s: a rank other than 0 done first with its 100 I/Os: %s %s" %
              (flag, done, ios))
        if flag:
            check(doc["mpi"]["stonewalled"] == 1 and ios[0] < 100 and done[0]["stopped"],
                  "--rank-stonewall: rank 0 stopped short of 100 I/Os: %s" % ios)
            alls = [e for e in doc["client_stats"] if e["jobname"] == "All clients"]
            check(alls and alls[0]["read"]["total_ios"] == sum(ios.values()),
                  "--rank-stonewall: All clients sums what each did: %s" % ios)
        else:
            check(last == 0 and all(v == 100 for v in ios.values()),
                  "no stonewall: rank 0 done last, every rank did 100: %s %s" % (last, ios))


def rank_fails(tmp):
    """Rank 2's folder cannot be made (a file has its name; a missing
    folder is made, as fio 3.33 makes it): it cannot open its file."""
    for r in (0, 1, 3):
        os.mkdir(os.path.join(tmp, "u%d" % r))
    open(os.path.join(tmp, "u2"), "w").close()
    job = ["--name=u", "--ioengine=psync", "--rw=write", "--size=256k", "--bs=4k",
           "--unlink=1", "--filename_format=%s/u$rank/f" % tmp, "--output-format=json"]
    t0 = time.monotonic()
    st, out, err = mpirun(job, timeout=30)
    secs = time.monotonic() - t0
    check(st != 0, "fault: exit %d, not 0" % st)
    check(secs < 10, "fault: ended in %.1f s" % secs)
    check("rank 2 (%s): %s/u2/f: Not a directory" % (HOSTS[2], tmp) in err,
          "fault: rank 2 and its host named: %s" % err.strip())
    left = [os.path.join("u%d" % r, f) for r in (0, 1, 3)
            for f in os.listdir(os.path.join(tmp, "u%d" % r))]
    check(not left, "fault: the other ranks removed their unlink=1 files: %s" % left)
    try:
        doc = json.loads(out)
        failed = doc["failed_ranks"]
    except (ValueError, KeyError):
        doc, failed = {}, None
    check(all(e["hostname"] == HOSTS[e["port"]] for e in doc.get("client_stats", [])
              if e["jobname"] != "All clients"),
          "fault: each rank's entries name its host %s" % HOSTS)
    check(failed is not None and [f["rank"] for f in failed] == [2],
          "fault: the JSON's failed_ranks names rank 2: %s" % failed)


def bad_input():
    st, out, err = mpirun(["--name=b", "--ioengine=null", "--size=1m", "--bs=3q"])
    check(st == 2, "bad input: exit %d, not 2" % st)
    check(err.count("'3q'") == 1, "bad input: told once, not %d times:\n%s" %
          (err.count("'3q'"), err))


def jobs_differ(tmp):
    """Two ranks whose job files differ with the same clone count ([a] x2,
    [b] x1 against [a] x1, [b] x2): rank 1 named, exit 1, and the report
    holds rank 0's clones alone (its clone of b was summed into a's and the
    JSON report crashed rank 0 with SIGSEGV before: the review's finding)."""
    job = os.path.join(tmp, "differ.fio")
    with open(job, "w") as f:
        f.write("[a]\nioengine=null\nsize=1m\nnumjobs=${NA}\n"
                "[b]\nioengine=null\nsize=1m\nnumjobs=${NB}\n")
    argv = (["mpirun", "-np", "1"] + LAUNCH + ["-x", "NA=2", "-x", "NB=1", BIN,
                                               "--output-format=json", job, ":",
                                               "-np", "1", "-x", "NA=1", "-x", "NB=2", BIN,
                                               "--output-format=json", job])
    st, out, err = capture(argv, timeout=60, env=mpirun_env())
    try:
        doc = json.loads(out[out.find("{"):])
    except ValueError:
        doc = {}
    total = [c for c in doc.get("client_stats", []) if c["jobname"] == "All clients"]
    check(st == 1 and "rank 1" in err and "are the job files the same?" in err and
          sum(ios(c) for c in total) == 3 * 256,
          "job files that differ: exit %d, All clients %s: %s" %
          (st, [ios(c) for c in total], err[-400:]))


def main():
    tmp = tempfile.mkdtemp(prefix="iogauge-mpi-")
    try:
        single_rank_names(tmp)
        if os.environ.get("IOGAUGE_MPI") != "1" or not shutil.which("mpirun"):
            print("mpi: built without MPI: the single-rank part only")
        else:
            null_engine(tmp)
            real_files(tmp)
            shared_file(tmp)
            stonewall()
            rank_fails(tmp)
            bad_input()
            jobs_differ(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    finish("mpi")


if __name__ == "__main__":
    main()
