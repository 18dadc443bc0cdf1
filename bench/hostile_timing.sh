#!/usr/bin/env bash
# The hostile inputs of issue #16 (tests/fuzz/make_hostile.py: 1,000,000 commas after @code, a 1 MB string
# aliased 5,000 times, zip bombs, 10 MB files, ...) through the real CLI, each in a fresh copy of the
# fieldwork fixture study, measured with /usr/bin/time -v. Target: every one accepted or refused within 2 s
# and 512 MiB, with a located error (exit 1), never an internal error (exit 3).
# Prints one line per case: exit status, CPU seconds (user + system), wall seconds, peak MiB, stderr bytes, the
# first message. The target is judged on CPU time (wall time includes waiting on a shared machine). Exit status
# 1 when a case misses the target. Usage: bench/hostile_timing.sh [BUILD_DIR]
set -uo pipefail
build=$(cd "${1:-build}" && pwd)
src=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
hostile=$build/tests/fuzz/hostile
python3 "$src/tests/fuzz/make_hostile.py" "$hostile"
[ -x /usr/bin/time ] || { echo "hostile_timing.sh: needs /usr/bin/time (Debian package time)" >&2; exit 2; }
bad=0
printf '%-38s %4s %5s %5s %5s %7s  %s\n' case exit cpu_s wall_s MiB stderr "first message"
# run NAME FILE DEST COMMAND...: a fresh workspace, FILE copied to DEST inside it (nothing when DEST is -),
# then qualrank -C WS COMMAND... with the placeholder @FILE replaced by FILE's path.
run() {
  local name=$1 file=$2 dest=$3
  shift 3
  local ws=$work/ws
  rm -rf "$ws"
  cp -r "$src/tests/fixtures/fieldwork" "$ws"
  if [ "$dest" != - ]; then
    mkdir -p "$(dirname "$ws/$dest")"
    cp "$file" "$ws/$dest"
  fi
  local args=() a
  for a in "$@"; do args+=("${a//@FILE/$file}"); done
  /usr/bin/time -v -o "$work/time" "$build/qualrank" -C "$ws" "${args[@]}" > "$work/out" 2> "$work/err"
  local status=$?
  local secs mib cpu
  cpu=$(awk -F': ' '/User time|System time/ {s += $2} END {printf "%.2f", s}' "$work/time")
  secs=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$work/time" | awk -F: '{print $(NF-1)*60+$NF}')
  mib=$(( $(sed -n 's/.*Maximum resident set size (kbytes): //p' "$work/time") / 1024 ))
  local verdict=""
  if awk -v s="$cpu" 'BEGIN{exit !(s > 2.0)}' || [ "$mib" -gt 512 ] || [ "$status" -ge 3 ]; then
    verdict="  <-- MISSES THE TARGET"
    bad=1
  fi
  printf '%-38s %4s %5s %5s %5s %7s  %s%s\n' "$name" "$status" "$cpu" "$secs" "$mib" "$(wc -c < "$work/err")" \
    "$(head -c 90 "$work/err" | head -n 1 | sed "s|$hostile/||")" "$verdict"
}
run "transcript: 1M commas after @code" "$hostile/transcript/commas-1M.md" transcripts/E09.md validate
run "transcript: 2M '[' on one line" "$hostile/transcript/open-brackets-2M.md" transcripts/E09.md validate
run "transcript: 2M '[x' on one line" "$hostile/transcript/open-bracket-x-4M.md" transcripts/E09.md validate
run "transcript: 1M ']{' on one line" "$hostile/transcript/close-open-2M.md" transcripts/E09.md validate
run "transcript: 250k spans, interviewer" "$hostile/transcript/interviewer-spans-2M.md" transcripts/E09.md validate
run "transcript: 200k spans on one turn" "$hostile/transcript/spans-200K.md" transcripts/E09.md validate
run "transcript: 850k '[x] {COM.1}'" "$hostile/transcript/near-miss-850K.md" transcripts/E09.md validate
run ".qdc: 60,000 flat codes (refused)" "$hostile/qdc/flat-60K.qdc" - import @FILE
run ".qdc: 1,000 codes, one GUID" "$hostile/qdc/same-guid-1K.qdc" - import @FILE
run "transcript: 2 MB code id" "$hostile/transcript/long-code-2M.md" transcripts/E09.md validate
run "transcript: 3000 aliases of 1 MB" "$hostile/transcript/front-matter-aliases.md" transcripts/E09.md validate
run "transcript: 10 MB, 90,000 turns" "$hostile/transcript/turns-10M.md" transcripts/E09.md validate
run ".codes: 100 KB of commas" "$hostile/standoff/commas-100K.codes" transcripts/E01.eli.codes validate
run "taxonomy: 1 MB string x 5000 aliases" "$hostile/taxonomy/alias-5000x1M.yaml" codebooks/remote-work.yaml validate
run "taxonomy: 50,000 duplicate nodes (refused)" "$hostile/taxonomy/duplicates-50K.yaml" codebooks/remote-work.yaml validate
run "guideline: billion laughs" "$hostile/guideline/billion-laughs.yaml" guidelines/remote-work-interview.yaml validate
run "guideline: 100,000 nested [" "$hostile/yaml/deep-100K.yaml" guidelines/remote-work-interview.yaml validate
run "guideline: 10 MB flat YAML" "$hostile/yaml/flat-10M.yaml" guidelines/remote-work-interview.yaml validate
run "history: truncated '- accept:'" "$hostile/history/truncated-accept.yaml" codebooks/remote-work.history.yaml validate
run "labels: 4,000 coder columns" "$hostile/labels/coders-4000.csv" codebooks/labels/x.csv agreement --labels codebooks/labels/x.csv
run "rank --table: 10 MB, a group a row" "$hostile/ranking/groups-10M.csv" - rank --table @FILE --resamples 0
run ".codes: 10 MB of codings" "$hostile/standoff/codings-10M.codes" transcripts/E01.carol.codes validate
run "guideline: 1.9 million YAML nodes" "$hostile/yaml/nodes-1900K.yaml" guidelines/remote-work-interview.yaml validate
run "labels: 2 MB cell" "$hostile/labels/long-cell-2M.csv" codebooks/labels/x.csv agreement --labels codebooks/labels/x.csv
run "labels: 50,000 duplicate ids" "$hostile/labels/duplicate-units-50K.csv" codebooks/labels/x.csv agreement --labels codebooks/labels/x.csv --duplicates error
run "rank --table: 2 MB item" "$hostile/ranking/long-item-2M.csv" - rank --table @FILE
run "rank --table: byte 0xC0" "$hostile/ranking/invalid-utf8.csv" - rank --table @FILE
run ".docx inflating to 500 MB" "$hostile/docx/bomb-500M.docx" - import-transcript @FILE --participant E09 --role employee
run ".qdpx: 3 sources of 480 MB" "$hostile/qdpx/bomb-3x480M.qdpx" - import @FILE
run ".qdpx: 20,000 entries" "$hostile/qdpx/entries-20K.qdpx" - import @FILE
# The corpus's inputs (issue #37 item 7): each at the size an audit found quadratic, or at 10 MB.
python3 - "$work/corpus" <<'PY'
import json, os, sys
d = sys.argv[1]; os.makedirs(d, exist_ok=True)
issue = {"number": 1, "url": "https://example.org/a/b/issues/1", "title": "a cache miss", "body": "b", "createdAt": "2024-01-01T00:00:00Z"}
x = dict(issue); x.update({"k%d" % k: k for k in range(120000)}); json.dump([x], open(f"{d}/keys.json", "w"))
cols = list(issue) + ["c%d" % k for k in range(200000)]
open(f"{d}/columns.csv", "w").write(",".join(cols) + "\n" + ",".join(str(issue[c]) for c in issue) + ",x" * 200000 + "\n")
items, size, n = [], 0, 0
while size < 10_000_000:
    n += 1; it = {"number": n, "url": "https://example.org/a/b/issues/%d" % n, "title": "t"}; size += len(json.dumps(it)) + 2; items.append(it)
