#!/usr/bin/env bash
# The captions of the LaTeX tables (docs/latex.md, Captions), as a paper prints them: a ranking table names its
# question by id and words (the first role's words when the roles were asked in their own, cut at a word to at
# most 80 characters with "…"), a comparison names its groups once (an experience comparison's title says them
# already), an undefined number is an em dash (---, never "n/a"), "<=" and ">=" are $\le$ and $\ge$, and a range
# of numbers has an en dash (14--15). Checked on every .tex of the bundled study, the fieldwork study (III.R
# worded per role; then with a long question that has a range and a "<=") and the rank-model study, and on
# `rank --format latex`. No pdflatex needed (tests/cli/latex.sh compiles the tables).
set -euo pipefail
: "${QUALRANK:?}" "${SOURCE_DIR:?}" "${FIXTURES:?}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# caption FILE: the caption of the table in FILE (one line, as written).
caption() { sed -n 's/^\\caption{\(.*\)}\\label{tab:[^}]*}\(\\\\\)\{0,1\}$/\1/p' "$1"; }

# typography DIR...: every .tex in DIR has no "n/a" anywhere, no "<=" or ">=" (nor their escaped forms), no
# "(worded per role)"; its caption (and note) no digit-hyphen-digit outside a date, and no "X vs Y" twice.
typography() {
  python3 - "$@" <<'PY'
import glob, os, re, sys
n = 0
for d in sys.argv[1:]:
    files = sorted(glob.glob(os.path.join(d, "*.tex")))
    assert files, d
    for f in files:
        t = open(f, encoding="utf-8").read()
        for bad in ("n/a", "<=", ">=", "\\textless{}=", "\\textgreater{}=", "worded per role"):
            assert bad not in t, (f, bad, [l for l in t.splitlines() if bad in l][:2])
        caps = re.findall(r"^\\caption\{(.*)\}\\label\{tab:[^}]*\}(?:\\\\)?$", t, re.M)
        assert len(caps) == t.count("\\caption{"), (f, "caption not found")
        # the notes: the paragraph under a table
        notes = re.findall(r"^\\parbox\{\\linewidth\}\{(.*)\}$", t, re.M)
        for c in caps + notes:
            undated = re.sub(r"\b\d{4}-\d{2}(-\d{2})?\b", "DATE", c)
            assert not re.search(r"\d-\d", undated), (f, "a range with a hyphen", c)
            vs = re.findall(r"([\w\\{}-]+) vs ([\w\\{}-]+)", c)
            pairs = [tuple(sorted(p)) for p in vs]
            assert len(pairs) == len(set(pairs)), (f, "a comparison named twice", c)
            n += 1
print(n)
PY
}

# 1. The bundled study.
"$QUALRANK" -C "$SOURCE_DIR" -q report -o "$tmp/bundled" || fail "report on the bundled study"
n=$(typography "$tmp/bundled/latex") || fail "bundled study"
[[ $n -ge 40 ]] || fail "only $n captions on the bundled study"
# Its II.R is worded per role: the first role's words, whole (76 characters).
want="By role, II.R: Which three of these question themes matter most to you? Put them in order. Mean rank per group (1 = highest priority) and Kendall's \$W\$ ("
[[ "$(caption "$tmp/bundled/latex/rank-ii-r-means.tex")" == "$want"* ]] || fail "II.R means: $(caption "$tmp/bundled/latex/rank-ii-r-means.tex")"
want="By role, user vs developer (\$n\$ = 11 and 8), II.R: Which three of these question themes matter most to you? Put them in order. Spearman's \$\\rho\$ = "
[[ "$(caption "$tmp/bundled/latex/rank-ii-r-user-vs-developer.tex")" == "$want"* ]] || fail "II.R gaps: $(caption "$tmp/bundled/latex/rank-ii-r-user-vs-developer.tex")"
# An experience comparison names its groups once, in its title.
want="user: beginner vs advanced (\$n\$ = 5 and 2), II.R: Which three of these question themes matter most to you? Put them in order. Spearman's"
[[ "$(caption "$tmp/bundled/latex/rank-user-experience-ii-r-beginner-vs-advanced.tex")" == "$want"* ]] ||
  fail "experience gaps: $(caption "$tmp/bundled/latex/rank-user-experience-ii-r-beginner-vs-advanced.tex")"
