#!/usr/bin/env bash
# Every C file is formatted as .clang-format (Linux kernel style) says.
# Skipped (77) where clang-format is not installed.
set -u
cd "${IOGAUGE_SRC:?}" || exit 1
command -v clang-format >/dev/null || { echo "clang-format not installed"; exit 77; }
fail=0 pass=0
for f in $(git ls-files '*.c' '*.h' 2>/dev/null || find src include tests -name '*.[ch]'); do
	if clang-format --dry-run --Werror "$f" 2>/dev/null; then
		pass=$((pass + 1))
	else
		echo "FAIL: $f is not formatted (clang-format -i $f)"
		fail=$((fail + 1))
	fi
done
echo "format: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
