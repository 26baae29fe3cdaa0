#!/usr/bin/env python3
# fio's command-line flags, each run by fio 3.33 and by iogauge on the
# same job and compared: --showcmd (on fio's examples and ours), --cmdhelp,
# --eta-interval (status lines on a pipe), --eta-newline (kept lines on a
# terminal), --terse-version (fields per version), --warnings-fatal,
# --max-jobs (read and ignored, as fio 3.33 does), --trigger-timeout,
# --trigger-file and --trigger, --client/--server (refused), and the bad
# values of each (exit 2, nothing started).  One
# line per failure, then "flags: N passed, M failed".
#
# Environment (set by CTest): IOGAUGE_BIN, IOGAUGE_SRC.  Skips (77)
# without fio.
import glob
import os
import pty
import select
import shutil
import subprocess
import sys
import tempfile
import time

from clitest import check, concurrently, finish, parts

BIN = os.path.abspath(os.environ["IOGAUGE_BIN"])
SRC = os.environ.get("IOGAUGE_SRC", os.path.join(os.path.dirname(__file__), "..", ".."))
FIO = shutil.which(os.environ.get("FIO", "fio"))
EXAMPLES = "/usr/share/doc/fio/examples"


TMP = None  # the scratch folder, every run's cwd: fio leaves verify state files there


