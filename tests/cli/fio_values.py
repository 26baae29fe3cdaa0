#!/usr/bin/env python3
# Values that fio 3.33 takes and iogauge once refused, run in both tools on
# the same job over the same 16 MiB file, offsets read from write_lat_log
# with log_offset=1:
#  - size=, offset=, offset_increment=, io_size= as N% (0% is 0): each
#    clone's exact set of offsets (sequential reads);
#  - random_distribution=zoned with a zone of missing, empty or 0 size
#    (fio's rand-zones.fio line 11), sizes adding up to less than 100, and
#    zoned_abs with a zone of no size: the share of the I/Os in each zone;
#  - unified_rw_reporting (JSON objects, terse fields, mixed counts) and
#    unit_base (bits or bytes in the text report);
#  - stats=0: which jobs have entries, and empty logs.
# The figures fio gave are written here too, so the test means something
# where fio is not installed.  One line per failure, then a summary.
#
# Environment (set by CTest): IOGAUGE_BIN.
import glob
import json
import os
import re
import shutil
import subprocess
import tempfile

from clitest import check, finish

BIN = os.path.abspath(os.environ["IOGAUGE_BIN"])
FIO = shutil.which("fio")
FILE_SIZE = 16 << 20


def offsets(tool, tmp, job, prefix):
    """Runs @tool on @job (with its data file in @tmp) writing latency logs
    under @prefix: the list of offsets of each clone's log, or None."""
    for f in glob.glob(os.path.join(tmp, prefix + "*")):
        os.unlink(f)
    path = os.path.join(tmp, prefix + ".fio")
    with open(path, "w") as f:
        f.write(job)
    p = subprocess.run([tool, "--write_lat_log=" + os.path.join(tmp, prefix), path,
                        "--output=/dev/null"], capture_output=True, text=True, cwd=tmp)
    if p.returncode:
        print("%s: exit %d: %s" % (tool, p.returncode, p.stderr.strip()[-300:]))
        return None
    logs = sorted(glob.glob(os.path.join(tmp, prefix + "_lat.*.log")),
                  key=lambda s: int(s.rsplit(".", 2)[1]))
    out = []
    for log in logs:
        with open(log) as f:
            out.append([int(line.split(",")[4]) for line in f if line.strip()])
    return out


def job_text(tmp, lines):
    return ("[p]\nfilename=%s\nbs=4k\nlog_offset=1\nioengine=psync\n%s\n" %
            (os.path.join(tmp, "data"), "\n".join(lines)))


