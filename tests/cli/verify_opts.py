#!/usr/bin/env python3
# verify_interval, verify_offset, verify_only, verify_dump and
# verify_backlog_batch on real files, each beside fio 3.33 doing the same
# job on a file of its own (when fio is installed; the two write different
# headers, so each checks its own): the headers where the options put them
# (the file's bytes), a flipped byte found by a verify_only run and dumped
# into files named as fio names them, and the order of writes and reads
# with verify_backlog_batch (strace, when installed).
# One line per failure, then "verify_opts: N passed, M failed".
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
STRACE = shutil.which("strace")
TOOLS = [BIN] + ([FIO] if FIO else [])
MAGIC = {BIN: b"OIGV", FIO: b"\xca\xac"}  # iogauge's header, fio's


def name(tool):
    return "iogauge" if tool == BIN else "fio"


def run(tool, args, cwd):
    """(exit, the first job's JSON or None, stderr); a run over 60 s is
    killed and fails (exit -9), naming the tool and its arguments."""
    try:
        p = subprocess.run([tool, "--output-format=json"] + args, capture_output=True,
                           text=True, cwd=cwd, timeout=60)
    except subprocess.TimeoutExpired:
        return -9, None, "%s %s: still running after 60 s, killed" % (name(tool), " ".join(args))
    out = p.stdout[p.stdout.find("{"):] if "{" in p.stdout else ""
    j = json.loads(out)["jobs"][0] if out else None
    return p.returncode, j, p.stderr


def flip(path, at):
    with open(path, "r+b") as f:
        f.seek(at)
        c = f.read(1)
        f.seek(at)
        f.write(bytes([c[0] ^ 0x40]))


def headers(tmp):
    # Every 512 bytes a header, at verify_offset into each 512, in both.
    for voff in (0, 64):
        for tool in TOOLS:
            path = os.path.join(tmp, "%s.hdr%d" % (name(tool), voff))
            rc, j, err = run(tool, ["--name=w", "--filename=" + path, "--size=64k", "--rw=write",
                                    "--bs=4k", "--verify=md5", "--verify_interval=512"] +
                             # fio takes no verify_offset below its header's size
                             (["--verify_offset=%d" % voff] if voff else []), tmp)
            with open(path, "rb") as f:
                d = f.read()
            m = MAGIC[tool]
            # fio's magic is 2 bytes: random data holds it now and then.
            want = [k * 512 + voff for k in range(128)]
            at = [i for i in range(0, len(d) - len(m)) if d[i:i + len(m)] == m and
                  (i in want or len(m) == 4)]
            check(rc == 0 and j and j["read"]["total_ios"] == 16 and at == want,
                  "%s verify_interval=512 verify_offset=%d: exit %d, headers at %s (want "
                  "every 512 from %d), %s" % (name(tool), voff, rc, at[:6], voff, err[-300:]))
            print("%s verify_interval=512 verify_offset=%d: %d headers, the first at %s, "
                  "%d blocks read back" % (name(tool), voff, len(at), at[:3],
                                           j["read"]["total_ios"] if j else -1))


