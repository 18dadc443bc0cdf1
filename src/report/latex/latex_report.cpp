// The LaTeX tables of report.json (include/qualrank/report/latex/latex_tables.h): the order of the files, their
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

std::string item_label(const std::map<std::string, std::string>& names, const std::string& id) {
  const auto it = names.find(id);
  return it == names.end() || it->second.empty() || it->second == id ? escape(id) : escape(id) + " " + escape(it->second);
}

File table_file(const std::string& stem, const std::string& what, Table table, bool wide) {
  table.label = "tab:" + stem;
  std::string line = what;  // one comment line
  for (char& c : line)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) c = ' ';
  return {stem + ".tex", line, render_table(table, wide)};
}

namespace {

// `note`, with kAppendix replaced by the reference to the table `appendix_stem`.
std::string with_reference(std::string note, const std::string& appendix_stem) {
  const std::string mark = kAppendix;
  for (auto at = note.find(mark); at != std::string::npos; at = note.find(mark, at))
    note.replace(at, mark.size(), "Table~\\ref{tab:" + appendix_stem + "}");
  return note;
}

}  // namespace

void add_with_appendix(const std::string& stem, const std::string& what, Table summary, const std::string& what_full, Table full,
                       Stems& stems, std::vector<File>& out, bool wide) {
  const std::string s = stems.take(stem);
  const std::string a = stems.take(s + "-appendix");
  summary.long_table = false;
  summary.note = with_reference(summary.note, a);
  full.long_table = true;
  out.push_back(table_file(s, what, std::move(summary), wide));
  out.push_back(table_file(a, what_full + " (whole, a longtable for a one-column appendix)", std::move(full)));
}

void add_table(const std::string& stem, const std::string& what, Table t, Stems& stems, std::vector<File>& out, bool wide) {
  t.long_table = false;
  if (t.rows.size() <= kFloatRows) {
    out.push_back(table_file(stems.take(stem), what, std::move(t), wide));
    return;
  }
  // The rows after the last rule (a total, Kendall's W) stay under the first kFloatRows.
  std::size_t tail = t.rules.empty() ? t.rows.size() : t.rules.back();
  if (tail <= kFloatRows || t.rows.size() - tail > 3) tail = t.rows.size();
  Table f = t;
  f.rows.assign(t.rows.begin(), t.rows.begin() + kFloatRows);
  f.rules.clear();
  for (auto r : t.rules)
    if (r < kFloatRows) f.rules.push_back(r);
  if (tail < t.rows.size()) {
    f.rules.push_back(f.rows.size());
    f.rows.insert(f.rows.end(), t.rows.begin() + static_cast<std::ptrdiff_t>(tail), t.rows.end());
  }
  const std::string rest = "Rows 1--" + std::to_string(kFloatRows) + " of " + std::to_string(tail) + "; all of them in " +
                           kAppendix + " (appendix).";
  f.note = t.note.empty() ? rest : t.note + " " + rest;
  add_with_appendix(stem, what, std::move(f), what, std::move(t), stems, out, wide);
}

std::string cite(const std::string& participant, const std::string& source) {
  std::string where = source;
  if (const auto colon = source.rfind(':'); colon != std::string::npos && colon + 1 < source.size() &&
                                             source.find_first_not_of("0123456789", colon + 1) == std::string::npos)
    where = "line " + source.substr(colon + 1);
  else
    where = escape(source);
  if (participant.empty()) return where;
  return where.empty() ? escape(participant) : escape(participant) + ", " + where;
}

std::string attribute_label(const std::string& key) {
  std::string s = key;
  for (char& c : s)
    if (c == '_') c = ' ';
  if (!s.empty() && s[0] >= 'a' && s[0] <= 'z') s[0] = static_cast<char>(s[0] - 'a' + 'A');
  return escape(s);
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
