#!/usr/bin/env python3
# iogauge sqlio: SQLIO command lines, SQLIO's report byte for byte (the
# measured numbers masked, their format checked), the report read back by
# the rules of the parsers DBAs use (shared/reference/peers.md §1.6), the
# job file that --job prints, the -F param file, the stride pattern, bad
# input, and Ctrl-C.  One line per failure, then "sqlio: N passed, M failed".
#
# Environment (set by CTest): IOGAUGE_BIN, IOGAUGE_SRC.  IOGAUGE_REGOLD=1
# rewrites the golden files from this run (then read them before
# committing).
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

from clitest import capture, check, finish, start_running

BIN = os.path.abspath(os.environ["IOGAUGE_BIN"])
SRC = os.environ["IOGAUGE_SRC"]
GOLD = os.path.join(SRC, "tests", "cli", "golden", "sqlio")
REGOLD = os.environ.get("IOGAUGE_REGOLD") == "1"


def run(args, cwd=None, prog=None):
    return capture(prog or [BIN, "sqlio"] + args, cwd)


# ---- the layout: measured numbers masked, each checked for its format ----

NUM_LINES = [
    # label, the value's pattern after the label, the mask
    ("IOs/sec: ", r" *\d+\.\d\d", "<%8.2f>"),
    ("MBs/sec: ", r" *\d+\.\d\d", "<%8.2f>"),
    ("Min_Latency(ms): ", r"\d+", "<ms>"),
    ("Avg_Latency(ms): ", r"\d+", "<ms>"),
    ("Max_Latency(ms): ", r"\d+", "<ms>"),
    ("Min_Init_Latency(us): ", r"\d+", "<us>"),
    ("Avg_Init_Latency(us): ", r"\d+", "<us>"),
    ("Max_Init_Latency(us): ", r"\d+", "<us>"),
]
UTIL_ROWS = ["DPCTime(%):", "InterruptTime(%):", "PrivilegedTime(%):", "ProcessorTime(%):",
             "UserTime(%):", "Interrupts/sec:"]


def mask(out, tmp, what):
    lines = []
    for line in out.replace(tmp, "$DIR").split("\n"):
        for label, pat, m in NUM_LINES:
            if line.startswith(label):
                val = line[len(label):]
                check(re.fullmatch(pat, val), "%s: %r: the value is not %s" % (what, line, m))
                if m == "<%8.2f>":
                    check(len(val) >= 8, "%s: %r is narrower than %%8.2f" % (what, line))
                line = label + m
        if line.startswith("%:"):
            # 25 fields of %3d, no trailing space.
            ok = len(line) == 2 + 75 and all(
                re.fullmatch(r" *\d+", line[2 + 3 * i:5 + 3 * i]) for i in range(25))
            check(ok, "%s: %r is not 25 %%3d fields" % (what, line))
            line = "%:<25 x %3d>"
        if line.startswith("ProcessorNumber:"):
            cols = line.split()[1:]
            check(cols[0] == "ALL" and cols[1:] == [str(i) for i in range(len(cols) - 1)],
                  "%s: %r: not ALL then 0, 1, ..." % (what, line))
            line = "ProcessorNumber:<columns>"
        for row in UTIL_ROWS:
            if line.startswith(row):
                check(re.fullmatch(re.escape(row) + r"( +\d+\.\d\d)+", line),
                      "%s: %r: not a row of %%.2f values" % (what, line))
                line = row + "<values>"
        lines.append(line)
    return "\n".join(lines)


def golden(name, args, tmp, cwd=None, expect_rc=0):
    rc, out, err = run(args, cwd=cwd)
    check(rc == expect_rc, "%s: exit %d, expected %d: %s" % (name, rc, expect_rc, err))
    got = mask(out, tmp, name)
    path = os.path.join(GOLD, name + ".txt")
    if REGOLD:
        os.makedirs(GOLD, exist_ok=True)
        with open(path, "w") as f:
            f.write(got)
    with open(path) as f:
        want = f.read()
    if not check(got == want, "%s: the report differs from %s" % (name, path)):
        for a, b in zip(got.split("\n"), want.split("\n")):
            if a != b:
                print("   got:  %r\n   want: %r" % (a, b))
                break
    return out, err


