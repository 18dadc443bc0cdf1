// The figures of report.json (include/qualrank/report/figures/figures.h): which figures, their file names, both sizes
// and both formats, and the removal of figures an earlier run drew and this one does not.
#include "qualrank/report/figures/figures.h"

#include <algorithm>
#include <functional>
#include <set>

#include "figure_charts.h"
#include "qualrank/report/latex/latex_escape.h"
#include "qualrank/util/files.h"

namespace qualrank::figures {

namespace {

using figure::Drawing;
using figure::Json;
using figure::str;

using Builder = std::function<Drawing(double width)>;

struct Planned {
  std::string stem;
  Builder build;
};

// Stems made unique by "-2", "-3", ... (two questions whose ids slug alike).
class Stems {
 public:
  std::string take(const std::string& stem) {
    std::string s = stem;
    for (int k = 2; !used_.insert(s).second; ++k) s = stem + "-" + std::to_string(k);
    return s;
  }

 private:
  std::set<std::string> used_;
};

void ranking_figures(const Json& rankings, const std::map<std::string, std::string>& names, const std::string& prefix, Stems& stems,
                     std::vector<Planned>& out) {
  if (!rankings.is_object() || !rankings.contains("questions") || !rankings["questions"].is_array()) return;
  for (const Json& q : rankings["questions"]) {
    if (!q.contains("groups") || !q["groups"].is_object() || q["groups"].empty() || !q.contains("items") || !q["items"].is_array()) continue;
    const std::string stem = prefix + "-" + latex::slug(str(q, "question"));
    if (q.contains("comparisons") && q["comparisons"].is_array())
      for (const Json& c : q["comparisons"]) {
        if (!c.contains("groups") || !c["groups"].is_array() || c["groups"].size() != 2 || !c["groups"][0].is_string() ||
            !c["groups"][1].is_string())
          continue;
        const auto has_consensus = [&q](const Json& g) {
          const std::string name = g.get<std::string>();
          return q["groups"].contains(name) && q["groups"][name].is_object() && q["groups"][name].contains("consensus");
        };
        if (!has_consensus(c["groups"][0]) || !has_consensus(c["groups"][1])) continue;
        const std::string pair = latex::slug(c["groups"][0].get<std::string>()) + "-vs-" + latex::slug(c["groups"][1].get<std::string>());
        out.push_back({stems.take(stem + "-slope-" + pair), [&names, &q, &c](double w) { return figure::slope_figure(names, q, c, w); }});
        out.push_back({stems.take(stem + "-gaps-" + pair), [&names, &c](double w) { return figure::gaps_figure(names, c, w); }});
      }
    if (q.contains("model") && q["model"].is_object() && q["model"].contains("groups") && q["model"]["groups"].is_object())
      out.push_back({stems.take(stem + "-worths"), [&names, &q](double w) { return figure::forest_figure(names, q, w); }});
  }
}

}  // namespace

std::vector<File> report_figures(const Json& report, const std::string& qualrank_version, long long epoch, std::string* error) {
  std::map<std::string, std::string> names;
  const bool has_taxonomy = report.contains("taxonomy") && report["taxonomy"].is_object() && report["taxonomy"].contains("nodes") &&
                            report["taxonomy"]["nodes"].is_array() && !report["taxonomy"]["nodes"].empty();
  if (has_taxonomy)
    for (const auto& n : report["taxonomy"]["nodes"]) names[str(n, "id")] = str(n, "name");
  Stems stems;
  std::vector<Planned> planned;
  if (has_taxonomy) {
    // The whole taxonomy when it fits a page at both widths; else an overview (its first two levels, or its
    // first when two do not fit) and a figure per top-level node's box. A box too large for a page is split into
    // parts, each the node with as many of its children (and their sub-nodes) as fit; a child too large for a
    // part stays on its line there and is split the same way into figures of its own.
    using figure::TaxonomyPart;
    const auto fits = [&report](int levels, const TaxonomyPart& part) {
      return figure::taxonomy_figure(report, figure::kOneColumn, levels, part).height <= figure::kMaxHeight &&
             figure::taxonomy_figure(report, figure::kTwoColumns, levels, part).height <= figure::kMaxHeight;
    };
    const auto add = [&](const std::string& stem, int levels, const TaxonomyPart& part) {
      planned.push_back({stems.take(stem), [&report, levels, part](double w) { return figure::taxonomy_figure(report, w, levels, part); }});
    };
    int depth = 0;
    for (const auto& n : report["taxonomy"]["nodes"]) depth = std::max(depth, n.value("level", 0));
    if (fits(0, {})) {
      add("taxonomy", 0, {});
      // A taxonomy deeper than two levels also gets a figure of its first two (a deep tree fills pages).
      if (depth > 2) add("taxonomy-2levels", 2, {});
    } else {
      add("taxonomy", depth > 2 && fits(2, {}) ? 2 : 1, {});
      std::function<void(const std::string&)> split = [&](const std::string& id) {
        const std::string stem = "taxonomy-" + latex::slug(id);
        if (fits(0, {id, {}, {}})) return add(stem, 0, {id, {}, {}});
        const auto kids = figure::taxonomy_children(report, id);
        std::set<std::string> collapsed;
        for (const auto& k : kids)
          if (!fits(0, {id, {k}, {}})) collapsed.insert(k);
        std::vector<std::vector<std::string>> parts;
        for (const auto& k : kids) {
          if (!parts.empty()) {
            auto more = parts.back();
            more.push_back(k);
            if (fits(0, {id, more, collapsed})) {
              parts.back() = std::move(more);
              continue;
            }
          }
          parts.push_back({k});
        }
        for (std::size_t p = 0; p < parts.size(); ++p)
          add(parts.size() == 1 ? stem : stem + "-part" + std::to_string(p + 1), 0, {id, parts[p], collapsed});
        for (const auto& k : kids)
          if (collapsed.count(k)) split(k);
      };
      for (const auto& root : figure::taxonomy_children(report, "")) split(root);
    }
  }
  if (report.contains("saturation") && report["saturation"].is_object() && report["saturation"].contains("all") &&
      report["saturation"]["all"].is_object() && report["saturation"]["all"].contains("interviews") &&
      report["saturation"]["all"]["interviews"].is_array() && !report["saturation"]["all"]["interviews"].empty())
    planned.push_back({stems.take("saturation"), [&report](double w) { return figure::saturation_figure(report["saturation"], w); }});
  if (report.contains("rankings")) ranking_figures(report["rankings"], names, "rank", stems, planned);
  if (report.contains("experience_comparisons") && report["experience_comparisons"].is_array())
    for (const Json& e : report["experience_comparisons"])
      ranking_figures(e, names, "rank-" + latex::slug(str(e, "role")) + "-" + latex::slug(str(e, "by")), stems, planned);
  std::vector<File> out;
  for (const auto& p : planned)
    for (const auto& [size, width] : {std::pair<const char*, double>{"1col", figure::kOneColumn}, {"2col", figure::kTwoColumns}}) {
      const Drawing d = p.build(width);
      const std::string stem = p.stem + "-" + size;
      out.push_back({stem + ".svg", figure::to_svg(d, qualrank_version)});
      std::string pdf = figure::to_pdf(d, qualrank_version, epoch, error);
      if (pdf.empty()) {
        if (error) *error = stem + ".pdf: " + *error;
        return {};
      }
      out.push_back({stem + ".pdf", std::move(pdf)});
    }
  return out;
}

namespace {

// Did qualrank write this figure? An SVG's second line, a PDF's Creator.
bool written_by_qualrank(const std::filesystem::path& p, const std::string& bytes) {
  if (p.extension() == ".svg") {
    const auto first = bytes.find('\n');
    return first != std::string::npos && bytes.compare(first + 1, 24, "<!-- Written by qualrank") == 0;
  }
  return bytes.compare(0, 5, "%PDF-") == 0 && bytes.find("/Creator (qualrank ") != std::string::npos;
}

}  // namespace

std::vector<std::string> remove_stale(const std::filesystem::path& dir, const std::vector<std::string>& keep) {
  std::vector<std::string> removed;
  for (const char* suffix : {".svg", ".pdf"})
    for (const auto& p : files::list_files(dir, suffix)) {
      const std::string name = p.filename().string();
      if (std::find(keep.begin(), keep.end(), name) != keep.end()) continue;
      const auto bytes = files::read(p);
      if (!bytes || !written_by_qualrank(p, *bytes)) continue;
      std::error_code ec;
      if (std::filesystem::remove(p, ec)) removed.push_back(name);
    }
  std::sort(removed.begin(), removed.end());
  return removed;
}

}  // namespace qualrank::figures
