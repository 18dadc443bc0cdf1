// Vector figures for papers, rendered from report.json only (like index.html, methods.md and latex/: never a
// second computation): the taxonomy, the saturation curve and, per ranking question, the slope chart and the
// gap chart of each comparison and the Plackett-Luce forest plot; each as SVG and as PDF (the font's subset
// embedded), one column wide (252 pt) and two columns wide (516 pt). docs/figures.md lists the files.
#pragma once
#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>
#include <vector>

namespace qualrank::figures {

// One file of the figures/ folder: its name ("rank-iii-r-slope-user-vs-developer-1col.pdf") and its bytes.
struct File {
  std::string name;
  std::string bytes;
};

// Every figure report.json holds, in a fixed order (taxonomy, saturation, rankings by question: slope and gaps
// per comparison, then the forest plot; the same for each experience comparison), each as <stem>-1col.svg,
// <stem>-1col.pdf, <stem>-2col.svg, <stem>-2col.pdf. Stems are unique and use ASCII letters, digits and '-'.
// The PDFs' date is `epoch` (SOURCE_DATE_EPOCH, as the workbooks'). Same report.json, same bytes. A part of
// report.json that is missing or null gives no figure. Returns nothing and sets *error when cairo fails.
std::vector<File> report_figures(const nlohmann::ordered_json& report, const std::string& qualrank_version, long long epoch,
                                 std::string* error);

// Removes from `dir` each .svg and .pdf that qualrank wrote (an SVG whose second line opens "<!-- Written by
// qualrank ", a PDF whose Creator is "qualrank ...") and whose name is not in `keep`: a figure a later run no
// longer draws cannot be included with old numbers. Other files are left alone. Returns the names removed, sorted.
std::vector<std::string> remove_stale(const std::filesystem::path& dir, const std::vector<std::string>& keep);

}  // namespace qualrank::figures
