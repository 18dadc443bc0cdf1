#!/usr/bin/env bash
# qualrank package / package verify, on the second fixture study (fieldwork, with names, organisations and
# e-mail addresses written into a copy for the test) and on the bundled study: nothing from the names list
# survives anywhere in the package (every file, every zip entry, nested zips, file names), the key is written
# only outside it, the outputs are those of the ordinary commands run on the pseudonymised inputs,
# `sha256sum -c` passes, the zip is byte-identical across runs, verify passes on a fresh package and fails,
# located, on a tampered one; refusals write nothing.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/grep_q.sh"  # grep_q
: "${QUALRANK:?}" "${SOURCE_DIR:?}" "${FIXTURES:?}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
unset SOURCE_DATE_EPOCH

# leaks NEEDLES PATH...: prints "needle in where" for every listed name found as a word (Unicode
# case-insensitively; "eli" in "Eli's", not in "delivery") in a file's bytes or name, inside zip entries and
# zips inside zips; prints nothing when there is none.
leaks() { python3 - "$@" <<'PY'
import io, os, re, sys, zipfile
needles = [l.strip() for l in open(sys.argv[1], encoding="utf-8") if l.strip()]
folded = [n.casefold() for n in needles]
def scan(name, data, where):
    hits = []
    text = name.casefold()
    if zipfile.is_zipfile(io.BytesIO(data)):
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            for e in z.namelist():
                scan(e, z.read(e), where + "!" + e)
    else:
        text += "\n" + data.decode("utf-8", "replace").casefold()
    for n, f in zip(needles, folded):
        if re.search(r"(?<!\w)" + re.escape(f) + r"(?!\w)", text):
            print(f"{n} in {where}")
for top in sys.argv[2:]:
    for d, _, fs in os.walk(top):
        for f in fs:
            p = os.path.join(d, f)
            scan(os.path.relpath(p, top), open(p, "rb").read(), p)
PY
}
# firstdiff A B: "LINE:COL byte N" of the first difference (lines and columns 1-based, columns in bytes).
firstdiff() { python3 - "$1" "$2" <<'PY'
import sys
a, b = open(sys.argv[1], "rb").read(), open(sys.argv[2], "rb").read()
i = 0
while i < len(a) and i < len(b) and a[i] == b[i]: i += 1
line = a[:i].count(b"\n") + 1
col = i - (a[:i].rfind(b"\n") + 1) + 1
print(f"{line}:{col} byte {i + 1}")
PY
}

# --- The fieldwork study with identifying details written in -------------------------------------------------
fw="$tmp/fw"; mkdir "$fw"; cp -r "$FIXTURES/fieldwork"/{codebooks,guidelines,transcripts} "$fw/"
python3 - "$fw" <<'PY'
import sys, pathlib
t = pathlib.Path(sys.argv[1]) / "transcripts"
def edit(name, old, new):
    p = t / name
    s = p.read_text(encoding="utf-8")
    assert old in s, (name, old)
    p.write_text(s.replace(old, new, 1), encoding="utf-8")
edit("M01.md", "  country: DE\n", "  country: DE\n  employer: Acme Logistics\n")
edit("C01.md", "C01: Only the kick-off. After that I am alone with the tickets.",
     "C01: Only the kick-off with Jonas Becker of ACME LOGISTICS. After that I am alone with the tickets; "
     "I write to J.Becker@acme-logistics.com.")
edit("M01.md", "Only the weekly planning call and one-to-ones.",
     "Only the weekly planning call and one-to-ones with Zoë Ångström (zoe@example.org).")
edit("E01.md", "E01: Slack. Important decisions vanish in threads",
     "E01: Slack. Important decisions by jonas vanish in threads")
edit("E01.carol.codes", 't4 "Important decisions vanish in threads"', 't4 "Important decisions by jonas vanish in threads"')
PY
printf 'findings:\n  - id: F1\n    claim: Jonas Becker runs the team by chat\n    codes: [COM.1]\n' >"$fw/findings.yaml"
"$QUALRANK" -C "$fw" -q validate || fail "the edited fixture does not validate"
cat >"$tmp/names.csv" <<'CSV'
name,pseudonym,kind
Jonas Becker,Manager-A,
Jonas,Manager-A,
Acme Logistics,,organisation
ZOË ÅNGSTRÖM,,
carol,,
dana,,
eli,,
Berlin,,place
CSV
printf '%s\n' "Jonas Becker" Jonas "Acme Logistics" "Zoë Ångström" carol dana eli Berlin \
  J.Becker@acme-logistics.com zoe@example.org acme-logistics >"$tmp/needles"
