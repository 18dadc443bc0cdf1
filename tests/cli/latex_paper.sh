#!/usr/bin/env bash
# LaTeX tables in a paper (docs/latex.md, #39.2): `qualrank report` on the bundled study, on the fieldwork study
# (with a corpus of issue reports: Table I) and on the rank-model study; every reports/latex/*.tex compiles, alone
# after the preamble its opening comment names (docs/latex.md's), in (a) an IEEEtran two-column conference paper (column 252pt) and (b) a one-column article;
# the *-appendix.tex files (longtables: a longtable cannot sit in two columns) in the article only. Each with
# pdflatex -halt-on-error (twice when a longtable: its widths settle on the second run). Fails on any LaTeX error,
# on any "Overfull \hbox (X pt too wide)" with X > 1, and on any Type 3 (bitmap) font in the PDF (pdffonts).
set -euo pipefail
: "${QUALRANK:?}" "${SOURCE_DIR:?}" "${FIXTURES:?}"
if ! command -v pdflatex >/dev/null || ! command -v pdffonts >/dev/null; then
  echo "SKIP: pdflatex or pdffonts is not installed (make deps-test installs them)"; exit 77
fi
if ! kpsewhich IEEEtran.cls >/dev/null; then echo "SKIP: IEEEtran.cls is not installed (texlive-publishers; make deps-test)"; exit 77; fi
if ! kpsewhich lmodern.sty >/dev/null; then echo "SKIP: lmodern.sty is not installed (lmodern; make deps-test)"; exit 77; fi
# IEEEtran sets its text in Times (ptm): the fonts of texlive-fonts-recommended, which the Makefile installs.
if ! kpsewhich ptmr7t.tfm >/dev/null; then echo "FAIL: Times (ptmr7t.tfm, texlive-fonts-recommended) is not installed: IEEEtran cannot set text"; exit 1; fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
source "$(dirname "$0")/lib/corpus_study.sh"  # generated_corpus
export HOME="$tmp"  # TeX's caches stay in the temp folder

"$QUALRANK" -C "$SOURCE_DIR" -q report -o "$tmp/bundled" || fail "report on the bundled study"
cp -r "$FIXTURES/fieldwork" "$tmp/fw"; cp "$FIXTURES/findings/findings.yaml" "$tmp/fw/"
# fieldwork with a corpus of issue reports too (stage one), so that Table I (corpus.tex) is compiled as well:
# three generated sources, retrieved, one document screened out, a sample of 12 labelled by two coders.
generated_corpus "$tmp/fw" "$tmp/gen" 40
printf 'sources:\n  atlas: [cache miss, plain title]\n  borealis: [cache miss, plain title]\n' >"$tmp/fw/corpus/keywords.yaml"
"$QUALRANK" -C "$tmp/fw" -q corpus retrieve 2>/dev/null
"$QUALRANK" -C "$tmp/fw" -q corpus screen --screener sam --doc atlas#1 --false-positive duplicate
"$QUALRANK" -C "$tmp/fw" -q corpus sample pilot --size 12 --seed 1
{ echo "doc,nodes,note"; grep -v '^#' "$tmp/fw/corpus/samples/pilot.txt" | awk '{ n = split("COM.1 COM.2 TOOL.1 TOOL.2 WELL.1", a, " "); print $0 "," a[NR % n + 1] "," }'; } >"$tmp/labels.csv"
for c in ana ben; do "$QUALRANK" -C "$tmp/fw" -q corpus label --coder "$c" --sample pilot --from-csv "$tmp/labels.csv"; done
"$QUALRANK" -C "$tmp/fw" -q corpus labels export --sample pilot
"$QUALRANK" -C "$tmp/fw" -q report -o "$tmp/fw/reports" || fail "report on fieldwork"
[[ -f "$tmp/fw/reports/latex/corpus.tex" ]] || fail "fieldwork with a corpus: no corpus.tex"
# One screener, one document screened: said in the singular (index.html's and methods.md's stage one).
grep -qF '<p class="screening">1 screener: sam (1 screened). ' "$tmp/fw/reports/index.html" || fail "index.html: screeners: $(grep -o '<p class="screening">[^.]*' "$tmp/fw/reports/index.html")"
grep -qF "Over the 1 document every screener decided on, all agree on 1 (100.00 %)" "$tmp/fw/reports/index.html" || fail "index.html: 1 document"
grep -qF "1 screener (sam) screened 1 of the retrieved documents" "$tmp/fw/reports/methods.md" || fail "methods.md: $(grep -o '[0-9]* screeners\? ([^)]*) screened [^;]*' "$tmp/fw/reports/methods.md")"
grep -qF "Over the 1 document every screener decided on, they all agreed on 1" "$tmp/fw/reports/methods.md" || fail "methods.md: 1 document"
cp -r "$FIXTURES/rank-model" "$tmp/rm"
"$QUALRANK" -C "$tmp/rm" -q report -o "$tmp/rm/reports" || fail "report on rank-model"

# The preamble every file names in its opening comment (docs/latex.md names the same lines).
preamble=$(sed -n 's|^%   \(\\usepackage.*\)$|\1|p' "$tmp/bundled/latex/participants.tex")
grep -qxF '\usepackage{lmodern}' <<<"$preamble" || fail "the preamble has no scalable font: $preamble"

