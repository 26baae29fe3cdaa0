#!/usr/bin/env python3
# iogauge pts on a loop device over a tmpfs file (8 MiB), as root.
# Refusals, each with the device's checksum unchanged and no report file
# made: a regular file, the device without --destroy-data, the device
# with ext4 or a GPT on it (libblkid's signatures), bad --mixes, --bs and
# --cell-time, a matrix without the tracked cell, a test that is not iops.  A one-round matrix
# of 3 mixes x 3 block sizes (0.5k included): 9 cells measured in the
# JSON, the purge done (BLKDISCARD), the preconditioning seen in the
# device's own counters (at least 2 x its capacity written), reads and
# writes both done.  Steady state: writes throttled to 2000/s (cgroup v1
# blkio), 1.5 s cells of 4k 0/100 are steady in the 5 rounds PTS's window
# needs, at 2000 IOPS; the plot has a point a round; with the throttle
# raised 25% after every round, 6 rounds are never steady.  SIGTERM during a
# cell: the run ends within a second, exit 143, and still reports.
#
# blk-throttle lets a new slice (100 ms) start with a slice's worth of
# I/O, and each cell is a new process after an idle gap: a 200 ms cell
# measured 1940-3050 IOPS against 2000 here, 1 s cells 2020-2328 (range
# 14%, but excursions of 7.7%: with values spread evenly over 15%, one
# window in 20 would pass 10%).  Hence 1.5 s cells, up to ~7% over, in the
# steady-state part (7.5 s of the test).
#
# Environment (set by CTest): IOGAUGE_BIN.
import hashlib
import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
import xml.etree.ElementTree as ET

from clitest import capture, check, finish

BIN = os.path.abspath(os.environ["IOGAUGE_BIN"])
SVG = "{http://www.w3.org/2000/svg}"
SIZE = 8 << 20


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def disk_stat(dev):
    """(read I/Os, sectors read, write I/Os, sectors written) of @dev."""
    with open("/sys/block/%s/stat" % os.path.basename(dev)) as f:
        v = [int(x) for x in f.read().split()]
    return v[0], v[2], v[4], v[6]


def pts(dev, *args):
    return capture([BIN, "pts", "iops", dev] + list(args), timeout=110)


def refusals(dev, back, tmp):
    report = os.path.join(tmp, "refused.json")
    cases = [
        (back, ["--destroy-data"], "not a block device (a regular file)"),
        (dev, [], "give --destroy-data"),
        (dev, ["--destroy-data", "--mixes=60/30"], "--mixes=60/30: '60/30' is not a read/write"),
        (dev, ["--destroy-data", "--bs=4k,3000"], "'3000' is not a block size"),
        (dev, ["--destroy-data", "--bs=64k"], "must hold the tracked cell, 4k at 0/100"),
        (dev, ["--destroy-data", "--max-rounds=0"], "--max-rounds=0: a whole number"),
        (dev, ["--destroy-data", "--cell-time=1.2.3"], "--cell-time=1.2.3: a time from 1ms"),
    ]
    before = digest(dev), digest(back)
    for target, args, want in cases:
        rc, out, err = pts(target, "--output=" + report, *args)
        check(rc == 2 and want in err, "pts %s %s: exit 2 with %r (%d, %r)" % (target, args, want, rc, err))
    rc, out, err = capture([BIN, "pts", "throughput", dev, "--destroy-data"])
    check(rc == 2 and "not a PTS test of this version" in err, "pts throughput: %d %r" % (rc, err))
    # ext4 on it: refused for its signature, whatever --destroy-data says.
    subprocess.run(["mkfs.ext4", "-q", "-F", dev], check=True)
    fs = digest(dev)
    rc, out, err = pts(dev, "--destroy-data", "--output=" + report)
    check(rc == 2 and "carries a filesystem (blkid: TYPE=ext4" in err and "nothing was written" in err,
          "ext4: exit 2 naming the filesystem (%d, %r)" % (rc, err))
    check(digest(dev) == fs, "ext4: the device is unchanged")
    subprocess.run(["wipefs", "-q", "-a", dev], check=True)
    # A partition table (GPT, no partitions: nothing built on it) is a signature too.
    if shutil.which("sfdisk"):
        subprocess.run(["sfdisk", "-q", dev], input="label: gpt\n", text=True, check=True,
                       capture_output=True)
        pt = digest(dev)
        rc, out, err = pts(dev, "--destroy-data", "--output=" + report)
        check(rc == 2 and "carries a partition table (blkid: PTTYPE=gpt" in err,
              "gpt: exit 2 naming the partition table (%d, %r)" % (rc, err))
        check(digest(dev) == pt, "gpt: the device is unchanged")
        # (wipefs asks the loop device, made without partscan, to re-read it: EINVAL, said.)
        subprocess.run(["wipefs", "-q", "-a", dev], check=True, capture_output=True)
    subprocess.run(["dd", "if=/dev/zero", "of=" + dev, "bs=1M", "count=8", "status=none", "oflag=direct"],
                   check=True)
    check(digest(dev) == before[0] and digest(back) == before[1],
          "refusals: device and file unchanged (sha256)")
    check(not os.path.exists(report), "refusals: no report file made")


