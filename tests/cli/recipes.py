#!/usr/bin/env python3
# The recipe catalogue: every file in jobs/ opens with the header's fields
# (name, summary, measures, expect, runtime, writes), `iogauge recipes`
# lists them all, and every recipe runs by name with --set runtime=1
# --set size=16m in a scratch folder (all at once), leaving nothing there;
# fio 3.33 takes every recipe (--parse-only); the default job's O_DIRECT
# (and its fallback on ramfs, as root), its folder under --set directory=,
# --set filename=, Ctrl-C, bad input.
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from clitest import capture, check, concurrently, finish  # noqa: E402

BIN = os.environ["IOGAUGE_BIN"]
SRC = os.environ["IOGAUGE_SRC"]
JOBS = os.path.join(SRC, "jobs")
FIELDS = ["name", "summary", "measures", "expect", "runtime", "writes"]


def header(text):
    """The header's fields in order (key, text), as recipe/catalogue.c
    reads them: "; key: text", carried on by ";   text"."""
    out = []
    for line in text.split("\n"):
        m = re.match(r"; ([a-z]+): (\S.*)$", line)
        if m:
            out.append([m.group(1), m.group(2)])
        elif out and re.match(r";   \S", line):
            out[-1][1] += " " + line[4:]
        else:
            break
    return out


def header_ok(text, name):
    """None when the header has every field in order and the right name,
    else what is wrong."""
    h = header(text)
    keys = [k for k, _ in h]
    if keys[:6] != FIELDS or keys[6:] not in ([], ["fallback"], ["command"],
                                              ["fallback", "command"]):
        return "fields %s, want %s" % (keys, FIELDS)
    if h[0][1] != name:
        return "name: %s, want %s" % (h[0][1], name)
    return None


def recipe_names():
    names = []
    for d, _, files in os.walk(JOBS):
        for f in files:
            if f.endswith(".ini"):
                names.append(os.path.relpath(os.path.join(d, f), JOBS)[:-4])
    return sorted(names)


def headers(names):
    # The checker fails on a header without its fields (it can fail).
    check(header_ok("; name: x\n; summary: s\n; measures: m\n[x]\n", "x"),
          "the header check passes a header without expect, runtime, writes")
    summaries = {}
    for n in names:
        with open(os.path.join(JOBS, n + ".ini")) as f:
            text = f.read()
        why = header_ok(text, n)
        check(why is None, "jobs/%s.ini: %s" % (n, why))
        summaries[n] = dict(header(text)).get("summary")
    rc, out, err = capture([BIN, "recipes"])
    rows = dict(re.findall(r"^  (\S+)\s+(.*)$", out, re.M))
    check(rc == 0 and not err and rows == summaries,
          "iogauge recipes: %d %r %s, want %r" % (rc, rows, err, summaries))
    rc, out, _ = capture([BIN, "recipes", "--names"])
    check(rc == 0 and out.split() == names, "recipes --names: %r" % out)
    # iogauge recipes on a folder with a recipe without its fields: exit 2, named.
    with tempfile.TemporaryDirectory(prefix="iogauge-recipes-") as d:
        with open(os.path.join(d, "good.ini"), "w") as f:
            f.write("; name: good\n; summary: s\n; measures: m\n; expect: e\n"
                    "; runtime: 1 s\n; writes: nothing\n[g]\nioengine=null\nsize=1m\n")
        with open(os.path.join(d, "bad.ini"), "w") as f:
            f.write("; name: bad\n; summary: s\n; measures: m\n; runtime: 1 s\n[b]\n")
        rc, out, err = capture([BIN, "recipes"], env=dict(os.environ, IOGAUGE_RECIPES=d))
        check(rc == 2 and "bad.ini:4: 'runtime:' where 'expect:' belongs" in err and
              "good" in out and "  bad" not in out,
              "a recipe without expect: %d %r %r" % (rc, out, err))


