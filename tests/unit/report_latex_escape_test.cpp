#include "catch.h"

#include "qualrank/report/latex/latex_escape.h"
#include "qualrank/report/latex/latex_tables.h"

using namespace qualrank;
using Json = nlohmann::ordered_json;

TEST_CASE("latex::escape escapes each special character of LaTeX once", "[report][latex]") {
  CHECK(latex::escape("&") == "\\&");
  CHECK(latex::escape("%") == "\\%");
  CHECK(latex::escape("$") == "\\$");
  CHECK(latex::escape("#") == "\\#");
  CHECK(latex::escape("_") == "\\_");
  CHECK(latex::escape("{") == "\\{");
  CHECK(latex::escape("}") == "\\}");
  CHECK(latex::escape("~") == "\\textasciitilde{}");
  CHECK(latex::escape("^") == "\\textasciicircum{}");
  CHECK(latex::escape("\\") == "\\textbackslash{}");
  CHECK(latex::escape("<") == "\\textless{}");
  CHECK(latex::escape(">") == "\\textgreater{}");
  CHECK(latex::escape("|") == "\\textbar{}");
  CHECK(latex::escape("\"") == "\\textquotedbl{}");
  CHECK(latex::escape("[x]") == "{[}x{]}");
  CHECK(latex::escape("a/b") == "a\\slash{}b");
  // Once: the backslash and braces an escape writes are not escaped again.
  CHECK(latex::escape("\\{}") == "\\textbackslash{}\\{\\}");
  CHECK(latex::escape("a\\b_c") == "a\\textbackslash{}b\\_c");
  CHECK(latex::escape("plain text, 1.5 (ok): yes!") == "plain text, 1.5 (ok): yes!");
  CHECK(latex::escape("") == "");
}

TEST_CASE("latex::escape keeps a name with accents in UTF-8 and escapes its specials", "[report][latex]") {
  CHECK(latex::escape("Zoë_Ångström & co. 100% {x}") == "Zoë\\_Ångström \\& co. 100\\% \\{x\\}");
  CHECK(latex::escape("Łódź, Øresund, Œuvre, ß, Ğ") == "Łódź, Øresund, Œuvre, ß, Ğ");
  CHECK(latex::escape("“quoted” – — … ’ € ×") == "“quoted” – — … ’ € ×");
}

TEST_CASE("latex::escape breaks the T1 ligatures and blanks control characters", "[report][latex]") {
  CHECK(latex::escape("a--b") == "a-{}-b");
  CHECK(latex::escape("a---b") == "a-{}-{}-b");
  CHECK(latex::escape("``x''") == "`{}`x'{}'");
  CHECK(latex::escape(",,x") == ",{},x");
  CHECK(latex::escape("!`") == "!{}`");
  CHECK(latex::escape("?`") == "?{}`");
  CHECK(latex::escape("one\ntwo\tthree\rfour") == "one two three four");
  CHECK(latex::escape(std::string("a\0b", 3)) == "a b");
}

TEST_CASE("latex::escape writes Greek as math and other characters as their code point", "[report][latex]") {
  CHECK(latex::escape("κ α ρ") == "\\ensuremath{\\kappa} \\ensuremath{\\alpha} \\ensuremath{\\rho}");
  CHECK(latex::escape("ΔΑ") == "\\ensuremath{\\Delta}\\ensuremath{\\mathrm{A}}");
  CHECK(latex::escape("−1 ≤ 2 ≥ 0 ≠ 3") == "\\ensuremath{-}1 \\ensuremath{\\leq} 2 \\ensuremath{\\geq} 0 \\ensuremath{\\neq} 3");
  CHECK(latex::escape("⚑ flag") == "{[}U+2691{]} flag");
  CHECK(latex::escape("😀") == "{[}U+1F600{]}");
  CHECK(latex::escape("李") == "{[}U+674E{]}");
  // Bytes that are not UTF-8: one replacement each, the rest kept.
  CHECK(latex::escape("a\xff" "b") == "a{[}U+FFFD{]}b");
  CHECK(latex::escape("\xc3") == "{[}U+FFFD{]}");
  CHECK(latex::escape("\xe2\x82") == "{[}U+FFFD{]}{[}U+FFFD{]}");
  CHECK(latex::escape("\xc0\xaf") == "{[}U+FFFD{]}{[}U+FFFD{]}");  // overlong '/'
}

