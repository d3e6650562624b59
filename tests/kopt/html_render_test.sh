#!/bin/sh
# Renders kopt's HTML report in headless Chromium at 1280 px wide and checks
# what a reader sees: every chart (inline SVG by id) and table, no
# horizontal overflow of the page (wide tables scroll inside their own box),
# and a screenshot of the expected width. The golden campaign's report gets
# notes with a wide table, a long code line and a long link, which would
# widen the page if the CSS let them.
# usage: html_render_test.sh KOPT DATA_DIR WORK_DIR [markdown|plain]
# The last says how this kopt shows notes: rendered by cmark-gfm (default),
# or plain text (built without it): a <pre> and the line saying so.
# Exit 77 (CTest: skipped) with the reason when no Chromium is on PATH.
set -eu
kopt=$1
data=$2
work=$3
notes_as=${4:-markdown}
readonly width=1280

browser=""
for name in chromium chromium-browser; do
  if command -v "$name" >/dev/null 2>&1; then
    browser=$name
    break
  fi
done
if [ -z "$browser" ]; then
  echo "SKIPPED: no chromium (or chromium-browser) on PATH: cannot render the HTML report (tools/setup.sh --browser installs it)"
  exit 77
fi

fail() {
  echo "FAIL: $1 (report in $work/out, DOM in $work/dom.html, browser log in $work/chromium.log)"
  exit 1
}

# Headless Chromium, without a sandbox (CI runs as root) or a GPU.
run_browser() {
  "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size="$width,1000" "$@" \
    2>> "$work/chromium.log"
}

rm -rf "$work"
mkdir -p "$work/build/kernelopt/softmax" "$work/records/softmax"
cp -R "$data/src" "$work/src"
sed -e "s#@DIR@#$work#g" -e "s#@HARNESS@#/bin/false#g" "$data/manifest.json" \
  > "$work/build/kernelopt/softmax/manifest.json"
cp "$data"/expected/records/*.json "$work/records/softmax/"
long=$(printf 'wide%.0s' $(seq 1 80))
{
  echo "# Campaign notes"
  echo
  echo "| a | b | c | d | e | f | g | h | i | j | k | l | m | n | o | p |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
  echo "| $long | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 | 11 | 12 | 13 | 14 | 15 | 16 |"
  echo
  echo '```'
  echo "ncu --metrics $long"
  echo '```'
  echo
  echo "See <https://example.com/$long>."
} > "$work/notes.md"
"$kopt" report --manifest "$work/build/kernelopt/softmax/manifest.json" --notes "$work/notes.md" \
  --out-dir "$work/out" > /dev/null || fail "kopt report exited with $?"

# The report itself has no script (it is self-contained and runs nothing); a
# copy gets one that writes the page's widths into the DOM after layout.
sed 's#</body>#<script>var e=document.documentElement;var p=document.createElement("p");p.id="kopt-measure";p.textContent="scrollWidth="+e.scrollWidth+" clientWidth="+e.clientWidth;document.body.appendChild(p);</script></body>#' \
  "$work/out/report.html" > "$work/measure.html"
: > "$work/chromium.log"
run_browser --dump-dom "file://$work/measure.html" > "$work/dom.html" || fail "$browser --dump-dom exited with $?"

for id in trend-chart roofline-chart distribution-chart; do
  grep -Eq "<svg[^>]*id=\"$id\"" "$work/dom.html" || fail "no chart <svg id=\"$id\">"
done
for id in summary versions environment runs; do
  grep -q "<table id=\"$id\">" "$work/dom.html" || fail "no table <table id=\"$id\">"
done
[ "$(grep -o '<table class="shape">' "$work/dom.html" | wc -l)" -eq 2 ] || fail "not one per-shape table per shape (2)"
grep -q '<polyline class="best-so-far"' "$work/dom.html" || fail "the trend has no best-so-far line"
[ "$(grep -o '<circle class="version' "$work/dom.html" | wc -l)" -eq 10 ] ||
  fail "the trend does not show the 5 recorded versions at 2 shapes"
[ "$(grep -Eo '<rect class="dot( best)?"' "$work/dom.html" | wc -l)" -eq 10 ] ||
  fail "the roofline does not show 10 points (5 versions x 2 shapes)"
grep -q '<rect class="p10-p90"' "$work/dom.html" || fail "the spread chart has no p10-p90 box"
grep -q '<div id="notes">' "$work/dom.html" || fail "no notes"
if [ "$notes_as" = markdown ]; then
  grep -q '<table>' "$work/dom.html" || fail "the notes' table is not rendered as a table"
else
  grep -q 'built without cmark-gfm' "$work/dom.html" || fail "no line saying the notes are plain text"
  grep -q "<pre># Campaign notes" "$work/dom.html" || fail "the notes are not shown as preformatted text"
fi
for v in v0 v1 v2 v3 v4 v5; do
  grep -q "<td>$v</td>" "$work/dom.html" || fail "the version table has no row for $v"
done

measure=$(sed -n 's#.*<p id="kopt-measure">\([^<]*\)</p>.*#\1#p' "$work/dom.html")
[ -n "$measure" ] || fail "the measuring script wrote nothing (did $browser run it?)"
scroll=$(echo "$measure" | sed -n 's/^scrollWidth=\([0-9]*\) .*/\1/p')
client=$(echo "$measure" | sed -n 's/.*clientWidth=\([0-9]*\)$/\1/p')
[ "$client" -eq "$width" ] || fail "the page is $client px wide, not $width ($measure)"
[ "$scroll" -le "$client" ] || fail "horizontal overflow at $width px: $measure"

# The screenshot: a PNG of the requested width and height, not blank.
run_browser --screenshot="$work/report.png" "file://$work/out/report.html" > /dev/null ||
  fail "$browser --screenshot exited with $?"
[ -f "$work/report.png" ] || fail "no screenshot written"
png_size() { od -An -tu1 -j16 -N8 "$1" | awk '{print $1*16777216+$2*65536+$3*256+$4, $5*16777216+$6*65536+$7*256+$8}'; }
size=$(png_size "$work/report.png")
[ "$size" = "$width 1000" ] || fail "the screenshot is $size px, not $width 1000"
bytes=$(wc -c < "$work/report.png")
[ "$bytes" -gt 20000 ] || fail "the screenshot has only $bytes bytes: a blank page?"
echo "ok: $browser rendered the report at $width px ($measure): every chart and table, no horizontal overflow; screenshot $work/report.png ($size px, $bytes bytes)"
