// The taxonomy figure (figure_charts.h): a box per top-level node, its descendants listed below it indented by
// level, each line an id, a name (wrapped within the box, never cut) and the node's counts right-aligned on its
// first line. The counts: coded segments and participants from report.json's codebook matrix (a segment counts
// once for each node it is coded with or under; the footnote says so); for a study whose transcripts carry no
// codes but which has label tables, the units labelled under each top-level node (agreement.labels.groups);
// none otherwise. Nodes the taxonomy's history added after version 1 are marked "+". The boxes flow into the
// fewest columns (one for a narrow figure, two or three for a wide one) that keep the figure within a page
// (kMaxHeight), a box going on in the next column where it must. A TaxonomyPart draws one node's box alone,
// or with some of its children only (figure_report splits a taxonomy too large for a page into such parts).
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

namespace {

// The counts per node and the footnote that says what they are.
struct Counts {
  std::map<std::string, std::vector<std::string>> of;
  std::vector<std::string> footnote;
  int columns = 0;
};

Counts counts_of(const Json& report) {
  Counts out;
  const Json& cb = report.contains("codebook") && report["codebook"].is_object() ? report["codebook"] : Json::object();
  const bool coded = cb.contains("coded_segments") && cb["coded_segments"].is_number() && cb["coded_segments"].get<double>() > 0 &&
                     cb.contains("matrix") && cb["matrix"].contains("rows") && cb["matrix"]["rows"].is_array();
  const Json* labels = report.contains("agreement") && report["agreement"].is_object() && report["agreement"].contains("labels") &&
                               report["agreement"]["labels"].is_object() && report["agreement"]["labels"].contains("groups") &&
                               report["agreement"]["labels"]["groups"].is_object()
                           ? &report["agreement"]["labels"]["groups"]
                           : nullptr;
  if (coded) {
    out.columns = 2;
    for (const auto& row : cb["matrix"]["rows"])
      out.of[str(row, "node")] = {row.value("segments", Json(0)).dump(), row.value("participants", Json(0)).dump()};
    const bool aggregate = str(cb, "counting").rfind("aggregate", 0) == 0;
    // What crosstab.cpp counts: a segment once per node it is coded with or under (two codes under one node
    // count once there), and the participants with at least one such segment.
    out.footnote.push_back(aggregate ? "Numbers: segments coded with the node or a node under it (a segment with several such codes counts "
                                       "once), and the participants with such a segment."
                                     : "Numbers: segments coded with the node, and the participants with such a segment.");
  } else if (labels) {
    out.columns = 1;
    for (auto it = labels->begin(); it != labels->end(); ++it) out.of[it.key()] = {it.value().value("units", Json(0)).dump()};
    out.footnote.push_back("Numbers: units labelled under the node in the label tables.");
  }
  return out;
}

// A run of one box's entries in one column (a box may go on in the next column).
struct Piece {
  std::size_t box = 0, from = 0, to = 0;
  bool continued = false;  // not the box's first piece: headed "ID (continued)"
  int column = 0;
  double y = 0, height = 0;
};

}  // namespace

std::vector<std::string> taxonomy_children(const Json& report, const std::string& parent) {
  std::vector<std::string> out;
  const Json& tax = report["taxonomy"];
  if (tax.contains("nodes") && tax["nodes"].is_array())
    for (const auto& n : tax["nodes"]) {
      const bool top = !(n.contains("parent") && n["parent"].is_string());
      if (parent.empty() ? top : !top && n["parent"].get<std::string>() == parent) out.push_back(str(n, "id"));
    }
  return out;
}

