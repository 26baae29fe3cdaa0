#!/usr/bin/env python3
# --status-interval, SIGUSR1 and the fio-dump-status file: full reports of
# everything so far while the jobs run, in every format asked for, then
# the final one; the live status line's units (unit_base, kb_base).  Each
# case runs iogauge and, where it is installed, fio 3.33 on the same job at
# the same time, and the same checks are made on both outputs.  The jobs
# are paced (rate_iops) so that a dozen runs at once stay light.
#
# Environment (set by CTest): IOGAUGE_BIN.
import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import time

from clitest import check, finish

BIN = os.path.abspath(os.environ["IOGAUGE_BIN"])
FIO = shutil.which("fio")
TOOLS = [BIN] + ([FIO] if FIO else [])


def name(tool):
    return "fio" if tool == FIO else "iogauge"


def job_args(data, runtime="3"):
    return ["--name=t", "--filename=" + data, "--size=4m", "--rw=randread", "--bs=4k",
            "--ioengine=psync", "--rate_iops=400", "--runtime=" + runtime, "--time_based"]


def json_docs(text):
    """The JSON documents one after another in @text (fio's "collated sets
    of valid json"), and what is left between them (should be blanks)."""
    dec = json.JSONDecoder()
    docs, rest, i = [], "", 0
    while True:
        j = text.find("{", i)
        if j < 0:
            rest += text[i:]
            break
        rest += text[i:j]
        try:
            doc, i = dec.raw_decode(text, j)
        except ValueError:
            rest += text[j:]
            break
        docs.append(doc)
    return docs, rest


def reads(doc):
    return doc["jobs"][0]["read"]


def check_series(what, docs, want):
    """Reports of a 3 s run at 1 s: @want of them (a tuple of the counts
    allowed), each cumulative: I/O counts and runtimes grow, the last
    periodic one is at most the final, about 1 s apart."""
    n = len(docs)
    if not check(n in want, "%s: %d reports, want %s" % (what, n, want)) or n < 2:
        return
    ios = [reads(d)["total_ios"] for d in docs]
    rt = [reads(d)["runtime"] for d in docs]
    ts = [d["timestamp_ms"] for d in docs[:-1]]
    check(all(a <= b for a, b in zip(ios, ios[1:])) and ios[0] > 0,
          "%s: total_ios grow: %s" % (what, ios))
    check(ios[-2] <= ios[-1] and rt[-2] <= rt[-1],
          "%s: the last periodic report is within the final: %s %s" % (what, ios, rt))
    check(all(a < b for a, b in zip(rt[:-1], rt[1:-1])), "%s: runtimes grow: %s" % (what, rt))
    # (A report made late is followed at once by the next one due.)
    check(n < 4 or 800 <= (rt[-2] - rt[0]) / (n - 2) <= 1200,
          "%s: about 1 s apart: %s" % (what, rt))
    check(all(a < b for a, b in zip(ts, ts[1:])),
          "%s: each periodic report has its own time: %s" % (what, ts))
    # 400 IOPS: a report's count is its runtime's worth (no more; less
    # when a loaded machine starts the pacing late).
    check(all(r * 0.2 - 40 <= i <= r * 0.42 + 40 for i, r in zip(ios, rt)),
          "%s: counts match the runtimes at 400 IOPS: %s %s" % (what, ios, rt))


FIRST_CHILD = {}


def started(pid):
    """When (monotonic s) the run @pid was first seen with a child (its
    job's process), or None while it has none."""
    if pid not in FIRST_CHILD:
        try:
            with open("/proc/%d/task/%d/children" % (pid, pid)) as f:
                if f.read().split():
                    FIRST_CHILD[pid] = time.monotonic()
        except OSError:
            pass
    return FIRST_CHILD.get(pid)


def start(tool, args, cwd, case, env=None):
    """@tool started in @cwd, its stdout into the file @case.out there (a
    pipe unread while the test waits could fill)."""
    with open(os.path.join(cwd, case + ".out"), "w") as out:
        return subprocess.Popen([tool] + args, cwd=cwd, stdout=out, stderr=subprocess.PIPE,
                                text=True, env=env)