want="user: beginner vs advanced, II.R: Which three of these question themes matter most to you? Put them in order. Plackett--Luce item differences on the centred log-worth \$c\$ (the log-worth minus its mean over the items: the log of the worth over the geometric mean of the group's worths), that of advanced minus that of beginner: positive when"
[[ "$(caption "$tmp/bundled/latex/rank-user-experience-ii-r-worths-advanced-vs-beginner.tex")" == "$want"* ]] ||
  fail "experience differences: $(caption "$tmp/bundled/latex/rank-user-experience-ii-r-worths-advanced-vs-beginner.tex")"
# The saturation statement: its "<=" and its range of interviews as in print.
grep -qF 'new information $\le$ 5\%)' "$tmp/bundled/latex/saturation.tex" || fail "saturation: $(caption "$tmp/bundled/latex/saturation.tex")"
grep -qE 'interviews [0-9]+--[0-9]+ added' "$tmp/bundled/latex/saturation.tex" || fail "saturation range: $(caption "$tmp/bundled/latex/saturation.tex")"

# 2. The fieldwork study: III.R worded per role (manager first), the exact caption of its table of means.
fw="$tmp/fw"; cp -r "$FIXTURES/fieldwork" "$fw"
"$QUALRANK" -C "$fw" -q report -o "$fw/out" || fail "report on fieldwork"
typography "$fw/out/latex" >/dev/null || fail "fieldwork"
want="By role, III.R: Rank these tool themes by importance for your team. Mean rank per group (1 = highest priority) and Kendall's \$W\$ (manager \$p\$ = 0.223; employee \$p\$ = 1.000; contractor \$p\$ = 1.000)."
[[ "$(caption "$fw/out/latex/rank-iii-r-means.tex")" == "$want" ]] || fail "fieldwork III.R means: $(caption "$fw/out/latex/rank-iii-r-means.tex")"
# One role's experience comparison: the words that role was asked in; a W of groups of one is undefined (---).
want="employee: junior vs senior, III.R: Which two tool themes matter most to you? Mean rank per group (1 = highest priority) and Kendall's \$W\$ (junior \$p\$ = ---; senior \$p\$ = ---)."
[[ "$(caption "$fw/out/latex/rank-employee-experience-iii-r-means.tex")" == "$want" ]] ||
  fail "fieldwork employee experience: $(caption "$fw/out/latex/rank-employee-experience-iii-r-means.tex")"
grep -qF 'Spearman'"'"'s $\rho$ = --- ($p$ = ---)' "$fw/out/latex/rank-iii-r-manager-vs-employee.tex" ||
  fail "undefined rho: $(caption "$fw/out/latex/rank-iii-r-manager-vs-employee.tex")"

# A long question with a range and a "<=": cut at a word to 80 characters with "…", set as in print.
long='Rank these 3-5 tool themes, from those you use daily to those you use <= once a week, by how much friction they cause your team.'
python3 - "$fw/guidelines/remote-work-interview.yaml" "$long" <<'PY'
import sys
p, long = sys.argv[1:3]
s = open(p).read()
old = "          manager: Rank these tool themes by importance for your team.\n"
assert old in s
open(p, "w").write(s.replace(old, "          manager: \"" + long + "\"\n"))
PY
"$QUALRANK" -C "$fw" -q report -o "$fw/long" || fail "report with the long question"
typography "$fw/long/latex" >/dev/null || fail "fieldwork, long question"
want="By role, III.R: Rank these 3--5 tool themes, from those you use daily to those you use \$\\le\$ once a… Mean rank per group"
[[ "$(caption "$fw/long/latex/rank-iii-r-means.tex")" == "$want"* ]] || fail "long question: $(caption "$fw/long/latex/rank-iii-r-means.tex")"
"$QUALRANK" -C "$fw" rank --resamples 200 --format latex >"$tmp/rank.tex" || fail "rank --format latex"
mkdir -p "$tmp/cli"; cp "$tmp/rank.tex" "$tmp/cli/"
typography "$tmp/cli" >/dev/null || fail "rank --format latex"
grep -qF "\\caption{$want" "$tmp/rank.tex" || fail "rank --format latex: $(grep -F '\caption{' "$tmp/rank.tex" | head -1)"

# 3. The rank-model study.
"$QUALRANK" -C "$FIXTURES/rank-model" -q report -o "$tmp/rm" || fail "report on rank-model"
typography "$tmp/rm/latex" >/dev/null || fail "rank-model"
echo "latex captions: ok ($n captions of the bundled study, and the fixtures')"