# the check can fail: the workspace itself holds every needle
[[ $(leaks "$tmp/needles" "$fw" | cut -d' ' -f1 | sort -u | wc -l) -ge 9 ]] || fail "leak check finds too little in the original: $(leaks "$tmp/needles" "$fw")"

"$QUALRANK" -C "$fw" package --names ../names.csv --key ../key.csv >"$tmp/out" 2>"$tmp/err" || fail "package: $(cat "$tmp/err")"
[[ ! -s "$tmp/err" ]] || fail "package printed: $(cat "$tmp/err")"
pkg="$fw/package"
n_files=$(find "$pkg" -type f | wc -l)
cat >"$tmp/expected" <<EOT
qualrank package: wrote $fw/package/ ($n_files files) and package.zip
  pseudonymised: 8 of 8 listed names found, 2 e-mail addresses, 22 replacements
  key: $fw/../key.csv (keep it apart from the package)
EOT
diff "$tmp/expected" "$tmp/out" >/dev/null || fail "summary: $(diff "$tmp/expected" "$tmp/out")"
[[ -s "$fw/package.zip" ]] || fail "no package.zip"
unzip -tq "$fw/package.zip" >/dev/null && unzip -tq "$pkg/exports/project.qdpx" >/dev/null || fail "unzip -t finds errors"
# Each member is the folder's file byte for byte; those that are zips themselves (the workbooks, the REFI
# project) are stored, not deflated again, and the text is deflated.
methods=$(python3 - "$fw/package.zip" "$pkg" <<'PY'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z:
    for i in z.infolist():
        data = z.read(i)
        assert data == open(sys.argv[2] + "/" + i.filename[len("package/"):], "rb").read(), i.filename
        zipped = data[:4] == b"PK\x03\x04"
        if zipped or len(data) > 1000:  # (a small file deflate would not shrink may be stored)
            want = zipfile.ZIP_STORED if zipped else zipfile.ZIP_DEFLATED
            assert i.compress_type == want, (i.filename, i.compress_type)
        if i.filename.endswith((".xlsx", ".qdpx")): print(i.filename, "stored" if i.compress_type == zipfile.ZIP_STORED else "deflated")
PY
) || fail "package.zip's members"
grep -qx "package/exports/project.qdpx stored" <<<"$methods" && grep -qx "package/reports/codebook.xlsx stored" <<<"$methods" ||
  fail "the zips inside package.zip: $methods"
# The findings travel pseudonymised, and methods.md's chain of evidence shows the claim as pseudonymised.
grep -qxF "    claim: Manager-A runs the team by chat" "$fw/package/findings.yaml" || fail "findings.yaml: $(cat "$fw/package/findings.yaml")"
grep -qxF "### F1: Manager-A runs the team by chat" "$fw/package/reports/methods.md" || fail "methods.md lacks the finding"
grep -qF -- '- `findings.yaml`: the study'"'"'s findings' "$fw/package/README.md" || fail "README does not describe findings.yaml"