def main():
    tmp = tempfile.mkdtemp(prefix="iogauge-status-")
    try:
        cases(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    finish("status_interval")


def cases(tmp):
    data = os.path.join(tmp, "data")
    with open(data, "wb") as f:
        f.write(os.urandom(4 << 20))
    runs = {}
    # Every case of every tool at once: paced, they take little CPU.
    for tool in TOOLS:
        n = name(tool)
        d = os.path.join(tmp, n)
        os.mkdir(d)
        os.mkdir(os.path.join(d, "dump"))
        runs[n, "json"] = start(tool, job_args(data) + ["--status-interval=1",
                                                        "--output-format=json"], d, "json")
        runs[n, "normal"] = start(tool, job_args(data) + ["--status-interval=1000ms"], d, "normal")
        runs[n, "mixed"] = start(tool, job_args(data) + ["--status-interval=1s",
                                                         "--output-format=terse,json"], d, "mixed")
        runs[n, "file"] = start(tool, job_args(data) + ["--status-interval=1",
                                                        "--output-format=json+",
                                                        "--output=" + os.path.join(d, "o.json")], d, "file")
        runs[n, "usr1"] = start(tool, job_args(data) + ["--output-format=json"], d, "usr1")
        env = dict(os.environ, TMPDIR=os.path.join(d, "dump"))
        runs[n, "dump"] = start(tool, job_args(data) + ["--output-format=json"], d, "dump", env)
        runs[n, "ms"] = start(tool, job_args(data, "1") + ["--status-interval=300ms",
                                                           "--output-format=terse"], d, "ms")
        # cmdprio splits the reads over two priorities: each report has both.
        runs[n, "prio"] = start(tool, job_args(data, "2") + [
            "--ioengine=libaio", "--iodepth=4", "--cmdprio_percentage=50",
            "--status-interval=500ms", "--output-format=json"], d, "prio")
        for k, opts in enumerate(UNITS):
            runs[n, "eta%d" % k] = start(tool, job_args(data, "3") + ["--eta=always"] + opts[0],
                                         d, "eta%d" % k)
    # While they run: the --output file gets its reports as they come; a
    # second after a run's job process appears (I/O under way), a signal
    # and the dump file each ask for a report.
    seen_early = {name(t): 0 for t in TOOLS}
    asked, end = set(), time.monotonic() + 60
    while time.monotonic() < end and any(p.poll() is None for p in runs.values()):
        for tool in TOOLS:
            n = name(tool)
            d = os.path.join(tmp, n)
            if runs[n, "file"].poll() is None:
                try:
                    with open(os.path.join(d, "o.json")) as f:
                        seen_early[n] = max(seen_early[n], len(json_docs(f.read())[0]))
                except OSError:
                    pass
            for case in ("usr1", "dump"):
                since = started(runs[n, case].pid)
                if (n, case) in asked or since is None or time.monotonic() - since < 1.0:
                    continue
                asked.add((n, case))
                if case == "usr1":
                    runs[n, case].send_signal(signal.SIGUSR1)
                else:
                    open(os.path.join(d, "dump", "fio-dump-status"), "w").close()
        time.sleep(0.05)
    for tool in TOOLS:
        check(seen_early[name(tool)] >= 1,
              "%s --output: reports in the file while the run goes" % name(tool))
    res = {}
    for key, p in runs.items():
        _, err = p.communicate(timeout=120)
        with open(os.path.join(tmp, key[0], key[1] + ".out")) as f:
            out = f.read()
        res[key] = (p.returncode, out, err)
        check(p.returncode == 0, "%s %s: exit %d: %s" % (key[0], key[1], p.returncode, err[-500:]))
    for tool in TOOLS:
        n = name(tool)
        d = os.path.join(tmp, n)
        # fio counts its intervals from before its processes start, and
        # its third report can miss a loaded machine's end: 3 or 4.
        want = (4,) if tool == BIN else (3, 4)
        docs, rest = json_docs(res[n, "json"][1])
        check(rest.strip() == "", "%s json: only JSON documents: %r" % (n, rest[:200]))
        check_series(n + " json", docs, want)
        check("}\n{" in res[n, "json"][1], "%s json: documents one after another" % n)
        # Normal: a report per interval, the last the final.
        out = res[n, "normal"][1]
        if tool == BIN:
            secs = [float(x) for x in re.findall(r"^\[t\] .* ([0-9.]+) s$", out, re.M)]
            iops = [float(x) for x in re.findall(r"^  IOs/sec: ([0-9.]+)$", out, re.M)]
            ios = [round(a * b) for a, b in zip(secs, iops)]
            check(len(re.findall(r"^iogauge ", out, re.M)) == 4 and len(secs) == 4,
                  "iogauge normal: 4 reports: %r" % out[:300])
        else:
            secs = [int(x) / 1000 for x in re.findall(r"run=([0-9]+)-", out)]
            ios = [int(x) for x in re.findall(r"issued rwts: total=([0-9]+),", out)]
            check(len(secs) in want, "fio normal: %d reports" % len(secs))
        check(secs == sorted(secs) and ios == sorted(ios) and len(ios) == len(secs),
              "%s normal: cumulative: %s %s" % (n, secs, ios))
        # terse,json: each report the terse line, then the JSON, as fio orders them.
        out = res[n, "mixed"][1]
        docs, rest = json_docs(out)
        terse = [l for l in rest.splitlines() if l.startswith("3;")]
        check(len(terse) == len(docs) and len(docs) in want,
              "%s terse,json: %d terse lines, %d documents" % (n, len(terse), len(docs)))
        check(out.startswith("3;") and all(re.match(r"^3;[^\n]*\n\{", p) for p in
                                           re.split(r"(?<=\n)\}\n(?=3;)", out)[1:]),
              "%s terse,json: terse before JSON in each report" % n)
        check([int(l.split(";")[5]) for l in terse] == sorted(int(l.split(";")[5]) for l in terse),
              "%s terse,json: read KiB grow: %s" % (n, [l.split(";")[5] for l in terse]))
        # --output: everything in the file, nothing on stdout.
        check(res[n, "file"][1] == "", "%s --output: nothing on stdout" % n)
        with open(os.path.join(d, "o.json")) as f:
            docs, rest = json_docs(f.read())
        check(rest.strip() == "", "%s --output: only JSON documents" % n)
        check_series(n + " --output", docs, want)
        # json+: each report's clat bins hold every read so far.
        # (fio reads its counters while its job runs: a few apart either way.)
        bins = [sum(reads(x)["clat_ns"].get("bins", {}).values()) for x in docs]
        ios = [reads(x)["total_ios"] for x in docs]
        check(all(bins) and all(abs(i - b) <= (0 if tool == BIN else 4) for i, b in zip(ios, bins)),
              "%s --output json+: clat bins sum to the reads: %s %s" % (n, bins, ios))
        # SIGUSR1 and the dump file: one report when asked, then the final.
        for case in ("usr1", "dump"):
            docs, rest = json_docs(res[n, case][1])
            check(len(docs) == 2 and rest.strip() == "",
                  "%s %s: a report when asked and the final: %d" % (n, case, len(docs)))
            if len(docs) == 2:
                a, b = reads(docs[0]), reads(docs[1])
                check(0 < a["total_ios"] < b["total_ios"] and 700 <= a["runtime"] <= 2700,
                      "%s %s: the report is of the run so far: %d at %d ms, final %d"
                      % (n, case, a["total_ios"], a["runtime"], b["total_ios"]))
        check(not os.path.exists(os.path.join(d, "dump", "fio-dump-status")),
              "%s: the dump file is removed" % n)
        # 300ms in a 1 s run: at 0.3, 0.6 and 0.9 s, then the final (fio
        # counts from before its set-up: at 1.2 s too when that took 0.2 s).
        lines = [l for l in res[n, "ms"][1].splitlines() if l.startswith("3;")]
        check(len(lines) in ((4,) if tool == BIN else (3, 4, 5)),
              "%s 300ms: %d terse lines" % (n, len(lines)))
        kib = [int(l.split(";")[5]) for l in lines]
        check(kib == sorted(kib) and len(set(kib[:-1])) == len(kib) - 1,
              "%s 300ms: each report has more reads: %s" % (n, kib))
        docs, _ = json_docs(res[n, "prio"][1])
        prios = [[p["clat_ns"]["N"] for p in reads(x).get("prios", [])] for x in docs]
        check(len(docs) in ((5,) if tool == BIN else (4, 5, 6)) and
              all(len(p) == 2 and min(p) > 0 for p in prios) and
              # fio reads its counters while its job runs: up to iodepth apart.
              all(abs(reads(x)["total_ios"] - sum(p)) <= (0 if tool == BIN else 4)
                  for p, x in zip(prios, docs)) and
              all(a[0] <= b[0] and a[1] <= b[1] for a, b in zip(prios, prios[1:])),
              "%s cmdprio: each report's two priorities hold its reads: %s" % (n, prios))
        for k, (opts, unit) in enumerate(UNITS):
            # fio's ETA line is on standard output, iogauge's on standard error.
            text = res[n, "eta%d" % k][1 if tool == FIO else 2]
            eta_units(n, " ".join(opts) or "default units", text, unit)
    bad_values(tmp, data)


# The status line's rate units: (options, the prefixes and unit each
# rate shows), as fio's ETA line (unit_base=1: bits, kb_base=1000: SI).
UNITS = [([], r"(Ki|Mi)B/s"), (["--unit_base=1"], r"(Ki|Mi)bit/s"),
         (["--kb_base=1000"], r"(k|M)B/s"), (["--kb_base=1000", "--unit_base=1"], r"(k|M)bit/s"),
         (["--unit_base=8"], r"(Ki|Mi)B/s")]
MULT = {"": 1, "k": 1e3, "K": 1e3, "Ki": 1024, "M": 1e6, "Mi": 1 << 20, "G": 1e9, "Gi": 1 << 30}


def eta_units(who, what, text, unit):
    """Every status line with reads: its read rate in @unit, and that rate
    (in bytes) the line's read IOPS times 4 KiB, within 10% (fio's
    kb_base=1000 rates are KiB/s with SI prefixes, 2.4% short)."""
    lines = [l for l in re.split(r"[\r\n]", text) if re.search(r"\[r=[0-9.]+[kM]?(,w=\S*)? IOPS\]", l)]
    rates = []
    for l in lines:
        # iogauge shows w= too, without writes; fio only what moves.
        r = re.search(r"\]\[r=([0-9.]+)([KkMG]i?)?(B|bit)/s(,w=[^]]*)?\]"
                      r"\[r=([0-9.]+)([kM]?)(,w=\S*)? IOPS\]", l)
        if not check(r and re.search(r"\]\[r=[0-9.]+" + unit + r"[],]", l),
                     "%s %s: a rate in %s: %r" % (who, what, unit, l)):
            continue
        # fio's four digits at most, decimals included.
        check(len(r.group(1).replace(".", "")) <= 4 and len(r.group(5).replace(".", "")) <= 4,
              "%s %s: four digits at most: %r" % (who, what, l))
        bps = float(r.group(1)) * MULT[r.group(2) or ""] / (8 if r.group(3) == "bit" else 1)
        iops = float(r.group(5)) * MULT[r.group(6)]
        if iops > 100:
            rates.append((bps, iops * 4096))
    check(len(rates) >= 1 and all(abs(a - b) <= 0.1 * b for a, b in rates),
          "%s %s: rates match IOPS x 4 KiB: %s" % (who, what, rates))


def bad_values(tmp, data):
    """Too short, not a time, missing: exit 2 (fio exits 1), nothing run."""
    for val, want in (("0", "shorter than 1ms"), ("999us", "shorter than 1ms"),
                      ("soon", "--status-interval=soon"), ("", "--status-interval="),
                      # fio reads 1 s (the whole part) where iogauge refuses it.
                      ("1.5", "whole part")):
        target = os.path.join(tmp, "bad")
        p = subprocess.run([BIN, "--status-interval=" + val] + job_args(target),
                           capture_output=True, text=True, timeout=60)
        check(p.returncode == 2 and want in p.stderr and not os.path.exists(target),
              "--status-interval=%s: exit %d, %r" % (val, p.returncode, p.stderr))
        if FIO and val != "1.5":
            f = subprocess.run([FIO, "--status-interval=" + val] + job_args(target),
                               capture_output=True, text=True, timeout=60)
            check(f.returncode != 0 and not os.path.exists(target),
                  "fio --status-interval=%s: refused too (%d)" % (val, f.returncode))
    p = subprocess.run([BIN, "--status-interval"], capture_output=True, text=True, timeout=60)
    check(p.returncode == 2 and "--status-interval needs a value" in p.stderr,
          "--status-interval alone: %r" % p.stderr)


if __name__ == "__main__":
    main()
