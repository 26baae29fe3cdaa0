#!/usr/bin/env python3
# Options that change how a job's files, mappings and random map are set
# up, each against fio 3.33 on the same job: every alias fio has for an
# option iogauge builds (blocksize_unaligned among them), overwrite
# (strace of the layout, the file's bytes after), atomic (the open's
# flags), the cross-option conflicts of two jobs reported in one pass,
# softrandommap (a map too large for ulimit -v), and mmap's thp (mmap and
# madvise flags, the file's bytes, huge pages on a tmpfs of huge=advise).
# One line per failure, then "mapopts: N passed, M failed".
#
# Environment (set by CTest): IOGAUGE_BIN.  Skips (77) without fio or
# strace.  As root it mounts a small tmpfs of its own, and removes it.
import os
import re
import shutil
import subprocess
import sys
import tempfile

from clitest import check, finish

BIN = os.path.abspath(os.environ["IOGAUGE_BIN"])
FIO = shutil.which(os.environ.get("FIO", "fio"))
STRACE = shutil.which("strace")
TMP = None

# A value for each option fio 3.33 has an alias for (a name missing here
# is a failure: fio grew an alias this test does not know).
ALIAS_VALUES = {
    "ba": "8k", "blockalign": "8k", "bs": "8k", "blocksize": "8k",
    "bs_unaligned": "1", "blocksize_unaligned": "1",
    "bsrange": "4k-8k", "blocksize_range": "4k-8k",
    "disable_bw_measurement": "1", "disable_bw": "1",
    "fill_device": "1", "fill_fs": "1", "io_size": "512k", "io_limit": "512k",
    "iodepth_batch": "2", "iodepth_batch_submit": "2",
    "iodepth_batch_complete_min": "2", "iodepth_batch_complete": "2",
    "mem": "mmap", "iomem": "mmap", "iomem_align": "4096", "mem_align": "4096",
    "nrfiles": "2", "nr_files": "2", "offset": "4k", "fileoffset": "4k",
    "rate_cycle": "2000", "ratecycle": "2000", "rate_min": "1k", "ratemin": "1k",
    "runtime": "5", "timeout": "5", "rw": "randread", "readwrite": "randread",
    "steadystate": "iops:10%", "ss": "iops:10%",
    "steadystate_duration": "10", "ss_dur": "10",
    "steadystate_ramp_time": "1", "ss_ramp": "1",
    "stonewall": "1", "wait_for_previous": "1",
}


