#!/usr/bin/env python3
# fio's --profile=act against fio 3.33 in the same run, each tool in a fresh
# folder of its own with two 1 MiB files as its devices: the jobs it adds
# (names, groups, directions, block sizes, clones, rates), the I/O counts
# within the rates' tolerance, the slice table and verdict before the JSON
# (and the table's figures against the run's per-I/O lat logs); three 1 s
# slices (--slice-duration) against the lat logs split at their bounds, and
# a slice that fails stopping its job with fio's message; --prep's two
# passes and rows; a colon inside one device name; bad input (exit 2,
# nothing written).  One line per failure, then "act: N passed, M failed".
#
# Environment (set by CTest): IOGAUGE_BIN.
import json
import os
import re
import shutil
import subprocess
import tempfile
import threading

from clitest import check, finish

BIN = os.path.abspath(os.environ["IOGAUGE_BIN"])
FIO = shutil.which("fio")
MIB = 1 << 20
HEAD = ["        trans                   device",
        "        %>(ms)                  %>(ms)",
        " slice\t  1\t  8\t 64\t  1\t  8\t 64",
        " -----  -----   -----  ------   -----   -----  ------"]
ROW = re.compile(r"^   ([ \d]\d)((?:\t\d+\.\d\d){6})$")
VERDICT = re.compile(r"^act: test complete, device\(s\): (PASSED|FAILED)$")
# fio's pass criteria: a band fails at this % of I/Os.
LIMITS = [5.0, 1.0, 0.1]


def fresh(tmp, name, devs=("da", "db")):
    """A folder with each of @devs a 1 MiB file of 0xa5 bytes."""
    d = os.path.join(tmp, name)
    os.mkdir(d)
    for n in devs:
        with open(os.path.join(d, n), "wb") as f:
            f.write(b"\xa5" * MIB)
    return d


def run(tool, cwd, args, out):
    p = subprocess.run([tool] + args, cwd=cwd, capture_output=True, text=True, timeout=120)
    out[os.path.basename(tool)] = (p.returncode, p.stdout, p.stderr)


def both(tmp, what, args, devs=("da", "db"), fio_args=(), ig_args=()):
    """{tool: (exit, stdout, stderr, folder)}: iogauge and fio run at once."""
    res, ths, dirs = {}, [], {}
    for tool in [BIN] + ([FIO] if FIO else []):
        name = os.path.basename(tool)
        dirs[name] = fresh(tmp, name + "-" + what, devs)
        targs = args + list(fio_args if tool == FIO else ig_args)
        ths.append(threading.Thread(target=run, args=(tool, dirs[name], targs, res)))
    for t in ths:
        t.start()
    for t in ths:
        t.join()
    return {k: v + (dirs[k],) for k, v in res.items()}


def table(tool, out):
    """([the six figures of each row], the verdict) of the act table at the
    start of @out, or None; checks the header lines, the rows' numbers and
    the verdict's rule."""
    lines = out.split("\n")
    # fio's normal output puts its job lines first.
    while lines and lines[0] != HEAD[0] and not lines[0].startswith("{"):
        lines.pop(0)
    if not check(lines[:4] == HEAD, "%s: table header %r" % (tool, lines[:5])):
        return None
    rows, failed = [], False
    for line in lines[4:]:
        m = ROW.match(line)
        if not m:
            break
        check(int(m.group(1)) == len(rows) + 1, "%s: row %r after %d" % (tool, line, len(rows)))
        figs = [float(x) for x in m.group(2).split("\t")[1:]]
        check(figs[:3] == figs[3:], "%s: trans and device columns differ: %r" % (tool, figs))
        failed = failed or any(f >= lim for f, lim in zip(figs, LIMITS))
        rows.append(figs[:3])
    n = 4 + len(rows)
    v = VERDICT.match(lines[n + 1]) if len(lines) > n + 1 else None
    if not check(rows and lines[n] == "" and v, "%s: table rows %r" % (tool, lines[4:n + 2])):
        return None
    check(v.group(1) == ("FAILED" if failed else "PASSED"),
          "%s: %r with rows %r" % (tool, v.group(1), rows))
    return rows, v.group(1)


def report(out):
    """The JSON report after the table."""
    i = out.index("\n{") + 1
    return json.JSONDecoder().raw_decode(out[i:])[0]


