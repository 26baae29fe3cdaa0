#!/usr/bin/env python3
# --idle-prof and --aux-path, each beside fio 3.33 on the same job (when fio
# is installed).
#  --idle-prof: calibrate prints the unit of work's time and runs nothing;
#  system and percpu add "CPU idleness" to the normal report and
#  cpu_idleness to the JSON, with the same lines and keys as fio's.  A
#  cpuio job at cpuload=100 on every CPU leaves them near 0% idle; a null
#  job at 2000 IOPS leaves them more idle than that (and, on a machine
#  nothing else loads, above 70%).  Bad values exit 2, nothing runs.
#  --aux-path: the verify state file (saved and loaded) and verify_dump's
#  files go to that folder and nowhere else: the current folder and the
#  aux folder listed before and after, for iogauge and for fio.
# One line per failure, then "idleprof: N passed, M failed".
#
# Environment (set by CTest): IOGAUGE_BIN.
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

from clitest import check, finish

BIN = os.environ.get("IOGAUGE_BIN", "iogauge")
FIO = shutil.which("fio")
TOOLS = [BIN] + ([FIO] if FIO else [])
NCPU = os.sysconf("SC_NPROCESSORS_CONF")


def name(tool):
    return "iogauge" if tool == BIN else "fio"


def run(tool, args, cwd=None):
    return subprocess.run([tool] + args, capture_output=True, text=True, cwd=cwd, timeout=120)


def json_of(out):
    """The JSON report in @out, which has the normal one too (fio prints
    the JSON first, iogauge after), or None."""
    m = re.search(r"^\{", out, re.M)
    try:
        return json.JSONDecoder().raw_decode(out[m.start():])[0] if m else None
    except ValueError:
        return None


UNIT = re.compile(r"^  unit work: mean=([0-9.]+)us, stddev=([0-9.]+)$", re.M)


def calibrate():
    means = {}
    for tool in TOOLS:
        p = run(tool, ["--idle-prof=calibrate"])
        if tool == BIN and p.returncode == 1 and "cannot pin" in p.stderr:
            # A configured CPU this process may not use (a cpuset).
            print("SKIP: %s" % p.stderr.strip())
            sys.exit(77)
        m = UNIT.search(p.stdout)
        ok = p.returncode == 0 and p.stdout.startswith("CPU idleness:\n") and m and \
            p.stdout.count("\n") == 2
        check(ok, "%s --idle-prof=calibrate: exit %d, %r %r" % (name(tool), p.returncode,
                                                                p.stdout, p.stderr[-300:]))
        means[tool] = float(m.group(1)) if m else 0.0
        print("%s --idle-prof=calibrate: %s" % (name(tool), p.stdout.strip().replace("\n", " ")))
    # The same unit of work: a page written a byte at a time (fio's reads
    # slower on a loaded machine: it times longer runs, see idleprof.c).
    if FIO and means[FIO] and means[BIN]:
        r = means[BIN] / means[FIO]
        check(0.1 < r < 2.5, "calibrate: iogauge's unit %.2fus, fio's %.2fus" %
              (means[BIN], means[FIO]))
    # calibrate runs nothing, even with a job that would write.
    with tempfile.TemporaryDirectory() as d:
        f = os.path.join(d, "never")
        p = run(BIN, ["--idle-prof=calibrate", "--name=w", "--filename=" + f, "--size=64k",
                      "--rw=write"])
        check(p.returncode == 0 and not os.path.exists(f),
              "calibrate with a job: exit %d, file made: %s" % (p.returncode, os.path.exists(f)))


def job_args(kind, d):
    if kind == "null":
        return ["--name=n", "--ioengine=null", "--size=64m", "--bs=4k", "--rate_iops=2000",
                "--runtime=1s", "--time_based", "--thread"]
    # One cpuio clone pinned to each CPU; threads, as fio's job processes
    # start sessions of their own, and the kernel's autogroup then gives
    # fio's idle threads a share of the CPUs its jobs keep busy.
    return ["--name=c", "--ioengine=cpuio", "--cpuload=100", "--numjobs=%d" % NCPU,
            "--cpus_allowed=0-%d" % (NCPU - 1), "--cpus_allowed_policy=split",
            "--runtime=1s", "--time_based", "--thread"]


