#!/usr/bin/env python3
# The native report's "Run status group N (all jobs):" blocks against fio
# 3.33's normal output on the same jobs in the same test run, each tool in
# a fresh folder of its own, each printing its JSON beside its text
# (--output-format=normal,json).  One oracle, written here from fio's
# documented arithmetic (per entry: bytes*1000/runtime in whole ms; per
# group: bytes over the longest runtime; fio's way of writing quantities
# in 4 digits), turns each tool's JSON entries into the lines it should
# print: it must give fio's lines from fio's JSON, and iogauge's from
# iogauge's (so iogauge's lines sum its own entries as fio's sum fio's).
# Then the two tools' blocks are compared: the same groups and lines, the
# same io= figures (size-bound jobs), a paced read's bandwidth within 5%.
# iogauge's "read+write:" section of a mix's entry is checked against the
# same run's JSON entry.  iogauge's TOTAL line (a group moving
# data in more than one direction) is checked against the same oracle.
# One line per failure, then "totals: N passed, M failed".
#
# Environment (set by CTest): IOGAUGE_BIN.
import json
import os
import re
import shutil
import subprocess
import tempfile

from clitest import check, finish

BIN = os.path.abspath(os.environ["IOGAUGE_BIN"])
FIO = shutil.which("fio")

# Groups: 0 two jobs, one of 2 clones (no group_reporting); 1 a read/write
# mix of 2 clones with group_reporting; 2 kb_base=1000 and
# significant_figures=6; 3 rates in bits
# (unit_base=1); 4 unified_rw_reporting=both, 2 clones; 5 =mixed, in 2 digits; 6 only a
# stats=0 job: a header and no line, as fio; 7 a read paced at 1 MiB/s
# for 1 s, whose bandwidth is the rate's in both tools.
JOB = """[global]
ioengine=psync
bs=4k
size=256k
directory=%s
[w]
rw=write
numjobs=2
[r]
rw=randread
filename=r.dat
[mix]
stonewall
rw=randrw
size=512k
numjobs=2
group_reporting
[si]
new_group
rw=write
size=128k
kb_base=1000
significant_figures=6
[bits]
new_group
rw=randrw
unit_base=1
[both]
new_group
rw=randrw
unified_rw_reporting=both
numjobs=2
[mixed]
new_group
rw=rw
unified_rw_reporting=mixed
significant_figures=2
[quiet]
new_group
stats=0
rw=read
[paced]
new_group
rw=read
time_based
runtime=1
rate=1m
"""
NGROUPS = 8
# Each group's units: (powers of 2 first, rates in bits).
UNITS = {2: (False, False), 3: (True, True)}
DIGITS = {2: 6, 5: 2}  # significant_figures; 4 by default
LINE = re.compile(r"^ *(READ|WRITE|TRIM|MIXED|TOTAL): bw=(\S+) \((\S+)\), (\S+)-(\S+) "
                  r"\((\S+)-(\S+)\), io=(\S+) \((\S+)\), run=(\d+)-(\d+)msec$")


