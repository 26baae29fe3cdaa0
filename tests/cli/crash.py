#!/usr/bin/env python3
# iogauge crash: five kills per mode on a small file.  The user-space
# buffer (ack_buffer=8k) loses acknowledged writes, as the seed's sync=none
# did; none, O_DSYNC, O_SYNC, O_DIRECT, fsync=N, fdatasync=N and the
# fsync_window lose none.  Then a storage that lies: a kept witness log and
# its file, whose last acknowledged blocks the test rewinds to their
# previous generation (stamps it makes itself, from the header's layout:
# a device that acknowledged the syncs and kept older data), plus a block
# with a bad checksum and a block copied to another offset: --check must
# name each offset as lost, torn and wrong place, and exit 1, without
# writing to the file (strace: opened O_RDONLY; bytes and mtime unchanged).
# Bad input exits 2 with nothing written; a plain run refuses crash's
# options; SIGTERM stops a run at once and it still reports.
#
# Environment (set by CTest): IOGAUGE_BIN.
import hashlib
import json
import os
import re
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time

from clitest import capture, check, concurrently, finish, tmpfs

BIN = os.path.abspath(os.environ["IOGAUGE_BIN"])
BS = 4096
SIZE = 64 * 1024
M64 = (1 << 64) - 1

# --- the stamp, written here from the header's layout (verify.h) --------------


def _crc32c_table():
    t = []
    for i in range(256):
        c = i
        for _ in range(8):
            c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
        t.append(c)
    return t


CRC32C = _crc32c_table()


def crc32c(data):
    c = 0xFFFFFFFF
    for b in data:
        c = CRC32C[(c ^ b) & 0xFF] ^ (c >> 8)
    return c ^ 0xFFFFFFFF


def fill_random(length, off, gen):
    x = ((off * 0x9E3779B97F4A7C15) ^ (gen * 0xC2B2AE3D27D4EB4F) ^ 0x5647494F) & M64
    out = bytearray()
    for _ in range(0, length, 8):
        x = (x + 0x9E3779B97F4A7C15) & M64
        z = x
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
        z ^= z >> 31
        out += struct.pack("<Q", z)
    return bytes(out[:length])


def stamp(off, gen, bs=BS):
    """The block iogauge's verify=crc32c writes at @off as generation @gen."""
    data = fill_random(bs - 48, off, gen)
    sum16 = struct.pack("<Q", crc32c(data)) + bytes(8)
    head = struct.pack("<IB3xIIQQ16s", 0x5647494F, 3, bs, 0, off, gen, sum16)
    crc = crc32c(head)
    head = struct.pack("<IB3xIIQQ16s", 0x5647494F, 3, bs, crc, off, gen, sum16)
    return head + data


def header_gen(block):
    return struct.unpack_from("<Q", block, 24)[0]


# --- runs ------------------------------------------------------------------------

MODES = [
    ("user-buffer", ["--bs=512", "--ack_buffer=8k"], False),
    ("none", [], True),
    ("dsync", ["--sync=dsync"], True),
    ("osync", ["--sync=sync"], True),
    ("direct", ["--direct=1"], True),
    ("fsync-8", ["--fsync=8"], True),
    ("fdatasync-4", ["--fdatasync=4"], True),
    ("window-2ms", ["--fsync_window=2ms"], True),
]
# What each promises: only the modes that wait for stable storage, a
# power cut too; buffered writes and O_DIRECT alone, the writer's kill.
PROMISE = {"user-buffer": "none", "none": "kill", "direct": "kill", "dsync": "power",
           "osync": "power", "fsync-8": "power", "fdatasync-4": "power", "window-2ms": "power"}


def crash(tmp, name, extra, rounds=5, runtime="200ms", more=()):
    args = [BIN, "crash", "--output-format=json", "--name=" + name,
            "--filename=" + os.path.join(tmp, name + ".dat"), "--size=%d" % SIZE,
            "--rounds=%d" % rounds, "--runtime=" + runtime, "--seed=7"] + list(extra) + list(more)
    rc, out, err = capture(args, timeout=60)
    return rc, out, err, args


