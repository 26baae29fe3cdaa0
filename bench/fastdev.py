#!/usr/bin/env python3
"""fio and iogauge side by side on a fast block device: 4 KiB random reads.

On a device that answers in microseconds the tool's own cost per I/O sets
the pace, which the virtio disk of bench/compare.py hides.  The device is
made here and removed at the end (also on an error, Ctrl-C or SIGTERM):
  - zram, where /sys/class/zram-control/hot_add exists: a device of its
    own (hot_add gives its number N; never zram0 or any other device it did
    not add), comp_algorithm lz4 (else the first one offered), --size bytes,
    filled with random bytes (dd oflag=direct) so that no read is of a zero
    page; at the end reset and hot_remove;
  - else, or with --loop: a loop device (losetup --direct-io=on) over a
    file on a tmpfs mounted in a temporary folder, filled the same way;
  - --device PATH: that block device, which is only read (both tools run
    with --readonly; all cases are reads anyway).
Must be run as root, to make the device.

Every case is the same command line for both tools:
  --readonly --name=CASE --filename=DEV --direct=1 --rw=randread --bs=4k
  --time_based --runtime=R plus the case's engine options (CASES below).
For each case, PAIRS pairs of runs (who goes first alternates), each tool
writing fio's JSON.  From the JSON: IOPS, context switches (ctx) and, for
the depth-1 cases, the clat p50, p99 and p99.9.  Two CPU figures per I/O:
  - CPU us/IO: usr + sys from wait4()'s rusage of the tool (fio's job
    process included, as fio waits for it), over the JSON's I/O count;
  - job thread CPU us/IO: the JSON's usr_cpu + sys_cpu over job_runtime.
Both tools take that from getrusage(RUSAGE_THREAD), so it leaves out
io_uring's io-wq workers, and on zram each read is handed to one of them
(an iou-wrk thread): in one depth-32 run the job thread had 0.3 (fio) and
0.4 (iogauge) of the process's CPU.  The first is the cost of
the whole run; the second is the tool's own submit and reap.  The first
is also split into usr and sys us/IO.  It prints the median and range of
the per-pair ratios iogauge/fio and each tool's median, and per case the
"least CPU ratio": fio's sys over its usr + sys, the CPU ratio a tool
would reach with fio's system calls (the same kernel work) and no user
time at all.

--floor PATH names a built t/io_uring from fio's source (fio does not
install it; build it in a fio 3.33 tree with `./configure && make
t/io_uring`).  With it, each pair of the tuned case also runs
  t/io_uring -d32 -s8 -c8 -b4096 -p0 -B1 -F1 -n1 -O1 -R1 -t0 -r R+1 DEV
(depth 32, batches of 8, no polling, registered buffers and file, one
thread, O_DIRECT, random, no latency tracking), which prints the IOPS of
each second; it runs R+1 s, so that it prints R of them, whose mean is its
IOPS.  Its CPU is the rusage of the process (usr + sys, io-wq workers
included) over its wall time.  The report gives the floor's IOPS and IOPS
per core (IOPS over the fraction of a CPU it used), and each tool's
tuned-case IOPS per core (I/Os per second of process CPU) as a share of
the floor's, per pair.

Nothing here asserts a speed.  Exit status: 0 when every run worked, 1 when
one failed, 2 for bad arguments, 77 when it cannot run here (not root, or
no zram and no loop device to be had).

usage: bench/fastdev.py [--pairs N] [--runtime S] [--size SIZE] [--cases A,B]
                        [--smoke] [--markdown] [--loop | --device PATH]
                        [--floor T_IO_URING] [--iogauge BIN] [--fio BIN]
"""
import argparse
import json
import os
import re
import signal
import stat
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from compare import add_common, parse_common  # noqa: E402
from examples import MIB, cell, cpu_per_io, kill_tree, size_option  # noqa: E402

SKIP = 77
TUNED = "io_uring-qd32-tuned"
# name: the engine's options, after the ones every case shares (COMMON).
CASES = [
    ("io_uring-qd1", ["--ioengine=io_uring", "--iodepth=1"]),
    ("io_uring-qd8", ["--ioengine=io_uring", "--iodepth=8"]),
    ("io_uring-qd32", ["--ioengine=io_uring", "--iodepth=32"]),
    ("io_uring-qd128", ["--ioengine=io_uring", "--iodepth=128"]),
    (TUNED, ["--ioengine=io_uring", "--iodepth=32", "--fixedbufs=1", "--registerfiles=1",
             "--iodepth_batch_submit=8", "--iodepth_batch_complete_min=8"]),
    ("libaio-qd32", ["--ioengine=libaio", "--iodepth=32"]),
    ("psync-qd1", ["--ioengine=psync", "--iodepth=1"]),
]
COMMON = ["--direct=1", "--rw=randread", "--bs=4k", "--time_based"]
LAT = [("p50", "50.000000"), ("p99", "99.000000"), ("p99.9", "99.900000")]


