// Shared by the LaTeX renderers (latex_*.cpp): unique file stems and the tables of methods evidence.
#pragma once
#include <map>
#include <set>
#include <string>
#include <vector>

#include "qualrank/report/latex_escape.h"
#include "qualrank/report/latex_tables.h"

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
std::string str(const Json& j, const char* key);

// "ID Name" of a taxonomy node (just "ID" when the name is unknown or the id itself), escaped.
std::string item_label(const std::map<std::string, std::string>& names, const std::string& id);

// A file with its table: name STEM.tex, label tab:STEM.
File table_file(const std::string& stem, const std::string& what, Table table);

// Tables with more rows than this become longtables (they may not fit on one page).
constexpr std::size_t kFloatRows = 30;

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
