// SVG chart drawing. Layout is computed in user units; each chart carries a viewBox and width="100%" so it
// scales from 1280 px screens down to print width. Text is drawn in the page's system font stack.
#include "qualrank/report/svg_charts.h"

#include <algorithm>
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
  char buf[32];
  std::snprintf(buf, sizeof buf, "%+.2f", x);
  return buf;
}

std::string open_svg(double w, double h, const std::string& title) {
  std::ostringstream s;
  s << "<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 " << num(w) << ' ' << num(h)
    << "\" width=\"100%\" role=\"img\" aria-label=\"" << escape(title) << "\"><title>" << escape(title) << "</title>";
  return s.str();
}

std::string shorten(const std::string& s, std::size_t max_chars) {
  // count code points
  std::size_t n = 0, cut = s.size();
  for (std::size_t i = 0; i < s.size(); ++i) {
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) {
      if (n == max_chars) {
        cut = i;
        break;
      }
      ++n;
    }
  }
  return cut < s.size() ? s.substr(0, cut) + "…" : s;
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
  const double row = 26, top = 48, left_x = 350, right_x = 550, width = 900;
  const double height = top + row * static_cast<double>(items.size()) + 16;
  std::ostringstream s;
  s << open_svg(width, height, title);
  s << "<text x=\"" << num(left_x) << "\" y=\"24\" text-anchor=\"middle\" class=\"axis\">" << escape(label_a) << "</text>";
  s << "<text x=\"" << num(right_x) << "\" y=\"24\" text-anchor=\"middle\" class=\"axis\">" << escape(label_b) << "</text>";
  auto y = [&](int pos) { return top + row * (pos - 1) + row / 2; };
  // Plain lines first, highlighted ones on top.
  for (int pass = 0; pass < 2; ++pass) {
    for (const auto& it : items) {
      if (it.highlighted != (pass == 1)) continue;
      const char* colour = it.highlighted ? kVermillion : kBlue;
      double ya = y(it.position_a), yb = y(it.position_b);
      s << "<g class=\"slope" << (it.highlighted ? " highlighted" : "") << "\"><line x1=\"" << num(left_x) << "\" y1=\"" << num(ya)
        << "\" x2=\"" << num(right_x) << "\" y2=\"" << num(yb) << "\" stroke=\"" << colour << "\" stroke-width=\""
        << (it.highlighted ? "4" : "2") << "\"" << (it.highlighted ? " stroke-dasharray=\"10 4\"" : "") << "/>";
      s << "<circle cx=\"" << num(left_x) << "\" cy=\"" << num(ya) << "\" r=\"5\" fill=\"" << colour << "\"/>";
      s << "<circle cx=\"" << num(right_x) << "\" cy=\"" << num(yb) << "\" r=\"5\" fill=\"" << colour << "\"/>";
      std::string mark = it.highlighted ? " ⚑" : "";
      s << "<text x=\"" << num(left_x - 12) << "\" y=\"" << num(ya + 4) << "\" text-anchor=\"end\"" << (it.highlighted ? " font-weight=\"bold\"" : "")
        << ">" << it.position_a << ". " << escape(it.id) << ' ' << escape(shorten(it.name, 28)) << escape(mark) << "</text>";
      s << "<text x=\"" << num(right_x + 12) << "\" y=\"" << num(yb + 4) << "\"" << (it.highlighted ? " font-weight=\"bold\"" : "") << ">"
        << it.position_b << ". " << escape(it.id) << ' ' << escape(shorten(it.name, 28)) << escape(mark) << "</text></g>";
    }
  }
  s << "</svg>";
  return s.str();
}