# Nothing from the names list survives, in the folder or in the zip (nested zips included).
mkdir "$tmp/unzipped"; (cd "$tmp/unzipped" && unzip -q "$fw/package.zip")
[[ -z "$(leaks "$tmp/needles" "$pkg" "$tmp/unzipped")" ]] || fail "names survive: $(leaks "$tmp/needles" "$pkg" "$tmp/unzipped")"
# and by grep(1), every zip inside unzipped (all but "eli", a part of common words: checked as a word above)
cp -r "$tmp/unzipped" "$tmp/grepped"
find "$tmp/grepped" -name '*.xlsx' -o -name '*.qdpx' | while read -r z; do mkdir "$z.d"; (cd "$z.d" && unzip -q "$z"); rm "$z"; done
[[ $(find "$tmp/grepped" -type f | wc -l) -gt 60 ]] || fail "the zips were not unpacked"
grep -v '^eli$' "$tmp/needles" >"$tmp/needles-grep"
if LC_ALL=C.UTF-8 grep -rilF -f "$tmp/needles-grep" "$tmp/grepped"; then fail "grep finds a listed name"; fi
LC_ALL=C.UTF-8 grep -rilF -f "$tmp/needles-grep" "$fw/transcripts" >/dev/null || fail "grep finds nothing in the original (the check cannot fail)"
# the zip holds exactly the folder's files, byte for byte
diff -r "$pkg" "$tmp/unzipped/package" || fail "the zip and the folder differ"
# The key: outside, exact (counts as `grep -rwoi NAME` of the workspace gives them), nowhere in the package.
cat >"$tmp/key.expected" <<'EOT'
kind,original,pseudonym,occurrences
person,Jonas Becker,Manager-A,2
person,Jonas,Manager-A,2
organisation,Acme Logistics,Organisation-1,2
person,ZOË ÅNGSTRÖM,Person-1,1
person,carol,Person-2,2
person,dana,Person-3,7
person,eli,Person-4,3
place,Berlin,Place-1,1
email,J.Becker@acme-logistics.com,Email-1,1
email,zoe@example.org,Email-2,1
EOT
diff "$tmp/key.expected" "$tmp/key.csv" || fail "key"
# 22 replacements = the sum of the key's occurrences; the manifest says the same
[[ $(jq -c .pseudonymisation "$pkg/qualrank-package.json") == '{"names_listed":8,"names_found":8,"addresses":2,"replacements":22}' ]] || fail "manifest counts"
grep -qF "$(sha256sum <"$tmp/key.csv" | cut -d' ' -f1)" "$pkg/SHA256SUMS" && fail "the key's bytes are in the package"
[[ -z "$(find "$pkg" "$tmp/unzipped" -name 'key*')" ]] || fail "a key file in the package"
# Consistent pseudonyms: in the transcript, the standoff file and its renamed path, the front matter, the outputs.
grep -qxF "C01: Only the kick-off with Manager-A of Organisation-1. After that I am alone with the tickets; I write to Email-1." "$pkg/transcripts/C01.md" || fail "C01 turn: $(grep '^C01: Only' "$pkg/transcripts/C01.md")"
grep -qxF "  employer: Organisation-1" "$pkg/transcripts/M01.md" || fail "front matter attribute"
grep -qxF "coder: Person-4" "$pkg/transcripts/C01.md" || fail "coder in front matter"
[[ -f "$pkg/transcripts/E01.Person-2.codes" && ! -e "$pkg/transcripts/E01.carol.codes" ]] || fail "standoff file not renamed: $(ls "$pkg/transcripts")"
grep -qF 't4 "Important decisions by Manager-A vanish in threads"' "$pkg/transcripts/E01.Person-2.codes" || fail "span in .codes"
grep -qF "one-to-ones with Person-1 (Email-2)." "$pkg/transcripts/M01.md" || fail "M01"
grep -qF "Die Übergabe zwischen Place-1 und Austin" "$pkg/transcripts/M01.md" || fail "place"
jq -e '[.coded[]?] | tostring | contains("Manager-A")' "$pkg/reports/report.json" >/dev/null || fail "report.json quotes lack the pseudonym"
jq -e '.agreement.transcripts.coders | index("Person-2") != null' "$pkg/reports/report.json" >/dev/null || fail "agreement coders: $(jq -c .agreement.transcripts.coders "$pkg/reports/report.json")"
unzip -p "$pkg/exports/project.qdpx" project.qde | grep_q -F 'name="Person-3"' || fail "qdpx users"
# The outputs are what the ordinary commands make from the package's (pseudonymised) inputs.
"$QUALRANK" -C "$pkg" -q validate || fail "the package is not a valid workspace"
"$QUALRANK" -C "$pkg" -q report -o "$tmp/rerun"
diff -rq "$tmp/rerun" "$pkg/reports" >"$tmp/rerun.diff" || fail "reports/ (latex/ included) is not what report makes: $(cat "$tmp/rerun.diff")"
[[ -s "$pkg/reports/latex/participants.tex" ]] || fail "the package has no reports/latex/"
"$QUALRANK" -C "$pkg" -q export --qdpx -o "$tmp/p.qdpx" 2>/dev/null; cmp "$tmp/p.qdpx" "$pkg/exports/project.qdpx" || fail "project.qdpx"
"$QUALRANK" -C "$pkg" -q export --qdc -o "$tmp/c.qdc" 2>/dev/null; cmp "$tmp/c.qdc" "$pkg/exports/codebook.qdc" || fail "codebook.qdc"
"$QUALRANK" -C "$pkg" code --format csv --no-suggestions >"$tmp/seg.csv"; cmp "$tmp/seg.csv" "$pkg/exports/segments.csv" || fail "segments.csv"
"$QUALRANK" -C "$pkg" -q codebook --format csv >"$tmp/cb.csv" 2>/dev/null; cmp "$tmp/cb.csv" "$pkg/exports/codebook-tables.csv" || fail "codebook-tables.csv"
# The history's chain was recomputed: it validates (above), and only author lines and hashes changed.
diff "$fw/codebooks/remote-work.history.yaml" "$pkg/codebooks/remote-work.history.yaml" | grep '^[<>]' \
  | grep -vE '^[<>] +(author|decided_by): |^[<>] +hash: [0-9a-f]{64}$' && fail "history lines changed beyond names and hashes"
