// Shared by the LaTeX renderers (latex_*.cpp): unique file stems and the tables of methods evidence.
#pragma once
#include <map>
#include <set>
#include <string>
#include <vector>

#include "qualrank/report/latex/latex_escape.h"
#include "qualrank/report/latex/latex_tables.h"
#include "qualrank/util/json_member.h"

namespace qualrank::latex::detail {

using Json = nlohmann::ordered_json;

// File stems, each used once: take("rank-q1") is "rank-q1", then "rank-q1-2", "rank-q1-3", ... The file is
// STEM.tex and its label tab:STEM.
class Stems {
 public:
  std::string take(const std::string& stem);

 private:
  std::set<std::string> used_;
};

// j[key] when it is a string, else "".
using json_member::str;

// "ID Name" of a taxonomy node (just "ID" when the name is unknown or the id itself), escaped.
std::string item_label(const std::map<std::string, std::string>& names, const std::string& id);

// latex::render, with the float a table* (as wide as both columns of a two-column paper) when `wide`.
std::string render_table(const Table& t, bool wide);

// A file with its table: name STEM.tex, label tab:STEM; a table* float when `wide`.
File table_file(const std::string& stem, const std::string& what, Table table, bool wide = false);

// A float holds at most this many rows (and those after its last rule, such as a total), so that it fits on a
// page, or in a column of a two-column paper.
constexpr std::size_t kFloatRows = 30;

// Adds the float `t` as STEM.tex (a table* when `wide`). When it has more than kFloatRows rows, the float holds
// its first kFloatRows (and the rows after its last rule) with a note that names the rest, and the whole table
// is a longtable of its own, STEM-appendix.tex (label tab:STEM-appendix), for a one-column appendix.
void add_table(const std::string& stem, const std::string& what, Table t, Stems& stems, std::vector<File>& out, bool wide = false);

// Adds the float `summary` as STEM.tex (a table* when `wide`) and the longtable `full` as STEM-appendix.tex,
// for a one-column appendix. In `summary`'s note (which should say where the rest is), kAppendix becomes
// "Table~\ref{tab:STEM-appendix}".
void add_with_appendix(const std::string& stem, const std::string& what, Table summary, const std::string& what_full, Table full,
                       Stems& stems, std::vector<File>& out, bool wide = false);
constexpr const char* kAppendix = "@APPENDIX@";

// A quote's citation: "U04, line 38" from the participant and the source "transcripts/U04.md:38" (the source
// itself, escaped, when it has no line).
std::string cite(const std::string& participant, const std::string& source);

// An attribute's key as a head: "model_types" is "Model types".
std::string attribute_label(const std::string& key);

// The methods evidence of report.json ("methods"): participants, guide-codes, codebook, evidence.
void methods_tables(const Json& report, Stems& stems, std::vector<File>& out);

// The tables of latex_tables.h, drawing their stems from `stems`.
void ranking_tables(const Json& rankings, const std::map<std::string, std::string>& names, const std::string& prefix,
                    const std::string& title, Stems& stems, std::vector<File>& out);
void agreement_tables(const Json& agreement, const std::map<std::string, std::string>& names, const std::string& level_name,
                      Stems& stems, std::vector<File>& out);
void corpus_table(const Json& corpus, const std::string& level_name, Stems& stems, std::vector<File>& out);
void saturation_tables(const Json& saturation, Stems& stems, std::vector<File>& out);

}  // namespace qualrank::latex::detail
