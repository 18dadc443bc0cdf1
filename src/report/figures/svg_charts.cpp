// SVG chart drawing. Layout is computed in user units; each chart carries a viewBox and width="100%" so it
// scales from 1280 px screens down to print width. Text is drawn in the page's system font stack.
#include "qualrank/report/figures/svg_charts.h"
#include "qualrank/util/text.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace qualrank::svg {

namespace {

constexpr const char* kBlue = "#0072B2";
constexpr const char* kOrange = "#E69F00";
constexpr const char* kVermillion = "#D55E00";
constexpr const char* kGrey = "#8c8c8c";

std::string num(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", x);
  return buf;
}

std::string fixed2(double x) {
  std::string s = text::fixed(x, 2);  // no sign on a value shown as zero
  return s == "0.00" || s[0] == '-' ? s : "+" + s;
}

std::string open_svg(double w, double h, const std::string& title) {
  std::ostringstream s;
  s << "<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 " << num(w) << ' ' << num(h)
    << "\" width=\"100%\" role=\"img\" aria-label=\"" << escape(title) << "\"><title>" << escape(title) << "</title>";
  return s.str();
}

// Splits a label into lines of at most `width` code points at spaces (a longer word keeps its own line).
std::vector<std::string> wrap_words(const std::string& label, std::size_t width) {
  std::vector<std::string> lines;
  std::string line;
  auto length = [](const std::string& s) {
    std::size_t n = 0;
    for (unsigned char c : s) n += (c & 0xC0) != 0x80;
    return n;
  };
  std::size_t start = 0;
  while (start <= label.size()) {
    auto sp = label.find(' ', start);
    std::string word = label.substr(start, sp == std::string::npos ? std::string::npos : sp - start);
    if (!word.empty()) {
      if (!line.empty() && length(line) + 1 + length(word) > width) {
        lines.push_back(line);
        line.clear();
      }
      line += (line.empty() ? "" : " ") + word;
    }
    if (sp == std::string::npos) break;
    start = sp + 1;
  }
  if (!line.empty() || lines.empty()) lines.push_back(line);
  return lines;
}


// A label's <text> of `lines` (wrap_words) at x, its lines `line_h` apart, centred on `mid`; `attrs` go on
// the <text>. Names are never cut: a long one takes more lines, and the charts make its row higher.
std::string text_lines(double x, double mid, double line_h, const std::vector<std::string>& lines, const std::string& attrs) {
  std::ostringstream s;
  const double first = mid - line_h * static_cast<double>(lines.size() - 1) / 2 + 4;
  s << "<text x=\"" << num(x) << "\" y=\"" << num(first) << "\"" << attrs << ">";
  if (lines.size() == 1) {
    s << escape(lines[0]);
  } else {
    for (std::size_t i = 0; i < lines.size(); ++i)
      s << "<tspan x=\"" << num(x) << "\"" << (i ? " dy=\"" + num(line_h) + "\"" : "") << ">" << escape(lines[i]) << "</tspan>";
  }
  s << "</text>";
  return s.str();
}

std::string exact(double x) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", x);
  return buf;
}

// Okabe-Ito colours and a shape per series, so colour is never the only cue.
constexpr const char* kSeriesColours[] = {"#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9"};

std::string marker(std::size_t series, double x, double y) {
  const char* colour = kSeriesColours[series % 6];
  const double r = 5.5;
  std::ostringstream s;
  switch (series % 5) {
    case 0: s << "<circle cx=\"" << num(x) << "\" cy=\"" << num(y) << "\" r=\"" << num(r) << "\""; break;
    case 1: s << "<rect x=\"" << num(x - r) << "\" y=\"" << num(y - r) << "\" width=\"" << num(2 * r) << "\" height=\"" << num(2 * r) << "\""; break;
    case 2: s << "<polygon points=\"" << num(x) << ',' << num(y - r - 1) << ' ' << num(x + r + 1) << ',' << num(y + r) << ' ' << num(x - r - 1) << ','
              << num(y + r) << "\""; break;
    case 3: s << "<polygon points=\"" << num(x) << ',' << num(y - r - 1) << ' ' << num(x + r + 1) << ',' << num(y) << ' ' << num(x) << ','
              << num(y + r + 1) << ' ' << num(x - r - 1) << ',' << num(y) << "\""; break;
    default: s << "<polygon points=\"" << num(x) << ',' << num(y + r + 1) << ' ' << num(x + r + 1) << ',' << num(y - r) << ' ' << num(x - r - 1) << ','
               << num(y - r) << "\""; break;
  }
  s << " fill=\"" << colour << "\" stroke=\"#1a1a1a\" stroke-width=\"0.8\"/>";
  return s.str();
}