grep -c '^    author: Person-3$' "$pkg/codebooks/remote-work.history.yaml" | grep_q -x 4 || fail "history authors"
# README: every file listed once, and what a transcript is.
for f in $(cd "$pkg" && find . -type f | sed 's|^\./||'); do
  [[ $(grep -c "^   - \`$f\`: " "$pkg/README.md") == 1 ]] || fail "README does not list $f once"
done
grep -qxF -- '   - `transcripts/C01.md`: the transcript of participant C01 (role contractor), with the codes of Person-4 written inline' "$pkg/README.md" || fail "README transcript line"
grep -qxF -- '   - `transcripts/E01.Person-2.codes`: the independent codings of `transcripts/E01.md` by Person-2' "$pkg/README.md" || fail "README codes line"
# sha256sum(1) agrees with SHA256SUMS, which names every other file.
(cd "$pkg" && sha256sum -c --quiet SHA256SUMS) || fail "sha256sum -c"
[[ $(wc -l <"$pkg/SHA256SUMS") == $((n_files - 1)) ]] || fail "SHA256SUMS does not name every file"

# verify: ok on a fresh package, leaving nothing behind.
"$QUALRANK" -C "$fw" package verify package >"$tmp/v.out" 2>"$tmp/v.err" || fail "verify: $(cat "$tmp/v.err")"
n_out=$(($(jq '.outputs | length' "$pkg/qualrank-package.json") + 1))
[[ "$(cat "$tmp/v.out")" == "qualrank package verify: ok: $((n_files - 1)) files match SHA256SUMS, $n_out outputs re-made byte for byte" ]] || fail "verify output: $(cat "$tmp/v.out")"
[[ $(find "$pkg" | wc -l) == $(find "$tmp/unzipped/package" | wc -l) ]] || fail "verify left files behind"
# Same inputs, same zip bytes (the old package is replaced); SOURCE_DATE_EPOCH stamps it and is kept for verify.
# What a killed run left (its process gone) is removed; another live process's folder is not.
cp "$fw/package.zip" "$tmp/first.zip"
mkdir -p "$fw/.package.999999999.staging/x" "$fw/.package.999999999.old" "$fw/.package.$$.staging"
"$QUALRANK" -C "$fw" -q package --names ../names.csv
[[ ! -e "$fw/.package.999999999.staging" && ! -e "$fw/.package.999999999.old" ]] || fail "stale staging folders left"
[[ -d "$fw/.package.$$.staging" ]] || fail "a live process's staging folder was removed"; rmdir "$fw/.package.$$.staging"
mkdir "$pkg/.verify.999999999"; "$QUALRANK" -C "$fw" -q package verify package || fail "verify with a stale scratch folder"
[[ ! -e "$pkg/.verify.999999999" ]] || fail "stale verify folder left"
cmp "$tmp/first.zip" "$fw/package.zip" || fail "a second run gives other zip bytes"
SOURCE_DATE_EPOCH=1700000000 "$QUALRANK" -C "$fw" -q package --names ../names.csv -o e1
SOURCE_DATE_EPOCH=1700000000 "$QUALRANK" -C "$fw" -q package --names ../names.csv -o e2
cmp -s "$fw/e1.zip" "$tmp/first.zip" && fail "SOURCE_DATE_EPOCH not used"
diff -r "$fw/e1" "$fw/e2" >/dev/null || fail "two runs with one SOURCE_DATE_EPOCH differ"
[[ $(jq .settings.source_date_epoch "$fw/e1/qualrank-package.json") == 1700000000 ]] || fail "manifest epoch"
# --coder names a listed coder: counted under the pseudonym, as `report --coder` counts the original
"$QUALRANK" -C "$fw" -q package --names ../names.csv --coder carol -o bycoder
[[ $(jq -r .settings.coder "$fw/bycoder/qualrank-package.json") == Person-2 ]] || fail "coder setting not pseudonymised"
"$QUALRANK" -C "$fw" -q report --coder carol -o "$tmp/carol"
counts='[.codebook.matrix.rows[] | [.node, .segments, .participants, .counts]]'
[[ $(jq -c "$counts" "$tmp/carol/report.json") == "$(jq -c "$counts" "$fw/bycoder/reports/report.json")" ]] || fail "--coder carol counts differently in the package"
[[ $(jq -c "$counts" "$tmp/carol/report.json") != "$(jq -c "$counts" "$pkg/reports/report.json")" ]] || fail "--coder carol counts as the consensus does (the check cannot fail)"
"$QUALRANK" -C "$fw" -q package verify bycoder || fail "verify bycoder"
"$QUALRANK" -C "$fw" -q package verify e1 || fail "verify with the manifest's SOURCE_DATE_EPOCH"