def fio_accepts(names):
    """A recipe is a fio job file too: fio 3.33 takes every one."""
    if not shutil.which("fio"):
        print("recipes: no fio, not checked against it")
        return
    for n in names:
        if is_crash(n):
            continue  # its crash options (rounds=, ack_buffer=, ...) are iogauge's
        rc, out, err = capture(["fio", "--parse-only", os.path.join(JOBS, n + ".ini")])
        check(rc == 0, "fio --parse-only jobs/%s.ini: %d %s" % (n, rc, err[-300:]))


def is_crash(name):
    with open(os.path.join(JOBS, name + ".ini")) as f:
        return dict(header(f.read())).get("command") == "crash"


def run_one(name, scratch):
    """Runs recipe @name in its own folder under @scratch: (name, status,
    stdout, stderr, what the folder holds after)."""
    cwd = os.path.join(scratch, name.replace("/", "_"))
    os.mkdir(cwd)
    # iogauge crash's recipes: one kill per job, 300 ms each.
    short = (["--set", "rounds=1", "--set", "runtime=300ms", "--set", "size=1m",
              "--output-format=json"] if is_crash(name) else
             ["--set", "runtime=1", "--set", "size=16m", "--output-format=json", "--eta=never"])
    p = subprocess.run([BIN, "recipe", name] + short,
                       cwd=cwd, capture_output=True, text=True, timeout=120)
    return name, p.returncode, p.stdout, p.stderr, os.listdir(cwd)


def every_recipe(names, scratch):
    t0 = time.monotonic()
    results = concurrently(lambda n: run_one(n, scratch), names, workers=len(names))
    print("recipes: %d recipes run in %.1f s" % (len(names), time.monotonic() - t0))
    for name, rc, out, err, left in results:
        if not check(rc == 0, "recipe %s: exit %d: %s" % (name, rc, err[-500:])):
            continue
        doc = json.loads(out)  # the summary is not in it: on stderr
        summary = err.strip().split("\n")[-1]
        if is_crash(name):
            with open(os.path.join(JOBS, name + ".ini")) as f:
                want = len(re.findall(r"^\[(?!global\])", f.read(), re.M))
            # Each job killed once, its acknowledged writes checked (a
            # writer killed before its first one, 150 ms in beside 26 other
            # recipes, is a round too).
            check(len(doc["jobs"]) == want > 0 and
                  all(len(j["rounds"]) == 1 for j in doc["jobs"]) and
                  sum(j["rounds"][0]["acked"] for j in doc["jobs"]) > 0,
                  "recipe %s: %d jobs (want %d), each a round with writes acknowledged: %s"
                  % (name, len(doc["jobs"]), want, out[:300]))
        else:
            rc2, parsed, _ = capture([BIN, "--parse-only", os.path.join(JOBS, name + ".ini")])
            want = len(re.findall(r"^\[", parsed, re.M))
            check(len(doc["jobs"]) >= want > 0 and
                  all(j["read"]["total_ios"] + j["write"]["total_ios"] > 0
                      for j in doc["jobs"]),
                  "recipe %s: %d jobs (want %d), each with I/O" % (name, len(doc["jobs"]), want))
            check(summary.startswith("Summary: ") and summary.count("\n") == 0,
                  "recipe %s: no one-line summary on stderr after the report: %r"
                  % (name, summary))
        check(left == [], "recipe %s: left %s in the folder it ran in" % (name, left))
        m = re.search(r"its files go in (\S+) \((\w+)\)", err)
        check(m and not os.path.exists(os.path.join(scratch, name.replace("/", "_"), m.group(1))),
              "recipe %s: its folder: %r" % (name, err[:300]))