def lat_logs(d):
    """{log file: [(ms, lat ns, bytes)]} of the per-I/O lat logs in @d."""
    logs = {}
    for n in sorted(os.listdir(d)):
        if n.startswith("al_lat."):
            with open(os.path.join(d, n)) as f:
                fields = [line.split(",") for line in f if line.strip()]
                logs[n] = [(int(x[0]), int(x[1]), int(x[3])) for x in fields]
    return logs


def band(lat_ns):
    """fio's act band of a latency: the highest bound (whole us over 1000,
    8000, 64000) it is over, or None."""
    for b, lim in reversed(list(enumerate((1000, 8000, 64000)))):
        if lat_ns // 1000 > lim:
            return b
    return None


def rows_of(logs, slice_ms, nr):
    """Per slice [I/Os, over 1, over 8, over 64] from @logs, as fio's
    act_io_u_lat counts: each clone's entries in the current slice, the
    first one past its end counted in it too and closing it (the last
    slice keeps the end's stragglers)."""
    rows = [[0, 0, 0, 0] for _ in range(nr)]
    for entries in logs.values():
        cur = 0
        for ms, lat, _ in sorted(entries, key=lambda e: e[0]):
            r = rows[cur]
            r[0] += 1
            b = band(lat)
            if b is not None:
                r[1 + b] += 1
            if ms >= (cur + 1) * slice_ms:
                cur = min(ms // slice_ms, nr - 1)
    return rows


def shares(row):
    """The table's three figures of a row of counts, as printed."""
    return [float("%.2f" % (100.0 * x / row[0] if row[0] else 0.0)) for x in row[1:]]


def fio_jobs(out):
    """[(name, group, rw, bs)] of fio's job lines."""
    return [(m.group(1), int(m.group(2)), m.group(3), m.group(4)) for m in re.finditer(
        r"^(act-\S+): \(g=(\d+)\): rw=(\w+), bs=\(R\) (\S+?)-", out, re.M)]


def parse_only(cwd, args):
    """{job: {option: value}} the profile sets, from iogauge --parse-only."""
    p = subprocess.run([BIN] + args + ["--parse-only"], cwd=cwd, capture_output=True,
                       text=True, timeout=60)
    jobs, cur = {}, None
    for line in p.stdout.split("\n"):
        if line.startswith("["):
            cur = jobs.setdefault(line[1:-1], {})
        elif cur is not None and "; --profile=act:" in line:
            k, v = line.split(";")[0].strip().split("=", 1)
            cur[k] = v
    return p.returncode, jobs


def timed(tmp):
    """Two devices, one second, two readers per device."""
    args = ["--profile=act", "--device-names=da,db", "--test-duration=1",
            "--threads-per-queue=2"]
    # fio's job lines come with its normal output, before the table.
    res = both(tmp, "timed", args + ["--output-format=json+"],
               fio_args=["--output-format=normal,json+"],
               ig_args=["--write_lat_log=al", "--log_avg_msec=0"])
    rc, out, err, d = res["iogauge"]
    if not check(rc == 0, "iogauge act: exit %d %r" % (rc, err[-400:])):
        return
    check("warning" not in err, "iogauge act: warnings %r" % err)
    t = table("iogauge", out)
    rep = report(out)
    j = rep["jobs"]
    # Counted per I/O as fio's: the one row is the per-I/O log's exact
    # shares (by fio's rule, whole us over 1000, 8000, 64000).
    logs = lat_logs(d)
    rows = rows_of(logs, 3600000, 1)
    check(rows[0][0] == sum(x["read"]["total_ios"] + x["write"]["total_ios"] for x in j),
          "lat log entries %d" % rows[0][0])
    check(t and t[0] == [shares(rows[0])], "iogauge table %r, from its lat logs %r" %
          (t and t[0], shares(rows[0])))
    reads = sum(x["read"]["total_ios"] for x in j)
    writes = sum(x["write"]["total_ios"] for x in j)
    rbytes = sum(x["read"]["io_bytes"] for x in j)
    wbytes = sum(x["write"]["io_bytes"] for x in j)
    # 2 devices x 2000 reads/s (2 x 1000) and 2 x 12 writes/s, for 1 s: never
    # more (a clone's first I/O is free); fewer only on a machine too busy
    # to keep the rate (seen at a load of 20 on 2 CPUs under ASan).
    check(1600 <= reads <= 4004 and rbytes == reads * 1536, "reads %d (%d bytes)" %
          (reads, rbytes))
    check(10 <= writes <= 26 and wbytes == writes * 131072, "writes %d (%d bytes)" %
          (writes, wbytes))
    check([(x["jobname"], x["groupid"]) for x in j] == [("act-read-da", 0)],
          "iogauge entries %r" % [(x["jobname"], x["groupid"]) for x in j])
    check(all(os.path.getsize(os.path.join(d, f)) == MIB for f in ("da", "db")),
          "iogauge changed the devices' sizes")
    prc, jobs = parse_only(d, args)
    want = {}
    for dev in ("da", "db"):
        want["act-read-" + dev] = {"filename": dev, "rw": "randread", "numjobs": "2",
                                   "rate_iops": "1000", "bs": "1536"}
        want["act-write-" + dev] = {"filename": dev, "rw": "randwrite", "rate_iops": "12",
                                    "bs": "131072"}
        # Before each read job's name: in [global] first, then in the write
        # job before it (as fio's), so every job has them.
        want["act-read-" + dev].update({"runtime": "1s", "time_based": "1"})
        want["act-write-" + dev].update({"runtime": "1s", "time_based": "1"})
    got = {k: {o: v for o, v in opts.items() if o in ("filename", "rw", "numjobs", "rate_iops",
                                                       "bs", "runtime", "time_based")}
           for k, opts in jobs.items()}
    check(prc == 0 and got == want, "parse-only jobs %r, expected %r" % (got, want))
    glob = {k: v for k, v in rep["global options"].items()
            if k not in ("write_lat_log", "log_avg_msec")}  # iogauge's only
    check(glob == {"direct": "1", "ioengine": "sync", "random_generator": "lfsr",
                   "group_reporting": "1", "thread": "", "runtime": "1s",
                   "time_based": "1"}, "iogauge global options %r" % glob)
    if "fio" not in res:
        return
    frc, fout, ferr, fd = res["fio"]
    if not check(frc == 0, "fio act: exit %d %r" % (frc, ferr[-400:])):
        return
    fjobs = fio_jobs(fout)
    check(fjobs == [("act-read-da", 0, "randread", "1536B"),
                    ("act-write-da", 0, "randwrite", "128KiB"),
                    ("act-read-db", 0, "randread", "1536B"),
                    ("act-write-db", 0, "randwrite", "128KiB")]
          and "Starting 6 threads" in fout,
          "fio job lines %r" % fjobs)
    check(sorted(jobs) == sorted(x[0] for x in fjobs), "jobs: iogauge %r, fio %r" %
          (sorted(jobs), fjobs))
    ft = table("fio", fout)
    # One slice each: fio's is an hour.
    check(t and ft and len(t[0]) == len(ft[0]) == 1, "tables: iogauge %r, fio %r" % (t, ft))
    frep = report(fout)
    fj = frep["jobs"]
    freads = sum(x["read"]["total_ios"] for x in fj)
    fwrites = sum(x["write"]["total_ios"] for x in fj)
    # The same counts as fio's, when both kept the rate (>= 95%).
    kept = min(reads, freads) >= 3800
    check(not kept or (abs(reads - freads) <= 0.03 * freads and abs(writes - fwrites) <= 2),
          "I/Os: iogauge %d reads %d writes, fio %d reads %d writes" %
          (reads, writes, freads, fwrites))
    check([(x["jobname"], x["groupid"]) for x in fj] == [("act-read-da", 0)],
          "fio entries %r" % [(x["jobname"], x["groupid"]) for x in fj])
    fglob = {k: v for k, v in frep["global options"].items()
             if k not in ("device-names", "test-duration", "threads-per-queue")}
    glob.pop("thread")  # fio leaves bare flags out
    check(glob == fglob, "global options: iogauge %r, fio %r" % (glob, fglob))


FAIL = re.compile(r"^iogauge: \[burn\] burn\.0\.0: read at offset 0, size 0 completed after the "
                  r"slice: act: (\d+\.\d{6})% exceeds pass criteria of (5|1|0\.1)\.?0*% "
                  r"\(slice 1: (\d+) of its (\d+) I/Os over (1|8|64) ms\): "
                  r"Operation not permitted$", re.M)


def slices(tmp):
    """--slice-duration=1 (iogauge's) over 3 s: three rows, each the exact
    shares of the lat log entries of its second (every clone's log split
    at its own 1 s boundaries, the entry that crosses one in the slice it
    closes, as fio counts it), adding up to the run's I/Os; a cpuio job
    whose every I/O takes 2 ms (in a process of its own: its slices come
    back through the clone's hand-off) fails its first slice when its
    first I/O after it completes, with fio's message, and stops there; a
    null job of 1 us I/Os fails none."""
    d = fresh(tmp, "slices", ("da",))
    with open(os.path.join(d, "burn.fio"), "w") as f:
        f.write("[burn]\nioengine=cpuio\ncpuload=50\ncpuchunks=2000\nruntime=3\ntime_based\n"
                # Latencies of a microsecond: it passes every slice, so each
                # has I/Os whichever of act's clones a busy machine fails.
                "[steady]\nioengine=null\nsize=1m\nrate_iops=100\nruntime=3\ntime_based\n")
    p = subprocess.run([BIN, "--write_lat_log=al", "--log_avg_msec=0", "burn.fio",
                        "--profile=act", "--device-names=da", "--test-duration=3",
                        "--slice-duration=1", "--threads-per-queue=1", "--output-format=json"],
                       cwd=d, capture_output=True, text=True, timeout=60)
    m = FAIL.search(p.stderr)
    if not check(p.returncode == 1 and m, "slices: exit %d %r" % (p.returncode, p.stderr)):
        return
    t = table("iogauge", p.stdout)
    j = report(p.stdout)["jobs"]
    logs = lat_logs(d)
    rows = rows_of(logs, 1000, 3)
    total = sum(x["read"]["total_ios"] + x["write"]["total_ios"] for x in j)
    check(sum(r[0] for r in rows) == total and all(r[0] for r in rows),
          "slices: I/Os per second %r, the run's %d" % ([r[0] for r in rows], total))
    check(t and t[0] == [shares(r) for r in rows] and t[1] == "FAILED",
          "slices: table %r, from the lat logs %r" % (t, [shares(r) for r in rows]))
    check(not re.search(r"\[steady\]", p.stderr), "slices: the null job failed: %r" % p.stderr)
    # The cpuio job's log: its I/Os of 0 bytes.
    burn = [e for entries in logs.values() for e in entries if e[2] == 0]
    # The first one past 1 s closes slice 1, counted in it (as fio).
    burn.sort(key=lambda e: e[0])
    first = [e for e in burn if e[0] < 1000] + [e for e in burn if e[0] >= 1000][:1]
    late = [e for e in burn if e[0] >= 1000]
    b = {"5": 0, "1": 1, "0.1": 2}[m.group(2)]
    over = sum(1 for e in first if band(e[1]) == b)
    check(int(m.group(4)) == len(first) > 10 and int(m.group(3)) == over and len(late) == 1
          and m.group(1) == "%f" % (100.0 * over / len(first)),
          "slices: %r; the burn job's log: %d I/Os in its first second, %d over, %d after" %
          (m.group(0), len(first), over, len(late)))


def prep(tmp):
    """--prep: a zeroing pass then a salting one per device; nothing counted."""
    # (fio without --test-duration prints 24000000 rows: its 24h default in us.)
    # The table goes into --output's file too, as fio's.
    # Two hours and a second: three rows (fio's table has a row per slice
    # of the duration, rounded up).
    args = ["--profile=act", "--device-names=da", "--prep", "--test-duration=7201",
            "--output-format=json", "--output=rep.txt"]
    res = both(tmp, "prep", args, ("da",))
    for tool, (rc, out, err, d) in sorted(res.items()):
        if not check(rc == 0 and out == "", "%s prep: exit %d %r %r" % (tool, rc, out[-200:],
                                                                         err[-400:])):
            continue
        with open(os.path.join(d, "rep.txt")) as f:
            out = f.read()
        t = table(tool, out)
        check(t == ([[0.0] * 3] * 3, "PASSED"), "%s prep table %r" % (tool, t))
        j = report(out)["jobs"]
        got = [(x["jobname"], x["groupid"], x["write"]["io_bytes"], x["read"]["io_bytes"])
               for x in j]
        check(got == [("act-prep-zeroes-da", 0, MIB, 0), ("act-prep-salt-da", 1, MIB, 0)],
              "%s prep jobs %r" % (tool, got))
        with open(os.path.join(d, "da"), "rb") as f:
            data = f.read()
        # salt's 256 random 4 KiB writes cover every block once.
        blocks = [data[i:i + 4096] for i in range(0, MIB, 4096)]
        check(len(data) == MIB and sorted(os.listdir(d)) == ["da", "rep.txt"] and not any(b == b"\xa5" * 4096 or b == b"\0" * 4096
                                           for b in blocks),
              "%s prep: device not salted all over" % tool)


def colon(tmp):
    """A colon is fio's filename separator: one job pair over two files."""
    args = ["--profile=act", "--device-names=da:db", "--test-duration=1",
            "--threads-per-queue=1"]
    d = fresh(tmp, "colon")
    rc, jobs = parse_only(d, args)
    check(rc == 0 and sorted(jobs) == ["act-read-da:db", "act-write-da:db"]
          and jobs["act-read-da:db"].get("filename") == "da:db",
          "colon: %r" % jobs)
    # A profile option's value may be the next word, as in fio.
    rc, jobs = parse_only(d, ["--profile=act", "--device-names", "da", "--test-duration", "1",
                              "--threads-per-queue", "3"])
    check(rc == 0 and sorted(jobs) == ["act-read-da", "act-write-da"]
          and jobs["act-read-da"].get("numjobs") == "3"
          and jobs["act-read-da"].get("runtime") == "1s", "values as next words: %r" % jobs)
    # --load=0: rate_iops=0, no limit, as fio's.
    rc, jobs = parse_only(d, ["--profile=act", "--device-names=da", "--test-duration=1",
                              "--load=0"])
    check(rc == 0 and jobs["act-read-da"]["rate_iops"] == "0"
          and jobs["act-write-da"]["rate_iops"] == "0", "load=0: %r" % jobs)
    if not FIO:
        return
    res = both(tmp, "colon", args + ["--output-format=json"])
    names = {}
    for tool, (rc, out, err, d) in res.items():
        names[tool] = [j["jobname"] for j in report(out)["jobs"]] if rc == 0 else rc
    check(names["iogauge"] == names["fio"] == ["act-read-da:db"],
          "colon: entries %r" % names)


def bad(tmp):
    d = fresh(tmp, "bad", ("da",))
    before = open(os.path.join(d, "da"), "rb").read()
    base = ["--profile=act", "--device-names=da"]
    cases = [
        (["--profile=act"], "you need to set IO target(s) with the device-names option"),
        (["--profile=act", "--device-names="], "device-names option"),
        (["--profile=act", "--device-names=da,", "--test-duration=1"], "empty device name"),
        (["--profile=act", "--device-names=da,,db", "--test-duration=1"], "empty device name"),
        (base, "--test-duration=SECONDS is needed"),
        (base + ["--test-duration=2s"], "--test-duration=2s: a whole number of seconds"),
        (base + ["--test-duration=100001", "--slice-duration=1"],
         "--test-duration=100001: 100001 slices of 1 s: at most 100000"),
        (base + ["--test-duration=1", "--slice-duration=0"],
         "--slice-duration=0: a whole number from 1 to 31536000"),
        (base + ["--test-duration=1", "--slice-duration=1s"], "--slice-duration=1s"),
        (["--slice-duration=1", "--name=j", "--filename=da", "--size=4k"],
         "--slice-duration=1: iogauge's option of --profile=act, and the profile is not given"),
        (["--profile=tiobench", "--slice-duration", "1"],
         "--slice-duration=1: iogauge's option of --profile=act, and the profile is tiobench"),
        (base + ["--test-duration=1", "--threads-per-queue=0"], "--threads-per-queue=0"),
        (base + ["--test-duration=1", "--load=x"], "--load=x"),
        (base + ["--test-duration=1", "--read-req-num-512-blocks=0"],
         "--read-req-num-512-blocks=0"),
        (base + ["--test-duration=1", "--large-block-op-kbytes=100"], "divides by zero"),
        (base + ["--test-duration=1", "--bs=4k"], "sets bs=1536"),
        (base + ["--test-duration=1", "--runtime=5"], "sets runtime=1s"),
    ]
    for args, msg in cases:
        p = subprocess.run([BIN] + args, cwd=d, capture_output=True, text=True, timeout=60)
        check(p.returncode == 2 and msg in p.stderr and p.stdout == ""
              and sorted(os.listdir(d)) == ["da"]
              and open(os.path.join(d, "da"), "rb").read() == before,
              "iogauge %s: exit %d, %r" % (" ".join(args), p.returncode, p.stderr[-300:]))
    if FIO:
        p = subprocess.run([FIO, "--profile=act"], cwd=d, capture_output=True, text=True,
                           timeout=60)
        check(p.returncode == 1 and "act: you need to set IO target(s) with the "
              "device-names option." in p.stderr, "fio without device-names: %d %r" %
              (p.returncode, p.stderr))


def main():
    tmp = tempfile.mkdtemp(prefix="iogauge-act-")
    try:
        timed(tmp)
        slices(tmp)
        prep(tmp)
        colon(tmp)
        bad(tmp)
    finally:
        shutil.rmtree(tmp)
    finish("act")


if __name__ == "__main__":
    main()
