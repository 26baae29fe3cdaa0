#!/usr/bin/env bash
# Golden tests of the iogauge command line: exit codes, error messages,
# and --parse-only output compared byte for byte with tests/cli/golden/.
# UPDATE_GOLDEN=1 rewrites the golden files (review the diff!).
set -u
bin=${IOGAUGE_BIN:?}
# Seconds a run may take to start its I/O: generous, for valgrind
# (tests/valgrind/run.sh) and a loaded machine.  Nothing sleeps this long:
# the tests wait for a sign that the I/O runs (running).
settle=30
src=${IOGAUGE_SRC:?}
golden=$src/tests/cli/golden
cd "$src" || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0

# running ERRFILE [PID COUNT]: wait until the run's status line
# (--eta=always) in ERRFILE shows I/O done, and, with PID and COUNT, until
# PID has COUNT child processes.  Fails after $settle seconds.
running() {
	local end=$((SECONDS + settle))
	until grep -q 'Jobs: .*[rw]=[1-9]' "$1" 2>/dev/null &&
		{ [ $# -lt 3 ] || [ "$(pgrep -P "$2" | wc -l)" -eq "$3" ]; }; do
		[ $SECONDS -ge $end ] && return 1
		sleep 0.05
	done
}

ok() { pass=$((pass + 1)); }
bad() {
	echo "FAIL: $*"
	fail=$((fail + 1))
}

# expect RC STDERR-SUBSTRING -- ARGS...: exit status and a piece of stderr.
expect() {
	local rc=$1 want=$2
	shift 3
	"$bin" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	local got=$?
	if [ "$got" -ne "$rc" ]; then
		bad "iogauge $* exited $got, want $rc; stderr: $(cat "$tmp/err")"
	elif [ -n "$want" ] && ! grep -qF -- "$want" "$tmp/err"; then
		bad "iogauge $*: stderr lacks '$want': $(cat "$tmp/err")"
	elif [ "$rc" -eq 2 ] && [ -s "$tmp/out" ]; then
		bad "iogauge $*: exit 2 but something was printed on stdout"
	else
		ok
	fi
}

# same NAME -- ARGS...: exit 0 and stdout equal to golden/NAME.out.
same() {
	local name=$1
	shift 2
	if ! "$bin" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null; then
		bad "iogauge $* failed: $(cat "$tmp/err")"
		return
	fi
	if [ "${UPDATE_GOLDEN:-}" = 1 ]; then
		cp "$tmp/out" "$golden/$name.out"
	fi
	if diff -u "$golden/$name.out" "$tmp/out" >"$tmp/diff"; then
		ok
	else
		bad "iogauge $* differs from golden/$name.out:"
		head -40 "$tmp/diff"
	fi
}

# Flags
expect 0 "" -- --version
"$bin" --version | grep -qx "iogauge [0-9.]*" && ok || bad "--version output"
"$bin" --help | grep -q "^usage: iogauge" && ok || bad "--help output"
n=$("$bin" --help-options | wc -l)
[ "$n" -ge 70 ] && ok || bad "--help-options lists $n options"
expect 2 "no job file or --name job given" --
expect 2 "unknown option '--iodpeth=4'; did you mean '--iodepth'?" -- --iodpeth=4 --name=a
expect 2 "unknown option '--parse-onyl'; did you mean '--parse-only'?" -- --parse-onyl x
expect 2 "unknown option '-x'" -- -x
expect 2 "--set needs a value" -- --name=a --set
expect 2 "--set bs: expected KEY=VALUE" -- --name=a --set bs
expect 2 "--name needs a job name" -- --name=
expect 2 "nope.fio: No such file or directory" -- --parse-only tests/data/nope.fio

# Command-line jobs: options before the first --name are defaults.
same cmdline -- --parse-only --bs=8k --ioengine=libaio --name=a --rw=randread --iodepth 16 \
	--time_based --runtime=30 --name=b --rw=write --bs 64k
expect 2 "--bs=4q: '4q': unknown size suffix 'q'" -- --parse-only --bs=4q --name=a
expect 2 "--direct=2: '2' is not a boolean" -- --parse-only --name=a --direct=2
expect 2 "--read_beyond_wp=1: 'read_beyond_wp' is an option of fio's zonemode=zbd (for zoned block devices), which iogauge does not build" \
	-- --parse-only --name=a --read_beyond_wp=1
expect 2 "--rwmixwrite: [a] rwmixread=70 and rwmixwrite=50 add up to 120%" \
	-- --parse-only --name=a --rwmixread=70 --rwmixwrite=50
expect 0 "warning: 'gtod_cpu' is ignored" -- --parse-only --name=a \
	--gtod_cpu=1

# Job files, --set, --section, standard input.
same default -- --parse-only jobs/default.ini
same set -- --parse-only --set size=16m --set bs=1m jobs/default.ini
same section -- --parse-only --section=seqwrite-64k jobs/default.ini
expect 2 "--section=nope: no job has that name" -- --parse-only --section=nope jobs/default.ini
expect 2 "--set bogus=1: unknown option 'bogus'" -- --parse-only --set bogus=1 jobs/default.ini
expect 2 "--set bs=4q: '4q': unknown size suffix" -- --parse-only --set bs=4q jobs/default.ini
expect 2 "--set bs: [randread-4k] block size 1048576 is larger than the size of 65536" \
	-- --parse-only --set size=64k --set bs=1m jobs/default.ini
printf '[global]\nbs=8k\n[from-stdin]\nrw=write\n' | "$bin" --parse-only - >"$tmp/out" 2>&1
grep -q '^bs=8192 .*; <stdin>:2 (global)$' "$tmp/out" && ok || bad "stdin job: $(cat "$tmp/out")"
printf '[j]\nbs=4q\n' | "$bin" --parse-only - >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "^iogauge: <stdin>:2: bs: '4q'" "$tmp/err" && ok || bad "stdin error"

# Several files: the second file's first job is stonewalled; command-line
# defaults reach every file.
printf '[x]\n' >"$tmp/one.fio"
printf '[y]\n[z]\n' >"$tmp/two.fio"
"$bin" --parse-only --iodepth=8 "$tmp/one.fio" "$tmp/two.fio" >"$tmp/out"
[ "$(grep -c '^iodepth=8 .*; --iodepth (global)$' "$tmp/out")" -eq 3 ] && ok ||
	bad "command-line default not in every file's jobs"
[ "$(grep -c '^stonewall=1 ' "$tmp/out")" -eq 1 ] && ok || bad "second file not stonewalled"


# A real run in a scratch folder: the report, exit 0, and the file removed
# only because the job says unlink and the run created it.
(cd "$tmp" && "$bin" --name=r --filename=r.dat --size=1m --rw=randread --unlink=1 \
	>"$tmp/out" 2>"$tmp/err")
rc=$?
[ $rc -eq 0 ] && grep -q '^\[r\] 1 process, psync, iodepth 1, rw=randread, bs=4096' "$tmp/out" &&
	grep -q '^  IOs/sec: [0-9]' "$tmp/out" && [ ! -e "$tmp/r.dat" ] && ok ||
	bad "real run: rc=$rc $(cat "$tmp/out" "$tmp/err")"

# SIGINT stops the run at once, and the report still shows what ran.
(cd "$tmp" && exec "$bin" --name=long --filename=l.dat --size=1m --runtime=60 --time_based \
	--eta=always >"$tmp/out" 2>"$tmp/err") &
pid=$!
running "$tmp/err" || bad "SIGINT: the run did not start: $(cat "$tmp/err")"
kill -INT $pid
start=$(date +%s)
wait $pid
rc=$?
[ $rc -eq 130 ] && [ $(($(date +%s) - start)) -le 2 ] &&
	grep -q "interrupted: partial results" "$tmp/out" && grep -q '^  IOs/sec: [0-9]' "$tmp/out" &&
	ok || bad "SIGINT: rc=$rc $(cat "$tmp/out" "$tmp/err")"

# As fio, each clone runs in a process of its own unless its job sets
# thread; a clone's process that dies is that clone's error, and the
# others run on (here until SIGINT).
for mode in process thread; do
	# The last mode's status lines must not pass for this one's.
	rm -f "$tmp/err"
	(cd "$tmp" && exec "$bin" --name=pk --filename=pk.dat --size=1m --rw=randread --numjobs=2 \
		--runtime=60 --time_based --thread=$([ $mode = thread ] && echo 1 || echo 0) \
		--eta=always >"$tmp/out" 2>"$tmp/err") &
	pid=$!
	if [ $mode = thread ]; then running "$tmp/err"; else running "$tmp/err" $pid 2; fi
	kids=$(pgrep -P $pid | wc -l)
	if [ $mode = thread ]; then
		[ "$kids" -eq 0 ] && ok || bad "thread=1: $kids child processes"
		kill -INT $pid
		wait $pid
		continue
	fi
	[ "$kids" -eq 2 ] && ok || bad "thread=0: $kids child processes, not 2"
	kid=$(pgrep -P $pid | head -1)
	kill -KILL "$kid"
	# SIGINT once the run has seen the clone die (its process is reaped).
	end=$((SECONDS + settle))
	while [ -e /proc/$kid ] && [ $SECONDS -lt $end ]; do sleep 0.05; done
	kill -INT $pid
	wait $pid
	rc=$?
	[ $rc -eq 130 ] && grep -q "clone 1 of 2: its process was killed by signal 9 (Killed)" "$tmp/err" &&
		grep -q '^  IOs/sec: [1-9]' "$tmp/out" && ok ||
		bad "a clone's process killed: rc=$rc $(cat "$tmp/err" "$tmp/out")"
done

# As fio, a clone makes and fills its own buffers before its clock starts:
# no page of them is first written (a fault, and a copy from the run's
# process) inside the measured time.  16 MiB of buffers, 4096 pages: the
# minor faults inside a clone's run were 4099 when it wrote into buffers
# its parent had filled.  A direct read's buffers are the kernel's to
# write: the same holds.  So for the random map of a block-size range
# (2 MiB for 64 GiB: 512 faults when first written in the run).
for mode in process thread; do
	for job in "--ioengine=null --rw=write --bs=1m --iodepth=16 --size=64m" \
		"--filename=$tmp/fa.dat --direct=1 --rw=read --bs=16m --size=64m" \
		"--ioengine=null --rw=randread --bsrange=4k-8k --size=64g --runtime=1 --time_based"; do
		"$bin" --name=fa $job --thread=$([ $mode = thread ] && echo 1 || echo 0) \
			--output-format=json >"$tmp/out" 2>"$tmp/err"
		rc=$?
		minf=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["jobs"][0]["minf"])' "$tmp/out" 2>/dev/null)
		[ $rc -eq 0 ] && [ -n "$minf" ] && [ "$minf" -lt 256 ] && ok ||
			bad "buffers faulted in the clock ($mode, $job): rc=$rc minf=$minf $(cat "$tmp/err")"
	done
done

# A sync engine's clat runs from just before its call, also when lat is
# not measured (disable_lat): not from the last completion, which would
# put the 1 MiB refill before each write into it (2.9 times the clat).
for dl in 0 1; do
	"$bin" --name=cl --filename="$tmp/cl.dat" --rw=write --bs=1m --size=64m --refill_buffers=1 \
		--disable_lat=$dl --output-format=json >"$tmp/cl$dl.json" 2>"$tmp/err"
done
python3 - "$tmp/cl0.json" "$tmp/cl1.json" <<'PY'
import json, sys
m = [json.load(open(f))["jobs"][0]["write"]["clat_ns"]["mean"] for f in sys.argv[1:]]
sys.exit(0 if 0 < m[1] < 1.5 * m[0] else 1)
PY
[ $? -eq 0 ] && ok || bad "psync clat with disable_lat: $(cat "$tmp/err")"
rm -f "$tmp/cl.dat"

# rw=randread:N runs now (tests/cli/offsets.py checks its offsets against fio).
(cd "$tmp" && "$bin" --name=x --filename=x.dat --size=1m --rw=randread:2 >"$tmp/out" 2>"$tmp/err")
rc=$?
[ $rc -eq 0 ] && [ -e "$tmp/x.dat" ] && ok || bad "rw=randread:2: rc=$rc $(cat "$tmp/err")"
rm -f "$tmp/x.dat"

# Engines: the list, one engine's help, a typo, a warning that runs anyway.
"$bin" --list-engines >"$tmp/engines"
for e in psync sync mmap null; do
	grep -q "^$e " "$tmp/engines" && ok || bad "--list-engines lacks $e: $(cat "$tmp/engines")"
done
"$bin" --enghelp=psync | grep -q "^psync (sync): pread/pwrite" && ok || bad "--enghelp=psync"
expect 2 "--enghelp=psyn: no such engine in this build; did you mean 'psync'?" -- --enghelp=psyn
if grep -q "^io_uring " "$tmp/engines"; then
	"$bin" --enghelp=io_uring >"$tmp/help"
	grep -q "^  fixedbufs  " "$tmp/help" && grep -q "^  sqthread_poll  " "$tmp/help" && ok ||
		bad "--enghelp=io_uring: $(cat "$tmp/help")"
fi
if grep -q "^libaio " "$tmp/engines"; then
	(cd "$tmp" && "$bin" --name=ab --filename=ab.dat --size=256k --ioengine=libaio \
		--iodepth=4 --unlink=1 >"$tmp/out2" 2>"$tmp/err")
	[ $? -eq 0 ] && grep -q "warning: \[ab\] ioengine=libaio without direct=1" "$tmp/err" &&
		grep -q '^\[ab\] 1 process, libaio, iodepth 4' "$tmp/out2" && ok ||
		bad "buffered libaio: $(cat "$tmp/err" "$tmp/out2")"
fi
# null opens no file: nothing is created where the job names one.
(cd "$tmp" && "$bin" --name=n --filename=n.dat --size=1m --ioengine=null --iodepth=8 \
	>"$tmp/out2" 2>"$tmp/err")
[ $? -eq 0 ] && [ ! -e "$tmp/n.dat" ] && grep -q '^IO depths: 1=' "$tmp/out2" && ok ||
	bad "null engine: $(cat "$tmp/err" "$tmp/out2")"

# io_uring refused by a seccomp filter (as in a container): a message that
# says why and what to use instead, exit 1, no file left behind.
if [ -n "${IOGAUGE_NORING:-}" ] && grep -q "^io_uring " "$tmp/engines"; then
	for why in EPERM ENOSYS; do
		(cd "$tmp" && "$IOGAUGE_NORING" $why "$bin" --name=u --filename=u.dat --size=64k \
			--ioengine=io_uring >"$tmp/out2" 2>"$tmp/err")
		rc=$?
		case $why in
		EPERM) want="io_uring_setup was refused (EPERM), a seccomp filter" ;;
		ENOSYS) want="this kernel has no io_uring (ENOSYS)" ;;
		esac
		if [ $rc -eq 77 ]; then
			echo "skip: seccomp filters unavailable"
		elif [ $rc -eq 1 ] && grep -qF "[u] ioengine=io_uring: io_uring is not available: $want" \
			"$tmp/err" && grep -q "use ioengine=libaio" "$tmp/err" && [ ! -e "$tmp/u.dat" ]; then
			ok
		else
			bad "io_uring refused ($why): rc=$rc $(cat "$tmp/err")"
		fi
	done
	# As fio, io_uring registers its buffers only with fixedbufs; when the
	# locked-memory limit refuses them, that is an error.  They are
	# registered twice: at set-up in the run's process, which checks that
	# it can and lets them go, then in the clone's own process or thread,
	# for its own ring.
	# (LeakSanitizer cannot run under ptrace: off for these runs.)
	for mode in process thread; do
		for fb in 0 1; do
			want=$((fb * 2))
			ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
				strace -f -e trace=io_uring_register -o "$tmp/st" "$bin" --name=r --filename="$tmp/r.dat" \
				--size=1m --ioengine=io_uring --iodepth=4 --fixedbufs=$fb --thread=$([ $mode = thread ] && echo 1 || echo 0) \
				>/dev/null 2>&1 || {
				bad "io_uring fixedbufs=$fb ($mode) failed"
				continue
			}
			n=$(grep -c "IORING_REGISTER_BUFFERS, .*4) = 0" "$tmp/st")
			[ "$n" -eq $want ] && ok || bad "io_uring fixedbufs=$fb ($mode): $n buffer registrations: $(cat "$tmp/st")"
		done
	done
	# As fio: the ring that does the I/O is made in the clone's own thread
	# or process, with completions that wait to be asked for (CQSIZE,
	# COOP_TASKRUN, SINGLE_ISSUER, DEFER_TASKRUN: 0x3108) rather than
	# interrupting the submitter, and each submission also posts what has
	# completed (GETEVENTS).  The kernel here (5.19 and later) has them all.
	for mode in process thread; do
		ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
			strace -f -X raw -e trace=io_uring_setup,io_uring_enter -o "$tmp/st" "$bin" --name=r \
			--filename="$tmp/r.dat" --size=1m --ioengine=io_uring --iodepth=4 \
			--thread=$([ $mode = thread ] && echo 1 || echo 0) >"$tmp/out2" 2>&1
		rc=$?
		python3 - "$tmp/st" <<'PY'