TEST_CASE("latex::slug keeps ASCII letters and digits for labels and file names", "[report][latex]") {
  CHECK(latex::slug("III.R") == "iii-r");
  CHECK(latex::slug("Zoë & co") == "zo-co");
  CHECK(latex::slug("--") == "item");
  CHECK(latex::slug("TOOL.1") == "tool-1");
}

TEST_CASE("latex::number, integer and p_value format cells as the other renderers do", "[report][latex]") {
  CHECK(latex::number(Json(2.345), 2) == "2.35");
  CHECK(latex::number(Json(2.0), 2) == "2.00");
  CHECK(latex::number(Json(-0.25), 2) == "$-$0.25");
  CHECK(latex::number(Json(-0.001), 2) == "0.00");
  CHECK(latex::number(Json(nullptr), 3) == "---");
  CHECK(latex::integer(Json(12)) == "12");
  CHECK(latex::integer(Json(nullptr)) == "---");
  CHECK(latex::p_value(Json(0.0004)) == "\\textless{} 0.001");
  CHECK(latex::p_value(Json(0.0421)) == "0.042");
  CHECK(latex::p_value(Json("x")) == "---");
}

TEST_CASE("latex::prose sets a caption's comparisons and ranges as a paper does", "[report][latex]") {
  CHECK(latex::prose("new information <= 5%, at least >= 2") == "new information $\\le$ 5\\%, at least $\\ge$ 2");
  CHECK(latex::prose("interviews 14-15 added 1") == "interviews 14--15 added 1");
  CHECK(latex::prose("pages 3-4 and 10-12") == "pages 3--4 and 10--12");
  CHECK(latex::prose("on 2025-03-01 and in 2025-04") == "on 2025-03-01 and in 2025-04");  // dates keep their hyphens
  CHECK(latex::prose("well-known a-1 1-a") == "well-known a-1 1-a");
  CHECK(latex::prose("x < y & z > 2") == "x \\textless{} y \\& z \\textgreater{} 2");
  CHECK(latex::prose("1--2") == "1-{}-2");  // two hyphens typed stay two hyphens
}

TEST_CASE("latex::shortened cuts a text at a word, with an ellipsis", "[report][latex]") {
  CHECK(latex::shortened("Rank these themes.", 80) == "Rank these themes.");
  CHECK(latex::shortened("  Rank   these\nthemes. ", 80) == "Rank these themes.");
  CHECK(latex::shortened("Which three of these question themes matter most to you, put them in order", 40) ==
        "Which three of these question themes\u2026");
  CHECK(latex::shortened("one, two three", 8) == "one\u2026");  // no comma before the ellipsis
  CHECK(latex::shortened("Zoë Zoë Zoë Zoë", 8) == "Zoë Zoë\u2026");
  CHECK(latex::shortened("Unbreakablewordhere", 8) == "Unbreak\u2026");
}

TEST_CASE("latex::render writes booktabs rules only, and longtables that repeat their head", "[report][latex]") {
  latex::Table t;
  t.caption = "Two rows";
  t.label = "tab:two";
  t.columns = {{"Name", "l"}, {"Value", "r"}};
  t.rows = {{"a", "1.00"}, {"b", "2.00"}, {"Total", "3.00"}};
  t.rules = {2};
  // A float is measured (its fixed columns) so that it can fall back on \small and \footnotesize.
  const std::string f = latex::render(t);
  CHECK(f.rfind("\\begin{table}[tbp]\n\\centering\n\\setlength{\\tabcolsep}{4pt}\n\\caption{Two rows}\\label{tab:two}\n"
                "\\def\\qualrankwidths{%\n", 0) == 0);
  const std::string tabular = "\\begin{tabular}{@{}lr@{}}\n\\toprule\n"
                              "Name & Value \\\\\n\\midrule\na & 1.00 \\\\\nb & 2.00 \\\\\n\\midrule\nTotal & 3.00 \\\\\n\\bottomrule\n\\end{tabular}\n"
                              "\\end{table}\n";
  REQUIRE(f.size() > tabular.size());
  CHECK(f.compare(f.size() - tabular.size(), tabular.size(), tabular) == 0);
  t.long_table = true;
  const std::string l = latex::render(t);
  CHECK(l.rfind("\\begingroup\n\\setlength{\\tabcolsep}{4pt}\n\\begin{longtable}{@{}lr@{}}\n\\caption{Two rows}\\label{tab:two}\\\\\n\\toprule\nName & Value \\\\\n"
                "\\midrule\n\\endfirsthead\n", 0) == 0);
  CHECK(l.find("\\endhead\n") != std::string::npos);
  CHECK(l.find("\\bottomrule\n\\endlastfoot\n") != std::string::npos);
  const std::string end = "\\end{longtable}\n\\endgroup\n";
  REQUIRE(l.size() > end.size());
  CHECK(l.compare(l.size() - end.size(), end.size(), end) == 0);
  CHECK(l.find('|') == std::string::npos);
  CHECK(l.find("\\hline") == std::string::npos);
}

