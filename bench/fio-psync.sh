#!/usr/bin/env bash
# The same job file, run by fio and by iogauge back to back on the same
# file, interleaved ROUNDS times: psync, iodepth 1, direct 4 KiB random
# reads (and 4 KiB random writes).  Prints each run's IOPS and the ratio
# iogauge/fio per round.  Absolute numbers are noisy on a shared machine;
# the interleaved ratio is the figure to read.
# usage: bench/fio-psync.sh [ROUNDS] [RUNTIME_S] [DIR]
set -euo pipefail
rounds=${1:-3}
runtime=${2:-10}
dir=${3:-/tmp/iogauge-bench}
bin=${IOGAUGE_BIN:-$(dirname "$0")/../build/iogauge}
command -v fio >/dev/null || { echo "fio is not installed (apt-get install fio)"; exit 1; }
mkdir -p "$dir"

for rw in randread randwrite; do
	job="$dir/$rw.fio"
	cat >"$job" <<JOB
[bench-$rw]
filename=$dir/bench.dat
size=1g
direct=1
ioengine=psync
iodepth=1
rw=$rw
bs=4k
runtime=$runtime
time_based
JOB
	echo "== $rw, psync, iodepth 1, direct, 4 KiB, ${runtime}s per run"
	for i in $(seq "$rounds"); do
		f=$(fio --output-format=json "$job" 2>/dev/null |
			python3 -c "import json,sys; j=json.load(sys.stdin)['jobs'][0]; print('%.0f' % (j['read']['iops'] + j['write']['iops']))")
		g=$("$bin" "$job" | awk '/IOs\/sec:/ { print int($2 + 0.5); exit }')
		echo "round $i: fio $f IOPS, iogauge $g IOPS, iogauge/fio $(python3 -c "print('%.3f' % ($g / $f))")"
	done
done
