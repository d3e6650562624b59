#!/bin/sh
# Renders kopt's HTML report in headless Chromium and checks that the DOM
# holds the trend chart (inline SVG) and the version table.
# usage: html_render_test.sh KOPT DATA_DIR WORK_DIR
# Exit 77 (CTest: skipped) with the reason when no Chromium is on PATH.
set -eu
kopt=$1
data=$2
work=$3

browser=""
for name in chromium chromium-browser; do
  if command -v "$name" >/dev/null 2>&1; then
    browser=$name
    break
  fi
done
if [ -z "$browser" ]; then
  echo "SKIPPED: no chromium (or chromium-browser) on PATH: cannot render the HTML report"
  exit 77
fi

fail() {
  echo "FAIL: $1 (DOM in $work/dom.html, browser log in $work/chromium.log)"
  exit 1
}

rm -rf "$work"
mkdir -p "$work/build/kernelopt/softmax" "$work/records/softmax"
cp -R "$data/src" "$work/src"
sed -e "s#@DIR@#$work#g" -e "s#@HARNESS@#/bin/false#g" "$data/manifest.json" \
  > "$work/build/kernelopt/softmax/manifest.json"
cp "$data"/expected/records/*.json "$work/records/softmax/"
"$kopt" report --manifest "$work/build/kernelopt/softmax/manifest.json" --out-dir "$work/out"

"$browser" --headless --no-sandbox --disable-gpu --dump-dom "file://$work/out/report.html" \
  > "$work/dom.html" 2> "$work/chromium.log" || fail "$browser exited with $?"

grep -Eq '<svg[^>]*id="trend-chart"' "$work/dom.html" || fail "no trend chart <svg id=\"trend-chart\">"
grep -q '<polyline class="best-so-far"' "$work/dom.html" || fail "the chart has no best-so-far line"
[ "$(grep -o '<circle class="version' "$work/dom.html" | wc -l)" -eq 10 ] || fail "the trend does not show the 5 recorded versions at 2 shapes"
grep -q '<table id="versions">' "$work/dom.html" || fail "no version table <table id=\"versions\">"
for v in v0 v1 v2 v3 v4 v5; do
  grep -q "<td>$v</td>" "$work/dom.html" || fail "the version table has no row for $v"
done
echo "ok: $browser rendered the report with its trend chart and version table"
