#!/usr/bin/env python3
# Where the output goes, and the exit status when it cannot go there
# (issue 21): closed standard descriptors, a report to a full device or a
# full filesystem, --output left as it was when no report comes, --plot
# and write_*_log checked before any I/O, and the status of each class of
# error as the man page gives it.  One line per failure, then
# "outputs: N passed, M failed".
#
# Environment (set by CTest): IOGAUGE_BIN, IOGAUGE_SRC.  The full-tmpfs
# checks need root (they mount a 64 KiB tmpfs) and skip without it.
import glob
import os
import re
import shutil
import signal
import stat
import subprocess
import tempfile
import time

from clitest import check, finish, start_running

BIN = os.path.abspath(os.environ["IOGAUGE_BIN"])
SRC = os.environ.get("IOGAUGE_SRC", os.path.join(os.path.dirname(__file__), "..", ".."))
VALGRIND = os.environ.get("IOGAUGE_VALGRIND") == "1"
ASAN = "AddressSanitizer" in subprocess.run(
    [BIN, "--version"], env=dict(os.environ, ASAN_OPTIONS="help=1"),
    capture_output=True, text=True).stderr
NULL_JOB = ["--name=n", "--ioengine=null", "--size=1m", "--rw=read"]
NOSPACE = os.strerror(28)  # ENOSPC


def run(args, shell_pre="", timeout=120, cwd=None):
    """Runs iogauge with @args; @shell_pre (bash) first, to close or
    redirect descriptors: (status, stdout, stderr)."""
    cmd = "%s exec %s %s" % (shell_pre, _q(BIN), " ".join(_q(a) for a in args))
    p = subprocess.run(["bash", "-c", cmd], capture_output=True, text=True, timeout=timeout,
                       cwd=cwd)
    return p.returncode, p.stdout, p.stderr


def _q(s):
    return "'" + s.replace("'", "'\\''") + "'"


def temps(folder):
    return glob.glob(os.path.join(folder, ".*.iogauge-*"))


def closed_fds(tmp):
    # 2 closed: the data file was opened as 2 and took the status lines.
    data = os.path.join(tmp, "eta.dat")
    rc, _, _ = run(["--eta=always", "--name=w", "--filename=" + data, "--size=2m",
                    "--offset=1m", "--rw=write", "--rate=1m"], shell_pre="exec 2>&-;")
    body = open(data, "rb").read() if os.path.exists(data) else b""
    check(rc == 0 and len(body) == 3 << 20 and b"Jobs:" not in body,
          "2>&-: exit %d, %d bytes, a status line in the data file at %d"
          % (rc, len(body), body.find(b"Jobs:")))
    if VALGRIND:
        # valgrind's log file would take the closed descriptor, not iogauge's files.
        print("skip: closed 0 and 1 under valgrind")
        return
    # 1 closed with the report bound for it: refused before any I/O.
    data = os.path.join(tmp, "out.dat")
    rc, _, err = run(["--name=w", "--filename=" + data, "--size=1m", "--rw=write"],
                     shell_pre="exec >&-;")
    check(rc == 2 and "standard output is closed" in err and not os.path.exists(data),
          ">&-: exit %d, data file made: %s, %r" % (rc, os.path.exists(data), err))
    # ... but with --output the report has somewhere to go.
    rep = os.path.join(tmp, "closed1.txt")
    rc, _, err = run(NULL_JOB + ["--output=" + rep], shell_pre="exec >&-;")
    check(rc == 0 and os.path.exists(rep) and open(rep).read().startswith("iogauge"),
          ">&- --output: exit %d %r" % (rc, err))
    # Help to a closed 1: a write error, named, as coreutils say it.
    rc, _, err = run(["--help"], shell_pre="exec >&-;")
    check(rc == 1 and "standard output: " + os.strerror(9) in err,
          "--help >&-: exit %d %r" % (rc, err))
    # 0 closed, the job file read from it: an error, not a hang or a job.
    rc, _, err = run(["-"], shell_pre="exec <&-;", timeout=30)
    check(rc == 2 and "stdin" in err, "- <&-: exit %d %r" % (rc, err))
    # All three closed: still no status line in the data file.
    data = os.path.join(tmp, "all.dat")
    rc, _, _ = run(["--eta=always", "--output=" + os.path.join(tmp, "all.txt"), "--name=w",
                    "--filename=" + data, "--size=2m", "--offset=1m", "--rw=write",
                    "--rate=1m"], shell_pre="exec <&- >&- 2>&-;")
    body = open(data, "rb").read() if os.path.exists(data) else b""
    check(rc == 0 and len(body) == 3 << 20 and b"Jobs:" not in body and b"iogauge" not in body,
          "<&- >&- 2>&-: exit %d, %d bytes, a status line at %d, a report at %d"
          % (rc, len(body), body.find(b"Jobs:"), body.find(b"iogauge")))


