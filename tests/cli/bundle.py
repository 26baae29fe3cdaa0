#!/usr/bin/env python3
# --bundle PATH: the .tar.gz's members, each against its source (the job
# file and its include byte for byte, options.ini against --parse-only,
# report.json against the same run's --output json+, version.txt against
# --version, machine.txt against /proc, /sys and mountinfo); no data of the
# file under test in it; iogauge compare reads a bundle (with itself: every
# change +0.0%); bad paths exit 2 before anything runs.
import gzip
import html.parser
import io
import json
import os
import re
import sys
import tarfile
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from clitest import capture, check, finish  # noqa: E402

BIN = os.environ["IOGAUGE_BIN"]
MARKER = b"iogauge-bundle-test-data-not-to-be-copied"


def page_ok(text):
    """The page parses (html.parser) with no script and balanced tables."""
    class P(html.parser.HTMLParser):
        def __init__(self):
            super().__init__()
            self.tables = self.scripts = 0

        def handle_starttag(self, tag, attrs):
            self.tables += tag == "table"
            self.scripts += tag == "script"

        def handle_endtag(self, tag):
            self.tables -= tag == "table"
    p = P()
    p.feed(text)
    p.close()
    return text.lower().startswith("<!doctype html>") and p.tables == 0 and p.scripts == 0


def mount_of(path):
    """(fstype, mount options + super options) of the mount of @path's device."""
    st = os.stat(path)
    want = "%d:%d" % (os.major(st.st_dev), os.minor(st.st_dev))
    with open("/proc/self/mountinfo") as f:
        for line in f:
            pre, _, post = line.partition(" - ")
            a, b = pre.split(), post.split()
            if a[2] == want:
                return b[0], a[5] + "," + b[2]
    return None, None


def machine_checks(text, d):
    m = dict(re.findall(r"^(cpu|memory|kernel|folder): (.*)$", text, re.M))
    with open("/proc/cpuinfo") as f:
        model = re.search(r"^model name\s*: (.*)$", f.read(), re.M)
    with open("/proc/meminfo") as f:
        mem = re.search(r"^MemTotal:\s*(.*)$", f.read(), re.M).group(1)
    check(m.get("cpu") == (model.group(1) if model else "unknown"),
          "machine cpu %r, /proc/cpuinfo %r" % (m.get("cpu"), model and model.group(1)))
    check(m.get("memory") == mem, "machine memory %r, /proc/meminfo %r" % (m.get("memory"), mem))
    check(m.get("kernel", "").split()[1:2] == [os.uname().release],
          "machine kernel %r, uname %r" % (m.get("kernel"), os.uname().release))
    check(m.get("folder") == d, "machine folder %r, want %r" % (m.get("folder"), d))
    fstype, opts = mount_of(d)
    got = dict(re.findall(r"^  (filesystem|mount options|block device|scheduler): (.*)$", text,
                          re.M))
    check(got.get("filesystem") == fstype and got.get("mount options") == opts,
          "machine fs %r, mountinfo %r %r" % (got, fstype, opts))
    st = os.stat(d)
    sysdev = "/sys/dev/block/%d:%d" % (os.major(st.st_dev), os.minor(st.st_dev))
    if os.path.exists(sysdev):
        disk = os.path.realpath(sysdev)
        if os.path.exists(os.path.join(disk, "partition")):
            disk = os.path.dirname(disk)
        with open(os.path.join(disk, "queue", "scheduler")) as f:
            sched = f.read().strip()
        check(got.get("block device") == os.path.basename(disk) and
              got.get("scheduler") == sched,
              "machine device %r, /sys %s %r" % (got, disk, sched))
    else:
        check(got.get("block device", "").startswith("none"), "machine device %r" % got)


