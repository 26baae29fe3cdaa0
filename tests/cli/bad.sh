#!/usr/bin/env bash
# The corpus of malformed job files: each must be refused with exit status
# 2, nothing on stdout, and the message its first line names, which gives
# the file:line (paths relative to tests/data).  Line 1 of each file:
#   ; expect: MESSAGE-SUBSTRING
# and optionally, line 2:  ; env: NAME=VALUE ...   (set for that run)
# A file whose line 2 starts "; parse-only: warns" passes --parse-only with
# the message as a warning (fio's --parse-only reads it too); badinput.py
# checks that a run still refuses it.
set -u
bin=${IOGAUGE_BIN:?}
cd "${IOGAUGE_SRC:?}/tests/data" || exit 1
pass=0 fail=0
for f in bad/*.fio; do
	want=$(sed -n '1s/^; expect: //p' "$f")
	envs=$(sed -n '2s/^; env: //p' "$f")
	if [ -z "$want" ]; then
		echo "FAIL $f: no '; expect:' line"
		fail=$((fail + 1))
		continue
	fi
	out=$(env $envs "$bin" --parse-only "$f" 2>/tmp/iogauge-bad.$$)
	rc=$?
	err=$(cat /tmp/iogauge-bad.$$)
	if sed -n 2p "$f" | grep -q '^; parse-only: warns'; then
		if [ $rc -ne 0 ] || [ -z "$out" ] || [[ "$err" != *"warning: $want"* ]]; then
			echo "FAIL $f: rc=$rc (want 0, a dump, and the warning)"
			echo "  want: warning: $want"
			echo "  got:  $err"
			fail=$((fail + 1))
		else
			pass=$((pass + 1))
		fi
		continue
	fi
	if [ $rc -ne 2 ] || [ -n "$out" ] || [[ "$err" != *"$want"* ]]; then
		echo "FAIL $f: rc=$rc (want 2)"
		echo "  want: $want"
		echo "  got:  $err"
		[ -n "$out" ] && echo "  stdout was not empty"
		fail=$((fail + 1))
	else
		pass=$((pass + 1))
	fi
done
rm -f /tmp/iogauge-bad.$$
echo "bad job files: $pass passed, $fail failed"
[ $fail -eq 0 ] && [ $pass -gt 0 ]
