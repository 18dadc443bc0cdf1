// The figures of report.json as Drawings (figure_drawing.h), each laid out for a given width in points
// (figure::kOneColumn, figure::kTwoColumns): read from report.json only, the numbers as the HTML report shows
// them. The pieces the charts share (axes' ticks, markers, legends, items' labels) are here too.
#pragma once
#include <nlohmann/json.hpp>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "figure_drawing.h"
#include "qualrank/util/json_member.h"

namespace qualrank::figure {

using Json = nlohmann::ordered_json;

// Type sizes of every figure: labels, ticks and legends; 8 pt, the smallest type IEEE's guidelines allow in
// a figure printed at its own size.
inline constexpr double kLabelSize = 8;
inline constexpr double kSmallSize = 8;
inline constexpr double kMargin = 4;

// The slope chart of comparison `c` of question `q`: each item's consensus position in the comparison's first
// group (left) and second group (right), a line between; misaligned items dashed, thicker, vermillion, square
// markers and a bold label with "⚑". Items tied in a group (one tier of "consensus_tiers": equal mean rank)
// share one vertical position, labelled with the places they share ("7–9"), their labels stacked beside it and
// joined by a bracket. Labels wrap onto as many lines as they need; the rows grow to hold them.
Drawing slope_figure(const std::map<std::string, std::string>& names, const Json& q, const Json& c, double width);

// The gap chart of comparison `c`: each item's gap in mean rank (second group minus first) as a bar from 0,
// in report.json's order; misaligned items outlined in black and marked "⚑".
Drawing gaps_figure(const std::map<std::string, std::string>& names, const Json& c, double width);

// The Plackett-Luce forest plot of question `q` (which has a "model"): per item (by overall worth) and group,
// the log-worth with its ±1.96 quasi-SE interval; each group its colour, marker and dash.
Drawing forest_figure(const std::map<std::string, std::string>& names, const Json& q, double width);

// The saturation curve (report.json "saturation"): new codes per interview as bars, distinct codes so far as a
// line with points, the base interviews shaded, a dashed line where saturation was reached.
Drawing saturation_figure(const Json& saturation, double width);

// The taxonomy: a box per top-level node listing its descendants, indented by level, each with its id, name and
// counts (coded segments and participants from the codebook matrix; for a study of label tables only, the
// units labelled under each top-level node).
// A part of the taxonomy to draw: all of it (a box per top-level node), or one node's box.
struct TaxonomyPart {
  std::string node;                    // "": all top-level nodes
  std::vector<std::string> children;   // the node's children drawn, with their sub-nodes (all when empty)
  std::set<std::string> collapsed;     // drawn on their line only: their sub-nodes are in figures of their own
};

// `levels` > 0 lists the nodes of the first `levels` levels only (counted from the part's node). The boxes
// flow into columns so that the figure fits kMaxHeight when it can.
Drawing taxonomy_figure(const Json& report, double width, int levels = 0, const TaxonomyPart& part = {});

// The ids of the children of node `parent` (of the top-level nodes for ""), in report.json's order.
std::vector<std::string> taxonomy_children(const Json& report, const std::string& parent);

// --- shared pieces (figure_common.cpp) ---

// About `max_count` round tick values covering [lo, hi] (steps of 1, 2 or 5 times a power of ten); at least two.
std::vector<double> ticks(double lo, double hi, int max_count);

// A tick's text: as few decimals as the step needs, a minus sign (U+2212) for negatives.
std::string tick_text(double v, double step);

enum class Marker { circle, square, triangle, diamond };

// A marker of `size` points across, centred at `at`, filled with `fill` (outlined in it too).
void marker(Drawing& d, Marker m, Point at, double size, Colour fill);

// One legend entry: a sample line (colour, width, dash; none when width is 0), a marker or a filled box, and
// its words.
struct LegendEntry {
  Colour colour;
  double line_width = 0;
  std::vector<double> dash;
  std::optional<Marker> marker;
  std::optional<Colour> box;       // a filled box instead of a line
  std::optional<Colour> box_edge;  // its outline
  std::string text;
};

// The entries in rows from (x, y) on, breaking a row where the next entry would pass `right`; returns the y
// below the last row.
double legend(Drawing& d, const std::vector<LegendEntry>& entries, double x, double y, double right);

// "ID Name" of a ranked item (its id alone when it has no name, or its name is its id).
std::string item_label(const std::map<std::string, std::string>& names, const std::string& id);

// The string at `key` of `j` ("" when missing or not a string).
using json_member::str;

}  // namespace qualrank::figure