def full_device(tmp):
    for fmt in ("json+", "normal", "terse"):
        rc, out, err = run(NULL_JOB + ["--output=/dev/full", "--output-format=" + fmt])
        check(rc == 1 and "--output=/dev/full" in err and NOSPACE in err,
              "--output=/dev/full %s: exit %d %r" % (fmt, rc, err))
        rc, out, err = run(NULL_JOB + ["--output-format=" + fmt], shell_pre="exec >/dev/full;")
        check(rc == 1 and "standard output: " + NOSPACE in err,
              ">/dev/full %s: exit %d %r" % (fmt, rc, err))
    for args in (["--help"], ["--parse-only"] + NULL_JOB, ["--list-engines"],
                 ["--help-options"]):
        rc, _, err = run(args, shell_pre="exec >/dev/full;")
        check(rc == 1 and "standard output: " + NOSPACE in err,
              "%s >/dev/full: exit %d %r" % (args[0], rc, err))
    rc, _, err = run(["sqlio", "--job", "-kR", "-s1", os.path.join(tmp, "s.dat")],
                     shell_pre="exec >/dev/full;")
    check(rc == 1 and NOSPACE in err, "sqlio --job >/dev/full: exit %d %r" % (rc, err))
    sq = ["sqlio", "-kR", "-s1", "--ioengine=null", os.path.join(tmp, "s.dat")]
    rc, _, err = run(sq + ["--output=/dev/full"])
    check(rc == 1 and "--output=/dev/full" in err and NOSPACE in err,
          "sqlio --output=/dev/full: exit %d %r" % (rc, err))
    rc, _, err = run(sq + ["--plot=" + os.path.join(tmp, "no", "plots")])
    check(rc == 2 and "--plot" in err, "sqlio --plot=NO/DIR: exit %d %r" % (rc, err))


