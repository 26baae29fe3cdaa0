#!/usr/bin/env python3
"""fio and iogauge side by side, on our rewrites of fio's example job files.

The examples are tests/data/fio-examples/NAME.fio.  Each runs as it is, with
only its data location, size and runtime changed: a data file (or folder) in
--dir, --size, and --runtime seconds per job.  For the examples whose jobs
are not time_based, the runtime is a cap: a job also ends when its region is
done.  Options that only one tool has are left as the file has them.

iogauge gets the changes as --set KEY=VALUE, which overrides every job.  fio
has no such thing (options before a job file are only defaults, which the
file's own values beat), so fio runs a copy of the example, written in
--dir/out, in which each line that sets one of these options is commented
out and the new value is put at the end of [global] and of every job
section.  filename goes only into the job sections: fio adds a file for
each filename= it reads (a second one in a job section does not replace the
one from [global], and the same name twice is two files, the size split
between them), so it must be read exactly once per job.  Before the first
run of an example, fio --showcmd on the copy and iogauge --parse-only with
the --set options are checked to give every job the new values, and during
every run no data file may outgrow what the bench laid out: a run that
grows one is killed.  So is a run still going at phases x runtime x 2 +
20 s; it is then run again, up to RETRIES times.

One more change goes to fio's copy only (FIO_ONLY): poisson-rate-submission
runs with io_submit_mode=inline.  With offload, fio 3.33 hangs as it starts
its submission threads, before any I/O: a race in its workqueue_init, fixed
after 3.33 (axboe/fio pull request 2053, 2026).  iogauge runs offload
inline (it says so), so both tools then submit from the job's thread.

For each example, PAIRS pairs of runs (who goes first alternates), each tool
writing fio's JSON.  Each job entry's IOPS is its read + write IOPS; an
example's total is the sum over its entries (with group_reporting one entry
per group; for stonewalled phases it is the sum of the phases' rates, not
I/Os over the wall time).  Examples with several jobs also get a line per
job (its clones summed).  Each pair's line also gives each tool's CPU time
(user + system) per I/O, which tells a run the tool's own cost decides
from one the device decides, and its minor page faults (the JSON's minf,
summed over the entries).  It prints, per example and job, the median and
range over pairs of the ratio iogauge/fio and each tool's median, and marks
with * a median ratio outside [0.85, 1.15]; each example's total line gives
the same for the minor faults.  --markdown prints the table as
Markdown.  Nothing here asserts a speed: the exit status says only whether
every run worked (1 if one failed; 2 for bad arguments).  --smoke is one
pair of 1 s runs on 32m per example, to check that both tools run every
example and write JSON that parses.

The data files are made up front in --dir (random bytes, so reads reach the
device and no write lands on a hole), so neither tool lays a file out.  Both
tools run in --dir, and before each run the dirty pages are written back
(sync), so that one run's writeback does not land in the next; what the
page cache holds is left as the previous run left it.  What each tool said
on standard error is printed once per example.  The files are removed at
the end, with fio's copies, the JSON and the stderr files, unless --keep.

usage: bench/examples.py [--pairs N] [--runtime S] [--size SIZE]
                         [--examples A,B] [--smoke] [--markdown] [--keep]
                         [--iogauge BIN] [--fio BIN] [--dir DIR]
"""
import argparse
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from compare import add_common, children, disk_counts, disk_of, make_file, parse_common  # noqa: E402

EXAMPLE_DIR = os.path.join(HERE, "..", "tests", "data", "fio-examples")
LOW, HIGH = 0.85, 1.15
# A run that has not ended long after its runtime is killed and run again,
# up to this many times.
RETRIES = 5
# Changes for fio's copy alone, (key, value, also in [global]): fio 3.33
# with io_submit_mode=offload and iodepth=32 hangs in workqueue_init, its 32
# submission threads and the job all waiting on condition variables, before
# any I/O (seen here 12 times in 12; axboe/fio#2053 fixes the race).
FIO_ONLY = {"poisson-rate-submission": [("io_submit_mode", "inline", True)]}
MIB = 1 << 20

