#!/usr/bin/env python3
# Hostile input to what landed in round 4 (iogauge compare, witness, sweep):
# each check is a finding that once broke, with the behaviour it has now.
# compare given /dev/zero is refused at 256 MiB (it took all memory);
# witness refuses a port past 65535 (it listened on PORT mod 65536) and a
# log it cannot write (it listened, and failed at the first writer);
# sweep --plot=FILE exits 2 before any point (it ran them all, then failed
# naming --output=), and a full disk under --plot names --plot and the file;
# crash --witness=FOLDER exits 2 before the writer (it ran, then exit 1)
# and crash --check --witness=FOLDER names EISDIR (exit 1, 'a read failed');
# a silent or trickling peer holds the witness 2 s at most before its hello
# (30 s: the writer queued behind it was killed with 0 acknowledgements);
# compare refuses a report with negative figures or figures past 2^64
# (iops_samples=1e300 was cast to uint64_t: UBSan; -1e308 IOPS was a
# 300-digit cell and a change of +inf%); --plot on a full disk leaves no
# cut SVG (an empty x.1_lat-read.svg stayed, which no XML reader takes);
# compare, sweep and slo refuse an --output that is one of their inputs
# (the report replaced the report or job file it was made from), and so
# do a plain run and iogauge crash (iogauge JOB --output=JOB); crash
# --check refuses a log header of bs=1 or 2^64 bytes (the checker's table
# was calloc'ed for size/bs blocks: ASan's calloc overflow), and a writer
# of more than 2^32 blocks is refused before it starts; sweep refuses two
# axes that are one option (--bs=4k,64k --blocksize=8k measured 8 KiB at
# both points, labelled 4k and 64k); a --trigger that hangs no longer holds
# crash's SIGTERM (it waited 29 s for 'sleep 30'): its group is killed;
# the witness refuses a hello whose region the checker cannot check (it
# logged bs=1 or verify=nonsense, a log useless after the power cut).
# Round 5 (pts, on loop devices over its own tmpfs, as root): pts refuses
# a partition, a disk whose kernel partitions outlived its table, a device
# under a stacked loop device, a read-only device, a --mixes that wraps and
# an --ioengine that moves no blocks, a --plot that is a file (each ran,
# or failed after writing);
# a second pts on a device in use (pts now holds it O_EXCL); killed with
# SIGKILL, pts, sweep and slo leave no child running.  sweep
# refuses a --set of an axis and slo one of rate_iops or percentile_list
# (each set it over the user's, unsaid).  crash says 'nothing checked' when
# no write was acknowledged (it said 'ok'); act's --test-duration past
# 2^62 ns names the flag.
#
# Environment (set by CTest): IOGAUGE_BIN.
import os
import shutil
import stat
import subprocess
import sys
import tempfile

from clitest import check, finish, tmpfs

BIN = os.path.abspath(os.environ["IOGAUGE_BIN"])


def run(args, timeout=20, **kw):
    p = subprocess.run([BIN] + args, capture_output=True, text=True, timeout=timeout, **kw)
    return p.returncode, p.stdout, p.stderr


def small_report(tmp):
    out = os.path.join(tmp, "a.json")
    rc, _, err = run(["--name=j", "--ioengine=null", "--size=1m", "--rw=read",
                      "--output-format=json", "--output=" + out])
    check(rc == 0, "the null run for a report: exit %d: %s" % (rc, err))
    return out


def compare_endless(tmp, report):
    """An endless input (/dev/zero) is refused at 256 MiB, exit 2, naming
    it (it was read into memory until the machine ran out)."""
    rc, out, err = run(["compare", report, "/dev/zero"], timeout=10)
    check(rc == 2 and "/dev/zero: not a JSON report (over 256 MiB)" in err and not out,
          "compare /dev/zero: exit %d, %r" % (rc, err[-300:]))