def keep_output(tmp):
    d = tempfile.mkdtemp(dir=tmp)
    keep = os.path.join(d, "keep.txt")
    with open(keep, "w") as f:
        f.write("keep\n")
    os.chmod(keep, 0o640)
    # Set-up fails (a run-time failure, 1: a file where a folder would be
    # made; bad input, 2): keep.txt as it was.
    open(os.path.join(d, "no"), "w").close()
    for want, args in ((1, ["--name=w", "--filename=" + os.path.join(d, "no", "d.dat"),
                            "--size=1m", "--rw=write"]),
                       (2, ["--name=r", "--filename=" + os.path.join(d, "absent.dat"),
                            "--rw=read"])):
        rc, out, err = run(args + ["--output=" + keep])
        check(rc == want and open(keep).read() == "keep\n" and not temps(d) and out == "",
              "set-up fails with --output: exit %d (want %d), keep.txt %r, temps %s, %r"
              % (rc, want, open(keep).read(), temps(d), err))
    # A report: it replaces the file, with the file's mode, and nothing else is left.
    rc, _, err = run(NULL_JOB + ["--output=" + keep])
    check(rc == 0 and open(keep).read().startswith("iogauge") and not temps(d) and
          stat.S_IMODE(os.stat(keep).st_mode) == 0o640,
          "--output over keep.txt: exit %d, mode %o, temps %s %r"
          % (rc, stat.S_IMODE(os.stat(keep).st_mode), temps(d), err))
    # A symlink stays a symlink; the file it leads to gets the report.
    link = os.path.join(d, "link.txt")
    os.symlink("keep.txt", link)
    rc, _, _ = run(NULL_JOB + ["--output=" + link, "--output-format=terse"])
    check(rc == 0 and os.path.islink(link) and open(keep).read().startswith("3;"),
          "--output through a symlink: exit %d, link kept %s" % (rc, os.path.islink(link)))
    # A new file takes the umask's mode.
    new = os.path.join(d, "new.txt")
    rc, _, _ = run(NULL_JOB + ["--output=" + new], shell_pre="umask 027;")
    check(rc == 0 and stat.S_IMODE(os.stat(new).st_mode) == 0o640,
          "new --output file: exit %d, mode %o" % (rc, stat.S_IMODE(os.stat(new).st_mode)))
    # A user's own file in a folder the user cannot write: no temporary,
    # the file is written in place, still only once there is a report.
    if os.geteuid() == 0 and shutil.which("setpriv") and subprocess.run(
            ["id", "nobody"], capture_output=True).returncode == 0:
        import pwd
        nobody = pwd.getpwnam("nobody")
        ro = tempfile.mkdtemp(dir=tmp)
        os.chmod(tmp, 0o755)
        os.chmod(ro, 0o755)
        mine = os.path.join(ro, "mine.txt")
        with open(mine, "w") as f:
            f.write("keep\n")
        os.chown(mine, nobody.pw_uid, nobody.pw_gid)
        pre = "exec setpriv --reuid=%d --regid=%d --clear-groups" % (nobody.pw_uid, nobody.pw_gid)
        for args, want, body in ((["--name=r", "--filename=" + os.path.join(ro, "absent"),
                                   "--rw=read"], 2, "keep\n"), (NULL_JOB, 0, "iogauge")):
            cmd = "%s %s %s" % (pre, _q(BIN), " ".join(_q(a) for a in args + ["--output=" + mine]))
            p = subprocess.run(["bash", "-c", cmd], capture_output=True, text=True, timeout=120)
            check(p.returncode == want and open(mine).read().startswith(body),
                  "nobody's file in root's folder: exit %d (want %d), %r, %r"
                  % (p.returncode, want, open(mine).read()[:40], p.stderr))
        new = os.path.join(ro, "new.txt")
        cmd = "%s %s %s" % (pre, _q(BIN), " ".join(_q(a) for a in NULL_JOB + ["--output=" + new]))
        p = subprocess.run(["bash", "-c", cmd], capture_output=True, text=True, timeout=120)
        check(p.returncode == 2 and os.strerror(13) in p.stderr and not os.path.exists(new),
              "nobody's new file in root's folder: exit %d %r" % (p.returncode, p.stderr))
    # A folder: bad input.
    rc, _, err = run(NULL_JOB + ["--output=" + d])
    check(rc == 2 and "--output=" + d in err and os.strerror(21) in err,
          "--output=FOLDER: exit %d %r" % (rc, err))
    # Killed by a second signal while the run goes: no temporary left, and
    # the file is as it was when the process died before the rename.
    if VALGRIND:
        # Killed by its own signal, the process frees nothing: memcheck's
        # leak check at the kill reports the watcher thread's stack.
        print("skip: killed by a second SIGINT under valgrind")
        return
    with open(keep, "w") as f:
        f.write("keep\n")
    errf = os.path.join(d, "sig.err")
    p = start_running([BIN, "--eta=always", "--output=" + keep, "--name=t", "--ioengine=null",
                       "--size=1g", "--rw=read", "--time_based", "--runtime=30",
                       "--rate=100m"], errf)
    check(len(temps(d)) == 1, "a running --output has one temporary: %s" % temps(d))
    p.send_signal(signal.SIGINT)
    time.sleep(0.3)  # a repeat within 0.1 s is the same signal (timeout(1) sends two)
    p.send_signal(signal.SIGINT)
    p.communicate(timeout=60)
    body = open(keep).read()
    check(not temps(d) and (p.returncode == -signal.SIGINT and body == "keep\n" or
                            p.returncode == 130 and body.startswith("iogauge")),
          "two SIGINTs: exit %d, keep.txt %r, temps %s" % (p.returncode, body[:40], temps(d)))


