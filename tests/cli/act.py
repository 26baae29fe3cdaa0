#!/usr/bin/env python3
# fio's --profile=act against fio 3.33 in the same run, each tool in a fresh
# folder of its own with two 1 MiB files as its devices: the jobs it adds
# (names, groups, directions, block sizes, clones, rates), the I/O counts
# within the rates' tolerance, the slice table and verdict before the JSON
# (and the table's figures against iogauge's own json+ lat bins); --prep's
# two passes; a colon inside one device name; bad input (exit 2, nothing
# written).  One line per failure, then "act: N passed, M failed".
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
ROW = re.compile(r"^    1((?:\t\d+\.\d\d){6})$")
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
    """(the six figures, the verdict) of the act table at the start of
    @out, or None; checks the header lines and the verdict's rule."""
    lines = out.split("\n")
    # fio's normal output puts its job lines first.
    while lines and lines[0] != HEAD[0] and not lines[0].startswith("{"):
        lines.pop(0)
    if not check(lines[:4] == HEAD, "%s: table header %r" % (tool, lines[:5])):
        return None
    m = ROW.match(lines[4])
    v = VERDICT.match(lines[6]) if len(lines) > 6 else None
    if not check(m and lines[5] == "" and v, "%s: table rows %r" % (tool, lines[4:7])):
        return None
    figs = [float(x) for x in m.group(1).split("\t")[1:]]
    check(figs[:3] == figs[3:], "%s: trans and device columns differ: %r" % (tool, figs))
    failed = any(f >= lim for f, lim in zip(figs, LIMITS))
    check(v.group(1) == ("FAILED" if failed else "PASSED"),
          "%s: %r with figures %r" % (tool, v.group(1), figs))
    return figs, v.group(1)


def report(out):
    """The JSON report after the table."""
    i = out.index("\n{") + 1
    return json.JSONDecoder().raw_decode(out[i:])[0]


def from_bins(rep):
    """The table's three figures from json+ lat_ns bins, by the same rule
    (a bin over 1, 8 or 64 ms by its middle, in the highest band only)."""
    bands, total = [0, 0, 0], 0
    for j in rep["jobs"]:
        for d in ("read", "write", "trim"):
            for k, n in j[d]["lat_ns"].get("bins", {}).items():
                total += n
                for b, lim in reversed(list(enumerate((1001000, 8001000, 64001000)))):
                    if int(k) >= lim:
                        bands[b] += n
                        break
    return [round(100.0 * b / total, 2) if total else 0.0 for b in bands]


def bucket(ns):
    """[lo, hi) of the histogram bucket (fio's, 64 per power of two) of @ns."""
    bits = max(ns.bit_length() - 1 - 6, 0)
    lo = ns >> bits << bits
    return lo, lo + (1 << bits)


def exact(d):
    """(exact shares per band by fio's rule (whole us over 1000, 8000,
    64000), the share the histogram may place in the band next door) from
    the per-I/O lat logs in @d."""
    lats = []
    for n in os.listdir(d):
        if n.startswith("al_lat."):
            with open(os.path.join(d, n)) as f:
                lats += [int(line.split(",")[1]) for line in f if line.strip()]
    bands, near = [0, 0, 0], [0, 0, 0]
    for v in lats:
        for b, lim in reversed(list(enumerate((1000, 8000, 64000)))):
            if v // 1000 > lim:
                bands[b] += 1
                break
        for b, lim in enumerate((1001000, 8001000, 64001000)):
            lo, hi = bucket(lim)
            near[b] += lo <= v < hi
    n = len(lats) or 1
    return [100.0 * x / n for x in bands], [100.0 * x / n for x in near], len(lats)


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
    if t:
        check(t[0][:3] == from_bins(rep), "iogauge table %r, from its lat bins %r" %
              (t[0][:3], from_bins(rep)))
    j = rep["jobs"]
    # How exact the histogram is: each share within the I/Os of the one
    # bucket a bound falls in (and rounding) of fio's exact count.
    ex, near, n = exact(d)
    check(n == sum(x["read"]["total_ios"] + x["write"]["total_ios"] for x in j),
          "lat log entries %d" % n)
    if t:
        for b in range(3):
            slack = near[b] + (near[b + 1] if b < 2 else 0) + 0.006
            check(abs(t[0][b] - ex[b]) <= slack, "band %d: table %.2f, exact %.4f, near %.4f" %
                  (b, t[0][b], ex[b], near[b]))
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
    check(bool(t) == bool(ft), "tables: iogauge %r, fio %r" % (t, ft))
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


def prep(tmp):
    """--prep: a zeroing pass then a salting one per device; nothing counted."""
    # (fio without --test-duration prints 24000000 rows: its 24h default in us.)
    # The table goes into --output's file too, as fio's.
    args = ["--profile=act", "--device-names=da", "--prep", "--test-duration=1",
            "--output-format=json", "--output=rep.txt"]
    res = both(tmp, "prep", args, ("da",))
    for tool, (rc, out, err, d) in sorted(res.items()):
        if not check(rc == 0 and out == "", "%s prep: exit %d %r %r" % (tool, rc, out[-200:],
                                                                         err[-400:])):
            continue
        with open(os.path.join(d, "rep.txt")) as f:
            out = f.read()
        t = table(tool, out)
        check(t == ([0.0] * 6, "PASSED"), "%s prep table %r" % (tool, t))
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
        (base + ["--test-duration=3601"], "from 1 to 3600"),
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
        prep(tmp)
        colon(tmp)
        bad(tmp)
    finally:
        shutil.rmtree(tmp)
    finish("act")


if __name__ == "__main__":
    main()
