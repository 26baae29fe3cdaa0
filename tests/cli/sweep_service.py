#!/usr/bin/env python3
# iogauge sweep and slo on a device with a service time and bounded
# parallelism, whose capacity and knee are known: tests/slowdev.c, a FUSE
# file whose every read takes 10 ms on average (5 to 15) on one of 20
# slots, read through a loop device with direct I/O (root).  Its capacity
# is 20 / 10 ms = 2000 IOPS and, by Little's law, the depth that reaches
# it is 2000 x 10 ms = 20.
#   - A depth sweep 10, 20, 40, 80: at 10 the IOPS are depth / 10 ms less
#     the FUSE and loop round trip outside the slot (-30%: 0.1 ms on a
#     quiet machine, up to 2 ms with five others' builds on the 2 CPUs,
#     where depth 10 read 775-998); at 20 the cap -30% (1950-1981 at loads
#     5-7, slowdev's threads being SCHED_FIFO; 1534 once without), at 40
#     -10%/+5% and at 80 +-5%, with the mean latency depth / IOPS (40 ms:
#     the queue, not the device, grows); the knee is found at depth 20,
#     with --knee-gain=20 (the step from 20 to 40 gained up to 13%).  A
#     stall during one point moves the knee (p99 38 ms at depth 20 once,
#     15 ms in the others): the sweep runs once more then, said.  fio 3.33
#     at depth 80 reads the same by its bandwidth (its IOPS count reads
#     issued, not completed: below).  The server saw 80 reads at once (the
#     depth reached the device) and at least the reads the sweep counted.
#   - slo with p99 <= 60 ms from each I/O's intended start, searched from
#     200 to 2800 at depth 128: its answer is below 2000 (a rate over the
#     capacity cannot be kept, and a run that does not keep its rate
#     misses; no probe of the bisection falls in 2000-2030, where 99% of
#     the rate is within the window's edge), at least 500 (below the cap
#     the device queues little, p99 15-25 ms, and the answer was 1459-1987
#     at loads 5-7; stalls of 100-180 ms at load 7.5 pulled one bisection
#     to 747), and a run of our own at the answer keeps its rate (within
#     5%) and meets the target.
# Unlike blk-throttle (tests/cli/sweep.py's device part: 200 reads at each
# 100 ms slice's start, so a closed loop is saturated at depth 1), the slots
# here serve in their own time: the capacity is exact however late a
# server thread wakes.
#
# Environment (set by CTest): IOGAUGE_BIN, SLOWDEV_BIN (empty: no libfuse3).
import contextlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

from clitest import capture, check, finish

BIN = os.path.abspath(os.environ["IOGAUGE_BIN"])
SLOWDEV = os.environ.get("SLOWDEV_BIN", "")
FIO = shutil.which("fio")
SERVICE_US, SLOTS = 10000, 20
CAP = SLOTS * 1e6 / SERVICE_US  # IOPS
KNEE = round(CAP * SERVICE_US / 1e6)  # depth


def skip(why):
    print("skip: " + why)
    sys.exit(77)


@contextlib.contextmanager
def slowdev(tmp, served):
    """The loop device over slowdev's /img, mounted in @tmp; removed after.
    @served gets the server's count line at its exit."""
    mnt = os.path.join(tmp, "mnt")
    os.mkdir(mnt)
    err = open(os.path.join(tmp, "slowdev.err"), "w+")
    srv = subprocess.Popen([SLOWDEV, mnt, "32", str(SERVICE_US), str(SLOTS)], stderr=err)
    img, loop, mounted = os.path.join(mnt, "img"), None, False
    try:
        end = time.monotonic() + 10
        while not os.path.exists(img) and srv.poll() is None and time.monotonic() < end:
            time.sleep(0.02)
        mounted = os.path.exists(img)
        if not mounted:
            err.seek(0)
            skip("slowdev did not mount: %s" % err.read().strip())
        p = subprocess.run(["losetup", "--direct-io=on", "-r", "-f", "--show", img],
                           capture_output=True, text=True)
        if p.returncode:
            skip("no loop device over slowdev: %s" % p.stderr.strip())
        loop = p.stdout.strip()
        with open("/sys/block/%s/loop/dio" % os.path.basename(loop)) as f:
            dio = f.read().strip()
        # Buffered, the loop device would read the page cache, not slowdev.
        if check(dio == "1", "%s over slowdev: direct I/O %s, want 1" % (loop, dio)):
            yield loop
    finally:
        if loop:
            subprocess.run(["losetup", "-d", loop])
        if mounted and subprocess.run(["umount", mnt]).returncode:
            srv.kill()
        try:
            srv.wait(timeout=10)
        except subprocess.TimeoutExpired:
            srv.kill()
            srv.wait()
        err.seek(0)
        served.append(err.read())
        err.close()