# name: (where the data goes, phases, data files).
#   where: "filename"  -- every job shares one file: filename=DIR/NAME.dat;
#          "directory" -- the jobs' clones each have their own file, named by
#                         filename_format ($jobname.$jobnum.$filenum), so the
#                         folder is what is moved: directory=DIR;
#          "both"      -- the file sets directory= and a relative filename=,
#                         and fio puts the directory in front even of an
#                         absolute filename: directory=DIR, filename=NAME.dat.
#   phases: jobs that run one after another (stonewall, wait_for), for the
#           time a run may take.
#   data files: (name in DIR, bytes or None for --size) made before the runs.
EXAMPLES = [
    # One file; four stonewalled phases (seq/rand read, seq/rand write).
    ("ssd-test", "both", 4, [("ssd-test.dat", None)]),
    # No filename: four stonewalled jobs of numjobs=4, each clone its own file.
    ("tiobench-example", "directory", 4,
     [("f%d.%d.0" % (j, c), None) for j in range(1, 5) for c in range(4)]),
    # One job, one clone: a filename is enough.
    ("iometer-file-access-server", "filename", 1, [("iometer-file-access-server.dat", None)]),
    # filename in [global]; four clones share it.
    ("jesd219", "filename", 1, [("jesd219.dat", None)]),
    # filename in [global], shared by all; filesize=128m stays, and sets the
    # file's size (size, at or above it, is then capped to it by both tools).
    ("waitfor", "filename", 4, [("waitfor.dat", 128 * MIB)]),
    # One job, rate-capped at 50 IOPS.
    ("poisson-rate-submission", "filename", 1, [("poisson-rate-submission.dat", None)]),
    # filename (relative, in the current folder) in [global]; four clones share it.
    ("fio-rand-RW", "filename", 1, [("fio-rand-RW.dat", None)]),
    # The same shape: one buffered time_based sequential writer.
    ("fio-seq-write", "filename", 1, [("fio-seq-write.dat", None)]),
    # ssd-steadystate's [sequential-fill] alone: filename in [global], one job.
    ("ssd-steadystate-fill", "filename", 1, [("ssd-steadystate-fill.dat", None)]),
]


def parse_size(text):
    """Bytes in a size such as 256m (k, m, g are 1024-based, as fio's default kb_base)."""
    m = re.fullmatch(r"(\d+)([kmg]?)", text.strip().lower())
    if not m:
        raise ValueError(text)
    return int(m.group(1)) << {"": 0, "k": 10, "m": 20, "g": 30}[m.group(2)]


def size_option(ap, a, default, smoke_default, most):
    """Sets a.size (@default, or @smoke_default with --smoke, when not
    given) and a.bytes; an argparse error unless from 1m to @most."""
    a.size = a.size or (smoke_default if a.smoke else default)
    try:
        a.bytes = parse_size(a.size)
    except ValueError:
        ap.error("--size: '%s' is not a size such as %s" % (a.size, default))
    if not MIB <= a.bytes <= parse_size(most):
        ap.error("--size: from 1m to %s" % most)


def overrides(name, where, a):
    """[(key, value, also in [global])] for one example."""
    data = os.path.join(a.dir, name + ".dat")
    ov = []
    if where in ("directory", "both"):
        ov.append(("directory", a.dir, True))
    if where == "filename":
        ov.append(("filename", data, False))
    elif where == "both":
        ov.append(("filename", name + ".dat", False))
    ov += [("size", a.size, True), ("runtime", str(a.runtime), True)]
    return ov


# fio's other spellings of the options replaced (timeout is runtime's alias).
ALIASES = {"runtime": {"runtime", "timeout"}, "size": {"size"}, "filename": {"filename"},
           "directory": {"directory"}, "io_submit_mode": {"io_submit_mode"}}