class Unavailable(Exception):
    """No device can be made here: the run is skipped, not failed."""


class RunFailed(Exception):
    pass


def put(path, text):
    with open(path, "w") as f:
        f.write(text)


def get(path):
    with open(path) as f:
        return f.read().strip()


def wait_for_node(dev):
    """udev makes the node a moment after the device: wait up to 5 s."""
    for _ in range(100):
        if os.path.exists(dev) and stat.S_ISBLK(os.stat(dev).st_mode):
            return
        time.sleep(0.05)
    raise RunFailed("%s did not appear" % dev)


def zram_remove(n):
    """Reset and remove zram N, which this script added.  A tool that was
    killed may hold the device open a moment longer: reset is retried."""
    for i in range(50):
        try:
            put("/sys/block/zram%d/reset" % n, "1")
            break
        except OSError:
            if i == 49:
                raise
            time.sleep(0.1)
    put("/sys/class/zram-control/hot_remove", str(n))


def zram_make(size, undo):
    """A zram device of its own: (its path, what it is).  Unavailable if
    none can be added (no zram module, or a read-only /sys)."""
    try:
        n = int(get("/sys/class/zram-control/hot_add"))
    except OSError as e:
        raise Unavailable("no zram device to be had: %s" % e)
    undo.append(lambda: zram_remove(n))
    blk = "/sys/block/zram%d" % n
    offered = get(blk + "/comp_algorithm").replace("[", "").replace("]", "").split()
    alg = "lz4" if "lz4" in offered else offered[0]
    put(blk + "/comp_algorithm", alg)
    put(blk + "/disksize", str(size))
    dev = "/dev/zram%d" % n
    wait_for_node(dev)
    return dev, "zram%d (added here, comp_algorithm %s)" % (n, alg)


def sh(argv):
    """Run a set-up command; its stdout, or RunFailed with its stderr."""
    p = subprocess.run(argv, capture_output=True, text=True)
    if p.returncode:
        raise RunFailed("%s: exit %d: %s" % (" ".join(argv), p.returncode, p.stderr.strip()))
    return p.stdout.strip()


def loop_make(size, undo):
    """A loop device over a file on a tmpfs mounted in a temporary folder."""
    mnt = tempfile.mkdtemp(prefix="iogauge-fastdev-")
    undo.append(lambda: os.rmdir(mnt))
    try:
        sh(["mount", "-t", "tmpfs", "-o", "size=%d" % (size + MIB), "iogauge-fastdev", mnt])
    except (RunFailed, OSError) as e:
        raise Unavailable("no tmpfs to be had: %s" % e)
    undo.append(lambda: sh(["umount", mnt]))
    back = os.path.join(mnt, "backing")
    with open(back, "wb") as f:
        f.truncate(size)
    try:
        dev = sh(["losetup", "--direct-io=on", "-f", "--show", back])
    except (RunFailed, OSError) as e:
        raise Unavailable("no loop device to be had: %s" % e)
    undo.append(lambda: sh(["losetup", "-d", dev]))
    dio = "/sys/block/%s/loop/dio" % os.path.basename(dev)
    return dev, "%s (added here, over tmpfs, direct I/O %s)" % (
        dev, get(dio) if os.path.exists(dio) else "?")


