#!/usr/bin/env bash
# qualrank report on the bundled study: every output written, byte-identical across runs (xlsx included),
# SOURCE_DATE_EPOCH honoured, quiet on a non-terminal, an interrupted write leaves old files intact.
set -euo pipefail
: "${QUALRANK:?}" "${SOURCE_DIR:?}" "${FIXTURES:?}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$QUALRANK" -C "$SOURCE_DIR" report -o "$tmp/one" >"$tmp/summary" 2>"$tmp/err"
[[ ! -s "$tmp/err" ]] || fail "stderr is not a terminal, yet report printed: $(cat "$tmp/err")"
for f in codebook.xlsx rankings.xlsx rankings.md agreement.xlsx taxonomy-diff.md report.json index.html; do
  [[ -s "$tmp/one/$f" ]] || fail "missing $f"
done
grep -q 'II.R: user vs developer rho = ' "$tmp/summary" || fail "summary headline: $(cat "$tmp/summary")"
grep -q "Fleiss' kappa" "$tmp/summary" || fail "summary agreement"
"$QUALRANK" -C "$SOURCE_DIR" report -o "$tmp/two" >/dev/null
diff -rq "$tmp/one" "$tmp/two" >"$tmp/runs.diff" || fail "outputs differ between runs (latex/ included): $(cat "$tmp/runs.diff")"
# A workspace of 8.5 MB of transcripts (180 generated interviews): the same bytes with glibc's malloc on one
# arena and on huge pages (the user's own GLIBC_TUNABLES), and on one thread (QUALRANK_THREADS=1).
bash "$SOURCE_DIR/bench/gen_workspace.sh" "$tmp/big" 180 1 >/dev/null 2>&1 || fail "gen_workspace.sh"
[[ $(du -sb "$tmp/big/transcripts" | cut -f1) -ge $((8 << 20)) ]] || fail "the generated transcripts are under 8 MiB"
"$QUALRANK" -C "$tmp/big" -q report -o "$tmp/big-tuned" || fail "report"
GLIBC_TUNABLES=glibc.malloc.hugetlb=1:glibc.malloc.top_pad=67108864 QUALRANK_THREADS=1 "$QUALRANK" -C "$tmp/big" -q report \
  -o "$tmp/big-untuned" || fail "report, huge pages, one thread"
GLIBC_TUNABLES=glibc.malloc.arena_max=1 "$QUALRANK" -C "$tmp/big" -q report -o "$tmp/big-own" || fail "report, own tunables"
diff -rq "$tmp/big-tuned" "$tmp/big-untuned" >"$tmp/tuned.diff" || fail "outputs differ on huge pages and one thread: $(cat "$tmp/tuned.diff")"
diff -rq "$tmp/big-tuned" "$tmp/big-own" >"$tmp/own.diff" || fail "outputs differ with the user's GLIBC_TUNABLES: $(cat "$tmp/own.diff")"
[[ $(ls "$tmp/big-tuned" | wc -l) -ge 5 ]] || fail "the generated study's report: $(ls "$tmp/big-tuned")"
SOURCE_DATE_EPOCH=1700000000 "$QUALRANK" -C "$SOURCE_DIR" -q report -o "$tmp/epoch"
unzip -p "$tmp/epoch/codebook.xlsx" docProps/core.xml >"$tmp/core-epoch.xml"  # files, not an early-closed pipe
grep -q '2023-11-14T22:13:20Z' "$tmp/core-epoch.xml" || fail "SOURCE_DATE_EPOCH not used in the workbook"
unzip -p "$tmp/one/codebook.xlsx" docProps/core.xml >"$tmp/core-one.xml"
grep -q '2025-01-01T00:00:00Z' "$tmp/core-one.xml" || fail "fixed document time"
# --quiet prints nothing; --verbose prints step timings
[[ -z "$("$QUALRANK" -C "$SOURCE_DIR" -q report -o "$tmp/q" 2>&1)" ]] || fail "--quiet printed something"
"$QUALRANK" -C "$SOURCE_DIR" -v report -o "$tmp/v" 2>"$tmp/verbose" >/dev/null
grep -q " s  rank by role" "$tmp/verbose" || fail "--verbose step timing"
# the HTML page shows the numbers of report.json
rho=$(grep -m1 '"spearman_rho"' "$tmp/one/report.json" | sed 's/.*: //; s/,$//')
printf -v shown '%.2f' "$rho"
grep -q "Spearman's ρ = $shown" "$tmp/one/index.html" || fail "HTML does not show rho $shown"
grep -q '<script' "$tmp/one/index.html" && fail "the report has a script"
grep -Eq '(src|href)="https?:' "$tmp/one/index.html" && fail "the report loads something from the network"
# a read-only output folder: the run fails, the old files are intact
cp -r "$tmp/one" "$tmp/ro"; chmod a-w "$tmp/ro"
if [[ $(id -u) -ne 0 ]]; then
  if "$QUALRANK" -C "$SOURCE_DIR" -q report -o "$tmp/ro" 2>/dev/null; then fail "report into a read-only folder succeeded"; fi
  diff -rq "$tmp/one" "$tmp/ro" >"$tmp/ro.diff" || fail "old files changed: $(cat "$tmp/ro.diff")"
fi
chmod u+w "$tmp/ro"
echo "report: ok"