# ---- the parsers' rules ----

def parse_like_the_tools(out):
    """What SQLIOParser (token positions), SQLIO_ResultsToExcel.ps1 (regexes)
    and sqlio-parse (fixed prefixes) take from one report."""
    r = {}
    for line in out.split("\n"):
        tok = line.split(" ")
        if "threads reading" in line or "threads writing" in line or \
           "thread reading" in line or "thread writing" in line:
            r["threads"], r["op"], r["secs"] = int(tok[0]), tok[2], int(tok[4])
        if "IOs" in line and "using" in line and "KB" in line:
            r["kb_token"], r["pattern"] = tok[1], tok[2]
        if "outstanding" in line:
            r["outstanding"] = int(tok[6])
        if line.startswith("using specified size:") or line.startswith("using current size:"):
            r.setdefault("size_mb", []).append(int(tok[3]))
        if line.startswith("IOs/sec:"):
            r["iops"] = float(line[8:])  # sqlio-parse: Substring(8)
        if line.startswith("MBs/sec:"):
            r["mbs"] = float(line[8:])
        if line.startswith("Avg_Latency"):
            r["avg_sub17"] = int(line[17:])  # sqlio-parse: Substring(17)
        for k in ("Min", "Avg", "Max"):
            if line.startswith(k + "_Latency(ms):"):
                r[k.lower()] = int(tok[1])
        if line.startswith("%:"):
            r["hist"] = [int(line[2 + 3 * i:5 + 3 * i]) for i in range(25)]
    # The PowerShell script's regexes (it needs the TAB before "using").
    m = re.search(r"(\d+)?\sthreads\s(reading|writing)", out)
    r["ps_threads"] = m and m.group(1)
    m = re.search(r"\tusing\s(\d+)?KB\s(sequential|random)", out)
    r["ps_kb"] = m and m.group(1)
    m = re.search(r"with\s(\d+)?\soutstanding", out)
    r["ps_outstanding"] = m and m.group(1)
    m = re.search(r"IOs\/sec\:\s+(\d+\.\d+)?", out)
    r["ps_iops"] = m and m.group(1)
    m = re.search(r"\s(\d+)?\sMB\sfor\sfile", out)
    r["ps_mb"] = m and m.group(1)
    return r


def json_of(out):
    """The JSON document after the SQLIO block (--output-format=sqlio,json)."""
    return json.loads(out[out.index("\n{") + 1:])


def opts(doc, i=0):
    """Job i's options: fio puts [global]'s in "global options"."""
    o = dict(doc.get("global options", {}))
    o.update(doc["jobs"][i]["job options"])
    return o