def modes(tmp):
    def one(m):
        return m, crash(tmp, m[0], m[1])

    for (name, _, promises), (rc, out, err, args) in concurrently(one, MODES, workers=4):
        try:
            doc = json.loads(out)
        except ValueError:
            check(False, "%s: no JSON (exit %d): %s" % (name, rc, err))
            continue
        job = doc["jobs"][0]
        tot = job["total"]
        rounds = job["rounds"]
        print("%-12s %s: %d rounds, %d acked, %d lost, %d torn, %d wrong place, "
              "%.0f writes/s, sync mean %.0f ns, worst ack wait %d ns" %
              (name, job["mode"], len(rounds), tot["acked"], tot["lost"], tot["torn"],
               tot["wrong_place"], tot["writes_per_sec"], tot["sync"]["mean_ns"],
               tot["ack_wait"]["max_ns"]))
        # A loaded machine may starve a slow mode's round (O_SYNC writes of
        # 100 ms were seen beside a build): acknowledgements over the five.
        check(len(rounds) == 5 and tot["acked"] > 0,
              "%s: 5 rounds, with acknowledgements: %s" % (name, [r["acked"] for r in rounds]))
        check(sum(r["acked"] for r in rounds) == tot["acked"], "%s: the total adds up" % name)
        check(job["promise"] == PROMISE[name],
              "%s: promise %s, not %s" % (name, job["promise"], PROMISE[name]))
        if promises:
            check(rc == 0 and tot["lost"] == tot["torn"] == tot["wrong_place"] == 0,
                  "%s: lost none (exit %d, %s)" % (name, rc, tot))
            check(job["verdict"] == "ok", "%s: verdict %s" % (name, job["verdict"]))
        else:
            check(tot["lost"] > 0 and tot["torn"] == 0 and tot["wrong_place"] == 0,
                  "%s: the user-space buffer loses acknowledged writes: %s" % (name, tot))
            check(rc == 0 and job["verdict"] == "no_promise",
                  "%s: losses in a mode that promises nothing do not fail (exit %d)" %
                  (name, rc))
            faults = [f for r in rounds for f in r["faults"]]
            check(faults and all(f["kind"] == "lost" and f["offset"] % 512 == 0 and
                                 f["found_gen"] < f["acked_gen"] for f in faults),
                  "%s: each loss names its offset and an older generation: %s" %
                  (name, faults[:3]))
        if name.startswith("fsync") or name.startswith("fdatasync") or name.startswith("window"):
            check(tot["sync"]["count"] > 0, "%s: syncs counted" % name)
        if name == "window-2ms":
            # One sync covers many writes, and no ack waits much past the window.
            check(tot["sync"]["count"] * 2 < tot["acked"],
                  "window: fewer syncs than writes: %s" % tot["sync"])
            # The first write of a window waits the window out, at least.
            check(tot["ack_wait"]["max_ns"] >= 2000000,
                  "window: the worst wait is 2 ms or more: %s" % tot["ack_wait"])
        w = tot["ack_wait"]
        check(w["count"] >= tot["acked"] and w["p50_ns"] <= w["p99_ns"] <= w["max_ns"],
              "%s: the acknowledgement waits' percentiles: %s" % (name, w))


def read_log(path):
    head, acks, run = {}, [], None
    with open(path) as f:
        for line in f:
            w = line.split()
            if w[0] == "a":
                acks.append((int(w[1]), int(w[2])))
            elif w[0] in ("run", "bs", "size", "file", "mode", "promise", "verify"):
                head[w[0]] = w[1]
    run = int(head["run"], 16)
    return head, acks, run