def fio_copy(src, dst, ov):
    """Write src to dst with the lines that set an overridden option
    commented out and the overrides at the end of each section."""
    keys = set().union(*(ALIASES[k] for k, _, _ in ov))
    with open(src) as f:
        lines = f.read().splitlines()
    head, sections = [], []  # sections: [name, lines]
    for line in lines:
        s = line.strip()
        m = re.match(r"\[(.+)\]", s)
        if m:
            sections.append([m.group(1), [line]])
            continue
        if s and s[0] not in ";#" and s.split("=", 1)[0].strip().lower() in keys:
            line = "; bench/examples.py: " + line
        (sections[-1][1] if sections else head).append(line)
    out = ["; bench/examples.py: %s with %s replaced" %
           (os.path.relpath(src, os.path.join(HERE, "..")), ", ".join(k for k, _, _ in ov))] + head
    for sec, body in sections:
        is_global = sec.lower().startswith("global")  # fio's test: [globalx] is global too
        add = ["%s=%s" % (k, v) for k, v, glob in ov if glob or not is_global]
        last = max(i for i, l in enumerate(body)
                   if l.strip() and l.strip()[0] not in ";#" or i == 0)
        out += body[:last + 1] + add + body[last + 1:]
    with open(dst, "w") as f:
        f.write("\n".join(out) + "\n")
    return [sec for sec, _ in sections if not sec.lower().startswith("global")]


def check_fio(fio, copy, ov, sections):
    """fio --showcmd on the copy: every job (one per section) must end up
    with each override, and with exactly one filename when filename is
    overridden.  Raises RuntimeError if not."""
    p = subprocess.run([fio, "--showcmd", copy], capture_output=True, text=True)
    if p.returncode:
        raise RuntimeError("fio --showcmd %s: exit %d\n%s" % (copy, p.returncode, p.stderr))
    glob, jobs = [], []
    for tok in p.stdout.split():
        # showcmd prints a name= of [global] as --name= too: only the
        # sections' names start jobs.
        if tok.startswith("--name=") and len(jobs) < len(sections) and \
                tok[7:] == sections[len(jobs)]:
            jobs.append((tok[7:], []))
        elif tok.startswith("--") and "=" in tok:
            (jobs[-1][1] if jobs else glob).append(tuple(tok[2:].split("=", 1)))
    if len(jobs) != len(sections):
        raise RuntimeError("fio --showcmd %s: jobs %s, sections %s\n%s" %
                           (copy, [j for j, _ in jobs], sections, p.stdout))
    for job, opts in jobs:
        for key, want, _ in ov:
            got = [v for k, v in glob + opts if k == key]
            if key == "filename" and len(got) != 1:
                raise RuntimeError("fio job %s reads %d filename= (fio adds a file for each): %s"
                                   % (job, len(got), got))
            if not got or got[-1] != want:
                raise RuntimeError("fio job %s: %s=%s, wanted %s\n%s" %
                                   (job, key, got[-1] if got else "(not set)", want, p.stdout))


def check_iogauge(cmd, ov):
    """iogauge --parse-only with the --set options: every job's value of each
    overridden option must come from --set."""
    cmd = cmd[:1] + ["--parse-only"] + cmd[1:]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode:
        raise RuntimeError("%s --parse-only: exit %d\n%s" % (" ".join(cmd), p.returncode, p.stderr))
    job, seen = None, {}
    for line in p.stdout.splitlines():
        m = re.match(r"\[(.+)\]$", line)
        if m:
            job = m.group(1)
            seen[job] = set()
        elif job and "--set" in line.split(";", 1)[-1]:
            seen[job].add(line.split("=", 1)[0])
    for job, got in seen.items():
        miss = [k for k, _, _ in ov if k not in got]
        if miss:
            raise RuntimeError("iogauge job %s: %s not from --set" % (job, ", ".join(miss)))
    if not seen:
        raise RuntimeError("iogauge --parse-only: no jobs\n" + p.stdout)


class RunFailed(Exception):
    pass


class RunHung(RunFailed):
    pass


def kill_tree(pid):
    """SIGKILL pid and everything under it.  Each of fio's job processes
    is in a session of its own, so killing the process group is not enough."""
    tree, todo = [], [pid]
    while todo:
        p = todo.pop()
        tree.append(p)
        todo += children(p)
    for p in tree:
        try:
            os.kill(p, signal.SIGKILL)
        except ProcessLookupError:
            pass