def witness_bad(tmp):
    """Bad --listen and --log exit 2 at once, naming the flag as given,
    leaving no log behind; an existing log is not emptied by a refusal."""
    log = os.path.join(tmp, "w.log")
    for listen, log_path, want in (
            ("127.0.0.1:99999", log, "--listen=127.0.0.1:99999: the port is 0 to 65535"),
            ("[::1]:65536", log, "--listen=[::1]:65536: the port is 0 to 65535"),
            ("127.0.0.1:1x", log, "--listen=127.0.0.1:1x: the port is 0 to 65535"),
            ("127.0.0.1:0", tmp, "--log=%s: Is a directory" % tmp),
            ("127.0.0.1:0", os.path.join(tmp, "no", "w.log"),
             "--log=%s: No such file or directory" % os.path.join(tmp, "no", "w.log"))):
        try:
            rc, out, err = run(["witness", "--run=1", "--listen=" + listen, "--log=" + log_path],
                               timeout=5)
        except subprocess.TimeoutExpired:
            rc, out, err = -1, "", "listened (timed out)"
        check(rc == 2 and want in err and not out, "witness --listen=%s --log=%s: exit %d, %r"
              % (listen, log_path, rc, err))
    check(not os.path.exists(log), "a refused witness left %s" % log)
    with open(log, "w") as f:
        f.write("keep\n")
    run(["witness", "--run=1", "--listen=127.0.0.1:70000", "--log=" + log], timeout=5)
    check(open(log).read() == "keep\n", "a refused witness emptied an existing log")


def write_job(tmp):
    job = os.path.join(tmp, "j.ini")
    with open(job, "w") as f:
        f.write("[j]\nioengine=null\nsize=1m\nbs=4k\nrw=read\n")
    return job


def sweep_plot_not_dir(tmp, job):
    """--plot naming a file: exit 2 before any point runs, the file as it
    was; --plot on a full tmpfs: exit 1 naming --plot, the SVG and ENOSPC."""
    notdir = os.path.join(tmp, "plots")
    with open(notdir, "w") as f:
        f.write("mine\n")
    rc, out, err = run(["sweep", job, "--iodepth=1,2", "--plot=" + notdir])
    check(rc == 2 and "--plot=%s: Not a directory" % notdir in err and "(1/2)" not in err
          and not out and open(notdir).read() == "mine\n",
          "sweep --plot=FILE: exit %d, %r" % (rc, err))
    mnt = os.path.join(tmp, "mnt")
    os.mkdir(mnt)
    with tmpfs(mnt, "256k", "hostile_new") as ok:
        if not ok:
            print("note: no tmpfs (not root?): the full --plot folder is not tried")
            return
        with open(os.path.join(mnt, "fill"), "wb") as f:
            try:
                f.write(b"\0" * (1 << 20))
            except OSError:
                pass
        rc, out, err = run(["sweep", job, "--iodepth=1", "--plot=" + mnt])
        want = "--plot: %s/iops.svg: the report is not written: No space left" % mnt
        check(rc == 1 and want in err and "iodepth" in out
              and not os.path.exists(os.path.join(mnt, "iops.svg")),
              "sweep --plot on a full disk: exit %d, %r" % (rc, err))


def crash_witness_folder(tmp):
    """A folder or a missing folder as crash's --witness: exit 2 naming the
    flag and the errno text, the job's file never made, no log left."""
    data = os.path.join(tmp, "c.dat")
    for log in (tmp, os.path.join(tmp, "no", "w.log")):
        rc, out, err = run(["crash", "--name=c", "--filename=" + data, "--size=64k",
                            "--bs=4k", "--rw=write", "--runtime=100ms", "--rounds=1",
                            "--witness=" + log])
        why = "Is a directory" if log == tmp else "No such file or directory"
        check(rc == 2 and "--witness=%s: %s" % (log, why) in err and not out
              and not os.path.exists(data), "crash --witness=%s: exit %d, %r" % (log, rc, err))
    rc, out, err = run(["crash", "--check", "--witness=" + tmp])
    check(rc == 2 and "witness log %s: Is a directory" % tmp in err and not out,
          "crash --check --witness=FOLDER: exit %d, %r" % (rc, err))


