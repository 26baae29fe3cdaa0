#!/usr/bin/env bash
# The async engines under valgrind in both clone modes: libaio, io_uring,
# posixaio and vsync with numjobs=2 as processes (fio's default) and as threads, with per-I/O
# logs, and a stonewall batch after a job whose clones end apart.  Any
# memcheck error or leak, in the run's process or a clone's, fails.
# Skips (77) without valgrind, in an ASan build, or with neither engine.
set -u
. "$(dirname "$0")/prelude.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/iogauge-vge.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
export IOGAUGE_REAL_BIN=$bin IOGAUGE_VG_LOG=$tmp/vg.%p.log
vg=$src/tests/valgrind/iogauge
pass=0 fail=0 ran=0
for eng in libaio io_uring posixaio vsync; do
	# An engine this build or kernel does not have is skipped, not failed.
	if ! "$bin" --name=probe --ioengine=$eng --filename="$tmp/p.dat" --size=64k \
		--output-format=terse >/dev/null 2>&1; then
		echo "SKIP: ioengine=$eng does not run here"
		continue
	fi
	ran=$((ran + 1))
	for thread in 0 1; do
		printf '[global]\nioengine=%s\ndirect=1\nsize=1m\niodepth=4\nthread=%s\n' $eng $thread >"$tmp/j.fio"
		printf '[a]\nfilename=%s/a.dat\nrw=randread\nnumjobs=2\nwrite_iops_log=%s/a\n' "$tmp" "$tmp" >>"$tmp/j.fio"
		printf '[b]\nfilename=%s/b.dat\nrw=randread\nloops=8\nwrite_lat_log=%s/b\n' "$tmp" "$tmp" >>"$tmp/j.fio"
		printf '[c]\nstonewall\nfilename=%s/c.dat\nrw=randwrite\nnumjobs=2\n' "$tmp" >>"$tmp/j.fio"
		rm -f "$tmp"/vg.*.log
		(cd "$tmp" && "$vg" --output-format=terse "$tmp/j.fio" >"$tmp/out" 2>"$tmp/err")
		rc=$?
		logs=$(cat "$tmp"/vg.*.log 2>/dev/null)
		if [ $rc -eq 0 ] && [ -z "$logs" ]; then
			pass=$((pass + 1))
		else
			echo "FAIL: ioengine=$eng thread=$thread: rc=$rc $(head -5 "$tmp/err")"
			printf '%s\n' "$logs" | head -40
			fail=$((fail + 1))
		fi
	done
done
echo "valgrind engines: $pass passed, $fail failed"
[ $ran -gt 0 ] || exit 77
[ $fail -eq 0 ]
