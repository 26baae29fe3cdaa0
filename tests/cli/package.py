#!/usr/bin/env python3
# The packages CPack makes: the .deb's files (every one listed, against
# what cmake --install puts, man pages gz'ed, copyright and changelog) and
# its Depends (every shared library the binary loads is from a package it
# names); lintian on it with no error; as root, dpkg -i, the installed
# iogauge's --version, man -w, an installed recipe run from its installed
# path, dpkg -r and nothing left.  The source tarball: the tree without
# build folders or git's, and --version's commit "unknown" there.
import os
import re
import subprocess
import sys
import tarfile
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from clitest import capture, check, finish  # noqa: E402

BIN = os.environ["IOGAUGE_BIN"]
SRC = os.environ["IOGAUGE_SRC"]
BUILD = os.environ["IOGAUGE_BUILD"]


def expected_files():
    want = {"usr/bin/iogauge", "usr/share/bash-completion/completions/iogauge",
            "usr/share/doc/iogauge/copyright", "usr/share/doc/iogauge/changelog.gz"}
    for page in os.listdir(os.path.join(SRC, "man")):
        want.add("usr/share/man/man%s/%s.gz" % (page[-1], page))
    for d, _, files in os.walk(os.path.join(SRC, "jobs")):
        for f in files:
            want.add("usr/share/iogauge/jobs/" +
                     os.path.relpath(os.path.join(d, f), os.path.join(SRC, "jobs")))
    return want