def run(argv, out, err, cwd, disk, laid, limit, timeout):
    """One run: (json document, device requests, KiB per request, seconds,
    stderr).  Kills the run, with every process under it, if a file in cwd
    grows past the size the bench laid it out at (laid: name -> bytes; limit
    for a file it did not lay out) or the run takes longer than timeout s."""
    for path in (out, err):
        if os.path.exists(path):
            os.unlink(path)
    os.sync()  # the previous run's dirty pages are not this run's writeback
    d0 = disk_counts(disk)
    t0 = time.monotonic()
    with open(err, "w") as ef:
        p = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.DEVNULL, stderr=ef)
    why, hung = None, False
    while p.poll() is None:
        time.sleep(0.2)
        if time.monotonic() - t0 > timeout:
            why, hung = "still running after %d s" % timeout, True
        for e in os.scandir(cwd):
            if e.is_file(follow_symlinks=False) and e.stat().st_size > laid.get(e.name, limit):
                why = "%s grew to %d bytes (laid out: %d)" % (e.name, e.stat().st_size,
                                                              laid.get(e.name, 0))
        if why:
            kill_tree(p.pid)
            p.wait()
            break
    secs = time.monotonic() - t0
    d1 = disk_counts(disk)
    with open(err) as f:
        text = f.read()
    if why:
        raise (RunHung if hung else RunFailed)("%s: killed: %s\n%s" % (" ".join(argv), why, text))
    if p.returncode:
        raise RunFailed("%s: exit %d\n%s" % (" ".join(argv), p.returncode, text))
    stray = sorted(e.name for e in os.scandir(cwd) if e.is_file() and e.name not in laid)
    if stray:
        raise RunFailed("%s: made files the bench did not lay out: %s" % (" ".join(argv), stray))
    try:
        with open(out) as f:
            doc = json.load(f)
        bad = [j["jobname"] for j in doc["jobs"] if j.get("error")]
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise RunFailed("%s: JSON: %s" % (" ".join(argv), e))
    if bad:
        raise RunFailed("%s: jobs with an error: %s\n%s" % (" ".join(argv), bad, text))
    reqs = d1[0] - d0[0]
    return doc, reqs, (d1[1] - d0[1]) / 2 / reqs if reqs else 0, secs, text


def figures(doc):
    """{jobname: read + write IOPS, clones summed}, in the order of the JSON."""
    jobs = {}
    for j in doc["jobs"]:
        jobs[j["jobname"]] = jobs.get(j["jobname"], 0) + j["read"]["iops"] + j["write"]["iops"]
    return jobs


def minor_faults(doc):
    """The minor page faults (the JSON's minf) of every job entry, summed."""
    return sum(j["minf"] for j in doc["jobs"])


def cpu_per_io(doc):
    """Microseconds of CPU (user + system, the JSON's usr_cpu and sys_cpu
    over each job's runtime) per I/O, over the whole run."""
    cpu = ios = 0
    for j in doc["jobs"]:
        cpu += (j["usr_cpu"] + j["sys_cpu"]) / 100 * j["job_runtime"] * 1000
        ios += j["read"]["total_ios"] + j["write"]["total_ios"]
    return cpu / ios if ios else float("nan")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    add_common(ap, 3, "seconds per job (a cap if not time_based)", "example")
    ap.add_argument("--size", default=None, help="size= for every job (default 256m; 32m with --smoke)")
    ap.add_argument("--dir", default="/tmp/iogauge-examples", help="where the data files go")
    ap.add_argument("--keep", action="store_true", help="keep the data files, fio's copies and the JSON")
    a, want = parse_common(ap, "example", [e[0] for e in EXAMPLES])
    size_option(ap, a, "256m", "32m", "1g")
    a.dir = os.path.abspath(a.dir)
    a.iogauge = os.path.abspath(a.iogauge)
    made = [] if os.path.isdir(a.dir) else [a.dir]
    os.makedirs(a.dir, exist_ok=True)
    outdir = os.path.join(a.dir, "out")
    if not os.path.isdir(outdir):
        made.append(outdir)
        os.mkdir(outdir)
    try:
        ok = bench(a, want, made, outdir)
    finally:
        if not a.keep:
            for path in reversed(made):
                if os.path.exists(path):
                    (os.rmdir if os.path.isdir(path) else os.unlink)(path)
    sys.exit(0 if ok else 1)


