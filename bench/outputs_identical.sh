#!/usr/bin/env bash
# Checks that a change of structure changes no output (issue #41: moves only): runs a REFERENCE binary and the
# build's qualrank through the same steps on three studies and compares every byte they print and write.
#   - the bundled study: report, package, status, validate, codebook export;
#   - the fieldwork fixture with a generated corpus (stage one): corpus retrieve, screen, sample, label, labels
#     export, corpus table (text, JSON), status (exits 1: steps incomplete), report (Table I in LaTeX), package;
#   - the streets fixture (other roles, levels and attributes): report, package, status.
# Each binary works on its own copy of each study (made in one folder, then moved aside), SOURCE_DATE_EPOCH
# fixed; then the two copies (every file, the outputs among them) and the two transcripts of stdout, stderr and
# exit codes are compared with `diff -r`, all but corpus/.sha256-cache (it names inodes and times); workbooks and
# zips compare as bytes, their times being fixed. Exits 1 on any difference.
# Usage: REFERENCE=/path/to/old/qualrank bench/outputs_identical.sh [BUILD_DIR]
set -euo pipefail
build=${1:-build}
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/.." && pwd)
qualrank=$(cd "$build" && pwd)/qualrank
reference=${REFERENCE:?set REFERENCE=/path/to/the qualrank to compare with}
[[ -x $qualrank && -x $reference ]] || { echo "need $qualrank and $reference"; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export SOURCE_DATE_EPOCH=1764547200

# One study through one binary: copies it to $tmp/<tag>/<name>, runs the steps, logs each step's output.
bundled() {  # dir
  tar -C "$src" --exclude=./build --exclude='./build-*' --exclude=./.git -cf - . | tar -C "$1" -xf -
  step report -o reports; step package -o package; step status; step validate; step codebook export -o codebook-export.xlsx
}
fieldwork() {  # dir
  cp -r "$src/tests/fixtures/fieldwork/." "$1"
  cp -r "$tmp/gen-corpus" "$1/corpus"
  printf 'sources:\n  atlas: [cache miss, plain title]\n  borealis: [cache miss, plain title]\n' >"$1/corpus/keywords.yaml"
  step corpus retrieve; step corpus retrieve --format json
  step corpus screen --screener sam --doc atlas#1 --false-positive duplicate
  step corpus sample pilot --size 12 --seed 1
  { echo "doc,nodes,note"; grep -v '^#' "$1/corpus/samples/pilot.txt" |
      awk '{ n = split("COM.1 COM.2 TOOL.1 TOOL.2 WELL.1", a, " "); print $0 "," a[NR % n + 1] "," }'; } >"$tmp/labels.csv"
  for c in ana ben; do step corpus label --coder "$c" --sample pilot --from-csv "$tmp/labels.csv"; done
  step corpus labels export --sample pilot
  step corpus table; step corpus table --format json
  step status; step report -o reports; step package -o package
}
streets() {  # dir
  cp -r "$src/tests/fixtures/streets/." "$1"
  step report -o reports; step package -o package; step status
}
run_all() {  # binary tag
  local bin=$1 tag=$2 name
  for name in bundled fieldwork streets; do
    # (in the same folder for both binaries, as what they print names it; moved aside after)
    dir="$tmp/work/$name"
    mkdir -p "$dir" "$tmp/$tag"
    step() { { echo "\$ qualrank $*"; "$bin" -C "$dir" "$@" 2>&1; echo "exit $?"; } >>"$tmp/$tag/$name.log" || true; }
    "$name" "$dir"
    mv "$dir" "$tmp/$tag/$name"
  done
}
# The corpus both runs import: generated once, imported by the reference into a scratch workspace.
mkdir -p "$tmp/scratch/codebooks"
/usr/bin/python3 "$src/tests/cli/corpus_gen.py" "$tmp/gen" --per-source 40 >/dev/null
for s in atlas borealis cirrus; do "$reference" -C "$tmp/scratch" -q corpus import "$tmp/gen/$s.json" --source "$s"; done
cp -r "$tmp/scratch/corpus" "$tmp/gen-corpus"
run_all "$reference" ref
run_all "$qualrank" new
failed=0
for name in bundled fieldwork streets; do
  if diff -r -q -x .sha256-cache "$tmp/ref/$name" "$tmp/new/$name" >"$tmp/diff" && cmp -s "$tmp/ref/$name.log" "$tmp/new/$name.log"; then
    echo "same bytes: $name ($(find "$tmp/new/$name" -type f | wc -l) files, $(grep -c "^\$ " "$tmp/new/$name.log") steps, $(grep -c "^exit 0$" "$tmp/new/$name.log") of them exit 0)"
  else
    failed=1
    echo "DIFFERENT: $name"; head -20 "$tmp/diff"; diff "$tmp/ref/$name.log" "$tmp/new/$name.log" | head -20 || true
  fi
done
exit $failed
