#!/usr/bin/env python3
# cmake --install into a scratch prefix, checked file by file: the binary,
# every man page, every recipe (share/iogauge/jobs) and the bash completion
# (share/bash-completion/completions/iogauge), nothing else; the installed
# binary's --version (the commit: BuildInfo.cmake's git describe, "unknown"
# outside a checkout), its recipes found beside it, man -w, and the
# installed completion naming the installed recipes.
import filecmp
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from clitest import capture, check, finish  # noqa: E402

BIN = os.environ["IOGAUGE_BIN"]
SRC = os.environ["IOGAUGE_SRC"]
BUILD = os.environ["IOGAUGE_BUILD"]


def describe(folder):
    rc, out, err = capture(["cmake", "-DSRC=" + folder, "-P",
                            os.path.join(SRC, "cmake", "BuildInfo.cmake")])
    check(rc == 0, "BuildInfo.cmake on %s: %d %s" % (folder, rc, err))
    return (out + err).strip()


def expected():
    """Installed path -> the file it must be a copy of."""
    want = {"bin/iogauge": BIN,
            "share/bash-completion/completions/iogauge": os.path.join(BUILD, "iogauge.bash")}
    for page in os.listdir(os.path.join(SRC, "man")):
        want["share/man/man%s/%s" % (page[-1], page)] = os.path.join(SRC, "man", page)
    for d, _, files in os.walk(os.path.join(SRC, "jobs")):
        for f in files:
            rel = os.path.relpath(os.path.join(d, f), os.path.join(SRC, "jobs"))
            want["share/iogauge/jobs/" + rel] = os.path.join(d, f)
    return want


def main():
    with tempfile.TemporaryDirectory(prefix="iogauge-install-") as prefix:
        rc, out, err = capture(["cmake", "--install", BUILD, "--prefix", prefix])
        if not check(rc == 0, "cmake --install: %d %s" % (rc, err)):
            finish("install")
        got = set()
        for d, _, files in os.walk(prefix):
            for f in files:
                got.add(os.path.relpath(os.path.join(d, f), prefix))
        want = expected()
        check(got == set(want), "installed: extra %s, missing %s" %
              (sorted(got - set(want)), sorted(set(want) - got)))
        for rel, src in sorted(want.items()):
            if rel in got:
                check(filecmp.cmp(os.path.join(prefix, rel), src, shallow=False),
                      "%s is not a copy of %s" % (rel, src))
        ibin = os.path.join(prefix, "bin", "iogauge")
        check(os.access(ibin, os.X_OK), "bin/iogauge is not executable")
        print("install: %d files in %s" % (len(got), prefix))

        # --version: the version, the commit this tree describes, the engines.
        rc, out, _ = capture([ibin, "--version"])
        lines = out.splitlines()
        rc2, engines, _ = capture([ibin, "--list-engines"])
        names = [r.split()[0] for r in engines.splitlines()]
        check(rc == 0 and re.fullmatch(r"iogauge \d+\.\d+\.\d+", lines[0]),
              "--version: first line %r" % lines[:1])
        commit = describe(SRC)
        check("commit: %s" % commit in lines and commit != "unknown",
              "--version: %r, this tree describes as %r (a commit since the last build? "
              "cmake --build first)" % (lines, commit))
        rc3, git, _ = capture(["git", "-C", SRC, "describe", "--always", "--tags", "--dirty"])
        check(rc3 != 0 or git.strip().split("-dirty")[0] == commit.split("-dirty")[0],
              "BuildInfo %r, git describe %r" % (commit, git))
        check("engines: " + " ".join(names) in lines, "--version engines: %r, --list-engines %r"
              % (lines, names))
        check(any(l.startswith("built with:") or l.startswith("built without:") for l in lines),
              "--version names no optional part: %r" % lines)
        with tempfile.TemporaryDirectory() as empty:
            check(describe(empty) == "unknown", "outside a checkout: %r" % describe(empty))
        check(describe(os.path.join(SRC, "jobs")) == "unknown",
              "a folder inside the checkout, not its top: %r" % describe(os.path.join(SRC, "jobs")))

        # The installed binary reads the installed recipes.
        rc, out, err = capture([ibin, "recipes"])
        check(rc == 0 and out.startswith("Recipes in %s/bin/../share/iogauge/jobs " % prefix) and
              "  default " in out, "installed recipes: %d %r %r" % (rc, out[:200], err))
        rc, out, err = capture([ibin, "recipe", "default", "--parse-only"])
        check(rc == 0 and "share/iogauge/jobs/default.ini:" in out,
              "installed recipe default: %d %s" % (rc, err))
        rc, out, err = capture(["man", "--manpath=" + os.path.join(prefix, "share", "man"), "-w",
                                "iogauge-recipe"])
        check(rc == 0 and out.strip() == os.path.join(prefix, "share/man/man1/iogauge-recipe.1"),
              "man -w iogauge-recipe: %d %r %r" % (rc, out, err))

        # The installed completion, with the installed binary: recipe names.
        comp = os.path.join(prefix, "share/bash-completion/completions/iogauge")
        p = subprocess.run(["bash", "--norc", "-c",
                            'source "$1"; COMP_LINE="$2 recipe cdm/rnd"; COMP_POINT=${#COMP_LINE};'
                            ' COMP_WORDS=("$2" recipe cdm/rnd); COMP_CWORD=2; _iogauge;'
                            ' printf "%s\\n" "${COMPREPLY[@]}"', "drv", comp, ibin],
                           capture_output=True, text=True, timeout=30)
        check(sorted(p.stdout.split()) == ["cdm/rnd4k-q1t1", "cdm/rnd4k-q32t1"],
              "recipe cdm/rnd<TAB>: %r %r" % (p.stdout, p.stderr))
    finish("install")


main()