# verify on a tampered package: every difference named, located.
cp -r "$pkg" "$tmp/t"
sed -i 's/alone with the tickets/alone with the bugs/' "$tmp/t/transcripts/C01.md"
cp "$tmp/t/reports/report.json" "$tmp/report.orig"
sed -i '3s/"qualrank"/"qualrank!"/; 0,/"title": "/s//"title": "X/' "$tmp/t/reports/report.json"
if "$QUALRANK" package verify "$tmp/t" >"$tmp/t.out" 2>"$tmp/t.err"; then fail "verify passed a tampered package"; fi
"$QUALRANK" -C "$tmp/t" code --format csv --no-suggestions >"$tmp/t.seg"
read -r pos byte <<<"$(firstdiff "$tmp/t/exports/segments.csv" "$tmp/t.seg" | sed 's/ byte / /')"
read -r rpos rbyte <<<"$(firstdiff "$tmp/t/reports/report.json" "$tmp/report.orig" | sed 's/ byte / /')"
for line in "$tmp/t/transcripts/C01.md: error: SHA-256 differs from SHA256SUMS" \
            "$tmp/t/reports/report.json: error: SHA-256 differs from SHA256SUMS" \
            "$tmp/t/exports/segments.csv:$pos: error: differs from the re-run (first difference at byte $byte)" \
            "$tmp/t/reports/report.json:$rpos: error: differs from the re-run (first difference at byte $rbyte)" \
            "qualrank package verify: $tmp/t is not verified (see above)"; do
  grep -qxF "$line" "$tmp/t.err" || fail "verify does not say: $line; it says: $(cat "$tmp/t.err")"
done
grep -qE "^$tmp/t/exports/project.qdpx: error: differs from the re-run \(first difference at byte [0-9]+\)$" "$tmp/t.err" || fail "qdpx not named"
[[ -z "$(find "$tmp/t" -name '.verify*')" ]] || fail "verify left its scratch folder"
# the README's own command for the report alone makes the package's reports, byte for byte
cmd=$(grep -o 'The report alone, into `rerun/`: `[^`]*`' "$pkg/README.md" | sed 's/.*: `//; s/`$//')
[[ $cmd == "env -u SOURCE_DATE_EPOCH qualrank -C . report -o rerun --resamples 10000 --seed 20250101 --coder consensus" ]] || fail "README command: $cmd"
cp -r "$pkg" "$tmp/readme-run"
(cd "$tmp/readme-run" && eval "${cmd/qualrank/\"\$QUALRANK\" -q}")
diff -rq "$tmp/readme-run/rerun" "$pkg/reports" >"$tmp/readme.diff" || fail "README's command: $(cat "$tmp/readme.diff")"
# verify works outside any workspace (a downloaded package), the path taken from the current folder
(cd "$tmp" && "$QUALRANK" -q package verify unzipped/package) || fail "verify outside a workspace"
(cd "$tmp/unzipped/package" && "$QUALRANK" -q package verify .) || fail "verify . inside the package"
# a missing file; a file the checksums do not name (a warning, not a failure)
rm "$pkg/exports/codebook.qdc"; echo extra >"$pkg/notes.txt"
if "$QUALRANK" -C "$fw" package verify package 2>"$tmp/m.err"; then fail "verify passed without codebook.qdc"; fi
grep -qxF "$fw/package/exports/codebook.qdc: error: is missing (listed in SHA256SUMS): cannot read the file" "$tmp/m.err" || fail "missing: $(cat "$tmp/m.err")"
grep -qxF "$fw/package/exports/codebook.qdc: error: is missing (the re-run makes it)" "$tmp/m.err" || fail "missing output: $(cat "$tmp/m.err")"
grep -qxF "$fw/package/notes.txt: warning: not listed in SHA256SUMS" "$tmp/m.err" || fail "extra file: $(cat "$tmp/m.err")"
# a package made by another version: said, beside the checksum error of the edited manifest
cp -r "$tmp/unzipped/package" "$tmp/v"
version=$(jq -r .qualrank "$tmp/v/qualrank-package.json")
sed -i "s/\"qualrank\": \"$version\"/\"qualrank\": \"0.0.1\"/" "$tmp/v/qualrank-package.json"
if "$QUALRANK" package verify "$tmp/v" 2>"$tmp/v.err"; then fail "verify passed an edited manifest"; fi
grep -qxF "$tmp/v/qualrank-package.json: warning: made with qualrank \"0.0.1\", verified with $version: outputs may differ for that reason alone" "$tmp/v.err" || fail "version: $(cat "$tmp/v.err")"
grep -qxF "$tmp/v/qualrank-package.json: error: SHA-256 differs from SHA256SUMS" "$tmp/v.err" || fail "manifest checksum: $(cat "$tmp/v.err")"
# a manifest that is not one: located errors, never an internal error
for edit in '.qualrank = 5' 'del(.pseudonymisation)' '.settings.seed = "x"' '.pseudonymisation.addresses = -1' 'del(.settings.source_date_epoch)'; do
  jq "$edit" "$tmp/unzipped/package/qualrank-package.json" >"$tmp/v/qualrank-package.json"
  set +e; "$QUALRANK" package verify "$tmp/v" 2>"$tmp/v.err"; rc=$?; set -e
  [[ $rc == 1 ]] && grep -q "^$tmp/v/qualrank-package.json: error: " "$tmp/v.err" || fail "manifest $edit: $rc $(cat "$tmp/v.err")"
