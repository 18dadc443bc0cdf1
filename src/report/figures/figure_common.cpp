// What the figures share (figure_charts.h): round ticks, markers, legends and items' labels.
#include <algorithm>
#include <cmath>

#include "figure_charts.h"
#include "qualrank/util/text.h"

namespace qualrank::figure {

std::string item_label(const std::map<std::string, std::string>& names, const std::string& id) {
  const auto it = names.find(id);
  return it == names.end() || it->second.empty() || it->second == id ? id : id + " " + it->second;
}

namespace {

double step_for(double span, int max_count) {
  if (!(span > 0) || !std::isfinite(span)) return 1;
  const double raw = span / std::max(1, max_count);
  const double power = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * power >= raw) return m * power;
  return 10 * power;
}

}  // namespace

std::vector<double> ticks(double lo, double hi, int max_count) {
  if (!std::isfinite(lo) || !std::isfinite(hi)) lo = 0, hi = 1;
  if (hi <= lo) hi = lo + 1;
  const double step = step_for(hi - lo, max_count);
  std::vector<double> out;
  for (double v = std::floor(lo / step + 1e-9) * step; v <= hi + step * 1e-6 && out.size() < 100; v += step)
    out.push_back(std::abs(v) < step * 1e-9 ? 0.0 : v);
  if (out.size() == 1) out.push_back(out[0] + step);
  if (out.back() < hi - step * 1e-6) out.push_back(out.back() + step);
  return out;
}

std::string tick_text(double v, double step) {
  int digits = 0;
  while (digits < 6 && std::abs(step * std::pow(10.0, digits) - std::round(step * std::pow(10.0, digits))) > 1e-6) ++digits;
  std::string s = text::fixed(v, digits);
  if (!s.empty() && s[0] == '-') s = "\xE2\x88\x92" + s.substr(1);
  return s;
}

void marker(Drawing& d, Marker m, Point at, double size, Colour fill) {
  Paint p;
  p.fill = fill;
  p.stroke = fill;
  p.width = 0.5;
  const double h = size / 2;
  switch (m) {
    case Marker::circle: d.marks.emplace_back(Circle{at, h, p}); break;
    case Marker::square: d.rect(at.x - h * 0.9, at.y - h * 0.9, h * 1.8, h * 1.8, p); break;
    case Marker::triangle:
      d.marks.emplace_back(Path{{{at.x, at.y - h * 1.1}, {at.x + h * 1.1, at.y + h * 0.8}, {at.x - h * 1.1, at.y + h * 0.8}}, true, p});
      break;
    case Marker::diamond:
      d.marks.emplace_back(Path{{{at.x, at.y - h * 1.2}, {at.x + h * 1.2, at.y}, {at.x, at.y + h * 1.2}, {at.x - h * 1.2, at.y}}, true, p});
      break;
  }
}

double legend(Drawing& d, const std::vector<LegendEntry>& entries, double x, double y, double right) {
  const double sample = 16, gap = 4, after = 10, row = kSmallSize + 4;
  double cx = x;
  double baseline = y + kSmallSize;
  for (const auto& e : entries) {
    // The words wrap (never cut): an entry of more than one line takes rows of its own.
    const auto lines = wrap(clean(e.text), kSmallSize, right - x - sample - gap);
    double words_w = 0;
    for (const auto& l : lines) words_w = std::max(words_w, text_width(l, kSmallSize));
    const double w = sample + gap + words_w;
    if (cx > x && (cx + w > right || lines.size() > 1)) {
      cx = x;
      baseline += row;
    }
    const double mid = baseline - kSmallSize * 0.35;
    if (e.box) {
      Paint p;
      p.fill = *e.box;
      if (e.box_edge) p.stroke = *e.box_edge, p.width = 0.6;
      d.rect(cx + 3, mid - 3, sample - 6, 6, p);
    } else if (e.line_width > 0) {
      d.line({cx, mid}, {cx + sample, mid}, e.colour, e.line_width, e.dash);
    }
    if (e.marker) marker(d, *e.marker, {cx + sample / 2, mid}, 4, e.colour);
    for (std::size_t i = 0; i < lines.size(); ++i) {
      if (i) baseline += row;
      d.text({cx + sample + gap, baseline}, lines[i], kSmallSize);
    }
    cx += w + after;
    if (lines.size() > 1) cx = right;  // the next entry starts a row
  }
  return baseline + 3;
}

}  // namespace qualrank::figure
