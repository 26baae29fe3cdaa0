#!/usr/bin/env python3
# fio's --profile=tiobench against fio 3.33 in the same run, each tool in a
# fresh folder of its own: the jobs it adds (names, options, groups), the
# bytes each moves in which direction, and the files it leaves; then what
# fio ignores in silence and iogauge refuses (exit 2), and what both print
# for --showcmd.  One line per failure, then "profiles: N passed, M failed".
#
# Environment (set by CTest): IOGAUGE_BIN.
import json
import os
import shutil
import subprocess
import tempfile

from clitest import check, finish

BIN = os.path.abspath(os.environ["IOGAUGE_BIN"])
FIO = shutil.which("fio")
TIO = [".fio.tio.%d" % i for i in range(1, 5)]
# fio's tiobench: 4 KiB of I/O per MiB of RAM ("size=4*1024*$mb_memory").
SIZE = 4 * 1024 * (os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") >> 20)


def run(tool, cwd, args, stdin_job=None):
    """@tool with @args in folder @cwd: (exit status, stdout, stderr)."""
    p = subprocess.run([tool] + args, cwd=cwd, capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


def fresh(tmp, name):
    d = os.path.join(tmp, name)
    shutil.rmtree(d, ignore_errors=True)
    os.mkdir(d)
    return d


def files(d):
    """{name: size} of the folder's tiobench files."""
    return {n: os.path.getsize(os.path.join(d, n)) for n in sorted(os.listdir(d))
            if n.startswith(".fio.tio.")}


def opts(o):
    """Job options as both can print them: fio leaves out bare flags and
    lists a profile job's name among its options."""
    return {k: v for k, v in o.items() if v != "" and k != "name"}


def jobs(tool, tmp, what, args):
    """(jobs [(name, group, options, read bytes, write bytes)], global
    options, files) of @tool's JSON report, or None."""
    d = fresh(tmp, os.path.basename(tool) + "-" + what)
    if os.path.exists(os.path.join(tmp, "a.fio")):
        shutil.copy(os.path.join(tmp, "a.fio"), d)
    rc, out, err = run(tool, d, args + ["--output-format=json"])
    if not check(rc == 0, "%s %s: exit %d %s" % (os.path.basename(tool), what, rc, err[-300:])):
        return None
    rep = json.loads(out[out.index("{"):])
    got = [(j["jobname"], j["groupid"], opts(j["job options"]), j["read"]["io_bytes"],
            j["write"]["io_bytes"]) for j in rep["jobs"] if "jobname" in j]
    # (fio 3.33, merging a's group, adds an entry with no name and no I/O.)
    return got, opts(rep.get("global options", {})), files(d)


def tiobench(tmp):
    """The four jobs, their options and bytes, as fio's."""
    args = ["--profile=tiobench", "--filesize=16k"]
    ig = jobs(BIN, tmp, "tiobench", args)
    if not ig:
        return
    got, glob, made = ig
    want = [("seqwrite", 0, {"rw": "write", "end_fsync": "1"}, 0, 65536),
            ("randwrite", 1, {"rw": "randwrite", "end_fsync": "1"}, 0, 65536),
            ("seqread", 2, {"rw": "read"}, 65536, 0),
            ("randread", 3, {"rw": "randread"}, 65536, 0)]
    check(got == want, "tiobench jobs: %r, expected %r" % (got, want))
    check(glob.get("size") == str(SIZE) and glob.get("directory") == "./"
          and glob.get("bs") == "4096" and glob.get("buffered") == "0"
          and glob.get("filename") == ":".join(TIO),
          "tiobench global options: %r (size %d expected)" % (glob, SIZE))
    check(made == {n: 16384 for n in TIO}, "tiobench files: %r" % made)
    if not FIO:
        return
    fio = jobs(FIO, tmp, "tiobench", args)
    if not fio:
        return
    fgot, fglob, fmade = fio
    check(got == fgot, "tiobench jobs: iogauge %r, fio %r" % (got, fgot))
    # overwrite is another area's; until this build has it, the profile leaves it out.
    has_overwrite = run(BIN, tmp, ["--cmdhelp=overwrite"])[0] == 0
    if not has_overwrite:
        fglob.pop("overwrite", None)
    check(glob == fglob, "tiobench global options: iogauge %r, fio %r" % (glob, fglob))
    check(made == fmade, "tiobench files: iogauge %r, fio %r" % (made, fmade))


def after_files(tmp):
    """A job file's jobs run first; the profile's first job joins their
    group, and its jobs start from the file's [global] (filesize=16k)."""
    with open(os.path.join(tmp, "a.fio"), "w") as f:
        f.write("[global]\nfilesize=16k\n[a]\nfilename=afile\nsize=8k\nrw=write\n")
    args = ["a.fio", "--profile=tiobench"]
    try:
        ig = jobs(BIN, tmp, "after", args)
        fio = jobs(FIO, tmp, "after", args) if FIO else None
    finally:
        os.unlink(os.path.join(tmp, "a.fio"))
    if not ig:
        return
    groups = [(j[0], j[1]) for j in ig[0]]
    want = [("a", 0), ("seqwrite", 0), ("randwrite", 1), ("seqread", 2), ("randread", 3)]
    check(groups == want, "job file then profile: groups %r, expected %r" % (groups, want))
    check(ig[2] == {n: 16384 for n in TIO}, "job file then profile: files %r" % ig[2])
    if fio:
        check(ig[2] == fio[2], "job file then profile: files %r, fio's %r" % (ig[2], fio[2]))
    if fio:
        # fio merges seqwrite (group_reporting) into a's entry of its group.
        fbytes = sum(j[4] for j in fio[0] if j[1] == 0)
        ibytes = sum(j[4] for j in ig[0] if j[1] == 0)
        check(fbytes == ibytes == 8192 + 65536,
              "job file then profile: group 0 wrote %d, fio %d" % (ibytes, fbytes))
        check([j[1] for j in fio[0]][-3:] == [1, 2, 3], "fio groups: %r" % fio[0])


def refused(tmp):
    """What fio ignores or fails late, iogauge refuses before any I/O."""
    d = fresh(tmp, "refused")
    other = fresh(tmp, "other")
    cases = [
        (["--profile=bogus"], "no such profile"),
        (["--profile"], "--profile needs a value"),
        (["--profile=tiobench", "--dir=" + other, "--filesize=16k"], "--dir=" + other),
        (["--profile=tiobench", "--block=8192", "--filesize=16k"], "--block=8192"),
        (["--profile=tiobench", "--numruns=2", "--filesize=16k"], "--numruns=2"),
        (["--profile=tiobench", "--threads=2", "--filesize=16k"], "--threads=2"),
        (["--profile=tiobench", "--bs=8k", "--filesize=16k"], "sets bs=4096"),
        (["--profile=tiobench", "--size=4", "--filesize=16k"], "sets size=4*1024*$mb_memory"),
    ]
    for args, msg in cases:
        rc, out, err = run(BIN, d, args)
        check(rc == 2 and msg in err and not os.listdir(d),
              "iogauge %s: exit %d, %r, files %r" % (" ".join(args), rc, err[-300:],
                                                     os.listdir(d)))
    with open(os.path.join(d, "p.fio"), "w") as f:
        f.write("[x]\nprofile=tiobench\nfilename=xf\nsize=4k\n")
    rc, out, err = run(BIN, d, ["p.fio"])
    check(rc == 2 and "p.fio:2: 'profile'" in err and "--profile=NAME" in err,
          "profile= in a job file: exit %d, %r" % (rc, err))
    # A profile's option with no profile: ignored with a warning, as fio ignores it.
    rc, out, err = run(BIN, d, ["--dir=" + other, "--name=x", "--filename=xf", "--size=4k"])
    check(rc == 0 and "'dir' is ignored" in err and not os.listdir(other),
          "--dir without a profile: exit %d, %r" % (rc, err[-300:]))
    if not FIO:
        return
    # fio: a wrong name fails before any I/O, exit 1.
    rc, out, err = run(FIO, d, ["--profile=bogus"])
    check(rc == 1 and "profile 'bogus' not found" in err, "fio --profile=bogus: %d %r" % (rc, err))
    # fio: tiobench's own options are taken and ignored: the files land in
    # the current folder, not in --dir, at bs 4096 whatever --block says.
    d2 = fresh(tmp, "fio-ignores")
    rc, out, err = run(FIO, d2, ["--profile=tiobench", "--dir=" + other, "--block=8192",
                                 "--bs=8k", "--filesize=16k", "--output-format=json"])
    rep = json.loads(out[out.index("{"):]) if rc == 0 else {"jobs": []}
    ios = [j["read"]["total_ios"] + j["write"]["total_ios"] for j in rep["jobs"]]
    check(rc == 0 and files(d2) == {n: 16384 for n in TIO} and not os.listdir(other)
          and ios == [16, 16, 16, 16],
          "fio ignores --dir, --block, --bs: exit %d, files %r, in --dir %r, I/Os %r" %
          (rc, files(d2), os.listdir(other), ios))
    # fio: profile= in a job file is stored and runs no profile.
    rc, out, err = run(FIO, d, ["p.fio", "--output-format=json"])
    names = [j["jobname"] for j in json.loads(out[out.index("{"):])["jobs"]] if rc == 0 else []
    check(rc == 0 and names == ["x"] and not files(d),
          "fio profile= in a job file: exit %d, jobs %r" % (rc, names))


def showcmd(tmp):
    """--showcmd prints no profile job, as fio's."""
    d = fresh(tmp, "showcmd")
    with open(os.path.join(d, "a.fio"), "w") as f:
        f.write("[a]\nfilename=afile\nsize=8k\n")
    for args in (["--profile=tiobench", "--showcmd"], ["a.fio", "--profile=tiobench",
                                                      "--showcmd"]):
        rc, out, err = run(BIN, d, args)
        check(rc == 0 and "seqwrite" not in out and ("a.fio" not in args or "--name=a" in out),
              "iogauge %s: exit %d %r %r" % (" ".join(args), rc, out, err))
        if FIO:
            frc, fout, ferr = run(FIO, d, args)
            check(frc == 0 and ("--name" in fout) == ("--name" in out),
                  "fio %s: exit %d %r; iogauge %r" % (" ".join(args), frc, fout, out))
    check(not files(d), "showcmd made files: %r" % files(d))


def main():
    tmp = tempfile.mkdtemp(prefix="iogauge-profiles-")
    try:
        tiobench(tmp)
        after_files(tmp)
        refused(tmp)
        showcmd(tmp)
    finally:
        shutil.rmtree(tmp)
    finish("profiles")


if __name__ == "__main__":
    main()
