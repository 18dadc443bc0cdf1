#!/usr/bin/env bash
# Renders the bundled study's index.html in headless Chromium (Debian's chromium, installed by `make test`):
# the DOM holds the expected SVG charts, the heatmap's numbers, colours and headers match report.json, the gap
# charts' legend swatches match their bars, and the screenshot is not blank. With QUALRANK_UPDATE_SCREENSHOT=1
# the screenshot is saved as docs/report-screenshot.png (the one README shows).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/grep_q.sh"  # grep_q
: "${QUALRANK:?}" "${SOURCE_DIR:?}" "${FIXTURES:?}"
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
# + 1 saturation chart
[[ $charts -eq 29 ]] || fail "expected 29 SVG charts in the rendered DOM, found $charts"
grep -q "class=\"sat-new\" data-interview=\"19\"" "$tmp/dom.html" || fail "the saturation chart lacks interview 19 of the bundled study"
grep -q 'class="slope highlighted"' "$tmp/dom.html" || fail "no misaligned item highlighted in a slope chart"
grep -q 'class="forest-point"' "$tmp/dom.html" || fail "no forest plot point in the rendered DOM"
grep -q 'class="badge">new in v2' "$tmp/dom.html" || fail "taxonomy tree does not mark interview-proposed additions"
grep -q 'id="agreement"' "$tmp/dom.html" || fail "no agreement section"