def only_and_dump(tmp):
    # Written with do_verify=0, a byte flipped, then verify_only with
    # verify_dump: no write is issued; the chunk with the byte is found
    # and dumped as NAME.OFFSET.received and NAME.OFFSET.expected.
    for interval, chunk_at, size in (([], 8192, 4096), (["--verify_interval=512"], 8704, 512)):
        reads = {}
        for tool in TOOLS:
            d = tempfile.mkdtemp(dir=tmp)
            path = os.path.join(d, "%s.dat" % name(tool))
            job = ["--name=w", "--filename=" + path, "--size=64k", "--rw=write", "--bs=4k",
                   "--verify=crc32c"] + interval
            run(tool, job + ["--do_verify=0"], d)
            flip(path, 8192 + 1000)
            before = os.stat(path).st_mtime_ns
            rc, j, err = run(tool, job + ["--verify_only=1", "--verify_dump=1"], d)
            base = os.path.join(d, "%s.dat.%d." % (name(tool), chunk_at))
            got = [f for f in sorted(os.listdir(d)) if ".dat." in f]
            want = ["%s.dat.%d.expected" % (name(tool), chunk_at),
                    "%s.dat.%d.received" % (name(tool), chunk_at)]
            # fio 3.33 misses a bad chunk that is not a block's last
            # (verify_io_u keeps only the last chunk's result): exit 0.
            ok = (rc == 1 or (tool == FIO and interval)) and j and got == want and \
                os.stat(path).st_mtime_ns == before
            if ok:
                with open(base + "received", "rb") as f:
                    recv = f.read()
                with open(base + "expected", "rb") as f:
                    exp = f.read()
                with open(path, "rb") as f:
                    f.seek(chunk_at)
                    disk = f.read(size)
                diff = [i for i in range(min(len(recv), len(exp))) if recv[i] != exp[i]]
                ok = len(recv) == len(exp) == size and recv == disk
                # iogauge makes the expected chunk again byte for byte; fio
                # stamps a new time into its header.
                if tool == BIN:
                    ok = ok and diff == [8192 + 1000 - chunk_at]
            check(ok, "%s verify_only verify_dump %s: exit %d, files %s, written %s, %s"
                  % (name(tool), interval, rc, got, os.stat(path).st_mtime_ns != before,
                     err[-300:]))
            reads[tool] = j["read"]["total_ios"] if j else -1
            print("%s verify_only %s: exit %d, %s writes counted, %s reads, dumped %s"
                  % (name(tool), " ".join(interval) or "(block)", rc,
                     j["write"]["total_ios"] if j else -1, j["read"]["total_ios"] if j else -1,
                     got))
        # The job ends at the block that fails (the third), as fio's.
        check(reads[BIN] == 3 and (not FIO or interval or reads[FIO] == 3),
              "verify_only %s: reads before the stop %s" % (interval, reads))


def xxhash(tmp):
    # verify=xxhash, crc7, the SHAs: written and read back clean; a flipped
    # byte found.
    for kind in ("xxhash", "crc7", "sha1", "sha256", "sha512", "sha3-224", "sha3-512"):
        for tool in TOOLS:
            path = os.path.join(tmp, "%s.%s" % (name(tool), kind))
            job = ["--name=w", "--filename=" + path, "--size=64k", "--rw=write", "--bs=4k",
                   "--verify=" + kind]
            rc, j, err = run(tool, job, tmp)
            flip(path, 4096 * 5 + 77)
            rc2, j2, err2 = run(tool, job + ["--verify_only=1"], tmp)
            check(rc == 0 and j and j["read"]["total_ios"] == 16 and rc2 == 1 and
                  kind in err2 and "20480" in err2,
                  "%s verify=%s: exit %d then %d: %s" % (name(tool), kind, rc, rc2, err2[-300:]))
            print("%s verify=%s: exit %d, %d blocks read back; a byte flipped at 20557: exit %d"
                  % (name(tool), kind, rc, j["read"]["total_ios"] if j else -1, rc2))


