#!/usr/bin/env bash
# Renders the bundled study's index.html in headless Chromium (Debian's chromium, installed by `make test`):
# the DOM holds the expected SVG charts and the screenshot is not blank. With QUALRANK_UPDATE_SCREENSHOT=1
# the screenshot is saved as docs/report-screenshot.png (the one README shows).
set -euo pipefail
: "${QUALRANK:?}" "${SOURCE_DIR:?}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
browser=$(command -v chromium || command -v chromium-browser || true)
if [[ -z "$browser" ]]; then echo "SKIP: chromium is not installed (make test installs it)"; exit 77; fi

"$QUALRANK" -C "$SOURCE_DIR" -q report -o "$tmp/out"
flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking
       --disable-component-update --disable-sync --hide-scrollbars)
timeout 120 "$browser" "${flags[@]}" --user-data-dir="$tmp/profile1" --dump-dom "file://$tmp/out/index.html" >"$tmp/dom.html" 2>"$tmp/chromium.log" \
  || { cat "$tmp/chromium.log"; fail "chromium --dump-dom failed"; }
charts=$(grep -o '<svg class="chart"' "$tmp/dom.html" | wc -l)
# 3 ranking questions x (slope + gap chart + forest plot) x (by role, user and developer by experience) + 1 heatmap
[[ $charts -eq 28 ]] || fail "expected 28 SVG charts in the rendered DOM, found $charts"
grep -q 'class="slope highlighted"' "$tmp/dom.html" || fail "no misaligned item highlighted in a slope chart"
grep -q 'class="forest-point"' "$tmp/dom.html" || fail "no forest plot point in the rendered DOM"
grep -q 'class="badge">new in v2' "$tmp/dom.html" || fail "taxonomy tree does not mark interview-proposed additions"
grep -q 'id="agreement"' "$tmp/dom.html" || fail "no agreement section"

timeout 120 "$browser" "${flags[@]}" --user-data-dir="$tmp/profile2" --window-size=1280,2400 \
  --screenshot="$tmp/report.png" "file://$tmp/out/index.html" >/dev/null 2>&1 || fail "chromium --screenshot failed"
printf '<!DOCTYPE html><html><body></body></html>' >"$tmp/blank.html"
timeout 120 "$browser" "${flags[@]}" --user-data-dir="$tmp/profile3" --window-size=1280,2400 \
  --screenshot="$tmp/blank.png" "file://$tmp/blank.html" >/dev/null 2>&1 || fail "chromium --screenshot (blank) failed"
size=$(stat -c %s "$tmp/report.png"); blank=$(stat -c %s "$tmp/blank.png")
head -c 8 "$tmp/report.png" | od -An -tx1 | grep -q '89 50 4e 47' || fail "screenshot is not a PNG"
# A blank 1280x2400 page compresses to a few kB; the rendered charts and tables to hundreds.
[[ $size -gt $((blank * 10)) && $size -gt 100000 ]] || fail "screenshot looks blank ($size bytes; blank page $blank bytes)"
if [[ "${QUALRANK_UPDATE_SCREENSHOT:-}" == 1 ]]; then cp "$tmp/report.png" "$SOURCE_DIR/docs/report-screenshot.png"; fi
echo "report_browser: $charts charts rendered, screenshot $size bytes (blank page: $blank)"