def default_job(scratch):
    """The default job: O_DIRECT here, its summary against its JSON."""
    d = os.path.join(scratch, "default-direct")
    os.mkdir(d)
    rc, out, err = capture([BIN, "recipe", "default", "--set", "runtime=1", "--set", "size=16m",
                            "--output-format=json+"], cwd=d)
    if not check(rc == 0, "default: exit %d %s" % (rc, err)):
        return
    doc = json.loads(out)
    summary = err.strip().split("\n")[-1]
    jobs = {j["jobname"]: j for j in doc["jobs"]}
    check("direct I/O (O_DIRECT)" in err and "Direct I/O (O_DIRECT)" in summary,
          "default on ext4: not direct: %r %r" % (err, summary))
    m = re.search(r"randread-4k reads (\d+)/s \(([\d.]+) MiB/s.*?latency ([\d.]+) (us|ms) "
                  r"average, 99% within ([\d.]+) (us|ms)", summary)
    r = jobs["randread-4k"]["read"]
    if check(m, "default: summary %r" % summary):
        check(abs(float(m.group(1)) - r["iops"]) <= 0.02 * r["iops"] + 1,
              "summary IOPS %s, JSON %s" % (m.group(1), r["iops"]))
        ns = float(m.group(3)) * (1e3 if m.group(4) == "us" else 1e6)
        check(abs(ns - r["lat_ns"]["mean"]) <= 0.01 * r["lat_ns"]["mean"] + 100,
              "summary latency %s %s, JSON lat mean %s ns" % (m.group(3), m.group(4),
                                                              r["lat_ns"]["mean"]))
    check(os.listdir(d) == [], "default left %s" % os.listdir(d))

    # --set directory=: its folder is made there; --set filename=: none is.
    base = os.path.join(scratch, "under")
    os.mkdir(base)
    rc, out, err = capture([BIN, "recipe", "default", "--set", "runtime=1", "--set", "size=16m",
                            "--set", "directory=" + base], cwd=d)
    check(rc == 0 and ("its files go in %s/iogauge-recipe-" % base) in err and
          os.listdir(base) == [] and os.listdir(d) == [],
          "--set directory=: %d %r %s" % (rc, err, os.listdir(base)))
    # The command-line default --directory= counts as --set directory=.
    rc, out, err = capture([BIN, "recipe", "log-writer", "--set", "runtime=1", "--set",
                            "size=4m", "--directory=" + base], cwd=d)
    check(rc == 0 and ("its files go in %s/iogauge-recipe-" % base) in err and
          re.search(r"log-writer syncs \d+/s, latency", out) and os.listdir(base) == [] and
          os.listdir(d) == [], "--directory=: %d %r %r" % (rc, err, out[-300:]))
    target = os.path.join(scratch, "named.dat")
    rc, out, err = capture([BIN, "recipe", "default", "--set", "runtime=1", "--set", "size=16m",
                            "--set", "filename=" + target, "--output-format=json"], cwd=d)
    doc = json.loads(out) if rc == 0 else {"jobs": []}
    check(rc == 0 and "its files go in" not in err and len(doc["jobs"]) == 2 and
          os.listdir(d) == [], "--set filename=: %d %r" % (rc, err))
    # A relative filename= with directory=: the file is there, not in the
    # current folder (directory= was dropped once: the review's finding).
    rc, out, err = capture([BIN, "recipe", "log-writer", "--set", "runtime=1", "--set", "size=1m",
                            "--set", "directory=" + base, "--set", "filename=mine.dat",
                            "--set", "unlink=0"], cwd=d)
    check(rc == 0 and os.listdir(base) == ["mine.dat"] and os.listdir(d) == [],
          "filename= with directory=: %d, %s holds %s, the current folder %s: %r"
          % (rc, base, os.listdir(base), os.listdir(d), err))
    if os.path.exists(os.path.join(base, "mine.dat")):
        os.unlink(os.path.join(base, "mine.dat"))
    # Nothing is made for a run that runs nothing.
    rc, out, err = capture([BIN, "recipe", "default", "--parse-only"], cwd=d)
    check(rc == 0 and "directory=" not in out.split("[seqwrite")[0].replace(
        "; directory", "") and os.listdir(d) == [], "--parse-only: %d %s" % (rc, err))