def read_bytes(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return b""


def json_totals(doc):
    ios = sum(j["read"]["total_ios"] + j["write"]["total_ios"] for j in doc["jobs"])
    ms = max(j["read"]["runtime"] if j["read"]["total_ios"] else j["write"]["runtime"]
             for j in doc["jobs"])
    lat_max = max(max(j[d]["lat_ns"]["max"] for d in ("read", "write")) for j in doc["jobs"])
    return ios, ms, lat_max


def main():
    tmp = tempfile.mkdtemp(prefix="iogauge-sqlio-")
    try:
        tests(tmp)
    finally:
        subprocess.run(["rm", "-rf", tmp])
    finish("sqlio")


def tests(tmp):
    d = lambda name: os.path.join(tmp, name)

    # The seed's command line (shared/seeds/001), shorter, in a temporary folder.
    seed = ["-kR", "-t1", "-s1", "-dC", "-o32", "-frandom", "-b8", "-BH", "-LS",
            d("testfile.dat")]
    out, err = golden("seed", seed, tmp)
    check("-dC: Linux has no drive letters" in err, "seed: no word on -dC: %r" % err)
    r = parse_like_the_tools(out)
    check(r.get("threads") == 1 and r.get("op") == "reading" and r.get("secs") == 1,
          "seed: thread line tokens %r" % r)
    check(r.get("kb_token") == "8KB" and r.get("pattern") == "random", "seed: using line %r" % r)
    check(r.get("outstanding") == 32 and r.get("ps_outstanding") == "32", "seed: outstanding %r" % r)
    check(r.get("ps_kb") == "8", "seed: the TAB-using regex does not match")
    check(r.get("ps_threads") is None, "seed: 1 thread must be singular (parsers test for it)")
    check(r.get("iops", 0) > 0, "seed: no IOs/sec")
    # MBs/sec = IOs/sec x KB / 1024, truncated to 2 decimals (SQLIO's 36 files).
    check(r.get("mbs") == int(r.get("iops", 0) * 100 * 8 / 1024) / 100,
          "seed: MBs/sec %r is not IOs/sec x 8 / 1024 truncated" % r.get("mbs"))
    check(r.get("avg_sub17") == r.get("avg"), "seed: Substring(17) of Avg_Latency")
    check(96 <= sum(r.get("hist", [])) <= 104, "seed: histogram sums to %d" %
          sum(r.get("hist", [])))
    check(r.get("size_mb") == [32], "seed: size line %r" % r.get("size_mb"))

    # The same, with JSON after the SQLIO block: the numbers agree.
    rc, out, err = run(seed[:-1] + ["--output-format=sqlio,json", d("testfile.dat")])
    check(rc == 0, "sqlio,json: exit %d %s" % (rc, err))
    r = parse_like_the_tools(out)
    doc = json_of(out)
    ios, ms, lat_max = json_totals(doc)
    check(ms > 0 and abs(r["iops"] - ios * 1000.0 / ms) <= 0.01 * r["iops"] + 1,
          "sqlio,json: IOs/sec %r vs %d I/Os in %d ms" % (r.get("iops"), ios, ms))
    check(r.get("max") == lat_max // 1000000,
          "sqlio,json: Max_Latency %r vs lat_ns max %d" % (r.get("max"), lat_max))
    check(opts(doc).get("rw") == "randread" and opts(doc).get("iodepth") == "32" and
          opts(doc).get("direct") == "1", "sqlio,json: job options %r" % opts(doc))

    # SQLIO's defaults: -kR -t1 -s30 -f64 -b2 -i64 -BN testfile.dat (in the cwd).
    rc, out, err = run(["-s1"], cwd=tmp)
    check(rc == 0 and os.path.getsize(d("testfile.dat")) >= 8 << 20, "defaults: %d %s" % (rc, err))
    out, err = golden("defaults", ["-s1", d("default.dat")], tmp)
    check(os.path.getsize(d("default.dat")) == 8 << 20, "defaults: 64 x 64 x 2 KB = 8 MB file")

    # Writes, two threads, sequential, initiation latencies, buffered.
    out, err = golden("seqwrite", ["-kW", "-t2", "-s1", "-fsequential", "-b64", "-i4", "-o2",
                                   "-BY", "-LSi", d("seq.dat")], tmp)
    r = parse_like_the_tools(out)
    check(r.get("threads") == 2 and r.get("op") == "writing" and r.get("ps_threads") == "2",
          "seqwrite: %r" % r)
    check(r.get("pattern") == "sequential", "seqwrite: pattern %r" % r.get("pattern"))

    # No -L: no latency lines; no -o: no outstanding line; -BS; -S start block.
    golden("nolat", ["-s1", "-frandom", "-b4", "-BS", "-S16", d("x.dat")], tmp)
    # Stride with -i, -LP (taken as -LS, said on stderr), -Up.
    out, err = golden("stride", ["-s1", "-f16", "-i32", "-b4", "-t2", "-LP", "-BN", "-Up",
                                 d("st.dat")], tmp)
    check("-LP: Linux has one clock" in err, "stride: no word on -LP")
    ncpu = os.cpu_count()
    hdr = [l for l in out.split("\n") if l.startswith("ProcessorNumber:")]
    check(len(hdr) == 1 and len(hdr[0].split()) == 2 + ncpu,
          "-Up: a column per CPU (%d) and ALL: %r" % (ncpu, hdr))
    rc, out, err = run(["-s1", "-U", d("st.dat")])
    hdr = [l for l in out.split("\n") if l.startswith("ProcessorNumber:")]
    check(rc == 0 and len(hdr) == 1 and hdr[0].split() == ["ProcessorNumber:", "ALL"],
          "-U: the ALL column only: %r" % hdr)

    # -F param file: comments, threads from the file, sizes create files
    # with real data, masks.
    with open(d("param.txt"), "w") as f:
        f.write("# iogauge sqlio param file\n%s 2 0x0 4\n\n#%s 2 0x0 100\n%s 1 0x1 2\n" %
                (d("p1.dat"), d("nope.dat"), d("p2.dat")))
    out, err = golden("param", ["-kW", "-t8", "-s1", "-frandom", "-o2", "-b8", "-LS", "-BN",
                                "-F" + d("param.txt")], tmp)
    r = parse_like_the_tools(out)
    check(r.get("threads") == 3, "param: the file's threads (2+1) override -t8: %r" % r)
    check(r.get("size_mb") == [4, 2], "param: specified sizes %r" % r.get("size_mb"))
    check(not os.path.exists(d("nope.dat")), "param: a # line was used")
    for name, mb in (("p1.dat", 4), ("p2.dat", 2)):
        data = read_bytes(d(name))
        check(len(data) == mb << 20 and data.count(0) < len(data) // 2,
              "param: %s is %d bytes of mostly zeros" % (name, len(data)))

    # --job: a job file that iogauge runs as the same workload.
    rc, job, err = run(["--job", "-kW", "-t2", "-s1", "-o4", "-frandom", "-b8", "-BH",
                        d("j.dat")])
    check(rc == 0 and "[global]" in job and "rw=randwrite" in job and "iodepth=4" in job and
          "numjobs=2" in job and "direct=1" in job and "bs=8192" in job,
          "--job: %d %r" % (rc, job))
    check(not os.path.exists(d("j.dat")), "--job created the file")
    with open(d("j.ini"), "w") as f:
        f.write(job)
    rc, out, err = run(None, prog=[BIN, "--output-format=json", d("j.ini")])
    check(rc == 0 and opts(json.loads(out))["numjobs"] == "2",
          "--job's file runs: %d %s" % (rc, err))
    for fmt, probe in (("normal", "IO depths:"), ("json", '"fio version"'), ("terse", "3;")):
        rc, out, err = run(["-s1", "--output-format=" + fmt, d("j.dat")])
        check(rc == 0 and probe in out and "sqlio v1.5.SG" not in out,
              "--output-format=%s: %d %r" % (fmt, rc, out[:200]))

    # The stride pattern: -f4 -i3 with 2 threads; each thread has 2 columns,
    # run after run.  -v1.1.1: every run reuses the same blocks (fio's rw=read:N).
    for name, flags, want in (("stride", [], ([0, 4, 8, 1, 5, 9], [2, 6, 10, 3, 7, 11])),
                              ("v111", ["-v1.1.1"], ([0, 4, 8], [2, 6, 10]))):
        rc, job, err = run(["--job", "--ioengine=psync", "-f4", "-i3", "-b4", "-t2", "-BY"] +
                           flags + [d(name + ".dat")])
        with open(d(name + ".ini"), "w") as f:
            f.write(job)
        rc, out, err = run(None, prog=[BIN, "--set", "runtime=300ms", "--set",
                                       "write_iops_log=" + d(name), "--set", "log_offset=1",
                                       d(name + ".ini")])
        for clone, blocks in enumerate(want, 1):
            offs = [int(l.split(b",")[4]) // 4096
                    for l in read_bytes(d("%s_iops.%d.log" % (name, clone))).splitlines()]
            check(rc == 0 and len(offs) > 2 * len(blocks) and
                  all(o == blocks[i % len(blocks)] for i, o in enumerate(offs)),
                  "%s: thread %d blocks %r, expected %r repeated (%s)" %
                  (name, clone, offs[:14], blocks, err))

    # Affinity: -a binds every thread to the mask, -aR one CPU each in turn.
    cases = [(["-a0x1", "-t2"], ["0", "0"])]
    if os.cpu_count() >= 2:
        cases += [(["-aR0x3", "-t2"], ["0", "1"]), (["-p1", "-t2"], ["1", "1"])]
    for flags, want in cases:
        p = subprocess.Popen([BIN, "sqlio", "-s3", "--ioengine=psync", "-frandom", "-b4"] +
                             flags + [d("cpu.dat")], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
        # Wait until the workers run (their threads are there and pinned),
        # not a fixed time: a loaded machine starts them late.
        end = time.monotonic() + 30
        while True:
            lists = []
            for tid in sorted(os.listdir("/proc/%d/task" % p.pid), key=int)[1:]:
                try:
                    with open("/proc/%d/task/%s/status" % (p.pid, tid)) as f:
                        st = f.read()
                    # The run's own threads (iogauge-status) are not workers.
                    if re.search(r"^Name:\s*iogauge-", st, re.M):
                        continue
                    lists.append(re.search(r"Cpus_allowed_list:\s*(\S+)", st).group(1))
                except OSError:
                    pass
            if lists[:len(want)] == want or time.monotonic() > end or p.poll() is not None:
                break
            time.sleep(0.05)
        out, err = p.communicate(timeout=30)
        # The main thread, the workers, and the -U/--eta watcher if any.
        check(p.returncode == 0 and lists[:2] == want,
              "%s: worker threads bound to %r, expected %r (%s)" % (flags, lists, want, err))

    # -mS: one vectored call per I/O; -mC: plain calls and a copy (strace counts them).
    for flag, want, other in (("-mS2", "preadv", "pread64"), ("-mC2", "pread64", "preadv")):
        p = subprocess.run(["strace", "-f", "-c", "-e", "trace=preadv,pread64", BIN, "sqlio",
                            "--ioengine=psync", "-s1", flag, "-b8", "-frandom", d("m.dat")],
                           capture_output=True, text=True, timeout=60,
                           # LeakSanitizer cannot run under ptrace.
                           env=dict(os.environ, ASAN_OPTIONS="detect_leaks=0"))
        calls = {l.split()[-1]: int(l.split()[3]) for l in p.stderr.split("\n")
                 if re.match(r"\s*[\d.]+\s+[\d.]+\s+\d+\s+\d+\s+(\d+\s+)?\w+$", l)}
        check(p.returncode == 0 and calls.get(want, 0) > 100 and calls.get(other, 0) < 10,
              "%s: syscalls %r (%s)" % (flag, calls, p.stderr[-300:]))
    rc, out, err = run(["-s1", "-mS2", "-b8", "-frandom", "-kW", "--output-format=json",
                        d("m.dat")])
    check(rc == 0 and opts(json.loads(out)).get("sub_blocks") == "2" and
          json.loads(out)["jobs"][0]["write"]["io_bytes"] > 0,
          "-mS2 writes: %d %s" % (rc, err))
    # -mC does its I/O from the whole buffer: 128-byte pieces with direct
    # I/O (-BN), and an engine without vectored I/O, are fine.
    for extra in (["-mC16", "-b2"], ["-mC2", "-b8", "-BY", "--ioengine=mmap"]):
        rc, out, err = run(["-s1", "-frandom", "--output-format=json"] + extra + [d("m.dat")])
        check(rc == 0 and json.loads(out)["jobs"][0]["read"]["io_bytes"] > 0,
              "%s: %d %s" % (" ".join(extra), rc, err))
    rc, out, err = run(None, prog=[BIN, "--name=x", "--size=1m", "--bs=4k", "--sub_blocks=3"])
    check(rc == 2 and "sub_blocks=3 must divide the block size" in err, "sub_blocks=3: %r" % err)
    rc, out, err = run(None, prog=[BIN, "--name=x", "--size=1m", "--ioengine=mmap",
                                   "--sub_blocks=2"])
    check(rc == 2 and "needs an engine that does vectored I/O" in err, "mmap sub_blocks: %r" % err)

    # libaio on request.
    rc, out, err = run(["-s1", "--ioengine=libaio", "-o4", "-frandom", "-b4", "-LS",
                        "--output-format=sqlio,json", d("aio.dat")])
    check(rc == 0 and opts(json_of(out)).get("ioengine") == "libaio",
          "--ioengine=libaio: %d %s" % (rc, err))

    # Ctrl-C: drains, reports the time that ran, exit 130.
    p = start_running([BIN, "sqlio", "-s30", "-o8", "-frandom", "-b4", "-LS", "--eta=always",
                       "--output-format=sqlio,json", d("int.dat")], d("int.err"))
    t0 = time.time()
    p.send_signal(signal.SIGINT)
    out, _ = p.communicate(timeout=30)
    check(p.returncode == 130 and time.time() - t0 < 5, "Ctrl-C: exit %d after %.1f s" %
          (p.returncode, time.time() - t0))
    r = parse_like_the_tools(out)
    ios, ms, _ = json_totals(json_of(out))
    check(r.get("secs") == 30 and 300 < ms < 10000, "Ctrl-C: header %r, ran %d ms" %
          (r.get("secs"), ms))
    check(abs(r.get("iops", 0) - ios * 1000.0 / ms) <= 0.01 * r.get("iops", 0) + 1,
          "Ctrl-C: IOs/sec %r over the time that ran (%d I/Os in %d ms)" %
          (r.get("iops"), ios, ms))

    bad_input(tmp)
    sweeps()


def bad_input(tmp):
    d = lambda name: os.path.join(tmp, name)
    with open(d("bad-param.txt"), "w") as f:
        f.write("# ok\n%s\n" % d("b1.dat"))
    with open(d("ok-param.txt"), "w") as f:
        f.write("%s 1\n" % d("b2.dat"))
    cases = [
        (["-kX"], "-kX: expected -kR"),
        (["-t0"], "-t0: expected a whole number from 1 to 256"),
        (["-t257"], "-t257: expected a whole number from 1 to 256"),
        (["-t"], "-t: expected a whole number from 1 to 256 attached"),
        (["-K"], "did you mean '-k'?"),
        (["-x"], "-x: unknown SQLIO flag"),
        (["-fbogus"], "-fbogus: expected -frandom, -fsequential"),
        (["-BX"], "-BX: expected -BN"),
        (["-LX"], "-LX: expected -LS or -LP"),
        (["-Uq"], "-Uq: expected -U, or -Up"),
        (["-dDEF"], "-dDEF: Linux has no drive letters"),
        (["-RD"], "-RD: Linux has no drive letters or disk numbers"),
        (["-D1"], "-D1: SQLIO's debug levels"),
        (["-mS3", "-b8"], "-mS3: -b8 KB is not a whole number of 3 sub-blocks"),
        (["-mS4", "-b8"], "-mS4: scatter/gather needs sub-blocks of whole pages"),
        (["-mC2", "-o2"], "-mC2: SQLIO does not combine -m with -o"),
        (["-mS4", "-b32", "--ioengine=mmap"], "-mS4: scatter/gather needs an engine that "
         "does vectored I/O; --ioengine=mmap does not"),
        (["-F" + d("missing.txt")], "missing.txt: No such file"),
        (["-F" + d("bad-param.txt")], "bad-param.txt:2: expected '<file> <threads>"),
        (["-F" + d("ok-param.txt"), d("b3.dat")], "give no file name with it"),
        (["-F" + d("ok-param.txt"), "-a0x1"], "give no -p or -a with it"),
        (["-p%d" % os.cpu_count()], "is not on this machine"),
        (["-a0x%x" % (1 << os.cpu_count())], "is not on this machine"),
        (["-a0"], "-a0: the mask names no CPU"),
        (["-f1", "-t2"], "-f1: the threads split the stripe's 1 columns"),
        (["-v1.1.1", "-frandom"], "-v1.1.1: the old block reuse needs a stripe factor"),
        (["-v1.1.1", "-f5", "-t2"], "-f5 does not split evenly"),
        (["--ioengine=io_urin"], "did you mean 'io_uring'?"),
        (["--output-format=sqlo"], "did you mean 'sqlio'?"),
        (["--frobnicate"], "unknown option '--frobnicate' for iogauge sqlio"),
        (["-s0"], "-s0: expected a whole number"),
        ([d("a$b.dat")], "a file name with '$'"),
        ([d("a#b.dat")], "a file name with '$', ';', '#'"),
        ([d("x" * 200)], "cannot go into a job file (at most 189)"),
        ([tmp], "not a regular file or a block device"),
        (["-t256"] + [d("t%d.dat" % i) for i in range(17)],
         "-t256: with 17 files that is 4352 threads here"),
    ]
    before = sorted(os.listdir(tmp))
    for args, msg in cases:
        rc, out, err = run(args + ([] if any(not a.startswith("-") for a in args) or
                                   any(a.startswith("-F") for a in args) else [d("bad.dat")]),
                           cwd=tmp)
        check(rc == 2 and msg in err and out == "",
              "bad %r: exit %d, stderr %r (expected %r)" % (args, rc, err, msg))
    check(sorted(os.listdir(tmp)) == before, "bad input wrote files: %r" %
          (set(os.listdir(tmp)) - set(before)))
    # A job file's --output-format=sqlio is refused: it is the sqlio report.
    rc, out, err = run(None, prog=[BIN, "--output-format=sqlio", "--name=x", "--size=1m"])
    check(rc == 2 and "is the report of 'iogauge sqlio'" in err, "sqlio format for a job: %r" %
          err)
    rc, out, err = run(["-?"])
    check(rc == 0 and "Defaults:\n        -kR -t1 -s30 -f64 -b2 -i64 -BN testfile.dat" in out,
          "-?: %r" % out[:200])


def sweeps():
    """jobs/sqlio/: every sweep parses, and means what its name says."""
    folder = os.path.join(SRC, "jobs", "sqlio")
    names = sorted(n for n in os.listdir(folder) if n.endswith(".ini"))
    check(len(names) == 12, "jobs/sqlio: %d sweeps, expected 12" % len(names))
    for n in names:
        m = re.fullmatch(r"(random|sequential)-(read|write)-(\d+)k\.ini", n)
        if not check(m, "jobs/sqlio/%s: name is not PATTERN-RW-SIZEk.ini" % n):
            continue
        rc, out, err = run(None, prog=[BIN, "--parse-only", os.path.join(folder, n)])
        jobs = out.split("\n\n")
        rw = ("rand" if m.group(1) == "random" else "") + m.group(2)
        check(rc == 0 and len(jobs) == 7, "%s: %d, %d jobs: %s" % (n, rc, len(jobs), err))
        depths = [int(re.search(r"^iodepth=(\d+)", j, re.M).group(1)) for j in jobs]
        check(depths == [1, 2, 4, 8, 16, 32, 64], "%s: iodepths %r" % (n, depths))
        check(all(re.search(r"^rw=%s\b" % rw, j, re.M) and
                  re.search(r"^bs=%s\b" % (int(m.group(3)) * 1024), j, re.M) for j in jobs),
              "%s: rw/bs do not match the name" % n)


main()
