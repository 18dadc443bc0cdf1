#!/usr/bin/env bash
# Checks that `qualrank report` writes the same bytes as a reference build (issue #40: a faster report changes
# no output). Runs REFERENCE and the build's qualrank on: the bundled study, a generated workspace
# (bench/gen_workspace.sh, N transcripts, default 2,000) and every workspace under tests/fixtures (those that
# report and those that refuse). Each pair writes to the same output path, one after the other; then compares
# the exit status, stdout and stderr, and every file written (cmp, byte for byte: the workbooks' zip times are
# fixed, so they compare as bytes too). Prints one line per workspace; exits 1 on any difference.
# Usage: REFERENCE=/path/to/old/qualrank bench/report_identical.sh [BUILD_DIR] [N]
set -euo pipefail
build=${1:-build}
n=${2:-2000}
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/.." && pwd)
qualrank=$(cd "$build" && pwd)/qualrank
reference=${REFERENCE:?set REFERENCE=/path/to/the qualrank to compare with}
[[ -x $qualrank && -x $reference ]] || { echo "need $qualrank and $reference"; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
bash "$here/gen_workspace.sh" "$tmp/generated" "$n" 1 >/dev/null
workspaces=("$src" "$tmp/generated")
while IFS= read -r d; do workspaces+=("$(dirname "$d")"); done < <(find "$src/tests/fixtures" -type d -name codebooks | sort)
failed=0
run() {  # binary workspace label
  local ws=$2 dest=$tmp/$3 rc=0
  rm -rf "$tmp/out"
  # (a copy of the workspace: a run must not see what the other left behind)
  rm -rf "$tmp/ws"; mkdir "$tmp/ws"
  tar -C "$ws" --exclude=./build --exclude='./build-*' --exclude=./.git -cf - . | tar -C "$tmp/ws" -xf -
  "$1" -C "$tmp/ws" report -o "$tmp/out" >"$tmp/stdout" 2>"$tmp/stderr" || rc=$?
  mkdir -p "$dest"; echo "$rc" >"$dest/rc"; mv "$tmp/stdout" "$tmp/stderr" "$dest/"
  [[ -d $tmp/out ]] && mv "$tmp/out" "$dest/out"
  return 0
}
for ws in "${workspaces[@]}"; do
  label=${ws#"$src"/}; [[ $ws == "$src" ]] && label="bundled study"; [[ $ws == "$tmp/generated" ]] && label="generated ($n transcripts)"
  rm -rf "$tmp/old" "$tmp/new"
  run "$reference" "$ws" old
  run "$qualrank" "$ws" new
  if diff -r "$tmp/old" "$tmp/new" >"$tmp/diff" 2>&1; then
    echo "same: $label (exit $(cat "$tmp/new/rc"), $(find "$tmp/new" -path '*/out/*' -type f | wc -l) files)"
  else
    echo "DIFFERENT: $label"; head -20 "$tmp/diff"; failed=1
  fi
done
exit $failed
