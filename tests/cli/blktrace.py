#!/usr/bin/env python3
# read_iolog of blktrace binary traces, against fio 3.33 replaying the same
# traces: small traces written here with struct (the kernel's struct
# blk_io_trace, either byte order, with notify records, payloads, issue and
# complete events, merges and a zero-byte write), replayed by both onto a
# file (replay_redirect) or a loop device (the trace's device, found by its
# major:minor); the I/Os (iogauge's write_iolog, fio's under strace -y) in
# the same order, their bytes; replay_skip; replay_scale and replay_align;
# the trace's times; the queue depth the trace saw; merge_blktrace_file with
# _scalars and _iters (the merged file against the merge worked out here,
# and fio replaying it); bad traces and values (exit 2, nothing run).
# One line per failure, then "blktrace: N passed, M failed".
#
# Environment (set by CTest): IOGAUGE_BIN.  Skips (77) without fio or strace.
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

import replaytest
from replaytest import ios_of_log
from clitest import check, finish

BIN = os.path.abspath(os.environ["IOGAUGE_BIN"])
FIO = shutil.which(os.environ.get("FIO", "fio"))
STRACE = shutil.which("strace")
TMP = None

# include/uapi/linux/blktrace_api.h
MAGIC = 0x65617400 | 7
REC = struct.Struct("IIQQIIIIIHH")
TC_READ, TC_WRITE, TC_FLUSH, TC_QUEUE = 1 << 16, 2 << 16, 4 << 16, 16 << 16
TC_ISSUE, TC_COMPLETE, TC_NOTIFY, TC_DISCARD = 64 << 16, 128 << 16, 1024 << 16, 8192 << 16
QUEUE, BACKMERGE, ISSUE, COMPLETE = 1 | TC_QUEUE, 2 | TC_QUEUE, 7 | TC_ISSUE, 8 | TC_COMPLETE
DIRS = {"read": TC_READ, "write": TC_WRITE, "trim": TC_WRITE | TC_DISCARD,
        "sync": TC_WRITE | TC_FLUSH}


def rec(t_ns, sector, nbytes, action, dev, pdu=b"", order="<", seq=0, cpu=0):
    return struct.pack(order + REC.format, MAGIC, seq, t_ns, sector, nbytes, action, 4242, dev,
                       cpu, 0, len(pdu)) + pdu


