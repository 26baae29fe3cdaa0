#!/usr/bin/env bash
# The same job file, run by fio and by iogauge back to back on the same
# file, interleaved ROUNDS times (who goes first alternates): direct 4 KiB
# I/O with ENGINE at IODEPTH, once per RW pattern.  randrepeat=0, so no run
# re-reads offsets a previous run left in a host-side cache.
# Prints per round each tool's IOPS (fio: read.iops + write.iops) and its
# p50/p99 total latency in us (fio: lat_ns percentiles, asked for with
# lat_percentiles=1; iogauge: its "percentiles(us):" line, also slat+clat),
# and the iogauge/fio ratios; then the median and range of the IOPS
# ratios, the ratio of the IOPS sums, and the median p50 and p99 ratios.
# Absolute numbers are noisy on a shared machine; the interleaved ratios
# are the figure to read.
# BENCH_THROTTLE="MAJ:MIN IOPS" (root) runs both tools in one cgroup whose
# reads and writes on that block device are capped at IOPS: a device of
# fixed speed, for when the real one is faster than a tool can drive from
# one core (then IOPS measure the tools' CPU cost, not the device).
# usage: bench/fio-pair.sh [ROUNDS] [RUNTIME_S] [ENGINE] [IODEPTH] [RW...]
#        (defaults 5 10 psync 1 randread randwrite; BENCH_DIR, IOGAUGE_BIN,
#        BENCH_THROTTLE)
set -euo pipefail
rounds=${1:-5}
runtime=${2:-10}
engine=${3:-psync}
iodepth=${4:-1}
shift $(($# < 4 ? $# : 4))
[ $# -gt 0 ] || set -- randread randwrite
dir=${BENCH_DIR:-/tmp/iogauge-bench}
bin=${IOGAUGE_BIN:-$(dirname "$0")/../build/iogauge}
command -v fio >/dev/null || { echo "fio is not installed (apt-get install fio)"; exit 1; }
mkdir -p "$dir"

if [ -n "${BENCH_THROTTLE:-}" ]; then
	read -r dev iops <<<"$BENCH_THROTTLE"
	if [ -d /sys/fs/cgroup/blkio ]; then # cgroup v1
		cg=/sys/fs/cgroup/blkio/iogauge-bench
		mkdir -p "$cg"
		echo "$dev $iops" >"$cg/blkio.throttle.read_iops_device"
		echo "$dev $iops" >"$cg/blkio.throttle.write_iops_device"
	else # cgroup v2
		cg=/sys/fs/cgroup/iogauge-bench
		mkdir -p "$cg"
		echo "+io" >/sys/fs/cgroup/cgroup.subtree_control
		echo "$dev riops=$iops wiops=$iops" >"$cg/io.max"
	fi
	echo $$ >"$cg/cgroup.procs"
	echo "== throttled: $iops IOPS on block device $dev"
fi

# Each prints "IOPS P50_US P99_US".
fio_run() {
	fio --output-format=json "$1" 2>/dev/null | python3 -c '
import json, sys
j = json.load(sys.stdin)["jobs"][0]
d = j["read"] if j["read"]["iops"] > 0 else j["write"]
p = d["lat_ns"]["percentile"]
print("%.0f %.2f %.2f" % (j["read"]["iops"] + j["write"]["iops"], p["50.000000"] / 1e3, p["99.000000"] / 1e3))'
}
iogauge_run() {
	"$bin" "$1" | awk '
		/IOs\/sec:/ && !iops { iops = int($2 + 0.5) }
		/percentiles\(us\):/ && !p50 { for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }; p50 = v["p50"]; p99 = v["p99"] }
		END { if (!iops || !p50) exit 1; print iops, p50, p99 }'
}
summary() { # summary LABEL RATIO...
	python3 -c 'import statistics as s, sys; v = sorted(map(float, sys.argv[2:])); print("%s median iogauge/fio %.3f, range %.3f..%.3f over %d pairs" % (sys.argv[1], s.median(v), v[0], v[-1], len(v)))' "$@"
}

for rw in "$@"; do
	job="$dir/$rw.fio"
	cat >"$job" <<JOB
[bench-$rw]
filename=$dir/bench.dat
size=1g
direct=1
ioengine=$engine
iodepth=$iodepth
rw=$rw
bs=4k
randrepeat=0
runtime=$runtime
time_based
lat_percentiles=1
JOB
	echo "== $rw, $engine, iodepth $iodepth, direct, 4 KiB, ${runtime}s per run"
	sf=0 sg=0 ratios="" r50s="" r99s=""
	for i in $(seq "$rounds"); do
		if [ $((i % 2)) -eq 1 ]; then
			fo=$(fio_run "$job")
			go=$(iogauge_run "$job")
		else
			go=$(iogauge_run "$job")
			fo=$(fio_run "$job")
		fi
		read -r f f50 f99 <<<"$fo"
		read -r g g50 g99 <<<"$go"
		sf=$((sf + f))
		sg=$((sg + g))
		read -r r r50 r99 <<<"$(python3 -c "print('%.3f %.3f %.3f' % ($g / $f, $g50 / $f50, $g99 / $f99))")"
		ratios="$ratios $r" r50s="$r50s $r50" r99s="$r99s $r99"
		echo "round $i: fio $f IOPS p50 $f50 p99 $f99 us, iogauge $g IOPS p50 $g50 p99 $g99 us, iogauge/fio IOPS $r p50 $r50 p99 $r99"
	done
	summary "IOPS" $ratios
	echo "sum: fio $sf, iogauge $sg, iogauge/fio $(python3 -c "print('%.3f' % ($sg / $sf))")"
	summary "p50 " $r50s
	summary "p99 " $r99s
done