def async_threads(tmp):
    # verify_async=2: the same blocks checked, the same three bad ones found
    # (with continue_on_error=verify), by two more threads (strace's
    # clones); verify_async_cpus binds them (their /proc status).
    counts = {}
    use_strace = STRACE
    if not use_strace:
        print("verify_async: clones not counted (no strace)")
    for tool in TOOLS:
        path = os.path.join(tmp, "%s.va" % name(tool))
        job = ["--name=w", "--filename=" + path, "--size=16m", "--rw=randwrite", "--bs=4k",
               "--verify=md5"]
        run(tool, job + ["--do_verify=0"], tmp)
        for at in (4096 * 10 + 5, 4096 * 2000 + 77, 4096 * 3000 + 9):
            flip(path, at)
        for va in (0, 2):
            log = os.path.join(tmp, "clones")
            args = job + ["--verify_only=1", "--continue_on_error=verify",
                          "--verify_async=%d" % va]
            if use_strace:
                # LeakSanitizer cannot run under ptrace.
                env = dict(os.environ, ASAN_OPTIONS=os.environ.get("ASAN_OPTIONS", "") +
                           ":detect_leaks=0")
                p = subprocess.run([STRACE, "-f", "-e", "trace=clone,clone3", "-o", log, tool,
                                    "--output-format=json"] + args, capture_output=True,
                                   text=True, cwd=tmp, env=env, timeout=60)
                with open(log) as f:
                    clones = sum(1 for line in f if "clone" in line and "resumed" not in line)
                out = p.stdout[p.stdout.find("{"):]
                j = json.loads(out)["jobs"][0]
            else:
                rc, j, err = run(tool, args, tmp)
                clones = 0
            g = j["iogauge"] if "iogauge" in j else j
            counts[(tool, va)] = (j["read"]["total_ios"], g["total_err"], clones)
            print("%s verify_async=%d: %d blocks read, %d errors passed over, %d clone calls"
                  % ((name(tool), va) + counts[(tool, va)]))
        r0, r2 = counts[(tool, 0)], counts[(tool, 2)]
        check(r0[:2] == r2[:2] == (4096, 3) and (not use_strace or r2[2] == r0[2] + 2),
              "%s verify_async=2: %s, without: %s" % (name(tool), r2, r0))
    # The threads' CPUs: read while a larger file is checked.
    path = os.path.join(tmp, "cpus.va")
    job = [BIN, "--name=w", "--filename=" + path, "--size=256m", "--rw=write", "--bs=4k",
           "--verify=md5"]
    subprocess.run(job + ["--do_verify=0"], capture_output=True)
    p = subprocess.Popen(job + ["--verify_only=1", "--verify_async=2", "--verify_async_cpus=0",
                                "--thread"], stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
    seen = set()
    until = time.monotonic() + 60
    while p.poll() is None and time.monotonic() < until:
        try:
            for tid in os.listdir("/proc/%d/task" % p.pid):
                with open("/proc/%d/task/%s/comm" % (p.pid, tid)) as f:
                    if f.read().strip() != "iogauge-verify":
                        continue
                with open("/proc/%d/task/%s/status" % (p.pid, tid)) as f:
                    cpus = re.search(r"Cpus_allowed_list:\s*(\S+)", f.read()).group(1)
                seen.add((tid, cpus))
        except (OSError, AttributeError):
            pass
    if p.poll() is None:
        p.kill()
        p.wait()
        print("verify_async_cpus=0: still running after 60 s, killed")
    check(p.returncode == 0 and len(seen) == 2 and all(c == "0" for _, c in seen),
          "verify_async_cpus=0: exit %s, threads seen %s" % (p.returncode, sorted(seen)))
    print("verify_async=2 verify_async_cpus=0: checking threads seen %s" % sorted(seen))
    os.unlink(path)


def state(tmp):
    # A write phase cut by its runtime (1000 writes at 1000 IOPS) saves its
    # state; verify_only with verify_state_load reads back those blocks and
    # no more: no block it never wrote fails.  Without the state, the
    # blocks never written fail.
    for tool in TOOLS:
        d = tempfile.mkdtemp(dir=tmp)
        path = os.path.join(d, "s.dat")
        job = ["--name=w", "--filename=" + path, "--size=16m", "--rw=write", "--bs=4k",
               "--verify=crc32c"]
        rc0, j0, err0 = run(tool, job + ["--rate_iops=1000", "--runtime=1",
                                         "--verify_state_save=1"], d)
        saved = os.path.join(d, "local-w-0-verify.state")
        have = os.path.exists(saved)
        keep = open(saved, "rb").read() if have else b""
        rc1, j1, err1 = run(tool, job + ["--verify_only=1", "--verify_state_load=1"], d)
        with open(saved, "wb") as f:
            f.write(keep)  # fio saves again after a verify_only run
        rc2, j2, err2 = run(tool, job + ["--verify_only=1"], d)
        w = j0["write"]["total_ios"] if j0 else -1
        r1 = j1["read"]["total_ios"] if j1 else -1
        r2 = j2["read"]["total_ios"] if j2 else -1
        check(have and 500 < w < 4096 and rc1 == 0 and r1 == w and rc2 == 1 and r2 > w,
              "%s verify_state: %d written (exit %d, state %s); with the state %d read back "
              "(exit %d %s); without %d (exit %d)" % (name(tool), w, rc0, have, r1, rc1,
                                                     err1[-200:], r2, rc2))
        print("%s: %d written before the runtime; verify_state_load: %d read back, exit %d; "
              "without: %d read back, exit %d" % (name(tool), w, r1, rc1, r2, rc2))
    d = tempfile.mkdtemp(dir=tmp)
    p = subprocess.run([BIN, "--name=w", "--filename=" + os.path.join(d, "s.dat"), "--size=1m",
                        "--rw=write", "--verify=crc32c", "--verify_only=1",
                        "--verify_state_load=1"], capture_output=True, text=True, cwd=d)
    check(p.returncode == 1 and "local-w-0-verify.state: No such file" in p.stderr,
          "verify_state_load without a state: exit %d %s" % (p.returncode, p.stderr))


def order(tmp):
    # The read-back's order, as fio's: a random job's blocks in the order
    # written (experimental_verify too); with norandommap (blocks written
    # more than once) each block once, by offset.
    if not STRACE:
        print("skip: no strace: the read-back order")
        return
    for tool in TOOLS:
        for ev in (0, 1, 2):
            path = os.path.join(tmp, "%s.ev" % name(tool))
            log = os.path.join(tmp, "ev.strace")
            if os.path.exists(path):
                os.unlink(path)
            subprocess.run([STRACE, "-f", "-y", "-e", "trace=pread64,pwrite64", "-o", log, tool,
                            "--name=w", "--filename=" + path, "--size=256k", "--rw=randwrite",
                            "--bs=4k", "--verify=crc32c"] +
                           (["--norandommap"] if ev == 2 else ["--experimental_verify=%d" % ev]),
                           capture_output=True)
            w, r = [], []
            with open(log) as f:
                for line in f:
                    m = re.search(r"(pread64|pwrite64)\(\d+<%s>, \"(.{0,12}).*, (\d+), (\d+)\) = "
                                  % re.escape(path), line)
                    if not m:
                        continue
                    if m.group(1) == "pread64":
                        r.append(int(m.group(4)))
                    elif m.group(2).startswith("OIGV") or m.group(2).startswith("\\312\\254"):
                        w.append(int(m.group(4)))
            blocks = sorted(set(w))
            r = r[-len(blocks):] if w else r
            how = "as written" if r == w else "by offset" if r == blocks else "otherwise"
            what = "norandommap" if ev == 2 else "experimental_verify=%d" % ev
            print("%s %s: %d writes, %d reads back, %s" % (name(tool), what, len(w), len(r), how))
            check(len(w) == 64 and how == ("by offset" if ev == 2 else "as written"),
                  "%s %s: read back %s" % (name(tool), what, how))


def backlog_batch(tmp):
    # verify_backlog=16, verify_backlog_batch=8: 16 writes, then the oldest
    # 8 read back, 8 more writes, 8 more reads... and the rest at the end.
    if not STRACE:
        print("skip: no strace: the verify_backlog_batch order")
        return
    seqs = {}
    for tool in TOOLS:
        path = os.path.join(tmp, "%s.bb" % name(tool))
        log = os.path.join(tmp, "%s.strace" % name(tool))
        subprocess.run([STRACE, "-f", "-y", "-e", "trace=pread64,pwrite64", "-o", log, tool,
                        "--name=w", "--filename=" + path, "--size=256k", "--rw=write", "--bs=4k",
                        "--verify=crc32c", "--verify_backlog=16", "--verify_backlog_batch=8",
                        "--ioengine=psync"], capture_output=True)
        seq = ""
        with open(log) as f:
            for line in f:
                m = re.search(r"(pread64|pwrite64)\(\d+<%s>, \"(.{0,24})" % re.escape(path), line)
                if m and m.group(1) == "pread64":
                    seq += "R"
                elif m and (m.group(2).startswith("OIGV") or m.group(2).startswith("\\312\\254")):
                    seq += "W"  # the job's writes, not a lay-out's
        seqs[tool] = seq
        # After the first 16 writes, 8 writes and 8 reads by turns; then
        # the 16 left read at the end.
        want = "W" * 16 + ("R" * 8 + "W" * 8) * 6 + "R" * 16
        # fio and iogauge read the file once before: not the job's.
        got = seq[seq.find("W"):]
        check(got == want, "%s verify_backlog_batch=8: %s" % (name(tool), got))
        print("%s verify_backlog=16 verify_backlog_batch=8: %s" % (name(tool), got))
    if FIO:
        check(seqs[BIN][seqs[BIN].find("W"):] == seqs[FIO][seqs[FIO].find("W"):],
              "verify_backlog_batch: iogauge and fio differ")


def loops_verify(tmp):
    """loops above 1: the read-back pass runs after each loop, as fio's
    (64 blocks, loops=3: 192 writes and 192 reads in both), also with
    unlink_each_loop; fio's counts from the same job are the oracle."""
    path = os.path.join(tmp, "loops.dat")
    for extra in (["--loops=1"], ["--loops=2"], ["--loops=3"],
                  ["--loops=2", "--rw=randwrite", "--unlink_each_loop=1"]):
        args = ["--name=v", "--filename=" + path, "--size=256k", "--bs=4k", "--rw=write",
                "--verify=crc32c"] + extra
        got = {}
        for tool in [BIN] + ([FIO] if FIO else []):
            rc, j, err = run(tool, args, tmp)
            check(rc == 0 and j is not None, "loops %s %s: exit %d %s" % (extra, name(tool), rc, err))
            got[name(tool)] = (j["read"]["total_ios"], j["write"]["total_ios"]) if j else None
        loops = int(extra[0].split("=")[1])
        check(got["iogauge"] == (64 * loops, 64 * loops),
              "loops %s: iogauge read/wrote %s, want %d each" % (extra, got["iogauge"], 64 * loops))
        if FIO:
            check(got["iogauge"] == got["fio"], "loops %s: iogauge %s, fio %s" %
                  (extra, got["iogauge"], got["fio"]))


def refused(tmp):
    for args, msg in ((["--verify_interval=1000"], "verify_interval=1000 does not divide"),
                      (["--verify_interval=512", "--verify_offset=500"], "verify_offset=500"),
                      (["--verify_offset=8"], "verify_offset=8"),
                      (["--verify_only=1", "--time_based", "--runtime=1"], "time_based"),
                      (["--verify=0", "--verify_only=1"], "it needs verify=")):
        job = ["--name=w", "--filename=" + os.path.join(tmp, "never"), "--size=64k",
               "--rw=write", "--bs=4k", "--verify=crc32c"]
        p = subprocess.run([BIN] + job + args, capture_output=True, text=True)
        check(p.returncode == 2 and msg in p.stderr and not os.path.exists(
            os.path.join(tmp, "never")), "%s: exit %d, %s" % (args, p.returncode, p.stderr))


def main():
    # A line at a time: a run killed by ctest's timeout still shows how far it got.
    sys.stdout.reconfigure(line_buffering=True)
    tmp = tempfile.mkdtemp(prefix="iogauge-vopts-")
    # fio leaves a verify state file (and dumps) in the current directory.
    old_cwd = os.getcwd()
    os.chdir(tmp)
    try:
        headers(tmp)
        only_and_dump(tmp)
        xxhash(tmp)
        async_threads(tmp)
        state(tmp)
        order(tmp)
        backlog_batch(tmp)
        loops_verify(tmp)
        refused(tmp)
    finally:
        os.chdir(old_cwd)
        shutil.rmtree(tmp)
    finish("verify_opts")


main()