TEXT = re.compile(r"\nCPU idleness:\n  system: ([0-9.]+)%\n  percpu: ([0-9.%, ]+)\n"
                  r"  unit work: mean=([0-9.]+)us, stddev=([0-9.]+)\n")


def profile(tool, kind, d):
    """(system %, [per CPU %]) from the text report and from the JSON, and
    whether they agree; None when the run failed."""
    p = run(tool, ["--idle-prof=percpu", "--output-format=normal,json",
                   "--output=" + os.path.join(d, "out")] + job_args(kind, d), d)
    with open(os.path.join(d, "out")) as f:
        out = f.read()
    m = TEXT.search(out)
    ci = (json_of(out) or {}).get("cpu_idleness")
    keys = ["system"] + ["cpu-%d" % i for i in range(NCPU)] + ["unit_mean", "unit_stddev"]
    ok = p.returncode == 0 and m and ci is not None and list(ci) == keys
    check(ok, "%s %s --idle-prof=percpu: exit %d, text %s, json %s, %s" %
          (name(tool), kind, p.returncode, bool(m), ci, p.stderr[-300:]))
    if not ok:
        return None
    percpu = [float(x.strip().rstrip("%")) for x in m.group(2).split(",")]
    system = float(m.group(1))
    # The text is the JSON's figures at 2 decimals; system their mean.
    same = abs(system - ci["system"]) < 0.006 and len(percpu) == NCPU and \
        all(abs(percpu[i] - ci["cpu-%d" % i]) < 0.006 for i in range(NCPU)) and \
        abs(ci["system"] - sum(ci["cpu-%d" % i] for i in range(NCPU)) / NCPU) < 0.01 and \
        abs(float(m.group(3)) - ci["unit_mean"]) < 0.006
    check(same, "%s %s: text %s, json %s" % (name(tool), kind, m.group(0), ci))
    print("%s %s: system %.2f%%, percpu %s, unit %.2fus" %
          (name(tool), kind, system, percpu, ci["unit_mean"]))
    return system


def cpu_idle_share(secs=0.5):
    """The share of the CPUs' time /proc/stat counts idle over @secs."""
    def snap():
        with open("/proc/stat") as f:
            v = [int(x) for x in f.readline().split()[1:]]
        return v[3] + v[4], sum(v)
    i0, t0 = snap()
    time.sleep(secs)
    i1, t1 = snap()
    return (i1 - i0) / max(1, t1 - t0)


