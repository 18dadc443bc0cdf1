#include <catch2/catch.hpp>

#include "qualrank/report/latex_escape.h"
#include "qualrank/report/latex_tables.h"

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
  CHECK(latex::number(Json(nullptr), 3) == "n/a");
  CHECK(latex::integer(Json(12)) == "12");
  CHECK(latex::integer(Json(nullptr)) == "n/a");
  CHECK(latex::p_value(Json(0.0004)) == "\\textless{} 0.001");
  CHECK(latex::p_value(Json(0.0421)) == "0.042");
  CHECK(latex::p_value(Json("x")) == "n/a");
}

TEST_CASE("latex::render writes booktabs rules only, and longtables that repeat their head", "[report][latex]") {
  latex::Table t;
  t.caption = "Two rows";
  t.label = "tab:two";
  t.columns = {{"Name", "l"}, {"Value", "r"}};
  t.rows = {{"a", "1.00"}, {"b", "2.00"}, {"Total", "3.00"}};
  t.rules = {2};
  CHECK(latex::render(t) ==
        "\\begin{table}[tbp]\n\\centering\n\\setlength{\\tabcolsep}{4pt}\n\\caption{Two rows}\\label{tab:two}\n\\begin{tabular}{@{}lr@{}}\n\\toprule\n"
        "Name & Value \\\\\n\\midrule\na & 1.00 \\\\\nb & 2.00 \\\\\n\\midrule\nTotal & 3.00 \\\\\n\\bottomrule\n\\end{tabular}\n"
        "\\end{table}\n");
  t.long_table = true;
  const std::string l = latex::render(t);
  CHECK(l.rfind("\\begin{longtable}{@{}lr@{}}\n\\caption{Two rows}\\label{tab:two}\\\\\n\\toprule\nName & Value \\\\\n"
                "\\midrule\n\\endfirsthead\n", 0) == 0);
  CHECK(l.find("\\endhead\n") != std::string::npos);
  CHECK(l.find("\\bottomrule\n\\endlastfoot\n") != std::string::npos);
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
  CHECK(files[3].body.find("Kendall's $W$ & n/a \\\\\n") != std::string::npos);
  const std::string content = latex::file_content(files[0], "9.9");
  CHECK(content.rfind("% Participants: role and attributes\n% Written by qualrank 9.9 from report.json", 0) == 0);
  CHECK(content.find("%   \\usepackage[utf8]{inputenc}\n%   \\usepackage[T1]{fontenc}\n%   \\usepackage{booktabs}\n"
                     "%   \\usepackage{longtable}\n%   \\usepackage{tabularx}\n\\begin{table}") != std::string::npos);
  CHECK(latex::report_tables(report).size() == files.size());
  CHECK(latex::concatenated(files).rfind("% Participants: role and attributes\n\\begin{table}", 0) == 0);
}
