// The ranking figures (figure_charts.h): the slope chart of two groups' consensus positions, the gap chart and
// the Plackett-Luce forest plot, laid out for a width, read from one question of report.json's rankings.
#include <algorithm>
#include <cmath>
#include <map>

#include "figure_charts.h"
#include "qualrank/util/text.h"

namespace qualrank::figure {

namespace {

constexpr double kRow = 12;                 // one item's row
const std::string kFlag = "\xE2\x9A\x91";   // ⚑, as the HTML report marks misaligned items
const std::vector<double> kDashed = {3, 2};

double num(const Json& v) { return v.is_number() ? v.get<double>() : std::nan(""); }

// An x axis from x0 to x1 at y for [lo, hi] with its ticks; returns the y below its tick labels.
double x_axis(Drawing& d, double x0, double x1, double y, const std::vector<double>& t) {
  const double lo = t.front(), hi = t.back();
  const double step = t.size() > 1 ? t[1] - t[0] : 1;
  d.line({x0, y}, {x1, y}, palette::grey, 0.6);
  for (double v : t) {
    const double x = x0 + (v - lo) / (hi - lo) * (x1 - x0);
    d.line({x, y}, {x, y + 2.5}, palette::grey, 0.6);
    d.text({x, y + 3 + kSmallSize}, tick_text(v, step), kSmallSize, Anchor::middle, false, palette::grey);
  }
  return y + 3 + kSmallSize + 3;
}

// The width for the items' labels: the longest label, at most `share` of the width.
double label_width(const std::vector<std::string>& labels, double width, double share, bool bold_any) {
  double w = 0;
  for (const auto& l : labels) w = std::max(w, text_width(l, kLabelSize, bold_any) + text_width(" " + kFlag, kLabelSize));
  return std::min(w, width * share);
}

constexpr double kLabelLine = kLabelSize + 1.5;

// An x axis's words centred below the axis (centre x), moved in as far as they need to stay on the figure,
// wrapped to a second line when the figure is narrower than they are.
void axis_words(Drawing& d, const std::string& words, double centre, double& y, double width) {
  const auto lines = wrap(words, kLabelSize, width - 2 * kMargin);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const double w = text_width(lines[i], kLabelSize);
    d.text({std::clamp(centre, kMargin + w / 2, width - kMargin - w / 2), y}, lines[i], kLabelSize, Anchor::middle);
    if (i + 1 < lines.size()) y += kLabelLine;
  }
}

// An item's label in lines of at most `width` points, as many as it needs (never cut).
std::vector<std::string> label_lines(const std::string& s, double width, bool bold) { return wrap(s, kLabelSize, width, bold); }

// Draws `lines` end-anchored at x, centred on `mid`; returns the first line's baseline.
double draw_label(Drawing& d, const std::vector<std::string>& lines, double x, double mid, bool bold) {
  const double first = mid - (lines.size() - 1) * kLabelLine / 2 + kLabelSize * 0.35;
  for (std::size_t i = 0; i < lines.size(); ++i) d.text({x, first + i * kLabelLine}, lines[i], kLabelSize, Anchor::end, bold);
  return first;
}

// The tops of rows holding these many label lines each (at least `min_row` high), and the bottom last.
std::vector<double> row_tops(const std::vector<std::vector<std::string>>& lines, double top, double min_row) {
  std::vector<double> tops = {top};
  for (const auto& l : lines) tops.push_back(tops.back() + std::max(min_row, l.size() * kLabelLine + 2));
  return tops;
}

}  // namespace

namespace {

// Where an item stands in one group's consensus: the first of the places its tier holds, the tier's size, and
// its index within the tier (tied items are listed in consensus order).
struct Place {
  int first = 0, size = 0, index = 0;
};

// Each item's place in group `g` of question `q`, from "consensus_tiers" (ties), or "consensus" (one item a tier)
// for a report.json that has no tiers.
std::map<std::string, Place> places(const Json& g) {
  std::map<std::string, Place> out;
  std::vector<std::vector<std::string>> tiers;
  if (g.contains("consensus_tiers") && g["consensus_tiers"].is_array()) {
    for (const auto& t : g["consensus_tiers"]) {
      tiers.emplace_back();
      if (t.is_array())
        for (const auto& id : t)
          if (id.is_string()) tiers.back().push_back(id.get<std::string>());
    }
  } else if (g.contains("consensus") && g["consensus"].is_array()) {
    for (const auto& id : g["consensus"])
      if (id.is_string()) tiers.push_back({id.get<std::string>()});
  }
  int first = 1;
  for (const auto& t : tiers) {
    for (std::size_t i = 0; i < t.size(); ++i) out[t[i]] = {first, static_cast<int>(t.size()), static_cast<int>(i)};
    first += static_cast<int>(t.size());
  }
  return out;
}

// The places a tier holds: "7", or "7–9" for three tied items.
std::string place_text(const Place& p) {
  return p.size > 1 ? std::to_string(p.first) + "\xE2\x80\x93" + std::to_string(p.first + p.size - 1) : std::to_string(p.first);
}

}  // namespace