def idleness():
    # Quiet: nothing else wants the CPUs, so a null job's idle threads get
    # them and its idleness is high.  On a loaded machine they get what
    # is left of their share: iogauge's null job still reads above its
    # cpuio job, fio's not always (its unit, timed under load, reads slow).
    share = cpu_idle_share()
    quiet = share > 0.85
    print("the CPUs %.0f%% idle before: %s" % (100 * share, "quiet, idleness checked against 70%"
                                               if quiet else "loaded, fewer checks"))
    with tempfile.TemporaryDirectory() as d:
        for tool in TOOLS:
            busy = profile(tool, "cpuio", d)
            idle = profile(tool, "null", d)
            if busy is None or idle is None:
                continue
            # fio's unit, timed under load, can read 4 times slow.
            bound = 20 if quiet or tool == BIN else 50
            check(busy < bound, "%s cpuio at cpuload=100 on each CPU: %.2f%% idle (< %d)" %
                  (name(tool), busy, bound))
            if quiet or tool == BIN:
                check(idle > busy + 1, "%s null at 2000 IOPS: %.2f%% idle, cpuio %.2f%%" %
                      (name(tool), idle, busy))
            if quiet:
                check(idle > 70, "%s null at 2000 IOPS on a quiet machine: %.2f%% idle" %
                      (name(tool), idle))
        # system alone: the system line, no percpu line or keys.
        for tool in TOOLS:
            p = run(tool, ["--idle-prof=system", "--output-format=normal,json"] +
                    job_args("null", d)[:-3] + ["--runtime=200ms", "--time_based"], d)
            lines = [x for x in p.stdout.split("\n") if x.startswith("  system:") or
                     x.startswith("  percpu:")]
            ci = (json_of(p.stdout) or {}).get("cpu_idleness")
            keys = list(ci) if ci else None
            check(p.returncode == 0 and len(lines) == 1 and lines[0].startswith("  system:") and
                  keys == ["system", "unit_mean", "unit_stddev"],
                  "%s --idle-prof=system: exit %d, lines %s, keys %s" %
                  (name(tool), p.returncode, lines, keys))
        # Without --idle-prof, neither says a word of it.
        p = run(BIN, ["--output-format=normal,json"] + job_args("null", d)[:-3] +
                ["--runtime=100ms", "--time_based"], d)
        check(p.returncode == 0 and "idle" not in p.stdout,
              "no --idle-prof: exit %d, idleness reported" % p.returncode)


def bad_values():
    with tempfile.TemporaryDirectory() as d:
        f = os.path.join(d, "never")
        notdir = os.path.join(d, "plain")
        open(notdir, "w").close()
        job = ["--name=w", "--filename=" + f, "--size=64k", "--rw=write"]
        for args, want in ((["--idle-prof=bogus"], "--idle-prof=bogus"),
                           (["--idle-prof=sytem"], "did you mean 'system'"),
                           (["--idle-prof="], "--idle-prof="),
                           (["--aux-path=" + os.path.join(d, "missing")],
                            "No such file or directory"),
                           (["--aux-path=" + notdir], "not a folder"),
                           (["--aux-path="], "--aux-path needs a folder")):
            p = run(BIN, args + job, d)
            check(p.returncode == 2 and want in p.stderr and not os.path.exists(f),
                  "%s: exit %d (want 2), %r, file made: %s" %
                  (args, p.returncode, p.stderr, os.path.exists(f)))
            print("%s: exit %d, %s" % (args, p.returncode, p.stderr.strip()))
        p = run(BIN, job + ["--idle-prof"], d)
        check(p.returncode == 2 and "--idle-prof needs a value" in p.stderr,
              "--idle-prof alone: exit %d, %r" % (p.returncode, p.stderr))
        if FIO:
            # fio refuses a bad mode too (exit 1, its status for bad input).
            p = run(FIO, ["--idle-prof=bogus"] + job, d)
            check(p.returncode != 0 and not os.path.exists(f),
                  "fio --idle-prof=bogus: exit %d" % p.returncode)


def listing(*dirs):
    return [sorted(os.listdir(x)) for x in dirs]


