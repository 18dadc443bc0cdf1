#!/usr/bin/env bash
# LaTeX tables (docs/latex.md): `qualrank report` writes reports/latex/*.tex on the bundled study, on the
# fieldwork study (three roles, findings, two coders; a node named "Zoë_Ångström & co. 100% {x}", another with
# every LaTeX special character, the T1 ligatures, Greek, an emoji and a CJK letter) and on the
# rank-model study (rankings of two roles). Every file compiles inside a minimal article with pdflatex; the PDF's
# text (pdftotext) shows report.json's numbers as the other renderers round them (mean ranks, W, rho, tau,
# gaps, Cliff's delta, worths, kappa, alpha, counts, saturation); byte-identical across runs; `rank`,
# `agreement` (with the corpus table) and `saturation` print the same tables with --format latex; the snippet of
# docs/latex.md compiles; a table a later run no longer writes is removed (a file of the user's is kept); a latex/
# path that cannot be a folder fails the report before report.json is written.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/grep_q.sh"  # grep_q
: "${QUALRANK:?}" "${SOURCE_DIR:?}" "${FIXTURES:?}"
if ! command -v pdflatex >/dev/null || ! command -v pdftotext >/dev/null; then
  echo "SKIP: pdflatex or pdftotext is not installed (make deps-test installs them)"; exit 77
fi
if ! kpsewhich lmodern.sty >/dev/null; then echo "SKIP: lmodern.sty is not installed (lmodern; make deps-test)"; exit 77; fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
export HOME="$tmp"  # TeX's caches (mktexpk) stay in the temp folder