def full_tmpfs(tmp):
    if os.geteuid() != 0:
        print("skip: not root: the full-tmpfs checks (they mount a tmpfs)")
        return
    mnt = tempfile.mkdtemp(dir=tmp)
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", mnt]).returncode:
        print("skip: no tmpfs mount: the full-tmpfs checks")
        return
    try:
        old = os.path.join(mnt, "old.txt")
        with open(old, "w") as f:
            f.write("old report\n")
        fd = os.open(os.path.join(mnt, "fill"), os.O_WRONLY | os.O_CREAT)
        try:
            while os.write(fd, b"x" * 4096) > 0:
                pass
        except OSError:
            pass
        os.close(fd)
        for fmt in ("json+", "normal"):
            for path in (os.path.join(mnt, "new.json"), old):
                rc, out, err = run(NULL_JOB + ["--output=" + path, "--output-format=" + fmt])
                body = open(path).read() if os.path.exists(path) else None
                want = "old report\n" if path == old else None
                check(rc == 1 and "--output=" + path in err and NOSPACE in err and
                      body == want and not temps(mnt),
                      "full tmpfs, --output=%s %s: exit %d, now %r, temps %s, %r"
                      % (os.path.basename(path), fmt, rc, body and body[:40], temps(mnt), err))
            rc, out, err = run(NULL_JOB + ["--output-format=" + fmt],
                               shell_pre="exec >%s;" % _q(os.path.join(mnt, "stdout.txt")))
            check(rc == 1 and "standard output: " + NOSPACE in err,
                  "full tmpfs, stdout %s: exit %d %r" % (fmt, rc, err))
        # A log on the full filesystem: found at the end, a run-time failure.
        rc, out, err = run(NULL_JOB + ["--write_bw_log=" + os.path.join(mnt, "p")])
        check(rc == 1 and os.path.join(mnt, "p_bw.1.log") in err and NOSPACE in err and
              out.startswith("iogauge"), "full tmpfs, write_bw_log: exit %d %r" % (rc, err))
    finally:
        subprocess.run(["umount", mnt])


def before_io(tmp):
    """--plot and write_*_log that cannot be written: exit 2 before the
    job's data file is made, not after a 30 s run."""
    d = tempfile.mkdtemp(dir=tmp)
    afile = os.path.join(d, "a-file")
    open(afile, "w").close()
    data = os.path.join(d, "d.dat")
    job = ["--name=w", "--filename=" + data, "--size=1m", "--rw=write", "--time_based",
           "--runtime=15"]
    cases = (
        (["--plot=" + os.path.join(d, "no", "dir")], "--plot", os.strerror(2)),
        (["--plot=" + afile], "--plot", os.strerror(20)),
        (["--write_bw_log=" + os.path.join(d, "no", "p")], "no/p_bw.1.log", "cannot create"),
        (["--write_lat_log=" + os.path.join(afile, "p")], "a-file/p_lat.1.log", os.strerror(20)),
        (["--write_hist_log=" + os.path.join(d, "no", "h")], "no/h_clat_hist.1.log",
         "write_hist_log"),
        (["--write_iops_log=" + os.path.join(d, "no", "p"), "--numjobs=2"], "p_iops.1.log",
         "write_iops_log"),
    )
    for extra, name, why in cases:
        t0 = time.monotonic()
        rc, out, err = run(job + extra)
        took = time.monotonic() - t0
        check(rc == 2 and name in err and why in err and out == "" and
              not os.path.exists(data) and took < 10,
              "%s: exit %d after %.1f s, data file made %s, %r"
              % (extra[0], rc, took, os.path.exists(data), err))
    # A new --plot folder in a folder that exists is made, and filled.
    plots = os.path.join(d, "plots")
    rc, _, err = run(NULL_JOB + ["--plot=" + plots])
    check(rc == 0 and len(glob.glob(os.path.join(plots, "*.svg"))) >= 3,
          "--plot=NEW: exit %d %r" % (rc, err))