json.dump(items, open(f"{d}/tiny-10M.json", "w"))
open(f"{d}/keywords.yaml", "w").write("sources:\n  a:\n" + "".join("    - term%d word%d\n" % (k, k) for k in range(100000)))
open(f"{d}/kw.py", "w").write("a_keywords = [" + ", ".join("'term%d word%d'" % (k, k) for k in range(100000)) + "]\n")
json.dump(items[:2000], open(f"{d}/few.json", "w"))
PY
run "corpus import: 120,000 keys in an issue" "$work/corpus/keys.json" - corpus import @FILE --source a
run "corpus import: CSV of 200,000 columns" "$work/corpus/columns.csv" - corpus import @FILE --source a
run "corpus import: 10 MB of 125,000 issues" "$work/corpus/tiny-10M.json" - corpus import @FILE --source a
run "corpus keywords import: 100,000 terms" "$work/corpus/kw.py" - corpus keywords import @FILE -o "$work/corpus/out.yaml" --force
# retrieve with 100,000 terms over 2,000 issues: the workspace is made by the import, then the keywords copied in.
ws=$work/ws; rm -rf "$ws"; cp -r "$src/tests/fixtures/fieldwork" "$ws"
"$build/qualrank" -C "$ws" -q corpus import "$work/corpus/few.json" --source a
cp "$work/corpus/keywords.yaml" "$ws/corpus/keywords.yaml"
/usr/bin/time -v -o "$work/time" "$build/qualrank" -C "$ws" corpus retrieve --any-date > "$work/out" 2> "$work/err"
printf '%-38s %4s %5s %5s %5s %7s\n' "corpus retrieve: 100,000 terms" "$?" \
  "$(awk -F': ' '/User time|System time/ {s += $2} END {printf "%.2f", s}' "$work/time")" \
  "$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$work/time" | awk -F: '{print $(NF-1)*60+$NF}')" \
  "$(( $(sed -n 's/.*Maximum resident set size (kbytes): //p' "$work/time") / 1024 ))" "$(wc -c < "$work/err")"
exit $bad
