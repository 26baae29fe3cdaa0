#!/usr/bin/env python3
# iogauge witness, the remote witness, over 127.0.0.1 only: a writer's
# acknowledgements logged and checked with --check; another run refused;
# 200 pieces of garbage on its port (random bytes, broken hellos, a good
# hello then bad lines or a batch of the wrong count, a line too long)
# each refused without a crash, the witness still serving after them; it
# listens only where told (not on 127.0.0.2); a log cut short and an
# acknowledgement for a block the file does not hold give clear results;
# killing the witness mid-stream stops the writer with an error; so
# does a witness that never answers or never takes the connection; a
# witness restarted over its run's log goes on with it.
#
# Environment (set by CTest): IOGAUGE_BIN.
import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

from clitest import capture, check, finish

BIN = os.path.abspath(os.environ["IOGAUGE_BIN"])
SIZE = 64 * 1024


def start_witness(tmp, log, run="abc"):
    p = subprocess.Popen([BIN, "witness", "--listen=127.0.0.1:0", "--run=" + run,
                          "--log=" + log], stdout=subprocess.PIPE,
                         stderr=open(os.path.join(tmp, "witness.err"), "w"), text=True)
    line = p.stdout.readline()
    m = re.search(r"listening on 127\.0\.0\.1:(\d+)$", line.strip())
    check(m is not None, "the witness says where it listens: %r" % line)
    return p, int(m.group(1)) if m else 0


def writer(tmp, port, run="abc", rounds=1, runtime="500ms", name="w"):
    return capture([BIN, "crash", "--name=" + name, "--filename=" + os.path.join(tmp, "w.dat"),
                    "--size=%d" % SIZE, "--fsync=4", "--rounds=%d" % rounds,
                    "--runtime=" + runtime, "--set", "witness=127.0.0.1:%d/%s" % (port, run)],
                   timeout=60)


def talk(port, data, shut=True):
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    try:
        s.sendall(data)
        if shut:
            s.shutdown(socket.SHUT_WR)
        got = b""
        while True:
            b = s.recv(4096)
            if not b:
                return got
            got += b
    except OSError:
        return b"(reset)"
    finally:
        s.close()


HELLO = b"iogauge-witness 1 abc 4096 65536 crc32c kill\tfsync=4\t%s\n"


def garbage(rng, path):
    kind = rng.randrange(6)
    hello = HELLO % path.encode()
    if kind == 0:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 300)))
    if kind == 1:  # a hello cut or with a byte changed
        h = bytearray(hello)
        if rng.random() < 0.5:
            return bytes(h[:rng.randrange(len(h))])
        h[rng.randrange(len(h) - 1)] = rng.randrange(256)
        return bytes(h)
    if kind == 2:  # a good hello, then bad lines
        lines = [b"a %d" % rng.randrange(10), b"a -1 2", b"a 4095 1", b"a 65536 1", b"a 0 0",
                 b"s x", b"a 0 99999999999999999999", b"\x00\x01", b"k 1", b"a 0 1 2"]
        return hello + rng.choice(lines) + b"\n"
    if kind == 3:  # a batch whose count is wrong
        return hello + b"a 0 1\na 4096 2\ns 3\n"
    if kind == 4:  # a line too long
        return b"x" * 5000 + b"\n"
    return b"\n" * rng.randrange(1, 5)