// A tick step of 1, 2 or 5 times a power of ten giving about `target` ticks over `span`.
double tick_step(double span, int target) {
  double raw = span / target, p = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * p >= raw) return m * p;
  return 10 * p;
}

}  // namespace

std::string escape(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string slope_chart(const std::string& title, const std::string& label_a, const std::string& label_b,
                        const std::vector<SlopeItem>& items) {
  const double line_h = 16, top = 48, left_x = 350, right_x = 550, width = 900;
  // A row per position, as high as the labels at it on either side (stacked when tied; names wrap at 34 code
  // points, never cut).
  int rows = 0;
  for (const auto& it : items) rows = std::max({rows, it.position_a + it.tied_a - 1, it.position_b + it.tied_b - 1});
  auto places = [](int pos, int tied) {
    return tied > 1 ? std::to_string(pos) + "\u2013" + std::to_string(pos + tied - 1) : std::to_string(pos);
  };
  std::vector<std::vector<std::string>> labels_a, labels_b;
  std::vector<double> lines_a(rows + 1, 0), lines_b(rows + 1, 0);  // label lines at each position
  for (const auto& it : items) {
    const std::string mark = it.highlighted ? " ⚑" : "";
    labels_a.push_back(wrap_words(places(it.position_a, it.tied_a) + ". " + it.id + ' ' + it.name + mark, 34));
    labels_b.push_back(wrap_words(places(it.position_b, it.tied_b) + ". " + it.id + ' ' + it.name + mark, 34));
    if (it.position_a > 0) lines_a[it.position_a] += static_cast<double>(labels_a.back().size());
    if (it.position_b > 0) lines_b[it.position_b] += static_cast<double>(labels_b.back().size());
  }
  // A position's height: its labels (a tier's rows are one position's, the tier's other places are empty).
  std::vector<double> tops = {top};
  for (int p = 1; p <= rows; ++p) tops.push_back(tops.back() + std::max(lines_a[p] || lines_b[p] ? 26.0 : 0.0, line_h * std::max(lines_a[p], lines_b[p]) + 10));
  const double height = tops.back() + 16;
  std::ostringstream s;
  s << open_svg(width, height, title);
  s << "<text x=\"" << num(left_x) << "\" y=\"24\" text-anchor=\"middle\" class=\"axis\">" << escape(label_a) << "</text>";
  s << "<text x=\"" << num(right_x) << "\" y=\"24\" text-anchor=\"middle\" class=\"axis\">" << escape(label_b) << "</text>";
  auto y = [&](int pos) { return pos >= 1 && pos <= rows ? (tops[pos - 1] + tops[pos]) / 2 : top; };
  // Where each item's label goes: tied items' labels stacked around their shared y, in the items' order.
  std::vector<double> label_y_a(items.size()), label_y_b(items.size());
  for (int side = 0; side < 2; ++side) {
    std::vector<double> used(rows + 1, 0);
    const auto& lines = side == 0 ? lines_a : lines_b;
    for (std::size_t i = 0; i < items.size(); ++i) {
      const int pos = side == 0 ? items[i].position_a : items[i].position_b;
      const double n = static_cast<double>((side == 0 ? labels_a : labels_b)[i].size());
      const double mid = pos >= 1 && pos <= rows ? y(pos) - line_h * lines[pos] / 2 + line_h * (used[pos] + n / 2) : top;
      if (pos >= 1 && pos <= rows) used[pos] += n;
      (side == 0 ? label_y_a : label_y_b)[i] = mid;
    }
  }
  // Plain lines first, highlighted ones on top.
  for (int pass = 0; pass < 2; ++pass) {
    for (std::size_t i = 0; i < items.size(); ++i) {
      const auto& it = items[i];
      if (it.highlighted != (pass == 1)) continue;
      const char* colour = it.highlighted ? kVermillion : kBlue;
      double ya = y(it.position_a), yb = y(it.position_b);
      s << "<g class=\"slope" << (it.highlighted ? " highlighted" : "") << "\"><line x1=\"" << num(left_x) << "\" y1=\"" << num(ya)
        << "\" x2=\"" << num(right_x) << "\" y2=\"" << num(yb) << "\" stroke=\"" << colour << "\" stroke-width=\""
        << (it.highlighted ? "4" : "2") << "\"" << (it.highlighted ? " stroke-dasharray=\"10 4\"" : "") << "/>";
      s << "<circle cx=\"" << num(left_x) << "\" cy=\"" << num(ya) << "\" r=\"5\" fill=\"" << colour << "\"/>";
      s << "<circle cx=\"" << num(right_x) << "\" cy=\"" << num(yb) << "\" r=\"5\" fill=\"" << colour << "\"/>";
      const std::string bold = it.highlighted ? " font-weight=\"bold\"" : "";
      s << text_lines(left_x - 12, label_y_a[i], line_h, labels_a[i], " text-anchor=\"end\"" + bold);
      s << text_lines(right_x + 12, label_y_b[i], line_h, labels_b[i], bold) << "</g>";
    }
  }
  s << "</svg>";
  return s.str();
}

std::string diverging_bar_chart(const std::string& title, const std::string& negative_label,
                                const std::string& positive_label, const std::vector<Bar>& bars) {
  const double line_h = 16, top = 44, width = 900, label_w = 300, plot_l = label_w + 60, plot_r = width - 60;
  // A row per bar, as high as its label (names wrap at 32 code points, never cut).
  std::vector<std::vector<std::string>> labels;
  std::vector<double> tops = {top};
  for (const auto& b : bars) {
    labels.push_back(wrap_words(b.id + ' ' + b.name + (b.highlighted ? " ⚑" : ""), 32));
    tops.push_back(tops.back() + std::max(24.0, line_h * static_cast<double>(labels.back().size()) + 8));
  }
  const double height = tops.back() + 30;
  double max_abs = 0;
  for (const auto& b : bars)
    if (!std::isnan(b.value)) max_abs = std::max(max_abs, std::fabs(b.value));
  // At least one rank position of scale, so tiny gaps do not fill the chart.
  max_abs = std::max(max_abs, 1.0);
  const double zero = (plot_l + plot_r) / 2, half = (plot_r - plot_l) / 2;
  std::ostringstream s;
  s << open_svg(width, height, title);
  // The legend is the axis: each side's label next to a swatch of its bar colour; the outline marks flagged bars.
  s << "<g class=\"gap-legend\"><rect x=\"" << num(zero - 22) << "\" y=\"11\" width=\"14\" height=\"14\" fill=\"" << kOrange
    << "\" data-side=\"negative\"/><text x=\"" << num(zero - 28) << "\" y=\"22\" text-anchor=\"end\" class=\"axis\">← "
    << escape(negative_label) << "</text>";
  s << "<rect x=\"" << num(zero + 8) << "\" y=\"11\" width=\"14\" height=\"14\" fill=\"" << kBlue
    << "\" data-side=\"positive\"/><text x=\"" << num(zero + 28) << "\" y=\"22\" class=\"axis\">" << escape(positive_label)
    << " →</text></g>";
  for (std::size_t i = 0; i < bars.size(); ++i) {
    const auto& b = bars[i];
    const double y0 = tops[i], row = tops[i + 1] - tops[i];
    double len = std::isnan(b.value) ? 0 : std::fabs(b.value) / max_abs * half;
    double x = b.value < 0 ? zero - len : zero;
    const char* colour = b.value < 0 ? kOrange : kBlue;  // the colour of its side's legend swatch
    s << "<g class=\"bar" << (b.highlighted ? " highlighted" : "") << "\">";
    s << text_lines(label_w, y0 + row / 2, line_h, labels[i], std::string(" text-anchor=\"end\"") + (b.highlighted ? " font-weight=\"bold\"" : ""));
    s << "<rect x=\"" << num(x) << "\" y=\"" << num(y0 + row / 2 - 8) << "\" width=\"" << num(std::max(len, 1.0)) << "\" height=\""
      << num(16.0) << "\" fill=\"" << colour << "\"" << (b.highlighted ? " stroke=\"#000\" stroke-width=\"2.5\"" : "") << "/>";
    double tx = b.value < 0 ? x - 6 : x + len + 6;
    s << "<text x=\"" << num(tx) << "\" y=\"" << num(y0 + row / 2 + 4) << "\"" << (b.value < 0 ? " text-anchor=\"end\"" : "")
      << " class=\"value\">" << (std::isnan(b.value) ? "n/a" : fixed2(b.value)) << "</text></g>";
  }
  s << "<line x1=\"" << num(zero) << "\" y1=\"" << num(top - 4) << "\" x2=\"" << num(zero) << "\" y2=\""
    << num(tops.back()) << "\" stroke=\"" << kGrey << "\"/>";
  s << "</svg>";
  return s.str();
}

namespace {

// The sequential blue scale of the heatmap: lightness falls linearly with the share t in [0, 1] (#f7fbff at 0,
// #08519c at 1).
std::array<int, 3> heat_rgb(double t) {
  t = std::clamp(t, 0.0, 1.0);
  return {static_cast<int>(std::lround(247 - t * (247 - 8))), static_cast<int>(std::lround(251 - t * (251 - 81))),
          static_cast<int>(std::lround(255 - t * (255 - 156)))};
}

std::string hex(const std::array<int, 3>& rgb) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", rgb[0], rgb[1], rgb[2]);
  return buf;
}

// WCAG 2.1 relative luminance of an sRGB colour, and the text colour (black or white) with the larger contrast
// ratio against it. Black rather than the page's near-black ink: with black and white one of the two reaches
// at least 4.58:1 on any fill (WCAG AA for normal text asks 4.5:1); with #1a1a1a mid-blue fills reach 4.1.
const char* text_colour_on(const std::array<int, 3>& rgb) {
  auto lin = [](int c) {
    double v = c / 255.0;
    return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
  };
  double l = 0.2126 * lin(rgb[0]) + 0.7152 * lin(rgb[1]) + 0.0722 * lin(rgb[2]);
  double on_white = 1.05 / (l + 0.05), on_black = (l + 0.05) / 0.05;
  return on_white > on_black ? "#ffffff" : "#000000";
}

}  // namespace