def main():
    with tempfile.TemporaryDirectory(prefix="iogauge-bundle-") as d:
        d = os.path.realpath(d)
        data = os.path.join(d, "data.bin")
        with open(data, "wb") as f:
            f.write((MARKER * (1 << 20 // len(MARKER) + 1))[:1 << 20] * 8)
        with open(os.path.join(d, "inc.fio"), "w") as f:
            f.write("bs=4k\nfilename=data.bin\nsize=8m\n")
        job = os.path.join(d, "job.fio")
        with open(job, "w") as f:
            f.write("[global]\ninclude inc.fio\n[reader]\nrw=read\nwrite_bw_log=rd\n"
                    "write_lat_log=rd\n[writer]\nstonewall\nrw=randwrite\n"
                    "filename=written.bin\nsize=4m\nunlink=1\n")
        bundle = os.path.join(d, "run.tar.gz")
        rc, out, err = capture([BIN, "--bundle=" + bundle, "--output-format=json+",
                                "--output=" + os.path.join(d, "run.json"), "job.fio"], cwd=d)
        if not check(rc == 0, "run with --bundle: %d %s" % (rc, err)):
            finish("bundle")
        raw = gzip.open(bundle).read()
        check(MARKER not in raw and len(raw) < 512 << 10,
              "the bundle holds the file under test's bytes (%d bytes)" % len(raw))
        with tarfile.open(fileobj=io.BytesIO(raw)) as t:
            members = {m.name: t.extractfile(m).read() for m in t.getmembers()}
        logs = sorted(f for f in os.listdir(d) if f.endswith(".log"))
        check(sorted(members) == sorted(["MANIFEST", "jobfiles/1-job.fio", "jobfiles/2-inc.fio",
                                         "options.ini", "report.json", "report.txt", "report.html",
                                         "machine.txt", "version.txt"] +
                                        ["logs/" + f for f in logs]) and len(logs) == 4,
              "members: %s, logs written %s" % (sorted(members), logs))
        for f in logs:
            with open(os.path.join(d, f), "rb") as fh:
                check(members.get("logs/" + f) == fh.read(), "logs/%s is not the log" % f)
        for name, src in (("jobfiles/1-job.fio", job),
                          ("jobfiles/2-inc.fio", os.path.join(d, "inc.fio"))):
            with open(src, "rb") as f:
                check(members.get(name) == f.read(), "%s is not %s as written" % (name, src))
        rc, parsed, _ = capture([BIN, "--parse-only", "job.fio"], cwd=d)
        check(rc == 0 and members.get("options.ini", b"").decode() == parsed,
              "options.ini is not --parse-only's")
        with open(os.path.join(d, "run.json")) as f:
            want = json.load(f)
        got = json.loads(members.get("report.json", b"{}"))
        check(got.get("jobs") == want["jobs"] and len(want["jobs"]) == 2 and
              want["jobs"][0]["read"]["total_ios"] == 2048,
              "report.json's jobs differ from --output's json+")
        page = members.get("report.html", b"").decode()
        check(page_ok(page) and "<table" in page and
              all(j["jobname"] in page for j in want["jobs"]) and
              "%d" % want["jobs"][0]["read"]["total_ios"] in page.replace(",", ""),
              "report.html: not an HTML page with both jobs' tables: %r" % page[:200])
        rc, version, _ = capture([BIN, "--version"])
        check(members.get("version.txt", b"").decode() == version, "version.txt")
        machine_checks(members.get("machine.txt", b"").decode(), d)
        check(b"no data from the files under test" in members.get("MANIFEST", b""), "MANIFEST")

        rc, out, err = capture([BIN, "compare", bundle, bundle])
        changes = re.findall(r"\s([+-]\d+\.\d)%\s", out)
        check(rc == 0 and changes and set(changes) == {"+0.0"} and
              "\nno difference: every figure of B is A's\n" in out,
              "compare of a bundle with itself: %d %r %s" % (rc, changes, err))
        rc, out, err = capture([BIN, "compare", bundle, os.path.join(d, "run.json")])
        check(rc == 0 and set(re.findall(r"\s([+-]\d+\.\d)%\s", out)) == {"+0.0"},
              "compare of a bundle with its run's JSON: %d %s" % (rc, err))

        # Bad paths: exit 2, nothing run (the writer's file is never made).
        bogus = os.path.join(d, "bogus.tar.gz")
        with gzip.open(bogus, "wb") as f:
            f.write(b"not a tar archive\n" * 100)
        for argv, want in (([BIN, "--bundle=" + d + "/missing/b.tar.gz", "job.fio"],
                            "--bundle %s/missing/b.tar.gz: cannot write in" % d),
                           ([BIN, "--bundle", d, "job.fio"], "a folder"),
                           ([BIN, "compare", bundle, bogus], "bogus.tar.gz"),
                           # Never over what it reads, nor over another output.
                           ([BIN, "--bundle=job.fio", "job.fio"],
                            "--bundle=job.fio is job.fio, a job file"),
                           ([BIN, "--bundle=inc.fio", "job.fio"], "a job file"),
                           ([BIN, "--bundle=o.txt", "--output=o.txt", "job.fio"],
                            "the same file as --output or --html"),
                           ([BIN, "--bundle=/dev/null", "job.fio"], "not a regular file"),
                           ([BIN, "--html=job.fio", "job.fio"],
                            "--html=job.fio is job.fio, a job file")):
            rc, out, err = capture(argv, cwd=d)
            check(rc == 2 and want in err and not os.path.exists(os.path.join(d, "written.bin")),
                  "%s: %d %r" % (argv[1:], rc, err))
        check(sorted(os.listdir(d)) == sorted(["bogus.tar.gz", "data.bin", "inc.fio", "job.fio",
                                               "run.json", "run.tar.gz"] + logs),
              "left behind: %s" % sorted(os.listdir(d)))
    finish("bundle")


main()
