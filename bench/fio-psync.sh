#!/usr/bin/env bash
# The same job file, run by fio and by iogauge back to back on the same
# file, interleaved ROUNDS times (who goes first alternates): psync,
# iodepth 1, direct 4 KiB random reads, then random writes.  randrepeat=0,
# so no run re-reads offsets a previous run left in a host-side cache.
# Prints each run's IOPS, the ratio iogauge/fio per round, the median and
# range of those ratios, and the ratio of the sums.  Absolute numbers are noisy on a shared machine; the
# interleaved ratio is the figure to read.
# usage: bench/fio-psync.sh [ROUNDS] [RUNTIME_S] [DIR]
set -euo pipefail
rounds=${1:-3}
runtime=${2:-10}
dir=${3:-/tmp/iogauge-bench}
bin=${IOGAUGE_BIN:-$(dirname "$0")/../build/iogauge}
command -v fio >/dev/null || { echo "fio is not installed (apt-get install fio)"; exit 1; }
mkdir -p "$dir"

fio_iops() {
	fio --output-format=json "$1" 2>/dev/null | python3 -c \
		"import json,sys; j=json.load(sys.stdin)['jobs'][0]; print('%.0f' % (j['read']['iops'] + j['write']['iops']))"
}
iogauge_iops() {
	"$bin" "$1" | awk '/IOs\/sec:/ { print int($2 + 0.5); exit }'
}

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
randrepeat=0
runtime=$runtime
time_based
JOB
	echo "== $rw, psync, iodepth 1, direct, 4 KiB, ${runtime}s per run"
	sf=0 sg=0 ratios=""
	for i in $(seq "$rounds"); do
		if [ $((i % 2)) -eq 1 ]; then
			f=$(fio_iops "$job")
			g=$(iogauge_iops "$job")
		else
			g=$(iogauge_iops "$job")
			f=$(fio_iops "$job")
		fi
		sf=$((sf + f))
		sg=$((sg + g))
		r=$(python3 -c "print('%.3f' % ($g / $f))")
		ratios="$ratios $r"
		echo "round $i: fio $f IOPS, iogauge $g IOPS, iogauge/fio $r"
	done
	python3 -c "import statistics as s, sys; v=sorted(map(float, sys.argv[1:])); print('median iogauge/fio %.3f, range %.3f..%.3f over %d pairs' % (s.median(v), v[0], v[-1], len(v)))" $ratios
	echo "sum: fio $sf, iogauge $sg, iogauge/fio $(python3 -c "print('%.3f' % ($sg / $sf))")"
done