def witness_slow_peers(tmp):
    """A silent peer and one trickling a byte each 100 ms are hung up on
    within 3 s of connecting (the hello's 2 s), the witness still serving."""
    import socket
    import time
    log = os.path.join(tmp, "slow.log")
    w = subprocess.Popen([BIN, "witness", "--listen=127.0.0.1:0", "--run=abc", "--log=" + log],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        port = int(w.stdout.readline().rsplit(":", 1)[1])
        silent = socket.create_connection(("127.0.0.1", port))
        trickle = socket.create_connection(("127.0.0.1", port))
        t0 = time.monotonic()
        silent.settimeout(10)
        got = silent.recv(200)
        t_silent = time.monotonic() - t0
        trickle.settimeout(0.1)
        got2 = b""
        while time.monotonic() - t0 < 10 and not got2:
            try:
                trickle.sendall(b"h")
                got2 = trickle.recv(200)
            except socket.timeout:
                pass
            except OSError:
                break
        t_trickle = time.monotonic() - t0
        check(got.startswith(b"no no hello") and t_silent < 3,
              "a silent peer: %r after %.1f s" % (got, t_silent))
        check(got2.startswith(b"no no hello") and t_trickle < 6,
              "a trickling peer: %r after %.1f s" % (got2, t_trickle))
        hello = socket.create_connection(("127.0.0.1", port))
        hello.settimeout(5)
        hello.sendall(b"garbage\n")
        check(hello.recv(200).startswith(b"no "), "the witness does not serve after slow peers")
    finally:
        w.terminate()
        w.wait(timeout=5)


def compare_bad_figures(tmp, report):
    """Negative and past-2^64 figures in B or A: exit 2 naming the file,
    the job and the figure, nothing on standard output."""
    import json
    for key, where, value in (("iops_samples", "read", 1e300), ("iops", "read", -1e308),
                              ("N", "clat", -5), ("mean", "clat", 1.8446744073709552e19),
                              ("percentile", "pct", 2e19)):
        with open(report) as f:
            doc = json.load(f)
        r = doc["jobs"][0]["read"]
        if where == "read":
            r[key] = value
        elif where == "clat":
            r["clat_ns"][key] = value
        else:
            r["clat_ns"]["percentile"]["99.000000"] = value
        bad = os.path.join(tmp, "bad_%s.json" % key)
        with open(bad, "w") as f:
            json.dump(doc, f)
        for pair in ((report, bad), (bad, report)):
            rc, out, err = run(["compare", "--output-format=json"] + list(pair))
            want = "%s: job 'j', read: its %s is negative or past 2^64" % (bad, key)
            check(rc == 2 and want in err and not out and "runtime error" not in err,
                  "compare %s=%g: exit %d, %r" % (key, value, rc, err))


def plot_full_disk(tmp):
    """A run's --plot on a full tmpfs: exit 1 naming the SVG and ENOSPC,
    and no SVG left there."""
    mnt = os.path.join(tmp, "mnt_plot")
    os.mkdir(mnt)
    with tmpfs(mnt, "64k", "hostile_new") as ok:
        if not ok:
            print("note: no tmpfs (not root?): --plot on a full disk is not tried")
            return
        with open(os.path.join(mnt, "fill"), "wb") as f:
            try:
                f.write(b"\0" * (1 << 20))
            except OSError:
                pass
        rc, out, err = run(["--name=x", "--ioengine=null", "--size=1m", "--rw=randread",
                            "--runtime=100ms", "--time_based", "--plot=" + mnt])
        left = [n for n in os.listdir(mnt) if n.endswith(".svg")]
        check(rc == 1 and "%s/x.1_lat-read.svg: cannot write: No space left" % mnt in err
              and not left, "--plot on a full disk: exit %d, %r, left %s" % (rc, err, left))


def output_is_input(tmp, report, job):
    """--output naming an input (or a link to one): exit 2 naming both,
    nothing run, the input as it was."""
    import shutil
    rep = os.path.join(tmp, "in.json")
    shutil.copy(report, rep)
    link = os.path.join(tmp, "link.json")
    os.symlink(rep, link)
    before = open(rep).read()
    rc, out, err = run(["compare", report, rep, "--output=" + link])
    check(rc == 2 and "--output=%s is %s, a report compared" % (link, rep) in err
          and open(rep).read() == before, "compare --output=B: exit %d, %r" % (rc, err))
    jb = open(job).read()
    for cmd in (["sweep", job, "--iodepth=1"], ["slo", job, "--target=p99<=1ms"]):
        rc, out, err = run(cmd + ["--output=" + job])
        check(rc == 2 and "--output=%s is %s, a job file" % (job, job) in err
              and "(1/1)" not in err and open(job).read() == jb,
              "%s --output=JOBFILE: exit %d, %r" % (cmd[0], rc, err))
    rc, out, err = run([job, "--output=" + job])
    check(rc == 2 and "--output=%s is %s, a job file" % (job, job) in err
          and open(job).read() == jb, "iogauge JOB --output=JOB: exit %d, %r" % (rc, err))
    cjob = os.path.join(tmp, "c.ini")
    with open(cjob, "w") as f:
        f.write("[c]\nfilename=%s/c5.dat\nsize=64k\nrounds=1\nruntime=100ms\n" % tmp)
    rc, out, err = run(["crash", cjob, "--output=" + cjob])
    check(rc == 2 and "--output=%s is %s, a job file" % (cjob, cjob) in err
          and open(cjob).read().startswith("[c]") and not os.path.exists(tmp + "/c5.dat"),
          "crash JOB --output=JOB: exit %d, %r" % (rc, err))


def crash_huge_header(tmp):
    """A witness log whose header asks for a table past 2^32 blocks or with
    blocks smaller than a stamp: exit 2 naming file:line; a job of 16 TiB
    in 48-byte blocks: exit 2 naming size, its file not made."""
    for bs, size in ((1, 65536), (4096, 18446744073709547520), (64, 1 << 40)):
        log = os.path.join(tmp, "huge.log")
        with open(log, "w") as f:
            f.write("iogauge crash witness 1\nrun abc\nfile %s/x\nbs %d\nsize %d\n"
                    "verify crc32c\nmode none\npromise kill\nround 1\na 0 1\nend 1 1\n"
                    % (tmp, bs, size))
        rc, out, err = run(["crash", "--check", "--witness=" + log])
        check(rc == 2 and "huge.log:8: a header with a bad bs, size or verify" in err
              and "Sanitizer" not in err, "--check bs=%d size=%d: exit %d, %r"
              % (bs, size, rc, err[-300:]))
    data = os.path.join(tmp, "huge.dat")
    rc, out, err = run(["crash", "--name=x", "--filename=" + data, "--size=16t", "--bs=48",
                        "--rw=write"])
    check(rc == 2 and "the checker holds 4294967296 at most" in err
          and not os.path.exists(data), "crash size=16t bs=48: exit %d, %r" % (rc, err))


def sweep_alias_axes(job):
    """An option and its alias as two axes: exit 2 naming both, nothing run."""
    for a, b in (("--bs=4k,64k", "--blocksize=8k"), ("--readwrite=write", "--rw=read")):
        rc, out, err = run(["sweep", job, a, b])
        want = "%s: the same option as %s, given twice" % (b.split("=")[0], a.split("=")[0])
        check(rc == 2 and want in err and not out and "(1/" not in err,
              "sweep %s %s: exit %d, %r" % (a, b, rc, err))


def set_over_own(job):
    """A --set of what the command sets itself at each run: exit 2 naming
    both, nothing run.  sweep --bs=4k,8k --set bs=1k measured 4k and 8k
    and dropped the 1k unsaid; slo --set rate_iops=5 capped its capacity
    run at 5 IOPS, then searched rates over it; --set percentile_list was
    dropped for the targets'."""
    for argv, want in (
            (["sweep", job, "--bs=4k,8k", "--set", "bs=1k"],
             "--set bs=1k: --bs is an axis of this sweep"),
            (["sweep", job, "--bs=4k,8k", "--set=blocksize=1k"],
             "--set blocksize=1k: --bs is an axis of this sweep"),
            (["slo", job, "--target=p99<=1ms", "--set", "rate_iops=5"],
             "--set rate_iops=5: slo sets rate_iops itself"),
            (["slo", job, "--target=p99<=1ms", "--set", "percentile_list=99"],
             "--set percentile_list=99: slo sets percentile_list itself")):
        rc, out, err = run(argv)
        check(rc == 2 and want in err and not out and "(1/" not in err
              and "the job as written" not in err,
              "%s: exit %d, %r" % (" ".join(argv[2:]), rc, err))


def crash_nothing_acked(tmp):
    """A round killed before the writer's first acknowledgement
    (runtime=1ns) is not a pass: 'ok: every acknowledged write survived'
    was printed over 0 acknowledged writes.  Up to 8 tries, until one
    acknowledges nothing (about 1 in 3 here)."""
    for _ in range(8):
        rc, out, err = run(["crash", "--name=c", "--filename=%s/nothing.dat" % tmp, "--size=64k",
                            "--bs=4k", "--rw=write", "--rounds=1", "--runtime=1ns"])
        if "total: 0 acked" in out:
            check(rc == 0 and "nothing checked: no write was acknowledged" in out
                  and "ok:" not in out, "crash runtime=1ns, 0 acked: exit %d, %r" % (rc, out))
            return
        check(rc == 0 and "ok: every acknowledged write survived" in out,
              "crash runtime=1ns: exit %d, %r" % (rc, out[-300:]))


def act_duration_limit(tmp):
    """--test-duration past runtime='s 2^62 ns names the flag (exit 2); it
    blamed the profile's job line ('--profile=act:7: runtime').  The
    largest (4611686018 s, 147 slices of a year) parses."""
    dev = os.path.join(tmp, "act.dat")
    with open(dev, "wb") as f:
        f.truncate(1 << 20)
    base = ["--profile=act", "--device-names=" + dev, "--slice-duration=31536000",
            "--parse-only"]
    for secs in ("4611686019", "18446744073"):
        rc, out, err = run(base + ["--test-duration=" + secs])
        check(rc == 2 and "--test-duration=%s: a whole number of seconds from 1 to 4611686018"
              % secs in err and "runtime" not in err.split("expected")[0],
              "act --test-duration=%s: exit %d, %r" % (secs, rc, err[-300:]))
    rc, out, err = run(base + ["--test-duration=4611686018"])
    check(rc == 0, "act --test-duration=4611686018: exit %d, %r" % (rc, err[-300:]))


def crash_trigger_hangs(tmp):
    """SIGTERM while --trigger='sleep 31.5' runs: exit 143 within 2 s (the
    bar is half a second; the margin is for a loaded machine), the round
    reported, the sleep gone."""
    import signal
    import time
    p = subprocess.Popen([BIN, "crash", "--name=c", "--filename=%s/trig.dat" % tmp, "--size=64k",
                          "--bs=4k", "--rw=write", "--rounds=2", "--runtime=200ms",
                          "--trigger=sleep 31.5"], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    time.sleep(0.8)
    t0 = time.monotonic()
    p.send_signal(signal.SIGTERM)
    try:
        out, err = p.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
    took = time.monotonic() - t0
    left = subprocess.run(["pgrep", "-f", "sleep 31.5"], capture_output=True).returncode == 0
    check(p.returncode == 143 and took < 2 and "round  1" in out and not left,
          "SIGTERM during a hanging --trigger: exit %d after %.2f s, sleep left %s, %r"
          % (p.returncode, took, left, out[-300:]))


def witness_uncheckable_hello(tmp):
    """Hellos of 1-byte blocks, 2^40 blocks or an unknown checksum get 'no'
    and leave the log without a header; a good one is answered 'ok'."""
    import socket
    log = os.path.join(tmp, "hello.log")
    w = subprocess.Popen([BIN, "witness", "--listen=127.0.0.1:0", "--run=abc", "--log=" + log],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        port = int(w.stdout.readline().rsplit(":", 1)[1])
        for bs, size, verify, want in ((1, 65536, "crc32c", b"no a bs, size or verify"),
                                       (64, 1 << 46, "crc32c", b"no a bs, size or verify"),
                                       (4096, 65536, "nonsense", b"no a bs, size or verify"),
                                       (4096, 65536, "crc32c", b"ok ")):
            if want == b"ok ":
                check(open(log).read() == "", "the refused hellos wrote the log")
            c = socket.create_connection(("127.0.0.1", port))
            c.settimeout(5)
            c.sendall(b"iogauge-witness 1 abc %d %d %s kill\tnone\t%s/f\n"
                      % (bs, size, verify.encode(), tmp.encode()))
            got = c.recv(200)
            check(got.startswith(want), "hello bs=%d size=%d verify=%s: %r" %
                  (bs, size, verify, got))
            c.close()
    finally:
        w.terminate()
        w.wait(timeout=5)


def filename_is_dir(tmp):
    """filename= naming a folder is bad input (exit 2, named, nothing made
    in it), for reads, writes and --profile=act; fio 3.33 exits 1 at its
    unlink (EISDIR)."""
    d = os.path.join(tmp, "adir")
    os.mkdir(d)
    for rw in ("read", "write"):
        rc, out, err = run(["--name=a", "--filename=" + d, "--size=1m", "--rw=" + rw])
        check(rc == 2 and "%s: is a directory: filename=" % d in err and os.listdir(d) == [],
              "filename=FOLDER rw=%s: exit %d, %r" % (rw, rc, err))
    rc, out, err = run(["--profile=act", "--device-names=" + d, "--test-duration=1"])
    check(rc == 2 and "is a directory" in err and os.listdir(d) == [],
          "act on a folder: exit %d, %r" % (rc, err[-300:]))


def digest(path):
    import hashlib
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def pts_run(dev, *args, timeout=20):
    return run(["pts", "iops", dev, "--destroy-data", "--cell-time=0.05", "--max-rounds=1",
                "--precondition-loops=0", "--bs=4k"] + list(args), timeout=timeout)


def loop_on(target, *flags):
    """A loop device over @target: the highest free one (the first ones are
    the likeliest to be another test's), else a new one; or None."""
    import re
    nums = sorted((int(m.group(1)) for m in (re.fullmatch(r"loop(\d+)", e)
                                               for e in os.listdir("/dev")) if m), reverse=True)
    for n in nums:
        if os.path.exists("/sys/block/loop%d/loop" % n):
            continue
        r = subprocess.run(["losetup"] + list(flags) + ["/dev/loop%d" % n, target],
                           capture_output=True, text=True)
        if r.returncode == 0:
            return "/dev/loop%d" % n
    # All taken: losetup -f makes a new one.
    r = subprocess.run(["losetup", "-f", "--show"] + list(flags) + [target],
                       capture_output=True, text=True)
    return r.stdout.strip() if r.returncode == 0 else None


def pts_not_whole(tmp, a, c):
    """pts refuses what devsafe.c passes but is no whole, unused device:
    a partition (it ran on loopNp1 while loopNp2 was mounted), a disk
    whose table is wiped while the kernel still has its partitions, a
    device with a loop device stacked on it (its data was destroyed), a
    read-only device (exit 1 at the first write, the purge's EPERM called
    'no discard'), and a --mixes that wraps (4294967295/101 and -1/101 were
    read as 100%, and failed in the child after the device was written).
    Each: exit 2, named, the device unchanged."""
    subprocess.run(["sfdisk", "-q", c], input="label: dos\n,2M\n,\n", text=True,
                   capture_output=True)
    # This kernel's re-read leaves them out: partx adds them (BLKPG).
    subprocess.run(["partx", "-a", c], capture_output=True)
    sysdir = "/sys/class/block/%s" % os.path.basename(c)
    parts = sorted(e for e in os.listdir(sysdir) if os.path.exists(os.path.join(sysdir, e,
                                                                                "partition")))
    check(len(parts) == 2, "losetup -P and sfdisk made 2 partitions: %r" % parts)
    if len(parts) != 2:
        return
    # No udev here: the partition's node is made in our own tmpfs.
    with open(os.path.join(sysdir, parts[0], "dev")) as f:
        ma, mi = (int(x) for x in f.read().split(":"))
    node = os.path.join(tmp, "part 1")
    os.mknod(node, 0o600 | 0o060000, os.makedev(ma, mi))
    before = digest(c)
    rc, out, err = pts_run(node)
    check(rc == 2 and "%s is a partition of /dev/%s: PTS runs only on a whole device; nothing "
          "was written" % (node, os.path.basename(c)) in err and not out,
          "pts on a partition: exit %d, %r" % (rc, err))
    # The table's signature zeroed: the kernel keeps the partitions.
    with open(c, "r+b") as f:
        f.seek(510)
        f.write(b"\0\0")
    before = digest(c)
    rc, out, err = pts_run(c)
    check(rc == 2 and any("%s is in use: /dev/%s is a partition of %s" % (c, e, c) in err
                          for e in parts),
          "pts on a disk with partitions and no table: exit %d, %r" % (rc, err))
    check(digest(c) == before, "the partitioned device is unchanged")
    os.unlink(node)
    # A loop device stacked on A.
    up = loop_on(a)
    before = digest(a)
    rc, out, err = pts_run(a)
    if up:
        subprocess.run(["losetup", "-d", up])
    check(rc == 2 and "%s is in use: %s is a loop device on %s from byte 0" % (a, up, a) in err,
          "pts under a stacked loop device: exit %d, %r" % (rc, err))
    # The same through a node that was then removed: sysfs says only
    # "(deleted)", so which device it is built on cannot be told (review).
    st = os.stat(a)
    gone = os.path.join(tmp, "gone-node")
    os.mknod(gone, 0o600 | stat.S_IFBLK, st.st_rdev)
    up = loop_on(gone)
    os.unlink(gone)
    rc, out, err = pts_run(a)
    if up:
        subprocess.run(["losetup", "-d", up])
    check(rc == 2 and "%s may be in use: %s (backing %s (deleted))" % (a, up, gone) in err and
          digest(a) == before,
          "pts under a loop device on a removed node: exit %d, %r" % (rc, err))
    subprocess.run(["blockdev", "--setro", a])
    rc, out, err = pts_run(a)
    subprocess.run(["blockdev", "--setrw", a])
    check(rc == 2 and "%s: read-only (blockdev --getro)" % a in err,
          "pts on a read-only device: exit %d, %r" % (rc, err))
    # An engine that moves no blocks, or the page cache's: the child
    # refused null only after the purge had discarded the device (exit 1),
    # and filecreate and mmap 'measured' a million IOPS.
    for engine, want in (("null", "PTS reads and writes the device's blocks"),
                         ("filecreate", "PTS reads and writes the device's blocks"),
                         ("nonsense", "PTS reads and writes the device's blocks"),
                         ("mmap", "always goes through the page cache")):
        rc, out, err = pts_run(a, "--ioengine=" + engine)
        check(rc == 2 and "--ioengine=%s: %s" % (engine, want) in err and not out,
              "pts --ioengine=%s: exit %d, %r" % (engine, rc, err[-300:]))
    for mixes in ("0/100,4294967295/101", "-1/101", "0/100,+0/+100"):
        rc, out, err = pts_run(a, "--mixes=" + mixes)
        check(rc == 2 and "--mixes=%s: '%s' is not a read/write mix" % (mixes, mixes.split(",")[-1])
              in err, "pts --mixes=%s: exit %d, %r" % (mixes, rc, err))
    # --plot naming a file: the whole run went by, then exit 1 naming
    # --output= and the SVG.
    plotfile = os.path.join(tmp, "plotfile")
    with open(plotfile, "w") as f:
        f.write("mine\n")
    rc, out, err = pts_run(a, "--mixes=0/100", "--plot=" + plotfile)
    check(rc == 2 and "--plot=%s: not a folder; nothing was written" % plotfile in err
          and open(plotfile).read() == "mine\n" and not out,
          "pts --plot=FILE: exit %d, %r" % (rc, err[-300:]))
    check(digest(a) == before, "the refusals left the device unchanged")


def orphans(marker):
    """Processes whose command line holds @marker."""
    found = []
    for pid in os.listdir("/proc"):
        try:
            with open("/proc/%s/cmdline" % pid, "rb") as f:
                if marker.encode() in f.read():
                    found.append(pid)
        except OSError:
            pass
    return found


def killed_outright(tmp, a):
    """pts, sweep and slo killed with SIGKILL leave no child running: a
    pts cell's child wrote on the device for its minute, a sweep's point
    ran to its end (PR_SET_PDEATHSIG now ends it as a SIGTERM)."""
    import signal
    import time
    job = os.path.join(tmp, "orphan.fio")
    with open(job, "w") as f:
        f.write("[orphan-marker]\nfilename=%s/orphan.dat\nsize=1m\nrw=randread\n"
                "ioengine=psync\nruntime=20s\ntime_based=1\n" % tmp)
    for argv, marker in (
            (["pts", "iops", a, "--destroy-data", "--precondition-loops=0"], "pts-cell"),
            (["sweep", job, "--iodepth=1,2"], job),
            (["slo", job, "--target=p99<=50ms"], job)):
        p = subprocess.Popen([BIN] + argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(100):
            if [x for x in orphans(marker) if x != str(p.pid)]:
                break
            time.sleep(0.02)
        p.send_signal(signal.SIGKILL)
        p.wait()
        for _ in range(50):
            left = [x for x in orphans(marker) if x != str(p.pid)]
            if not left:
                break
            time.sleep(0.02)
        for pid in left:
            os.kill(int(pid), signal.SIGKILL)
        check(not left, "%s killed with SIGKILL: its child left running %r" % (argv[0], left))


def pts_held(a):
    """pts holds its device O_EXCL for the whole run: a second pts on it
    is refused (exit 2, untouched) while the first runs on.  Both ran,
    each measuring the other's I/O with its own."""
    import time
    first = subprocess.Popen([BIN, "pts", "iops", a, "--destroy-data", "--cell-time=1",
                              "--max-rounds=1", "--precondition-loops=0", "--bs=4k",
                              "--mixes=0/100"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True)
    for _ in range(200):
        if orphans("pts-cell"):
            break
        time.sleep(0.01)
    rc, out, err = pts_run(a)
    check(rc == 2 and "%s is open exclusively by something else" % a in err and not out,
          "a second pts on a device in use: exit %d, %r" % (rc, err))
    fout, ferr = first.communicate(timeout=20)
    check(first.returncode == 0 and "round 1: tracked" in ferr,
          "the first pts ran on: exit %d, %r" % (first.returncode, ferr[-300:]))


def pts_devices(tmp):
    """Loop devices over our own tmpfs (root only); removed at the end."""
    if os.geteuid() != 0 or not shutil.which("losetup") or not shutil.which("sfdisk") \
            or not shutil.which("partx"):
        print("skip: pts devices: not root, or no losetup/sfdisk/partx")
        return
    mnt = os.path.join(tmp, "devs")
    os.mkdir(mnt)
    with tmpfs(mnt, "40m", "iogauge-hostile") as ok:
        if ok:
            pts_on_loops(mnt)
        else:
            print("skip: pts devices: no tmpfs")


def pts_on_loops(mnt):
    loops = []
    try:
        for name in ("a", "c"):
            with open(os.path.join(mnt, name), "wb") as f:
                f.truncate(8 << 20)
        loops.append(loop_on(os.path.join(mnt, "a")))
        loops.append(loop_on(os.path.join(mnt, "c"), "-P"))
        if None in loops:
            print("skip: pts devices: no loop device")
            return
        pts_not_whole(mnt, loops[0], loops[1])
        killed_outright(mnt, loops[0])
        pts_held(loops[0])
    finally:
        for dev in loops:
            if dev:
                subprocess.run(["losetup", "-d", dev])


def main():
    with tempfile.TemporaryDirectory(prefix="hostile_new.") as tmp:
        report = small_report(tmp)
        compare_endless(tmp, report)
        compare_bad_figures(tmp, report)
        witness_bad(tmp)
        sweep_plot_not_dir(tmp, write_job(tmp))
        crash_witness_folder(tmp)
        witness_slow_peers(tmp)
        plot_full_disk(tmp)
        output_is_input(tmp, report, write_job(tmp))
        crash_huge_header(tmp)
        sweep_alias_axes(write_job(tmp))
        set_over_own(write_job(tmp))
        crash_trigger_hangs(tmp)
        crash_nothing_acked(tmp)
        act_duration_limit(tmp)
        witness_uncheckable_hello(tmp)
        filename_is_dir(tmp)
        pts_devices(tmp)
    finish("hostile_new")


main()