def silent(tmp):
    """A witness that takes the connection and never answers, and one whose
    host drops it (a full backlog): the writer gives up within seconds and
    the run fails, named; a kill before the witness's ok fails the round."""
    def run(port, runtime):
        t0 = time.monotonic()
        rc, out, err = capture([BIN, "crash", "--name=s", "--filename=" +
                                os.path.join(tmp, "s.dat"), "--size=%d" % SIZE, "--fsync=4",
                                "--rounds=1", "--runtime=" + runtime, "--set",
                                "witness=127.0.0.1:%d/abc" % port], timeout=60)
        return rc, out, err, time.monotonic() - t0

    mute = socket.socket()
    full = socket.socket()
    held = socket.socket()
    try:
        mute.bind(("127.0.0.1", 0))
        mute.listen(8)
        rc, out, err, took = run(mute.getsockname()[1], "300ms")
        check(rc == 1 and "had not answered the writer's hello" in err and
              "nothing was witnessed" in err,
              "killed before a silent witness's ok: exit %d: %r" % (rc, err))
        rc, out, err, took = run(mute.getsockname()[1], "30s")
        print("silent witness: the writer stopped in %.2f s, exit %d" % (took, rc))
        check(rc == 1 and "timed out" in err and took < 12,
              "a silent witness stops the writer: exit %d in %.1f s: %r" % (rc, took, err))
        # One connection fills a backlog of 0: the next SYN is dropped.
        full.bind(("127.0.0.1", 0))
        full.listen(0)
        held.connect(full.getsockname())
        rc, out, err, took = run(full.getsockname()[1], "30s")
        print("unreachable witness: the writer stopped in %.2f s, exit %d" % (took, rc))
        check(rc == 1 and "timed out" in err and took < 12,
              "a witness that never takes the connection: exit %d in %.1f s: %r" %
              (rc, took, err))
    finally:
        held.close()
        full.close()
        mute.close()


def power_cut(tmp):
    """A remote witness's log is a power cut's: a mode that does not wait
    for stable storage (buffered writes) promises only to survive a kill,
    so --check reports its losses as expected, exit 0; a mode that syncs
    promises power, and a loss fails it."""
    log = os.path.join(tmp, "power.log")
    dat = os.path.join(tmp, "power.dat")
    for mode, promise in (([], "kill"), (["--fdatasync=4"], "power")):
        p, port = start_witness(tmp, log, run="beef")
        try:
            rc, out, err = capture([BIN, "crash", "--name=c", "--filename=" + dat,
                                    "--size=%d" % SIZE, "--rounds=1", "--runtime=200ms",
                                    "--set", "witness=127.0.0.1:%d/beef" % port] + mode,
                                   timeout=60)
            check(rc == 0, "a writer %s: exit %d: %s" % (mode, rc, err))
        finally:
            p.send_signal(signal.SIGTERM)
            p.wait(timeout=10)
        lines = open(log).read().splitlines()
        check("promise " + promise in lines and "witness remote" in lines,
              "%s: the remote log says promise %s, witness remote: %s" %
              (mode, promise, lines[:10]))
        # A write the storage lost: an acknowledgement newer than the file.
        with open(log, "a") as f:
            f.write("a 8192 1099511627775\n")
        rc, out, err = capture([BIN, "crash", "--check", "--witness=" + log])
        print("power cut, promise %s, a block lost: exit %d" % (promise, rc))
        if promise == "kill":
            check(rc == 0 and "lost at offset 8192" in out and
                  "losses after a power cut expected" in out,
                  "a kill-only promise's loss after a power cut: exit %d: %s" % (rc, out))
        else:
            check(rc == 1 and "FAILED" in out,
                  "a power promise's loss after a power cut: exit %d: %s" % (rc, out))
        rc, out, err = capture([BIN, "crash", "--check", "--witness=" + log,
                                "--output-format=json"])
        doc = json.loads(out) if rc in (0, 1) else {}
        check(doc.get("promise") == promise and doc.get("power_cut") == "yes" and
              doc.get("result") == ("ok" if promise == "kill" else "failed"),
              "--check's JSON: %s" % {k: doc.get(k) for k in ("promise", "power_cut", "result")})
        os.unlink(log)