TEST_CASE("latex::report_tables renders report.json's tables with unique labels", "[report][latex]") {
  Json report = Json::parse(R"({
    "qualrank": "0.0",
    "workspace": {"participants_by_role": {"lead": 1, "crew": 1}, "role_plurals": {"crew": "crew members"}},
    "taxonomy": {"levels": ["Area"], "nodes": [{"id": "A", "name": "Zoë_Ångström & co. 100% {x}"}, {"id": "B", "name": "Bee"}]},
    "methods": {
      "participants": {"attributes": ["years"], "rows": [{"participant": "P_1", "role": "lead", "values": {"years": "5"}},
                                                        {"participant": "P#2", "role": "crew", "values": {}}]},
      "guide_matrix": {"nodes": [{"id": "A", "name": "Zoë"}], "rows": [{"question": "Q1", "text": "Why 50%?", "segments": 3, "counts": [2]}]},
      "codebook": [], "findings": null},
    "rankings": {"by": "role", "questions": [
      {"question": "Q.R", "text": "Rank", "wording": [], "items": ["A", "B"],
       "groups": {"lead": {"n": 3, "mean_rank": {"A": 1.3333333, "B": 1.6666667}, "kendall_w": 0.111111, "kendall_w_p": 0.0004},
                  "crew": {"n": 2, "mean_rank": {"A": 2.0, "B": 1.0}, "kendall_w": 1.0, "kendall_w_p": 0.157}},
       "comparisons": []},
      {"question": "Q-R", "text": "Again", "wording": [], "items": ["A"],
       "groups": {"lead": {"n": 1, "mean_rank": {"A": 1.0}, "kendall_w": null, "kendall_w_p": null}}, "comparisons": []}]}
  })");
  const auto files = latex::report_tables(report);
  REQUIRE(files.size() == 4);
  CHECK(files[0].name == "participants.tex");
  CHECK(files[1].name == "guide-codes.tex");
  CHECK(files[2].name == "rank-q-r-means.tex");
  CHECK(files[3].name == "rank-q-r-means-2.tex");  // "Q.R" and "Q-R" slug alike
  CHECK(files[3].body.find("\\label{tab:rank-q-r-means-2}") != std::string::npos);
  CHECK(files[0].body.find("P\\_1 & lead & 5 \\\\\n") != std::string::npos);
  CHECK(files[0].body.find("P\\#2 & crew &  \\\\\n") != std::string::npos);
  CHECK(files[0].body.find("\\caption{Participants (2): 1 in role lead, 1 in role crew.}") != std::string::npos);
  CHECK(files[1].body.find("Q1 Why 50\\%? & 3 & 2 \\\\\n") != std::string::npos);
  const std::string& means = files[2].body;
  CHECK(means.find("A Zoë\\_Ångström \\& co. 100\\% \\{x\\} & 1.33 & 2.00 \\\\\n") != std::string::npos);
  CHECK(means.find("B Bee & 1.67 & 1.00 \\\\\n") != std::string::npos);
  CHECK(means.find("\\midrule\nKendall's $W$ & 0.11 & 1.00 \\\\\n") != std::string::npos);
  CHECK(means.find("lead $p$ \\textless{} 0.001; crew $p$ = 0.157") != std::string::npos);
  CHECK(files[3].body.find("Kendall's $W$ & --- \\\\\n") != std::string::npos);
  CHECK(files[3].body.find("(lead $p$ = ---)") != std::string::npos);
  CHECK(means.find("\\caption{By role, Q.R: Rank. Mean rank per group") != std::string::npos);
  const std::string content = latex::file_content(files[0], "9.9");
  CHECK(content.rfind("% Participants: role and attributes\n% Written by qualrank 9.9 from report.json", 0) == 0);
  CHECK(content.find("%   \\usepackage[utf8]{inputenc}\n%   \\usepackage[T1]{fontenc}\n%   \\usepackage{lmodern}\n%   \\usepackage{booktabs}\n"
                     "%   \\usepackage{longtable}\n%   \\usepackage{array}\n\\begin{table}") != std::string::npos);
  CHECK(latex::report_tables(report).size() == files.size());
  CHECK(latex::concatenated(files).rfind("% Participants: role and attributes\n\\begin{table}", 0) == 0);
}

