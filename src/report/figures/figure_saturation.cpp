// The saturation figure (figure_charts.h): report.json's "saturation"."all" curve, interview by interview.
#include <algorithm>
#include <cmath>

#include "figure_charts.h"

namespace qualrank::figure {

Drawing saturation_figure(const Json& saturation, double width) {
  Drawing d;
  d.width = width;
  d.title = "New codes per interview and distinct codes so far";
  const Json& all = saturation["all"];
  const Json& interviews = all.contains("interviews") && all["interviews"].is_array() ? all["interviews"] : Json::array();
  const int base = saturation.contains("parameters") ? saturation["parameters"].value("base", 0) : 0;
  const int saturated_at = all.contains("saturated_at") && all["saturated_at"].is_number() ? all["saturated_at"].get<int>() : 0;
  const std::size_t n = interviews.size();
  int top_value = 1;
  for (const auto& i : interviews) top_value = std::max({top_value, i.value("cumulative", 0), i.value("new_codes", 0)});
  const auto t = ticks(0, top_value, 5);
  const double step = t.size() > 1 ? t[1] - t[0] : 1;
  double tick_w = 0;
  for (double v : t) tick_w = std::max(tick_w, text_width(tick_text(v, step), kSmallSize));
  const double x0 = kMargin + kLabelSize + 4 + tick_w + 4, x1 = width - kMargin - 2;
  const double y_top = kMargin + 4, height = width < 400 ? 120 : 170, y_bottom = y_top + height;
  const double slot = (x1 - x0) / std::max<std::size_t>(n, 1);
  auto x_of = [&](double k) { return x0 + k * slot; };  // k interviews from the left edge
  auto y_of = [&](double v) { return y_bottom - v / t.back() * height; };
  // The base interviews, shaded behind everything.
  if (base > 0 && n > 0) {
    Paint p;
    p.fill = Colour{0xEE, 0xEE, 0xEE};
    d.rect(x0, y_top, x_of(std::min<double>(base, n)) - x0, height, p);
  }
  for (double v : t) {
    d.line({x0, y_of(v)}, {x1, y_of(v)}, palette::light_grey, 0.3);
    d.line({x0 - 2.5, y_of(v)}, {x0, y_of(v)}, palette::grey, 0.6);
    d.text({x0 - 4, y_of(v) + kSmallSize * 0.35}, tick_text(v, step), kSmallSize, Anchor::end, false, palette::grey);
  }
  for (std::size_t k = 0; k < n; ++k) {
    const int fresh = interviews[k].value("new_codes", 0);
    if (fresh <= 0) continue;
    Paint p;
    p.fill = palette::sky_blue;
    p.stroke = palette::blue;
    p.width = 0.4;
    d.rect(x_of(k + 0.2), y_of(fresh), slot * 0.6, y_bottom - y_of(fresh), p);
  }
  Path curve;
  curve.paint.stroke = palette::vermillion;
  curve.paint.width = 1.1;
  for (std::size_t k = 0; k < n; ++k) curve.points.push_back({x_of(k + 0.5), y_of(interviews[k].value("cumulative", 0))});
  if (curve.points.size() > 1) d.marks.emplace_back(curve);
  for (const auto& p : curve.points) marker(d, Marker::circle, p, std::min(3.2, slot * 0.8), palette::vermillion);
  if (saturated_at > 0 && static_cast<std::size_t>(saturated_at) <= n)
    d.line({x_of(saturated_at), y_top}, {x_of(saturated_at), y_bottom}, palette::black, 0.9, {3, 2});
  d.line({x0, y_bottom}, {x1, y_bottom}, palette::grey, 0.6);
  d.line({x0, y_top}, {x0, y_bottom}, palette::grey, 0.6);
  // Interview numbers: every one when they fit, else every 2nd, 5th, 10th, ...
  const double label_w = text_width(std::to_string(n), kSmallSize) + 3;
  int every = 1;
  for (int m : {1, 2, 5, 10, 20, 50, 100, 200, 500, 1000}) {
    every = m;
    if (slot * m >= label_w) break;
  }
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t number = k + 1;
    if (number % every != 0 && number != 1) continue;
    if (number == 1 && every > 1 && slot * (every - 1) < label_w) continue;
    d.line({x_of(k + 0.5), y_bottom}, {x_of(k + 0.5), y_bottom + 2.5}, palette::grey, 0.6);
    d.text({x_of(k + 0.5), y_bottom + 3 + kSmallSize}, std::to_string(number), kSmallSize, Anchor::middle, false, palette::grey);
  }
  double y = y_bottom + 3 + kSmallSize + 3 + kLabelSize;
  d.text({(x0 + x1) / 2, y}, "interview, in order", kLabelSize, Anchor::middle);
  Text axis;
  axis.at = {kMargin + kLabelSize, (y_top + y_bottom) / 2};
  axis.text = "codes";
  axis.size = kLabelSize;
  axis.anchor = Anchor::middle;
  axis.rotated = true;
  d.marks.emplace_back(axis);
  y += 4;
  std::vector<LegendEntry> entries = {{palette::blue, 0, {}, {}, palette::sky_blue, palette::blue, "new codes in the interview"},
                                      {palette::vermillion, 1.1, {}, Marker::circle, {}, {}, "distinct codes so far"}};
  if (base > 0) entries.push_back({palette::black, 0, {}, {}, Colour{0xEE, 0xEE, 0xEE}, palette::light_grey, "base interviews (" + std::to_string(base) + ")"});
  if (saturated_at > 0) entries.push_back({palette::black, 0.9, {3, 2}, {}, {}, {}, "saturation after interview " + std::to_string(saturated_at)});
  y = legend(d, entries, kMargin, y, width - kMargin);
  d.height = std::ceil(y + kMargin);
  return d;
}

}  // namespace qualrank::figure