def restarted(tmp):
    """A witness restarted over its run's log goes on with it: the next
    writer's generations are newer than any an earlier writer stamped, so
    a block left by that earlier, longer session is a loss, not a pass."""
    log = os.path.join(tmp, "again.log")
    dat = os.path.join(tmp, "again.dat")

    def one(runtime):
        p, port = start_witness(tmp, log, run="c0ffee")
        try:
            rc, out, err = capture([BIN, "crash", "--name=a", "--filename=" + dat,
                                    "--size=%d" % SIZE, "--fsync=8", "--rounds=1",
                                    "--runtime=" + runtime, "--set",
                                    "witness=127.0.0.1:%d/c0ffee" % port], timeout=60)
            check(rc == 0, "a writer of run c0ffee, %s: exit %d: %s%s" % (runtime, rc, out, err))
        finally:
            p.send_signal(signal.SIGTERM)
            p.wait(timeout=10)

    # A log of another run is emptied, none of it carried over.
    with open(log, "w") as f:
        f.write("iogauge crash witness 1\nrun abc\nfile %s\nbs 4096\nsize %d\nverify crc32c\n"
                "mode none\npromise kill\nround 9\na 0 5\nend 9 1\n" % (dat, SIZE))
    one("1s")
    lines = open(log).read().splitlines()
    check("run c0ffee" in lines and "round 1" in lines and "run abc" not in lines and
          not any(ln.startswith("round ") and ln != "round 1" for ln in lines),
          "a log of another run is emptied, its rounds forgotten: %s" %
          [ln for ln in lines if not ln.startswith("a ")])
    shutil.copy(dat, dat + ".first")
    first = sum(1 for ln in open(log) if ln.startswith("a "))
    one("100ms")
    lines = open(log).read().splitlines()
    check(sum(1 for ln in lines if ln.startswith("a ")) > first and "round 2" in lines and
          lines.count("iogauge crash witness 1") == 1,
          "the restarted witness appends its round 2 to the run's log")
    check("going on after its round 1" in open(os.path.join(tmp, "witness.err")).read(),
          "the restarted witness says it goes on with the log")
    # The storage lost every write of the second session.
    shutil.copy(dat + ".first", dat)
    rc, out, err = capture([BIN, "crash", "--check", "--witness=" + log])
    print("restarted witness, the first session's file put back: exit %d" % rc)
    check(rc == 1 and re.search(r" [1-9]\d* lost", out) is not None,
          "the second session's writes, lost, are found lost: exit %d: %s%s" % (rc, out, err))


