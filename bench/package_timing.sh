#!/usr/bin/env bash
# Times `qualrank package` on the bundled study with a names list (target: under 2 s) and `package verify`
# of the result, best of 3 runs each; then `package` of a generated workspace of 200 transcripts with a names
# list of 10,000 names (the limit); then `package` of the 2,000-transcript workspace of bench/report_timing.sh
# (95 MB; wall, CPU and peak memory), and with REFERENCE=OLD_BINARY that build's too, alternating, 2 runs each.
# Usage: [REFERENCE=OLD_BINARY] bench/package_timing.sh [BUILD_DIR]
set -euo pipefail
build=${1:-build}
here=$(cd "$(dirname "$0")" && pwd)
qualrank=$(cd "$build" && pwd)/qualrank
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cp -r "$here/.."/{codebooks,guidelines,transcripts} "$tmp/"
printf 'name,pseudonym,kind\nalice,,\nbob,,\nHugging Face,,organisation\n' >"$tmp/names.csv"
seconds() { local s e; s=$(date +%s.%N); "$@" >/dev/null; e=$(date +%s.%N); printf "%.3f" "$(echo "$e - $s" | bc)"; }
best() { local b="" t; for _ in 1 2 3; do t=$(seconds "$@"); if [[ -z $b ]] || (( $(echo "$t < $b" | bc) )); then b=$t; fi; done; echo "$b"; }
echo "package, bundled study: $(best "$qualrank" -C "$tmp" -q package --names "$tmp/names.csv") s (target < 2 s)"
echo "package verify, bundled study: $(best "$qualrank" -C "$tmp" -q package verify package) s"
echo "$(find "$tmp/package" -type f | wc -l) files, package.zip $(stat -c %s "$tmp/package.zip") bytes"
bash "$here/gen_workspace.sh" "$tmp/big" 200 1 >/dev/null
python3 -c "
print('name,pseudonym,kind')
for i in range(10000): print(f'Name{i:05d} Surname{i % 97},,person')
" >"$tmp/names-10000.csv"
echo "package, 200 generated transcripts, 10,000 names: $(seconds "$qualrank" -C "$tmp/big" -q package --names "$tmp/names-10000.csv") s"
bash "$here/gen_workspace.sh" "$tmp/large" 2000 1 >/dev/null
measure() { /usr/bin/time -f "%e s wall, %U s user + %S s system, peak %M KB" "$@" 2>&1 >/dev/null | tail -1; }
for run in 1 2; do
  echo "package, 2,000 generated transcripts, run $run: $(measure "$qualrank" -C "$tmp/large" -q package)"
  if [[ -n ${REFERENCE:-} ]]; then echo "  reference $REFERENCE: $(measure "$REFERENCE" -C "$tmp/large" -q package -o package-ref)"; fi
done