done
# a package file that is a symlink leading out of the package is not read
cp -r "$tmp/unzipped/package" "$tmp/s"; cp "$tmp/s/guidelines/remote-work-interview.yaml" "$tmp/g.yaml"
ln -sf "$tmp/g.yaml" "$tmp/s/guidelines/remote-work-interview.yaml"
if "$QUALRANK" package verify "$tmp/s" 2>"$tmp/s.err"; then fail "verify followed a symlink out"; fi
grep -qxF "$tmp/s/guidelines/remote-work-interview.yaml: error: is missing (listed in SHA256SUMS): leads outside the workspace through a symlink; not read" "$tmp/s.err" || fail "symlink: $(cat "$tmp/s.err")"

# verify of what is not a package; usage
if "$QUALRANK" -C "$fw" package verify transcripts 2>"$tmp/np.err"; then fail "verify passed transcripts/"; fi
[[ "$(cat "$tmp/np.err")" == "$fw/transcripts/qualrank-package.json: error: cannot read the file; not a qualrank package
qualrank package verify: transcripts is not verified (see above)" ]] || fail "not a package: $(cat "$tmp/np.err")"
set +e; "$QUALRANK" -C "$fw" package verify 2>"$tmp/u.err"; rc=$?; set -e
[[ $rc == 2 && "$(cat "$tmp/u.err")" == "qualrank package verify: error: say which package: qualrank package verify DIR" ]] || fail "usage: $rc $(cat "$tmp/u.err")"

# Refusals, nothing written.
"$QUALRANK" -C "$fw" -q package --names ../names.csv
snapshot() { (cd "$fw" && find . -type f -exec sha256sum {} + | sort) ; }
snapshot >"$tmp/before"
refuse() {  # refuse "EXPECTED STDERR LINE" ARGS...
  local want=$1; shift
  if "$QUALRANK" -C "$fw" -q package "$@" 2>"$tmp/r.err"; then fail "package $* succeeded"; fi
  grep -qxF "$want" "$tmp/r.err" || fail "package $*: expected '$want', got: $(cat "$tmp/r.err")"
  snapshot | diff "$tmp/before" - >"$tmp/snap.diff" || fail "package $* changed files: $(cat "$tmp/snap.diff")"
}
refuse "$fw/package/key.csv: error: the key may not be written into the package ($fw/package); keep it outside" --names ../names.csv --key package/key.csv
refuse "$fw/package.zip: error: the key may not be written into the package ($fw/package); keep it outside" --names ../names.csv --key package.zip
refuse "$fw/transcripts: error: exists and is not a qualrank package (no qualrank-package.json); remove it or choose another folder; nothing written" -o transcripts
refuse "$fw/..: error: the package folder cannot be the workspace or a folder that holds it" -o ..
mkdir "$tmp/empty"; "$QUALRANK" -C "$fw" -q package --names ../names.csv -o "$tmp/empty" || fail "an empty folder is refused"
# the zip's members sit under the fixed folder package/, never under the name -o chose: the same bytes
cmp "$tmp/empty.zip" "$fw/package.zip" || fail "the zip carries the folder name -o chose"
unzip -Z1 "$tmp/empty.zip" | grep -v '^package/' && fail "a zip member outside package/"
[[ $(unzip -Z1 "$tmp/empty.zip" | head -2 | tr '\n' ' ') == "package/README.md package/SHA256SUMS " ]] || fail "zip entries: $(unzip -Z1 "$tmp/empty.zip" | head -3)"
refuse "$fw/../names.csv: error: the key would overwrite the names list; write it elsewhere" --names ../names.csv --key ../names.csv
printf 'name,pseudonym\nJonas,\njonas,\n' >"$tmp/dup.csv"
refuse "$tmp/dup.csv:3:1: error: 'jonas' is listed twice (first on line 2); give each name once" --names "$tmp/dup.csv"
printf 'name,pseudonym\nJonas,Jonas-2\n' >"$tmp/self.csv"
refuse "$tmp/self.csv:2:1: error: the pseudonym 'Jonas-2' contains a listed name or an e-mail address; it would appear in the package" --names "$tmp/self.csv"
printf 'name,pseudonym\nJonas,[J]\n' >"$tmp/markup.csv"
refuse "$tmp/markup.csv:2:1: error: the pseudonym '[J]' holds '[' (coding markup or a path character)" --names "$tmp/markup.csv"
printf 'person\nJonas\n' >"$tmp/nocol.csv"
refuse "$tmp/nocol.csv:1:1: error: a names list needs a 'name' column (and optionally 'pseudonym' and 'kind')" --names "$tmp/nocol.csv"
printf 'name,pseudonym\nE01,C01\n' >"$tmp/clash.csv"
refuse "transcripts/E01.md: error: becomes transcripts/C01.md once pseudonymised, as transcripts/C01.md does; give them different pseudonyms" --names "$tmp/clash.csv"
# a name written with YAML escapes is read as what it stands for and replaced (the copy still validates)
cp "$fw/codebooks/remote-work.yaml" "$tmp/tax.orig"
sed -i 's/^        definition: Progress shared in writing, read when people have time.$/        definition: "Progress shared in writing, as Zo\\u00eb \\u00c5ngstr\\u00f6m asked."/' "$fw/codebooks/remote-work.yaml"
grep -qF 'as Zo\u00eb' "$fw/codebooks/remote-work.yaml" || fail "test setup: the escaped name"
"$QUALRANK" -C "$fw" -q package --names ../names.csv -o "$tmp/escaped" || fail "package with an escaped name"
grep -qxF '        definition: "Progress shared in writing, as Person-1 asked."' "$tmp/escaped/codebooks/remote-work.yaml" \
  || fail "escaped name: $(grep -F 'Progress shared' "$tmp/escaped/codebooks/remote-work.yaml")"
cp "$tmp/tax.orig" "$fw/codebooks/remote-work.yaml"
snapshot >"$tmp/before"
# a listed word that the files' structure uses: the pseudonymised copy does not validate
printf 'name\nparticipant\n' >"$tmp/structure.csv"
refuse "qualrank: note: the pseudonymised copy of the workspace has errors (\`qualrank validate\` shows the workspace's own; an error only here comes from a replaced name)" --names "$tmp/structure.csv"
grep -qxF "transcripts/C01.md:2:1: error: missing 'participant'" "$tmp/r.err" || fail "the copy's error: $(head -3 "$tmp/r.err")"
# symlinks: a default output leading out, an input leading out; neither followed, nothing written
mkdir "$tmp/elsewhere"; mv "$fw/package" "$tmp/pkg.keep"; ln -s "$tmp/elsewhere" "$fw/package"
snapshot >"$tmp/before"
refuse "qualrank package: error: the default output package leads outside the workspace (through a symlink); give -o to write there on purpose" --names ../names.csv
[[ -z "$(ls -A "$tmp/elsewhere")" ]] || fail "wrote through the package symlink"
rm "$fw/package"; mv "$tmp/pkg.keep" "$fw/package"
cp "$fw/transcripts/C02.md" "$tmp/C02.md"; ln -sf "$tmp/C02.md" "$fw/transcripts/C02.md"
snapshot >"$tmp/before"
refuse "transcripts/C02.md: error: leads outside the workspace through a symlink; not read" --names ../names.csv
rm "$fw/transcripts/C02.md"; cp "$tmp/C02.md" "$fw/transcripts/C02.md"
# the README says nothing of the bundled study
grep -qiE 'LLM|issue type|framework' "$pkg/README.md" && fail "README carries the bundled study's words"
[[ -z "$(find "$fw" -maxdepth 1 -name '.*staging*')" ]] || fail "a staging folder was left behind"

# --- The bundled study: coders and organisations, the history's quotes rechained ---------------------------
ws="$tmp/study"; mkdir "$ws"; cp -r "$SOURCE_DIR"/{codebooks,guidelines,transcripts} "$ws/"
printf 'name,pseudonym,kind\nalice,,\nbob,,\nHugging Face,,organisation\nW&B,Tracker-1,organisation\n' >"$ws/pseudonyms.csv"
printf '%s\n' alice bob "Hugging Face" "W&B" >"$tmp/needles2"
[[ $(leaks "$tmp/needles2" "$ws/transcripts" "$ws/codebooks" | cut -d' ' -f1 | sort -u | wc -l) == 4 ]] || fail "the bundled study lacks a needle"
"$QUALRANK" -C "$ws" -q package --key "$tmp/key2.csv" 2>"$tmp/s.err" || fail "package of the bundled study: $(cat "$tmp/s.err")"
rm -rf "$tmp/unzipped"; mkdir "$tmp/unzipped"; (cd "$tmp/unzipped" && unzip -q "$ws/package.zip")
[[ -z "$(leaks "$tmp/needles2" "$ws/package" "$tmp/unzipped")" ]] || fail "names survive: $(leaks "$tmp/needles2" "$ws/package" "$tmp/unzipped")"
[[ ! -e "$ws/package/pseudonyms.csv" ]] || fail "the names list is in the package"
grep -qxF "organisation,W&B,Tracker-1,4" "$tmp/key2.csv" || fail "key2: $(cat "$tmp/key2.csv")"
grep -qF "loss curves in Tracker-1" "$ws/package/codebooks/llm-frameworks.history.yaml" || fail "history quote not pseudonymised"
"$QUALRANK" -C "$ws/package" -q validate || fail "the pseudonymised history does not validate"
(cd "$ws/package" && sha256sum -c --quiet SHA256SUMS) || fail "sha256sum -c (bundled)"
(cd "$ws/package" && "$QUALRANK" -q package verify .) || fail "verify (bundled)"
# pseudonyms change no number: the rankings of the original workspace, exactly
"$QUALRANK" -C "$ws" -q report -o "$tmp/orig"
jq -S '.rankings' "$tmp/orig/report.json" >"$tmp/r1"; jq -S '.rankings' "$ws/package/reports/report.json" >"$tmp/r2"
cmp -s "$tmp/r1" "$tmp/r2" || fail "the rankings differ after pseudonymisation"
# a default names list that leads outside the workspace is not read
mv "$ws/pseudonyms.csv" "$tmp/outside-names.csv"; ln -s "$tmp/outside-names.csv" "$ws/pseudonyms.csv"
set +e; "$QUALRANK" -C "$ws" -q package -o "$tmp/never" 2>"$tmp/pn.err"; rc=$?; set -e
[[ $rc == 1 && "$(cat "$tmp/pn.err")" == "pseudonyms.csv: error: leads outside the workspace through a symlink; not read" && ! -e "$tmp/never" ]] || fail "default names list through a symlink: $rc $(cat "$tmp/pn.err")"
rm "$ws/pseudonyms.csv"
# a participant id listed: the transcript renamed, its front matter and the history's provenance follow
printf 'name,pseudonym\nU07,P-Seven\n' >"$tmp/ids.csv"
"$QUALRANK" -C "$ws" -q package --names "$tmp/ids.csv" -o "$tmp/ids"
[[ -f "$tmp/ids/transcripts/P-Seven.md" && ! -e "$tmp/ids/transcripts/U07.md" ]] || fail "U07.md not renamed"
grep -qxF "participant: P-Seven" "$tmp/ids/transcripts/P-Seven.md" || fail "participant id"
grep -qxF "        source: transcripts/P-Seven.md:62" "$tmp/ids/codebooks/llm-frameworks.history.yaml" || fail "provenance source"
[[ -z "$(leaks <(echo U07) "$tmp/ids")" ]] || fail "U07 survives: $(leaks <(echo U07) "$tmp/ids")"
"$QUALRANK" -q package verify "$tmp/ids" || fail "verify (ids)"
echo "package: ok"
