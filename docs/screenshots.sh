#!/usr/bin/env bash
# Remakes docs/html-default.png and docs/html-mixed.png: the HTML report
# (--html) of the default job and of the OLTP read/write mix (with its
# histogram log, for the heat maps), each run for
# a few seconds in a temporary folder on the filesystem of the current one,
# shot whole by headless Chromium (tests/cli/chromium.py), then made smaller
# with pngquant when it is installed (the README wants each under 200 KB).
# Usage: bash docs/screenshots.sh [BUILD_DIR]   (default: build)
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$src/build}" && pwd)
work=$(mktemp -d "$PWD/.iogauge-shots-XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir "$work/jobs"
cp "$src/jobs/default.ini" "$src/jobs/oltp-8k-mix.ini" "$work/jobs/"
cd "$work"
export PATH="$build:$PATH"
iogauge --set runtime=3 --html=default.html jobs/default.ini >/dev/null
iogauge --set runtime=3 --set size=256m --set write_hist_log=mixed --set log_hist_msec=250 \
	--html=mixed.html jobs/oltp-8k-mix.ini >/dev/null
rm -f iogauge.*.dat
for n in default mixed; do
	python3 "$src/tests/cli/chromium.py" "$n.html" "$src/docs/html-$n.png" 1000
	if command -v pngquant >/dev/null; then
		pngquant --force --quality=60-90 --speed 1 --output "$src/docs/html-$n.png" \
			"$src/docs/html-$n.png"
	fi
	ls -l "$src/docs/html-$n.png"
done