def num2str(num, pow2, unit, bits=False, digits=4):
    """A quantity as fio writes it: at most @digits digits, divided by 1000
    or 1024 while longer, the remainder as the decimals that fit."""
    thousand = 1024 if pow2 else 1000
    prefixes = ["", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"] if pow2 else \
        ["", "k", "M", "G", "T", "P", "E"]
    if bits:
        num *= 8
    p, rem, carry, divided = 0, 0, False, False
    while len(str(num)) > digits and p < len(prefixes):
        rem, num = num % thousand, num // thousand
        carry, divided, p = rem >= thousand // 2, True, p + 1
    if p >= len(prefixes):
        p = 0
    room = digits - len(str(num)) - 1
    if not divided or room <= 0:
        return "%d%s%s" % (num + (1 if divided and carry else 0), prefixes[p], unit)
    frac = "%.*f" % (room, rem / thousand)
    return "%d.%s%s%s" % (num + (frac[0] == "1"), frac[2:], prefixes[p], unit)


def figures(entries):
    """fio's group figures from [(bytes, ms)]: None when no entry has a runtime."""
    live = [(b, ms) for b, ms in entries if ms]
    if not live:
        return None
    bws = [b * 1000 // ms for b, ms in live]
    total = sum(b for b, _ in live)
    runs = [ms for _, ms in live]
    return {"bytes": total, "agg": total * 1000 // max(runs), "min_bw": min(bws),
            "max_bw": max(bws), "min_run": min(runs), "max_run": max(runs)}


def text_line(label, f, pow2, bits, digits):
    rate = "bit/s" if bits else "B/s"

    def two(v, unit, b):
        return num2str(v, pow2, unit, b, digits), num2str(v, not pow2, unit, b, digits)

    agg, mn, mx, io = (two(f["agg"], rate, bits), two(f["min_bw"], rate, bits),
                       two(f["max_bw"], rate, bits), two(f["bytes"], "B", False))
    return "%7s: bw=%s (%s), %s-%s (%s-%s), io=%s (%s), run=%d-%dmsec" % (
        label, agg[0], agg[1], mn[0], mx[0], mn[1], mx[1], io[0], io[1], f["min_run"],
        f["max_run"])


def expected(jobs, groups, runtime_of, with_total):
    """{group: [lines]} that a tool's JSON @jobs say it should print;
    @runtime_of(job, dir) the entry's whole ms in a direction."""
    out = {}
    for g in range(groups):
        pow2, bits = UNITS.get(g, (True, False))
        digits = DIGITS.get(g, 4)
        mine = [j for j in jobs if j["groupid"] == g]
        lines, dirs = [], []
        mixed = any("read" not in j for j in mine)
        for d, label in (("read", "READ"), ("write", "WRITE"), ("trim", "TRIM")):
            key = "mixed" if mixed else d
            if mixed and d != "read":
                continue
            f = figures([(j[key]["io_bytes"], runtime_of(j, key)) for j in mine])
            if f:
                lines.append(text_line("MIXED" if mixed else label, f, pow2, bits, digits))
                dirs.append(f)
        both = any("mixed" in j and "read" in j for j in mine)
        if both and dirs:
            m = {"bytes": sum(f["bytes"] for f in dirs), "agg": sum(f["agg"] for f in dirs),
                 "min_bw": min(f["min_bw"] for f in dirs),
                 "max_bw": max(f["max_bw"] for f in dirs),
                 "min_run": min(f["min_run"] for f in dirs),
                 "max_run": max(f["max_run"] for f in dirs)}
            lines.append(text_line("MIXED", m, pow2, bits, digits))
        elif with_total and not mixed and len(dirs) > 1:
            # iogauge's own: each entry's directions together, over its longest runtime.
            ents = []
            for j in mine:
                ms = [runtime_of(j, d) for d in ("read", "write", "trim")]
                ents.append((sum(j[d]["io_bytes"] for d, m in zip(("read", "write", "trim"), ms)
                                 if m), max(ms)))
            lines.append(text_line("TOTAL", figures(ents), pow2, bits, digits))
        out[g] = lines
    return out


def blocks(text):
    """{group: [lines]} of the text's "Run status group" blocks."""
    out, cur = {}, None
    for line in text.splitlines():
        m = re.match(r"^Run status group (\d+) \(all jobs\):$", line)
        if m:
            cur = out.setdefault(int(m.group(1)), [])
        elif cur is not None and LINE.match(line):
            cur.append(line)
        elif cur is not None:
            cur = None
    return out


def split(out):
    """(text, JSON) of a normal,json output, in either order."""
    i = out.index("{\n") if out.startswith("{\n") else out.index("\n{\n") + 1
    obj, end = json.JSONDecoder().raw_decode(out[i:])
    return out[:i] + out[i + end:], obj


def run(tool, tmp, name):
    d = os.path.join(tmp, name)
    os.mkdir(d)
    path = os.path.join(d, "t.fio")
    with open(path, "w") as f:
        f.write(JOB % d)
    p = subprocess.run([tool, "--output-format=normal,json", path], cwd=d, capture_output=True,
                       text=True, timeout=120)
    check(p.returncode == 0, "%s exits 0 (%d): %s" % (name, p.returncode, p.stderr[-300:]))
    return split(p.stdout)


def entries(text):
    """[(name, {section: {key: value}})] of the text report's job entries."""
    out = []
    body = text.split("\nRun status group")[0]
    for chunk in body.split("\n[")[1:]:
        name, secs, cur = chunk.split("]")[0], {}, None
        for line in chunk.splitlines()[1:]:
            if re.match(r"^[a-z+]+:$", line):
                cur = secs.setdefault(line[:-1], {})
            elif cur is not None and re.match(r"^  [A-Za-z/]+: [0-9.]+$", line):
                k, v = line.strip().split(": ")
                cur[k] = float(v)
        out.append((name, secs))
    return out


def combined_lines(text, jobs):
    """iogauge's "read+write:" section: in the entries of a mix without
    unified_rw_reporting only, its I/Os and bytes per second those of the
    JSON entry's reads and writes together."""
    ents = entries(text)
    check(len(ents) == len(jobs), "as many text entries (%d) as JSON ones (%d)"
          % (len(ents), len(jobs)))
    seen = 0
    for (name, secs), j in zip(ents, jobs):
        dirs = [d for d in ("read", "write", "trim") if d in j and j[d]["total_ios"]]
        want = "+".join(dirs) if len(dirs) > 1 and "mixed" not in j else None
        got = [s for s in secs if "+" in s]
        check(got == ([want] if want else []), "[%s]: combined section %s, want %s"
              % (name, got, want))
        if not want or not got:
            continue
        seen += 1
        t = j["iogauge"]["runtime_ns"] / 1e9
        ios = sum(j[d]["total_ios"] for d in dirs) / t
        mbs = sum(j[d]["io_bytes"] for d in dirs) / t / 1048576
        key, scale = ("Mbits/sec", 8) if "Mbits/sec" in secs[want] else ("MBs/sec", 1)
        check(abs(secs[want]["IOs/sec"] - ios) <= 0.01 and
              abs(secs[want][key] - mbs * scale) <= 0.01,
              "[%s] %s: %s, JSON says %.2f IOs/sec and %.2f %s"
              % (name, want, secs[want], ios, mbs * scale, key))
        parts = sum(secs[d]["IOs/sec"] for d in dirs)
        check(abs(secs[want]["IOs/sec"] - parts) <= 0.01 * len(dirs),
              "[%s]: combined IOs/sec is the directions' sum" % name)
    check(seen == 2, "combined sections in the two mixes (mix, bits): %d" % seen)


def rate_value(text):
    """Bytes per second of a figure such as 1023KiB/s or 1048kB/s."""
    m = re.match(r"^([0-9.]+)(|k|Ki|M|Mi|G|Gi)B/s$", text)
    scale = {"": 1, "k": 1e3, "Ki": 1024, "M": 1e6, "Mi": 1 << 20, "G": 1e9, "Gi": 1 << 30}
    return float(m.group(1)) * scale[m.group(2)]


def bad_values(tmp):
    """significant_figures out of 1..10 or not a number: exit 2 at file:line,
    nothing run; fio fails to parse the same."""
    for v in ("0", "11", "x"):
        path = os.path.join(tmp, "bad-%s.fio" % v)
        with open(path, "w") as f:
            f.write("[j]\nrw=read\nsize=64k\nfilename=%s\nsignificant_figures=%s\n"
                    % (os.path.join(tmp, "never.dat"), v))
        p = subprocess.run([BIN, path], capture_output=True, text=True, timeout=60)
        check(p.returncode == 2 and "bad-%s.fio:5: significant_figures" % v in p.stderr,
              "significant_figures=%s: exit 2 at file:line (%d): %s" % (v, p.returncode, p.stderr))
        check(not os.path.exists(os.path.join(tmp, "never.dat")),
              "significant_figures=%s: nothing laid out" % v)
        if FIO:
            p = subprocess.run([FIO, "--parse-only", path], capture_output=True, text=True,
                               timeout=60)
            check("failed parsing significant_figures=%s" % v in p.stderr + p.stdout,
                  "fio refuses significant_figures=%s too: %s" % (v, p.stderr))


def fio_ms(job, d):
    return job[d]["runtime"] if job[d]["io_bytes"] else 0


def iogauge_ms(job, d):
    # The entry's elapsed as fio keeps a runtime: microseconds, then ms rounded up.
    return (job["iogauge"]["runtime_ns"] // 1000 + 999) // 1000 if job[d]["io_bytes"] else 0


def main():
    tmp = tempfile.mkdtemp(prefix="iogauge-totals-")
    try:
        bad_values(tmp)
        itext, ijson = run(BIN, tmp, "iogauge")
        iblocks = blocks(itext)
        check(sorted(iblocks) == list(range(NGROUPS)),
              "iogauge: groups 0..%d: %s" % (NGROUPS - 1, sorted(iblocks)))
        want = expected(ijson["jobs"], NGROUPS, iogauge_ms, True)
        for g in range(NGROUPS):
            check(iblocks.get(g) == want[g], "iogauge group %d: printed %s, its entries say %s"
                  % (g, iblocks.get(g), want[g]))
        combined_lines(itext, ijson["jobs"])
        check(iblocks.get(6) == [], "a group of stats=0 jobs has a header and no line")
        # The block comes after every entry and before the disk statistics.
        check(itext.rindex("\n[") < itext.index("Run status group 0"),
              "the group blocks follow the job entries")
        if not FIO:
            print("fio not installed: iogauge's figures checked against its own entries only")
            finish("totals")
        ftext, fjson = run(FIO, tmp, "fio")
        fblocks = blocks(ftext)
        fwant = expected(fjson["jobs"], NGROUPS, fio_ms, False)
        for g in range(NGROUPS):
            check(fblocks.get(g) == fwant[g], "the oracle gives fio's group %d: fio %s, oracle %s"
                  % (g, fblocks.get(g), fwant[g]))
        for g in range(NGROUPS):
            fl = [LINE.match(x).groups() for x in fblocks.get(g, [])]
            il = [LINE.match(x).groups() for x in iblocks.get(g, []) if "TOTAL:" not in x]
            check([x[0] for x in fl] == [x[0] for x in il],
                  "group %d: fio's lines %s, iogauge's %s" % (g, [x[0] for x in fl],
                                                             [x[0] for x in il]))
            for f, i in zip(fl, il if g != 7 else []):  # 7 is time-bound
                check(f[7:9] == i[7:9], "group %d %s: io= fio %s, iogauge %s"
                      % (g, f[0], f[7:9], i[7:9]))
        # The paced read: both tools' aggregate within 5% (the runtimes' ms and the pacing).
        f, i = (LINE.match(b[7][0]).group(2) for b in (fblocks, iblocks))
        check(abs(rate_value(f) - rate_value(i)) <= 0.05 * rate_value(f),
              "paced read: bw fio %s, iogauge %s" % (f, i))
        for g in (2, 5, 7):
            print("group %d: fio %s\n         iogauge %s" % (g, fblocks.get(g), iblocks.get(g)))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    finish("totals")


main()