def make_device(a, undo):
    """(path, description) of the device the cases read."""
    if a.device:
        if not os.path.exists(a.device) or not stat.S_ISBLK(os.stat(a.device).st_mode):
            raise RunFailed("%s is not a block device" % a.device)
        return a.device, "%s (given; only read)" % a.device
    dev = None
    if not a.loop:
        try:
            dev, what = zram_make(a.bytes, undo)
        except Unavailable as e:
            print("# %s: a loop device over tmpfs instead" % e, flush=True)
    if dev is None:
        dev, what = loop_make(a.bytes, undo)
    # Random bytes, written past the page cache: no read is of a zero page.
    sh(["dd", "if=/dev/urandom", "of=" + dev, "bs=1M", "count=%d" % (a.bytes // MIB),
        "oflag=direct", "status=none"])
    return dev, what


RUNNING = []  # the process running now, for the clean-up to stop


def run(argv):
    """(stdout, (usr, sys) CPU s of the process and the children it waited
    for, wall s).  RunFailed if it exits non-zero."""
    t0 = time.monotonic()
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    RUNNING.append(p)
    # Small outputs (the JSON goes to a file): the pipes cannot fill.
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.monotonic() - t0
    RUNNING.remove(p)
    p.returncode = os.waitstatus_to_exitcode(status)
    out, err = p.stdout.read(), p.stderr.read()
    p.stdout.close()
    p.stderr.close()
    if p.returncode:
        raise RunFailed("%s: exit %d\n%s" % (" ".join(argv), p.returncode, err))
    return out, (ru.ru_utime, ru.ru_stime), wall


def tool_figures(doc, usr_sys):
    """One job's figures: IOPS; CPU us per I/O of the whole process (rusage:
    usr + sys, and each apart) and of the job's thread alone (the JSON); ctx;
    I/Os per CPU second; clat percentiles in us."""
    usr, sys_ = usr_sys
    cpu = usr + sys_
    if len(doc["jobs"]) != 1:
        raise RunFailed("%d jobs in the JSON, wanted 1" % len(doc["jobs"]))
    j = doc["jobs"][0]
    if j.get("error"):
        raise RunFailed("job error %d" % j["error"])
    r = j["read"]
    ios = r["total_ios"]
    pct = r["clat_ns"].get("percentile", {})
    per_io = (lambda t: t / ios * 1e6) if ios else (lambda t: float("nan"))
    fig = {"iops": r["iops"], "cpu": per_io(cpu), "usr": per_io(usr), "sys": per_io(sys_),
           "thread": cpu_per_io(doc), "ctx": j["ctx"], "core": ios / cpu if cpu else float("nan")}
    for name, key in LAT:
        fig[name] = pct.get(key, 0) / 1e3
    return fig


def floor_argv(floor, dev, runtime):
    return [floor, "-d32", "-s8", "-c8", "-b4096", "-p0", "-B1", "-F1", "-n1", "-O1", "-R1",
            "-t0", "-r%d" % (runtime + 1), dev]


def floor_figures(out, usr_sys, wall):
    """t/io_uring's mean IOPS over its per-second lines, and IOPS per core."""
    cpu = sum(usr_sys)
    vals = [float(v) * {"": 1, "K": 1e3, "M": 1e6}[u]
            for v, u in re.findall(r"^IOPS=([\d.]+)([KM]?),", out, re.M)]
    if not vals:
        raise RunFailed("t/io_uring printed no IOPS line:\n" + out)
    iops = sum(vals) / len(vals)
    return {"iops": iops, "core": iops * wall / cpu if cpu else float("nan")}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 epilog="The floor: in a fio 3.33 source tree, "
                                 "./configure && make t/io_uring, then --floor PATH/t/io_uring.")
    add_common(ap, 5, "seconds per run", "case")
    ap.add_argument("--size", default=None,
                    help="device size to make (default 1g; 128m with --smoke)")
    where = ap.add_mutually_exclusive_group()
    where.add_argument("--loop", action="store_true",
                       help="a loop device over tmpfs even where zram is")
    where.add_argument("--device", help="read this block device instead of making one")
    ap.add_argument("--floor", help="a built t/io_uring from fio's source (see below)")
    a, want = parse_common(ap, "case", [c[0] for c in CASES])
    size_option(ap, a, "1g", "128m", "16g")
    if a.bytes % MIB:
        ap.error("--size: a whole number of MiB")
    if a.floor and not os.access(a.floor, os.X_OK):
        ap.error("--floor: %s is not an executable (build it: see --help)" % a.floor)
    if os.geteuid() != 0:
        print("bench/fastdev.py makes (and removes) a block device: run it as root. Skipped.")
        sys.exit(SKIP)

    def stop(signum, frame):
        raise KeyboardInterrupt
    signal.signal(signal.SIGTERM, stop)
    undo = []
    code = 1
    try:
        dev, what = make_device(a, undo)
        code = 0 if bench(a, want, dev, what) else 1
    except Unavailable as e:
        print("bench/fastdev.py: %s. Skipped." % e)
        code = SKIP
    except RunFailed as e:
        print("bench/fastdev.py: %s" % e)
    except KeyboardInterrupt:
        print("bench/fastdev.py: interrupted")
        code = 130
    finally:
        # A second Ctrl-C must not leave the device behind.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        for p in RUNNING:
            kill_tree(p.pid)
            p.wait()
        for step in reversed(undo):
            try:
                step()
            except (OSError, RunFailed) as e:
                print("bench/fastdev.py: clean-up: %s" % e)
    sys.exit(code)