def depends_cover_libraries(deb):
    """Every library the binary links (its NEEDED entries, found where ldd
    finds them) comes from a package in Depends.  Their own libraries are
    their packages' dependencies (Open MPI's libhwloc, libevent), as
    dpkg-shlibdeps leaves them."""
    rc, dep, _ = capture(["dpkg-deb", "-f", deb, "Depends"])
    names = set(re.findall(r"(?:^|, )([a-z0-9][a-z0-9.+-]*)", dep))
    rc2, ldd, _ = capture(["ldd", BIN])
    _, dyn, _ = capture(["readelf", "-d", BIN])
    needed = set(re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", dyn))
    libs = [path for name, path in re.findall(r"^\s*(\S+) => (/\S+)", ldd, re.M)
            if name in needed]
    # One dpkg -S for them all (each call reads every package's file list).
    paths = sorted({os.path.realpath(l) for l in libs} | set(libs))
    rc3, owners, _ = capture(["dpkg", "-S"] + paths)
    owner = {}
    for line in owners.splitlines():
        pkg, _, path = line.partition(": ")
        owner[path.strip()] = pkg.split(":")[0]
    missing = []
    for lib in libs:
        pkg = owner.get(os.path.realpath(lib)) or owner.get(lib) or "?"
        if pkg not in names and not pkg.startswith("libc6") and "libasan" not in lib and \
                "libubsan" not in lib:
            missing.append("%s (%s)" % (lib, pkg))
    check(rc == 0 and rc2 == 0 and len(libs) >= 5 and not missing and "libinih1" in names,
          "Depends %r misses the packages of %s" % (dep, missing))
    print("package: Depends: %s" % dep.strip())


def installed(deb, scratch):
    """dpkg -i, use, dpkg -r: root only, and not over an iogauge installed by
    someone else."""
    if os.geteuid() != 0:
        print("package: not root: dpkg -i not tried")
        return
    rc, out, _ = capture(["dpkg-query", "-W", "-f=${Status}", "iogauge"])
    if rc == 0 and "installed" in out and "not-installed" not in out:
        print("package: an iogauge package is installed already: left alone")
        return
    # Its triggers (man-db's index) wait for dpkg -r, which runs them once.
    rc, out, err = capture(["dpkg", "-i", "--no-triggers", deb], timeout=120)
    if not check(rc == 0, "dpkg -i: %d %s %s" % (rc, out, err)):
        capture(["dpkg", "-r", "iogauge"])
        return
    try:
        rc, listed, _ = capture(["dpkg", "-L", "iogauge"])
        files = sorted(p for p in listed.split() if os.path.isfile(p))
        print("package: dpkg -i installed %d files:\n  %s" % (len(files), "\n  ".join(files)))
        rc, out, _ = capture(["/usr/bin/iogauge", "--version"])
        check(rc == 0 and re.match(r"iogauge \d+\.\d+\.\d+\ncommit: ", out),
              "/usr/bin/iogauge --version: %d %r" % (rc, out))
        rc, out, err = capture(["man", "-w", "iogauge"])
        check(rc == 0 and out.strip() == "/usr/share/man/man1/iogauge.1.gz",
              "man -w iogauge: %d %r %r" % (rc, out, err))
        rc, out, err = capture(["/usr/bin/iogauge", "--set", "runtime=1", "--set", "size=16m",
                                "--output-format=json", "/usr/share/iogauge/jobs/log-writer.ini"],
                               cwd=scratch)
        check(rc == 0 and '"jobname" : "log-writer"' in out,
              "installed recipe log-writer from /usr/share/iogauge/jobs: %d %s" % (rc, err))
        rc, out, err = capture(["/usr/bin/iogauge", "recipes"])
        check(rc == 0 and out.startswith("Recipes in /usr/bin/../share/iogauge/jobs "),
              "installed iogauge recipes: %d %r" % (rc, out[:100]))
    finally:
        rc, out, err = capture(["dpkg", "-r", "iogauge"], timeout=120)
        check(rc == 0 and not os.path.exists("/usr/bin/iogauge") and
              not os.path.exists("/usr/share/iogauge"),
              "dpkg -r: %d %s %s" % (rc, out, err))


def source_tarball(scratch):
    rc, out, err = capture(["cpack", "--config", os.path.join(BUILD, "CPackSourceConfig.cmake"),
                            "-B", scratch], timeout=120)
    tgz = os.path.join(scratch, "iogauge-%s.tar.gz" % version())
    if not check(rc == 0 and os.path.exists(tgz), "source tarball: %d %s" % (rc, err)):
        return
    with tarfile.open(tgz) as t:
        names = t.getnames()
        top = {n.split("/")[0] for n in names}
        check(top == {os.path.basename(tgz)[:-7]}, "tarball's top folders: %s" % top)
        rel = {n.split("/", 1)[1] for n in names if "/" in n}
        check({"CMakeLists.txt", "src/main.c", "jobs/default.ini", "cmake/BuildInfo.cmake",
               "packaging/deb/copyright"} <= rel, "tarball lacks sources")
        bad = [n for n in rel if re.match(r"(build[^/]*|\.git|_CPack_Packages)(/|$)", n)]
        check(not bad, "tarball holds %s" % bad[:5])
        t.extractall(os.path.join(scratch, "src"))
    tree = os.path.join(scratch, "src", os.path.basename(tgz)[:-7])
    rc, out, err = capture(["cmake", "-DSRC=" + tree, "-P",
                            os.path.join(tree, "cmake", "BuildInfo.cmake")])
    check((out + err).strip() == "unknown", "the tarball's commit: %r" % (out + err))
    print("package: source tarball %s, %d entries" % (os.path.basename(tgz), len(names)))


def version():
    rc, out, _ = capture([BIN, "--version"])
    return out.split()[1]


def main():
    with tempfile.TemporaryDirectory(prefix="iogauge-package-") as scratch:
        rc, out, err = capture(["cpack", "-G", "DEB", "--config",
                                os.path.join(BUILD, "CPackConfig.cmake"), "-B", scratch],
                               timeout=300)
        debs = [f for f in os.listdir(scratch) if f.endswith(".deb")]
        if not check(rc == 0 and len(debs) == 1, "cpack -G DEB: %d %s %s" % (rc, out, err)):
            finish("package")
        deb = os.path.join(scratch, debs[0])
        rc, listing, _ = capture(["dpkg-deb", "-c", deb])
        files = {l.split()[-1][2:] for l in listing.splitlines() if not l.startswith("d")}
        want = expected_files()
        check(files == want, "the .deb: extra %s, missing %s" %
              (sorted(files - want), sorted(want - files)))
        depends_cover_libraries(deb)
        # lintian reads the .deb while dpkg installs it: the test takes the
        # longer of the two, not their sum.
        lint = subprocess.Popen(["lintian", deb], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        installed(deb, scratch)
        source_tarball(scratch)
        out, err = lint.communicate(timeout=300)
        tags = [l for l in out.splitlines() if re.match(r"[EWIPX]: ", l)]
        print("package: lintian: %s" % ("\n  ".join(tags) if tags else "no tags"))
        check(lint.returncode == 0 and not any(t.startswith("E: ") for t in tags),
              "lintian: %d %s %s" % (lint.returncode, out, err))
    finish("package")


main()