TEST_CASE("latex::agreement_tables renders pooled agreement with its interval, rounds and the corpus table", "[report][latex]") {
  const Json ag = Json::parse(R"({
    "labels": {"units": 85, "coders": ["a", "b"], "fleiss_kappa": 0.75812, "krippendorff_alpha": 0.7596, "percent_agreement": 0.9,
               "all_agree": 0.8, "confidence": {"fleiss_kappa": [0.6331, 0.857], "krippendorff_alpha": [null, null], "level": 0.95},
               "per_category": {"A": {"fleiss_kappa": null}}},
    "transcripts": null,
    "rounds": [{"round": "2025-01-02", "transcripts": ["a.md", "b.md"], "units": 30, "coders": ["x", "y"], "fleiss_kappa": -0.0512,
                "krippendorff_alpha": null, "percent_agreement": 0.5}],
    "corpus": {"level": 1, "periods": ["2024_H1"], "groups": [{"id": "A", "name": "Alpha & co"}],
               "rows": [{"source": "forum#1", "units": 3, "periods": {"2024_H1": 2}, "no_period": 1, "groups": {"A": 3}, "ungrouped": 0}],
               "total": {"source": "", "units": 3, "periods": {"2024_H1": 2}, "no_period": 1, "groups": {"A": 3}, "ungrouped": 0}}
  })");
  const auto files = latex::agreement_tables(ag, {{"A", "Alpha & co"}}, "Area");
  REQUIRE(files.size() == 4);
  CHECK(files[0].name == "agreement.tex");
  CHECK(files[0].body.find("Label tables & 85 & 2 & \\begin{tabular}[t]{@{}r@{}}0.758\\\\ {[}0.633, 0.857{]}\\end{tabular} & 0.760 & 0.900 & 0.800 \\\\\n") !=
        std::string::npos);
  CHECK(files[0].body.find("its 95\\% bootstrap confidence interval") != std::string::npos);
  // The two shares named in the caption, with what each is a share of (label tables only here).
  CHECK(files[0].body.find("pairs agree, the per cent agreement: the mean share of agreeing coder pairs (per unit, over the units with two or more "
                           "ratings); all agree, the share of units on which every coder gave the same label, of the units rated by "
                           "every coder.}") != std::string::npos);
  CHECK(files[1].name == "agreement-labels.tex");
  CHECK(files[1].body.find("A Alpha \\& co & --- \\\\\n") != std::string::npos);
  CHECK(files[2].name == "agreement-rounds.tex");
  CHECK(files[2].body.find("2025-01-02 & 2 & 30 & 2 & $-$0.051 & --- & 0.500 \\\\\n") != std::string::npos);
  CHECK(files[3].name == "corpus.tex");
  CHECK(files[3].body.find("Source & Units & 2024\\_H1 & (no period) & A \\\\\n") != std::string::npos);
  CHECK(files[3].body.find("forum\\#1 & 3 & 2 & 1 & 3 \\\\\n\\midrule\nTotal & 3 & 2 & 1 & 3 \\\\\n") != std::string::npos);
  CHECK(files[3].body.find("period and Area (of the consensus label): A~Alpha \\& co.}") != std::string::npos);
}