std::string heatmap(const Heatmap& h) {
  const double cell_w = 120, cell_h = 26, label_w = 420, line_h = 15, legend_h = 44;
  const std::size_t wrap = 13;  // code points per header line: bold 13 px text stays inside a 120-unit column
  std::vector<std::vector<std::string>> headers;
  std::size_t header_lines = 1;
  for (const auto& label : h.column_labels) {
    headers.push_back(wrap_words(label, wrap));
    header_lines = std::max(header_lines, headers.back().size());
  }
  const double top = 12 + line_h * static_cast<double>(header_lines);
  const double width = std::max(label_w + cell_w * static_cast<double>(h.column_labels.size()) + 20, label_w + 360);
  // A row per label, as high as its label (wrapped at 60 code points, never cut).
  std::vector<std::vector<std::string>> row_lines;
  std::vector<double> tops = {top};
  for (const auto& label : h.row_labels) {
    row_lines.push_back(wrap_words(label, 60));
    tops.push_back(tops.back() + std::max(cell_h, line_h * static_cast<double>(row_lines.back().size()) + 10));
  }
  const double grid_bottom = tops.back();
  const double height = grid_bottom + 16 + legend_h;
  std::ostringstream s;
  s << open_svg(width, height, h.title);
  // Column headers: horizontal, wrapped at spaces, bottom-aligned above their column; never cut.
  for (std::size_t c = 0; c < headers.size(); ++c) {
    double x = label_w + cell_w * (static_cast<double>(c) + 0.5);
    double y = top - 6 - line_h * static_cast<double>(headers[c].size() - 1);
    s << "<text class=\"axis heat-column\" text-anchor=\"middle\" x=\"" << num(x) << "\" y=\"" << num(y) << "\">";
    for (std::size_t i = 0; i < headers[c].size(); ++i)
      s << "<tspan x=\"" << num(x) << "\"" << (i ? " dy=\"" + num(line_h) + "\"" : "") << ">" << escape(headers[c][i]) << "</tspan>";
    s << "</text>";
  }
  for (std::size_t r = 0; r < h.row_labels.size(); ++r) {
    const double y = tops[r], row_h = tops[r + 1] - tops[r];
    s << text_lines(label_w - 8, y + row_h / 2, line_h, row_lines[r], " text-anchor=\"end\" class=\"heat-row\"");
    for (std::size_t c = 0; c < h.column_labels.size(); ++c) {
      double v = r < h.values.size() && c < h.values[r].size() ? h.values[r][c] : std::nan("");
      std::array<int, 3> rgb{242, 242, 242};  // no share (an empty group): light grey
      if (!std::isnan(v)) rgb = heat_rgb(v);
      double x = label_w + cell_w * static_cast<double>(c);
      s << "<rect x=\"" << num(x + 1) << "\" y=\"" << num(y + 1) << "\" width=\"" << num(cell_w - 2) << "\" height=\""
        << num(row_h - 2) << "\" fill=\"" << hex(rgb) << "\"/>";
      std::string label = r < h.cell_text.size() && c < h.cell_text[r].size() ? h.cell_text[r][c] : "";
      // The colour as a style: the page's `svg.chart text { fill }` rule would override a fill attribute.
      s << "<text x=\"" << num(x + cell_w / 2) << "\" y=\"" << num(y + row_h / 2 + 4) << "\" text-anchor=\"middle\" class=\"value heat-value\""
        << " style=\"fill:" << text_colour_on(rgb) << "\">" << escape(label) << "</text>";
    }
  }
  // Legend: the scale at 0, 25, 50, 75 and 100% of the group.
  double ly = grid_bottom + 16;
  s << "<g class=\"heat-legend\"><text x=\"" << num(label_w - 8) << "\" y=\"" << num(ly + 17) << "\" text-anchor=\"end\" class=\"axis\">"
    << escape(h.legend_label.empty() ? "share of the group" : h.legend_label) << "</text>";
  for (int i = 0; i <= 4; ++i) {
    double t = i / 4.0, x = label_w + 68.0 * i;
    auto rgb = heat_rgb(t);
    s << "<rect x=\"" << num(x + 1) << "\" y=\"" << num(ly) << "\" width=\"66\" height=\"24\" fill=\"" << hex(rgb)
      << "\" stroke=\"#d0d0d0\"/><text x=\"" << num(x + 34) << "\" y=\"" << num(ly + 16) << "\" text-anchor=\"middle\" style=\"fill:"
      << text_colour_on(rgb) << "\">" << i * 25 << "%</text>";
  }
  s << "</g></svg>";
  return s.str();
}

