#!/usr/bin/env python3
# iogauge sweep and iogauge slo.  Part "cli": a sequential read of 1 MiB
# swept over bs and iodepth does exactly size/bs reads at each point, as
# fio 3.33 does on the same job, and numjobs=3 three times as many; the table, the CSV (Python's csv module),
# the JSON and the SVG plots (an XML parser) agree; bad input (an axis
# that is not an option, an empty range, a value the job refuses, a
# target such as p101<2ms) exits 2 with nothing run or written; SIGTERM
# ends a sweep within a second with what it measured; slo says plainly
# when no rate meets a target; its closed-loop form walks the depths.
# Part "device" (root, cgroup v1 blkio): a loop device over tmpfs
# throttled to 2000 reads/s; a depth sweep reads 2000 IOPS at every depth
# (+-5% at depth 1: saturated there, the knee is there); a rate_iops sweep rises with
# the rate and flattens at 2000, where the knee is found; with 32 MiB/s
# as well, a bs sweep crosses over at 16k (2000 x 16k); slo's highest
# rate with p99 <= 50 ms from the intended start is at most the cap
# (+20%: see below), and a run at it that keeps its rate meets the target.
#
# blk-throttle hands out a slice's budget (100 ms: 200 reads) at the
# slice's start: a closed loop completes in bursts with idle gaps of ~95
# ms between.  iogauge ended ramp_time by the clock, so its measured time
# began in such a gap and read 80-104% of the cap in half-second runs
# where fio 3.33 read 99-102% (fio ends the ramp at the first I/O after
# it); iogauge does so too now, and read 98-103% (1958-2056) at depths 1,
# 4 and 16 for 0.5, 1 and 3 s runs, fio beside it 99-102%
# (bench/throttle.py).  In sweeps (points back to back) at loads 5-7,
# depth 1 read 1979-2024 in 18 of 18 points: 2000 +-5% here.  Depth 16
# read 2015-2046 in 14 of 18, and 1503, 1772, 2180 and 2353: a deep queue
# waits on the throttle's kworker, which waits for a CPU, and a point that
# starts within the last one's slice is credited its idle time (a
# startdelay of 300 ms before each point did not remove them): 2000
# -25%/+20% there (+5% before, when the ramp's idle gap pulled every
# point down).  The knee's
# IOPS margin is 20% (--knee-gain) and the crossover's bandwidth margin 50%
# (--crossover-bw; an IOPS-bound step doubles the bandwidth), not the
# defaults of 10%.
#
# Environment (set by CTest): IOGAUGE_BIN.
import csv
import io
import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
import xml.etree.ElementTree as ET

from clitest import capture, check, finish, parts

BIN = os.path.abspath(os.environ["IOGAUGE_BIN"])
FIO = shutil.which("fio")
SVG = "{http://www.w3.org/2000/svg}"


def seq_job(path, data):
    with open(path, "w") as f:
        f.write("[seq]\nfilename=%s\nsize=1m\nrw=read\nioengine=libaio\n" % data)