def run(argv, timeout=60):
    p = subprocess.run(argv, cwd=TMP, capture_output=True, text=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def fio_alias(name):
    """fio's (name, alias) of the option @name names, or None."""
    rc, out, _ = run([FIO, "--cmdhelp=" + name])
    m = re.search(r"^\s*(\S+): .*\n\s*alias: (\S+)$", out, re.M)
    return (m.group(1), m.group(2)) if rc == 0 and m else None


def aliases():
    """Every alias fio 3.33 gives an option iogauge builds is accepted and
    sets that option; fio's --parse-only takes the same job."""
    from concurrent.futures import ThreadPoolExecutor
    _, out, _ = run([FIO, "--cmdhelp=all"])
    names = set(re.findall(r"^\s*([A-Za-z0-9_.-]+)\s*:", out, re.M))
    _, out, _ = run([BIN, "--help-options"])
    ours = {}
    for line in out.splitlines():
        spelled = line.split()[0].split("|")
        for s in spelled:
            ours[s] = spelled[0]
    names |= set(ours)
    with ThreadPoolExecutor(16) as pool:
        found = set(r for r in pool.map(fio_alias, sorted(names)) if r)
    pairs = sorted((name, alias) for name, alias in found if name in ours or alias in ours)
    # The 21 of fio 3.33's options.c that iogauge builds (net's "proto"
    # and libhdfs's "chunck_size" belong to engines it does not).
    check(len(pairs) == 21, "aliases: fio gave %d of iogauge's options an alias: %r" %
          (len(pairs), pairs))
    jobs = []
    for name, alias in pairs:
        val = ALIAS_VALUES.get(alias)
        if not check(val is not None, "aliases: no value to try for %s (alias of %s)" %
                     (alias, name)):
            continue
        job = ["--name=a", "--filename=" + os.path.join(TMP, "alias.dat"), "--size=1m",
               "--iodepth=4", "--%s=%s" % (alias, val)]
        if alias in ("ss", "ss_dur", "ss_ramp"):
            job += ["--runtime=20", "--time_based"]
        jobs.append((alias, val, job))
    with ThreadPoolExecutor(8) as pool:
        fio_rcs = list(pool.map(lambda j: run([FIO, "--parse-only"] + j[2]), jobs))
    for (alias, val, job), (frc, _, ferr) in zip(jobs, fio_rcs):
        rc, out, err = run([BIN, "--parse-only"] + job)
        canon = ours.get(alias)
        row = [line for line in out.splitlines()
               if canon and line.startswith(canon + "=")]
        check(rc == 0 and row and "; default" not in row[0],
              "aliases: --%s=%s: exit %d, row %r, %s" % (alias, val, rc, row, err.strip()))
        check(frc == 0, "aliases: fio --parse-only --%s=%s: exit %d %s" %
              (alias, val, frc, ferr.strip()))
    print("aliases: %d checked: %s" % (len(pairs), " ".join("%s=%s" % p for p in pairs)))


def traced_env():
    """The environment of a run under strace: without LeakSanitizer, which
    cannot run under ptrace (ASan build)."""
    env = dict(os.environ)
    env["ASAN_OPTIONS"] = env.get("ASAN_OPTIONS", "") + ":detect_leaks=0"
    return env


def strace_run(argv, log):
    p = subprocess.run([STRACE, "-f", "-qq", "-e", "trace=openat,unlink,write,pwrite64",
                        "-e", "signal=none", "-o", log] + argv, cwd=TMP, capture_output=True,
                       text=True, timeout=60, env=traced_env())
    return p.returncode, p.stderr


def layout_bytes(log, path):
    """Opens of @path (flags) and the bytes written through every fd."""
    text = open(log).read()
    opens = re.findall(r'openat\(AT_FDCWD, "%s", ([A-Z_|]+)' % re.escape(path), text)
    n = sum(int(m) for m in re.findall(r"(?:pwrite64|write)\(\d+, .*?, (\d+)(?:, \d+)?\) = \d+",
                                         text))
    return opens, n


def old_sectors(data):
    """How many 512-byte sectors of @data are still all 0xab."""
    return sum(1 for i in range(0, len(data), 512) if data[i:i + 512] == b"\xab" * 512)


def overwrite():
    """A 256 KiB file of 0xab under a write job of 512k+1m: overwrite=1
    truncates it and lays it out whole in both tools; overwrite=0 writes
    no data before the job in either (the rest only fallocated), and keeps
    the file's bytes in iogauge (fio unlinks it: see DIFFERENCES FROM FIO)."""
    path = os.path.join(TMP, "ow.dat")
    log = os.path.join(TMP, "ow.strace")
    job = ["--name=w", "--filename=" + path, "--rw=write", "--bs=4k", "--size=1m",
           "--io_size=4k", "--offset=512k", "--output-format=terse"]
    got = {}
    for tool, binary in (("fio", FIO), ("iogauge", BIN)):
        for ov in ("0", "1"):
            with open(path, "wb") as f:
                f.write(b"\xab" * 262144)
            rc, err = strace_run([binary] + job + ["--overwrite=" + ov], log)
            opens, n = layout_bytes(log, path)
            with open(path, "rb") as f:
                head = f.read(262144)
            got[tool, ov] = (rc, os.path.getsize(path), old_sectors(head), opens, n)
            print("overwrite: %s overwrite=%s: exit %d, size %d, 0xab sectors left %d, "
                  "opens %s, bytes written %d" % ((tool, ov) + got[tool, ov]))
            check(rc == 0, "overwrite: %s overwrite=%s exit %d: %s" % (tool, ov, rc, err))
    for tool in ("fio", "iogauge"):
        rc, size, left, opens, n = got[tool, "1"]
        check(size == 1572864 and left == 0 and any("O_TRUNC" in o for o in opens) and
              n >= 1572864, "overwrite=1: %s: size %d, 0xab sectors left %d, opens %s, %d bytes "
              "written" % (tool, size, left, opens, n))
    rc, size, left, opens, n = got["iogauge", "0"]
    check(size == 1572864 and left == 512 and not any("O_TRUNC" in o for o in opens) and
          n < 65536, "overwrite=0: iogauge: size %d, 0xab sectors left %d, opens %s, "
          "%d bytes written" % (size, left, opens, n))
    rc, size, left, opens, n = got["fio", "0"]
    check(size == 1572864 and n < 65536, "overwrite=0: fio: size %d, %d bytes written" %
          (size, n))
    # Long enough already: neither tool lays anything out, overwrite or not.
    for tool, binary in (("fio", FIO), ("iogauge", BIN)):
        with open(path, "wb") as f:
            f.write(b"\xab" * 1572864)
        rc, err = strace_run([binary] + job + ["--overwrite=1"], log)
        opens, n = layout_bytes(log, path)
        with open(path, "rb") as f:
            left = old_sectors(f.read())
        check(rc == 0 and left == 3072 - 8 and not any("O_TRUNC" in o for o in opens),
              "overwrite=1, file long enough: %s: exit %d, 0xab sectors left %d, opens %s" %
              (tool, rc, left, opens))
    # A read job: fio lays a short file out whole whatever overwrite says;
    # iogauge with overwrite=1 (without it, it keeps the bytes: DIFFERENCES).
    rjob = ["--name=r", "--filename=" + path, "--rw=read", "--size=1m", "--io_size=4k",
            "--output-format=terse"]
    for tool, argv in (("fio", [FIO] + rjob), ("iogauge", [BIN] + rjob + ["--overwrite=1"]),
                       ("iogauge, overwrite=0", [BIN] + rjob)):
        with open(path, "wb") as f:
            f.write(b"\xab" * 262144)
        rc, err = strace_run(argv, log)
        opens, n = layout_bytes(log, path)
        with open(path, "rb") as f:
            left = old_sectors(f.read())
        print("overwrite: read job, %s: exit %d, 0xab sectors left %d, opens %s" %
              (tool, rc, left, opens))
        want = 512 if tool.endswith("=0") else 0
        check(rc == 0 and left == want and
              any("O_TRUNC" in o for o in opens) == (want == 0),
              "overwrite: read job, %s: exit %d, 0xab sectors left %d, opens %s" %
              (tool, rc, left, opens))
    rc, _, err = run([BIN, "--parse-only", "--name=w", "--filename=" + path, "--overwrite=2"])
    check(rc == 2 and "overwrite" in err, "overwrite=2: exit %d %r" % (rc, err))


def write_ios(out):
    import json
    try:
        return json.loads(out[out.index("{"):])["jobs"][0]["write"]["total_ios"]
    except (ValueError, KeyError, IndexError):
        return None


def atomic():
    """atomic=1 on Linux: fio 3.33 opens with O_DIRECT (and 0x800000, a
    flag the kernel ignores), over buffered=1; iogauge with O_DIRECT, and
    says so."""
    path = os.path.join(TMP, "at.dat")
    log = os.path.join(TMP, "at.strace")
    job = ["--name=a", "--filename=" + path, "--rw=randwrite", "--size=1m", "--io_size=16k",
           "--buffered=1", "--atomic=1", "--output-format=json"]
    seen = {}
    for tool, binary in (("fio", FIO), ("iogauge", BIN)):
        p = subprocess.run([STRACE, "-f", "-qq", "-e", "trace=openat", "-e", "signal=none",
                            "-o", log, binary] + job, cwd=TMP, capture_output=True,
                           text=True, timeout=60, env=traced_env())
        opens = re.findall(r'openat\(AT_FDCWD, "%s", ([A-Za-z0-9_|]+)' % re.escape(path),
                           open(log).read())
        seen[tool] = (p.returncode, opens, write_ios(p.stdout), p.stderr.strip())
        print("atomic: %s: exit %d, opens %s, writes %s" % ((tool,) + seen[tool][:3]))
        check(p.returncode == 0 and write_ios(p.stdout) == 4 and opens and
              "O_DIRECT" in opens[-1], "atomic: %s: %r" % (tool, seen[tool]))
    check("0x800000" in seen["fio"][1][-1] and "0x800000" not in seen["iogauge"][1][-1],
          "atomic: the flag only fio passes: %r" % ((seen["fio"][1], seen["iogauge"][1]),))
    check("O_ATOMIC" in seen["iogauge"][3], "atomic: no warning: %r" % seen["iogauge"][3])
    rc, out, err = run([BIN, "--parse-only", "--name=a", "--filename=" + path, "--size=1m",
                        "--atomic=1", "--direct=0"])
    check(rc == 0 and re.search(r"^direct=1 .*\(via atomic\)", out, re.M),
          "atomic: --parse-only: direct not set by atomic: %s" % err)
    rc, _, err = run([BIN, "--warnings-fatal", "--name=a",
                      "--filename=" + path, "--size=1m", "--atomic=1"])
    check(rc == 2 and "atomic" in err, "atomic: --warnings-fatal: exit %d %r" % (rc, err))


# Two jobs, five conflicts between their options, each one fio 3.33
# refuses too (alone, fio exits 1): line number -> the job's name, and the
# option the error names.
CONFLICTS_JOB = """[global]
filename={path}
size=1m
io_size=64k

[first]
rw=randwrite
rate=1m
rate_min=2m
zonesize=64k
bs=2m

[second]
rw=trim
verify=md5
rate_min=1k
rate_iops_min=1
"""
CONFLICTS = {9: ("first", "rate_min"), 10: ("first", "zonesize"), 11: ("first", "block size"),
             15: ("second", "verify"), 17: ("second", "rate_iops_min")}


def conflicts():
    """Every conflict of both jobs in one pass, in reading order, at its
    file:line; exit 2 and nothing created.  fio refuses each alone."""
    path = os.path.join(TMP, "conflicts.dat")
    jobfile = os.path.join(TMP, "conflicts.fio")
    text = CONFLICTS_JOB.format(path=path)
    with open(jobfile, "w") as f:
        f.write(text)
    for argv in ([BIN, "--parse-only", jobfile], [BIN, jobfile]):
        rc, out, err = run(argv)
        lines = [line for line in err.splitlines() if line.startswith("iogauge: ")]
        got = [int(m.group(1)) for m in
               (re.match(r"iogauge: %s:(\d+): \[(\w+)\] " % re.escape(jobfile), line)
                for line in lines) if m]
        check(rc == 2 and got == sorted(CONFLICTS) and len(lines) == len(CONFLICTS) and
              not os.path.exists(path),
              "conflicts: %s: exit %d, lines %r (want %r), file made %s: %s" %
              (argv[1], rc, got, sorted(CONFLICTS), os.path.exists(path), err))
        for line in lines:
            m = re.match(r"iogauge: [^:]*:(\d+): \[(\w+)\] ", line)
            want = CONFLICTS.get(int(m.group(1))) if m else None
            check(want and line.split("] ", 1)[0].endswith("[" + want[0]) and
                  want[1] in line, "conflicts: %r: not %r" % (line, want))
    print("conflicts: iogauge, one pass:\n  " + "\n  ".join(lines))
    # fio on the same file stops at its first refusal; each conflict
    # alone (the job without the other four lines) is refused by fio too.
    rc, _, err = run([FIO, "--output-format=terse", jobfile])
    print("conflicts: fio on the same file: exit %d: %s" % (rc, " / ".join(err.split("\n"))))
    check(rc == 1, "conflicts: fio took the job file: exit %d" % rc)
    rows = text.splitlines()
    for lineno, (job, name) in sorted(CONFLICTS.items()):
        keep = [r for i, r in enumerate(rows, 1) if i not in CONFLICTS or i == lineno or
                (lineno == 9 and i == 8)]
        # rate_min=2m conflicts with the rate=1m above it; rate_iops_min
        # with the rate_min above it.
        if lineno == 17:
            keep.insert(keep.index("rate_iops_min=1"), "rate_min=1k")
        alone = os.path.join(TMP, "alone.fio")
        with open(alone, "w") as f:
            f.write("\n".join(keep) + "\n")
        frc, _, ferr = run([FIO, "--output-format=terse", alone])
        irc, _, ierr = run([BIN, "--parse-only", alone])
        check(frc == 1 and irc == 2 and ierr.count("iogauge: ") == 1 and name in ierr,
              "conflicts: line %d alone: fio exit %d %r, iogauge exit %d %r" %
              (lineno, frc, ferr.strip(), irc, ierr.strip()))
        print("conflicts: line %d (%s) alone: fio exit %d: %s | iogauge exit %d" %
              (lineno, name, frc, ferr.strip().split("\n")[0], irc))
        if os.path.exists(path):
            os.unlink(path)


ASAN = None


def reads(out):
    import json
    try:
        r = json.loads(out[out.index("{"):])["jobs"][0]["read"]
        return r["total_ios"], r["io_bytes"]
    except (ValueError, KeyError, IndexError):
        return None


def softrandommap():
    """A random map too large for the memory allowed (1 GiB: a sparse 4 TiB
    file in units of 512 bytes, under ulimit -v of 900 MB; an ASan build,
    which cannot start under ulimit -v, gets its allocator's cap instead):
    fio and iogauge both go on without it with softrandommap=1; with 0
    fio does no I/O (and exits 0), iogauge exits 1 naming the map."""
    import resource
    path = os.path.join(TMP, "sparse.dat")
    with open(path, "wb") as f:
        f.truncate(4 << 40)

    def capped():
        resource.setrlimit(resource.RLIMIT_AS, (900 << 20, 900 << 20))

    def go(binary, extra):
        env = dict(os.environ)
        pre = capped
        if binary == BIN and ASAN:
            pre = None
            env["ASAN_OPTIONS"] = (env.get("ASAN_OPTIONS", "") +
                                   ":allocator_may_return_null=1:max_allocation_size_mb=512")
        p = subprocess.run([binary, "--name=r", "--filename=" + path, "--rw=randread",
                            "--size=4t", "--io_size=64k", "--output-format=json"] + extra,
                           cwd=TMP, capture_output=True, text=True, timeout=120,
                           preexec_fn=pre, env=env)
        # fio's notes go to stdout, before its JSON.
        return p.returncode, reads(p.stdout), (p.stderr + p.stdout[:p.stdout.find("{")]).strip()

    got = {}
    for tool, binary in (("fio", FIO), ("iogauge", BIN)):
        for sm in ("0", "1"):
            got[tool, sm] = go(binary, ["--bsrange=512-1k", "--softrandommap=" + sm])
            print("softrandommap: %s softrandommap=%s: exit %d, reads %s: %s" %
                  ((tool, sm) + got[tool, sm]))
    rc, r, err = got["fio", "0"]
    check(r == (0, 0) and "failed allocating random map" in err,
          "softrandommap=0: fio: %r" % (got["fio", "0"],))
    rc, r, err = got["fio", "1"]
    check(rc == 0 and r and r[0] > 0 and r[1] >= 65536 and "Running job without" in err,
          "softrandommap=1: fio: %r" % (got["fio", "1"],))
    rc, r, err = got["iogauge", "0"]
    check(rc == 1 and path in err and "1073741824 bytes" in err and
          "Cannot allocate memory" in err, "softrandommap=0: iogauge: %r" %
          (got["iogauge", "0"],))
    rc, r, err = got["iogauge", "1"]
    check(rc == 0 and r and r[0] > 0 and r[1] >= 65536,
          "softrandommap=1: iogauge: %r" % (got["iogauge", "1"],))
    # One block size: fio's map is the same 1 GiB, iogauge's order is
    # computed, not stored, so it runs with its map.
    for tool, binary in (("fio", FIO), ("iogauge", BIN)):
        rc, r, err = go(binary, ["--bs=512"])
        print("softrandommap: %s bs=512, no softrandommap: exit %d, reads %s" % (tool, rc, r))
        if tool == "iogauge":
            check(rc == 0 and r == (128, 65536), "bs=512: iogauge: %r" % ((rc, r, err),))
    os.unlink(path)


def shmem_huge_kib():
    with open("/proc/meminfo") as f:
        return int(re.search(r"^ShmemHugePages:\s+(\d+) kB", f.read(), re.M).group(1))


def thp_huge_pages():
    """The advice's effect: on a tmpfs of huge=advise (made here, as root),
    a read job's mapping of a sparse 8 MiB file is backed by huge pages
    with thp=1 only (/proc/meminfo's ShmemHugePages), in both tools."""
    mnt = os.path.join(TMP, "huge")
    os.mkdir(mnt)
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=32m,huge=advise", "iogauge-thp",
                       mnt], capture_output=True).returncode:
        print("thp: no tmpfs with huge=advise could be mounted (not root?): not measured")
        os.rmdir(mnt)
        return
    try:
        path = os.path.join(mnt, "h.dat")
        for thp in ("0", "1"):
            for tool, binary in (("fio", FIO), ("iogauge", BIN)):
                with open(path, "wb") as f:
                    f.truncate(8 << 20)
                before = shmem_huge_kib()
                rc, _, err = run([binary, "--name=m", "--ioengine=mmap", "--filename=" + path,
                                  "--rw=read", "--bs=64k", "--size=8m", "--thp=" + thp,
                                  "--output-format=terse"])
                grown = shmem_huge_kib() - before
                os.unlink(path)
                print("thp: %s thp=%s on tmpfs huge=advise: exit %d, ShmemHugePages +%d kB" %
                      (tool, thp, rc, grown))
                check(rc == 0 and (grown >= 8192 if thp == "1" else grown == 0),
                      "thp=%s: %s: exit %d, ShmemHugePages +%d kB: %s" %
                      (thp, tool, rc, grown, err))
    finally:
        subprocess.run(["umount", mnt])
        os.rmdir(mnt)