def lying_storage(tmp):
    log = os.path.join(tmp, "acks.log")
    dat = os.path.join(tmp, "lie.dat")
    args = [BIN, "crash", "--witness=" + log, "--name=lie", "--filename=" + dat,
            "--size=%d" % SIZE, "--fsync=64", "--rounds=1", "--runtime=1s"]
    rc, out, err = capture(args, timeout=60)
    check(rc == 0 and "0 lost" in out, "the honest run: exit %d: %s%s" % (rc, out, err))
    head, acks, run = read_log(log)
    check(head.get("mode") == "fsync=64" and int(head["bs"]) == BS,
          "the log's header: %s" % head)
    newest = {}
    for off, gen in acks:
        newest[off] = max(gen, newest.get(off, 0))
    check(len(newest) == SIZE // BS, "every block acknowledged: %d" % len(newest))
    with open(dat, "rb") as f:
        blocks = {off: (f.seek(off), f.read(BS))[1] for off in newest}
    # The oracle: the file's blocks are what this test's stamp() makes.
    same = all(blocks[o] == stamp(o, header_gen(blocks[o])) for o in blocks)
    check(same, "the test's stamps equal iogauge's (header layout, crc32c, fill)")
    rc, out, err = capture([BIN, "crash", "--check", "--witness=" + log])
    check(rc == 0 and " 0 lost" in out, "--check of the honest file: exit %d: %s%s" %
          (rc, out, err))

    # The lie: the last three blocks acknowledged hold their previous
    # generation (16 writes earlier: rw=write over 16 blocks; 64 writes a
    # sync, so that one sync, even on a loaded machine, acknowledges four
    # generations of every block), as a device
    # that acknowledged the fsync and kept older data would.
    last = []
    for off, gen in reversed(acks):
        if off not in last:
            last.append(off)
        if len(last) == 3:
            break
    by_order = sorted(newest, key=lambda o: newest[o])
    torn_off = by_order[0]
    wrong_off, src_off = by_order[1], by_order[2]
    check(len({*last, torn_off, wrong_off}) == 5, "five distinct blocks to damage")
    with open(dat, "r+b") as f:
        for off in last:
            old = newest[off] - SIZE // BS
            check(old > 0, "block %d has an older generation" % off)
            f.seek(off)
            f.write(stamp(off, run << 40 | old))
        f.seek(torn_off + 1000)
        b = f.read(1)
        f.seek(torn_off + 1000)
        f.write(bytes([b[0] ^ 0x40]))
        f.seek(wrong_off)
        f.write(blocks[src_off])
    before = (hashlib.sha256(open(dat, "rb").read()).hexdigest(), os.stat(dat).st_mtime_ns)
    cmd = [BIN, "crash", "--check", "--witness=" + log, "--output-format=json"]
    strace = shutil.which("strace")
    trace = os.path.join(tmp, "trace")
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=0")
    if strace:
        cmd = [strace, "-f", "-qq", "-e", "trace=open,openat", "-o", trace] + cmd
    rc, out, err = capture(cmd, env=env)
    after = (hashlib.sha256(open(dat, "rb").read()).hexdigest(), os.stat(dat).st_mtime_ns)
    check(rc == 1, "the lying storage fails the check: exit %d: %s" % (rc, err))
    doc = json.loads(out)
    kinds = {f["offset"]: f["kind"] for f in doc["faults"]}
    print("lying storage: %d lost, %d torn, %d wrong place: %s" %
          (doc["lost"], doc["torn"], doc["wrong_place"], sorted(kinds.items())))
    check(doc["lost"] == 3 and doc["torn"] == 1 and doc["wrong_place"] == 1 and
          doc["result"] == "failed", "counts: %s" % {k: doc[k] for k in ("lost", "torn",
                                                                        "wrong_place")})
    check(all(kinds.get(o) == "lost" for o in last), "lost at %s: %s" % (last, kinds))
    check(kinds.get(torn_off) == "torn", "torn at %d: %s" % (torn_off, kinds))
    check(kinds.get(wrong_off) == "wrong_place", "wrong place at %d: %s" % (wrong_off, kinds))
    lost = [f for f in doc["faults"] if f["kind"] == "lost"]
    check(all(f["found_gen"] == f["acked_gen"] - SIZE // BS for f in lost),
          "each loss found the previous generation: %s" % lost)
    wrong = [f for f in doc["faults"] if f["kind"] == "wrong_place"]
    check(wrong and wrong[0]["found_offset"] == src_off, "the misplaced block names its "
          "offset: %s" % wrong)
    check(before == after, "the checker wrote nothing to the file it checked")
    if strace:
        opens = [ln for ln in open(trace) if dat in ln]
        check(opens and all("O_RDONLY" in ln and "O_RDWR" not in ln for ln in opens),
              "the file is opened read only: %s" % opens)
    # A device that dropped everything: the file is gone to zeros.
    with open(dat, "r+b") as f:
        f.truncate(0)
        f.truncate(SIZE)
    rc, out, err = capture([BIN, "crash", "--check", "--witness=" + log])
    check(rc == 1 and "%d lost" % (SIZE // BS) in out and "zeros" in out,
          "a file of zeros: every block lost: exit %d: %s" % (rc, out))


def bad_input(tmp):
    log = os.path.join(tmp, "bad.log")
    rnd = os.path.join(tmp, "random.dat")
    with open(rnd, "wb") as f:
        f.write(os.urandom(SIZE))
    rc, out, err = capture([BIN, "crash", "--witness=" + log, "--name=b",
                            "--filename=" + os.path.join(tmp, "b.dat"), "--size=%d" % SIZE,
                            "--rounds=1", "--runtime=100ms"])
    check(rc == 0, "a log for the bad-input checks: %s" % err)
    new = os.path.join(tmp, "never.dat")
    cases = [
        ("no file", ["--name=x", "--size=64k"], "needs filename="),
        ("rounds=0", ["--name=x", "--filename=" + new, "--size=64k", "--rounds=0"],
         "--rounds=0"),
        ("a window of 0", ["--name=x", "--filename=" + new, "--size=64k",
                           "--fsync_window=0"], "a window of 0"),
        ("an option the writer ignores", ["--name=x", "--filename=" + new, "--size=64k",
                                          "--iodepth=8"], "iodepth= is not acted on"),
        ("no job", [], "no job"),
        ("a device", ["--name=x", "--filename=/dev/null", "--size=64k"],
         "not a regular file"),
        ("a file the writer did not stamp", ["--check", "--witness=" + log, rnd],
         "no block stamped"),
        ("a missing file", ["--check", "--witness=" + log, new], "No such file"),
        ("no log", ["--check", "--witness=" + new], "No such file"),
        ("a log that is not one", ["--check", "--witness=" + rnd], "not a witness log"),
    ]
    for what, args, msg in cases:
        rc, out, err = capture([BIN, "crash"] + args)
        check(rc == 2 and msg in err and not out, "%s: exit %d, %r" % (what, rc, err))
    check(not os.path.exists(new), "bad input wrote nothing")
    jf = os.path.join(tmp, "bad.ini")
    with open(jf, "w") as f:
        f.write("[w]\nfilename=%s\nsize=64k\nrounds=0\n" % new)
    rc, out, err = capture([BIN, "crash", jf])
    check(rc == 2 and "bad.ini:4" in err, "rounds=0 in a job file names file:line: %r" % err)
    # A plain run refuses crash's options.
    rc, out, err = capture([BIN, "--name=p", "--filename=" + new, "--size=64k", "--rw=write",
                            "--fsync_window=2ms"])
    check(rc == 2 and "iogauge crash" in err and not os.path.exists(new),
          "a plain run refuses fsync_window=: exit %d, %r" % (rc, err))


def sigterm(tmp):
    log = os.path.join(tmp, "term.log")
    p = subprocess.Popen([BIN, "crash", "--witness=" + log, "--name=t", "--rounds=100",
                          "--filename=" + os.path.join(tmp, "t.dat"), "--size=%d" % SIZE,
                          "--runtime=1s"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
    end = time.monotonic() + 30
    while time.monotonic() < end and not (os.path.exists(log) and "a " in open(log).read()):
        time.sleep(0.02)
    t0 = time.monotonic()
    p.send_signal(signal.SIGTERM)
    out, err = p.communicate(timeout=30)
    took = time.monotonic() - t0
    print("SIGTERM: exit %d after %.2f s" % (p.returncode, took))
    check(p.returncode == 128 + signal.SIGTERM and "round  1" in out and "total:" in out,
          "SIGTERM: exit %d, a report: %r %r" % (p.returncode, out, err))
    check(took < 2.0, "SIGTERM: stopped in %.2f s" % took)


def syscalls(tmp):
    """Each mode does what it says, seen by strace: the open's flags, and
    fsync or fdatasync once per N writes acknowledged (or per window)."""
    strace = shutil.which("strace")
    if not strace:
        print("syscalls: no strace: skipped")
        return
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=0")
    cases = [("dsync", ["--sync=dsync"], "O_DSYNC", None, None),
             ("osync", ["--sync=sync"], "O_SYNC", None, None),
             ("direct", ["--direct=1"], "O_DIRECT", None, None),
             ("none", [], None, None, None),
             ("fsync8", ["--fsync=8"], None, "fsync", 8),
             ("fdatasync4", ["--fdatasync=4"], None, "fdatasync", 4),
             ("window", ["--fsync_window=2ms"], None, "fsync", 0)]

    def one(case):
        name, extra, flag, call, every = case
        dat = os.path.join(tmp, "sc-" + name + ".dat")
        trace = os.path.join(tmp, "sc-" + name + ".trace")
        rc, out, err = capture([strace, "-f", "-qq", "-o", trace, "-e",
                                "trace=openat,fsync,fdatasync", BIN, "crash",
                                "--output-format=json", "--name=" + name, "--filename=" + dat,
                                "--size=64k", "--rounds=1", "--runtime=400ms"] + extra,
                               env=env, timeout=60)
        return case, rc, out, err, open(trace).read().splitlines() if rc == 0 else []

    for (name, extra, flag, call, every), rc, out, err, lines in concurrently(one, cases):
        if not check(rc == 0, "%s under strace: exit %d: %s" % (name, rc, err)):
            continue
        job = json.loads(out)["jobs"][0]
        acked, syncs = job["total"]["acked"], job["total"]["sync"]["count"]
        opens = [ln for ln in lines if "sc-" + name + ".dat" in ln and "openat" in ln]
        wr = [ln for ln in opens if "O_WRONLY" in ln]
        check(len(wr) == 1 and (flag in wr[0] if flag else
                                not re.search("O_DSYNC|O_SYNC|O_DIRECT", wr[0])),
              "%s: the writer's open: %s" % (name, wr))
        check(len(opens) == 2 and "O_RDONLY" in opens[1],
              "%s: the checker opens the file read only: %s" % (name, opens))
        # The writer's own calls (the witness syncs its log apart).
        pid = wr[0].split()[0] if wr else "?"
        mine = [ln for ln in lines if ln.split()[0] == pid]
        calls = sum(1 for ln in mine if re.search(r"\b(fsync|fdatasync)\(", ln))
        if call:
            n = sum(1 for ln in mine if re.search(r"\b%s\(" % call, ln))
            # Every sync that returned acknowledged its writes; one more may
            # have been under way at the kill.
            check(syncs > 0 and n in (syncs, syncs + 1) and calls == n,
                  "%s: %d %s calls for %d syncs counted" % (name, n, call, syncs))
            if every:
                # The kill may fall between a sync's return and its batch's
                # acknowledgements.
                check(acked in (syncs * every, (syncs - 1) * every),
                      "%s: %d acknowledged = %d syncs x %d" % (name, acked, syncs, every))
            else:
                check(acked > 2 * syncs, "window: %d acknowledged, %d syncs" % (acked, syncs))
        else:
            check(calls == 0 and syncs == 0, "%s: no sync calls (%d)" % (name, calls))


def seeds(tmp):
    """seed= decides the kill moments: the same seed draws the same ones,
    another seed others, each between half of runtime= and all of it."""
    def moments(seed):
        rc, out, err, _ = crash(tmp, "seed", ["--seed=%d" % seed], rounds=3, runtime="100ms")
        if not check(rc == 0, "seed=%d: exit %d: %s" % (seed, rc, err)):
            return []
        return [r["kill_at_ns"] for r in json.loads(out)["jobs"][0]["rounds"]]

    a, b, c = moments(5), moments(5), moments(6)
    print("kill moments (ns): seed=5 %s, again %s, seed=6 %s" % (a, b, c))
    check(a and a == b and a != c, "the same seed, the same moments; another, others")
    check(all(50000000 <= t <= 100000000 for t in a + c), "within [runtime/2, runtime]")


def enospc(tmp):
    """A run-time failure: the writer's file on a full tmpfs (root only); the
    acknowledgements made before it stay in --witness=LOG."""
    mnt = os.path.join(tmp, "full")
    os.mkdir(mnt)
    with tmpfs(mnt, "256k") as ok:
        if not ok:
            print("enospc: no tmpfs (not root?): skipped")
            return
        log = os.path.join(tmp, "full.log")
        rc, out, err = capture([BIN, "crash", "--name=full", "--filename=" + mnt + "/f",
                                "--size=1m", "--rounds=1", "--runtime=2s",
                                "--witness=" + log], timeout=60)
        check(rc == 1 and "No space left on device" in err and "offset 262144" in err and
              mnt + "/f" in err and "ERROR: the run stopped" in out,
              "a full file system: exit %d, %r %r" % (rc, out, err))
        # The round failed, but the writes acknowledged before it are in the
        # log, its round ended, and they check.
        lines = open(log).read().splitlines() if os.path.exists(log) else []
        acks = sum(1 for ln in lines if ln.startswith("a "))
        print("enospc: %d acknowledgements in the failed round's log" % acks)
        check(acks == 64 and "end 1 64" in lines,
              "a failed round's acknowledgements are kept in --witness=LOG: %d, %s" %
              (acks, lines[-2:]))
        rc, out, err = capture([BIN, "crash", "--check", "--witness=" + log])
        check(rc == 0 and " 0 lost" in out and " 64 writes acked" in out,
              "--check of the failed round's log: exit %d: %s%s" % (rc, out, err))


def trigger(tmp):
    """--trigger runs at each kill moment with the writer's PID (here it
    kills the writer itself), and a failing one is noted."""
    out_file = os.path.join(tmp, "fired")
    rc, out, err, _ = crash(tmp, "trig", [], rounds=2, runtime="200ms",
                            more=["--trigger=kill -KILL $IOGAUGE_CRASH_WRITER; "
                                  "echo $IOGAUGE_CRASH_WRITER >> " + out_file])
    pids = open(out_file).read().split() if os.path.exists(out_file) else []
    check(rc == 0 and len(pids) == 2 and all(p.isdigit() for p in pids) and
          len(set(pids)) == 2, "--trigger ran once a round with the writer's PID: %s %r" %
          (pids, err))
    if rc == 0:
        doc = json.loads(out)
        check(all(r["trigger_status"] == 0 and r["lost"] == 0 for r in doc["jobs"][0]["rounds"]),
              "--trigger's status, no loss: %s" % doc["jobs"][0]["rounds"])
    rc, out, err, _ = crash(tmp, "trig", [], rounds=1, runtime="100ms", more=["--trigger=exit 3"])
    check(rc == 0 and json.loads(out)["jobs"][0]["rounds"][0]["trigger_status"] == 3 << 8,
          "a failing --trigger is noted: exit %d" % rc)
    # killed_after_ns is when the SIGKILL went, after the trigger returned.
    rc, out, err, _ = crash(tmp, "trig", [], rounds=1, runtime="100ms",
                            more=["--trigger=sleep 0.3"])
    r = json.loads(out)["jobs"][0]["rounds"][0] if rc == 0 else {}
    check(r and r["killed_after_ns"] >= r["kill_at_ns"] + 300000000,
          "killed_after_ns counts the trigger's 0.3 s: exit %d, %s" %
          (rc, {k: r.get(k) for k in ("kill_at_ns", "killed_after_ns")}))
    # What the trigger prints goes to standard error, never into the report.
    rc, out, err, _ = crash(tmp, "trig", [], rounds=1, runtime="100ms",
                            more=["--trigger=echo fired"])
    try:
        json.loads(out)
        parsed = True
    except ValueError:
        parsed = False
    check(rc == 0 and parsed and "fired" in err,
          "--trigger's output on stderr, the JSON whole: exit %d, %r" % (rc, out[:80]))


def recipes(tmp):
    """jobs/durability's crash recipes run, shortened: every mode keeps its
    promise, and the window sweep's figures are there."""
    src = os.environ.get("IOGAUGE_SRC", os.path.join(os.path.dirname(__file__), "..", ".."))

    def one(name):
        path = os.path.join(src, "jobs", "durability", name)
        return name, capture([BIN, "crash", "--output-format=json", path,
                              "--set", "rounds=1", "--set", "runtime=200ms", "--set",
                              "size=256k", "--set",
                              "filename=" + os.path.join(tmp, name + ".dat")], timeout=60)

    for name, (rc, out, err) in concurrently(one, ["crash.ini", "window-sweep.ini"], workers=2):
        check(rc == 0, "%s: exit %d: %s" % (name, rc, err))
        if rc:
            continue
        jobs = json.loads(out)["jobs"]
        check(all(j["verdict"] in ("ok", "no_promise") for j in jobs) and
              sum(j["total"]["acked"] for j in jobs) > 0,
              "%s: writes acknowledged, every promise kept: %s" %
              (name, [(j["jobname"], j["verdict"], j["total"]["acked"]) for j in jobs]))
        if name == "crash.ini":
            check([j["verdict"] == "no_promise" for j in jobs].count(True) == 1 and len(jobs) == 8,
                  "crash.ini: eight modes, one without a promise")
        else:
            check([j["mode"] for j in jobs] == ["fsync_window=%s" % w for w in
                                                ("500us", "1ms", "2ms", "5ms", "10ms")] and
                  all(j["total"]["ack_wait"]["max_ns"] > 0 for j in jobs
                      if j["total"]["acked"]),
                  "window-sweep.ini: five windows, each with its worst wait")


def main():
    tmp = tempfile.mkdtemp(prefix="iogauge-crash-", dir=os.environ.get("TMPDIR", "/tmp"))
    try:
        t = time.monotonic()
        modes(tmp)
        lying_storage(tmp)
        bad_input(tmp)
        syscalls(tmp)
        seeds(tmp)
        enospc(tmp)
        trigger(tmp)
        recipes(tmp)
        sigterm(tmp)
        print("crash.py: %.1f s" % (time.monotonic() - t))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    finish("crash")


if __name__ == "__main__":
    sys.exit(main())