std::string forest_plot(const ForestPlot& f) {
  const std::size_t groups = f.series.size(), rows = f.row_ids.size();
  const double sub = 15, row_h = sub * static_cast<double>(std::max<std::size_t>(groups, 1)) + 12;
  const double width = 900, label_w = 300, plot_l = 330, plot_r = width - 30, legend_h = 30, top = 20 + legend_h;
  // A row per item, as high as its label needs (names wrap at 34 code points, never cut).
  const double line_h = 16;
  std::vector<std::vector<std::string>> row_lines;
  std::vector<double> tops = {top};
  for (std::size_t r = 0; r < rows; ++r) {
    row_lines.push_back(wrap_words(f.row_ids[r] + ' ' + (r < f.row_names.size() ? f.row_names[r] : ""), 34));
    tops.push_back(tops.back() + std::max(row_h, line_h * static_cast<double>(row_lines.back().size()) + 10));
  }
  const double plot_b = tops.back(), height = plot_b + 56;
  double lo = 0, hi = 0;  // 0 (the reference) is always on the axis
  for (const auto& s : f.series)
    for (std::size_t r = 0; r < s.estimate.size(); ++r)
      if (std::isfinite(s.estimate[r]) && std::isfinite(s.half_width[r])) {
        lo = std::min(lo, s.estimate[r] - s.half_width[r]);
        hi = std::max(hi, s.estimate[r] + s.half_width[r]);
      }
  if (hi - lo < 1e-9) hi = lo + 1;
  const double step = tick_step(hi - lo, 6);
  lo = std::floor(lo / step) * step;
  hi = std::ceil(hi / step) * step;
  auto x = [&](double v) { return plot_l + (v - lo) / (hi - lo) * (plot_r - plot_l); };
  std::ostringstream s;
  s << open_svg(width, height, f.title);
  // Legend.
  double lx = plot_l;
  for (std::size_t g = 0; g < groups; ++g) {
    const std::string& legend = f.series[g].legend.empty() ? f.series[g].label : f.series[g].legend;
    s << "<g class=\"legend-entry\">" << marker(g, lx + 6, 20) << "<text x=\"" << num(lx + 18) << "\" y=\"24\">" << escape(legend)
      << "</text></g>";
    lx += 30 + 8.0 * static_cast<double>(legend.size());
  }
  // Grid, ticks and the zero line.
  for (double v = lo; v <= hi + step / 2; v += step) {
    double xv = x(v), shown = std::fabs(v) < step / 1e6 ? 0.0 : v;
    s << "<line x1=\"" << num(xv) << "\" y1=\"" << num(top) << "\" x2=\"" << num(xv) << "\" y2=\"" << num(plot_b) << "\" stroke=\"#e4e4e4\"/>";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", shown);
    s << "<text x=\"" << num(xv) << "\" y=\"" << num(plot_b + 16) << "\" text-anchor=\"middle\" class=\"tick\">" << buf << "</text>";
  }
  s << "<line x1=\"" << num(x(0)) << "\" y1=\"" << num(top) << "\" x2=\"" << num(x(0)) << "\" y2=\"" << num(plot_b)
    << "\" stroke=\"" << kGrey << "\" stroke-dasharray=\"5 4\"/>";
  s << "<text x=\"" << num((plot_l + plot_r) / 2) << "\" y=\"" << num(plot_b + 40) << "\" text-anchor=\"middle\" class=\"axis\">"
    << escape(f.x_label) << "</text>";
  for (std::size_t r = 0; r < rows; ++r) {
    const double y0 = tops[r], this_h = tops[r + 1] - tops[r];
    if (r % 2 == 1)
      s << "<rect x=\"0\" y=\"" << num(y0) << "\" width=\"" << num(plot_r) << "\" height=\"" << num(this_h) << "\" fill=\"#f6f8fa\" fill-opacity=\"0.6\"/>";
    s << text_lines(label_w, y0 + this_h / 2, line_h, row_lines[r], " text-anchor=\"end\"");
    for (std::size_t g = 0; g < groups; ++g) {
      const auto& se = f.series[g];
      if (r >= se.estimate.size() || !std::isfinite(se.estimate[r])) continue;
      const double est = se.estimate[r], hw = std::isfinite(se.half_width[r]) ? se.half_width[r] : 0.0;
      const double y = y0 + (this_h - row_h) / 2 + 6 + sub * (static_cast<double>(g) + 0.5);
      s << "<g class=\"forest-point\" data-item=\"" << escape(f.row_ids[r]) << "\" data-group=\"" << escape(se.label) << "\" data-estimate=\""
        << exact(est) << "\" data-lo=\"" << exact(est - hw) << "\" data-hi=\"" << exact(est + hw) << "\">";
      s << "<line x1=\"" << num(x(est - hw)) << "\" y1=\"" << num(y) << "\" x2=\"" << num(x(est + hw)) << "\" y2=\"" << num(y) << "\" stroke=\""
        << kSeriesColours[g % 6] << "\" stroke-width=\"2.5\"/>";
      s << marker(g, x(est), y) << "</g>";
    }
  }
  s << "</svg>";
  return s.str();
}