std::string diverging_bar_chart(const std::string& title, const std::string& negative_label,
                                const std::string& positive_label, const std::vector<Bar>& bars) {
  const double row = 24, top = 44, width = 900, label_w = 300, plot_l = label_w + 60, plot_r = width - 60;
  const double height = top + row * static_cast<double>(bars.size()) + 30;
  double max_abs = 0;
  for (const auto& b : bars)
    if (!std::isnan(b.value)) max_abs = std::max(max_abs, std::fabs(b.value));
  // At least one rank position of scale, so tiny gaps do not fill the chart.
  max_abs = std::max(max_abs, 1.0);
  const double zero = (plot_l + plot_r) / 2, half = (plot_r - plot_l) / 2;
  std::ostringstream s;
  s << open_svg(width, height, title);
  s << "<text x=\"" << num(zero - 8) << "\" y=\"22\" text-anchor=\"end\" class=\"axis\">← " << escape(negative_label) << "</text>";
  s << "<text x=\"" << num(zero + 8) << "\" y=\"22\" class=\"axis\">" << escape(positive_label) << " →</text>";
  for (std::size_t i = 0; i < bars.size(); ++i) {
    const auto& b = bars[i];
    double y0 = top + row * static_cast<double>(i);
    double len = std::isnan(b.value) ? 0 : std::fabs(b.value) / max_abs * half;
    double x = b.value < 0 ? zero - len : zero;
    const char* colour = b.value < 0 ? kOrange : kBlue;
    s << "<g class=\"bar" << (b.highlighted ? " highlighted" : "") << "\">";
    s << "<text x=\"" << num(label_w) << "\" y=\"" << num(y0 + row / 2 + 4) << "\" text-anchor=\"end\""
      << (b.highlighted ? " font-weight=\"bold\"" : "") << ">" << escape(b.id) << ' ' << escape(shorten(b.name, 26))
      << (b.highlighted ? " ⚑" : "") << "</text>";
    s << "<rect x=\"" << num(x) << "\" y=\"" << num(y0 + 4) << "\" width=\"" << num(std::max(len, 1.0)) << "\" height=\""
      << num(row - 8) << "\" fill=\"" << colour << "\"" << (b.highlighted ? " stroke=\"#000\" stroke-width=\"2.5\"" : "") << "/>";
    double tx = b.value < 0 ? x - 6 : x + len + 6;
    s << "<text x=\"" << num(tx) << "\" y=\"" << num(y0 + row / 2 + 4) << "\"" << (b.value < 0 ? " text-anchor=\"end\"" : "")
      << " class=\"value\">" << (std::isnan(b.value) ? "n/a" : fixed2(b.value)) << "</text></g>";
  }
  s << "<line x1=\"" << num(zero) << "\" y1=\"" << num(top - 4) << "\" x2=\"" << num(zero) << "\" y2=\""
    << num(top + row * static_cast<double>(bars.size())) << "\" stroke=\"" << kGrey << "\"/>";
  s << "</svg>";
  return s.str();
}

std::string heatmap(const Heatmap& h) {
  const double cell_w = 92, cell_h = 24, label_w = 360, top = 96;
  const double width = label_w + cell_w * static_cast<double>(h.column_labels.size()) + 20;
  const double height = top + cell_h * static_cast<double>(h.row_labels.size()) + 10;
  std::ostringstream s;
  s << open_svg(width, height, h.title);
  for (std::size_t c = 0; c < h.column_labels.size(); ++c) {
    double x = label_w + cell_w * (static_cast<double>(c) + 0.5);
    s << "<text transform=\"translate(" << num(x) << ' ' << num(top - 8) << ") rotate(-35)\" class=\"axis\">"
      << escape(shorten(h.column_labels[c], 24)) << "</text>";
  }
  for (std::size_t r = 0; r < h.row_labels.size(); ++r) {
    double y = top + cell_h * static_cast<double>(r);
    s << "<text x=\"" << num(label_w - 8) << "\" y=\"" << num(y + cell_h / 2 + 4) << "\" text-anchor=\"end\">"
      << escape(shorten(h.row_labels[r], 48)) << "</text>";
    for (std::size_t c = 0; c < h.column_labels.size(); ++c) {
      double v = r < h.values.size() && c < h.values[r].size() ? h.values[r][c] : std::nan("");
      // Sequential blue scale: lightness falls with the value; text switches to white on dark cells.
      std::string fill = "#f2f2f2";
      bool dark = false;
      if (!std::isnan(v)) {
        double t = std::clamp(v, 0.0, 1.0);
        int rr = static_cast<int>(std::lround(247 - t * (247 - 8)));
        int gg = static_cast<int>(std::lround(251 - t * (251 - 81)));
        int bb = static_cast<int>(std::lround(255 - t * (255 - 156)));
        char buf[8];
        std::snprintf(buf, sizeof buf, "#%02x%02x%02x", rr, gg, bb);
        fill = buf;
        dark = t > 0.55;
      }
      double x = label_w + cell_w * static_cast<double>(c);
      s << "<rect x=\"" << num(x + 1) << "\" y=\"" << num(y + 1) << "\" width=\"" << num(cell_w - 2) << "\" height=\""
        << num(cell_h - 2) << "\" fill=\"" << fill << "\"/>";
      std::string label = r < h.cell_text.size() && c < h.cell_text[r].size() ? h.cell_text[r][c] : "";
      s << "<text x=\"" << num(x + cell_w / 2) << "\" y=\"" << num(y + cell_h / 2 + 4) << "\" text-anchor=\"middle\" class=\"value\""
        << (dark ? " fill=\"#fff\"" : "") << ">" << escape(label) << "</text>";
    }
  }
  s << "</svg>";
  return s.str();
}

}  // namespace qualrank::svg