def ramfs_fallback(scratch):
    """ramfs refuses O_DIRECT: the default job runs buffered and says so."""
    if os.geteuid() != 0:
        print("recipes: not root, ramfs fallback not checked")
        return
    mnt = os.path.join(scratch, "ramfs")
    os.mkdir(mnt)
    if subprocess.run(["mount", "-t", "ramfs", "iogauge-recipes", mnt]).returncode:
        print("recipes: ramfs cannot be mounted here, fallback not checked")
        return
    try:
        rc, out, err = capture([BIN, "recipe", "default", "--set", "runtime=1", "--set",
                                "size=16m", "--set", "directory=" + mnt])
        check(rc == 0 and "ramfs refuses O_DIRECT, so this runs buffered" in err and
              "Buffered I/O: the page cache" in out and os.listdir(mnt) == [],
              "default on ramfs: %d %r %r" % (rc, err, out[-300:]))
        rc, out, err = capture([BIN, "recipe", "seqread-64k", "--set", "runtime=1", "--set",
                                "size=16m", "--set", "directory=" + mnt])
        check(rc != 0 and "ramfs refuses O_DIRECT: a job with direct=1 fails" in err and
              os.listdir(mnt) == [], "seqread-64k on ramfs: %d %r" % (rc, err))
    finally:
        subprocess.run(["umount", mnt])


def interrupted(scratch):
    """Ctrl-C: the run stops within half a second, reports, and the folder goes."""
    d = os.path.join(scratch, "sigint")
    os.mkdir(d)
    p = subprocess.Popen([BIN, "recipe", "default", "--set", "size=16m", "--eta=never"],
                         cwd=d, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    end = time.monotonic() + 30
    while time.monotonic() < end and p.poll() is None:
        tmp = [x for x in os.listdir(d) if x.startswith("iogauge-recipe-")]
        if tmp and os.path.exists(os.path.join(d, tmp[0], "iogauge.default.dat")):
            break
        time.sleep(0.02)
    time.sleep(0.3)
    t0 = time.monotonic()
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=30)
    took = time.monotonic() - t0
    print("recipes: Ctrl-C: exit %d after %.2f s" % (p.returncode, took))
    # 1 s, not the 0.5 s signals.py holds runs to: the report comes first,
    # and an ASan build on a shared machine is slow to make it.
    check(p.returncode == 130 and took < 1.0 and "Summary: " in out and os.listdir(d) == [],
          "SIGINT: exit %d after %.2f s, left %s: %s" % (p.returncode, took, os.listdir(d),
                                                       err[-300:]))


def bad_input(scratch):
    d = os.path.join(scratch, "bad")
    os.mkdir(d)
    for argv, status, want in [
            (["recipe"], 2, "usage: iogauge recipe NAME"),
            (["recipe", "nope"], 2, "no recipe 'nope' in "),
            (["recipe", "../README"], 2, "no recipe '../README'"),
            (["recipe", "default", "--set", "directory=" + d + "/missing"], 2,
             d + "/missing: cannot make a folder there (No such file or directory) "
             "(--set directory=)"),
            (["recipe", "default", "--set", "bogus=1"], 2, "--set bogus=1: unknown option"),
            (["recipes", "--bogus"], 2, "unknown argument '--bogus'")]:
        rc, out, err = capture([BIN] + argv, cwd=d)
        check(rc == status and want in err and os.listdir(d) == [],
              "%s: exit %d, %r, left %s" % (argv, rc, err, os.listdir(d)))


def main():
    names = recipe_names()
    check(len(names) >= 25, "only %d recipes in jobs/" % len(names))
    headers(names)
    scratch = tempfile.mkdtemp(prefix="iogauge-recipes-", dir=os.environ.get("TMPDIR", "/tmp"))
    try:
        # The recipes (the SQLIO sweeps' 7 steps of 1 s set the pace) and
        # the other checks at once: they time nothing; then Ctrl-C, alone.
        concurrently(lambda f: f(), [lambda: every_recipe(names, scratch),
                                     lambda: (default_job(scratch), ramfs_fallback(scratch)),
                                     lambda: (bad_input(scratch), fio_accepts(names))],
                     workers=3)
        interrupted(scratch)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    finish("recipes")


main()