std::string saturation_chart(const SaturationChart& c) {
  const double width = 900, height = 320, left = 60, right = width - 20, top = 40, bottom = height - 50;
  const std::size_t n = c.points.size();
  int top_value = 1;
  for (const auto& p : c.points) top_value = std::max({top_value, p.cumulative, p.new_codes});
  const double slot = n ? (right - left) / static_cast<double>(n) : 0;
  auto x_of = [&](std::size_t k) { return left + slot * (static_cast<double>(k) + 0.5); };  // k 0-based
  auto y_of = [&](double v) { return bottom - (bottom - top) * v / top_value; };
  std::ostringstream s;
  s << open_svg(width, height, c.title);
  if (c.base > 0 && n > 0) {
    const double w = slot * std::min<double>(c.base, static_cast<double>(n));
    s << "<rect class=\"sat-base\" x=\"" << num(left) << "\" y=\"" << num(top) << "\" width=\"" << num(w) << "\" height=\""
      << num(bottom - top) << "\" fill=\"#eeeeee\"/><text x=\"" << num(left + 4) << "\" y=\"" << num(top + 14)
      << "\" class=\"axis\">base (" << c.base << ")</text>";
  }
  // Axis: 0, half and the top value, and the interview numbers (every one up to 30, else every tenth).
  for (int v : {0, top_value / 2, top_value}) {
    s << "<line x1=\"" << num(left) << "\" y1=\"" << num(y_of(v)) << "\" x2=\"" << num(right) << "\" y2=\"" << num(y_of(v))
      << "\" stroke=\"#dddddd\"/><text x=\"" << num(left - 6) << "\" y=\"" << num(y_of(v) + 4)
      << "\" text-anchor=\"end\" class=\"axis\">" << v << "</text>";
  }
  for (std::size_t k = 0; k < n; ++k) {
    const auto& p = c.points[k];
    const double bar = std::max(slot * 0.6, 1.0);
    const double y = y_of(p.new_codes);
    s << "<rect class=\"sat-new\" data-interview=\"" << k + 1 << "\" data-id=\"" << escape(p.id) << "\" data-new=\""
      << p.new_codes << "\" x=\"" << num(x_of(k) - bar / 2) << "\" y=\"" << num(y) << "\" width=\"" << num(bar)
      << "\" height=\"" << num(bottom - y) << "\" fill=\"" << kOrange << "\"><title>" << escape(p.id) << ": " << p.new_codes
      << " new, " << p.cumulative << " in all</title></rect>";
    if (n <= 30 || (k + 1) % 10 == 0 || k == 0)
      s << "<text x=\"" << num(x_of(k)) << "\" y=\"" << num(bottom + 16) << "\" text-anchor=\"middle\" class=\"axis\">" << k + 1
        << "</text>";
  }
  if (n > 0) {
    s << "<polyline class=\"sat-line\" fill=\"none\" stroke=\"" << kBlue << "\" stroke-width=\"2\" points=\"";
    for (std::size_t k = 0; k < n; ++k) s << (k ? " " : "") << num(x_of(k)) << ',' << num(y_of(c.points[k].cumulative));
    s << "\"/>";
    for (std::size_t k = 0; k < n; ++k)
      s << "<circle class=\"sat-cum\" data-interview=\"" << k + 1 << "\" data-cumulative=\"" << c.points[k].cumulative
        << "\" cx=\"" << num(x_of(k)) << "\" cy=\"" << num(y_of(c.points[k].cumulative)) << "\" r=\"3\" fill=\"" << kBlue << "\"/>";
  }
  if (c.saturated_at > 0 && static_cast<std::size_t>(c.saturated_at) <= n) {
    const double x = left + slot * c.saturated_at;
    s << "<line class=\"sat-reached\" x1=\"" << num(x) << "\" y1=\"" << num(top) << "\" x2=\"" << num(x) << "\" y2=\"" << num(bottom)
      << "\" stroke=\"#000\" stroke-dasharray=\"5,4\"/><text x=\"" << num(x + 4) << "\" y=\"" << num(top + 28)
      << "\" class=\"axis\">saturation after " << c.saturated_at << "</text>";
  }
  // Legend: a swatch per series (the line is also drawn with points, the bars are filled: not colour alone).
  s << "<g class=\"sat-legend\"><rect x=\"" << num(left) << "\" y=\"10\" width=\"14\" height=\"14\" fill=\"" << kOrange
    << "\"/><text x=\"" << num(left + 20) << "\" y=\"22\" class=\"axis\">new codes in the interview</text><line x1=\"" << num(left + 230)
    << "\" y1=\"17\" x2=\"" << num(left + 254) << "\" y2=\"17\" stroke=\"" << kBlue << "\" stroke-width=\"2\"/><circle cx=\""
    << num(left + 242) << "\" cy=\"17\" r=\"3\" fill=\"" << kBlue << "\"/><text x=\"" << num(left + 260)
    << "\" y=\"22\" class=\"axis\">distinct codes so far</text><text x=\"" << num((left + right) / 2) << "\" y=\""
    << num(height - 12) << "\" text-anchor=\"middle\" class=\"axis\">interview, in interview order</text></g>";
  s << "</svg>";
  return s.str();
}

}  // namespace qualrank::svg