import re, sys
setups, submits = {}, {}
for line in open(sys.argv[1]):
    m = re.match(r"(\d+) +io_uring_setup\(\d+, \{flags=(0x[0-9a-f]+|0),.*= (\d+)$", line)
    if m:
        setups[(m[1], m[3])] = int(m[2], 16)
    m = re.match(r"(\d+) +io_uring_enter\((\d+), (\d+), \d+, (0x[0-9a-f]+|0),", line)
    if m and int(m[3]) > 0:
        submits.setdefault((m[1], m[2]), []).append(int(m[4], 16))
# The ring that submitted was set up by the task that submits on it.
ok = submits and all(k in setups and setups[k] & 0x3108 == 0x3108 and
                     all(f & 1 for f in v) for k, v in submits.items())
sys.exit(0 if ok else 1)
PY
		[ $? -eq 0 ] && [ $rc -eq 0 ] && ok ||
			bad "io_uring ring ($mode): not made by its submitter with COOP/DEFER_TASKRUN: rc=$rc $(grep -v '^[0-9]* *io_uring_enter' "$tmp/st" | head -5)"
	done
	# With sqthread_poll the kernel thread submits: a commit enters only
	# to wake it (4195 calls for 1024 I/Os when every commit entered).
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
		strace -f -e trace=io_uring_enter -o "$tmp/st" "$bin" --name=r --filename="$tmp/r.dat" \
		--size=4m --ioengine=io_uring --iodepth=8 --sqthread_poll=1 --rw=randread \
		--output-format=terse >"$tmp/out2" 2>&1
	rc=$?
	n=$(grep -c 'io_uring_enter(' "$tmp/st")
	[ $rc -eq 0 ] && [ "$n" -lt 512 ] && ok || bad "sqthread_poll: rc=$rc, $n io_uring_enter calls for 1024 I/Os"
	# Under DEFER_TASKRUN nothing completes until the ring is asked: a reap
	# that only polls (iodepth_batch_complete_min=0) must ask, or the job
	# never ends.
	timeout 20 "$bin" --name=r --filename="$tmp/r.dat" --size=1m --ioengine=io_uring --iodepth=8 \
		--iodepth_batch_complete_min=0 --rw=randread --output-format=terse >"$tmp/out2" 2>"$tmp/err"
	rc=$?
	[ $rc -eq 0 ] && [ "$(cut -d';' -f6 "$tmp/out2")" = 1024 ] && ok ||
		bad "io_uring iodepth_batch_complete_min=0: rc=$rc $(cat "$tmp/out2" "$tmp/err")"
	if [ "$(id -u)" -eq 0 ] && id nobody >/dev/null 2>&1; then
		chmod 711 "$tmp" && mkdir "$tmp/lim" && chmod 777 "$tmp/lim"
		for fb in 0 1; do
			prlimit --memlock=65536 setpriv --reuid=nobody --regid="$(id -g nobody)" \
				--clear-groups "$bin" --name=m --filename="$tmp/lim/m.dat" --size=4m --bs=64k --ioengine=io_uring \
				--rw=randread --iodepth=8 --direct=1 --fixedbufs=$fb >"$tmp/out2" 2>"$tmp/err"
			rc=$?
			if [ $fb -eq 0 ]; then
				[ $rc -eq 0 ] && grep -q '^  IOs/sec: [1-9]' "$tmp/out2" && ok ||
					bad "64 KiB memlock, no fixedbufs: rc=$rc $(cat "$tmp/err")"
			else
				[ $rc -eq 1 ] && grep -qF "fixedbufs: registering 8 buffers of 65536 bytes: Cannot allocate memory (the locked-memory limit" "$tmp/err" && ok ||
					bad "64 KiB memlock, fixedbufs=1: rc=$rc $(cat "$tmp/err")"
			fi
		done
		chmod 700 "$tmp"
	fi
	# Ctrl-C at depth 32: what is in flight drains, the report shows what ran.
	(cd "$tmp" && exec "$bin" --name=q --filename=q.dat --size=4m --ioengine=io_uring \
		--iodepth=32 --direct=1 --runtime=60 --time_based --eta=always \
		>"$tmp/out2" 2>"$tmp/err") &
	pid=$!
	running "$tmp/err" || bad "SIGINT at depth 32: the run did not start: $(cat "$tmp/err")"
	kill -INT $pid
	wait $pid
	rc=$?
	[ $rc -eq 130 ] && grep -q "interrupted: partial results" "$tmp/out2" &&
		grep -q '^  IOs/sec: [0-9]' "$tmp/out2" && ok ||
		bad "SIGINT at depth 32: rc=$rc $(cat "$tmp/out2" "$tmp/err")"
