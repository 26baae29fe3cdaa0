#!/usr/bin/env python3
# bash completion (build/iogauge.bash, generated from the option table):
# sourced in bash, its answers to what a user types before TAB, with
# COMP_WORDS split as bash splits them ("=" is in COMP_WORDBREAKS), and
# every option of --help-options offered.
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from clitest import capture, check, finish  # noqa: E402

BIN = os.environ["IOGAUGE_BIN"]
SCRIPT = os.environ["IOGAUGE_COMPLETION"]

# Calls _iogauge as bash does on TAB: COMP_LINE and COMP_POINT, and
# COMP_WORDS/COMP_CWORD as readline split the line (given here).
DRIVER = r"""
source "$1" || exit 3
complete -p iogauge >/dev/null || exit 4
shift
COMP_LINE=$1; COMP_POINT=${#1}; shift
[[ -n $WB ]] && COMP_WORDBREAKS=$WB
COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
_iogauge
printf '%s\n' "${COMPREPLY[@]}"
"""


def complete(line, words, wordbreaks=None, cwd=None):
    env = dict(os.environ, WB=wordbreaks or "")
    words = [BIN if w == "iogauge" else w for w in words]
    line = line.replace("iogauge", BIN, 1)
    p = subprocess.run(["bash", "--norc", "-c", DRIVER, "drv", SCRIPT, line] + words,
                       capture_output=True, text=True, env=env, cwd=cwd, timeout=30)
    check(p.returncode == 0, "%r: driver status %d: %s" % (line, p.returncode, p.stderr))
    return [w for w in p.stdout.split("\n") if w]


def main():
    # The table's own list: every option and alias --help-options prints.
    rc, out, _ = capture([BIN, "--help-options"])
    names = set()
    for row in out.splitlines():
        names.update(row.split()[0].split("|"))
    offered = complete("iogauge --", ["iogauge", "--"])
    missing = sorted(n for n in names if "--%s=" % n not in offered)
    check(rc == 0 and len(names) > 200 and not missing,
          "options of --help-options not offered for --: %s" % missing[:10])
    check("--time_based" in offered and "--time_based=" in offered,
          "a bare-capable option is offered bare and with =")

    got = complete("iogauge --iod", ["iogauge", "--iod"])
    want = sorted(["--" + n + "=" for n in names if n.startswith("iod")])
    check(sorted(got) == want and "--iodepth=" in got,
          "--iod<TAB>: %s, want %s" % (got, want))

    got = complete("iogauge --rw=rand", ["iogauge", "--rw", "=", "rand"])
    check(sorted(got) == ["randread", "randrw", "randtrim", "randtrimwrite", "randwrite"],
          "--rw=rand<TAB>: %s" % got)
    # Without "=" in COMP_WORDBREAKS the word is whole, and so are the answers.
    got = complete("iogauge --rw=randw", ["iogauge", "--rw=randw"], wordbreaks=" \t\n")
    check(got == ["--rw=randwrite"], "--rw=randw<TAB>, '=' no word break: %s" % got)

    rc, out, _ = capture([BIN, "--list-engines"])
    engines = sorted(r.split()[0] for r in out.splitlines() if r.strip())
    got = complete("iogauge --ioengine=", ["iogauge", "--ioengine", "=", ""])
    check(rc == 0 and sorted(got) == engines and "psync" in got,
          "--ioengine=<TAB>: %s, --list-engines: %s" % (got, engines))

    got = complete("iogauge --set rw=randr", ["iogauge", "--set", "rw", "=", "randr"])
    check(sorted(got) == ["randread", "randrw"], "--set rw=randr<TAB>: %s" % got)
    got = complete("iogauge --direct=", ["iogauge", "--direct", "=", ""])
    check(got == ["0", "1"], "--direct=<TAB> (a bool): %s" % got)
    got = complete("iogauge --output-format=js", ["iogauge", "--output-format", "=", "js"])
    check(sorted(got) == ["json", "json+"], "--output-format=js<TAB>: %s" % got)

    with tempfile.TemporaryDirectory(prefix="iogauge-complete-") as d:
        with open(os.path.join(d, "two.fio"), "w") as f:
            f.write("[global]\nsize=1m\n[alpha]\nrw=read\n[beta] ; x\nrw=write\n")
        got = complete("iogauge two.fio --section=", ["iogauge", "two.fio", "--section", "=", ""],
                       cwd=d)
        check(sorted(got) == ["alpha", "beta"], "--section=<TAB> after two.fio: %s" % got)
        got = complete("iogauge two.fio --section ", ["iogauge", "two.fio", "--section", ""],
                       cwd=d)
        check(sorted(got) == ["alpha", "beta"], "--section <TAB>: %s" % got)
        got = complete("iogauge tw", ["iogauge", "tw"], cwd=d)
        check(got == ["two.fio"], "job file: tw<TAB>: %s" % got)

    got = complete("iogauge rec", ["iogauge", "rec"])
    check(sorted(got) == ["recipe", "recipes"], "rec<TAB>: %s" % got)
    got = complete("iogauge s", ["iogauge", "s"], cwd="/")
    check({"slo", "sqlio", "sweep"} <= set(got), "s<TAB> (subcommands and files): %s" % got)
    finish("completion")


main()