def matrix(dev, tmp):
    # Named as /dev/disk/by-path names are, with ':' (fio's list separator
    # in filename=): the children must get the one device, escaped.
    link = os.path.join(tmp, "pci-0000:00:17.0-loop")
    os.symlink(dev, link)
    s0 = disk_stat(dev)
    rc, out, err = pts(link, "--destroy-data", "--cell-time=100ms", "--max-rounds=1",
                       "--mixes=100/0,65/35,0/100", "--bs=64k,4k,0.5k", "--output-format=json")
    s1 = disk_stat(dev)
    if not check(rc == 0, "matrix: exit 0 (%d, %r)" % (rc, err)):
        return
    d = json.loads(out)
    check(d["mixes"] == ["100/0", "65/35", "0/100"] and d["bs"] == ["64k", "4k", "0.5k"],
          "matrix: mixes and sizes %r %r" % (d["mixes"], d["bs"]))
    check(len(d["rounds"]) == 1, "matrix: one round")
    cells = [v for row in d["rounds"][0]["iops"] for v in row]
    check(len(cells) == 9 and all(v > 0 for v in cells), "matrix: 9 cells measured %r" % cells)
    check(len(d["table"]) == 3 and all(len(r) == 3 for r in d["table"]), "matrix: a 3 x 3 table")
    check(d["rounds"][0]["tracked_iops"] == d["rounds"][0]["iops"][2][1], "matrix: tracked is 4k 0/100")
    check(d["purge"]["done"] and "BLKDISCARD" in d["purge"]["how"], "matrix: purged %r" % d["purge"])
    check(d["capacity_bytes"] == SIZE and d["precondition"]["bytes_written"] == 2 * SIZE,
          "matrix: capacity and preconditioning %r" % d["precondition"])
    check(not d["steady_state"]["reached"] and d["steady_state"]["decision"] == "not reached",
          "matrix: one round is not a window %r" % d["steady_state"])
    # The device's own counters: precondition's 2 x 8 MiB and the cells' writes; reads done.
    written = (s1[3] - s0[3]) * 512
    check(written >= 2 * SIZE, "matrix: %d bytes written, at least %d" % (written, 2 * SIZE))
    check(s1[0] > s0[0], "matrix: reads done (%d)" % (s1[0] - s0[0]))


def steady(dev, majmin, tmp):
    if not os.path.isdir("/sys/fs/cgroup/blkio"):
        print("skip: no cgroup v1 blkio: the steady-state run")
        return
    cg = "/sys/fs/cgroup/blkio/iogauge-pts-%d" % os.getpid()
    os.mkdir(cg)
    try:
        with open(os.path.join(cg, "blkio.throttle.write_iops_device"), "w") as f:
            f.write("%s 2000\n" % majmin)
        plots = os.path.join(tmp, "plots")
        argv = ["sh", "-c", 'echo $$ > %s/cgroup.procs && exec "$@"' % cg, "sh", BIN, "pts",
                "iops", dev, "--destroy-data", "--cell-time=1500ms", "--precondition-loops=1",
                "--mixes=0/100", "--bs=4k", "--output-format=json", "--plot", plots]
        rc, out, err = capture(argv, timeout=110)
        if not check(rc == 0, "steady: exit 0 (%d, %r)" % (rc, err)):
            return
        d = json.loads(out)
        ss, rounds = d["steady_state"], [r["tracked_iops"] for r in d["rounds"]]
        check(ss["reached"] and len(rounds) == 5 and ss["window_first_round"] == 1
              and ss["window_last_round"] == 5,
              "steady: reached in the first window of 5 rounds (%r, %r)" % (rounds, ss))
        check(1700 <= ss["average"] <= 2300, "steady: average %.0f IOPS, the throttle's 2000"
              % ss["average"])
        check(ss["range_pct"] <= 20 and ss["excursion_pct"] <= 10, "steady: within the limits")
        check(abs(d["table"][0][0] - ss["average"]) < 1e-6, "steady: the table is the window's mean")
        svg = ET.parse(os.path.join(plots, "steady-state.svg")).getroot()
        series = {p.get("data-name"): p for p in svg.iter(SVG + "polyline")}
        check("tracked IOPS" in series and "least-squares fit" in series,
              "steady: plot series %r" % sorted(series))
        pts_ = [c for c in svg.iter(SVG + "circle") if c.get("class") == "point"]
        check(len(pts_) >= 5, "steady: a point a round in the plot (%d)" % len(pts_))
        print("steady: %s IOPS a round, range %.1f%%, excursion %.1f%%"
              % ([round(v) for v in rounds], ss["range_pct"], ss["excursion_pct"]))
        drifting(dev, majmin, cg, tmp)
    finally:
        os.rmdir(cg)