def thp():
    """ioengine=mmap's thp: fio 3.33 maps the file MAP_PRIVATE and advises
    MADV_HUGEPAGE, so a write job leaves the file as it was; iogauge the
    same (strace of both, the file's bytes after)."""
    path = os.path.join(TMP, "thp.dat")
    log = os.path.join(TMP, "thp.strace")
    for thp in ("0", "1"):
        seen = {}
        for tool, binary in (("fio", FIO), ("iogauge", BIN)):
            with open(path, "wb") as f:
                f.write(b"\xab" * (4 << 20))
            p = subprocess.run([STRACE, "-f", "-qq", "-e", "trace=mmap,madvise", "-e",
                                "signal=none", "-o", log, binary, "--name=m", "--ioengine=mmap",
                                "--filename=" + path, "--rw=write", "--bs=64k", "--size=4m",
                                "--thp=" + thp, "--output-format=terse"],
                               cwd=TMP, capture_output=True, text=True, timeout=60,
                               env=traced_env())
            text = open(log).read()
            maps = re.findall(r"mmap\(NULL, 4194304, [A-Z_|]+, (MAP_[A-Z]+),", text)
            advice = re.findall(r"madvise\(0x[0-9a-f]+, 4194304, (MADV_[A-Z]+)\)", text)
            with open(path, "rb") as f:
                left = old_sectors(f.read())
            seen[tool] = (p.returncode, sorted(set(maps)), sorted(set(advice)), left)
            print("thp: %s thp=%s: exit %d, mmap %s, madvise %s, 0xab sectors left %d" %
                  ((tool, thp) + seen[tool]))
        for tool in seen:
            rc, maps, advice, left = seen[tool]
            if thp == "1":
                ok = rc == 0 and maps == ["MAP_PRIVATE"] and "MADV_HUGEPAGE" in advice and \
                    left == 8192
            else:
                ok = rc == 0 and maps == ["MAP_SHARED"] and "MADV_HUGEPAGE" not in advice \
                    and left == 0
            check(ok, "thp=%s: %s: %r" % (thp, tool, seen[tool]))
    thp_huge_pages()
    # With verify: fio's read-back finds the file's old bytes (error 84,
    # EILSEQ); iogauge refuses the job when it is read.
    vpath = os.path.join(TMP, "thpv.dat")
    vjob = ["--name=v", "--ioengine=mmap", "--filename=" + vpath, "--rw=write", "--bs=4k",
            "--size=256k", "--verify=crc32c", "--thp=1"]
    frc, _, ferr = run([FIO, "--output-format=terse"] + vjob)
    os.unlink(vpath)
    rc, _, err = run([BIN] + vjob)
    print("thp: with verify=crc32c: fio exit %d (%s), iogauge exit %d" %
          (frc, ferr.strip().split("\n")[0], rc))
    check(frc == 1 and "bad magic header" in ferr, "thp with verify: fio %d %r" % (frc, ferr))
    check(rc == 2 and "thp" in err and not os.path.exists(vpath),
          "thp with verify: iogauge exit %d %r" % (rc, err))
    rc, _, err = run([BIN, "--parse-only", "--name=m", "--filename=" + path, "--size=4m",
                      "--thp=1"])
    check(rc == 2 and "thp" in err and "mmap" in err, "thp with psync: exit %d %r" % (rc, err))


def main():
    global TMP, ASAN
    if not FIO or not STRACE:
        print("mapopts: skipped (needs fio and strace)")
        sys.exit(77)
    TMP = tempfile.mkdtemp(prefix="iogauge-mapopts-")
    ASAN = "AddressSanitizer" in subprocess.run(
        [BIN, "--version"], env=dict(os.environ, ASAN_OPTIONS="help=1"),
        capture_output=True, text=True).stderr
    try:
        aliases()
        overwrite()
        atomic()
        conflicts()
        softrandommap()
        thp()
    finally:
        shutil.rmtree(TMP, ignore_errors=True)
    finish("mapopts")


if __name__ == "__main__":
    main()