def write_job(path, dev, extra=""):
    with open(path, "w") as f:
        f.write("[svc]\nfilename=%s\nrw=randread\nbs=4k\ndirect=1\nioengine=libaio\n"
                "ramp_time=200ms\nruntime=500ms\ntime_based\n%s" % (dev, extra))


def fio_read(job, depth):
    """fio 3.33's (IOPS, bytes/s) of @job at @depth, or None."""
    p = subprocess.run([FIO, job, "--readonly", "--iodepth=%d" % depth, "--output-format=json"],
                       capture_output=True, text=True)
    if p.returncode:
        return None
    r = json.loads(p.stdout[p.stdout.index("{"):])["jobs"][0]["read"]
    return r["iops"], r["bw_bytes"]


def depth_sweep(dev, job):
    """The sweep's points, and the reads it counted (ramps left out)."""
    for attempt in (1, 2):
        rc, so, se = capture([BIN, "sweep", job, "--iodepth=10,20,40,80", "--knee-gain=20",
                              "--output-format=json"])
        if not check(rc == 0, "depth sweep: exit %d: %s" % (rc, se)):
            return 0
        doc = json.loads(so)
        knee = doc["knees"][0]["value"] if doc["knees"] else None
        # A stall of the machine during one point (p99 80 ms at depth 20
        # once at load 8, reading 77% of the cap) moves the knee: once
        # more, said.
        if knee == str(KNEE) or attempt == 2:
            break
        print("note: depth sweep: knee at %s (%s); once more" %
              (knee, [(p["set"]["iodepth"], round(p["iops"]), round(p["p99_ns"] / 1e6, 1))
                      for p in doc["points"]]))
    pts = {int(p["set"]["iodepth"]): p for p in doc["points"]}
    iops = {d: p["iops"] for d, p in pts.items()}
    want = 10 * 1e6 / SERVICE_US
    check(0.70 * want <= iops[10] <= 1.02 * want,
          "depth 10: %.0f IOPS, want 10 / %d us = %.0f (-30%%)" % (iops[10], SERVICE_US, want))
    check(0.70 * CAP <= iops[20] <= 1.02 * CAP,
          "depth 20: %.0f IOPS, want the cap %.0f (-30%%)" % (iops[20], CAP))
    check(0.90 * CAP <= iops[40] <= 1.05 * CAP,
          "depth 40: %.0f IOPS, want the cap %.0f -10%%/+5%%" % (iops[40], CAP))
    check(0.95 * CAP <= iops[80] <= 1.05 * CAP,
          "depth 80: %.0f IOPS, want the cap %.0f +-5%%" % (iops[80], CAP))
    lat80 = pts[80]["lat_mean_ns"] / 1e6
    check(abs(lat80 - 80 / iops[80] * 1e3) <= 0.15 * 80 / iops[80] * 1e3,
          "depth 80: mean latency %.2f ms, want 80 / IOPS = %.2f ms" %
          (lat80, 80 / iops[80] * 1e3))
    check(knee == str(KNEE), "knee at iodepth=%s, want %d: %s" %
          (knee, KNEE, [(d, round(v)) for d, v in sorted(iops.items())]))
    print("depth sweep: IOPS %s, p99 %s ms, mean latency at 80 %.2f ms, knee iodepth=%s" %
          (["%d:%.0f" % (d, v) for d, v in sorted(iops.items())],
           ["%.1f" % (pts[d]["p99_ns"] / 1e6) for d in sorted(pts)], lat80, knee))
    if FIO:
        # fio 3.33's IOPS count the reads issued after the ramp (its
        # total_io_u, at submission), its bandwidth and latencies the reads
        # completed after it; both over a runtime that includes the queue's
        # drain at the end.  At depth 80 on this device the two differ by
        # the depth: 1006 reads issued, 1085 completed in 545 ms (1846 IOPS,
        # 1991 x 4 KiB/s), where iogauge counted 1088 completed in 544 ms
        # (1998 IOPS).  So fio's bandwidth in reads is the referee, +-5%.
        f = fio_read(job, 80)
        check(f is not None and abs(f[1] / 4096 - iops[80]) <= 0.05 * iops[80],
              "depth 80: fio %s (IOPS, B/s), iogauge %.0f IOPS" % (f, iops[80]))
        print("depth 80: fio %.0f IOPS, %.0f reads/s by its bandwidth; iogauge %.0f IOPS" %
              (f[0] if f else 0, f[1] / 4096 if f else 0, iops[80]))
    return sum(p["ios"] for p in doc["points"])