Drawing slope_figure(const std::map<std::string, std::string>& names, const Json& q, const Json& c, double width) {
  Drawing d;
  d.width = width;
  const std::string a = c["groups"][0].get<std::string>(), b = c["groups"][1].get<std::string>();
  const std::string qid = str(q, "question");
  d.title = qid + ": consensus position, " + a + " vs " + b;
  std::map<std::string, bool> misaligned;
  if (c.contains("gaps") && c["gaps"].is_array())
    for (const auto& g : c["gaps"]) misaligned[str(g, "item")] = g.value("misaligned", false);
  const std::map<std::string, Place> pa = places(q["groups"][a]), pb = places(q["groups"][b]);
  std::vector<std::string> items;  // drawn: ranked in both groups
  for (const auto& id : q["items"])
    if (id.is_string() && pa.count(id.get<std::string>()) && pb.count(id.get<std::string>())) items.push_back(id.get<std::string>());
  const int n = static_cast<int>(std::max(pa.size(), pb.size()));
  const double span = std::max(50.0, width * 0.2);
  double pos_w = 0;
  for (const auto* ps : {&pa, &pb})
    for (const auto& [id, p] : *ps) pos_w = std::max(pos_w, text_width(place_text(p), kSmallSize));
  pos_w += 4;
  const double bracket = 7;  // room for a tier's bracket between the labels and the places
  const double flag_w = text_width(kFlag + " ", kLabelSize);
  // A narrow figure names the items on the left only (ids on the right), a wide one on both sides.
  const bool narrow = width < 400;
  double rw = 0;  // the right side's labels
  if (narrow) {
    for (const auto& id : items) rw = std::max(rw, text_width(clean(id), kLabelSize, true));
    rw = std::min(rw + flag_w, width * 0.2);
  }
  const double lw = narrow ? width - 2 * kMargin - span - 2 * (pos_w + bracket) - 8 - rw : (width - 2 * kMargin - span - 2 * (pos_w + bracket) - 8) / 2;
  if (!narrow) rw = lw;
  const double axis_l = kMargin + lw + 4 + bracket + pos_w, axis_r = width - kMargin - rw - 4 - bracket - pos_w;
  // The groups' names over their axes, wrapped (never cut).
  double y0 = kMargin;
  {
    const auto la = wrap(clean(a), kLabelSize, lw + span / 2, true), lb = wrap(clean(b), kLabelSize, rw + span / 2, true);
    for (std::size_t i = 0; i < la.size(); ++i) d.text({axis_l, y0 + kLabelSize + i * kLabelLine}, la[i], kLabelSize, Anchor::end, true);
    // The right group's name starts at its axis, moved left as far as it must to end inside the figure.
    for (std::size_t i = 0; i < lb.size(); ++i)
      d.text({std::min(axis_r, width - kMargin - text_width(lb[i], kLabelSize, true)), y0 + kLabelSize + i * kLabelLine}, lb[i], kLabelSize,
             Anchor::start, true);
    y0 += kLabelSize + (std::max(la.size(), lb.size()) - 1) * kLabelLine + 6;
  }
  // Rows: one per place; an item's label goes in the row of its place plus its index in its tier, and a row is
  // as high as the longer of its two labels.
  std::map<std::string, std::vector<std::string>> left_lines, right_lines;
  std::vector<std::size_t> row_lines(n + 1, 1);
  for (const auto& id : items) {
    const bool flag = misaligned[id];
    const std::string label = clean(item_label(names, id));
    left_lines[id] = label_lines(label, lw - (flag ? flag_w : 0), flag);
    right_lines[id] = label_lines(narrow ? clean(id) : label, rw - (flag ? flag_w : 0), flag);
    const int ra = pa.at(id).first + pa.at(id).index, rb = pb.at(id).first + pb.at(id).index;
    if (ra <= n) row_lines[ra] = std::max(row_lines[ra], left_lines[id].size());
    if (rb <= n) row_lines[rb] = std::max(row_lines[rb], right_lines[id].size());
  }
  std::vector<double> tops = {y0};  // tops[r - 1] is row r's top, tops[n] the bottom
  for (int r = 1; r <= n; ++r) tops.push_back(tops.back() + std::max(kRow, row_lines[r] * kLabelLine + 2));
  auto row_mid = [&](int r) { return (tops[r - 1] + tops[std::min(r, n)]) / 2; };
  auto tier_y = [&](const Place& p) { return (tops[p.first - 1] + tops[std::min(p.first + p.size - 1, n)]) / 2; };
  // Each tier's place once per side, and a bracket joining a tie's labels.
  std::map<int, bool> placed_a, placed_b;
  auto tier_marks = [&](const Place& p, bool left) {
    auto& placed = left ? placed_a : placed_b;
    if (placed[p.first]) return;
    placed[p.first] = true;
    const double y = tier_y(p);
    if (left) d.text({axis_l - 4, y + kSmallSize * 0.35}, place_text(p), kSmallSize, Anchor::end, false, palette::grey);
    else d.text({axis_r + 4, y + kSmallSize * 0.35}, place_text(p), kSmallSize, Anchor::start, false, palette::grey);
    if (p.size < 2) return;
    const double x = left ? axis_l - pos_w - 2 : axis_r + pos_w + 2;
    const double tick = left ? -2.5 : 2.5;
    const double y1 = row_mid(p.first) - 2, y2 = row_mid(p.first + p.size - 1) + 2;
    Paint grey;
    grey.stroke = palette::grey;
    grey.width = 0.6;
    d.marks.emplace_back(Path{{{x + tick, y1}, {x, y1}, {x, y2}, {x + tick, y2}}, false, grey});
    d.line({x, y}, {x - tick, y}, palette::grey, 0.6);
  };
  // Aligned items first, misaligned ones over them.
  for (int pass = 0; pass < 2; ++pass)
    for (const auto& id : items) {
      const bool flag = misaligned[id];
      if (flag != (pass == 1)) continue;
      const Place& p_a = pa.at(id);
      const Place& p_b = pb.at(id);
      const double ya = tier_y(p_a), yb = tier_y(p_b);
      const Colour colour = flag ? palette::vermillion : palette::blue;
      d.line({axis_l, ya}, {axis_r, yb}, colour, flag ? 1.6 : 0.9, flag ? kDashed : std::vector<double>{});
      marker(d, flag ? Marker::square : Marker::circle, {axis_l, ya}, 3.6, colour);
      marker(d, flag ? Marker::square : Marker::circle, {axis_r, yb}, 3.6, colour);
      tier_marks(p_a, true);
      tier_marks(p_b, false);
      const double left_end = axis_l - pos_w - bracket;
      const auto& ll = left_lines[id];
      const double first_a = draw_label(d, ll, left_end, row_mid(p_a.first + p_a.index), flag);
      if (flag) d.text({left_end - text_width(ll[0], kLabelSize, true) - 2, first_a}, kFlag, kLabelSize, Anchor::end, false, palette::vermillion);
      const double right_start = axis_r + pos_w + bracket;
      const auto& rl = right_lines[id];
      const double mid_b = row_mid(p_b.first + p_b.index);
      const double first_b = mid_b - (rl.size() - 1) * kLabelLine / 2 + kLabelSize * 0.35;
      for (std::size_t i = 0; i < rl.size(); ++i) d.text({right_start, first_b + i * kLabelLine}, rl[i], kLabelSize, Anchor::start, flag);
      if (flag) d.text({right_start + 2 + text_width(rl[0], kLabelSize, true), first_b}, kFlag, kLabelSize, Anchor::start, false, palette::vermillion);
    }
  double y = tops[n] + 4;
  y = legend(d,
             {{palette::blue, 0.9, {}, Marker::circle, {}, {}, "aligned"},
              {palette::vermillion, 1.6, kDashed, Marker::square, {}, {}, kFlag + " misaligned (Holm p < 0.05 or |Cliff's \xCE\xB4| \xE2\x89\xA5 0.474)"}},
             kMargin, y, width - kMargin);
  d.height = std::ceil(y + kMargin);
  return d;
}