def bench(a, want, dev, what):
    ver = subprocess.run([a.fio, "--version"], capture_output=True, text=True).stdout.strip()
    print("# fio: %s; iogauge: %s; %d pairs of %d s; device %s%s; %s" %
          (ver, a.iogauge, a.pairs, a.runtime, what, "" if a.device else ", " + a.size,
           time.strftime("%Y-%m-%d %H:%M")), flush=True)
    rows, floor = [], []
    with tempfile.TemporaryDirectory(prefix="iogauge-fastdev-out-") as out:
        for name, opts in (c for c in CASES if c[0] in want):
            job = ["--readonly", "--output-format=json", "--name=" + name, "--filename=" + dev] + \
                COMMON + ["--runtime=%d" % a.runtime] + opts
            got = {"fio": [], "iogauge": []}
            for i in range(a.pairs):
                order = ["fio", "iogauge"] if i % 2 == 0 else ["iogauge", "fio"]
                if a.floor and name == TUNED:
                    order.insert(i % 3, "floor")
                for t in order:
                    if t == "floor":
                        floor.append(floor_figures(*run(floor_argv(a.floor, dev, a.runtime))))
                        continue
                    path = os.path.join(out, "%s.%s.json" % (name, t))
                    _, cpu, _ = run([a.fio if t == "fio" else a.iogauge, "--output=" + path] + job)
                    with open(path) as f:
                        got[t].append(tool_figures(json.load(f), cpu))
                f, g = got["fio"][-1], got["iogauge"][-1]
                line = ["%s fio %s iogauge %s" % (label, unit % f[m], unit % g[m])
                        for m, label, unit in COLUMNS if not m.startswith("p")]
                line.append("clat p50/p99/p99.9 us fio %.1f/%.1f/%.1f iogauge %.1f/%.1f/%.1f" %
                            tuple(x[m] for x in (f, g) for m, _ in LAT))
                if a.floor and name == TUNED:
                    line.append("floor IOPS %.0f, IOPS per core %.0f" %
                                (floor[-1]["iops"], floor[-1]["core"]))
                print("%-20s pair %d (%s first): %s" % (name, i + 1, order[0], "; ".join(line)),
                      flush=True)
            rows.append((name, opts, got))
    report(rows, floor, a.markdown)
    return True


def fmt(c, unit):
    med, lo, hi, fm, gm = c
    return ("%.3f [%.3f–%.3f] (" + unit + " → " + unit + ")") % (med, lo, hi, fm, gm)


COLUMNS = [("iops", "IOPS", "%.0f"), ("cpu", "CPU us/IO", "%.2f"),
           ("usr", "usr us/IO", "%.3f"), ("sys", "sys us/IO", "%.2f"),
           ("thread", "job thread CPU us/IO", "%.2f"), ("ctx", "ctx", "%.0f")] + \
    [(n, "clat %s us" % n, "%.1f") for n, _ in LAT]


LEAST = "least CPU ratio"


def report(rows, floor, markdown):
    """Per case: median ratio iogauge/fio [range] (fio median → iogauge
    median); latency only for the depth-1 cases."""
    if markdown:
        print("\n| case | " + " | ".join(c[1] for c in COLUMNS) + " | " + LEAST + " |")
        print("|" + "---|" * (len(COLUMNS) + 2))
    else:
        print("\nmedian iogauge/fio [range] (fio median → iogauge median)")
    for name, opts, got in rows:
        cells = []
        for m, _, unit in COLUMNS:
            if m.startswith("p") and "--iodepth=1" not in opts:
                cells.append("–")
                continue
            cells.append(fmt(cell([x[m] for x in got["fio"]], [x[m] for x in got["iogauge"]]),
                             unit))
        # The lowest CPU ratio a tool making fio's system calls could reach:
        # no user time at all, the kernel's share (sys) the same as fio's.
        least = statistics.median(x["sys"] / x["cpu"] for x in got["fio"])
        cells.append("%.3f" % least)
        if markdown:
            print("| %s | %s |" % (name, " | ".join(cells)))
        else:
            print("%s\n  %s" % (name, "\n  ".join("%-22s %s" % (c, v) for c, v in
                                                   zip([c[1] for c in COLUMNS] + [LEAST], cells))))
    tuned = [got for name, _, got in rows if name == TUNED]
    if floor and tuned:
        fl = [x["core"] for x in floor]
        print("\nfloor, t/io_uring -d32 -s8 -c8 -B1 -F1 -n1: IOPS %s, IOPS per core %s" %
              (fmt_range([x["iops"] for x in floor]), fmt_range(fl)))
        for t in ("fio", "iogauge"):
            print("%s %s IOPS per core as a share of the floor's: %s" %
                  (t, TUNED, fmt(cell(fl, [x["core"] for x in tuned[0][t]]), "%.0f")))


def fmt_range(vals):
    """median [low–high] of vals."""
    return "%.0f [%.0f–%.0f]" % (statistics.median(vals), min(vals), max(vals))


if __name__ == "__main__":
    main()
