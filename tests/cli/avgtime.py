#!/usr/bin/env python3
# bwavgtime and iopsavgtime, the windows of the bandwidth and IOPS samples
# (bw_min/max/mean/dev/samples, iops_*), against fio 3.33 on the same
# rate-limited null job (100 I/Os of 4 KiB a second for about 3 s, so each
# sample is known): windows of 250 and 750 ms, the default of 500, and
# fio's rule that an averaged write_bw_log/write_iops_log without them
# samples over log_avg_msec; a sparse job (thinktime) whose windows close
# while it waits, those without I/O no sample; bad values refused at
# file:line.  Every run
# at once, each tool in a folder of its own.  One line per failure, then
# "avgtime: N passed, M failed".
#
# Environment (set by CTest): IOGAUGE_BIN.
import json
import os
import shutil
import subprocess
import tempfile
import threading

from clitest import check, finish

BIN = os.path.abspath(os.environ["IOGAUGE_BIN"])
FIO = shutil.which("fio")
JOB = ["--name=r", "--ioengine=null", "--size=1g", "--rw=read", "--bs=4k", "--rate_iops=100",
       "--time_based", "--output-format=json"]
# (what, extra flags, bw samples, iops samples): no window ends within
# 200 ms of the run's end, where one tool might close it and the other not.
# fio's helper thread samples as it wakes, every 250 ms (its disk_util
# tick) or at a log window: windows of whole 250 ms are fio's own length.
CASES = [
    ("set", ["--runtime=3", "--bwavgtime=250", "--iopsavgtime=750"], 11, 3),
    ("default", ["--runtime=2800ms"], 5, 5),
    ("logs", ["--runtime=3", "--write_bw_log=x", "--write_iops_log=x", "--log_avg_msec=700"],
     4, 4),
    # An I/O every 1.2 s (thinktime): the windows close on time while the
    # job waits, and a window without I/O is no sample, as fio's: three of
    # 2 IOPS and 8 KiB/s (7 when a window ran a ms long).
    ("sparse", ["--runtime=3", "--thinktime=1200ms"], 3, 3),
    # iops keeps 500.
    ("logs_set", ["--runtime=2900ms", "--write_bw_log=x", "--log_avg_msec=1000",
                  "--bwavgtime=250"], 11, 5),
]


def run(tool, tmp, what, args, out):
    d = os.path.join(tmp, "%s-%s" % (os.path.basename(tool), what))
    os.mkdir(d)
    p = subprocess.run([tool] + JOB + args, cwd=d, capture_output=True, text=True,
                       timeout=120)
    out[(os.path.basename(tool), what)] = (p.returncode, p.stdout, p.stderr)


def samples(res):
    """{bw_samples, bw_mean, ... } of the one job's reads."""
    rd = json.loads(res[1])["jobs"][0]["read"]
    return {k: rd[k] for k in ("bw_samples", "bw_mean", "bw_min", "bw_max",
                               "iops_samples", "iops_mean", "iops_min", "iops_max")}


def main():
    tmp = tempfile.mkdtemp(prefix="iogauge-avgtime-")
    out, ths = {}, []
    try:
        for what, args, _, _ in CASES:
            for tool in [BIN] + ([FIO] if FIO else []):
                ths.append(threading.Thread(target=run, args=(tool, tmp, what, args, out)))
        for t in ths:
            t.start()
        for t in ths:
            t.join()
        for what, args, nbw, niops in CASES:
            rc, _, err = out[("iogauge", what)]
            if not check(rc == 0, "%s: exit %d %r" % (what, rc, err[-300:])):
                continue
            s = samples(out[("iogauge", what)])
            # 100 I/Os a second, 400 KiB/s: a sample per window, their mean
            # the rate.  (A machine loaded 7 times over its CPUs stalls a
            # paced job for a window now and then: a window without I/O is
            # no sample, and the catching up moves a few % of the mean.)
            iops, bw = (2, 8) if what == "sparse" else (100, 400)
            check(s["bw_samples"] in (nbw, nbw - 1) and s["iops_samples"] in (niops, niops - 1)
                  and abs(s["iops_mean"] - iops) <= iops / 10 + 1
                  and abs(s["bw_mean"] - bw) <= bw / 10 + 1
                  and 0 < s["iops_min"] <= s["iops_max"] and 0 < s["bw_min"] <= s["bw_max"],
                  "%s: %r, expected %d bw and %d iops samples" % (what, s, nbw, niops))
            # Each I/O 200 ms or more from a window's end: one window each,
            # of 4 KiB over 500 ms (501: 7 KiB/s).
            check(what != "sparse" or (s["bw_samples"] == s["iops_samples"] == 3
                                       and s["bw_min"] >= 7 and s["iops_min"] >= 1),
                  "sparse: %r" % s)
            if not FIO:
                continue
            frc, _, ferr = out[("fio", what)]
            if not check(frc == 0, "fio %s: exit %d %r" % (what, frc, ferr[-300:])):
                continue
            f = samples(out[("fio", what)])
            # fio's helper thread, late on a loaded machine, may merge two
            # windows into one: a sample fewer.
            check(abs(s["bw_samples"] - f["bw_samples"]) <= 1
                  and abs(s["iops_samples"] - f["iops_samples"]) <= 1
                  and abs(f["iops_mean"] - s["iops_mean"]) <= 0.1 * f["iops_mean"] + 1
                  and abs(f["bw_mean"] - s["bw_mean"]) <= 0.1 * f["bw_mean"] + 1,
                  "%s: iogauge %r, fio %r" % (what, s, f))
        d = os.path.join(tmp, "bad")
        os.mkdir(d)
        with open(os.path.join(d, "bad.fio"), "w") as f:
            f.write("[j]\nioengine=null\nsize=1m\nbwavgtime=0\n")
        for args, msg in [(["bad.fio"], "bad.fio:4: bwavgtime: '0' is below the minimum of 1"),
                          (JOB + ["--iopsavgtime=x"], "--iopsavgtime=x: 'x' is not a number")]:
            p = subprocess.run([BIN] + args, cwd=d, capture_output=True, text=True, timeout=60)
            check(p.returncode == 2 and msg in p.stderr and p.stdout == ""
                  and os.listdir(d) == ["bad.fio"],
                  "%r: exit %d %r" % (args, p.returncode, p.stderr))
    finally:
        shutil.rmtree(tmp)
    finish("avgtime")


if __name__ == "__main__":
    main()