def trace(path, ios, dev=7 << 20, order="<", depth=1):
    """Writes a trace of @ios, (time us, kind, offset bytes, length) each,
    as blktrace records them: a process notify with its payload first,
    each I/O queued, issued and completed, @depth of them queued before
    the first of those completes."""
    out = [rec(0, 0, 0, TC_NOTIFY, dev, b"fio\0\0\0\0\0", order)]
    pending = []
    for t, kind, off, n in ios:
        act = DIRS[kind]
        out.append(rec(t * 1000, off // 512, n, QUEUE | act, dev, order=order))
        pending.append((t, off, n, act))
        if len(pending) == depth:
            for pt, po, pn, pa in pending:
                out.append(rec(pt * 1000 + 50, po // 512, pn, ISSUE | pa, dev, order=order))
                out.append(rec(pt * 1000 + 90, po // 512, pn, COMPLETE | pa, dev,
                               b"\1\2\3\4", order))
            pending = []
    for pt, po, pn, pa in pending:
        out.append(rec(pt * 1000 + 90, po // 512, pn, COMPLETE | pa, dev, order=order))
    with open(path, "wb") as f:
        f.write(b"".join(out))


def run(argv):
    p = subprocess.run(argv, cwd=TMP, capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


def iogauge_replay(log, extra=()):
    return replaytest.iogauge_replay(BIN, TMP, log, extra)


def fio_replay(log, extra=(), files=()):
    return replaytest.fio_replay(FIO, STRACE, TMP, log, extra, files, syncs=True)


def same_replay(what, log, files, extra=(), want=None):
    """Both replay @log; the same I/Os (and @want, when given)."""
    rc, f, got = iogauge_replay(log, extra)
    frc, ff, fgot = fio_replay(log, extra, files)
    if not check(rc == 0 and frc == 0, "%s: iogauge exit %d %s; fio exit %d %s" %
                 (what, rc, f if rc else "", frc, ff if frc else "")):
        return None, None, None
    # Terse v3: read KiB is field 5, write KiB field 46.
    check(got == fgot and len(got) > 0 and (f[5], f[46]) == (ff[5], ff[46]),
          "%s: iogauge issued %d I/Os (%s/%s KiB), fio %d (%s/%s KiB): %s / %s" %
          (what, len(got), f[5], f[46], len(fgot), ff[5], ff[46], got, fgot))
    if want is not None:
        check(got == want, "%s: iogauge issued %s, not %s" % (what, got, want))
    print("%s: I/Os iogauge %d fio %d; read KiB %s / %s; write KiB %s / %s" %
          (what, len(got), len(fgot), f[5], ff[5], f[46], ff[46]))
    return f, ff, got


IOS = [(10, "read", 0, 4096), (1000, "write", 8192, 8192), (2000, "read", 65536, 4096),
       (2500, "write", 0, 0), (3000, "sync", 0, 0), (4000, "read", 12288, 16384),
       (5000, "write", 131072, 4096), (6000, "read", 4096 * 33, 8192)]


def want_of(ios, path, skip=()):
    """What fio replays of @ios onto @path: zero-byte I/Os and @skip out."""
    return [(path, k, o if k != "sync" else 0, n) for _, k, o, n in ios
            if k not in skip and (n or k == "sync")]


def basic(tmp):
    data = os.path.join(tmp, "d.dat")
    with open(data, "wb") as f:
        f.write(os.urandom(1 << 20))
    little, big = os.path.join(tmp, "le.bin"), os.path.join(tmp, "be.bin")
    trace(little, IOS)
    trace(big, IOS, order=">")
    red = ["--replay_redirect=" + data]
    same_replay("blktrace", little, [data], red, want_of(IOS, data))
    same_replay("blktrace, the other byte order", big, [data], red, want_of(IOS, data))
    # blkparse -d writes the same records; one with two devices goes to
    # the one replay_redirect names.
    two = os.path.join(tmp, "two.bin")
    trace(two, IOS[:4])
    with open(two, "ab") as f:
        for t, k, o, n in IOS[4:]:
            f.write(rec(t * 1000, o // 512, n, QUEUE | DIRS[k], 8 << 20 | 16))
    same_replay("two devices, replay_redirect", two, [data], red, want_of(IOS, data))
    # 64 devices, the most a trace may have, then the first again.
    many = os.path.join(tmp, "many.bin")
    with open(many, "wb") as f:
        for k in list(range(64)) + [0]:
            f.write(rec(k * 1000, k * 8, 4096, QUEUE | TC_READ, 8 << 20 | k))
    same_replay("64 devices, replay_redirect", many, [data], red,
                [(data, "read", k * 4096, 4096) for k in list(range(64)) + [0]])
    with open(many, "ab") as f:
        f.write(rec(99000, 0, 4096, QUEUE | TC_READ, 8 << 20 | 64))
    rc, _, err = run([BIN, "--name=r", "--read_iolog=" + many, "--output=/dev/null"] + red)
    check(rc == 2 and "more than 64 devices" in err, "65 devices: exit %d %r" % (rc, err))
    for skip in (["read"], ["write"], ["sync"], ["read", "sync"], ["write", "trim"]):
        opt = "--replay_skip=" + ",".join(skip)
        same_replay(opt, little, [data], red + [opt], want_of(IOS, data, skip))
    # Given twice (or in [global] and the job), the kinds add up, as fio's.
    same_replay("replay_skip=read then replay_skip=sync", little, [data],
                red + ["--replay_skip=read", "--replay_skip=sync"],
                want_of(IOS, data, ["read", "sync"]))
    # replay_scale divides the offset, replay_align rounds it down and the
    # length up.
    opts = red + ["--replay_scale=3", "--replay_align=4096"]
    want = [(data, k, o // 3 // 4096 * 4096, (n + 4095) // 4096 * 4096)
            for _, k, o, n in IOS if n]
    want.insert(3, (data, "sync", 0, 0))
    same_replay("replay_scale=3 replay_align=4096", little, [data], opts, want)
    # The trace's depth: fio's iodepth unless set.
    deep = os.path.join(tmp, "deep.bin")
    trace(deep, [(i * 10, "read", i * 4096, 4096) for i in range(12)], depth=4)
    rc, out, err = run([BIN, "--name=r", "--read_iolog=" + deep, "--ioengine=libaio",
                        "--parse-only"] + red)
    check(rc == 0 and re.search(r"^iodepth=4 .*via read_iolog", out, re.M),
          "the trace's depth: exit %d %s" % (rc, [ln for ln in out.splitlines()
                                                   if "iodepth=" in ln]))
    rc, out, err = run([BIN, "--name=r", "--read_iolog=" + deep, "--ioengine=libaio",
                        "--iodepth=2", "--parse-only"] + red)
    check(rc == 0 and re.search(r"^iodepth=2 ", out, re.M), "iodepth=2 kept: %d" % rc)
    # fio at that depth: its replay leaves out the last iodepth - 1 I/Os
    # (as with its iologs, see replay.py); 12 - 3 means it took depth 4.
    rc, f, got = iogauge_replay(deep, red + ["--ioengine=libaio"])
    frc, ff, _ = fio_replay(deep, red + ["--ioengine=libaio"], [data])
    check(rc == 0 and frc == 0 and len(got) == 12 and int(ff[5]) == (12 - 3) * 4,
          "depth 4 with libaio: iogauge %d I/Os, fio %s KiB read" %
          (len(got), frc == 0 and ff[5]))
    print("depth 4, libaio: iogauge read %s KiB, fio %s KiB" % (f[5], ff[5]))


def times(tmp):
    data = os.path.join(tmp, "t.dat")
    with open(data, "wb") as f:
        f.write(os.urandom(1 << 20))
    slow = os.path.join(tmp, "slow.bin")
    trace(slow, [(100, "read", 0, 4096), (400100, "read", 4096, 4096),
                 (800100, "write", 8192, 4096)])
    red = ["--replay_redirect=" + data]
    # Terse v3: read runtime (ms) is field 8.
    for what, extra, lo, hi in (("the trace's times", [], 750, 1300),
                                ("replay_time_scale=200", ["--replay_time_scale=200"], 350, 700),
                                ("replay_no_stall", ["--replay_no_stall=1"], 0, 150)):
        f, ff, _ = same_replay(what, slow, [data], red + extra)
        if f is None:
            continue
        a, b = int(f[8]), int(ff[8])
        check(lo <= a <= hi and lo <= b <= hi + 300,
              "%s: iogauge ran %d ms, fio %d ms (expected %d..%d)" % (what, a, b, lo, hi))
        print("%s: iogauge %d ms, fio %d ms" % (what, a, b))


def skipped_gap(tmp):
    """fio times each I/O from the queue event before it, replayed or not:
    a skipped read's gap is not waited for."""
    data = os.path.join(tmp, "g.dat")
    with open(data, "wb") as f:
        f.write(os.urandom(1 << 20))
    gap = os.path.join(tmp, "gap.bin")
    trace(gap, [(100, "write", 0, 4096), (600100, "read", 4096, 4096),
                (700100, "write", 8192, 4096)])
    f, ff, _ = same_replay("replay_skip=read over a 600 ms gap", gap, [data],
                           ["--replay_redirect=" + data, "--replay_skip=read"])
    if f is not None:
        # Terse v3: write runtime (ms) is field 49.
        a, b = int(f[49]), int(ff[49])
        check(60 <= a <= 400 and 60 <= b <= 400,
              "replay_skip=read: iogauge wrote for %d ms, fio %d ms (expected about 100)" %
              (a, b))
        print("replay_skip=read over a gap: iogauge %d ms, fio %d ms" % (a, b))


def iolog_fixes(tmp):
    """Two replays of fio's iolog that the blktrace work mended: a sync line
    in a job without fsync= (its clone crashed), and writes of 8k and 4k
    (the replay stopped at 8k, the layout's size rounded down to bs)."""
    data = os.path.join(tmp, "i.dat")
    with open(data, "wb") as f:
        f.write(os.urandom(1 << 20))
    for what, a, b in (("a sync line", 4096, 4096), ("writes of 8k and 4k", 8192, 4096)):
        log = os.path.join(tmp, "sync.log")
        with open(log, "w") as f:
            f.write("fio version 3 iolog\n0 %s add\n0 %s open\n5 %s write 0 %d\n"
                    "10 %s sync 0 0\n20 %s write %d %d\n30 %s close\n" %
                    (data, data, data, a, data, data, a, b, data))
        same_replay("iolog: " + what, log, [data], [],
                    [(data, "write", 0, a), (data, "sync", 0, 0), (data, "write", a, b)])


def merged(specs, scalars, iters):
    """The merge of @specs, [(ios, dev)], each trace's times moved by its
    run and scaled: (time ns, offset, length, kind) in the merged order."""
    curs = []
    for i, (ios, dev) in enumerate(specs):
        length = ios[-1][0] * 1000 + 90  # the last record: a completion
        evs = [(t * 1000, o, n, k) for t, k, o, n in ios]
        curs.append({"evs": evs, "pos": 0, "iter": 0, "n": iters[i], "len": length,
                     "sc": scalars[i], "cur": None})

    def nxt(c):
        if c["pos"] == len(c["evs"]):
            return False
        t, o, n, k = c["evs"][c["pos"]]
        c["pos"] += 1
        c["cur"] = ((t + c["iter"] * c["len"]) * c["sc"] // 100, o, n, k)
        return True

    out = []
    act = [c for c in curs if nxt(c)]
    while act:
        i = min(range(len(act)), key=lambda j: (act[j]["cur"][0], j))
        c = act[i]
        out.append(c["cur"])
        if nxt(c):
            continue
        c["iter"] += 1
        if c["iter"] < c["n"]:
            c["pos"] = 0
            if nxt(c):
                continue
        act[i] = act[-1]
        act.pop()
    return out


def merge(tmp):
    data = os.path.join(tmp, "m.dat")
    with open(data, "wb") as f:
        f.write(os.urandom(1 << 20))
    a, b = os.path.join(tmp, "a.bin"), os.path.join(tmp, "b.bin")
    ta = [(100, "read", 0, 4096), (1100, "write", 4096, 4096), (2100, "read", 8192, 4096)]
    tb = [(300, "write", 65536, 8192), (900, "read", 73728, 4096), (1500, "sync", 0, 0),
          (2400, "write", 81920, 4096)]
    trace(a, ta)
    trace(b, tb, dev=8 << 20)
    out = os.path.join(tmp, "merged.bin")
    red = ["--replay_redirect=" + data, "--replay_no_stall=1"]
    for scal, its in (([100, 100], [1, 1]), ([50, 100], [2, 1]), ([100, 300], [1, 3])):
        opts = red + ["--merge_blktrace_file=" + out,
                      "--merge_blktrace_scalars=%d:%d" % tuple(scal),
                      "--merge_blktrace_iters=%d:%d" % tuple(its)]
        what = "merge scalars %s iters %s" % (scal, its)
        if os.path.exists(out):
            os.unlink(out)
        rc, f, got = iogauge_replay(a + ":" + b, opts)
        want = merged([(ta, 7 << 20), (tb, 8 << 20)], scal, its)
        recs = []
        if os.path.exists(out):
            with open(out, "rb") as fh:
                raw = fh.read()
            for k in range(0, len(raw), REC.size):
                r = REC.unpack(raw[k:k + REC.size])
                kind = [n for n, m in DIRS.items() if r[5] == QUEUE | m]
                recs.append((r[2], r[3] * 512, r[4], kind[0] if kind else hex(r[5])))
        check(rc == 0 and recs == want and len(raw) == len(want) * REC.size,
              "%s: exit %d, merged file %s, not %s" % (what, rc, recs, want))
        check(got == [(data, k, o, n) for _, o, n, k in want if n or k == "sync"],
              "%s: replayed %s" % (what, got))
        # fio replays the merged file as iogauge did.
        same_replay(what + ", fio replaying the merged file", out, [data], red,
                    got)
    # --merge-blktrace-only: the same merged file, and no I/O.
    with open(out, "rb") as fh:
        last = fh.read()
    os.unlink(out)
    with open(data, "rb") as fh:
        before = fh.read()
    rc, stdout, err = run([BIN, "--merge-blktrace-only", "--name=r", "--read_iolog=" + a + ":" + b,
                           "--merge_blktrace_file=" + out, "--merge_blktrace_scalars=100:300",
                           "--merge_blktrace_iters=1:3"] + red)
    with open(data, "rb") as fh:
        check(rc == 0 and not stdout and os.path.exists(out) and open(out, "rb").read() == last
              and fh.read() == before,
              "--merge-blktrace-only: exit %d %r %r" % (rc, stdout, err))
    # fio 3.33's own merge fails ("iolog short read") and leaves the merge
    # file empty, replaying the first trace alone: see iogauge.1.
    if os.path.exists(out):
        os.unlink(out)
    rc, _, err = run([FIO, "--name=r", "--read_iolog=" + a + ":" + b,
                      "--merge_blktrace_file=" + out, "--output=/dev/null"] + red)
    check("iolog short read" in err and os.path.getsize(out) == 0,
          "fio 3.33's merge: exit %d %r, %d bytes merged" %
          (rc, err, os.path.exists(out) and os.path.getsize(out)))


def bad(tmp):
    data = os.path.join(tmp, "b.dat")
    with open(data, "wb") as f:
        f.write(os.urandom(1 << 16))
    good = os.path.join(tmp, "good.bin")
    trace(good, IOS[:3])
    with open(good, "rb") as f:
        raw = f.read()
    cases = []
    for name, body, msg in (("magic", raw + b"\0" * 48, "bad magic"),
                            ("version", raw + rec(0, 0, 0, 0, 0)[:0] +
                             struct.pack("<I", 0x65617406) + rec(0, 0, 0, 0, 0)[4:],
                             "blktrace version 6"),
                            ("cut", raw + raw[:20], "cut short")):
        p = os.path.join(tmp, name + ".bin")
        with open(p, "wb") as f:
            f.write(body)
        cases.append((p, ["--replay_redirect=" + data], msg))
    # No such device here, and replay_redirect not given.
    nodev = os.path.join(tmp, "nodev.bin")
    trace(nodev, IOS[:2], dev=4000 << 20 | 4000)
    cases.append((nodev, [], "4000:4000 is no block device"))
    # Everything left out.
    cases.append((good, ["--replay_redirect=" + data, "--replay_skip=read,write"],
                  "no I/O in it"))
    cases.append((good, ["--replay_redirect=" + data, "--replay_skip=read,flush"],
                  "'flush' is no I/O kind"))
    text = os.path.join(tmp, "text.log")
    with open(text, "w") as f:
        f.write("fio version 2 iolog\n%s add\n%s read 0 4096\n" % (data, data))
    m = ["--merge_blktrace_file=" + os.path.join(tmp, "mm.bin")]
    cases.append((good + ":" + text, m, "not a blktrace binary trace"))
    cases.append((good + ":" + good, m + ["--merge_blktrace_scalars=50"],
                  "merge_blktrace_scalars has 1 values for 2 traces"))
    cases.append((good + ":" + good, m + ["--merge_blktrace_iters=1:0"], "not 1 to"))
    # Without a merge, fio hands the logs to the clones in turn: refused.
    cases.append((good + ":" + good, ["--replay_redirect=" + data], "a log per clone"))
    for log, extra, msg in cases:
        rc, out, err = run([BIN, "--name=r", "--read_iolog=" + log, "--output=/dev/null"] +
                           extra)
        check(rc == 2 and msg in err and (log.split(":")[0] in err or "--" in err),
              "bad %s %s: exit %d %r" % (os.path.basename(log), extra, rc, err))
    check(not os.path.exists(os.path.join(tmp, "mm.bin")), "a bad merge wrote its file")
    # In a job file: each bad value at its line, all at once.
    job = os.path.join(tmp, "bad.fio")
    with open(job, "w") as f:
        f.write("[r]\nread_iolog=%s\nreplay_redirect=%s\nreplay_skip=read,bogus\n"
                "merge_blktrace_scalars=abc\nmerge_blktrace_iters=2:\n" % (good, data))
    rc, out, err = run([BIN, job])
    check(rc == 2 and not out and "bad.fio:4: replay_skip" in err and
          "bad.fio:5: merge_blktrace_scalars" in err and "bad.fio:6: merge_blktrace_iters" in err,
          "bad values in a job file: exit %d %r" % (rc, err))
    rc, out, err = run([BIN, "--name=r", "--merge_blktrace_file=x.bin", "--size=4k",
                        "--filename=" + data])
    check(rc == 2 and "merge_blktrace_file" in err and "read_iolog" in err,
          "merge_blktrace_file alone: exit %d %r" % (rc, err))
    # replay_skip on fio's text iolog: fio ignores it; iogauge too, and says so.
    rc, out, err = run([BIN, "--name=r", "--read_iolog=" + text, "--replay_skip=read",
                        "--minimal"])
    check(rc == 0 and "replay_skip acts on blktrace traces only" in err and
          out.split(";")[5] == "4", "replay_skip with an iolog: exit %d %r" % (rc, err))
    # A merge file that cannot be written: exit 1, naming it and the errno.
    rc, out, err = run([BIN, "--name=r", "--read_iolog=" + good,
                        "--merge_blktrace_file=" + os.path.join(tmp, "no", "m.bin"),
                        "--replay_redirect=" + data, "--output=/dev/null"])
    check(rc == 1 and "m.bin" in err and "No such file or directory" in err,
          "an unwritable merge file: exit %d %r" % (rc, err))


def blkparse_dump(tmp):
    """blkparse -d of per-CPU trace files: the dump fio's HOWTO asks for."""
    if not shutil.which("blkparse"):
        print("skip: no blkparse (Debian's blktrace): its -d dump")
        return
    data = os.path.join(tmp, "p.dat")
    with open(data, "wb") as f:
        f.write(os.urandom(1 << 20))
    per_cpu = {0: [], 1: []}
    for i, (t, k, o, n) in enumerate(IOS):
        for dt, act in ((0, QUEUE), (50, ISSUE), (90, COMPLETE)):
            per_cpu[i % 2].append(rec(t * 1000 + dt, o // 512, n, act | DIRS[k], 7 << 20,
                                      seq=len(per_cpu[i % 2]) + 1, cpu=i % 2))
    for cpu, recs in per_cpu.items():
        with open(os.path.join(tmp, "cpu.blktrace.%d" % cpu), "wb") as f:
            f.write(b"".join(recs))
    dump = os.path.join(tmp, "dump.bin")
    rc, out, err = run(["blkparse", "-i", "cpu", "-d", dump, "-o", "/dev/stdout"])
    # blkparse reads the records written here as the kernel's.
    check(rc == 0 and re.search(r" Q +R 0 \+ 8 ", out) and re.search(r" Q +W 16 \+ 16 ", out)
          and re.search(r" Q +FW ", out), "blkparse -d: exit %d %r" % (rc, out[:300]))
    same_replay("blkparse -d dump", dump, [data], ["--replay_redirect=" + data],
                want_of(IOS, data))


def loopdev(tmp):
    """The trace's own device: a loop device, found by its major:minor."""
    if os.geteuid() != 0 or not shutil.which("losetup"):
        print("skip: not root or no losetup: the trace's own device")
        return
    back = os.path.join(tmp, "loop.img")
    with open(back, "wb") as f:
        f.truncate(4 << 20)
    p = subprocess.run(["losetup", "-f", "--show", back], capture_output=True, text=True)
    if p.returncode:
        print("skip: losetup failed: the trace's own device")
        return
    dev = p.stdout.strip()
    try:
        st = os.stat(dev)
        bt = os.path.join(tmp, "loop.bin")
        trace(bt, IOS, dev=os.major(st.st_rdev) << 20 | os.minor(st.st_rdev))
        same_replay("the loop device " + dev, bt, [dev], [], want_of(IOS, dev))
        # Its discards (reads and writes left out): BLKDISCARD on both.
        mixed = IOS + [(7000, "trim", 262144, 65536), (7500, "trim", 8192, 4096)]
        trace(bt, mixed, dev=os.major(st.st_rdev) << 20 | os.minor(st.st_rdev))
        skip = ["--replay_skip=read,write,sync"]
        rc, f, got = iogauge_replay(bt, skip)
        frc, ff, _ = fio_replay(bt, skip, [dev])
        want = [(dev, "trim", 262144, 65536), (dev, "trim", 8192, 4096)]
        ist = os.path.join(TMP, "istrace.out")
        # LeakSanitizer cannot run under strace (both trace the process).
        irc, _, ierr = run([STRACE, "-f", "-qq", "-y", "-e", "trace=ioctl", "-o", ist,
                            "env", "ASAN_OPTIONS=detect_leaks=0", BIN, "--name=r",
                            "--read_iolog=" + bt, "--output=/dev/null"] + skip)
        fst = os.path.join(TMP, "strace.out")
        frc2, _, _ = run([STRACE, "-f", "-qq", "-y", "-e", "trace=ioctl", "-o", fst, FIO,
                          "--name=r", "--read_iolog=" + bt, "--output=/dev/null"] + skip)

        def discards(path):
            with open(path) as fh:
                return re.findall(r"BLKDISCARD, \[(\d+), (\d+)\]", fh.read())
        check(rc == 0 and frc == 0 and irc == 0 and frc2 == 0 and got == want and
              discards(ist) == discards(fst) == [("262144", "65536"), ("8192", "4096")],
              "discards: exit %d %d %d %d %r, iogauge %s %s, fio %s" %
              (rc, frc, irc, frc2, ierr, got, discards(ist), discards(fst)))
        print("discards on %s: iogauge %s, fio %s" % (dev, discards(ist), discards(fst)))
    finally:
        subprocess.run(["losetup", "-d", dev])


def main():
    global TMP
    if not FIO or not STRACE:
        print("SKIP: fio or strace is not installed")
        sys.exit(77)
    tmp = TMP = tempfile.mkdtemp(prefix="blktrace.")
    try:
        basic(tmp)
        times(tmp)
        skipped_gap(tmp)
        iolog_fixes(tmp)
        merge(tmp)
        bad(tmp)
        blkparse_dump(tmp)
        loopdev(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    finish("blktrace")


if __name__ == "__main__":
    main()