def main():
    tmp = tempfile.mkdtemp(prefix="iogauge-witness-", dir=os.environ.get("TMPDIR", "/tmp"))
    log = os.path.join(tmp, "acks.log")
    dat = os.path.join(tmp, "w.dat")
    p, port = start_witness(tmp, log)
    try:
        rc, out, err = writer(tmp, port)
        check(rc == 0 and "witnessed remotely" in out and "not checked here" in out,
              "a writer with a remote witness: exit %d: %s%s" % (rc, out, err))
        acked = sum(int(n.replace(",", "")) for n in
                    re.findall(r"round +\d+ +([\d,]+) writes acked", out))
        logged = sum(1 for ln in open(log) if ln.startswith("a "))
        print("remote witness: %d acknowledged, %d in the log" % (acked, logged))
        check(acked > 0 and logged == acked, "each acknowledgement is in the witness's log")
        rc, out, err = capture([BIN, "crash", "--check", "--witness=" + log])
        check(rc == 0 and " 0 lost" in out, "--check of the remote log: exit %d: %s%s" %
              (rc, out, err))

        rc, out, err = writer(tmp, port, run="abd", rounds=1)
        check(rc == 1 and "another run" in err, "another run refused: exit %d, %r" % (rc, err))

        rng = random.Random(24)
        answers = [talk(port, garbage(rng, dat)) for _ in range(200)]
        check(p.poll() is None, "the witness outlives 200 pieces of garbage")
        refused = re.compile(rb"(ok \d+\n)?no [^\n]+\n$")
        check(all(refused.match(a) or a == b"(reset)" for a in answers),
              "each piece refused: %s" % [a for a in answers if not refused.match(a)][:5])
        rc, out, err = writer(tmp, port, rounds=1)
        check(rc == 0, "a good writer after the garbage: exit %d: %s" % (rc, err))
        bad = [ln for ln in open(log) if not re.match(
            r"(iogauge crash witness 1|run [0-9a-f]+|file .+|bs \d+|size \d+|verify \w+|"
            r"mode .+|witness remote|promise \w+|round \d+|a \d+ \d+|end \d+ \d+)$", ln.rstrip("\n"))]
        check(not bad, "the log holds only whole, valid lines: %s" % bad[:3])
        rc, out, err = capture([BIN, "crash", "--check", "--witness=" + log])
        check(rc == 0, "--check after the garbage: exit %d: %s%s" % (rc, out, err))

        # It listens only where it was told.
        s = socket.socket()
        try:
            s.settimeout(5)
            s.connect(("127.0.0.2", port))
            check(False, "the witness answers on 127.0.0.2")
        except OSError:
            check(True, "")
        finally:
            s.close()

        # A log cut short is read to its last whole line; an acknowledgement
        # the file does not hold is a loss at its offset.
        text = open(log).read()
        cut = os.path.join(tmp, "cut.log")
        with open(cut, "w") as f:
            f.write(text[:len(text) - 5])
        rc, out, err = capture([BIN, "crash", "--check", "--witness=" + cut])
        # (its last line is the last round's end: that round reads unended)
        check(rc == 0 and "cut short" in out and "1 round without an end line" in out,
              "a log cut short: exit %d: %s%s" % (rc, out, err))
        extra = os.path.join(tmp, "extra.log")
        with open(extra, "w") as f:
            f.write(text + "a 8192 1099511627775\n")
        rc, out, err = capture([BIN, "crash", "--check", "--witness=" + extra])
        check(rc == 1 and "lost at offset 8192" in out,
              "an acknowledgement the file lacks: exit %d: %s" % (rc, out))
        with open(extra, "w") as f:
            f.write(text + "a %d 5\n" % SIZE)
        rc, out, err = capture([BIN, "crash", "--check", "--witness=" + extra])
        check(rc == 2 and "not an acknowledgement" in err,
              "an acknowledgement outside the file's region: exit %d: %r" % (rc, err))

        # The witness killed mid-stream: the writer stops with an error.
        w = subprocess.Popen([BIN, "crash", "--name=k", "--filename=" + dat, "--size=%d" % SIZE,
                              "--fsync=4", "--rounds=1", "--runtime=20s", "--set",
                              "witness=127.0.0.1:%d/abc" % port], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
        n0 = logged = sum(1 for ln in open(log) if ln.startswith("a "))
        end = time.monotonic() + 20
        while time.monotonic() < end and logged <= n0:
            time.sleep(0.02)
            logged = sum(1 for ln in open(log) if ln.startswith("a "))
        p.send_signal(signal.SIGTERM)
        p.wait(timeout=10)
        t0 = time.monotonic()
        out, err = w.communicate(timeout=30)
        took = time.monotonic() - t0
        print("witness killed: the writer stopped in %.2f s, exit %d" % (took, w.returncode))
        check(w.returncode == 1 and "the witness at 127.0.0.1" in err and took < 5,
              "the writer stops when the witness goes away: exit %d, %r" % (w.returncode, err))
        rc, out, _ = capture([BIN, "crash", "--check", "--witness=" + log])
        check("without an end line" not in out,
              "the witness ends its round when it stops: %s" % out)

        restarted(tmp)
        power_cut(tmp)
        silent(tmp)

        # Bad flags.
        for args, msg in ((["--listen=127.0.0.1:0", "--log=" + log], "--run"),
                          (["--listen=nowhere", "--run=1", "--log=" + log], "--listen"),
                          (["--listen=127.0.0.1:0", "--run=0", "--log=" + log], "--run=0"),
                          (["--bogus"], "unknown option")):
            rc, out, err = capture([BIN, "witness"] + args, timeout=10)
            check(rc == 2 and msg in err, "witness %s: exit %d, %r" % (args, rc, err))
    finally:
        if p.poll() is None:
            p.kill()
        p.wait()
        shutil.rmtree(tmp, ignore_errors=True)
    finish("witness")


if __name__ == "__main__":
    sys.exit(main())