# compile CLASS FILE NAME: FILE alone in a document of CLASS, in $tmp/pdf/NAME.{tex,log,pdf}; fails on an error, an
# overfull \hbox over 1pt or a Type 3 font. Prints the widest overfull \hbox (0 when none).
mkdir -p "$tmp/pdf"
compile() {
  local class=$1 f=$2 name=$3 runs=1 i over
  printf '%s\n%s\n\\begin{document}\n\\input{%s}\n\\end{document}\n' "$class" "$preamble" "$f" >"$tmp/pdf/$name.tex"
  grep -q '\\begin{longtable}' "$f" && runs=2
  for ((i = 0; i < runs; i++)); do
    (cd "$tmp/pdf" && pdflatex -halt-on-error -interaction=nonstopmode "$name.tex" >"$name.out" 2>&1) ||
      fail "$name: pdflatex: $(grep -A4 '^!' "$tmp/pdf/$name.log" | head -8)"
  done
  ! grep -q '^! ' "$tmp/pdf/$name.log" || fail "$name: $(grep -A4 '^!' "$tmp/pdf/$name.log" | head -8)"
  over=$(sed -n 's/^Overfull \\hbox (\([0-9.]*\)pt too wide).*/\1/p' "$tmp/pdf/$name.log" | sort -rn | head -1)
  awk -v w="${over:-0}" 'BEGIN { exit !(w > 1) }' && fail "$name: an overfull \\hbox ${over}pt too wide: $(grep -A2 '^Overfull' "$tmp/pdf/$name.log" | head -6)"
  pdffonts "$tmp/pdf/$name.pdf" >"$tmp/pdf/$name.fonts" || fail "$name: pdffonts"
  ! grep -q 'Type 3' "$tmp/pdf/$name.fonts" || fail "$name: Type 3 fonts: $(grep 'Type 3' "$tmp/pdf/$name.fonts")"
  echo "${over:-0}"
}

ieee='\documentclass[conference]{IEEEtran}'
article='\documentclass{article}'
files=0
for study in bundled fw/reports rm/reports; do
  dir="$tmp/$study/latex"
  [[ $(ls "$dir"/*.tex | wc -l) -ge 8 ]] || fail "$study: $(ls "$dir" | tr "\n" " ")"
  for f in "$dir"/*.tex; do
    b=$(basename "$f" .tex); tag=${study%%/*}-$b
    if [[ $b == *-appendix ]]; then
      grep -q '\\begin{longtable}' "$f" || fail "$study: $b.tex is not a longtable"
    else
      # A table in the body of a two-column paper is a float: no longtable (it stops LaTeX in two columns).
      ! grep -q '\\begin{longtable}' "$f" || fail "$study: $b.tex is a longtable, not a float"
      grep -q '^\\begin{table\*\?}' "$f" || fail "$study: $b.tex is not a table or table* float"
      compile "$ieee" "$f" "ieee-$tag" >/dev/null
    fi
    compile "$article" "$f" "article-$tag" >/dev/null
    files=$((files + 1))
  done
done
# The long tables have their appendix version, named so, and their float says where the rest is.
for b in codebook evidence; do
  [[ -f "$tmp/fw/reports/latex/$b-appendix.tex" ]] || fail "fieldwork: no $b-appendix.tex"
  grep -qF "\\ref{tab:$b-appendix}" "$tmp/fw/reports/latex/$b.tex" || fail "$b.tex does not point at its appendix"
done
# Table I whole (fifteen columns): one tabular across both columns of IEEEtran (table*); in the one-column
# article too wide even in \scriptsize, so TeX sets it as two tabulars, the screening over the units, each with
# the sources (read from the PDFs' text: the head rows and the total rows).
ieee_text=$(pdftotext -layout "$tmp/pdf/ieee-fw-corpus.pdf" -)
article_text=$(pdftotext -layout "$tmp/pdf/article-fw-corpus.pdf" -)
grep -qE '^ *Source +Stored +window +Retrieved +Screened +out +Kept +rate +Units +2023 +2024 +2025' <<<"$ieee_text" ||
  fail "IEEEtran: Table I is not one tabular: $ieee_text"
[[ $(grep -cE '^ *Total ' <<<"$ieee_text") == 1 ]] || fail "IEEEtran: Table I total rows: $ieee_text"
grep -qE '^ *Source +Stored +window +Retrieved +Screened +out +Kept +rate *$' <<<"$article_text" &&
  grep -qE '^ *Source +Units +2023 +2024 +2025 ' <<<"$article_text" &&
  grep -qE '^ *Total +120 +120 +57 +1 +1 +56 +0\.018 *$' <<<"$article_text" &&
  grep -qE '^ *Total +12 +' <<<"$article_text" || fail "article: Table I is not set as screening over units: $article_text"
# Quotes are cited by participant and line.
grep -qE "\(U?[A-Za-z0-9]+, line [0-9]+\)" "$tmp/bundled/latex/codebook-appendix.tex" || fail "codebook-appendix: quotes not cited by line"
! grep -q 'transcripts\\slash{}' "$tmp/bundled/latex/codebook-appendix.tex" || fail "codebook-appendix: a path in a citation"
echo "latex_paper: $files tables compiled in IEEEtran and article: ok"
