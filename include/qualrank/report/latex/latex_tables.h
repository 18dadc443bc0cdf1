// The LaTeX tables of a study, rendered from report.json only (like index.html and methods.md: never a second
// computation), one file per table, each with its \label{tab:...}; the numbers are report.json's with the
// rounding the other renderers use (mean ranks, W, rho, tau, gaps, Cliff's delta 2 decimals; p-values 3, or
// "< 0.001"; kappa, alpha, per cent agreement and Plackett-Luce worths 3). docs/latex.md lists the files.
#pragma once
#include <nlohmann/json.hpp>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "qualrank/model/taxonomy.h"

namespace qualrank::latex {

// One table: its file name inside the latex/ folder ("rank-q1-means.tex"), what it holds (one line, for
// the file's opening comment) and the LaTeX of the table.
struct File {
  std::string name;
  std::string what;
  std::string body;
};

// Every table report.json holds, in a fixed order: participants, guide-codes, codebook, evidence (with
// findings), rankings (per question: means, one gaps table per comparison, worths; the same for each
// experience comparison), agreement (pooled, per node, per category, per round: each when present),
// saturation (the curve, and per role), corpus (when report.json has a corpus table: "corpus" or
// "agreement"."corpus"). Every table is a float (table, or table* when too wide for a column of a two-column
// paper); one that can be long (the codebook, the chain of evidence, participants with much text, any table of
// more than 30 rows) is followed by its whole version, the longtable NAME-appendix.tex. Names and labels are unique. Same report.json, same bytes. A part of report.json that
// is missing or null gives no file; never throws on a report.json that qualrank report wrote.
std::vector<File> report_tables(const nlohmann::ordered_json& report);

// The tables of one ranking analysis (rankings_json of report/outputs/ranking_output.h): per question the mean ranks
// per group with n and Kendall's W, each comparison's gaps (rho and tau-b with the bootstrap CI in the
// caption), the Plackett-Luce worths when the model was fitted. `names` gives items' names by id;
// `label_prefix` starts every label and file name ("rank" -> tab:rank-q1-means); `title` (text, escaped here) opens each caption.
std::vector<File> ranking_tables(const nlohmann::ordered_json& rankings, const std::map<std::string, std::string>& names,
                                 const std::string& label_prefix, const std::string& title);

// Every node's name by id (the `names` the renderers below take).
std::map<std::string, std::string> node_names(const Taxonomy& taxonomy);

// Agreement tables of {"labels": LABELS | null, "transcripts": TRANSCRIPTS | null, "rounds": [...]?,
// "corpus": CORPUS?} (report/outputs/agreement_output.h): pooled, per node, per category, per round, corpus.
// `level_name` names the corpus table's groups ("the top-level node").
std::vector<File> agreement_tables(const nlohmann::ordered_json& agreement, const std::map<std::string, std::string>& names,
                                   const std::string& level_name);

// Saturation tables of saturation_json (report/outputs/saturation_output.h): the curve of all interviews and, when
// there are roles, one row per role.
std::vector<File> saturation_tables(const nlohmann::ordered_json& saturation);

// The tables as one text for standard output (`--format latex`): "% WHAT" and the table, each in turn,
// separated by a blank line; "" for no table.
std::string concatenated(const std::vector<File>& files);

// The bytes of the file `f` in the latex/ folder of `qualrank report`: latex::file's opening comment, then the
// table.
std::string file_content(const File& f, const std::string& qualrank_version);

// Removes from `dir` each .tex file that qualrank wrote (its second line opens "% Written by qualrank ") and
// whose name is not in `keep`: a table a later run no longer writes (evidence.tex once findings.yaml is gone)
// cannot be \input with old numbers. Other files are left alone. Returns the names removed, sorted.
std::vector<std::string> remove_stale(const std::filesystem::path& dir, const std::vector<std::string>& keep);

}  // namespace qualrank::latex
