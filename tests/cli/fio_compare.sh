#!/usr/bin/env bash
# Compare iogauge's option parsing with fio's on fio-style job files.
#
# For every tests/data/fio-examples/*.fio this runs
#   fio --debug=parse --parse-only FILE     (what fio resolved, per section)
#   fio --showcmd FILE                      (the jobs fio creates, by name)
#   $IOGAUGE_BIN --parse-only FILE          (iogauge's final value per job)
# and checks that every number fio resolves is iogauge's final value for the
# same job and option, that the jobs and their names agree, and that rw,
# ioengine and kb_base (strings fio prints no value for) agree by name.
#
# One line per mismatch:  MISMATCH FILE [JOB] OPTION: fio=X iogauge=Y
# then:                   fio comparison: N passed, M failed
# Exit 0 when nothing differs, 1 otherwise, 77 (skip) without fio.
#
# Environment (set by CTest): IOGAUGE_BIN, the binary; IOGAUGE_SRC, the repo.
set -u

bin=${IOGAUGE_BIN:?IOGAUGE_BIN must name the iogauge binary}
src=${IOGAUGE_SRC:?IOGAUGE_SRC must name the source tree}
fio=${FIO:-fio}

if ! command -v "$fio" >/dev/null 2>&1; then
	echo "SKIP: fio is not installed"
	echo "fio comparison: 0 passed, 0 failed"
	exit 77
fi

# env-ncpus.fio takes these through ${VAR}; both tools see the same values.
export IOGAUGE_CMP_BS=16k IOGAUGE_CMP_DEPTH=6

