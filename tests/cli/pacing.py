#!/usr/bin/env python3
# Pacing options, each checked by its effect on a real file and against
# fio 3.33 on the same job file in the same run: number_ios (I/O counts).
# One line per failure, then "pacing: N passed, M failed".
#
# Environment (set by CTest): IOGAUGE_BIN.
import json
import os
import shutil
import subprocess
import sys
import tempfile

from clitest import check, finish

BIN = os.path.abspath(os.environ["IOGAUGE_BIN"])
FIO = shutil.which("fio")


def run(tool, job, tmp, args=()):
    """@tool on the job text @job (as tmp/job.fio): (exit status, stdout, stderr)."""
    path = os.path.join(tmp, "job.fio")
    with open(path, "w") as f:
        f.write(job)
    p = subprocess.run([tool] + list(args) + [path], cwd=tmp, capture_output=True, text=True,
                       timeout=120)
    return p.returncode, p.stdout, p.stderr


def jobs_json(tool, job, tmp):
    """The "jobs" of @tool's JSON report on @job, or None (a failure said)."""
    rc, out, err = run(tool, job, tmp, ["--output-format=json"])
    if not check(rc == 0, "%s: exit %d %s" % (os.path.basename(tool), rc, err[-300:])):
        return None
    return json.loads(out[out.index("{"):])["jobs"]


def ios(j):
    return (j["read"]["total_ios"], j["write"]["total_ios"])


def both(job, tmp):
    """[iogauge's jobs, fio's jobs] (fio's None without fio)."""
    return [jobs_json(BIN, job, tmp), jobs_json(FIO, job, tmp) if FIO else None]


def number_ios(tmp):
    base = "[n]\nfilename=%s/n.dat\nsize=1m\nbs=4k\n" % tmp
    cases = [
        ("rw=randrw\nioengine=libaio\niodepth=8\nnumber_ios=37\nloops=3\n", 111),
        ("rw=read\nnumber_ios=100\n", 100),
        ("rw=write\nnumber_ios=1000\n", 256),  # the region ends it first
        ("rw=rw\nnumber_ios=200\nloops=2\n", 400),
        ("rw=randwrite\nnumber_ios=50\ntime_based\nruntime=300ms\n", None),  # ignored
    ]
    for opts, want in cases:
        got = both(base + opts, tmp)
        if not got[0]:
            continue
        n = sum(ios(got[0][0]))
        if want is None:
            check(n > 256, "%r: %d I/Os: time_based should ignore number_ios" % (opts, n))
        else:
            check(n == want, "%r: %d I/Os, want %d" % (opts, n, want))
        if got[1] and want is not None:
            # The sum: how a mix splits over loops is rwmix's, not number_ios's.
            check(sum(ios(got[0][0])) == sum(ios(got[1][0])),
                  "%r: iogauge %s, fio %s" % (opts, ios(got[0][0]), ios(got[1][0])))
        print("number_ios %r: iogauge %s fio %s" % (opts.replace("\n", " "), ios(got[0][0]),
                                                   ios(got[1][0]) if got[1] else "-"))


def main():
    tmp = tempfile.mkdtemp(prefix="iogauge-pacing-")
    try:
        number_ios(tmp)
    finally:
        shutil.rmtree(tmp)
    finish("pacing")


main()
