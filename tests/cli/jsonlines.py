#!/usr/bin/env python3
# --status-interval with --output-format=json or json+: JSON lines, one
# report a line (the cumulative figures at that moment), the final report
# the last line, as a dashboard tailing the output reads them: each line
# parsed alone by Python's json module.  A 3 s null job paced at 100 I/Os
# of 4 KiB a second, reports every second, on standard output and (json+)
# into --output's file, both runs at once.  One line per failure, then
# "jsonlines: N passed, M failed".
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
# A name and a description with runs of spaces and a new line: the lines
# keep every string as it was.
NAME, DESC = "r  x", "two  spaces,\n  a new line"
JOB = ["--name=" + NAME, "--description=" + DESC, "--ioengine=null", "--size=1g", "--rw=read",
       "--bs=4k", "--rate_iops=100", "--time_based", "--runtime=3", "--status-interval=1"]


def run(d, args, out, key):
    p = subprocess.run([BIN] + JOB + args, cwd=d, capture_output=True, text=True, timeout=60)
    out[key] = (p.returncode, p.stdout, p.stderr)


def lines_of(what, text, plus):
    """Each line of @text parsed alone; checks the series."""
    lines = text.split("\n")
    check(lines[-1] == "", "%s: the last line ends in a new line" % what)
    docs = []
    for i, line in enumerate(lines[:-1]):
        try:
            docs.append(json.loads(line))
        except ValueError as e:
            check(False, "%s: line %d is not JSON (%s): %r" % (what, i + 1, e, line[:200]))
            return
    # Reports at 1 and 2 s (one due at 3 s may come as the run ends), then the final.
    if not check(len(docs) in (3, 4), "%s: %d lines" % (what, len(docs))):
        return
    check(all(d["jobs"][0]["jobname"] == NAME and d["jobs"][0]["job options"]["description"]
              == DESC for d in docs), "%s: the strings changed" % what)
    rd = [d["jobs"][0]["read"] for d in docs]
    b = [r["io_bytes"] for r in rd]
    rt = [r["runtime"] for r in rd]
    check(b[0] > 0 and all(x <= y for x, y in zip(b, b[1:])), "%s: io_bytes %r" % (what, b))
    check(all(x <= y for x, y in zip(rt, rt[1:])), "%s: runtimes %r" % (what, rt))
    # The last is the final report: the whole run, 300 I/Os in 3 s.
    last = rd[-1]
    check(2950 <= rt[-1] <= 3100 and 270 <= last["total_ios"] <= 301
          and last["io_bytes"] == last["total_ios"] * 4096 and docs[-1]["jobs"][0]["error"] == 0,
          "%s: the last line is not the final report: %d ms, %d I/Os, %d bytes" %
          (what, rt[-1], last["total_ios"], last["io_bytes"]))
    # Each one the figures at its moment: no more I/Os than 100 a second of
    # its runtime allow (fewer on a loaded machine, caught up by the end).
    check(all(0 < r["total_ios"] <= r["runtime"] / 10 + 2 for r in rd),
          "%s: I/Os against runtimes %r" % (what, [(r["total_ios"], r["runtime"]) for r in rd]))
    if plus:
        bins = [sum(r["clat_ns"].get("bins", {}).values()) for r in rd]
        check(bins == [r["total_ios"] for r in rd], "%s: clat bins %r" % (what, bins))


def main():
    tmp = tempfile.mkdtemp(prefix="iogauge-jsonlines-")
    try:
        out, ths = {}, []
        for key, args in (("stdout", ["--output-format=json"]),
                          ("file", ["--output-format=json+", "--output=o.jsonl"])):
            d = os.path.join(tmp, key)
            os.mkdir(d)
            ths.append(threading.Thread(target=run, args=(d, args, out, key)))
        for t in ths:
            t.start()
        for t in ths:
            t.join()
        rc, text, err = out["stdout"]
        if check(rc == 0, "json: exit %d %r" % (rc, err[-300:])):
            lines_of("json", text, False)
        rc, text, err = out["file"]
        if check(rc == 0 and text == "", "json+ --output: exit %d %r %r" % (rc, text[-200:],
                                                                          err[-300:])):
            with open(os.path.join(tmp, "file", "o.jsonl")) as f:
                lines_of("json+ --output", f.read(), True)
    finally:
        shutil.rmtree(tmp)
    finish("jsonlines")


if __name__ == "__main__":
    main()