def drifting(dev, majmin, cg, tmp):
    """The throttle raised by 25% after every round (a cell a round): a
    device that never settles is never called steady."""
    limit = os.path.join(cg, "blkio.throttle.write_iops_device")
    err_path = os.path.join(tmp, "drift.err")
    rates = [1000 * 1.25 ** k for k in range(7)]
    with open(limit, "w") as f:
        f.write("%s %d\n" % (majmin, rates[0]))
    with open(err_path, "w") as e:
        p = subprocess.Popen(["sh", "-c", 'echo $$ > %s/cgroup.procs && exec "$@"' % cg, "sh",
                              BIN, "pts", "iops", dev, "--destroy-data", "--cell-time=300ms",
                              "--precondition-loops=0", "--max-rounds=6", "--mixes=0/100",
                              "--bs=4k", "--output-format=json"],
                             stdout=subprocess.PIPE, stderr=e, text=True)
    # After round k's line, the next round runs at rates[k].
    seen = 0
    while p.poll() is None:
        with open(err_path) as f:
            done = f.read().count(": round ")
        if done > seen and done < len(rates):
            with open(limit, "w") as f:
                f.write("%s %d\n" % (majmin, rates[done]))
            seen = done
        time.sleep(0.01)
    out, _ = p.communicate()
    with open(limit, "w") as f:
        f.write("%s 0\n" % majmin)
    if not check(p.returncode == 0, "drifting: exit 0 (%d)" % p.returncode):
        return
    d = json.loads(out)
    rounds, ss = [r["tracked_iops"] for r in d["rounds"]], d["steady_state"]
    check(len(rounds) == 6 and not ss["reached"] and ss["decision"] == "not reached"
          and ss["window_first_round"] == 2,
          "drifting: never steady in 6 rounds (%r, %r)" % (rounds, ss))
    check(rounds[-1] > rounds[0] * 1.5, "drifting: the throttle rose (%r)" % rounds)
    print("drifting: %s IOPS a round, excursion %.0f%%" % ([round(v) for v in rounds],
                                                        ss["excursion_pct"]))


def stopped(dev, tmp):
    err_path = os.path.join(tmp, "stop.err")
    base = disk_stat(dev)[2]
    with open(err_path, "w") as e:
        p = subprocess.Popen([BIN, "pts", "iops", dev, "--destroy-data", "--cell-time=20s",
                              "--precondition-loops=1", "--mixes=0/100", "--bs=4k"],
                             stdout=subprocess.PIPE, stderr=e, text=True)
    # The cell runs once the device has taken 200 writes past the preconditioning's 64.
    end = time.monotonic() + 30
    while time.monotonic() < end and disk_stat(dev)[2] < base + 64 + 200 and p.poll() is None:
        time.sleep(0.02)
    t0 = time.monotonic()
    p.send_signal(signal.SIGTERM)
    out, _ = p.communicate(timeout=30)
    took = time.monotonic() - t0
    with open(err_path) as f:
        err = f.read()
    check(p.returncode == 128 + signal.SIGTERM, "SIGTERM: exit 143 (%d, %r)" % (p.returncode, err))
    check(took < 1.0, "SIGTERM: ended in %.2f s" % took)
    check("steady state: not reached (stopped)" in out and "purge: BLKDISCARD" in out,
          "SIGTERM: still reports %r" % out)
    print("SIGTERM: ended in %.2f s" % took)


def main():
    if os.geteuid() != 0 or not shutil.which("losetup") or not shutil.which("mkfs.ext4"):
        print("skip: not root, or no losetup/mkfs.ext4")
        finish("pts")
    tmp = tempfile.mkdtemp(prefix="iogauge-pts-")
    mounted = loop = None
    try:
        mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=24m", "iogauge-pts",
                                  tmp]).returncode == 0
        if not mounted:
            print("skip: no tmpfs mount")
            return
        back = os.path.join(tmp, "back")
        with open(back, "wb") as f:
            f.truncate(SIZE)
        r = subprocess.run(["losetup", "-f", "--show", back], capture_output=True, text=True)
        if r.returncode:
            print("skip: no loop device: %s" % r.stderr)
            return
        loop = r.stdout.strip()
        with open("/sys/block/%s/dev" % os.path.basename(loop)) as f:
            majmin = f.read().strip()
        refusals(loop, back, tmp)
        matrix(loop, tmp)
        steady(loop, majmin, tmp)
        stopped(loop, tmp)
    finally:
        if loop:
            subprocess.run(["losetup", "-d", loop])
        if mounted:
            subprocess.run(["umount", tmp])
        os.rmdir(tmp)


main()
finish("pts")