Drawing taxonomy_figure(const Json& report, double width, int levels, const TaxonomyPart& part) {
  Drawing d;
  d.width = width;
  const Json& tax = report["taxonomy"];
  d.title = "Taxonomy " + str(tax, "taxonomy") + ", version " + (tax.contains("version") ? tax["version"].dump() : std::string("1"));
  if (!part.node.empty()) d.title += ", node " + part.node;
  if (!part.children.empty()) d.title += " with " + part.children.front() + (part.children.size() > 1 ? " to " + part.children.back() : "");
  if (levels > 0) d.title += ", first " + std::to_string(levels) + (levels == 1 ? " level" : " levels");
  const Counts counts = counts_of(report);
  // The boxes: top-level nodes in report.json's order (or `root` alone), each with its descendants depth first.
  std::map<std::string, std::vector<const Json*>> children;
  std::vector<const Json*> roots;
  if (tax.contains("nodes") && tax["nodes"].is_array())
    for (const auto& n : tax["nodes"]) {
      const bool top = !(n.contains("parent") && n["parent"].is_string());
      if (!top) children[n["parent"].get<std::string>()].push_back(&n);
      if (part.node.empty() ? top : str(n, "id") == part.node) roots.push_back(&n);
    }
  bool any_added = false;
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
      // A node the taxonomy's history added after its first version (from the interviews): marked "+".
      if (n->contains("added_in")) {
        e.name += " +";
        any_added = true;
      }
      e.depth = depth;
      if (auto c = counts.of.find(str(*n, "id")); c != counts.of.end()) e.counts = c->second;
      box.entries.push_back(std::move(e));
      if (levels > 0 && depth + 1 >= levels) continue;
      if (part.collapsed.count(str(*n, "id"))) continue;  // its sub-nodes are in a figure of their own
      const auto& kids = children[str(*n, "id")];
      for (auto k = kids.rbegin(); k != kids.rend(); ++k)
        if (depth > 0 || part.children.empty() ||
            std::find(part.children.begin(), part.children.end(), str(**k, "id")) != part.children.end())
          stack.emplace_back(*k, depth + 1);
    }
    boxes.push_back(std::move(box));
  }
  std::vector<std::string> footnote = counts.footnote;
  if (any_added) footnote.push_back("+: added to the taxonomy after its first version, from the interviews (taxonomy-diff.md).");
  // The footnote's lines, and the height left for the boxes.
  std::vector<std::string> foot_lines;
  for (const auto& f : footnote)
    for (const auto& l : wrap(f, kSmallSize, width - 2 * kMargin)) foot_lines.push_back(l);
  const double foot_h = foot_lines.empty() ? 0 : 4 + foot_lines.size() * (kSmallSize + 2) + 3;
  const double room = kMaxHeight - 2 * kMargin - foot_h;
  const double gutter = 8;
  std::vector<double> count_w(counts.columns, 0);
  for (const auto& b : boxes)
    for (const auto& e : b.entries)
      for (std::size_t k = 0; k < e.counts.size() && k < count_w.size(); ++k)
        count_w[k] = std::max(count_w[k], text_width(e.counts[k], kLabelSize, true));
  double counts_total = 0;
  for (double w : count_w) counts_total += w + 5;
  std::map<int, double> id_w_of;
  for (const auto& b : boxes)
    for (const auto& e : b.entries) id_w_of[e.depth] = std::max(id_w_of[e.depth], text_width(e.id, kLabelSize, e.depth == 0) + 4);
  // The layout for `columns` columns of boxes: entries wrapped to the column, then flowed into the columns with
  // at most `limit` points each, a box going on in the next column where it must. The fewest columns whose
  // flow fits the page (one for a narrow figure; two or three for a wide one), with the lowest limit that still
  // fits them (balanced columns).
  double box_w = 0;
  std::vector<std::vector<Laid>> laid;
  std::vector<Piece> pieces;
  auto lay_out = [&](int columns) {
    box_w = (width - 2 * kMargin - (columns - 1) * gutter) / columns;
    auto room_of = [&](int depth) { return box_w - 2 * kPad - depth * kIndent - counts_total - 4; };
    laid.assign(boxes.size(), {});
    for (std::size_t i = 0; i < boxes.size(); ++i)
      for (const auto& e : boxes[i].entries) {
        Laid l;
        l.id_w = std::min(id_w_of[e.depth], room_of(e.depth) * 0.5);
        l.id_lines = wrap(e.id, kLabelSize, l.id_w - 4, e.depth == 0);
        l.name_lines = wrap(e.name, kLabelSize, std::max(room_of(e.depth) - l.id_w, 20.0), e.depth == 0);
        laid[i].push_back(std::move(l));
      }
  };
  auto entry_h = [&](std::size_t box, std::size_t k) { return laid[box][k].lines() * kLine + (k == 0 ? 2 : 0); };
  // Flows into columns of at most `limit`; false when more than `columns` are needed.
  auto flow = [&](int columns, double limit) {
    pieces.clear();
    int col = 0;
    double y = kMargin;
    for (std::size_t b = 0; b < boxes.size(); ++b) {
      std::size_t k = 0;
      bool continued = false;
      while (k < boxes[b].entries.size()) {
        const double head = continued ? kLine + 2 : 0;
        Piece p{b, k, k, continued, col, y, 2 * kPad + head};
        while (p.to < boxes[b].entries.size() && y + p.height + entry_h(b, p.to) - kMargin <= limit) p.height += entry_h(b, p.to++);
        if (p.to == p.from) {  // nothing more fits this column
          if (y == kMargin) return false;  // an entry taller than a column
          if (++col >= columns) return false;
          y = kMargin;
          continue;
        }
        pieces.push_back(p);
        y += p.height + gutter;
        k = p.to;
        if (k < boxes[b].entries.size()) {
          continued = true;
          if (++col >= columns) return false;
          y = kMargin;
        }
      }
    }
    return true;
  };
  const std::vector<int> options = width < 400 ? std::vector<int>{1} : std::vector<int>{2, 3};
  int columns = options.back();
  bool fits = false;
  for (int c : options) {
    lay_out(c);
    if (flow(c, room)) {
      columns = c;
      fits = true;
      break;
    }
  }
  if (!fits) {
    // Taller than a page at the most columns: drawn as tall as it must be (figure_report splits such a
    // taxonomy into parts that fit; only a name longer than a page comes here).
    lay_out(columns);
    double lo = room, hi = 1e6;
    while (!flow(columns, hi)) hi *= 2;
    while (hi - lo > 1) {
      const double mid = (lo + hi) / 2;
      (flow(columns, mid) ? hi : lo) = mid;
    }
    flow(columns, hi);
  } else if (columns > 1) {
    double lo = 0, hi = room;
    while (hi - lo > 1) {
      const double mid = (lo + hi) / 2;
      (flow(columns, mid) ? hi : lo) = mid;
    }
    flow(columns, hi);
  }
  double bottom = kMargin;
  for (const Piece& p : pieces) {
    const double x = kMargin + p.column * (box_w + gutter);
    Paint frame;
    frame.stroke = palette::grey;
    frame.width = 0.6;
    d.rect(x, p.y, box_w, p.height, frame);
    double line_y = p.y + kPad;
    if (p.continued) {
      const Entry& top = boxes[p.box].entries[0];
      d.text({x + kPad, line_y + kLabelSize}, top.id + " (continued)", kLabelSize, Anchor::start, true, palette::grey);
      line_y += kLine;
      d.line({x, line_y + 1}, {x + box_w, line_y + 1}, palette::light_grey, 0.5);
      line_y += 2;
    }
    for (std::size_t k = p.from; k < p.to; ++k) {
      const Entry& e = boxes[p.box].entries[k];
      const Laid& l = laid[p.box][k];
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
    bottom = std::max(bottom, p.y + p.height);
  }
  double y = bottom + 4;
  if (!foot_lines.empty()) {
    for (const auto& line : foot_lines) {
      y += kSmallSize + 2;
      d.text({kMargin, y}, line, kSmallSize, Anchor::start, false, palette::grey);
    }
    y += 3;
  }
  d.height = std::ceil(y + kMargin);
  return d;
}

}  // namespace qualrank::figure
