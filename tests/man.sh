#!/usr/bin/env bash
# The man pages: groff -ww must print nothing (it exits 0 even when it
# warns), every job option in the table has its entry in
# iogauge-jobfile.5, and every command-line flag is in iogauge.1.
set -u
bin=${IOGAUGE_BIN:?}
src=${IOGAUGE_SRC:?}
pass=0 fail=0
check() {
	if eval "$2"; then pass=$((pass + 1)); else
		echo "FAIL: $1"
		fail=$((fail + 1))
	fi
}

for page in "$src/man/iogauge.1" "$src/man/iogauge-jobfile.5" "$src/man/iogauge-sqlio.1" \
	"$src/man/iogauge-compare.1" "$src/man/iogauge-sweep.1" "$src/man/iogauge-slo.1" "$src/man/iogauge-crash.1" \
	"$src/man/iogauge-pts.1" "$src/man/iogauge-recipe.1"; do
	out=$(groff -man -Tutf8 -ww -z "$page" 2>&1)
	check "groff warns on $page: $out" '[ -z "$out" ]'
done
for name in $("$bin" --help-options | awk '{ split($1, n, "|"); print n[1] }'); do
	check "option $name has no '.BI $name=' entry in iogauge-jobfile.5" \
		'grep -q "^\.BI $name=" "$src/man/iogauge-jobfile.5"'
done
# The flags are the ones the parser knows: cli_flags[] in src/jobfile/cli.c.
flags=$(sed -n '/cli_flags\[\] = {/,/};/p' "$src/src/jobfile/cli.c" | grep -o '"[a-z-]*"' | tr -d '"')
check "no flags found in src/jobfile/cli.c's cli_flags[]" '[ "$(echo "$flags" | wc -w)" -ge 10 ]'
help=$("$bin" --help)
for flag in $flags; do
	# roff spells each dash \-, as in \-\-parse\-only.
	pat=$(printf '%s' "--$flag" | sed 's/-/\\-/g')
	check "flag --$flag is not in iogauge.1" 'grep -qF -- "$pat" "$src/man/iogauge.1"'
	check "flag --$flag is not in iogauge --help" 'printf "%s\n" "$help" | grep -qE -- "^  --$flag([= ]|$)"'
done
# Every SQLIO flag of iogauge sqlio -? has its entry in iogauge-sqlio.1.
for flag in $("$bin" sqlio -? | sed -n 's/^ *\(-[a-zA-Z0-9?][0-9.]*\).*/\1/p' | cut -c1-3); do
	pat=$(printf '%s' "$flag" | sed 's/-/\\-/g')
	check "SQLIO flag $flag is not in iogauge-sqlio.1" 'grep -qF -- ".B $pat" "$src/man/iogauge-sqlio.1" || grep -qF -- ".BI $pat" "$src/man/iogauge-sqlio.1" || grep -qF -- ".BR $pat" "$src/man/iogauge-sqlio.1"'
done
# Every flag of iogauge compare --help has its entry in iogauge-compare.1.
for flag in $("$bin" compare --help | grep -o -- '--[a-z-]*' | sort -u); do
	pat=$(printf '%s' "$flag" | sed 's/-/\\-/g')
	check "compare flag $flag is not in iogauge-compare.1" 'grep -qF -- "$pat" "$src/man/iogauge-compare.1"'
done
# Every flag of iogauge sweep --help has its entry in iogauge-sweep.1.
for flag in $("$bin" sweep --help | grep -o -- '--[a-z-]*' | sort -u); do
	pat=$(printf '%s' "$flag" | sed 's/-/\\-/g')
	check "sweep flag $flag is not in iogauge-sweep.1" 'grep -qF -- "$pat" "$src/man/iogauge-sweep.1"'
done
for flag in $("$bin" slo --help | grep -o -- '--[a-z-]*' | sort -u); do
	pat=$(printf '%s' "$flag" | sed 's/-/\\-/g')
	check "slo flag $flag is not in iogauge-slo.1" 'grep -qF -- "$pat" "$src/man/iogauge-slo.1"'
done
# Every flag of iogauge crash --help and iogauge witness --help has its entry
# in iogauge-crash.1.
for flag in $( ("$bin" crash --help; "$bin" witness --help) | grep -o -- '--[a-z-]*' | sort -u); do
	pat=$(printf '%s' "$flag" | sed 's/-/\\-/g')
	check "crash flag $flag is not in iogauge-crash.1" 'grep -qF -- "$pat" "$src/man/iogauge-crash.1"'
done
# Every flag of iogauge recipes --help has its entry in iogauge-recipe.1.
for flag in $("$bin" recipes --help | grep -o -- '--[a-z-]*' | sort -u); do
	pat=$(printf '%s' "$flag" | sed 's/-/\\-/g')
	check "recipes flag $flag is not in iogauge-recipe.1" 'grep -qF -- "$pat" "$src/man/iogauge-recipe.1"'
done
echo "man: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