def slo(dev, job):
    for attempt in (1, 2):
        rc, so, se = capture([BIN, "slo", job, "--target=p99<=60ms", "--min-rate=200",
                              "--max-rate=2800", "--repeat=2", "--tolerance=5",
                              "--set", "iodepth=128", "--output-format=json"])
        # A machine that stalls the process for 40 ms misses at any rate:
        # once more, said.
        if rc != 1 or "no rate meets" not in se or attempt == 2:
            break
        print("note: slo: the lowest rate missed (%s); once more" % se.strip().splitlines()[-2:])
    if not check(rc == 0, "slo: exit %d: %s" % (rc, se)):
        return
    doc = json.loads(so)
    ans = doc["answer_rate_iops"]
    walked = [(w["rate_iops"], round(w["resp"]["p99_ns"] / 1e6, 2), w["meets"])
              for w in doc["walk"]]
    check(ans is not None and 0.25 * CAP <= ans < CAP and doc["answer_met"] == 2,
          "slo: answer %s, want in [%.0f, %.0f): walked %s" % (ans, CAP / 4, CAP, walked))
    print("slo: answer rate_iops=%s (capacity %.0f), walked %s" %
          (ans, doc["capacity_iops"], walked))
    if not ans:
        return
    rc, so, se = capture([BIN, job, "--set", "rate_iops=%d" % ans, "--set", "iodepth=128",
                          "--output-format=json"])
    r = json.loads(so)["jobs"][0]["iogauge"].get("rate", {}).get("read") if rc == 0 else None
    # Kept within 5% (iogauge's own verdict wants 99%, which a device of
    # 10 ms misses now and then at 95% of its capacity: 1878 of 1906, its
    # p99 19 ms), and the target met.
    check(r is not None and r["achieved"] >= 0.95 * ans and
          r["resp_ns"]["percentile"]["99.000000"] <= 60e6,
          "slo: a run at rate_iops=%s: exit %d, %s %s" % (ans, rc, r, se))
    if r:
        print("slo: a run of its own at %d: %.0f IOPS, p99 %.2f ms" %
              (ans, r["achieved"], r["resp_ns"]["percentile"]["99.000000"] / 1e6))


def main():
    if os.geteuid() != 0:
        skip("not root: the FUSE mount and the loop device")
    if not SLOWDEV or not os.path.exists(SLOWDEV):
        skip("slowdev was not built (no libfuse3)")
    if not os.path.exists("/dev/fuse"):
        skip("no /dev/fuse")
    tmp = tempfile.mkdtemp(prefix="iogauge-service-")
    served = []
    counted = 0
    try:
        with slowdev(tmp, served) as dev:
            job = os.path.join(tmp, "svc.fio")
            write_job(job, dev)
            counted = depth_sweep(dev, job)
            slo(dev, job)
    finally:
        shutil.rmtree(tmp)
    m = re.search(r"slowdev: (\d+) reads, at most (\d+) at once", "".join(served))
    check(m is not None and int(m.group(1)) >= counted and int(m.group(2)) >= 80,
          "slowdev's count: %s (the sweep counted %d reads)" % ("".join(served).strip(), counted))
    if m:
        print("slowdev: %s reads, at most %s at once; the sweep counted %d" %
              (m.group(1), m.group(2), counted))


main()
finish("sweep_service")