fi

# With iomem=thp, I/O buffers of 2 MiB and more are asked for as huge
# pages (one 1 MiB direct I/O then fits one device request): 8 x 1 MiB,
# 2 MiB aligned, madvised; by default (fio's malloc) they are not.  A kernel
# without THP refuses the hint; the run goes on.
# (Not under valgrind: it replaces the allocator and lays out memory its own way.)
if [ -e /sys/kernel/mm/transparent_hugepage/enabled ] && [ -z "${IOGAUGE_VALGRIND:-}" ]; then
	for mem in thp malloc; do
		"$bin" --name=thp --ioengine=null --size=1g --bs=1m --iodepth=8 --rw=read \
			--time_based --runtime=5 --iomem=$mem --eta=always >/dev/null 2>"$tmp/thp.err" &
		pid=$!
		running "$tmp/thp.err" $pid 1
		# The buffers are the clone's, in its own process.  Its map is
		# copied at once: pyenv's python3 alone can take half a second to
		# start, longer on a loaded machine.
		kid=$(pgrep -P $pid | head -1)
		cat "/proc/${kid:-$pid}/smaps" >"$tmp/smaps" 2>/dev/null || : >"$tmp/smaps"
		python3 - "$tmp/smaps" <<'PY'
import re, sys
cur = None
smaps = open(sys.argv[1]).readlines()
if not smaps:
    sys.exit(2)  # the run is gone: nothing was looked at
for line in smaps:
    m = re.match(r"([0-9a-f]+)-([0-9a-f]+) ", line)
    if m:
        cur = (int(m[1], 16), int(m[2], 16))
    elif line.startswith("VmFlags") and " hg" in line and cur[0] % (2 << 20) == 0 and \
            cur[1] - cur[0] >= 8 << 20:
        sys.exit(0)
sys.exit(1)
PY
		rc=$?
		wait $pid
		run_rc=$?
		[ $run_rc -eq 0 ] && [ $rc -eq $([ $mem = thp ] && echo 0 || echo 1) ] && ok ||
			bad "iomem=$mem: a 2 MiB-aligned MADV_HUGEPAGE region of 8 MiB: check $rc (0 found, 1 none, 2 no process), run exit $run_rc"
	done
fi

# The recipes in jobs/ all parse.
for f in jobs/*.ini; do
	"$bin" --parse-only "$f" >/dev/null 2>"$tmp/err" && ok || bad "$f: $(cat "$tmp/err")"
done

echo "cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