def bench(a, want, made, outdir):
    ver = subprocess.run([a.fio, "--version"], capture_output=True, text=True).stdout.strip()
    print("# fio: %s; iogauge: %s; %d pairs; size=%s runtime=%d per job; data in %s; %s" %
          (ver, a.iogauge, a.pairs, a.size, a.runtime, a.dir, time.strftime("%Y-%m-%d %H:%M")),
          flush=True)
    disk = disk_of(a.dir)
    rows, failed = [], []
    # Every example's data files, by name (a --dir kept from an earlier run
    # may hold those of examples not run now): what the guards allow.
    laid = {f: size or a.bytes for e in EXAMPLES for f, size in e[3]}
    for name, where, phases, files in (e for e in EXAMPLES if e[0] in want):
        src = os.path.join(EXAMPLE_DIR, name + ".fio")
        ov = overrides(name, where, a)
        copy = os.path.join(outdir, name + ".for-fio.fio")
        made.append(copy)
        fio_ov = ov + FIO_ONLY.get(name, [])
        if FIO_ONLY.get(name):
            print("%-26s fio's copy also sets %s (see FIO_ONLY)" %
                  (name, " ".join("%s=%s" % (k, v) for k, v, _ in FIO_ONLY[name])), flush=True)
        sections = fio_copy(src, copy, fio_ov)
        cmd = {"fio": [a.fio, "--output-format=json"],
               "iogauge": [a.iogauge] + ["--set=%s=%s" % (k, v) for k, v, _ in ov] +
                          ["--output-format=json"]}
        try:
            check_fio(a.fio, copy, fio_ov, sections)
            check_iogauge(cmd["iogauge"] + [src], ov)
        except RuntimeError as e:
            print("%s: the overrides did not take, not run:\n%s" % (name, e), flush=True)
            failed.append(name)
            continue
        for fname, _ in files:
            path = os.path.join(a.dir, fname)
            if not os.path.exists(path):
                made.append(path)
            make_file(path, laid[fname], [])
        # The files are laid out already: a run takes at most about
        # phases x runtime, and a run that hangs costs this much.
        timeout = phases * a.runtime * 2 + 20
        got = {"fio": [], "iogauge": []}
        faults = {"fio": [], "iogauge": []}
        said = {"fio": [], "iogauge": []}
        hangs = []
        try:
            for i in range(a.pairs):
                order = ["fio", "iogauge"] if i % 2 == 0 else ["iogauge", "fio"]
                res = {}
                for t in order:
                    out = os.path.join(outdir, "%s.%s.%d.json" % (name, t, i + 1))
                    err = out[:-5] + ".stderr"
                    made += [p for p in (out, err) if p not in made]
                    for attempt in range(RETRIES + 1):
                        try:
                            r = run(cmd[t] + ["--output=" + out, copy if t == "fio" else src], out,
                                    err, a.dir, disk, laid,
                                    max(size or a.bytes for _, size in files), timeout)
                            break
                        except RunHung as e:
                            hangs.append("%s pair %d: %s" % (t, i + 1, str(e).split("\n")[0]))
                            print("%-26s %s pair %d hung (killed after %d s)%s" %
                                  (name, t, i + 1, timeout,
                                   ", again" if attempt < RETRIES else ", giving up"), flush=True)
                            if attempt == RETRIES:
                                raise
                    res[t] = r
                    got[t].append(figures(r[0]))
                    faults[t].append(minor_faults(r[0]))
                    said[t] += [l for l in r[4].splitlines() if l.strip() and l not in said[t]]
                f, g = (sum(got[t][-1].values()) for t in ("fio", "iogauge"))
                print("%-26s pair %d (%s first): IOPS fio %.0f iogauge %.0f (%.3f); on %s "
                      "requests fio %d iogauge %d, KiB/request fio %.1f iogauge %.1f; "
                      "wall s fio %.1f iogauge %.1f; CPU us/IO fio %.2f iogauge %.2f; "
                      "minor faults fio %d iogauge %d" %
                      (name, i + 1, order[0], f, g, g / f if f else float("nan"), disk,
                       res["fio"][1], res["iogauge"][1], res["fio"][2], res["iogauge"][2],
                       res["fio"][3], res["iogauge"][3], cpu_per_io(res["fio"][0]),
                       cpu_per_io(res["iogauge"][0]), faults["fio"][-1], faults["iogauge"][-1]),
                      flush=True)
        except RunFailed as e:
            print("%s: run failed: %s" % (name, e), flush=True)
            failed.append(name)
            continue
        if hangs:
            print("%-26s runs that hung and were run again: %d" % (name, len(hangs)), flush=True)
        for t in ("fio", "iogauge"):
            for line in said[t]:
                print("%-26s %s said: %s" % (name, t, line), flush=True)
        rows.append((name, got, faults))
    report(rows, a.markdown, a.smoke)
    if failed:
        print("failed: %s" % ", ".join(failed))
    return not failed