tmp=$(mktemp -d "${TMPDIR:-/tmp}/fio_compare.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

# fio's debug lines carry the option's canonical fio name.  iogauge lists
# its own names and aliases in --help-options ("blockalign|ba ..."); where
# fio's canonical name is one of iogauge's aliases that table maps it.
# These are fio names that differ from iogauge's and are spelt out here so
# the mapping does not hinge on iogauge's help text alone.
static_aliases='ba blockalign
timeout runtime
iodepth_batch iodepth_batch_submit
iodepth_batch_complete iodepth_batch_complete_min
nr_files nrfiles
fileoffset offset
io_limit io_size
wait_for_previous stonewall
readwrite rw
blocksize bs
blocksize_range bsrange'

# fio options that have no iogauge counterpart and do nothing in fio either,
# so there is nothing to compare.  threads= is the tiobench profile's option
# (examples/waitfor.fio uses it); fio accepts it and ignores it.
fio_only_noops='threads'

# alias_table: "FIONAME IOGAUGENAME" lines, iogauge's own list first.
alias_table() {
	"$bin" --help-options 2>/dev/null | awk '
		{ n = split($1, names, "|")
		  for (i = 1; i <= n; i++) print names[i], names[1] }'
	echo "$static_aliases"
}

# fio_records DEBUGLOG: what fio resolved for each job, as tab-separated
# records, with [global] values inherited by the jobs below them (a later
# [global] only affects jobs after it, as in fio).
#   J  job-index  section  explicit-name-or-empty
#   N  job-index  option  piece  value  fio-type  full-ptr   one per out= line
#   S  job-index  option  ptr                                 one per option
#   T  kind  value      the --name= tokens fio --showcmd should print
# fio parses a section's options when the next section starts, after its
# "Parsing section [X]" line, so every option line belongs to the last
# such line.  A piece whose ret is not 0 (the empty piece after a trailing
# comma) stored nothing, so it gets no N record but still counts as a piece.
fio_records() {
	awk '
	function flush(   i, o) {
		if (sect == "")
			return
		if (is_global) {
			for (i = 1; i <= ncur; i++) {
				o = cur_order[i]
				if (!(o in G))
					gorder[++ng] = o
				G[o] = CUR[o]
				if (o == "name")
					printf "T\tglobal-name\t%s\n", name_opt
			}
		} else {
			job++
			printf "T\tsection\t%s\n", sect
			if ("name" in CUR)
				printf "T\tjob-name\t%s\n", name_opt
			printf "J\t%d\t%s\t%s\n", job, sect, ("name" in CUR) ? name_opt : ""
			for (i = 1; i <= ng; i++)
				if (!(gorder[i] in CUR))
					emit(gorder[i], G[gorder[i]])
			for (i = 1; i <= ncur; i++)
				emit(cur_order[i], CUR[cur_order[i]])
		}
		split("", CUR); ncur = 0
	}
	# An occurrence is stored as type SEP ptr SEP npieces SEP piece1 ...,
	# each piece "ok:value" or "bad:".
	function emit(o, occ,   f, n, i) {
		n = split(occ, f, SEP)
		printf "S\t%d\t%s\t%s\n", job, o, f[2]
		for (i = 4; i <= n; i++)
			if (f[i] ~ /^ok:/)
				printf "N\t%d\t%s\t%d\t%s\t%s\t%s\n", job, o, i - 3, substr(f[i], 4), f[1], f[2]
	}
	BEGIN { SEP = "\034" }
	{ sub(/^parse +[0-9]+ +/, "") }
	/^Parsing section \[/ {
		flush()
		sect = $0
		sub(/^Parsing section \[/, "", sect); sub(/\]$/, "", sect)
		is_global = (substr(sect, 1, 6) == "global")   # fio: strncmp(name, "global", 6)
		next
	}
	/^handle_option=/ {
		opt = $0; sub(/^handle_option=/, "", opt); sub(/, ptr=.*/, "", opt)
		ptr = $0; sub(/^[^,]*, ptr=/, "", ptr)
		if (!(opt in CUR))
			cur_order[++ncur] = opt
		CUR[opt] = "?" SEP ptr SEP 0
		if (opt == "name")
			name_opt = ptr
		next
	}
	/^__handle_option=/ {
		type = $0; sub(/^[^,]*, type=/, "", type); sub(/,.*/, "", type)
		n = split(CUR[opt], f, SEP)
		f[1] = type; f[3]++
		CUR[opt] = f[1] SEP f[2] SEP f[3]
		for (i = 4; i <= n; i++)
			CUR[opt] = CUR[opt] SEP f[i]
		CUR[opt] = CUR[opt] SEP "bad:"      # until its ret=0 line says otherwise
		next
	}
	/^ret=/ {
		ret = $0; sub(/^ret=/, "", ret); sub(/,.*/, "", ret)
		out = $0; sub(/^[^,]*, out=/, "", out)
		if (ret == "0")
			sub(/bad:$/, "ok:" out, CUR[opt])
		next
	}
	END { flush() }
	' "$1"
}

# iogauge_records OUTPUT: iogauge --parse-only as records
#   IJ  job-index  name            a "[name]" header
#   IO  job-index  option  value   "option=value   ; origin"
#   IU  job-index  option          "; option   ; not set"
iogauge_records() {
	awk '
	/^\[.*\]$/ { job++; printf "IJ\t%d\t%s\n", job, substr($0, 2, length($0) - 2); next }
	/^; [^ ]/ { printf "IU\t%d\t%s\n", job, $2; next }
	/^[A-Za-z0-9_]+=/ {
		opt = $0; sub(/=.*/, "", opt)
		val = substr($0, length(opt) + 2)
		sub(/ +; [^;]*$/, "", val)          # the origin comment
		printf "IO\t%d\t%s\t%s\n", job, opt, val
	}' "$1"
}

# showcmd_records OUTPUT: the --name= values of "fio --showcmd", in order.
showcmd_records() {
	tr '\n' ' ' <"$1" | awk '
	{ n = split($0, tok, / --/)
	  for (i = 2; i <= n; i++)
		if (tok[i] ~ /^name=/) {
			v = substr(tok[i], 6); sub(/ +$/, "", v)
			if (v ~ /^".*"$/) v = substr(v, 2, length(v) - 2)
			printf "C\t%s\n", v
		} }'
}

# compare FILE: reads alias, fio, showcmd and iogauge records on stdin,
# prints mismatch lines and a last line "COUNTS passed failed".
compare() {
	awk -F'\t' -v file="$1" -v noops=" $fio_only_noops " '
	function bad(job, what, f, i) {
		printf "MISMATCH %s [%s] %s: fio=%s iogauge=%s\n", file, job, what, f, i
		failed++
	}
	# Microseconds in an iogauge time ("2m", "1500ms", "10s"); a bare number
	# is in the default unit of the option, dflt microseconds.
	function usec(v, dflt,   num, unit) {
		num = v; sub(/[a-z]+$/, "", num)
		unit = substr(v, length(num) + 1)
		if (unit == "")   return num * dflt
		if (unit == "d")  return num * 86400000000
		if (unit == "h")  return num * 3600000000
		if (unit == "m")  return num * 60000000
		if (unit == "s")  return num * 1000000
		if (unit == "ms") return num * 1000
		if (unit == "us") return num
		if (unit == "ns") return num / 1000
		return "?" v
	}
	function fmt(x) { return (x == int(x)) ? sprintf("%.0f", x) : sprintf("%.3f", x) }
	# fio stores "N%" for size, offset, io_size... as UINT64_MAX - N; print it
	# back as N%.  Done on the digits: the value is beyond what a double holds.
	function fio_num(v) {
		if (length(v) == 20 && substr(v, 1, 16) == "1844674407370955")
			return (1615 - substr(v, 17)) "%"
		return v
	}
	# Bytes in a fio size as fio reads an rw=MODE:N suffix: k/m/g/t/p(+b)
	# follow kb_base, the KiB/MiB... forms the other base (fio reverses the
	# two under its default kb_base=1024).
	function bytes(v, kb,   neg, num, sfx, base, p) {
		neg = (v ~ /^-/); if (neg) v = substr(v, 2)
		num = v; sub(/[A-Za-z]+$/, "", num)
		sfx = tolower(substr(v, length(num) + 1))
		base = (sfx ~ /i/) ? ((kb == 1000) ? 1024 : 1000) : kb
		p = index("kmgtp", substr(sfx, 1, 1))
		num = num * (sfx == "" ? 1 : base ^ p)
		return (neg ? "-" : "") fmt(num)
	}
	function rw_norm(v, kb,   mode, n) {
		mode = v; n = ""
		if (index(v, ":")) { mode = substr(v, 1, index(v, ":") - 1); n = substr(v, index(v, ":") + 1) }
		if (mode == "readwrite") mode = "rw"
		return (n == "") ? mode : mode ":" bytes(n, kb)
	}
	function name_of(o) { return (o in ALIAS) ? ALIAS[o] : o }

	$1 == "A" { if (!($2 in ALIAS)) ALIAS[$2] = $3; next }
	$1 == "T" { nt++; TK[nt] = $2; TV[nt] = $3; next }
	$1 == "C" { nc++; CV[nc] = $2; next }
	$1 == "J" { nj = $2; FSECT[$2] = $3; FNAME[$2] = ($4 != "") ? $4 : $3; next }
	$1 == "S" { FPTR[$2, $3] = $4; if (!(($2, $3) in SEEN)) { SEEN[$2, $3]; ns[$2]++; SOPT[$2, ns[$2]] = $3 }; next }
	$1 == "N" { nn++; NJ[nn] = $2; NO[nn] = $3; NP[nn] = $4; NV[nn] = $5; NT[nn] = $6; NPTR[nn] = $7; next }
	$1 == "IJ" { ni = $2; INAME[$2] = $3; next }
	$1 == "IO" { IV[$2, $3] = $4; next }
	$1 == "IU" { IUNSET[$2, $3]; next }

	END {
		split("read write trim", DIR, " ")
		# The jobs.  --showcmd prints "--name=SECTION" for each job but also
		# prints a name= option as "--name=", and a [global] name= does not
		# name any job (each job is named after its section unless the job
		# sets name= itself).  So the names fio --showcmd lists must be the
		# tokens the parse log predicts; the job names follow from the log.
		for (i = 1; i <= (nt > nc ? nt : nc); i++)
			if (TV[i] != CV[i]) {
				# fio disagrees with itself, or this script misreads it.
				printf "MISMATCH %s [-] fio --showcmd --name #%d: showcmd=%s parse-log=%s (%s)\n", \
				    file, i, CV[i], TV[i], TK[i]
				failed++
				break
			}
		if (nj == ni) passed++
		else bad("-", "number of jobs", nj + 0, ni + 0)
		for (j = 1; j <= nj && j <= ni; j++)
			if (FNAME[j] == INAME[j]) passed++
			else bad(FSECT[j], "job name", FNAME[j], INAME[j])

		# Numbers: one per out= piece.
		for (k = 1; k <= nn; k++) {
			j = NJ[k]; o = NO[k]; io = name_of(o)
			if (j > ni || index(noops, " " o " ")) continue
			job = FNAME[j]
			what = o (io != o ? "(" io ")" : "")
			if (!((j, io) in IV)) {
				bad(job, what, fio_num(NV[k]), ((j, io) in IUNSET) ? "(not set)" : "(no such option)")
				continue
			}
			# iogauge prints read,write,trim or lo-hi, or one value for all;
			# fio prints one out= per comma (or range) piece, in that order.
			iv = IV[j, io]
			np = split(iv, P, ",")
			if (np == 1 && index(NPTR[k], "-") > 1 && index(iv, "-") > 1) np = split(iv, P, "-")
			piece = P[NP[k] <= np ? NP[k] : np]
			if (index(NPTR[k], ",") || index(iv, ","))
				what = what "[" DIR[NP[k]] "]"
			else if (np > 1)
				what = what "[" (NP[k] == 1 ? "lo" : "hi") "]"
			fv = fio_num(NV[k]); shown = piece
			# fio counts times in microseconds: runtime, ramp_time and
			# startdelay (OPT_STR_VAL_TIME, bare numbers in seconds), and
			# thinktime (an int in microseconds in fio 3.33).
			if (NT[k] == "OPT_STR_VAL_TIME" || o == "thinktime") {
				piece = usec(piece, (NT[k] == "OPT_STR_VAL_TIME") ? 1000000 : 1)
				if (piece !~ /^\?/) piece = fmt(piece)
				if (piece != shown) shown = shown " (" piece "us)"
			}
			if (fv == piece) passed++
			else bad(job, what, fv, shown)
		}

		# Strings fio prints no value for, compared by name.
		for (j = 1; j <= nj && j <= ni; j++) {
			kb = ((j, "kb_base") in FPTR) ? FPTR[j, "kb_base"] + 0 : 1024
			for (s = 1; s <= ns[j]; s++) {
				o = SOPT[j, s]
				if (o != "rw" && o != "ioengine" && o != "kb_base") continue
				f = FPTR[j, o]; iv = IV[j, name_of(o)]
				if (o == "rw") { f = rw_norm(f, kb); iv = rw_norm(iv, kb) }
				if (f == iv) passed++
				else bad(FNAME[j], o, FPTR[j, o], IV[j, name_of(o)])
			}
		}
		printf "COUNTS %d %d\n", passed, failed
	}'
}

# needs_bc FILE: fio hands $ncpus/$mb_memory/$pagesize arithmetic to bc.
needs_bc() {
	# shellcheck disable=SC2016  # a literal $ncpus, not an expansion
	grep -Eq '\$(ncpus|mb_memory|pagesize)[^;#]*[-+*/]|[-+*/][^;#]*\$(ncpus|mb_memory|pagesize)' "$1"
}

cd "$src/tests/data/fio-examples" || exit 1
total_pass=0 total_fail=0
for f in *.fio; do
	if needs_bc "$f" && ! command -v bc >/dev/null 2>&1; then
		echo "SKIP $f: fio needs bc for its \$ncpus arithmetic"
		continue
	fi
	if ! "$fio" --debug=parse --parse-only "$f" >"$tmp/fio.log" 2>&1; then
		echo "MISMATCH $f [-] (file): fio refused it: $(grep -m1 -E '^fio:|[Ee]rror|failed' "$tmp/fio.log" | grep -v 'set debug')"
		total_fail=$((total_fail + 1))
		continue
	fi
	"$fio" --showcmd "$f" >"$tmp/showcmd" 2>/dev/null
	if ! "$bin" --parse-only "$f" >"$tmp/iogauge.out" 2>"$tmp/iogauge.err"; then
		echo "MISMATCH $f [-] (file): fio=accepted iogauge=refused: $(head -n1 "$tmp/iogauge.err")"
		total_fail=$((total_fail + 1))
		continue
	fi
	{
		alias_table | awk '{ printf "A\t%s\t%s\n", $1, $2 }'
		fio_records "$tmp/fio.log"
		showcmd_records "$tmp/showcmd"
		iogauge_records "$tmp/iogauge.out"
	} | compare "$f" >"$tmp/result"
	grep -v '^COUNTS ' "$tmp/result"
	read -r _ p m < <(grep '^COUNTS ' "$tmp/result")
	total_pass=$((total_pass + ${p:-0}))
	total_fail=$((total_fail + ${m:-1}))
done

echo "fio comparison: $total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
