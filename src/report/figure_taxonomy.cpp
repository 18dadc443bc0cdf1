// The taxonomy figure (figure_charts.h): a box per top-level node, its descendants listed below it indented by
// level, each line an id, a name (wrapped within the box) and the node's counts right-aligned on its first line.
// The counts: coded segments and participants from report.json's codebook matrix (a node counts its
// sub-nodes' codings); for a study whose transcripts carry no codes but which has label tables, the units
// labelled under each top-level node (agreement.labels.groups); none otherwise. One column of boxes for a
// narrow figure, two for a wide one, split where the taller column is shortest.
#include <algorithm>
#include <cmath>

#include "figure_charts.h"

namespace qualrank::figure {

namespace {

constexpr double kLine = kLabelSize + 2.5;
constexpr double kPad = 3;
constexpr double kIndent = 8;

struct Entry {
  std::string id, name;
  int depth = 0;                     // 0 for the box's top-level node
  std::vector<std::string> counts;   // right-aligned columns
};

struct Box {
  std::vector<Entry> entries;
};

// The lines of one entry at the box's inner width (the counts' columns and the id aside).
struct Laid {
  std::vector<std::string> id_lines, name_lines;
  double id_w = 0;
  std::size_t lines() const { return std::max(id_lines.size(), name_lines.size()); }
};

}  // namespace

Drawing taxonomy_figure(const Json& report, double width, int levels) {
  Drawing d;
  d.width = width;
  const Json& tax = report["taxonomy"];
  d.title = "Taxonomy " + str(tax, "taxonomy") + ", version " + (tax.contains("version") ? tax["version"].dump() : std::string("1"));
  // Counts per node.
  std::map<std::string, std::vector<std::string>> counts;
  std::string counts_legend;
  int columns_of_counts = 0;
  const Json& cb = report.contains("codebook") && report["codebook"].is_object() ? report["codebook"] : Json::object();
  const bool coded = cb.contains("coded_segments") && cb["coded_segments"].is_number() && cb["coded_segments"].get<double>() > 0 &&
                     cb.contains("matrix") && cb["matrix"].contains("rows") && cb["matrix"]["rows"].is_array();
  const Json* labels = report.contains("agreement") && report["agreement"].is_object() && report["agreement"].contains("labels") &&
                               report["agreement"]["labels"].is_object() && report["agreement"]["labels"].contains("groups") &&
                               report["agreement"]["labels"]["groups"].is_object()
                           ? &report["agreement"]["labels"]["groups"]
                           : nullptr;
  if (coded) {
    columns_of_counts = 2;
    for (const auto& row : cb["matrix"]["rows"])
      counts[str(row, "node")] = {row.value("segments", Json(0)).dump(), row.value("participants", Json(0)).dump()};
    const bool aggregate = str(cb, "counting").rfind("aggregate", 0) == 0;
    counts_legend = std::string("Numbers: coded segments, participants") + (aggregate ? " (a node counts its sub-nodes' codings)" : "");
  } else if (labels) {
    columns_of_counts = 1;
    for (auto it = labels->begin(); it != labels->end(); ++it) counts[it.key()] = {it.value().value("units", Json(0)).dump()};
    counts_legend = "Numbers: units labelled under the node in the label tables";
  }
  // The boxes: top-level nodes in report.json's order, each with its descendants depth first.
  std::map<std::string, std::vector<const Json*>> children;
  std::vector<const Json*> roots;
  if (tax.contains("nodes") && tax["nodes"].is_array())
    for (const auto& n : tax["nodes"]) {
      if (n.contains("parent") && n["parent"].is_string()) children[n["parent"].get<std::string>()].push_back(&n);
      else roots.push_back(&n);
    }
  std::vector<Box> boxes;
  for (const Json* r : roots) {
    Box box;
    std::vector<std::pair<const Json*, int>> stack = {{r, 0}};
    while (!stack.empty()) {
      auto [n, depth] = stack.back();
      stack.pop_back();
      Entry e;
      e.id = clean(str(*n, "id"));
      e.name = clean(str(*n, "name"));
      const std::string status = str(*n, "status");
      if (!status.empty() && status != "active") e.name += " (" + clean(status) + ")";
      e.depth = depth;
      if (auto c = counts.find(str(*n, "id")); c != counts.end()) e.counts = c->second;
      box.entries.push_back(std::move(e));
      if (levels > 0 && depth + 1 >= levels) continue;
      const auto& kids = children[str(*n, "id")];
      for (auto k = kids.rbegin(); k != kids.rend(); ++k) stack.emplace_back(*k, depth + 1);
    }
    boxes.push_back(std::move(box));
  }
  // Columns of boxes and their width.
  const int columns = width < 400 || boxes.size() < 2 ? 1 : 2;
  const double gutter = 8;
  const double box_w = (width - 2 * kMargin - (columns - 1) * gutter) / columns;
  std::vector<double> count_w(columns_of_counts, 0);
  for (const auto& b : boxes)
    for (const auto& e : b.entries)
      for (std::size_t k = 0; k < e.counts.size() && k < count_w.size(); ++k)
        count_w[k] = std::max(count_w[k], text_width(e.counts[k], kLabelSize, true));
  double counts_total = 0;
  for (double w : count_w) counts_total += w + 5;
  // The names of one depth start at one x: after the widest id of that depth (at most half the room).
  std::map<int, double> id_w;
  for (const auto& b : boxes)
    for (const auto& e : b.entries) id_w[e.depth] = std::max(id_w[e.depth], text_width(e.id, kLabelSize, e.depth == 0) + 4);
  auto room_of = [&](int depth) { return box_w - 2 * kPad - depth * kIndent - counts_total - 4; };
  auto lay = [&](const Entry& e) {
    Laid l;
    l.id_w = std::min(id_w[e.depth], room_of(e.depth) * 0.5);
    l.id_lines = wrap(e.id, kLabelSize, l.id_w - 4, e.depth == 0);
    l.name_lines = wrap(e.name, kLabelSize, std::max(room_of(e.depth) - l.id_w, 20.0), e.depth == 0);
    return l;
  };
  std::vector<std::vector<Laid>> laid(boxes.size());
  std::vector<double> heights(boxes.size());
  for (std::size_t i = 0; i < boxes.size(); ++i) {
    double h = 2 * kPad;
    for (const auto& e : boxes[i].entries) {
      laid[i].push_back(lay(e));
      h += laid[i].back().lines() * kLine;
    }
    heights[i] = h + 2;  // the rule under the top-level node
  }
  // Where the second column starts: the split with the shortest taller column.
  std::size_t split = boxes.size();
  if (columns == 2) {
    double best = 1e300, left = 0, total = 0;
    for (double h : heights) total += h + gutter;
    for (std::size_t s = 1; s < boxes.size(); ++s) {
      left += heights[s - 1] + gutter;
      if (std::max(left, total - left) < best) best = std::max(left, total - left), split = s;
    }
  }
  double bottom = kMargin;
  for (int col = 0; col < columns; ++col) {
    const double x = kMargin + col * (box_w + gutter);
    double y = kMargin;
    for (std::size_t i = col == 0 ? 0 : split; i < (col == 0 ? split : boxes.size()); ++i) {
      Paint frame;
      frame.stroke = palette::grey;
      frame.width = 0.6;
      d.rect(x, y, box_w, heights[i], frame);
      double line_y = y + kPad;
      for (std::size_t k = 0; k < boxes[i].entries.size(); ++k) {
        const Entry& e = boxes[i].entries[k];
        const Laid& l = laid[i][k];
        const bool bold = e.depth == 0;
        const double indent = x + kPad + e.depth * kIndent;
        const double base = line_y + kLabelSize;
        for (std::size_t n = 0; n < l.id_lines.size(); ++n) d.text({indent, base + n * kLine}, l.id_lines[n], kLabelSize, Anchor::start, bold);
        const double name_x = indent + l.id_w;
        for (std::size_t n = 0; n < l.name_lines.size(); ++n)
          d.text({name_x, base + n * kLine}, l.name_lines[n], kLabelSize, Anchor::start, bold);
        double right = x + box_w - kPad;
        for (std::size_t c = e.counts.size(); c-- > 0;) {
          d.text({right, base}, e.counts[c], kLabelSize, Anchor::end, bold);
          right -= count_w[c] + 5;
        }
        line_y += l.lines() * kLine;
        if (k == 0) {
          d.line({x, line_y + 1}, {x + box_w, line_y + 1}, palette::light_grey, 0.5);
          line_y += 2;
        }
      }
      y += heights[i] + gutter;
    }
    bottom = std::max(bottom, y - gutter);
  }
  double y = bottom + 4;
  if (!counts_legend.empty()) {
    for (const auto& line : wrap(counts_legend, kSmallSize, width - 2 * kMargin)) {
      y += kSmallSize + 2;
      d.text({kMargin, y}, line, kSmallSize, Anchor::start, false, palette::grey);
    }
    y += 3;
  }
  d.height = std::ceil(y + kMargin);
  return d;
}

}  // namespace qualrank::figure