def aux_path():
    for tool in TOOLS:
        with tempfile.TemporaryDirectory() as top:
            cwd, aux, data = (os.path.join(top, x) for x in ("cwd", "aux", "data"))
            for x in (cwd, aux, data):
                os.mkdir(x)
            path = os.path.join(data, "data.bin")
            job = ["--name=w", "--filename=" + path, "--size=256k", "--bs=4k", "--rw=write",
                   "--verify=crc32c", "--output=/dev/null"]
            before = listing(cwd, aux)
            p = run(tool, job + ["--aux-path=" + aux, "--verify_state_save=1", "--do_verify=0"],
                    cwd)
            after = listing(cwd, aux)
            check(p.returncode == 0 and before == [[], []] and
                  after == [[], ["local-w-0-verify.state"]],
                  "%s --aux-path verify_state_save: exit %d, cwd and aux %s, %s" %
                  (name(tool), p.returncode, after, p.stderr[-300:]))
            print("%s verify_state_save: cwd %s, aux %s" % (name(tool), after[0], after[1]))
            # The state is read from the aux folder: not found without it.
            load = job + ["--verify_only=1", "--verify_state_load=1"]
            p1 = run(tool, load + ["--aux-path=" + aux], cwd)
            p2 = run(tool, load, cwd)
            check(p1.returncode == 0 and p2.returncode != 0 and "local-w-0-verify.state" in
                  p2.stderr and listing(cwd, aux) == after,
                  "%s verify_state_load: with --aux-path exit %d %s; without exit %d %s" %
                  (name(tool), p1.returncode, p1.stderr[-200:], p2.returncode, p2.stderr[-200:]))
            print("%s verify_state_load: with --aux-path exit %d, without exit %d" %
                  (name(tool), p1.returncode, p2.returncode))
            # verify_dump: a flipped byte's chunk, dumped in the aux folder.
            with open(path, "r+b") as f:
                f.seek(8192 + 100)
                c = f.read(1)
                f.seek(8192 + 100)
                f.write(bytes([c[0] ^ 0x40]))
            os.unlink(os.path.join(aux, "local-w-0-verify.state"))
            # fio's verify_state_save is 1 (iogauge's 0): a failed job
            # would leave its state there too.
            p = run(tool, job + ["--aux-path=" + aux, "--verify_only=1", "--verify_dump=1",
                                 "--verify_state_save=0"], cwd)
            after = listing(cwd, aux)
            want = [[], ["data.bin.8192.expected", "data.bin.8192.received"]]
            check(p.returncode != 0 and after == want,
                  "%s --aux-path verify_dump: exit %d, cwd and aux %s (want %s), %s" %
                  (name(tool), p.returncode, after, want, p.stderr[-300:]))
            print("%s verify_dump: exit %d, cwd %s, aux %s" %
                  (name(tool), p.returncode, after[0], after[1]))
            # A trigger: every job's state (verify or not, fio's
            # IO_LIST_ALL) in the aux folder; the write job's loads after.
            for x in os.listdir(aux):
                os.unlink(os.path.join(aux, x))
            out = os.path.join(top, "out.json")
            w = ["--name=w", "--filename=" + path, "--size=4m", "--bs=4k", "--rw=write",
                 "--verify=crc32c"]
            p = run(tool, w + ["--rate=400k", "--runtime=5", "--time_based", "--name=r",
                               "--filename=" + os.path.join(data, "r.bin"), "--size=1m",
                               "--rw=read", "--rate=400k", "--runtime=5", "--time_based",
                               "--trigger-timeout=1", "--aux-path=" + aux,
                               "--output-format=json", "--output=" + out], cwd)
            after = listing(cwd, aux)
            with open(out) as f:
                j = json_of(f.read())
            wrote = j["jobs"][0]["write"]["total_ios"] if j else -1
            check(p.returncode == 0 and after == [[], ["local-r-1-verify.state",
                                                       "local-w-0-verify.state"]],
                  "%s --trigger-timeout --aux-path: exit %d, cwd and aux %s, %s" %
                  (name(tool), p.returncode, after, p.stderr[-300:]))
            p = run(tool, w + ["--verify_only=1", "--verify_state_load=1", "--aux-path=" + aux,
                               "--output-format=json", "--output=" + out], cwd)
            with open(out) as f:
                j = json_of(f.read())
            back = j["jobs"][0]["read"]["total_ios"] if j else -1
            # fio counts the writes completed when it saved, iogauge the
            # writes issued when the clone ended: a few apart.
            check(p.returncode == 0 and 0 < back <= wrote and back > wrote * 0.7,
                  "%s trigger's state loaded: exit %d, %d written, %d read back, %s" %
                  (name(tool), p.returncode, wrote, back, p.stderr[-300:]))
            print("%s --trigger-timeout=1: cwd %s, aux %s; %d written, %d read back" %
                  (name(tool), after[0], after[1], wrote, back))


calibrate()
bad_values()
aux_path()
idleness()
finish("idleprof")