Drawing gaps_figure(const std::map<std::string, std::string>& names, const Json& c, double width) {
  Drawing d;
  d.width = width;
  const std::string a = c["groups"][0].get<std::string>(), b = c["groups"][1].get<std::string>();
  d.title = "priority gap (mean rank " + b + " minus " + a + ")";
  const Json& gaps = c.contains("gaps") && c["gaps"].is_array() ? c["gaps"] : Json::array();
  std::vector<std::string> labels;
  double extent = 0;
  for (const auto& g : gaps) {
    labels.push_back(clean(item_label(names, str(g, "item"))));
    const double v = num(g.value("gap", Json()));
    if (std::isfinite(v)) extent = std::max(extent, std::abs(v));
  }
  const auto t = ticks(-std::max(extent, 0.5), std::max(extent, 0.5), width < 400 ? 4 : 8);
  const double lim = std::max(std::abs(t.front()), std::abs(t.back()));
  const std::vector<double> sym = ticks(-lim, lim, width < 400 ? 4 : 8);
  const double lw = label_width(labels, width, width < 400 ? 0.38 : 0.42, true);
  const double value_w = text_width("\xE2\x88\x92" "0.00", kSmallSize) + 3;
  const double x0 = kMargin + lw + 6 + value_w, x1 = width - kMargin - value_w;
  auto x_of = [&](double v) { return x0 + (v - sym.front()) / (sym.back() - sym.front()) * (x1 - x0); };
  const double flag_w = text_width(" " + kFlag, kLabelSize);
  std::vector<std::vector<std::string>> lines;
  for (std::size_t i = 0; i < gaps.size(); ++i)
    lines.push_back(label_lines(labels[i], lw - flag_w, gaps[i].value("misaligned", false)));
  const std::vector<double> tops = row_tops(lines, kMargin + 2, kRow);
  const double top = tops.front(), end = tops.back();
  for (double v : sym) d.line({x_of(v), top}, {x_of(v), end}, palette::light_grey, 0.3);
  for (std::size_t i = 0; i < gaps.size(); ++i) {
    const Json& g = gaps[i];
    const bool flag = g.value("misaligned", false);
    const double v = num(g.value("gap", Json()));
    const double mid = (tops[i] + tops[i + 1]) / 2, base = mid + kLabelSize * 0.35;
    const double first = draw_label(d, lines[i], kMargin + lw - flag_w, mid, flag);
    if (flag) d.text({kMargin + lw, first}, kFlag, kLabelSize, Anchor::end, false, palette::vermillion);
    if (!std::isfinite(v)) {
      d.text({x_of(0) + 3, base}, "n/a", kSmallSize, Anchor::start, false, palette::grey);
      continue;
    }
    Paint p;
    p.fill = v < 0 ? palette::orange : palette::blue;
    if (flag) p.stroke = palette::black, p.width = 1.2;
    const double xa = x_of(std::min(v, 0.0)), xb = x_of(std::max(v, 0.0));
    d.rect(xa, mid - kRow * 0.32, std::max(xb - xa, 0.5), kRow * 0.64, p);
    const std::string value = tick_text(v, 0.01);
    if (v < 0) d.text({xa - 2, base}, value, kSmallSize, Anchor::end);
    else d.text({xb + 2, base}, value, kSmallSize, Anchor::start);
  }
  const double axis_y = end + 2;
  d.line({x_of(0), top}, {x_of(0), axis_y}, palette::black, 0.8);
  double y = x_axis(d, x0, x1, axis_y, sym) + kLabelSize;
  axis_words(d, "gap in mean rank (" + clean(b) + " \xE2\x88\x92 " + clean(a) + ")", (x0 + x1) / 2, y, width);
  y += 4;
  y = legend(d,
             {{palette::orange, 0, {}, {}, palette::orange, {}, clean(b) + " gives higher priority"},
              {palette::blue, 0, {}, {}, palette::blue, {}, clean(a) + " gives higher priority"},
              {palette::black, 0, {}, {}, palette::white, palette::black, kFlag + " black outline: misaligned"}},
             kMargin, y, width - kMargin);
  d.height = std::ceil(y + kMargin);
  return d;
}

