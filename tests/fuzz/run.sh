#!/usr/bin/env bash
# Runs the libFuzzer harnesses of a build made with -DIOGAUGE_FUZZ=ON:
#   tests/fuzz/run.sh BUILD_DIR [SECONDS_EACH]   (default 20 s each)
# seeded from jobs/, the test data and bench/ (job files), every option
# with its default (values), and tests/fuzz/seeds/sqlio (command lines).
# Prints each harness's executions; exits 1 when any of them crashed,
# leaked or hung, with the input left in $FUZZ_ARTIFACTS (default: a
# temporary folder, kept then).
set -u
build=${1:?usage: run.sh BUILD_DIR [SECONDS_EACH]}
secs=${2:-20}
src=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/iogauge-fuzz.XXXXXX") || exit 1
art=${FUZZ_ARTIFACTS:-$work/artifacts}
mkdir -p "$work/jobfile" "$work/values" "$work/sqlio" "$art"

find "$src/jobs" "$src/tests/data" "$src/bench/cases" -name '*.ini' -o -name '*.fio' |
	while read -r f; do cp "$f" "$work/jobfile/$(echo "$f" | md5sum | cut -c1-16)"; done
cp "$src"/tests/fuzz/seeds/sqlio/* "$work/sqlio/"
# values: two bytes of option index (table order, as --help-options lists
# them), then the option's default.
"$build/iogauge" --help-options | python3 -c '
import re, sys
for k, line in enumerate(l for l in sys.stdin if l.strip() and not l.startswith(" ")):
    m = re.search(r"\[default: ([^]]*)\]", line)
    with open("%s/values/%03d" % (sys.argv[1], k), "wb") as f:
        f.write(bytes([k & 255, k >> 8]) + (m.group(1) if m else "1").encode())
' "$work"

status=0
for f in jobfile values sqlio; do
	out=$("$build/tests/fuzz_$f" -max_total_time="$secs" -max_len=4096 -timeout=10 \
		-rss_limit_mb=2048 -artifact_prefix="$art/$f-" -print_final_stats=1 \
		"$work/$f" 2>&1)
	rc=$?
	runs=$(echo "$out" | sed -n 's/^stat::number_of_executed_units: *//p')
	echo "fuzz_$f: ${runs:-?} executions in ${secs} s, exit $rc"
	if [ $rc -ne 0 ]; then
		echo "$out" | grep -E "ERROR|SUMMARY|fails|printed|runtime error" | head -20
		status=1
	fi
done
if [ $status -eq 0 ]; then
	rm -rf "$work"
else
	echo "inputs kept in $art"
fi
exit $status
