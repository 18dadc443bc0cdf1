// The LaTeX tables of report.json (include/qualrank/report/latex_tables.h): the order of the files, their
// unique names, and the pieces the renderers share.
#include "latex_internal.h"

#include <algorithm>

#include "qualrank/util/files.h"

namespace qualrank::latex {

namespace detail {

std::string Stems::take(const std::string& stem) {
  std::string s = stem;
  for (int k = 2; !used_.insert(s).second; ++k) s = stem + "-" + std::to_string(k);
  return s;
}

std::string str(const Json& j, const char* key) {
  return j.is_object() && j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : std::string();
}

std::string item_label(const std::map<std::string, std::string>& names, const std::string& id) {
  const auto it = names.find(id);
  return it == names.end() || it->second.empty() || it->second == id ? escape(id) : escape(id) + " " + escape(it->second);
}

File table_file(const std::string& stem, const std::string& what, Table table) {
  table.label = "tab:" + stem;
  std::string line = what;  // one comment line
  for (char& c : line)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) c = ' ';
  return {stem + ".tex", line, render(table)};
}

namespace {

std::map<std::string, std::string> node_names(const Json& report) {
  std::map<std::string, std::string> names;
  if (report.contains("taxonomy") && report["taxonomy"].is_object() && report["taxonomy"]["nodes"].is_array())
    for (const auto& n : report["taxonomy"]["nodes"]) names[str(n, "id")] = str(n, "name");
  return names;
}

// The taxonomy's name of level 1 ("top-level node" when it has none).
std::string top_level_name(const Json& report) {
  if (report.contains("taxonomy") && report["taxonomy"].is_object() && report["taxonomy"]["levels"].is_array() &&
      !report["taxonomy"]["levels"].empty() && report["taxonomy"]["levels"][0].is_string())
    return report["taxonomy"]["levels"][0].get<std::string>();
  return "top-level node";
}

}  // namespace

}  // namespace detail

using detail::Json;

std::vector<File> report_tables(const Json& report) {
  detail::Stems stems;
  std::vector<File> out;
  const auto names = detail::node_names(report);
  detail::methods_tables(report, stems, out);
  if (report.contains("rankings")) {
    const std::string by = detail::str(report["rankings"], "by");
    detail::ranking_tables(report["rankings"], names, "rank", by.empty() ? "" : "By " + by + ", ", stems, out);
  }
  if (report.contains("experience_comparisons") && report["experience_comparisons"].is_array())
    for (const auto& e : report["experience_comparisons"])
      detail::ranking_tables(e, names, "rank-" + slug(detail::str(e, "role")) + "-" + slug(detail::str(e, "by")),
                             detail::str(e, "title") + ", ", stems, out);
  const std::string level = detail::top_level_name(report);
  if (report.contains("agreement")) detail::agreement_tables(report["agreement"], names, level, stems, out);
  if (report.contains("saturation")) detail::saturation_tables(report["saturation"], stems, out);
  if (report.contains("corpus")) detail::corpus_table(report["corpus"], level, stems, out);
  return out;
}

std::vector<File> ranking_tables(const Json& rankings, const std::map<std::string, std::string>& names, const std::string& label_prefix,
                                 const std::string& title) {
  detail::Stems stems;
  std::vector<File> out;
  detail::ranking_tables(rankings, names, label_prefix, title, stems, out);
  return out;
}

std::vector<File> agreement_tables(const Json& agreement, const std::map<std::string, std::string>& names, const std::string& level_name) {
  detail::Stems stems;
  std::vector<File> out;
  detail::agreement_tables(agreement, names, level_name, stems, out);
  return out;
}

std::vector<File> saturation_tables(const Json& saturation) {
  detail::Stems stems;
  std::vector<File> out;
  detail::saturation_tables(saturation, stems, out);
  return out;
}

std::map<std::string, std::string> node_names(const Taxonomy& taxonomy) {
  std::map<std::string, std::string> names;
  for (const auto& id : taxonomy.order())
    if (const TaxonomyNode* n = taxonomy.find(id)) names[id] = n->name;
  return names;
}

std::string concatenated(const std::vector<File>& files) {
  std::string o;
  for (std::size_t i = 0; i < files.size(); ++i) o += (i ? "\n% " : "% ") + files[i].what + "\n" + files[i].body;
  return o;
}

std::string file_content(const File& f, const std::string& qualrank_version) { return file(f.what, qualrank_version, f.body); }

std::vector<std::string> remove_stale(const std::filesystem::path& dir, const std::vector<std::string>& keep) {
  std::vector<std::string> removed;
  for (const auto& p : files::list_files(dir, ".tex")) {
    const std::string name = p.filename().string();
    if (std::find(keep.begin(), keep.end(), name) != keep.end()) continue;
    const auto text = files::read(p);
    if (!text) continue;
    const auto first = text->find('\n');
    if (first == std::string::npos || text->compare(first + 1, 22, "% Written by qualrank ") != 0) continue;
    std::error_code ec;
    if (std::filesystem::remove(p, ec)) removed.push_back(name);
  }
  std::sort(removed.begin(), removed.end());
  return removed;
}

}  // namespace qualrank::latex
