#!/usr/bin/env bash
# qualrank validate: exit 0 on the bundled study and on the mini fixture; exit 1 with the expected located
# message (FILE:LINE:COL: error: ...) on each broken fixture (tests/fixtures/broken/<case>/ overlays the mini
# workspace with one problem; <case>/expect holds the message, <case>/exit the exit code when it is not 1).
set -euo pipefail
: "${QUALRANK:?}" "${SOURCE_DIR:?}" "${FIXTURES:?}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0

"$QUALRANK" -C "$SOURCE_DIR" validate 2>"$tmp/ok.err" || { echo "FAIL: bundled study does not validate"; cat "$tmp/ok.err"; exit 1; }
"$QUALRANK" -C "$FIXTURES/mini" validate 2>"$tmp/mini.err" || { echo "FAIL: mini fixture does not validate"; cat "$tmp/mini.err"; exit 1; }

cases=0
for dir in "$FIXTURES"/broken/*/; do
  name=$(basename "$dir")
  ws="$tmp/$name"
  cp -r "$FIXTURES/mini" "$ws"
  cp -r "$dir"/. "$ws"/
  rm -f "$ws/expect" "$ws/exit"
  expect=$(cat "$dir/expect")
  want=1  # <case>/exit holds 0 for a near miss that is a warning (reported, validate still passes)
  [[ -f "$dir/exit" ]] && want=$(cat "$dir/exit")
  set +e
  "$QUALRANK" -C "$ws" validate >"$tmp/out" 2>"$tmp/err"
  rc=$?
  set -e
  if [[ $rc -ne $want ]]; then echo "FAIL $name: exit $rc, expected $want"; cat "$tmp/err"; fail=1; continue; fi
  if ! grep -qF -- "$expect" "$tmp/err"; then echo "FAIL $name: expected '$expect' in:"; cat "$tmp/err"; fail=1; continue; fi
  if [[ -s "$tmp/out" ]]; then echo "FAIL $name: wrote to stdout"; fail=1; fi
  cases=$((cases + 1))
done
[[ $cases -ge 33 ]] || { echo "FAIL: only $cases broken fixtures checked"; fail=1; }

# report writes nothing when validation fails
ws="$tmp/unknown-code-report"; cp -r "$FIXTURES/mini" "$ws"; cp -r "$FIXTURES/broken/unknown-code/." "$ws/"
if "$QUALRANK" -C "$ws" report -o out >/dev/null 2>&1; then echo "FAIL: report succeeded on a broken workspace"; fail=1; fi
[[ ! -e "$ws/out" ]] || { echo "FAIL: report wrote $(ls "$ws/out") despite errors"; fail=1; }

[[ $fail -eq 0 ]] && echo "validate: $cases broken fixtures rejected with located errors"
exit $fail