def percents(tmp):
    """(options, per clone: (I/Os, lowest offset, highest offset)), as fio gave them."""
    cases = [
        (["offset=0%"], [(4096, 0, 16773120)]),
        (["offset=0%", "size=100%"], [(4096, 0, 16773120)]),
        (["size=0%"], [(4096, 0, 16773120)]),
        (["offset=50%"], [(2048, 8388608, 16773120)]),
        (["size=50%"], [(2048, 0, 8384512)]),
        (["offset=25%", "size=50%"], [(2048, 4194304, 12578816)]),
        (["offset_increment=25%", "numjobs=2", "size=25%"],
         [(1024, 0, 4190208), (1024, 4194304, 8384512)]),
        (["offset_increment=0%", "numjobs=2", "size=1m"], [(256, 0, 1044480), (256, 0, 1044480)]),
        (["io_size=50%"], [(2048, 0, 8384512)]),
        (["io_size=0%", "size=8m"], [(2048, 0, 8384512)]),
        # Not on a block: fio rounds the start up to the smallest block size.
        (["offset=30%", "bs=64k"], [(179, 5046272, 16711680)]),
        (["size=33%", "bs=64k"], [(84, 0, 5439488)]),
        (["io_size=33%", "bs=64k"], [(85, 0, 5505024)]),
        # A percentage size that would pass the end: what is left.
        (["offset=60%", "size=50%"], [(1638, 10067968, 16773120)]),
        (["offset=33%", "size=33%"], [(1351, 5537792, 11067392)]),
        (["offset=25%", "numjobs=2", "offset_increment=10%", "size=2m"],
         [(512, 4194304, 6287360), (512, 5873664, 7966720)]),
        (["offset=1m", "offset_increment=10%", "numjobs=3", "size=1m"],
         [(256, 1048576, 2093056), (256, 2727936, 3772416), (256, 4407296, 5451776)]),
    ]
    # size=N% is N% of each file (fio), not of their sum divided among them.
    two = os.path.join(tmp, "data2")
    with open(two, "wb") as f:
        f.truncate(FILE_SIZE)
    job = job_text(tmp, ["rw=read", "size=50%"]).replace(
        "filename=%s" % os.path.join(tmp, "data"),
        "filename=%s:%s" % (os.path.join(tmp, "data"), two))
    got = offsets(BIN, tmp, job, "i")
    want = sorted(list(range(0, FILE_SIZE // 2, 4096)) * 2)
    check(got is not None and len(got) == 1 and sorted(got[0]) == want,
          "size=50%% of two files: iogauge %r" % (got and [(len(o), min(o), max(o)) for o in got]))
    if FIO:
        theirs = offsets(FIO, tmp, job, "f")
        check(theirs is not None and len(theirs) == 1 and sorted(theirs[0]) == want,
              "size=50%% of two files: fio %r" %
              (theirs and [(len(o), min(o), max(o)) for o in theirs]))
    os.unlink(two)
    for opts, want in cases:
        job = job_text(tmp, ["rw=read"] + opts)
        got = offsets(BIN, tmp, job, "i")
        figs = [(len(o), min(o), max(o)) for o in got] if got else None
        # Sequential: every block from the first to the last, once.
        check(figs == want and all(sorted(o) == list(range(lo, hi + 1, (hi - lo) // (n - 1)))
                                   for o, (n, lo, hi) in zip(got, want)),
              "%s: iogauge %r, want %r" % (" ".join(opts), figs, want))
        if FIO:
            theirs = offsets(FIO, tmp, job, "f")
            # fio numbers the clones' logs in its own order: compared as a set.
            check(theirs is not None and got is not None and
                  sorted(sorted(o) for o in theirs) == sorted(sorted(o) for o in got),
                  "%s: fio's offsets differ: fio %r, iogauge %r" % (
                      " ".join(opts), theirs and [(len(o), min(o), max(o)) for o in theirs],
                      figs))


def shares(offs, edges):
    """The share of @offs below each edge (in % of the file), in turn."""
    counts = [0] * len(edges)
    for o in offs:
        pct = o * 100.0 / FILE_SIZE
        for i, e in enumerate(edges):
            if pct < e:
                counts[i] += 1
                break
    return [c / len(offs) for c in counts]


def zoned(tmp):
    """(distribution, zone edges in % of the file, the share of each, as
    fio gave them on 16384 I/Os)."""
    cases = [
        # rand-zones.fio: the last zone takes the other 80%.
        ("zoned:50/5:30/15:20/", [5, 20, 100], [0.50, 0.30, 0.20]),
        # Two zones missing their size share the 90% left: 45% each.
        ("zoned:50/10:25/:25/", [10, 55, 100], [0.50, 0.25, 0.25]),
        ("zoned:50/10:25:25/0", [10, 55, 100], [0.50, 0.25, 0.25]),
        # Sizes adding up to 30%: the rest is not accessed.
        ("zoned:60/10:40/20", [10, 30, 100], [0.60, 0.40, 0.0]),
        # The only zone, without a size: every I/O at the first block.
        ("zoned:100", [0.025, 100], [1.0, 0.0]),
        # zoned_abs: a zone of no size puts its I/O at the block after
        # the zones before it (1 MiB = 6.25%).
        ("zoned_abs:50/1m:50", [6.25, 6.26, 100], [0.50, 0.50, 0.0]),
    ]
    # fio's own example reads, with its last zone's share filled in.
    example = "/usr/share/doc/fio/examples/rand-zones.fio"
    if os.path.exists(example):
        p = subprocess.run([BIN, "--parse-only", example], capture_output=True, text=True)
        check(p.returncode == 0 and
              "random_distribution=zoned:50/5:30/15:20/80 " in p.stdout,
              "rand-zones.fio: exit %d, %s" % (p.returncode, p.stderr.strip()[-200:]))
    for dist, edges, want in cases:
        job = job_text(tmp, ["rw=randread", "io_size=64m",
                             "random_distribution=" + dist])
        got = offsets(BIN, tmp, job, "i")
        mine = shares(got[0], edges) if got else None
        check(mine is not None and all(abs(a - b) <= 0.03 for a, b in zip(mine, want)),
              "%s: iogauge's shares %r, want %r" % (dist, mine, want))
        if FIO:
            theirs = offsets(FIO, tmp, job, "f")
            fios = shares(theirs[0], edges) if theirs else None
            check(fios is not None and mine is not None and
                  all(abs(a - b) <= 0.03 for a, b in zip(mine, fios)),
                  "%s: fio's shares %r, iogauge's %r" % (dist, fios, mine))
            print("%s: fio %s, iogauge %s" % (
                dist, fios and ["%.3f" % x for x in fios], mine and ["%.3f" % x for x in mine]))


def run_out(tool, tmp, job, fmt):
    path = os.path.join(tmp, "r.fio")
    with open(path, "w") as f:
        f.write(job)
    p = subprocess.run([tool, path, "--output-format=" + fmt], capture_output=True, text=True,
                       cwd=tmp)
    return p.returncode, p.stdout


def unified(tmp):
    """unified_rw_reporting: the JSON objects, the terse fields and the
    mixed counts as fio's; the text report's sections."""
    named = {"0": "none", "1": "mixed", "2": "both"}
    for mode, keys in (("none", ["read", "write", "trim", "sync"]), ("mixed", ["mixed"]),
                       ("both", ["read", "write", "trim", "sync", "mixed"]),
                       ("1", ["mixed"]), ("2", ["read", "write", "trim", "sync", "mixed"])):
        job = job_text(tmp, ["rw=randrw", "rwmixread=70", "size=4m",
                             "unified_rw_reporting=" + mode])
        rc, out = run_out(BIN, tmp, job, "json")
        j = json.loads(out)["jobs"][0] if rc == 0 else {}
        got = [k for k in ("read", "write", "trim", "sync", "mixed") if k in j]
        check(got == keys, "unified_rw_reporting=%s: JSON objects %r, want %r" % (mode, got, keys))
        if "mixed" in j:
            check(j["mixed"]["total_ios"] == 1024 and j["mixed"]["io_kbytes"] == 4096,
                  "unified_rw_reporting=%s: mixed %r I/Os, %r KiB (want 1024, 4096)" % (
                      mode, j["mixed"]["total_ios"], j["mixed"]["io_kbytes"]))
        if "read" in j and "mixed" in j:
            check(j["read"]["total_ios"] + j["write"]["total_ios"] == j["mixed"]["total_ios"],
                  "unified_rw_reporting=both: mixed is not read + write")
        rc, terse = run_out(BIN, tmp, job, "terse")
        nf = len(terse.strip().split(";"))
        rc, text = run_out(BIN, tmp, job, "normal")
        sections = [line[:-1] for line in text.splitlines() if line in ("read:", "write:", "mixed:")]
        want_sections = {"none": ["read:", "write:"], "mixed": ["mixed:"],
                         "both": ["read:", "write:", "mixed:"]}[named.get(mode, mode)]
        check([x + ":" for x in sections] == want_sections,
              "unified_rw_reporting=%s: text sections %r" % (mode, sections))
        if FIO:
            rc, fout = run_out(FIO, tmp, job, "json")
            fj = json.loads(fout)["jobs"][0] if rc == 0 else {}
            fkeys = [k for k in ("read", "write", "trim", "sync", "mixed") if k in fj]
            check(fkeys == got, "unified_rw_reporting=%s: fio's objects %r, iogauge's %r" %
                  (mode, fkeys, got))
            if "mixed" in fj and "mixed" in j:
                check((fj["mixed"]["total_ios"], fj["mixed"]["io_kbytes"]) ==
                      (j["mixed"]["total_ios"], j["mixed"]["io_kbytes"]),
                      "unified_rw_reporting=%s: fio's mixed %r, iogauge's %r" % (
                          mode, fj["mixed"]["total_ios"], j["mixed"]["total_ios"]))
            rc, fterse = run_out(FIO, tmp, job, "terse")
            fnf = len(fterse.strip().split(";"))
            check(fnf == nf, "unified_rw_reporting=%s: terse fields fio %d, iogauge %d" %
                  (mode, fnf, nf))
            print("unified_rw_reporting=%s: JSON %s; terse fields fio %d, iogauge %d" %
                  (mode, fkeys, fnf, nf))
    # unit_base: 1 is bits, 8 and 0 bytes, in the text report.
    for ub, bits in (("0", False), ("8", False), ("1", True)):
        job = job_text(tmp, ["rw=read", "size=4m", "unit_base=" + ub])
        rc, text = run_out(BIN, tmp, job, "normal")
        iops = float(re.search(r"IOs/sec: ([0-9.]+)", text).group(1))
        m = re.search(r"(MBs|Mbits)/sec: ([0-9.]+)", text)
        want = iops * 4096 * (8 if bits else 1) / 1048576
        check(m and (m.group(1) == "Mbits") == bits and abs(float(m.group(2)) - want) <= 0.01 * want + 0.01,
              "unit_base=%s: %r (want %s about %.2f)" % (ub, m and m.group(0), "Mbits" if bits else "MBs", want))
        if FIO:
            rc, fout = run_out(FIO, tmp, job, "normal")
            fbits = "bit/s" in fout
            check(fbits == bits, "unit_base=%s: fio's text in %s" % (ub, "bits" if fbits else "bytes"))


def stats_off(tmp):
    """stats=0: the job has no entry (JSON, terse, text) and no part of its
    group's, and its logs are empty; the others are reported as ever.
    fio's JSON and terse keep a blank, nameless entry per such clone: those
    are left out of the comparison (man iogauge, DIFFERENCES FROM FIO)."""
    data = os.path.join(tmp, "data")
    job = ("[global]\nfilename=%s\nbs=4k\nrw=read\nsize=1m\nioengine=psync\n"
           "[a]\nstats=0\nwrite_lat_log=%s/sa\nwrite_bw_log=%s/sa\n[b]\n"
           "[c]\nstats=0\nnumjobs=2\n[d]\nnew_group\n"
           "[e]\nnew_group\ngroup_reporting\nstats=0\n[f]\ngroup_reporting\n"
           % (data, tmp, tmp))

    def named(tool):
        rc, out = run_out(tool, tmp, job, "json")
        jobs = json.loads(out)["jobs"] if rc == 0 else []
        rc, terse = run_out(tool, tmp, job, "terse")
        lines = [line.split(";") for line in terse.splitlines() if line]
        return ([(j["jobname"], j["groupid"], j["read"]["total_ios"]) for j in jobs
                 if "jobname" in j],
                [(f[2], f[3], f[5]) for f in lines if f[2]])

    for f in glob.glob(os.path.join(tmp, "sa_*")):
        os.unlink(f)
    mine = named(BIN)
    want = ([("b", 0, 256), ("d", 1, 256), ("f", 2, 256)],
            [("b", "0", "1024"), ("d", "1", "1024"), ("f", "2", "1024")])
    check(mine == want, "stats=0: iogauge's entries %r, want %r" % (mine, want))
    logs = sorted(glob.glob(os.path.join(tmp, "sa_*")))
    check(len(logs) == 4 and all(os.path.getsize(f) == 0 for f in logs),
          "stats=0: logs %r not all there and empty" % logs)
    rc, text = run_out(BIN, tmp, job, "normal")
    check(re.findall(r"^\[(\w)\]", text, re.M) == ["b", "d", "f"],
          "stats=0: text entries %r" % re.findall(r"^\[(\w)\]", text, re.M))
    if FIO:
        theirs = named(FIO)
        check(theirs == mine, "stats=0: fio's named entries %r, iogauge's %r" % (theirs, mine))
        flogs = sorted(glob.glob(os.path.join(tmp, "sa_*")))
        check(flogs == logs and all(os.path.getsize(f) == 0 for f in flogs),
              "stats=0: fio's logs %r" % flogs)
        print("stats=0: fio %r, iogauge %r" % (theirs[0], mine[0]))


with tempfile.TemporaryDirectory() as tmp:
    with open(os.path.join(tmp, "data"), "wb") as f:
        f.truncate(FILE_SIZE)
    percents(tmp)
    zoned(tmp)
    unified(tmp)
    stats_off(tmp)
finish("fio_values")