def man_status(marker):
    """The status the man page's ERRORS entry holding @marker gives."""
    text = open(os.path.join(SRC, "man", "iogauge.1")).read()
    sect = text[text.index(".SH ERRORS"):text.index(".SH EXAMPLES")]
    for entry in re.split(r"\n\.(?:TP|PP)\n", sect):
        if marker in entry:
            m = re.findall(r"status (\d+)", entry)
            return int(m[0]) if m else None
    return None


def error_classes(tmp):
    d = tempfile.mkdtemp(dir=tmp)
    lay = os.path.join(d, "lay.dat")
    with open(lay, "wb") as f:
        f.write(b"\0" * (1 << 20))
    cases = [
        # (ERRORS entry, arguments, message)
        ("does not run it yet", ["--name=c", "--filename=" + lay, "--size=1m", "--rw=read",
                                 "--create_on_open=1"], "does not run it yet"),
        ("does not fit in the file", ["--name=r", "--filename=" + lay, "--rw=read",
                                      "--offset=1m"], "does not fit in the file"),
        # A file where its folder would be made (a missing folder is made).
        ("cannot be created, opened", ["--name=w", "--filename=" + os.path.join(lay, "x"),
                                       "--size=1m", "--rw=write"], os.strerror(20)),
    ]
    noring = os.environ.get("IOGAUGE_NORING")
    for marker, args, msg in cases:
        rc, _, err = run(args)
        if marker == "does not run it yet" and rc == 0:
            print("skip: create_on_open runs now")
            continue
        want = man_status(marker)
        check(rc == want and msg in err,
              "man's ERRORS '%s': status %s, iogauge exits %d %r" % (marker, want, rc, err))
    engines = subprocess.run([BIN, "--list-engines"], capture_output=True, text=True).stdout
    if noring and os.path.exists(noring) and "io_uring" in engines:
        p = subprocess.run([noring, "EPERM", BIN] + NULL_JOB + ["--ioengine=io_uring"],
                           capture_output=True, text=True, timeout=60)
        if p.returncode != 77:
            want = man_status("The engine could not start")
            check(p.returncode == want and "ioengine=io_uring" in p.stderr,
                  "man's ERRORS, engine refused: status %s, iogauge exits %d %r"
                  % (want, p.returncode, p.stderr))
    # A failure of the system at set-up is 1, not bad input: a worker
    # thread that cannot be made (its stack over the address-space limit).
    if ASAN or VALGRIND:
        print("skip: the thread-limit check (a sanitizer or valgrind needs the address space)")
    else:
        rc, _, err = run(NULL_JOB + ["--thread=1", "--numjobs=2"],
                         shell_pre="ulimit -s 400000; ulimit -v 300000;")
        check(rc == 1 and "cannot start a worker thread" in err,
              "a thread that cannot start: exit %d %r" % (rc, err))
    # SIGINT: 130 with the report, where fio 3.33 exits 128 (EXIT STATUS says why).
    text = open(os.path.join(SRC, "man", "iogauge.1")).read()
    sect = text[text.index(".SH EXIT STATUS"):text.index(".SH ERRORS")]
    check("fio" in sect and "128" in sect and "130" in sect,
          "EXIT STATUS tells how the signal statuses differ from fio's")
    errf = os.path.join(d, "int.err")
    p = start_running([BIN, "--eta=always", "--name=t", "--ioengine=null", "--size=1g",
                       "--rw=read", "--time_based", "--runtime=30", "--rate=100m"], errf)
    p.send_signal(signal.SIGINT)
    out, _ = p.communicate(timeout=60)
    check(p.returncode == 130 and "interrupted" in out, "SIGINT: exit %d" % p.returncode)


def main():
    tmp = tempfile.mkdtemp(prefix="iogauge-outputs-")
    try:
        closed_fds(tmp)
        full_device(tmp)
        keep_output(tmp)
        full_tmpfs(tmp)
        before_io(tmp)
        error_classes(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    finish("outputs")


if __name__ == "__main__":
    main()