def cell(fio, ig):
    """(median ratio, low, high, fio median, iogauge median) over the pairs."""
    r = sorted(g / f if f else float("nan") for f, g in zip(fio, ig))
    return statistics.median(r), r[0], r[-1], statistics.median(fio), statistics.median(ig)


def report(rows, markdown, smoke):
    """Per example (and per job where it has several): median ratio iogauge/fio
    [range] (fio median -> iogauge median); * marks a median outside [LOW, HIGH].
    Each example's total also gets the same for its minor faults."""
    if smoke:
        print("\nsmoke: both tools ran, and their JSON parsed, on: %s" %
              (", ".join(n for n, _, _ in rows) or "none"))
        return
    if markdown:
        print("\n| example | job | IOPS iogauge/fio median [range] | fio IOPS | iogauge IOPS | "
              "within ±15% | minor faults iogauge/fio [range] (fio → iogauge) |")
        print("|---|---|---|---|---|---|---|")
    else:
        print("\nIOPS: median iogauge/fio [range] (fio median -> iogauge median); "
              "* = median outside [%.2f, %.2f]" % (LOW, HIGH))
    outside = []
    for name, got, faults in rows:
        minf = "%.3f [%.3f–%.3f] (%.0f → %.0f)" % cell(faults["fio"], faults["iogauge"])
        lines = [("total", cell([sum(x.values()) for x in got["fio"]],
                                [sum(x.values()) for x in got["iogauge"]]))]
        fjobs, gjobs = list(got["fio"][0]), list(got["iogauge"][0])
        if len(fjobs) > 1 and len(fjobs) == len(gjobs):
            for fj, gj in zip(fjobs, gjobs):  # matched by order; fio's name shown
                lines.append((fj if fj == gj else "%s/%s" % (fj, gj),
                              cell([x[fj] for x in got["fio"]], [x[gj] for x in got["iogauge"]])))
        elif len(fjobs) != len(gjobs):
            print("%s: fio reported %d jobs (%s), iogauge %d (%s): no per-job lines" %
                  (name, len(fjobs), ", ".join(fjobs), len(gjobs), ", ".join(gjobs)))
        for job, (med, lo, hi, fm, gm) in lines:
            ok = LOW <= med <= HIGH
            if not ok:
                outside.append("%s %s" % (name, job))
            if markdown:
                print("| %s | %s | %.3f [%.3f–%.3f] | %.0f | %.0f | %s | %s |" %
                      (name, job, med, lo, hi, fm, gm, "yes" if ok else "**no**",
                       minf if job == "total" else ""))
            else:
                print("%-26s %-20s %.3f%s [%.3f–%.3f] (%.0f → %.0f)%s" %
                      (name if job == "total" else "", job, med, " " if ok else "*", lo, hi, fm, gm,
                       "; minor faults " + minf if job == "total" else ""))
    print("\noutside [%.2f, %.2f]: %s" % (LOW, HIGH, ", ".join(outside) or "none"))


if __name__ == "__main__":
    main()
