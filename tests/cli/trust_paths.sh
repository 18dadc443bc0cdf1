#!/usr/bin/env bash
# Paths and messages (fieldwork study): a transcript or a .codes file symlinked out of the workspace is named
# as such by `code add` and not read; a bare .qde (the project file without its .qdpx archive) says what to import instead.
set -euo pipefail
: "${QUALRANK:?}" "${FIXTURES:?}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
ws="$tmp/ws"; mkdir "$ws"; cp -r "$FIXTURES"/fieldwork/{codebooks,guidelines,transcripts} "$ws/"
q() { "$QUALRANK" -C "$ws" "$@"; }
expect() {  # expect RC MESSAGE CMD...
  local rc=$1 msg=$2; shift 2
  set +e; "$@" >"$tmp/out" 2>"$tmp/err"; local got=$?; set -e
  [[ $got == "$rc" ]] || fail "exit $got, not $rc: $* ($(cat "$tmp/err"))"
  grep -qxF -- "$msg" "$tmp/err" || fail "message of $*: $(cat "$tmp/err")"
}

# code add through a transcript that is a symlink out: named as one (was only "cannot read the transcript").
mv "$ws/transcripts/C02.md" "$tmp/C02.md"; ln -s "$tmp/C02.md" "$ws/transcripts/C02.md"; cp "$tmp/C02.md" "$tmp/C02.orig"
for given in C02 transcripts/C02.md; do
  expect 1 "transcripts/C02.md: error: leads outside the workspace through a symlink; not read" \
    q code add --transcript "$given" --line 19 --node COM.1
done
cmp -s "$tmp/C02.md" "$tmp/C02.orig" || fail "the transcript behind the symlink changed"
rm "$ws/transcripts/C02.md"; mv "$tmp/C02.md" "$ws/transcripts/C02.md"

# Another coder's .codes file as a symlink out: neither read nor written through (was read, then replaced).
C=$ws/transcripts/E01.carol.codes; mv "$C" "$tmp/carol.codes"; ln -s "$tmp/carol.codes" "$C"; cp "$tmp/carol.codes" "$tmp/carol.orig"
expect 1 "transcripts/E01.carol.codes: error: leads outside the workspace through a symlink; not read" \
  q code add --transcript E01 --turn 2 --node COM.1 --coder carol
cmp -s "$tmp/carol.codes" "$tmp/carol.orig" || fail "the .codes behind the symlink changed"
[[ -L $C ]] || fail "the symlink was replaced"
rm "$C"; mv "$tmp/carol.codes" "$C"

# The workspace given relative (-C ws, -C ..): a transcript symlinked out is refused as under an absolute -C
# (was: read under -C ws, its path shown as "ws/transcripts/..."), and -C .. works from a subfolder (was:
# every file of the workspace "leads outside the workspace").
ln -s "$tmp/outside.md" "$ws/transcripts/Z99.md"; printf 'not a transcript\n' >"$tmp/outside.md"
for from in "$tmp:ws" "$ws/transcripts:.." "$ws:."; do
  (cd "${from%%:*}" && expect 1 "transcripts/Z99.md: error: leads outside the workspace through a symlink; not read" \
    "$QUALRANK" -C "${from#*:}" validate) || fail "-C ${from#*:} from ${from%%:*}"
done
rm "$ws/transcripts/Z99.md"
(cd "$ws/transcripts" && "$QUALRANK" -C .. -q validate) || fail "-C .. from transcripts/"
(cd "$tmp" && "$QUALRANK" -C ws -q report -o rel-reports) || fail "report with -C ws"
[[ -f $ws/rel-reports/report.json ]] || fail "-o under -C ws: $(ls "$ws")"
rm -r "$ws/rel-reports"

# A bare .qde (taken out of its .qdpx): says what a .qde is and what to pass (was "not inside the project").
q export --qdpx -o "out.qdpx" >/dev/null 2>&1 || fail "export"
mkdir "$tmp/x"; (cd "$tmp/x" && unzip -q "$ws/out.qdpx" project.qde); rm "$ws/out.qdpx"
sleep 0.01; touch "$tmp/mark"; sleep 0.01
set +e; q import "$tmp/x/project.qde" >"$tmp/out" 2>"$tmp/err"; rc=$?; set -e
[[ $rc == 1 ]] || fail "bare .qde: exit $rc"
first=$(grep -m1 'error:' "$tmp/err")
[[ $first =~ ^$tmp/x/project.qde:[0-9]+:\ error:\ source\ text\ \'internal://[0-9a-f-]+\.txt\'\ is\ in\ the\ project\'s\ archive,\ not\ in\ this\ file:\ a\ \.qde\ is\ the\ project\ file\ inside\ a\ \.qdpx\ archive,\ which\ also\ holds\ the\ sources\;\ import\ the\ \.qdpx\ \(or\ a\ \.qdc\ for\ the\ codebook\ alone\)$ ]] ||
  fail "bare .qde: $first"
[[ $(grep -c "is in the project's archive, not in this file$" "$tmp/err") == 5 ]] || fail "the other five sources: $(cat "$tmp/err")"
[[ $(cd "$ws" && find . -newer "$tmp/mark" | wc -l) == 0 ]] || fail "import wrote: $(cd "$ws" && find . -newer "$tmp/mark")"
# export --qdpx, then import --force: every transcript and .codes file keeps its bytes, so the history's
# provenance (transcripts/X.md:LINE) still points at its words (was: lines moved, validate warned).
cp -r "$ws" "$tmp/before-rt"
q export --qdpx -o rt.qdpx >/dev/null 2>&1 || fail "export"
q import --force "$ws/rt.qdpx" >"$tmp/out" 2>"$tmp/err" || fail "import --force: $(cat "$tmp/err")"
for f in "$tmp/before-rt"/transcripts/*; do
  cmp -s "$f" "$ws/transcripts/$(basename "$f")" || fail "round trip changed $(basename "$f"): $(diff "$f" "$ws/transcripts/$(basename "$f")" | head -5)"
done
q validate >"$tmp/out" 2>&1 || fail "validate after the round trip"
! grep -q "warning" "$tmp/out" || fail "warnings after the round trip: $(grep warning "$tmp/out" | head -3)"
# A carried transcript that no longer says what the project says (edited in the archive): the project wins.
python3 - "$ws/rt.qdpx" "$tmp/edited.qdpx" <<'PY'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as src, zipfile.ZipFile(sys.argv[2], "w") as dst:
    for item in src.infolist():
        data = src.read(item.filename)
        if item.filename == "qualrank/transcripts/C01.md":
            data = data.replace(b"Half a year as a contractor", b"Half a year as a freelancer")
        dst.writestr(item, data)
PY
rm "$ws/rt.qdpx"
q import --force "$tmp/edited.qdpx" >"$tmp/out" 2>"$tmp/err" || fail "import --force of the edited archive: $(cat "$tmp/err")"
grep -qF "Half a year as a contractor" "$ws/transcripts/C01.md" || fail "the edited carried transcript was kept"
cmp -s "$tmp/before-rt/transcripts/C02.md" "$ws/transcripts/C02.md" || fail "C02 changed"
echo "ok: trust paths"