# The heatmap as rendered: every cell's "count (percent%)" against report.json (level-2 rows, in order), full
# column headers, a fill that darkens with the share, text that contrasts with its fill (WCAG ratio >= 4.5),
# and a legend; the gap charts' swatches in the colours of their bars.
/usr/bin/python3 - "$tmp/dom.html" "$tmp/out/report.json" <<'EOF' || fail "heatmap (see above)"
import json, re, sys
from html import unescape
dom = open(sys.argv[1]).read()
report = json.load(open(sys.argv[2]))
m = report["codebook"]["matrix"]
svg = re.search(r'<h2 id="matrix">[^<]*</h2>.*?(<svg class="chart".*?</svg>)', dom, re.S).group(1)
texts = re.findall(r'<text[^>]*class="value heat-value"[^>]*style="fill:\s*(#[0-9a-f]{6})[^"]*"[^>]*>([^<]*)</text>', svg)
fills = re.findall(r'<rect[^>]*fill="(#[0-9a-f]{6})"\s*(?:/>|></rect>)<text[^>]*heat-value', svg)
rows = [r for r in m["rows"] if r["level"] == 2]
expected = [(count, pct) for r in rows for count, pct in zip(r["counts"], r["percents"])]
assert len(texts) == len(expected) == len(fills), (len(texts), len(expected), len(fills))
def lum(h):
    c = [int(h[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    c = [v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4 for v in c]
    return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]
by_share = {}
for (colour, shown), (count, pct), fill in zip(texts, expected, fills):
    want = "%d (%.0f%%)" % (count, pct) if pct is not None else "%d" % count
    assert unescape(shown) == want, (shown, want)
    assert pct is None or 0 <= pct <= 100, pct
    hi, lo = sorted((lum(colour), lum(fill)), reverse=True)
    assert (hi + 0.05) / (lo + 0.05) >= 4.5, (shown, colour, fill)
    if pct is not None: by_share.setdefault(pct, set()).add(fill)
shares = sorted(by_share)
assert len(shares) >= 3, shares                      # the scale shows values, not one shade for all non-zero
assert all(len(by_share[s]) == 1 for s in shares), by_share
for a, b in zip(shares, shares[1:]):                  # a larger share is darker
    assert lum(next(iter(by_share[a]))) > lum(next(iter(by_share[b]))), (a, b)
heads = [" ".join(unescape(t) for t in re.findall(r'<tspan[^>]*>([^<]*)</tspan>', h))
         for h in re.findall(r'<text class="axis heat-column".*?</text>', svg, re.S)]
want_heads = ["%s (n=%d)" % (g["label"], g["participants"]) for g in m["groups"]]
assert heads == want_heads, (heads, want_heads)      # not cut
legend = re.search(r'<g class="heat-legend">(.*?)</g>', svg, re.S).group(1)
assert re.findall(r'>(\d+)%<', legend) == ["0", "25", "50", "75", "100"], legend
# Gap charts: the negative side's swatch is the colour of the negative bars, the positive side's of the others.
gaps = re.findall(r'<svg class="chart"[^>]*aria-label="[^"]*priority gap.*?</svg>', dom, re.S)
assert gaps
for chart in gaps:
    neg = re.search(r'fill="(#[0-9A-Fa-f]{6})" data-side="negative"', chart).group(1)
    pos = re.search(r'fill="(#[0-9A-Fa-f]{6})" data-side="positive"', chart).group(1)
    bars = re.findall(r'<rect x="[^"]*" y="[^"]*" width="[^"]*" height="[^"]*" fill="(#[0-9A-Fa-f]{6})"[^>]*?(?:/>|></rect>)<text[^>]*class="value">([^<]*)<', chart)
    assert bars
    for fill, value in bars:
        if value != "n/a": assert fill == (neg if value.startswith("-") else pos), (value, fill, neg, pos)
print("heatmap: %d cells checked against report.json" % len(texts))
EOF

timeout 120 "$browser" "${flags[@]}" --user-data-dir="$tmp/profile2" --window-size=1280,2400 \
  --screenshot="$tmp/report.png" "file://$tmp/out/index.html" >/dev/null 2>&1 || fail "chromium --screenshot failed"
printf '<!DOCTYPE html><html><body></body></html>' >"$tmp/blank.html"
timeout 120 "$browser" "${flags[@]}" --user-data-dir="$tmp/profile3" --window-size=1280,2400 \
  --screenshot="$tmp/blank.png" "file://$tmp/blank.html" >/dev/null 2>&1 || fail "chromium --screenshot (blank) failed"
size=$(stat -c %s "$tmp/report.png"); blank=$(stat -c %s "$tmp/blank.png")
head -c 8 "$tmp/report.png" | od -An -tx1 | grep_q '89 50 4e 47' || fail "screenshot is not a PNG"
# A blank 1280x2400 page compresses to a few kB; the rendered charts and tables to hundreds.
[[ $size -gt $((blank * 10)) && $size -gt 100000 ]] || fail "screenshot looks blank ($size bytes; blank page $blank bytes)"
# On a phone (a 390 px iframe: headless Chromium will not make its own window narrower than 485 px): the page
# does not scroll sideways (wide tables and charts scroll in their own boxes), and no chart text is drawn under
# 10 px. Before: 895 px of page for 375 of screen, chart text 5 px. Checked on the bundled study and on the
# fieldwork fixture (other roles and attributes).
phone() {  # $1: report folder, $2: label
  python3 - "$1" "$browser" "$tmp/profile-$2" <<'PY'
import re, subprocess, sys, os
d, browser, profile = sys.argv[1:4]
html = open(f"{d}/index.html", encoding="utf-8").read()
js = """<script>window.addEventListener("load",()=>{const W=document.documentElement.clientWidth;let f=99;
document.querySelectorAll("svg.chart text").forEach(t=>{const h=t.getBoundingClientRect().height;if(h>0&&h<f)f=h});
parent.document.getElementById("m").textContent=W+" "+document.documentElement.scrollWidth+" "+f.toFixed(1)+" "+
document.querySelectorAll(".chart-box").length});</script></body>"""
open(f"{d}/_m.html", "w", encoding="utf-8").write(html.replace("</body>", js))
open(f"{d}/_w.html", "w").write('<html><body style="margin:0"><pre id="m">none</pre>'
                                 '<iframe src="_m.html" style="width:390px;height:900px;border:0"></iframe></body></html>')
out = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--allow-file-access-from-files",
                      f"--user-data-dir={profile}", "--window-size=1200,1000", "--virtual-time-budget=4000",
                      "--dump-dom", f"file://{d}/_w.html"], capture_output=True, text=True, timeout=120).stdout
os.remove(f"{d}/_m.html"); os.remove(f"{d}/_w.html")
m = re.search(r'<pre id="m">([^<]*)</pre>', out)
assert m and m.group(1) != "none", out[-300:]
view, scroll, smallest, boxes = m.group(1).split()
assert int(view) <= 390 and int(scroll) == int(view), f"page {scroll} px wide on a {view} px screen"
assert float(smallest) >= 10.0, f"chart text {smallest} px"
assert int(boxes) > 0, "no chart box"
print(f"phone: {scroll} px page on a {view} px screen, smallest chart text {smallest} px, {boxes} charts")
PY
}
phone "$tmp/out" bundled || fail "the bundled report on a phone"
cp -r "$FIXTURES/fieldwork" "$tmp/fw"
"$QUALRANK" -C "$tmp/fw" -q report -o "$tmp/fw-out" --resamples 200
phone "$tmp/fw-out" fieldwork || fail "the fieldwork report on a phone"
if [[ "${QUALRANK_UPDATE_SCREENSHOT:-}" == 1 ]]; then cp "$tmp/report.png" "$SOURCE_DIR/docs/report-screenshot.png"; fi
echo "report_browser: $charts charts rendered, screenshot $size bytes (blank page: $blank)"
