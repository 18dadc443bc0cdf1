// Inline SVG charts for the self-contained HTML report: no scripts, no fonts, no network. Colours from the
// Okabe-Ito palette (distinguishable with common colour-vision deficiencies); highlighted items are also
// drawn thicker and marked with a symbol, so colour is never the only cue.
#pragma once
#include <string>
#include <vector>

namespace qualrank::svg {

// Escapes text for HTML/SVG content and attributes.
std::string escape(const std::string& s);

struct SlopeItem {
  std::string id;
  std::string name;
  int position_a = 0;  // 1-based consensus position in group a (the first place of its tier when tied)
  int position_b = 0;
  int tied_a = 1;      // the items sharing the position in group a (equal mean rank), this one among them
  int tied_b = 1;
  bool highlighted = false;
};
// Group a's consensus positions on the left, group b's on the right, a line per item. Tied items share their
// position's y ("5–6." before each of their labels, stacked one under the other).
std::string slope_chart(const std::string& title, const std::string& label_a, const std::string& label_b,
                        const std::vector<SlopeItem>& items);

struct Bar {
  std::string id;
  std::string name;
  double value = 0;  // signed
  bool highlighted = false;
};
// Horizontal bars around zero, in the given order. `negative_label`/`positive_label` explain the sides.
std::string diverging_bar_chart(const std::string& title, const std::string& negative_label,
                                const std::string& positive_label, const std::vector<Bar>& bars);

struct Heatmap {
  std::string title;
  std::vector<std::string> row_labels;
  std::vector<std::string> column_labels;
  std::vector<std::vector<double>> values;   // fractions in [0, 1] (NaN = empty)
  std::vector<std::vector<std::string>> cell_text;
  std::string legend_label;                  // what the colour shows (default "share of the group")
};
// Rows x columns of cells on a sequential blue scale (lightness falls linearly with the fraction), each cell's
// text in the colour (black or white) with the larger WCAG contrast against its fill (at least 4.58:1), column headers
// wrapped at spaces (never cut), and a legend of the scale at 0, 25, 50, 75 and 100%.
std::string heatmap(const Heatmap& h);

struct ForestSeries {
  std::string label;              // the group (data-group)
  std::string legend;             // its legend text (default: label)
  std::vector<double> estimate;   // per row (NaN: not drawn)
  std::vector<double> half_width; // the interval is estimate +- half_width
};
struct ForestPlot {
  std::string title;
  std::string x_label;
  std::vector<std::string> row_ids, row_names;  // top to bottom
  std::vector<ForestSeries> series;             // drawn in each row, one below the other
};
// A forest plot: a horizontal interval and a marker per row and series; each series has its own Okabe-Ito
// colour AND marker shape (circle, square, triangle, diamond, ...), named in a legend. A dashed line marks 0.
// Each point is a <g class="forest-point"> carrying data-item, data-group, data-estimate, data-lo and data-hi
// (%.17g, so a test can compare them with the numbers they came from).
std::string forest_plot(const ForestPlot& f);

struct SaturationPoint {
  std::string id;      // the interview (participant id)
  int new_codes = 0;   // codes first seen in this interview
  int cumulative = 0;  // distinct codes seen up to and including it
};
struct SaturationChart {
  std::string title;
  std::vector<SaturationPoint> points;  // in interview order
  int base = 0;                         // interviews in the base (shaded; 0 = none)
  int saturated_at = 0;                 // interviews before the first saturating run (0 = not reached)
};
// New codes per interview as bars and the cumulative count of distinct codes as a line with points, on one
// axis, in interview order; the base interviews shaded, a dashed line after interview `saturated_at` when
// saturation was reached. Each bar is a <rect class="sat-new"> with data-interview (1-based), data-id and
// data-new; each point a <circle class="sat-cum"> with data-interview and data-cumulative, so a test can
// compare them with report.json.
std::string saturation_chart(const SaturationChart& c);

}  // namespace qualrank::svg