def cli_checks():
    tmp = tempfile.mkdtemp(prefix="iogauge-sweep-")
    try:
        data, job = os.path.join(tmp, "data"), os.path.join(tmp, "seq.fio")
        seq_job(job, data)
        # Bad input: nothing runs (the data file is never laid out), nothing written.
        out, bad_plots = os.path.join(tmp, "out.csv"), os.path.join(tmp, "bad-plots")
        for args, want in ((["--nosuch=1,2"], "--nosuch: not a job option"),
                           (["--iodepth=16..1x2"], "range '16..1x2' is empty"),
                           (["--iodepth=1..8x1"], "the factor after x"),
                           (["--iodepth=1,,2"], "an empty value"),
                           (["--iodepth=1,abc"], "point iodepth=abc: iogauge: --set iodepth=abc"),
                           (["--bs=4k,0"], "point bs=0"),
                           ([], "no axis")):
            rc, so, se = capture([BIN, "sweep", job, "--output=" + out, "--plot=" + bad_plots] +
                                 args)
            check(rc == 2 and want in se and not so,
                  "%s: exit %d, want 2 and %r: %s" % (args, rc, want, se))
            check(not os.path.exists(data) and not os.path.exists(out) and
                  not os.path.exists(bad_plots),
                  "%s: something was written" % args)
        # The effect of each point: size/bs reads, fio's count on the same job.
        plots = os.path.join(tmp, "plots")
        rc, so, se = capture([BIN, "sweep", job, "--bs=4k..64kx4", "--iodepth=1,4",
                              "--output-format=json", "--plot=" + plots])
        if not check(rc == 0, "json sweep: exit %d: %s" % (rc, se)):
            return
        doc = json.loads(so)
        pts = doc["points"]
        check([p["set"] for p in pts] ==
              [{"bs": b, "iodepth": d} for d in ("1", "4") for b in ("4k", "16k", "64k")],
              "points in the wrong order: %s" % [p["set"] for p in pts])
        fio_ios = {}
        for b in ("4k", "16k", "64k"):
            if FIO:
                p = subprocess.run([FIO, job, "--bs=" + b, "--output-format=json"],
                                   capture_output=True, text=True)
                fio_ios[b] = json.loads(p.stdout[p.stdout.index("{"):])["jobs"][0]["read"][
                    "total_ios"] if p.returncode == 0 else None
        for p in pts:
            bs = {"4k": 4096, "16k": 16384, "64k": 65536}[p["set"]["bs"]]
            check(p["ios"] == (1 << 20) // bs, "%s: %d reads, want %d" %
                  (p["set"], p["ios"], (1 << 20) // bs))
            if FIO:
                check(fio_ios[p["set"]["bs"]] == p["ios"], "%s: fio did %s reads, iogauge %d" %
                      (p["set"], fio_ios[p["set"]["bs"]], p["ios"]))
            check(abs(p["bw_bytes"] - p["iops"] * bs) <= 0.01 * p["bw_bytes"],
                  "%s: bw %f is not iops x bs" % (p["set"], p["bw_bytes"]))
            check(p["p50_ns"] <= p["p99_ns"] <= p["p99.9_ns"] and p["lat_mean_ns"] > 0,
                  "%s: percentiles out of order" % p["set"])
        check(len(doc["crossovers"]) == 2 and len(doc["knees"]) == 0,
              "bs is the first axis: no knee, a crossover per depth: %s" % doc["knees"])
        # The plots: a series per depth, a circle per point, valid XML.
        for name, nseries in (("iops.svg", 2), ("latency.svg", 2), ("bandwidth.svg", 2)):
            try:
                root = ET.parse(os.path.join(plots, name)).getroot()
            except (OSError, ET.ParseError) as e:
                check(False, "%s: %s" % (name, e))
                continue
            lines = root.findall(".//%spolyline" % SVG)
            dots = root.findall(".//%scircle[@class='point']" % SVG)
            check(len(lines) == nseries and len(dots) == 6,
                  "%s: %d series, %d points" % (name, len(lines), len(dots)))
            if name == "bandwidth.svg":
                xs = sorted({float(c.get("data-x")) for c in dots})
                check(xs == [4096, 16384, 65536], "bandwidth.svg x: %s" % xs)
        # numjobs: each clone's report entry summed (fio 3.33 too reports a
        # job a clone); the percentiles from all their bins.
        rc, so, se = capture([BIN, "sweep", job, "--numjobs=1..3+2", "--output-format=json"])
        if check(rc == 0, "numjobs sweep: exit %d: %s" % (rc, se)):
            got = [(p["set"]["numjobs"], p["ios"]) for p in json.loads(so)["points"]]
            check(got == [("1", 256), ("3", 768)], "numjobs sweep: reads %s" % got)
            if FIO:
                p = subprocess.run([FIO, job, "--numjobs=3", "--output-format=json"],
                                   capture_output=True, text=True)
                fj = json.loads(p.stdout[p.stdout.index("{"):])["jobs"] if p.returncode == 0 else []
                check(sum(j["read"]["total_ios"] for j in fj) == 768,
                      "fio numjobs=3: %s reads" % [j["read"]["total_ios"] for j in fj])
        # CSV and text of the same job: the same points, the CSV's columns.
        rc, so, se = capture([BIN, "sweep", job, "--iodepth=1..4x2", "--output-format=csv"])
        rows = list(csv.DictReader(io.StringIO(so)))
        check(rc == 0 and [r["iodepth"] for r in rows] == ["1", "2", "4"] and
              all(r["repeats"] == "1" and float(r["iops"]) > 0 and r["knee"] in ("0", "1")
                  for r in rows), "csv: exit %d: %s %s" % (rc, rows, se))
        # Repeats: each point's runs, their mean and 95% interval (Student's
        # t, 12.706 for two), the knee's range over the repeats.
        rc, so, se = capture([BIN, "sweep", job, "--iodepth=1,2", "--repeat=2",
                              "--output-format=json"])
        if check(rc == 0, "repeat: exit %d: %s" % (rc, se)):
            doc = json.loads(so)
            for p in doc["points"]:
                v = [r["iops"] for r in p["runs"]]
                half = 12.706 * abs(v[0] - v[1]) / 2 ** 0.5 / 2 ** 0.5
                check(len(v) == 2 and abs(p["iops"] - sum(v) / 2) <= 1e-6 * p["iops"] and
                      abs(p["iops_ci95"] - half) <= 1e-6 * max(half, 1),
                      "repeat: %s: mean %f +- %f of %s" % (p["set"], p["iops"], p["iops_ci95"], v))
            k = doc["knees"][0]
            check(doc["repeat"] == 2 and "repeats_none" in k and "repeats_lowest" in k,
                  "repeat: the knee's range over the repeats is missing: %s" % k)
        rc, so, se = capture([BIN, "sweep", job, "--iodepth=1,2"])
        check(rc == 0 and so.splitlines()[0].split()[:2] == ["iodepth", "IOPS"] and
              "knee along iodepth: " in so, "text: %d %s %s" % (rc, so, se))
        stopped(tmp)
        slo_input(tmp)
        slo_stopped(tmp)
        child_killed(tmp)
    finally:
        shutil.rmtree(tmp)


def stopped(tmp):
    """SIGTERM during the first of two 30 s points: the sweep ends within a
    second (the signal passed to the run, which reports), with the part
    it measured in the report and status 143."""
    data, job = os.path.join(tmp, "long.dat"), os.path.join(tmp, "long.fio")
    with open(job, "w") as f:
        f.write("[long]\nfilename=%s\nsize=1m\nrw=randread\ntime_based\nruntime=30\n" % data)
    p = subprocess.Popen([BIN, "sweep", job, "--bs=4k,8k", "--output-format=json"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    kids = "/proc/%d/task/%d/children" % (p.pid, p.pid)
    end = time.monotonic() + 30
    # Running once the point's child (not the --parse-only one) laid out its file.
    while time.monotonic() < end and p.poll() is None:
        if os.path.exists(data) and os.path.getsize(data) == 1 << 20 and \
           open(kids).read().strip():
            break
        time.sleep(0.02)
    time.sleep(0.2)  # into its I/O: the child has ramped up, not a wait for an event
    t0 = time.monotonic()
    p.send_signal(signal.SIGTERM)
    try:
        out, err = p.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
    took = time.monotonic() - t0
    try:
        pts = json.loads(out)["points"]
    except ValueError:
        pts = None
    check(p.returncode == 128 + signal.SIGTERM and took < 1.0 and pts is not None and
          len(pts) == 1 and pts[0]["ios"] > 0,
          "SIGTERM: exit %d after %.2f s, points %s: %s" % (p.returncode, took, pts, err))
    print("SIGTERM: exit %d after %.2f s, %s I/Os of the point reported" %
          (p.returncode, took, pts[0]["ios"] if pts else None))


def child_killed(tmp):
    """A point's child killed (SIGKILL, as the OOM killer does) is a failure
    named with its signal, exit 1: not a stop by the user (exit 128 was
    given before: the reviewer's finding)."""
    job = os.path.join(tmp, "killed.fio")
    with open(job, "w") as f:
        f.write("[k]\nioengine=null\nsize=1m\nrw=randread\ntime_based\nruntime=30\n")
    p = subprocess.Popen([BIN, "sweep", job, "--bs=4k,8k"], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    kids = "/proc/%d/task/%d/children" % (p.pid, p.pid)
    end = time.monotonic() + 20
    killed = False
    while time.monotonic() < end and p.poll() is None and not killed:
        for pid in open(kids).read().split():
            try:
                cmd = open("/proc/%s/cmdline" % pid).read()
            except OSError:
                continue
            if "--parse-only" not in cmd and "--output-format=json+" in cmd:
                os.kill(int(pid), signal.SIGKILL)
                killed = True
        time.sleep(0.02)
    try:
        out, err = p.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
    check(killed and p.returncode == 1 and "killed by signal 9 (Killed)" in err,
          "a point's child killed: exit %d: %s" % (p.returncode, err[-300:]))


def slo_stopped(tmp):
    """SIGTERM once the lowest rate has met, during the next run: exit 143
    and the walk so far, with no answer claimed ("no rate meets" was
    printed here before: the reviewer's finding)."""
    job = os.path.join(tmp, "slostop.fio")
    with open(job, "w") as f:
        f.write("[s]\nioengine=null\nsize=1m\nrw=randread\ntime_based\nruntime=5s\n")
    p = subprocess.Popen([BIN, "slo", job, "--target=p99<=10s", "--min-rate=100",
                          "--max-rate=1000", "--set", "runtime=1s"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    seen = []
    for line in p.stderr:
        seen.append(line)
        if "rate_iops=100:" in line:
            break
    p.send_signal(signal.SIGTERM)
    try:
        out, err = p.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
    check(p.returncode == 128 + signal.SIGTERM and
          "answer: none: the search stopped before it ended (the highest rate that met so "
          "far: rate_iops=100)" in out and "no rate meets" not in out + err,
          "slo stopped mid-search: exit %d: %s%s%s" % (p.returncode, out, "".join(seen), err))


def slo_input(tmp):
    """iogauge slo's bad input exits 2 with nothing run; a target that the
    lowest rate misses (p99 <= 1 ns) is said plainly, exit 1; the
    closed-loop form walks the depths up to the first that misses."""
    data, job = os.path.join(tmp, "slo.dat"), os.path.join(tmp, "slo.fio")
    with open(job, "w") as f:
        f.write("[slo]\nfilename=%s\nsize=1m\nrw=randread\nruntime=200ms\ntime_based\n" % data)
    for args, want in ((["--target=p101<2ms"], "the percentile '101' is not a number above 0"),
                       (["--target=p99"], "a percentile and a bound"),
                       (["--target=p99<=2ms", "--iodepth=1,x"], "at most 64 numbers"),
                       (["--target=p99<=2ms", "--set", "iodepth=abc"], "'abc' is not a number"),
                       (["--target=p99<=2ms", "--min-rate=0"], "--min-rate=0"),
                       ([], "no target")):
        rc, so, se = capture([BIN, "slo", job] + args)
        check(rc == 2 and want in se and not so, "slo %s: exit %d, want 2 and %r: %s" %
              (args, rc, want, se))
        check(not os.path.exists(data), "slo %s: the job ran" % args)
    rc, so, se = capture([BIN, "slo", job, "--target=p99<=1ns", "--min-rate=100",
                          "--max-rate=1000"])
    check(rc == 1 and "no rate meets the targets" in se and "rate_iops=100" in se and
          "answer: no rate meets" in so, "slo, a target missed at the lowest rate: exit %d: %s%s" %
          (rc, so, se))
    # The closed-loop form: depths walked in order up to the first that
    # misses; every depth meets 10 s, none meets 1 ns.
    for target, want, walked in (("p99<=10s", 4, [1, 2, 4]), ("p99<=1ns", None, [1])):
        rc, so, se = capture([BIN, "slo", job, "--target=" + target, "--min-rate=100",
                              "--max-rate=200", "--repeat=1", "--iodepth=1..4x2",
                              "--set", "ioengine=libaio", "--output-format=json"])
        doc = json.loads(so) if so else {}
        check(doc.get("answer_iodepth") == want and
              [d["iodepth"] for d in doc.get("closed_loop", [])] == walked,
              "slo %s closed loop: exit %d, %s %s" % (target, rc, doc.get("closed_loop"), se))


def throttled(fn):
    """Runs @fn(dev, major:minor, cgroup folder, prefix, tmp) with a loop device over a tmpfs file, reads
    throttled to 2000/s in a cgroup v1 blkio group that @prefix enters;
    removes them all after.  Skips when not root or no blkio."""
    if os.geteuid() != 0 or not os.path.isdir("/sys/fs/cgroup/blkio"):
        print("skip: not root, or no cgroup v1 blkio: the throttled device")
        return
    tmp = tempfile.mkdtemp(prefix="iogauge-sweep-dev-")
    cg = "/sys/fs/cgroup/blkio/iogauge-sweep-%d" % os.getpid()
    mounted = loop = made = None
    try:
        mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=40m", "iogauge-sweep",
                                  tmp]).returncode == 0
        if not mounted:
            print("skip: no tmpfs mount")
            return
        img = os.path.join(tmp, "img")
        with open(img, "wb") as f:
            f.truncate(32 << 20)
        p = subprocess.run(["losetup", "-f", "--show", img], capture_output=True, text=True)
        if p.returncode:
            print("skip: no loop device: %s" % p.stderr)
            return
        loop = p.stdout.strip()
        os.mkdir(cg)
        made = True
        with open("/sys/block/%s/dev" % os.path.basename(loop)) as f:
            majmin = f.read().strip()
        with open(os.path.join(cg, "blkio.throttle.read_iops_device"), "w") as f:
            f.write("%s 2000\n" % majmin)
        prefix = ["sh", "-c", 'echo $$ > %s/cgroup.procs && exec "$@"' % cg, "sh"]
        fn(loop, majmin, cg, prefix, tmp)
    finally:
        if loop:
            subprocess.run(["losetup", "-d", loop])
        if made:
            os.rmdir(cg)
        if mounted:
            subprocess.run(["umount", tmp])
        os.rmdir(tmp)


def device_job(path, dev, extra):
    with open(path, "w") as f:
        f.write("[dev]\nfilename=%s\nrw=randread\nbs=4k\ndirect=1\nioengine=libaio\n"
                "ramp_time=200ms\nruntime=500ms\ntime_based\n%s" % (dev, extra))


def device_checks(dev, majmin, cg, prefix, tmp):
    job = os.path.join(tmp, "dev.fio")
    device_job(job, dev, "")
    rc, so, se = capture(prefix + [BIN, "sweep", job, "--iodepth=1,16",
                                   "--knee-gain=20", "--output-format=json"])
    if check(rc == 0, "depth sweep: exit %d: %s" % (rc, se)):
        doc = json.loads(so)
        iops = [p["iops"] for p in doc["points"]]
        check(1900 <= iops[0] <= 2100 and 1500 <= iops[1] <= 2400,
              "depth sweep: IOPS %s, want 2000 +-5%% at depth 1, -25%%/+20%% at 16" % iops)
        knee = doc["knees"][0]["value"]
        check(knee == "1", "depth sweep: knee at %s, want iodepth=1 (flat from there): %s" %
              (knee, [(p["iops"], p["p99_ns"]) for p in doc["points"]]))
        print("depth sweep: IOPS %s, knee iodepth=%s" % (["%.0f" % v for v in iops], knee))
    device_job(job, dev, "iodepth=16\n")
    plots = os.path.join(tmp, "plots")
    rc, so, se = capture(prefix + [BIN, "sweep", job, "--rate_iops=1000..4000x2",
                                   "--knee-gain=20", "--output-format=json", "--plot=" + plots])
    if check(rc == 0, "rate sweep: exit %d: %s" % (rc, se)):
        doc = json.loads(so)
        iops = [p["iops"] for p in doc["points"]]
        # Under the cap a point reads at most its rate (a loaded machine
        # may fall short of it: 356 for 500 once) and the curve rises; at
        # the cap it reads 2000 +-5% (1981-2032 in 11 sweeps); above it,
        # its depth of 16 full, no more than a closed loop at depth 16
        # (+20%: 1852-2048 in 11; a starved worker that polls for
        # completions read 1163 for 4000 once at load 15).
        check(iops[0] <= 1050 and iops[1] > 1.2 * iops[0] and 1900 <= iops[1] <= 2100 and
              iops[2] <= 2400, "rate sweep: IOPS %s" % iops)
        knee = doc["knees"][0]["value"]
        check(knee == "2000", "rate sweep: knee at %s, want 2000: %s" %
              (knee, [(p["iops"], p["p99_ns"]) for p in doc["points"]]))
        print("rate sweep: IOPS %s, knee rate_iops=%s" % (["%.0f" % v for v in iops], knee))
        # The knee marked on the plots: at x = 2000 on IOPS against the
        # rate, at the knee's IOPS and p99 on the hockey stick.
        try:
            marks = [ET.parse(os.path.join(plots, f)).getroot().find(".//%sg[@class='mark']" % SVG)
                     for f in ("iops.svg", "latency.svg")]
        except (OSError, ET.ParseError) as e:
            marks = [None, None]
            print("plots: %s" % e)
        fig = doc["knees"][0].get("figures") or {}
        check(marks[0] is not None and float(marks[0].get("data-x")) == 2000 and
              marks[1] is not None and
              abs(float(marks[1].get("data-x")) - fig.get("iops", -1)) < 1e-3 * 2000 and
              abs(float(marks[1].get("data-y")) - fig.get("p99_ns", -1) / 1e3) <
              1e-3 * fig.get("p99_ns", 1) / 1e3,
              "knee marks: %s, knee %s" % ([m is not None and m.attrib for m in marks], fig))
    # Bandwidth too, 32 MiB/s: 2000 x 16k.  IOPS-bound up to 16k, then the
    # IOPS halve as the block doubles: the crossover is at 16k.
    with open(os.path.join(cg, "blkio.throttle.read_bps_device"), "w") as f:
        f.write("%s %d\n" % (majmin, 32 << 20))
    rc, so, se = capture(prefix + [BIN, "sweep", job, "--bs=8k..64kx2", "--crossover-bw=50",
                                   "--output-format=json"])
    if check(rc == 0, "bs sweep: exit %d: %s" % (rc, se)):
        doc = json.loads(so)
        cross = doc["crossovers"][0]["value"]
        mbs = ["%.1f" % (p["bw_bytes"] / 1e6) for p in doc["points"]]
        check(cross == "16k", "bs sweep: crossover at %s, want 16k: MB/s %s" % (cross, mbs))
        print("bs sweep: MB/s %s, crossover bs=%s" % (mbs, cross))
    with open(os.path.join(cg, "blkio.throttle.read_bps_device"), "w") as f:
        f.write("%s 0\n" % majmin)
    # slo: the highest rate with p99 <= 50 ms from each I/O's intended
    # start, searched up to 3000 (which the device cannot keep): at most
    # the cap, then a run of our own at the answer meets the target.  The
    # cap an evenly paced open loop sees is 2000 +20% here: a new slice
    # starts with a slice's budget, and an idle gap shorter than a slice's
    # life is credited too, so an open loop at 2300/s passes the cap in
    # about a third of half-second runs, fio 3.33's as well (2253-2295 of
    # 2300, iogauge 2334; the cgroup's own count agrees: 1566 reads in 0.7
    # s, not 1400: bench/throttle.py); a closed loop gets 2000 +-5%.
    # Tighter targets are not stable on a loaded machine: the throttle
    # gave p99s of 7 to 150 ms at rates from 500 to 2000, not rising with
    # the rate.  tests/cli/sweep_service.py has a device with a service
    # time, where the answer is below the cap.
    for attempt in (1, 2):
        rc, so, se = capture(prefix + [BIN, "slo", job, "--target=p99<=50ms", "--min-rate=200",
                                       "--max-rate=3000", "--repeat=2", "--tolerance=20",
                                       "--output-format=json"])
        # A machine that stalls the process for 100 ms (load 15 and more
        # here) misses at any rate: once more, said.
        if rc != 1 or "no rate meets" not in se or attempt == 2:
            break
        print("note: slo: the lowest rate missed (%s); once more" % se.strip().splitlines()[-2:])
    if check(rc == 0, "slo: exit %d: %s" % (rc, se)):
        doc = json.loads(so)
        ans = doc["answer_rate_iops"]
        walked = [(w["rate_iops"], round(w["resp"]["p99_ns"] / 1e6, 2), w["meets"])
                  for w in doc["walk"]]
        check(ans is not None and 200 <= ans <= 2400 and doc["answer_met"] == 2 and
              doc["lowest_missed_rate_iops"] is not None and
              ans < doc["lowest_missed_rate_iops"] <= 3000,
              "slo: answer %s, walked %s" % (ans, walked))
        print("slo: answer rate_iops=%s (capacity %.0f), walked %s" %
              (ans, doc["capacity_iops"], walked))
        if ans:
            rc, so, se = capture(prefix + [BIN, job, "--set", "rate_iops=%d" % ans,
                                           "--output-format=json"])
            r = json.loads(so)["jobs"][0]["iogauge"].get("rate", {}).get("read") if rc == 0 \
                else None
            if r is not None and not r["kept"]:
                # iogauge's own verdict: a run that did not keep its rate
                # is an overloaded one, whose latency says nothing.
                print("note: the run at %d did not keep its rate (%.0f): the machine or the "
                      "throttle fell short; its p99 is not checked" % (ans, r["achieved"]))
            else:
                check(r is not None and r["resp_ns"]["percentile"]["99.000000"] <= 50e6,
                      "slo: a run at rate_iops=%s: %s %s" %
                      (ans, r and r["resp_ns"]["percentile"], se))
            if r:
                print("slo: a run of its own at %d: %.0f IOPS, p99 %.2f ms" %
                      (ans, r["achieved"], r["resp_ns"]["percentile"]["99.000000"] / 1e6))


for f in parts({"cli": [cli_checks], "device": [lambda: throttled(device_checks)]}):
    f()
finish("sweep")
