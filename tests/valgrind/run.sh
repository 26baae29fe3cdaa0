#!/usr/bin/env bash
# The CLI tests with every iogauge under valgrind (memcheck): cli/run.sh,
# cli/bad.sh, cli/badinput.py, cli/errors.py, cli/outputs.py, cli/overflow.py and cli/devices.py (as
# root).  A memcheck error or leak exits 99, which those tests see as a
# wrong status; the log is printed on failure.
# Arguments name the parts to run (cli bad badinput errors outputs overflow
# devices; all without one): CTest runs each part as a test of its own, so
# that they share the CPUs with the other tests instead of running on one.
# Skips (77) without valgrind.
set -u
. "$(dirname "$0")/prelude.sh"
log=$(mktemp -d "${TMPDIR:-/tmp}/iogauge-vg.XXXXXX") || exit 1
chmod 1777 "$log" # cli/run.sh runs some as nobody
export IOGAUGE_REAL_BIN=$bin IOGAUGE_BIN=$src/tests/valgrind/iogauge IOGAUGE_VALGRIND=1
export IOGAUGE_VG_LOG=$log/vg.%p.log
status=0
parts=${*:-cli bad badinput errors outputs overflow devices}
for part in $parts; do
	case $part in
	cli) bash "$src/tests/cli/run.sh" || status=1 ;;
	bad) bash "$src/tests/cli/bad.sh" || status=1 ;;
	badinput | errors | outputs | overflow) python3 "$src/tests/cli/$part.py" || status=1 ;;
	devices)
		python3 "$src/tests/cli/devices.py"
		rc=$? # 77: not root, skipped
		[ $rc -eq 0 ] || [ $rc -eq 77 ] || status=1
		;;
	*)
		echo "valgrind/run.sh: no part $part"
		status=1
		;;
	esac
done
for f in "$log"/vg.*.log; do
	[ -s "$f" ] || continue
	echo "valgrind reported (pid ${f##*vg.}):"
	head -40 "$f"
	status=1
done
rm -rf "$log"
exit $status