Drawing forest_figure(const std::map<std::string, std::string>& names, const Json& q, double width) {
  static const Colour colours[] = {palette::blue, palette::vermillion, palette::green, palette::purple, palette::orange, palette::sky_blue};
  static const Marker markers[] = {Marker::circle, Marker::square, Marker::triangle, Marker::diamond};
  static const std::vector<double> dashes[] = {{}, {3, 1.5}, {1, 1.2}, {4, 1.5, 1, 1.5}};
  Drawing d;
  d.width = width;
  const Json& m = q["model"];
  d.title = str(q, "question") + ": log-worth by group with 95% comparison intervals";
  std::vector<std::pair<double, std::string>> order;  // items by overall worth, highest first
  for (const auto& id : q["items"]) {
    const std::string s = id.get<std::string>();
    double w = 0;
    if (m.contains("overall") && m["overall"].contains("items") && m["overall"]["items"].contains(s)) {
      const double v = num(m["overall"]["items"][s].value("worth", Json()));
      if (std::isfinite(v)) w = v;
    }
    order.emplace_back(w, s);
  }
  std::stable_sort(order.begin(), order.end(), [](const auto& x, const auto& y) { return x.first > y.first; });
  struct Series { std::string legend; std::vector<double> est, half; };
  std::vector<Series> series;
  double lo = 0, hi = 0;
  if (m.contains("groups") && m["groups"].is_object())
    for (auto it = m["groups"].begin(); it != m["groups"].end(); ++it) {
      Series s;
      s.legend = it.key() + " (n = " + it.value().value("n", Json(0)).dump() + ")";
      for (const auto& [w, id] : order) {
        const Json e = it.value().contains("items") && it.value()["items"].contains(id) ? it.value()["items"][id] : Json::object();
        const double est = num(e.value("log_worth", Json())), half = 1.96 * num(e.value("quasi_se", Json()));
        s.est.push_back(est);
        s.half.push_back(half);
        if (std::isfinite(est)) {
          lo = std::min(lo, std::isfinite(half) ? est - half : est);
          hi = std::max(hi, std::isfinite(half) ? est + half : est);
        }
      }
      series.push_back(std::move(s));
    }
  std::vector<std::string> labels;
  for (const auto& [w, id] : order) labels.push_back(clean(item_label(names, id)));
  const auto t = ticks(lo, hi, width < 400 ? 5 : 8);
  const double lw = label_width(labels, width, width < 400 ? 0.38 : 0.42, false);
  const double x0 = kMargin + lw + 8, x1 = width - kMargin - 6;
  auto x_of = [&](double v) { return x0 + (v - t.front()) / (t.back() - t.front()) * (x1 - x0); };
  const double sub = 4.5;  // between series within a row
  std::vector<std::vector<std::string>> lines;
  for (const auto& l : labels) lines.push_back(label_lines(l, lw, false));
  const std::vector<double> tops = row_tops(lines, kMargin + 2, std::max(kRow, series.size() * sub + 5));
  const double top = tops.front(), end = tops.back();
  for (double v : t) d.line({x_of(v), top}, {x_of(v), end}, palette::light_grey, 0.3);
  d.line({x_of(0), top}, {x_of(0), end}, palette::black, 0.6, {2, 2});
  for (std::size_t i = 0; i < order.size(); ++i) {
    const double mid = (tops[i] + tops[i + 1]) / 2;
    draw_label(d, lines[i], kMargin + lw, mid, false);
    for (std::size_t s = 0; s < series.size(); ++s) {
      const double est = series[s].est[i], half = series[s].half[i];
      if (!std::isfinite(est)) continue;
      const double y = mid + (s - (series.size() - 1) / 2.0) * sub;
      const Colour colour = colours[s % 6];
      if (std::isfinite(half)) d.line({x_of(est - half), y}, {x_of(est + half), y}, colour, 0.9, dashes[s % 4]);
      marker(d, markers[s % 4], {x_of(est), y}, 3.4, colour);
    }
  }
  double y = x_axis(d, x0, x1, end + 1, t);
  y += kLabelSize;
  axis_words(d, "log-worth relative to " + clean(str(m, "reference")) + " (higher = more important)", (x0 + x1) / 2, y, width);
  y += 4;
  std::vector<LegendEntry> entries;
  for (std::size_t s = 0; s < series.size(); ++s) entries.push_back({colours[s % 6], 0.9, dashes[s % 4], markers[s % 4], {}, {}, series[s].legend});
  y = legend(d, entries, kMargin, y, width - kMargin);
  d.height = std::ceil(y + kMargin);
  return d;
}

}  // namespace qualrank::figure