# compile_each DIR: each DIR/*.tex alone in an article, DIR/pdf/NAME.pdf and DIR/pdf/NAME.txt (pdftotext -layout).
# wider DIR: the tables of DIR/pdf that pdflatex found wider than the line, "NAME: N.NNpt" each (the widths of
# the wrapped columns are computed by TeX so that every table fits, in \small or \footnotesize if need be).
wider() {
  local log
  for log in "$1"/pdf/*.log; do
    sed -n 's/^Overfull \\hbox (\([0-9.]*pt\) too wide) in alignment.*/\1/p' "$log" | sort -rn | head -1 |
      sed "s|^|$(basename "$log" .log): |"
  done
}
compile_each() {
  local dir=$1 f b
  mkdir -p "$dir/pdf"
  for f in "$dir"/*.tex; do
    b=$(basename "$f" .tex)
    printf '\\documentclass{article}\n%s\n\\begin{document}\n\\input{%s}\n\\end{document}\n' "$preamble" "$f" >"$dir/pdf/$b-doc.tex"
    (cd "$dir/pdf" && pdflatex -halt-on-error -interaction=nonstopmode -jobname="$b" "$b-doc.tex" >"$b.out" 2>&1) ||
      fail "pdflatex $f: $(grep -A4 '^!' "$dir/pdf/$b.log" | head -8)"
    pdftotext -layout "$dir/pdf/$b.pdf" "$dir/pdf/$b.txt"
  done
}

# check REPORT_DIR: every table's numbers against report.json (a second reading of report.json, in Python).
check() {
  python3 - "$1" <<'PY'
import glob, json, os, re, sys
out = sys.argv[1]
report = json.load(open(os.path.join(out, "report.json")))
tex = os.path.join(out, "latex")
def slug(s):
    s = re.sub(r"[^a-z0-9]+", "-", s.lower()).strip("-")
    return s or "item"
def fixed(v, d):
    if not isinstance(v, (int, float)) or v is None: return "\u2014"  # undefined: an em dash (---)
    s = "%.*f" % (d, v)
    return s[1:] if s.startswith("-") and set(s[1:]) <= set("0.") else s
def pval(v):
    if not isinstance(v, (int, float)): return "\u2014"
    return "< 0.001" if v < 0.001 else fixed(v, 3)
def text(name):
    """The PDF's text of table `name`: of its whole version when it has one (NAME-appendix: the float holds the first rows)."""
    whole = os.path.join(tex, "pdf", name + "-appendix.txt")
    t = open(whole if os.path.exists(whole) else os.path.join(tex, "pdf", name + ".txt"), encoding="utf-8").read()
    return t.replace("\u2212", "-").replace("\u2019", "'").replace("<0.001", "< 0.001")
checked = {"numbers": 0}
def row(name, start, values, what):
    """The line of table `name` that opens with `start` holds `values` in this order."""
    lines = [l.strip() for l in text(name).splitlines()]
    cands = [l for l in lines if l.startswith(start)]
    assert cands, (name, what, start, "no line")
    for l in cands:
        rest, ok = l[len(start):], True
        for v in values:
            m = re.search(r"(?<![\w.])" + re.escape(v) + r"(?![\w.])", rest)
            if not m: ok = False; break
            rest = rest[m.end():]
        if ok:
            checked["numbers"] += len(values)
            return
    raise AssertionError((name, what, start, values, cands))
files = sorted(os.path.basename(f)[:-4] for f in glob.glob(os.path.join(tex, "*.tex")))
assert files == sorted(os.path.basename(f)[:-4] for f in report["files"] if f.startswith("latex/")), "report.json's files"
def rankings(j, prefix):
    for q in j["questions"]:
        if not q["groups"]: continue
        stem = prefix + "-" + slug(q["question"])
        groups = list(q["groups"])
        for item in q["items"]:
            row(stem + "-means", item + " ", [fixed(q["groups"][g]["mean_rank"][item], 2) for g in groups], "mean rank")
        row(stem + "-means", "Kendall's W", [fixed(q["groups"][g]["kendall_w"], 2) for g in groups], "W")
        for c in q["comparisons"]:
            a, b = c["groups"]
            name = stem + "-" + slug(a) + "-vs-" + slug(b)
            flat = re.sub(r"([a-z])- ([a-z])", r"\1\2", " ".join(text(name).split()))  # words hyphenated at a line's end
            assert "Spearman's ρ = " + fixed(c["spearman_rho"], 2) in flat, (name, "rho")
            assert "Kendall's τb = " + fixed(c["kendall_tau_b"], 2) in flat or "Kendall's τ b = " + fixed(c["kendall_tau_b"], 2) in flat, (name, "tau")
            ci = c["bootstrap_ci"]["spearman_rho"]
            if isinstance(ci[0], (int, float)):
                assert "CI [%s, %s]" % (fixed(ci[0], 2), fixed(ci[1], 2)) in flat, (name, "CI", flat)
            checked["numbers"] += 2
            for g in c["gaps"]:
                row(name, g["item"] + " ", [fixed(g["mean_rank"][a], 2), fixed(g["mean_rank"][b], 2), fixed(g["gap"], 2),
                    fixed(g["mann_whitney_u"], 1), pval(g["p"]), pval(g["p_holm"]), fixed(g["cliffs_delta"], 2)], "gap")
        m = q.get("model")
        if m:
            for item in q["items"]:
                row(stem + "-worths", item + " ", [fixed(m["overall"]["items"][item]["worth"], 3)] +
                    [fixed(m["groups"][g]["items"][item]["worth"], 3) for g in m["groups"]], "worth")
            for pair in m["pairs"]:
                a, b = pair["groups"]
                for d in pair["item_differences"]:
                    row(stem + "-worths-" + slug(b) + "-vs-" + slug(a), d["item"] + " ",
                        [fixed(d["centred_log_worth"][a], 2), fixed(d["centred_log_worth"][b], 2), fixed(d["difference"], 2),
                         fixed(d["se"], 2), pval(d["p"]), pval(d["p_holm"])], "difference")
rankings(report["rankings"], "rank")
for e in report["experience_comparisons"]:
    rankings(e, "rank-" + slug(e["role"]) + "-" + slug(e["by"]))
m = report["methods"]
for r in m["participants"]["rows"]:
    row("participants", r["participant"] + " ", [r["role"]], "participant")
for r in m["guide_matrix"]["rows"]:
    row("guide-codes", r["question"] + " ", [str(r["segments"])] + [str(c) for c in r["counts"]], "guide")
for n in m["codebook"]:
    row("codebook", n["id"] + " ", [str(n["segments"])], "codebook")
def in_order(words, within):
    """`words` appear in `within` in this order (the columns of a table interleave their lines)."""
    i = 0
    for w in within:
        if i < len(words) and w == words[i]: i += 1
    return i == len(words)
if m["findings"]:
    flat = text("evidence").split()
    for f in m["findings"]:
        assert in_order(("%s: %s" % (f["id"], f["claim"])).split(), flat), (f["id"], flat)
        assert in_order([f["support"]["nodes"][-1] + ":", str(f["support"]["segments"]), "coded", "segments"], flat), (f["id"], "segments")
        checked["numbers"] += 1
ag = report["agreement"]
if ag:
    for key, name in (("labels", "Label tables"), ("transcripts", "Transcript codings")):
        a = ag.get(key)
        if a:
            row("agreement", name, [str(a["units"]), str(len(a["coders"])), fixed(a["fleiss_kappa"], 3), fixed(a["krippendorff_alpha"], 3),
                fixed(a["percent_agreement"], 3), fixed(a["all_agree" if key == "labels" else "exact_agreement"], 3)], "pooled")
    if ag.get("transcripts") and ag["transcripts"].get("per_node"):
        for node, v in ag["transcripts"]["per_node"].items():
            row("agreement-nodes", node + " ", [str(v["units_coded"]), fixed(v["positive_agreement"], 3), fixed(v["fleiss_kappa"], 3),
                fixed(v["krippendorff_alpha"], 3), fixed(v["percent_agreement"], 3)], "per node")
    for r in ag.get("rounds") or []:
        row("agreement-rounds", r["round"].split()[0], [str(len(r["transcripts"])), str(r["units"]), str(len(r["coders"])), fixed(r["fleiss_kappa"], 3),
            fixed(r["krippendorff_alpha"], 3), fixed(r["percent_agreement"], 3)], "round")
sat = report["saturation"]
for i in sat["all"]["interviews"]:
    row("saturation", str(i["number"]) + " ", [i["participant"], i["role"], str(i["codes"]), str(i["new_codes"]), str(i["cumulative"])], "curve")
for role, v in sat["roles"].items():
    row("saturation-roles", role + " ", [str(len(v["interviews"])), str(v["base_codes"])], "role")
print(checked["numbers"])
PY
}

# 1. The bundled study.
"$QUALRANK" -C "$SOURCE_DIR" -q report -o "$tmp/bundled" || fail "report on the bundled study"
# The preamble every file names in its opening comment; docs/latex.md names the same lines.
preamble=$(sed -n 's|^%   \(\\usepackage.*\)$|\1|p' "$tmp/bundled/latex/participants.tex")
[[ $(wc -l <<<"$preamble") == 6 ]] || fail "preamble: $preamble"
while read -r line; do grep -qxF "$line" "$SOURCE_DIR/docs/latex.md" || fail "docs/latex.md does not name $line"; done <<<"$preamble"
"$QUALRANK" -C "$SOURCE_DIR" -q report -o "$tmp/bundled2" || fail "report again"
diff -r "$tmp/bundled/latex" "$tmp/bundled2/latex" >/dev/null || fail "latex/ differs between runs"
[[ $(ls "$tmp/bundled/latex" | wc -l) -ge 30 ]] || fail "bundled: $(ls "$tmp/bundled/latex")"
compile_each "$tmp/bundled/latex"
n=$(check "$tmp/bundled") || fail "bundled study's numbers"
echo "bundled study: $n numbers and names checked in the PDFs"
[[ $n -ge 800 ]] || fail "only $n numbers checked on the bundled study"
grep -L '\\label{tab:' "$tmp/bundled/latex"/*.tex | grep_q . && fail "a table without a label"
grep -l '\\hline\|\\vline\|{[^}]*|[^}]*}' "$tmp/bundled/latex"/*.tex | grep_q . && fail "a vertical line or \\hline"
[[ $(grep -ho '\\label{tab:[^}]*}' "$tmp/bundled/latex"/*.tex | sort | uniq -d) == "" ]] || fail "a label used twice"
grep -q '^\\begin{longtable}' "$tmp/bundled/latex/codebook-appendix.tex" || fail "the whole codebook is not a longtable"
grep -q '^\\begin{table}' "$tmp/bundled/latex/codebook.tex" || fail "the codebook of the paper's body is not a float"
# Every table fits the line. The participants table was 85pt wider, in the normal size, with words running into
# the next column, then 33.5pt in \footnotesize (four columns of lists of tools and models): those lists share
# one column now, each after its attribute's label.
[[ -z $(wider "$tmp/bundled/latex") ]] || fail "tables wider than the line: $(wider "$tmp/bundled/latex")"
grep -qF '\ifdim\dimen8>\linewidth \small\qualrankwidths\ifdim\dimen8>\linewidth \footnotesize\tabcolsep=2pt\qualrankwidths\ifdim\dimen8>\linewidth \scriptsize\tabcolsep=1.5pt\qualrankwidths\fi\fi\fi' \
  "$tmp/bundled/latex/participants.tex" || fail "participants: no smaller font to fall back on"
grep -q 'Table [0-9]*, continued' "$tmp/bundled/latex/pdf/codebook-appendix.txt" || fail "the codebook does not break across pages"

# 2. The fieldwork study: findings, a node name with every special character, a second coder.
fw="$tmp/fw"; cp -r "$FIXTURES/fieldwork" "$fw"; cp "$FIXTURES/findings/findings.yaml" "$fw/"
name='Zoë_Ångström & co. 100% {x}'
# COM.3's name: every character LaTeX reads as markup, the T1 ligatures, Greek, and what pdflatex cannot set.
hard='a--b $1 #2 ~3 ^4 \\5 <6> |7| "8" [9] ``q'"''"' ,,r !`s κ≤2 − 😀 李'
python3 - "$fw/codebooks/remote-work.yaml" "$name" "$hard" <<'PY'
import json, re, sys
p, name, hard = sys.argv[1:4]
s = open(p).read()
for node, text in (("COM.1", name), ("COM.3", hard)):
    s2 = re.sub(r"(- id: " + re.escape(node) + r"\n\s+name: ).*", lambda m: m.group(1) + json.dumps(text, ensure_ascii=False), s, count=1)
    assert s2 != s, node + " has no name line"
    s = s2
open(p, "w").write(s)
PY
"$QUALRANK" -C "$fw" -q report -o "$fw/reports" || fail "report on fieldwork"
"$QUALRANK" -C "$fw" -q report -o "$fw/reports2" || fail "report on fieldwork again"
diff -r "$fw/reports/latex" "$fw/reports2/latex" >/dev/null || fail "fieldwork: latex/ differs between runs"
for f in participants guide-codes codebook evidence agreement agreement-nodes agreement-rounds saturation saturation-roles rank-iii-r-means \
         rank-iii-r-manager-vs-employee rank-iii-r-worths; do
  [[ -f "$fw/reports/latex/$f.tex" ]] || fail "fieldwork: no $f.tex ($(ls "$fw/reports/latex"))"
done
grep -qF 'COM.1 Zoë\_Ångström \& co. 100\% \{x\}' "$fw/reports/latex/codebook.tex" || grep_q -F 'Zoë\_Ångström \& co. 100\% \{x\}' "$fw/reports/latex/codebook.tex" ||
  fail "the name is not escaped once: $(grep -F 'Zo' "$fw/reports/latex/codebook.tex" | head -3)"
compile_each "$fw/reports/latex"
[[ -z $(wider "$fw/reports/latex") ]] || fail "tables wider than the line: $(wider "$fw/reports/latex")"
n=$(check "$fw/reports") || fail "fieldwork numbers"
[[ $n -ge 100 ]] || fail "only $n numbers checked on fieldwork"
# The two names, wrapped in their column: the column's lines joined, as the PDF's text shows them (TeX's quotes
# are typographic: `` prints as two left quotes).
python3 - "$fw/reports/latex/pdf/codebook-appendix.txt" "$fw/reports/report.json" "$name" <<'PY' || fail "the PDF does not show the names: $(grep -F -A3 'COM.' "$fw/reports/latex/pdf/codebook-appendix.txt" | head -30)"
import json, sys
lines = open(sys.argv[1], encoding="utf-8").read().splitlines()
book = {n["id"]: n for n in json.load(open(sys.argv[2]))["methods"]["codebook"]}
def cell(node):
    """The Name column of `node`'s row: from the name's start to the definition's, down to the next row."""
    at = next(i for i, l in enumerate(lines) if l.startswith(node + " "))
    col = len(node) + len(lines[at][len(node):]) - len(lines[at][len(node):].lstrip())
    end = lines[at].index(book[node]["definition"].split()[0], col)
    out = [lines[at][col:end].strip()]
    for l in lines[at + 1:]:
        if l[:col].strip(): break  # the next row
        out.append(l[col:end].strip())
    return " ".join(w for w in out if w)
got = cell("COM.1")
assert got == sys.argv[3], got
got = cell("COM.3")
want = 'a--b $1 #2 ~3 ^4 \\\\5 <6> |7| "8" [9] \u2018\u2018q\u2019\u2019 ,,r !\u2018s \u03ba\u22642 \u2212 [U+1F600] [U+674E]'
assert got == want, (got, want)
PY
# The hard name, escaped once.
grep -qF 'COM.3 & a-{}-b \$1 \#2 \textasciitilde{}3 \textasciicircum{}4 \textbackslash{}\textbackslash{}5 \textless{}6\textgreater{} \textbar{}7\textbar{} \textquotedbl{}8\textquotedbl{} {[}9{]} `{}`q'"'{}'"' ,{},r !{}`s \ensuremath{\kappa}\ensuremath{\leq}2 \ensuremath{-} {[}U+1F600{]} {[}U+674E{]} & ' \
  "$fw/reports/latex/codebook.tex" || fail "COM.3: $(grep -F 'COM.3 &' "$fw/reports/latex/codebook.tex")"
grep -qF '\textbf{F1}: Written updates replace meetings, but leave some people feeling unheard. & COM.1, WELL.1: 11 coded segments' "$fw/reports/latex/evidence.tex" ||
  fail "evidence: $(grep -F F1 "$fw/reports/latex/evidence.tex")"
# Without findings.yaml a later run writes no evidence.tex and removes the old one (its numbers are gone), but
# keeps a file of the user's own.
printf '%% my table\n\\begin{tabular}{l}x\\end{tabular}\n' >"$fw/reports/latex/mine.tex"
rm "$fw/findings.yaml"
"$QUALRANK" -C "$fw" -q report -o "$fw/reports" || fail "report on fieldwork without findings"
[[ ! -e "$fw/reports/latex/evidence.tex" && ! -e "$fw/reports/latex/evidence-appendix.tex" ]] || fail "a stale evidence.tex stayed"
[[ -f "$fw/reports/latex/mine.tex" ]] || fail "the user's own mine.tex was removed"
cmp -s "$fw/reports/latex/agreement.tex" "$fw/reports2/latex/agreement.tex" || fail "agreement.tex changed without findings"
jq -e '.files | index("latex/evidence.tex") == null and index("latex/evidence-appendix.tex") == null and index("latex/codebook.tex") != null' "$fw/reports/report.json" >/dev/null ||
  fail "report.json's files: $(jq -c .files "$fw/reports/report.json")"

# 3. The rank-model study: two roles, one comparison, the Plackett-Luce worths.
"$QUALRANK" -C "$FIXTURES/rank-model" -q report -o "$tmp/rm" || fail "report on rank-model"
compile_each "$tmp/rm/latex"
[[ -z $(wider "$tmp/rm/latex") ]] || fail "tables wider than the line: $(wider "$tmp/rm/latex")"
n=$(check "$tmp/rm") || fail "rank-model numbers"
[[ $n -ge 60 ]] || fail "only $n numbers checked on rank-model"
[[ -f "$tmp/rm/latex/rank-p-r-nurse-vs-carer.tex" ]] || fail "rank-model: $(ls "$tmp/rm/latex")"

# 4. --format latex: the same tables as report's (rank by role, with report's resamples and seed).
"$QUALRANK" -C "$FIXTURES/rank-model" rank --model plackett-luce --format latex >"$tmp/rank.tex" || fail "rank --format latex"
python3 - "$tmp/rank.tex" "$tmp/rm/latex"/rank-*.tex <<'PY' || fail "rank --format latex is not report's tables"
import sys
printed = open(sys.argv[1], encoding="utf-8").read()
files = sys.argv[2:]
assert len(files) == 4 and printed.count("\\label{tab:") == len(files), (files, printed.count("\\label{tab:"))
for f in files:
    body = "".join(l for l in open(f, encoding="utf-8") if not l.startswith("%"))
    assert body in printed, f
PY
"$QUALRANK" -C "$fw" saturation --format latex >"$tmp/sat.tex" || fail "saturation --format latex"
"$QUALRANK" -C "$fw" saturation --format json >"$tmp/sat.json"
"$QUALRANK" -C "$fw" agreement --transcripts --resamples 0 --format latex >"$tmp/agr.tex" || fail "agreement --format latex"
# The corpus table of a label-table study (hand-counted, as tests/cli/corpus_table.sh).
ct="$tmp/corpus"; cp -r "$FIXTURES/fieldwork" "$ct"; mkdir -p "$ct/lists"
printf 'unit,coder_a,coder_b,final\nf1,COM.1,COM.1,COM.1\nf2,COM.2,TOOL.1,COM.2\nf3,TOOL.2,TOOL.2,TOOL.2\nf4,WELL.1,WELL.1,WELL.1\n' >"$ct/forum.csv"
printf 'unit,coder_a,coder_b,final\nt1,TOOL.1,TOOL.1,TOOL.1\nt2,TOOL.3,TOOL.3,TOOL.3\nt3,COM.3,COM.3,COM.3\n' >"$ct/tickets.csv"
printf 'f1\nf2\n' >"$ct/lists/forum_2024-H1.txt"; printf 'f3\nf4\n' >"$ct/lists/forum_2024-H2.txt"
printf 't1\n' >"$ct/lists/tickets_2024-H1.txt"; printf 't2\nt3\n' >"$ct/lists/tickets_2024-H2.txt"
"$QUALRANK" -C "$ct" -q agreement --labels "$ct/forum.csv" "$ct/tickets.csv" --resamples 0 --periods "$ct"/lists/*.txt --format latex \
  >"$tmp/corpus.tex" || fail "agreement --periods --format latex"
grep -qF '\label{tab:corpus}' "$tmp/corpus.tex" || fail "no corpus table: $(cat "$tmp/corpus.tex")"
grep -qxF 'forum & 4 & 2 & 2 & 2 & 1 & 1 \\' "$tmp/corpus.tex" || fail "corpus row forum: $(grep forum "$tmp/corpus.tex")"
grep -qxF 'tickets & 3 & 1 & 2 & 1 & 2 & 0 \\' "$tmp/corpus.tex" || fail "corpus row tickets"
grep -qxF 'Total & 7 & 3 & 4 & 3 & 3 & 1 \\' "$tmp/corpus.tex" || fail "corpus total"
mkdir -p "$tmp/cli"; cp "$tmp/rank.tex" "$tmp/sat.tex" "$tmp/agr.tex" "$tmp/corpus.tex" "$tmp/cli/"
compile_each "$tmp/cli"
[[ -z $(wider "$tmp/cli") ]] || fail "tables wider than the line: $(wider "$tmp/cli")"
python3 - "$tmp/sat.json" "$tmp/cli/pdf/sat.txt" <<'PY' || fail "saturation --format latex numbers"
import json, sys
j = json.load(open(sys.argv[1])); t = open(sys.argv[2]).read()
lines = [" ".join(l.split()) for l in t.splitlines()]
for i in j["all"]["interviews"]:
    want = "%d %s %s %d %d %d" % (i["number"], i["participant"], i["role"], i["codes"], i["new_codes"], i["cumulative"])
    assert want in lines, (want, lines)
PY
grep -q '^Transcript codings' "$tmp/cli/pdf/agr.txt" || fail "agreement --format latex: $(cat "$tmp/cli/pdf/agr.txt")"
"$QUALRANK" -C "$fw" rank --format latx >/dev/null 2>"$tmp/bad.err" && fail "--format latx accepted"
grep -qxF "qualrank rank: error: unknown format 'latx' (json, md, table or latex)" "$tmp/bad.err" || fail "bad format: $(cat "$tmp/bad.err")"

# 5. The snippet of docs/latex.md compiles with the bundled study's tables.
mkdir -p "$tmp/paper"; ln -s "$tmp/bundled" "$tmp/paper/reports"
sed -n '/^```latex$/,/^```$/p' "$SOURCE_DIR/docs/latex.md" | sed '1d;$d' >"$tmp/paper/paper.tex"
grep -q '\\input{reports/latex/' "$tmp/paper/paper.tex" || fail "the docs snippet inputs no table"
(cd "$tmp/paper" && pdflatex -halt-on-error -interaction=nonstopmode paper.tex >paper.out 2>&1) || fail "docs snippet: $(grep -A4 '^!' "$tmp/paper/paper.log")"

# 6. latex/ cannot be a folder (a file is in the way): the report fails, located, before report.json is written.
mkdir -p "$tmp/blocked"; : >"$tmp/blocked/latex"
if "$QUALRANK" -C "$FIXTURES/rank-model" -q report -o "$tmp/blocked" 2>"$tmp/blocked.err"; then fail "report wrote through a file named latex"; fi
grep -q "^$tmp/blocked/latex/participants.tex: error: cannot write: " "$tmp/blocked.err" || fail "blocked: $(cat "$tmp/blocked.err")"
[[ ! -e "$tmp/blocked/report.json" && ! -e "$tmp/blocked/methods.md" ]] || fail "the blocked report wrote report.json or methods.md"
echo "latex: ok"