TEST_CASE("latex::saturation_tables renders the curve and each role", "[report][latex]") {
  const Json sat = Json::parse(R"({
    "parameters": {"base": 4, "run": 2, "threshold": 0.05},
    "all": {"interviews": [{"number": 1, "participant": "P_1", "role": "lead", "codes": 7, "new_codes": 7, "cumulative": 7}],
            "statement": "Saturation (base 4) cannot be assessed: 1 interview."},
    "roles": {"lead": {"interviews": [{}], "base_codes": 0, "runs": [], "saturated_at": null},
              "crew": {"interviews": [{}, {}, {}, {}, {}, {}], "base_codes": 10, "runs": [{"ratio": 0.1}], "saturated_at": null},
              "chief": {"interviews": [{}, {}, {}, {}, {}, {}], "base_codes": 8, "runs": [{"ratio": 0.0}], "saturated_at": 4}}
  })");
  const auto files = latex::saturation_tables(sat);
  REQUIRE(files.size() == 2);
  CHECK(files[0].body.find("1 & P\\_1 & lead & 7 & 7 & 7 \\\\\n") != std::string::npos);
  CHECK(files[0].body.find("new-information threshold 5\\%). Saturation (base 4) cannot be assessed: 1 interview.}") != std::string::npos);
  CHECK(files[1].body.find("lead & 1 & 0 & --- & --- \\\\\ncrew & 6 & 10 & not reached & 10.0\\% \\\\\nchief & 6 & 8 & 4 & 0.0\\% \\\\\n") !=
        std::string::npos);
  CHECK(files[1].body.find("Table~\\ref{tab:saturation}") != std::string::npos);
}

TEST_CASE("latex::report_tables keeps long tables out of the paper's body: a float of the first rows, the whole in an appendix file",
          "[report][latex]") {
  Json report = Json::parse(R"({
    "qualrank": "0.0",
    "workspace": {"participants_by_role": {"lead": 1}},
    "methods": {
      "participants": {"attributes": ["model_types"], "rows": [{"participant": "P1", "role": "lead", "values": {"model_types": "x"}}]},
      "codebook": [{"id": "A", "name": "Alpha", "definition": "Def.", "segments": 3,
                    "exemplar": {"quote": "So it goes.", "participant": "U04", "source": "transcripts/U04.md:38"}}],
      "findings": null},
    "agreement": {"transcripts": {"units": 9, "coders": ["a", "b"], "per_node": {}}}
  })");
  for (int i = 1; i <= 32; ++i)
    report["agreement"]["transcripts"]["per_node"]["N" + std::to_string(100 + i)] =
        Json{{"units_coded", i}, {"fleiss_kappa", 0.5}, {"krippendorff_alpha", 0.5}, {"percent_agreement", 0.5}};
  const auto files = latex::report_tables(report);
  std::vector<std::string> names;
  for (const auto& f : files) names.push_back(f.name);
  CHECK(names == std::vector<std::string>{"participants.tex", "codebook.tex", "codebook-appendix.tex", "agreement.tex",
                                          "agreement-nodes.tex", "agreement-nodes-appendix.tex"});
  REQUIRE(names.size() == 6);
  CHECK(files[0].body.find("Participant & Role & Model types \\\\\n") != std::string::npos);  // the attribute's label, not its key
  // The codebook: a float of codes, names and segments, pointing at the whole codebook; quotes cited by line.
  CHECK(files[1].body.rfind("\\begin{table}", 0) == 0);
  CHECK(files[1].body.find("A & Alpha & 3 \\\\\n") != std::string::npos);
  CHECK(files[1].body.find("Table~\\ref{tab:codebook-appendix} (appendix)") != std::string::npos);
  CHECK(files[2].body.find("\\begin{longtable}") != std::string::npos);
  CHECK(files[2].body.find("\\label{tab:codebook-appendix}") != std::string::npos);
  CHECK(files[2].body.find("``{}So it goes.{}'' (U04, line 38)") != std::string::npos);
  // 32 codes: the float holds 30 and says where the rest is; no float is a longtable.
  CHECK(files[4].body.find("N130 & 30 &") != std::string::npos);
  CHECK(files[4].body.find("N131 &") == std::string::npos);
  CHECK(files[4].body.find("Rows 1--30 of 32; all of them in Table~\\ref{tab:agreement-nodes-appendix} (appendix).") != std::string::npos);
  CHECK(files[5].body.find("N132 & 32 &") != std::string::npos);
  for (const auto* f : {&files[0], &files[1], &files[3], &files[4]}) CHECK(f->body.find("longtable") == std::string::npos);
}