def run(argv, timeout=60):
    p = subprocess.run(argv, cwd=TMP, capture_output=True, text=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def on_pty(argv, cwd):
    """Everything @argv writes to a terminal (stdout and stderr), as text."""
    master, slave = pty.openpty()
    p = subprocess.Popen(argv, cwd=cwd, stdin=slave, stdout=slave, stderr=slave,
                         close_fds=True)
    os.close(slave)
    out = b""
    while True:
        ready, _, _ = select.select([master], [], [], 0.2)
        if ready:
            try:
                data = os.read(master, 65536)
            except OSError:  # EIO: the other side is closed
                break
            if not data:
                break
            out += data
        elif p.poll() is not None:
            break
    p.wait()
    os.close(master)
    return p.returncode, out.decode(errors="replace")


def showcmd(tmp):
    """--showcmd: the same options, names and order as fio's, on every
    example iogauge reads; the first word is the tool's name."""
    files = sorted(glob.glob(os.path.join(SRC, "tests", "data", "fio-examples", "*.fio")))
    files += sorted(glob.glob(os.path.join(EXAMPLES, "*.fio")))
    env = dict(os.environ, IOGAUGE_CMP_BS="16k", IOGAUGE_CMP_DEPTH="6")

    def both(f):
        i = subprocess.run([BIN, "--showcmd", f], capture_output=True, text=True, env=env,
                           cwd=tmp)
        if i.returncode:
            return i, None  # an example iogauge does not read (yet)
        return i, subprocess.run([FIO, "--showcmd", f], capture_output=True, text=True,
                                 env=env, cwd=tmp)
    compared = 0
    # fio takes half a second to start (it calibrates its clock): four at once.
    for f, (i, p) in zip(files, concurrently(both, files)):
        if p is None:
            continue
        fw, iw = p.stdout.split(), i.stdout.split()
        # threads= is the tiobench profile's, which fio reads and ignores and
        # iogauge drops with a warning (waitfor.fio): not on iogauge's line.
        fw = [w for w in fw if not w.startswith("--threads=")]
        check(p.returncode == 0 and fw[:1] == ["fio"] and iw[:1] == ["iogauge"] and
              fw[1:] == iw[1:], "--showcmd %s:\n  fio:     %s\n  iogauge: %s" %
              (f, " ".join(fw), " ".join(iw)))
        compared += 1
    check(compared >= 20, "--showcmd: only %d examples compared" % compared)
    # Values are checked before the line is printed, as in fio.
    bad = os.path.join(tmp, "bad.fio")
    with open(bad, "w") as f:
        f.write("[a]\nrw=bogus\n")
    rc, out, err = run([BIN, "--showcmd", bad])
    frc, _, _ = run([FIO, "--showcmd", bad])
    check(rc == 2 and not out and "rw" in err and frc != 0,
          "--showcmd rw=bogus: iogauge exit %d (%r), fio exit %d" % (rc, err, frc))


def cmdhelp(tmp):
    rc, out, _ = run([BIN, "--cmdhelp=bs"])
    frc, fout, _ = run([FIO, "--cmdhelp=bs"])
    rows = {ln.split(":", 1)[0].strip(): ln.split(":", 1)[1].strip() for ln in out.splitlines()}
    frows = {ln.split(":", 1)[0].strip(): ln.split(":", 1)[1].strip()
             for ln in fout.splitlines() if ":" in ln}
    check(rc == 0 and frc == 0 and "bs" in rows and rows.get("alias") == frows.get("alias") ==
          "blocksize", "--cmdhelp=bs: %r; fio %r" % (out, fout))
    rc, out, _ = run([BIN, "--cmdhelp"])
    _, opts, _ = run([BIN, "--help-options"])
    names = [ln.split(":", 1)[0].strip() for ln in out.splitlines()]
    check(rc == 0 and len(names) == len(opts.splitlines()) and "rw" in names and
          "iodepth" in names, "--cmdhelp: %d rows, --help-options %d" %
          (len(names), len(opts.splitlines())))
    rc, out, err = run([BIN, "--cmdhelp=nosuch"])
    check(rc == 2 and not out and "nosuch" in err, "--cmdhelp=nosuch: exit %d %r" % (rc, err))
    rc, out, err = run([BIN, "--cmdhelp=hostname"])
    check(rc == 2 and "a fio option" in err, "--cmdhelp=hostname: exit %d %r" % (rc, err))
    rc, out, err = run([BIN, "--cmdhelp=cpuload"])
    check(rc == 0 and "engine: cpuio" in out, "--cmdhelp=cpuload: exit %d %r" % (rc, out))


def rate_job(tmp, secs=3):
    """A job that runs @secs seconds at 500 IOPS, whatever the machine."""
    path = os.path.join(tmp, "eta.fio")
    with open(path, "w") as f:
        f.write("[eta]\nfilename=%s/eta.dat\nsize=8m\nrw=randread\nrate_iops=500\n"
                "time_based\nruntime=%d\n" % (tmp, secs))
    return path


def eta(tmp):
    job = rate_job(tmp)
    # On a pipe, with --eta=always: a line per update, every 500 ms here.
    # fio writes its status to stdout, iogauge to stderr.
    _, fout, _ = run([FIO, "--eta=always", "--eta-interval=500ms", "--output=/dev/null", job])
    _, _, ierr = run([BIN, "--eta=always", "--eta-interval=500ms", "--output=/dev/null", job])
    fl = [ln for ln in fout.splitlines() if ln.startswith("Jobs:")]
    il = [ln for ln in ierr.splitlines() if ln.startswith("Jobs:")]
    check(abs(len(fl) - len(il)) <= 1 and 4 <= len(il) <= 7,
          "--eta-interval=500ms over 3 s: fio %d lines, iogauge %d" % (len(fl), len(il)))
    _, _, ierr = run([BIN, "--eta=always", "--output=/dev/null", job])
    n1 = len([ln for ln in ierr.splitlines() if ln.startswith("Jobs:")])
    check(2 <= n1 <= 4, "default interval (1 s) over 3 s: %d lines" % n1)
    # On a terminal: rewritten in place ("\r"), and kept ("\n") about once
    # a second with --eta-newline=1 and an update every 250 ms.
    args = ["--eta=always", "--eta-interval=250ms", "--eta-newline=1", "--output=/dev/null", job]
    _, fout = on_pty([FIO] + args, tmp)
    _, iout = on_pty([BIN] + args, tmp)
    fn, inl = fout.count("\n"), iout.count("\n")
    check(abs(fn - inl) <= 1 and inl >= 1 and iout.count("\r") >= 8,
          "--eta-newline=1 on a terminal: fio %d kept lines, iogauge %d (%d rewrites)" %
          (fn, inl, iout.count("\r")))
    _, iout = on_pty([BIN, "--eta=always", "--eta-interval=250ms", "--output=/dev/null", job],
                     tmp)
    check(iout.count("\n") == 0, "no --eta-newline on a terminal: %d kept lines" %
          iout.count("\n"))


def terse(tmp):
    data = os.path.join(tmp, "t.dat")
    for rw in ("read", "write"):
        for v in ("2", "3", "4", "5"):
            args = ["--minimal", "--terse-version=" + v, "--name=t", "--filename=" + data,
                    "--size=1m", "--rw=" + rw, "--description=desc"]
            frc, fout, _ = run([FIO] + args)
            rc, out, _ = run([BIN] + args)
            ff, fi = fout.split(";"), out.split(";")
            # Fields: read KiB is 5th (v2: 4th after "2;name;group;error"),
            # write KiB 41 further on (v5: 47), trim after write in v2/4/5.
            first = 4 if v == "2" else 5
            step = 47 if v == "5" else 41
            kib = [first + k * step for k in range(3 if v != "3" else 2)]
            check(frc == 0 and rc == 0 and len(ff) == len(fi) and fi[0] == v and
                  [ff[k] for k in kib] == [fi[k] for k in kib] and fi[-1].strip() == "desc",
                  "--terse-version=%s rw=%s: fio %d fields %s, iogauge %d fields %s" %
                  (v, rw, len(ff), [ff[k] for k in kib if k < len(ff)], len(fi),
                   [fi[k] for k in kib if k < len(fi)]))
    for bad in ("1", "6", "x", "33"):
        rc, out, err = run([BIN, "--terse-version=" + bad, "--name=t", "--filename=" + data,
                            "--size=1m"])
        frc, _, _ = run([FIO, "--terse-version=" + bad, "--name=t", "--filename=" + data,
                         "--size=1m", "--parse-only"])
        check(rc == 2 and not out and "--terse-version" in err and frc != 0,
              "--terse-version=%s: exit %d %r (fio %d)" % (bad, rc, err, frc))


def fatal(tmp):
    # Both warn that the read-back of a time_based verify job never starts.
    data = os.path.join(tmp, "v.dat")
    job = ["--name=v", "--filename=" + data, "--size=1m", "--rw=write", "--verify=crc32c",
           "--time_based", "--runtime=1", "--output=/dev/null"]
    frc, _, _ = run([FIO] + job)
    rc, _, err = run([BIN] + job)
    check(frc == 0 and rc == 0 and "warning" in err, "without --warnings-fatal: fio %d, "
          "iogauge %d %r" % (frc, rc, err))
    os.unlink(data)
    frc, _, _ = run([FIO, "--warnings-fatal"] + job)
    rc, out, err = run([BIN, "--warnings-fatal"] + job)
    check(frc != 0 and rc == 2 and "--warnings-fatal" in err and not os.path.exists(data),
          "--warnings-fatal: fio %d, iogauge %d %r, file made: %s" %
          (frc, rc, err, os.path.exists(data)))


def others(tmp):
    data = os.path.join(tmp, "m.dat")
    # fio 3.33 reads --max-jobs and ignores it: three clones run with 2.
    args = ["--max-jobs=2", "--name=m", "--filename=" + data, "--size=1m", "--numjobs=3",
            "--minimal"]
    frc, fout, _ = run([FIO] + args)
    rc, out, _ = run([BIN] + args)
    check(frc == 0 and rc == 0 and len(out.splitlines()) == len(fout.splitlines()) == 3,
          "--max-jobs=2 numjobs=3: fio %d lines, iogauge %d" %
          (len(fout.splitlines()), len(out.splitlines())))
    for argv in (["--max-jobs=0"], ["--max-jobs=x"], ["--eta-interval=100ms"],
                 ["--eta-interval=x"], ["--eta-newline=0"], ["--client=localhost"],
                 ["--server"], ["--client", "host"]):
        rc, out, err = run([BIN] + argv + ["--name=z", "--filename=" + data + "z",
                                           "--size=1m"])
        check(rc == 2 and not out and argv[0].split("=")[0] in err and
              not os.path.exists(data + "z"), "%s: exit %d %r" % (argv, rc, err))
    for argv in (["--eta-interval=100ms"], ["--eta-newline=0"]):
        frc, _, _ = run([FIO] + argv + ["--name=z", "--filename=" + data + "z", "--size=1m",
                                        "--parse-only"])
        check(frc != 0, "fio %s: exit %d" % (argv, frc))


def trigger(tmp):
    """--trigger-timeout and --trigger-file stop a 30 s run early with the
    run's own exit status (0), and --trigger's command runs, as in fio."""
    data = os.path.join(tmp, "tg.dat")
    job = ["--name=t", "--filename=" + data, "--size=4m", "--rw=read", "--time_based",
           "--runtime=30", "--minimal"]
    for tool, name in ((FIO, "fio"), (BIN, "iogauge")):
        done = os.path.join(tmp, name + ".done")
        rc, out, err = run([tool] + job + ["--trigger-timeout=2", "--trigger=touch " + done])
        f = out.split(";")
        ms = int(f[8]) if len(f) > 8 and f[8].isdigit() else -1
        check(rc == 0 and os.path.exists(done) and 1500 <= ms <= 6000,
              "%s --trigger-timeout=2: exit %d, command ran: %s, runtime %d ms %s" %
              (name, rc, os.path.exists(done), ms, err[-200:]))
        done = os.path.join(tmp, name + ".done2")
        tfile = os.path.join(tmp, name + ".trigger")
        p = subprocess.Popen([tool] + job + ["--trigger-file=" + tfile,
                                             "--trigger=touch " + done],
                             cwd=tmp, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        time.sleep(1.5)
        open(tfile, "w").close()
        try:
            out, err = p.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            p.kill()
            out, err = p.communicate()
        f = out.split(";")
        ms = int(f[8]) if len(f) > 8 and f[8].isdigit() else -1
        check(p.returncode == 0 and os.path.exists(done) and not os.path.exists(tfile) and
              0 < ms <= 8000,
              "%s --trigger-file: exit %d, command ran: %s, file left: %s, runtime %d ms" %
              (name, p.returncode, os.path.exists(done), os.path.exists(tfile), ms))
    for argv in (["--trigger-timeout=500ms"], ["--trigger-timeout=x"], ["--trigger-remote=ls"],
                 ["--trigger="], ["--trigger-file="]):
        rc, out, err = run([BIN] + argv + job)
        check(rc == 2 and not out and argv[0].split("=")[0] in err,
              "%s: exit %d %r" % (argv, rc, err))


def crctest(tmp):
    """--crctest: fio's lines (name, tabs, %8.2f MiB/sec) for the checksums
    both have, in fio's order, none slower than a quarter of fio's speed on
    this CPU (Nettle's SHAs are many times faster; not checked for a
    sanitizer's build)."""
    import re
    names = ["md5", "crc64", "crc32", "crc32c", "crc16", "crc7", "sha1", "sha256", "sha512",
             "xxhash", "sha3-224", "sha3-256", "sha3-384", "sha3-512"]
    rc, out, err = run([BIN, "--crctest"])
    frc, fout, _ = run([FIO, "--crctest=" + ",".join(names)])
    line = re.compile(r"^([a-z0-9-]+):(\t\t?)( *[0-9]+\.[0-9]{2}) MiB/sec$")
    mine = [line.match(ln) for ln in out.splitlines()]
    theirs = [line.match(ln) for ln in fout.splitlines()]
    ok = rc == 0 and frc == 0 and all(mine) and all(theirs) and \
        [m.group(1) for m in mine] == [m.group(1) for m in theirs] == names
    check(ok, "--crctest: iogauge %r, fio %r" % (out, fout))
    # A sanitizer's build is many times slower: its speeds say nothing.
    with open(BIN, "rb") as f:
        slow = b"__asan_init" in f.read()
    if ok:
        for m, t in zip(mine, theirs):
            a, b = float(m.group(3)), float(t.group(3))
            check(m.group(2) == t.group(2) and a > 0 and (slow or b / 4 <= a),
                  "--crctest %s: iogauge %.2f MiB/s, fio %.2f" % (m.group(1), a, b))
    rc, out, _ = run([BIN, "--crctest=crc32c,md5"])
    check(rc == 0 and [ln.split(":")[0] for ln in out.splitlines()] == ["md5", "crc32c"],
          "--crctest=crc32c,md5: %r" % out)
    rc, out, _ = run([BIN, "--crctest=list"])
    check(rc == 0 and out.split() == names, "--crctest=list: %r" % out)
    for bad in ("murmur3", "bogus", "md5,nope"):
        rc, out, err = run([BIN, "--crctest=" + bad])
        check(rc == 2 and not out and "--crctest" in err, "--crctest=%s: exit %d %r %r" %
              (bad, rc, out, err))


def bandwidth_log(tmp):
    """--bandwidth-log with the status line: agg-{read,write,trim}_bw.log in
    the current folder, fio's "ms, KiB/s, dir, 0, 0" lines, whose mean rate
    (each sample's KiB/s over the time it covers) is the run's bandwidth as
    the report gives it, in both tools, and the same in both, within 20%:
    a sample sees the bytes published so far (iogauge's clones publish per
    500 ms window), so the last half second may miss the last sample.
    Without a status line, as fio: empty files."""
    import json
    import re
    job = ["--name=b", "--filename=" + os.path.join(tmp, "bw.dat"), "--size=4m",
           "--rw=randrw", "--rwmixread=80", "--time_based", "--runtime=4",
           "--rate_iops=160,40", "--bandwidth-log", "--output=" + os.path.join(tmp, "bw.json")]
    line = re.compile(r"^([0-9]+), ([0-9]+), ([012]), 0, 0$")
    rates = {}
    for tool, name in ((FIO, "fio"), (BIN, "iogauge")):
        for f in glob.glob(os.path.join(tmp, "agg-*")):
            os.unlink(f)
        rc, out, err = run([tool, "--eta=always", "--output-format=json"] + job)
        got = []
        for d, n in enumerate(("read", "write", "trim")):
            path = os.path.join(tmp, "agg-%s_bw.log" % n)
            rows = []
            if os.path.exists(path):
                with open(path) as f:
                    rows = [line.match(ln) for ln in f.read().splitlines()]
            ok = len(rows) >= 2 and all(rows) and all(int(m.group(3)) == d for m in rows)
            check(rc == 0 and ok, "%s --bandwidth-log: %s: %s" %
                  (name, path, "missing" if not os.path.exists(path) else "bad lines"))
            t = [int(m.group(1)) for m in rows] if ok else [1]
            v = [int(m.group(2)) for m in rows] if ok else [0]
            kib = sum(v[i] * (t[i] - (t[i - 1] if i else 0)) / 1000 for i in range(len(t)))
            got.append(kib * 1000 / t[-1])
        rep = [0, 0]
        if rc == 0:
            with open(os.path.join(tmp, "bw.json")) as f:
                j = json.load(f)["jobs"][0]
            rep = [j["read"]["bw"], j["write"]["bw"]]
        check(all(abs(g - r) <= 0.2 * max(r, 1) for g, r in zip(got[:2], rep)) and
              got[2] == 0, "%s --bandwidth-log: samples' mean %s KiB/s, report %s" %
              (name, got, rep))
        rates[name] = got
        for f in glob.glob(os.path.join(tmp, "agg-*")):
            os.unlink(f)
        # No status line: no samples, but fio's JSON report takes one (a
        # second of the same job shows it as well as four).
        short = [a if a != "--runtime=4" else "--runtime=1" for a in job]
        for fmt, want in (("normal", 0), ("json", 1)):
            for f in glob.glob(os.path.join(tmp, "agg-*")):
                os.unlink(f)
            rc, _, _ = run([tool, "--eta=never"] + short + ["--output-format=" + fmt])
            lines = []
            for p in sorted(glob.glob(os.path.join(tmp, "agg-*"))):
                with open(p) as f:
                    lines.append(len(f.read().splitlines()))
            check(rc == 0 and lines == [want] * 3, "%s --bandwidth-log --eta=never "
                  "--output-format=%s: %s lines" % (name, fmt, lines))
    f, i = rates["fio"], rates["iogauge"]
    check(all(abs(a - b) <= 0.2 * max(a, b, 1) for a, b in zip(f[:2], i[:2])) and
          i[0] > 3 * i[1] > 0,
          "--bandwidth-log mean KiB/s read, write, trim: fio %s, iogauge %s" % (f, i))


def main():
    if not FIO:
        print("SKIP: fio is not installed")
        sys.exit(77)
    global TMP
    tmp = TMP = tempfile.mkdtemp(prefix="flags.")
    try:
        # "timed": status lines per interval, runtimes, checksum speeds
        # and paced rates (CTest runs it alone); "parsed": the rest.
        for f in parts({"parsed": [showcmd, cmdhelp, terse, fatal, others],
                        "timed": [eta, trigger, crctest, bandwidth_log]}):
            f(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    finish("flags")


if __name__ == "__main__":
    main()
