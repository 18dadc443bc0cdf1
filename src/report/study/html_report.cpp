// HTML rendering of report.json. Sections: summary, rankings by role (per question: consensus table, the
// Plackett-Luce test with its forest plot and item differences, slope chart with misaligned items highlighted,
// gap chart, statistics; every pairwise comparison with its small-sample warnings and flag bases; the k-group
// test with more than two groups), the experience comparison of every role, the node x group heatmap, what is coded (codes applied,
// participants per role, exemplar quotes), the taxonomy tree at the latest version with interview-proposed
// additions marked and each node's exemplar quotes, and the agreement tables. Numbers are formatted here only
// for display; they all come from the JSON.
#include "qualrank/report/study/html_report.h"

#include <algorithm>
#include <cstdlib>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <sstream>

#include "qualrank/report/outputs/methods_output.h"
#include "qualrank/report/figures/svg_charts.h"
#include "qualrank/util/json_member.h"
#include "qualrank/util/text.h"

namespace qualrank {

namespace {

using Json = nlohmann::ordered_json;
using svg::escape;

std::string fmt(const Json& v, int digits = 2) {
  if (!v.is_number()) return "n/a";
  return text::fixed(v.get<double>(), digits);
}

std::string fmt_p(const Json& v) {
  if (!v.is_number()) return "n/a";
  double p = v.get<double>();
  if (p < 0.001) return "&lt; 0.001";
  return fmt(v, 3);
}

using json_member::str;

const char* kStyle = R"CSS(
:root { --blue:#0072B2; --orange:#E69F00; --verm:#D55E00; --ink:#1a1a1a; --muted:#555; --line:#d0d0d0; }
* { box-sizing: border-box; }
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: var(--ink);
       max-width: 1180px; margin: 0 auto; padding: 24px 32px 64px; line-height: 1.45; font-size: 16px; background: #fff; }
h1 { font-size: 1.9rem; margin: 0 0 .2rem; } h2 { font-size: 1.45rem; margin-top: 2.4rem; border-bottom: 2px solid var(--line); padding-bottom: .3rem; }
h3 { font-size: 1.15rem; margin-top: 1.8rem; } .muted { color: var(--muted); }
nav a { margin-right: 1rem; color: var(--blue); }
table { border-collapse: collapse; margin: .6rem 0 1rem; font-size: .93rem; }
th, td { border: 1px solid var(--line); padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: #f3f6f9; } tr.total td { font-weight: 600; border-top: 2px solid var(--ink); } td.num { text-align: right; font-variant-numeric: tabular-nums; }
tr.flag td { background: #fff1e6; font-weight: 600; }
p.note { border-left: 4px solid var(--orange); padding: 2px 10px; background: #fffaf0; }
.cards { display: flex; flex-wrap: wrap; gap: 12px; margin: 1rem 0; }
.card { border: 1px solid var(--line); border-radius: 8px; padding: 10px 14px; min-width: 150px; }
.card b { display: block; font-size: 1.5rem; }
svg.chart { max-width: 900px; display: block; margin: .5rem 0 1rem; font-size: 13px; }
svg.chart text { fill: var(--ink); } svg.chart text.tick { fill: var(--muted); font-size: 12px; } svg.chart text.axis { font-weight: 600; fill: var(--muted); }
.legend span { display: inline-block; margin-right: 1.2rem; } .sw { display:inline-block; width: 22px; height: 4px; vertical-align: middle; margin-right: 6px; }
ul.tree { list-style: none; padding-left: 1.2rem; margin: .2rem 0; } ul.tree li { margin: .15rem 0; }
.badge { display: inline-block; font-size: .78rem; padding: 0 6px; border-radius: 10px; border: 1.5px solid var(--verm); color: var(--verm); margin-left: .4rem; font-weight: 600; }
.prov { font-size: .85rem; color: var(--muted); margin-left: 1.6rem; }
ul.quotes { margin: .2rem 0 .3rem; padding-left: 1.2rem; font-size: .9rem; } ul.tree ul.quotes { margin-left: 1.6rem; list-style: disc; }
.chart-box { overflow-x: auto; max-width: 100%; }
body { overflow-wrap: break-word; }
@media (max-width: 720px) {
  body { padding: 16px 12px 48px; }
  table { display: block; overflow-x: auto; max-width: 100%; }
  .chart-box > svg.chart { width: var(--narrow-width, 720px); max-width: none; }
}
@media print { body { max-width: none; padding: 0; font-size: 11pt; } nav { display: none; } h2 { break-before: page; } svg.chart { max-width: 100%; } }
)CSS";

// A chart in a box of its own that scrolls sideways on a narrow screen (a phone), so the page never does and
// the chart keeps a legible size: there it is drawn at 0.8 of its viewBox width (720 px for the 900-wide
// charts), so its 13 px type is about 10 px.
std::string chart_box(const std::string& svg) {
  int width = 900;
  if (auto at = svg.find("viewBox=\"0 0 "); at != std::string::npos && at < 400)
    width = std::max(1, std::atoi(svg.c_str() + at + 13));
  return "<div class=\"chart-box\" style=\"--narrow-width:" + std::to_string(width * 4 / 5) + "px\">" + svg + "</div>";
}

// The study's name of a taxonomy level (report.json taxonomy.levels: the file's `levels:`, else "Level N").
std::string level_name(const Json& report, int level) {
  if (report.contains("taxonomy") && report["taxonomy"].contains("levels")) {
    const auto& names = report["taxonomy"]["levels"];
    if (level >= 1 && static_cast<std::size_t>(level) <= names.size() && names[level - 1].is_string())
      return names[level - 1].get<std::string>();
  }
  return "Level " + std::to_string(level);
}

// The node names of the report being rendered (render_html_report builds them, per call: a cache kept from
// one report to the next would name another study's nodes).
thread_local const std::map<std::string, std::string>* rendered_names = nullptr;

std::map<std::string, std::string> node_names(const Json& report) {
  std::map<std::string, std::string> names;
  if (report.contains("taxonomy") && report["taxonomy"].contains("nodes"))
    for (const auto& n : report["taxonomy"]["nodes"]) names[str(n, "id")] = str(n, "name");
  return names;
}

std::string item_name(const Json& report, const std::string& id) {
  if (!rendered_names) return node_names(report)[id];
  auto it = rendered_names->find(id);
  return it == rendered_names->end() ? std::string() : it->second;
}

// The Plackett-Luce block of a question: the likelihood-ratio test in a sentence, the forest plot (log-worth
// per group with +-1.96 quasi-SE comparison intervals, items by overall worth) and the per-item differences.
void model_block(std::ostringstream& h, const Json& report, const Json& q) {
  if (!q.contains("model") || !q["model"].is_object()) return;
  const auto& m = q["model"];
  const std::string qid = str(q, "question"), ref = str(m, "reference");
  h << "<h4>Plackett–Luce model</h4><p>";
  if (m["lr_test"].is_object()) {
    const auto& t = m["lr_test"];
    std::vector<std::string> gs;
    for (const auto& g : t["groups"]) gs.push_back(g.get<std::string>());
    std::string groups;
    for (std::size_t i = 0; i < gs.size(); ++i) groups += (i ? ", " : "") + gs[i];
    bool differ = t["p"].is_number() && t["p"].get<double>() < 0.05;
    h << (differ ? "The groups (" + escape(groups) + ") do <b>not</b> share one set of priorities"
                 : "No evidence that the groups (" + escape(groups) + ") weigh the items differently")
      << ": likelihood-ratio χ² = " << fmt(t["statistic"]) << ", df = " << t["df"].dump() << ", p " << (fmt_p(t["p"]) == "&lt; 0.001" ? "" : "= ")
      << fmt_p(t["p"]) << ".";
    if (t["log_likelihood_separate"].is_number() && t["log_likelihood_pooled"].is_number()) {
      std::string per;
      if (t["log_likelihoods"].is_object())
        for (auto it = t["log_likelihoods"].begin(); it != t["log_likelihoods"].end(); ++it)
          per += (per.empty() ? "" : ", ") + escape(it.key()) + " " + fmt(it.value(), 3);
      const bool penalised = t.value("pseudo_rankings_pooled", 0.0) > 0;
      h << " χ² = 2 (" << fmt(t["log_likelihood_separate"], 3) << " − (" << fmt(t["log_likelihood_pooled"], 3) << ")), the "
        << (penalised ? "penalised log-likelihoods (rankings plus pseudo-rankings)" : "log-likelihoods") << " of one worth vector per group ("
        << per << ") and of one for all" << (penalised ? " (with every group's pseudo-rankings, " + fmt(t["pseudo_rankings_pooled"], 1) + " per item)" : "")
        << ".";
    }
  } else {
    h << "One group: no test of shared priorities.";
  }
  h << " <span class=\"muted\">Worths from " << escape(str(m, "partial")) << " answers, ties by Efron's method, " << fmt(m["pseudo_rankings"], 1)
    << " pseudo-rankings per item.</span></p>\n";
  // Items by overall worth, highest first (ties: item order).
  std::vector<std::pair<double, std::string>> order;
  for (const auto& id : q["items"]) {
    const auto& w = m["overall"]["items"][id.get<std::string>()]["worth"];
    order.emplace_back(w.is_number() ? w.get<double>() : 0.0, id.get<std::string>());
  }
  std::stable_sort(order.begin(), order.end(), [](const auto& x, const auto& y) { return x.first > y.first; });
  svg::ForestPlot f;
  f.title = qid + ": log-worth by group with 95% comparison intervals (±1.96 quasi-SE)";
  f.x_label = "log-worth relative to " + ref + " (higher = more important)";
  for (const auto& [w, id] : order) {
    f.row_ids.push_back(id);
    f.row_names.push_back(item_name(report, id));
  }
  for (auto it = m["groups"].begin(); it != m["groups"].end(); ++it) {
    svg::ForestSeries series;
    series.label = it.key();
    series.legend = it.key() + " (n = " + it.value()["n"].dump() + ")";
    for (const auto& id : f.row_ids) {
      const auto& e = it.value()["items"][id];
      series.estimate.push_back(e["log_worth"].is_number() ? e["log_worth"].get<double>() : std::nan(""));
      series.half_width.push_back(e["quasi_se"].is_number() ? 1.96 * e["quasi_se"].get<double>() : std::nan(""));
    }
    f.series.push_back(std::move(series));
  }
  h << chart_box(svg::forest_plot(f)) << "\n";
  h << "<p class=\"muted\">Two items' intervals that do not overlap differ at about the 5% level within a group (quasi-standard errors, "
       "Firth &amp; de Menezes 2004). Items ordered by the worth estimated from all groups together.</p>\n";
  if (m["item_differences"].is_array() && !m["item_differences"].empty()) {
    std::string a = m["comparison_groups"][0], b = m["comparison_groups"][1];
    const bool centred = m["item_differences"][0].contains("centred_log_worth");
    h << "<table><tr><th>Item</th>";
    if (centred) h << "<th>Centred log-worth " << escape(a) << "</th><th>Centred log-worth " << escape(b) << "</th>";
    h << "<th>Difference in centred log-worth (" << escape(b) << " − " << escape(a) << ")</th><th>SE</th><th>p</th><th>Holm p</th></tr>";
    for (const auto& d : m["item_differences"]) {
      std::string id = str(d, "item");
      bool flag = d["p_holm"].is_number() && d["p_holm"].get<double>() < 0.05;
      h << "<tr" << (flag ? " class=\"flag\"" : "") << "><td>" << escape(id) << " " << escape(item_name(report, id)) << "</td>";
      if (centred)
        h << "<td class=\"num\">" << fmt(d["centred_log_worth"].value(a, Json())) << "</td><td class=\"num\">"
          << fmt(d["centred_log_worth"].value(b, Json())) << "</td>";
      h << "<td class=\"num\">" << fmt(d["difference"]) << "</td><td class=\"num\">" << fmt(d["se"]) << "</td><td class=\"num\">" << fmt_p(d["p"])
        << "</td><td class=\"num\">" << fmt_p(d["p_holm"]) << "</td></tr>";
    }
    h << "</table>\n<p class=\"muted\">Centred log-worth: the log-worth minus its mean over the items (the log of the worth over "
         "the geometric mean of the group's worths). The difference is positive when the item stands higher among "
      << escape(b) << "'s items than among " << escape(a) << "'s; it is not the difference of the worths (which sum to 1 in each "
         "group) and can have the other sign.</p>\n";
  }
}

// "<h3>III.R: the words</h3>", or, when the roles are asked in different words, the id and one line per wording.
void question_heading(std::ostringstream& h, const Json& q, const std::string& anchor) {
  std::string qid = str(q, "question");
  const Json& wording = q.contains("wording") && q["wording"].is_array() ? q["wording"] : Json::array();
  std::string words = wording.size() == 1 ? str(wording[0], "text") : str(q, "text");
  h << "<h3 id=\"" << escape(anchor + "-" + qid) << "\">" << escape(qid);
  if (wording.size() > 1) {
    h << " <span class=\"muted\">(worded per role)</span></h3>\n<ul class=\"wording\">";
    for (const auto& w : wording) {
      std::string roles;
      for (const auto& r : w["roles"]) roles += (roles.empty() ? "" : ", ") + r.get<std::string>();
      h << "<li><b>" << escape(roles) << ":</b> " << escape(str(w, "text")) << "</li>";
    }
    h << "</ul>\n";
  } else {
    h << (words.empty() ? "" : ": " + escape(words)) << "</h3>\n";
  }
}

// The k-group test of a question (more than two groups): Kruskal-Wallis per item, Holm, epsilon-squared.
void k_groups_block(std::ostringstream& h, const Json& report, const Json& q) {
  if (!q.contains("k_groups") || !q["k_groups"].is_object()) return;
  const auto& k = q["k_groups"];
  std::string names;
  for (const auto& g : k["groups"]) names += (names.empty() ? "" : ", ") + g.get<std::string>();
  h << "<p><b>All " << k["groups"].size() << " groups</b> (" << escape(names) << "): Kruskal–Wallis test per item (tie-corrected H, χ² p with "
    << k["groups"].size() - 1 << " df, Holm across items; ε² = H / (n − 1)).</p>\n";
  h << "<table><tr><th>Item</th><th>H</th><th>p</th><th>Holm p</th><th>ε²</th></tr>";
  for (const auto& i : k["items"]) {
    std::string id = str(i, "item");
    h << "<tr><td>" << escape(id) << " " << escape(item_name(report, id)) << "</td><td class=\"num\">" << fmt(i["kruskal_h"]) << "</td><td class=\"num\">"
      << fmt_p(i["p"]) << "</td><td class=\"num\">" << fmt_p(i["p_holm"]) << "</td><td class=\"num\">" << fmt(i["epsilon_squared"]) << "</td></tr>";
  }
  h << "</table>\n";
}

// One pairwise comparison of a question: its statistics, small-sample warnings, slope and gap charts and the
// gap table with each flag's basis.
void comparison_block(std::ostringstream& h, const Json& report, const Json& q, const Json& c, const Json& gaps) {
  std::string qid = str(q, "question");
  const auto& groups = q["groups"];
  std::string a = c["groups"][0], b = c["groups"][1];
  const auto& ci = c["bootstrap_ci"];
  h << "<p><b>" << escape(a) << " vs " << escape(b) << ":</b> Spearman's ρ = " << fmt(c["spearman_rho"]) << " (p " << fmt_p(c["spearman_p"])
    << ", " << fmt(ci["level"].get<double>() * 100, 0) << "% bootstrap CI [" << fmt(ci["spearman_rho"][0]) << ", " << fmt(ci["spearman_rho"][1])
    << "]); Kendall's τ<sub>b</sub> = " << fmt(c["kendall_tau_b"]) << " (p " << fmt_p(c["kendall_tau_p"]) << ").</p>\n";
  if (c.contains("warnings"))
    for (const auto& w : c["warnings"]) h << "<p class=\"note\">⚠ " << escape(w.get<std::string>()) << ".</p>\n";
  // Slope chart: consensus positions.
  std::vector<svg::SlopeItem> slope;
  std::map<std::string, bool> flagged;
  for (const auto& g : gaps) flagged[str(g, "item")] = g["misaligned"].get<bool>();
  for (const auto& id_json : q["items"]) {
    std::string id = id_json;
    svg::SlopeItem s;
    s.id = id;
    s.name = item_name(report, id);
    // The first place of the item's tier (items of equal mean rank share it) and the tier's size.
    const auto place = [&id](const Json& g, int& position, int& tied) {
      if (!g.contains("consensus_tiers")) {
        for (std::size_t p = 0; p < g["consensus"].size(); ++p)
          if (g["consensus"][p] == id) position = static_cast<int>(p) + 1;
        return;
      }
      int first = 1;
      for (const auto& tier : g["consensus_tiers"]) {
        for (const auto& t : tier)
          if (t == id) position = first, tied = static_cast<int>(tier.size());
        first += static_cast<int>(tier.size());
      }
    };
    place(groups[a], s.position_a, s.tied_a);
    place(groups[b], s.position_b, s.tied_b);
    s.highlighted = flagged[id];
    slope.push_back(s);
  }
  h << "<p class=\"legend\"><span><i class=\"sw\" style=\"background:var(--blue)\"></i>aligned</span>"
       "<span><i class=\"sw\" style=\"background:var(--verm);height:5px\"></i>misaligned ⚑ (Holm p &lt; 0.05 or |Cliff's δ| ≥ 0.474), dashed and bold</span></p>";
  h << chart_box(svg::slope_chart(qid + ": consensus position, " + a + " vs " + b, a, b, slope)) << "\n";
  std::vector<svg::Bar> bars;
  for (const auto& g : gaps) {
    svg::Bar bar;
    bar.id = str(g, "item");
    bar.name = item_name(report, bar.id);
    bar.value = g["gap"].is_number() ? g["gap"].get<double>() : std::nan("");
    bar.highlighted = g["misaligned"].get<bool>();
    bars.push_back(bar);
  }
  h << "<p class=\"legend\"><span><i class=\"sw\" style=\"background:var(--orange);height:10px\"></i>" << escape(b)
    << " gives higher priority</span><span><i class=\"sw\" style=\"background:var(--blue);height:10px\"></i>" << escape(a)
    << " gives higher priority</span><span>black outline and ⚑: misaligned</span></p>";
  h << chart_box(svg::diverging_bar_chart(qid + ": priority gap (mean rank " + b + " minus " + a + ")",
                                         b + " gives higher priority", a + " gives higher priority", bars))
    << "\n";
  h << "<table><tr><th>Item</th><th>" << escape(a) << " mean rank</th><th>" << escape(b)
    << " mean rank</th><th>Gap</th><th>U</th><th>p</th><th>Holm p</th><th>Cliff's δ</th><th>Flag basis</th></tr>";
  for (const auto& g : gaps) {
    bool m = g["misaligned"].get<bool>();
    std::string id = str(g, "item");
    h << "<tr" << (m ? " class=\"flag\"" : "") << "><td>" << escape(id) << " " << escape(item_name(report, id)) << (m ? " ⚑" : "")
      << "</td><td class=\"num\">" << fmt(g["mean_rank"][a]) << "</td><td class=\"num\">" << fmt(g["mean_rank"][b]) << "</td><td class=\"num\">"
      << fmt(g["gap"]) << "</td><td class=\"num\">" << fmt(g["mann_whitney_u"], 1) << "</td><td class=\"num\">" << fmt_p(g["p"])
      << "</td><td class=\"num\">" << fmt_p(g["p_holm"]) << "</td><td class=\"num\">" << fmt(g["cliffs_delta"]) << "</td><td>" << (m && g.contains("basis") && g["basis"].is_string() ? escape(g["basis"].get<std::string>()) : std::string())
      << "</td></tr>";
  }
  h << "</table>\n";
}

void ranking_section(std::ostringstream& h, const Json& report, const Json& rankings, const std::string& anchor) {
  if (!rankings.is_object() || !rankings.contains("questions")) return;
  for (const auto& q : rankings["questions"]) {
    std::string qid = str(q, "question");
    question_heading(h, q, anchor);
    const auto& groups = q["groups"];
    if (groups.empty()) {
      h << "<p class=\"muted\">No rankings.</p>";
      continue;
    }
    // Consensus table side by side.
    h << "<table><tr><th>Position</th>";
    for (auto it = groups.begin(); it != groups.end(); ++it)
      h << "<th>" << escape(it.key()) << " (n = " << it.value()["n"].get<int>() << ", W = " << fmt(it.value()["kendall_w"]) << ")</th>";
    h << "</tr>";
    std::size_t k = q["items"].size();
    for (std::size_t pos = 0; pos < k; ++pos) {
      h << "<tr><td class=\"num\">" << pos + 1 << "</td>";
      for (auto it = groups.begin(); it != groups.end(); ++it) {
        std::string id = it.value()["consensus"][pos].get<std::string>();
        h << "<td>" << escape(id) << " " << escape(item_name(report, id)) << " <span class=\"muted\">(" << fmt(it.value()["mean_rank"][id])
          << ")</span></td>";
      }
      h << "</tr>";
    }
    h << "</table><p class=\"muted\">Mean rank in parentheses (1 = highest priority); W = Kendall's coefficient of concordance within the group.</p>\n";
    // The consensus orders with ties: equal mean ranks joined with =.
    h << "<p class=\"muted\">Consensus order; items with equal mean ranks are joined with =.</p><ul class=\"consensus\">";
    for (auto it = groups.begin(); it != groups.end(); ++it) {
      if (!it.value().contains("consensus_tiers")) continue;
      std::string order;
      for (const auto& tier : it.value()["consensus_tiers"]) {
        if (!order.empty()) order += " &gt; ";
        std::string joined;
        for (const auto& id : tier) joined += (joined.empty() ? "" : " = ") + escape(id.get<std::string>());
        order += joined;
      }
      h << "<li><b>" << escape(it.key()) << ":</b> " << order << "</li>";
    }
    h << "</ul>\n";
    if (q.contains("answer_lengths_note")) h << "<p class=\"note\">" << escape(str(q, "answer_lengths_note")) << "</p>\n";
    if (q.contains("too_small") && !q["too_small"].empty()) {
      h << "<p class=\"note\">" << escape(str(q, "too_small_note")) << "</p>\n<ul>";
      for (const auto& g : q["too_small"])
        for (const auto& r : g["rankings"])
          h << "<li>" << escape(str(g, "group")) << ", " << escape(str(r, "participant")) << ": " << escape(str(r, "ranking")) << "</li>";
      h << "</ul>\n";
    }
    model_block(h, report, q);
    k_groups_block(h, report, q);
    if (q.contains("tests_differ")) h << "<p class=\"note\">" << escape(str(q, "tests_differ")) << "</p>\n";
    const Json* list = q.contains("comparisons") && q["comparisons"].is_array() ? &q["comparisons"] : nullptr;
    if (!list || list->empty()) {
      h << "<p class=\"muted\">No comparison between groups.</p>";
      continue;
    }
    for (const auto& c : *list) comparison_block(h, report, q, c, c["gaps"]);
    if (q.contains("not_compared") && !q["not_compared"].empty()) {
      std::string names, pairs;
      for (const auto& n : q["not_compared"]) {
        std::string level = n.get<std::string>();
        names += (names.empty() ? "" : ", ") + level + " (n = " + std::to_string(groups[level]["n"].get<int>()) + ")";
      }
      for (const auto& c : *list) pairs += (pairs.empty() ? "" : "; ") + c["groups"][0].get<std::string>() + " vs " + c["groups"][1].get<std::string>();
      h << "<p class=\"note\">Not compared pairwise: " << escape(names) << " (the comparisons made: " << escape(pairs)
        << "; name others with <code>compare:</code> in the guideline).</p>\n";
    }
  }
}

// The experience comparison of every role with at least two experience levels, titled in the study's own
// level names ("<role>: <level> vs <level>").
void experience_section(std::ostringstream& h, const Json& report) {
  h << "<h2 id=\"experience\">Experience comparison</h2>";
  if (!report.contains("experience_comparisons") || report["experience_comparisons"].empty()) {
    h << "<p class=\"muted\">No role has participants at two or more experience levels.</p>\n";
    return;
  }
  std::size_t i = 0;
  for (const auto& e : report["experience_comparisons"]) {
    h << "<h3 class=\"exp-title\">" << escape(str(e, "title")) << "</h3>\n";
    ranking_section(h, report, e, "exp" + std::to_string(++i));
  }
}

void heatmap_section(std::ostringstream& h, const Json& report) {
  if (!report.contains("codebook") || !report["codebook"].contains("matrix")) return;
  const auto& m = report["codebook"]["matrix"];
  const std::string level = level_name(report, 2);
  svg::Heatmap hm;
  hm.title = "Participants who mentioned each " + level + ", per group";
  hm.legend_label = "share of the group who mentioned it";
  for (const auto& g : m["groups"]) hm.column_labels.push_back(str(g, "label") + " (n=" + std::to_string(g["participants"].get<int>()) + ")");
  for (const auto& row : m["rows"]) {
    if (!row.contains("level") || row["level"].get<int>() != 2) continue;
    hm.row_labels.push_back(str(row, "node") + " " + str(row, "name"));
    std::vector<double> values;
    std::vector<std::string> texts;
    for (std::size_t c = 0; c < row["counts"].size(); ++c) {
      // report.json's percents are per cent of the group (0-100, one decimal); the scale takes fractions.
      const auto& pct = row["percents"][c];
      double percent = pct.is_number() ? pct.get<double>() : std::nan("");
      values.push_back(percent / 100.0);
      char buf[32];
      if (std::isnan(percent)) std::snprintf(buf, sizeof buf, "%d", row["counts"][c].get<int>());
      else std::snprintf(buf, sizeof buf, "%d (%.0f%%)", row["counts"][c].get<int>(), percent);
      texts.push_back(buf);
    }
    hm.values.push_back(values);
    hm.cell_text.push_back(texts);
  }
  h << "<h2 id=\"matrix\">" << escape(level) << " by group</h2><p>How many participants of each group mentioned each node at level 2 ("
    << escape(level) << "); a code on a node below it counts for it. Each cell: participants (per cent of the group); "
       "darker = a larger share of the group, as the scale under the chart shows.</p>"
    << chart_box(svg::heatmap(hm)) << "\n";
}

// Exemplar quotes as a list: "quote" — participant. Escaped: input text never becomes markup.
void exemplar_list(std::ostringstream& h, const Json& exemplars) {
  if (!exemplars.is_array() || exemplars.empty()) return;
  h << "<ul class=\"quotes\">";
  for (const auto& e : exemplars)
    h << "<li><q>" << escape(str(e, "quote")) << "</q> <span class=\"muted\">— " << escape(str(e, "participant")) << ", "
      << escape(str(e, "source")) << "</span></li>";
  h << "</ul>";
}

void coded_section(std::ostringstream& h, const Json& report) {
  if (!report.contains("coded") || !report["coded"].is_object()) return;
  const auto& c = report["coded"];
  h << "<h2 id=\"coded\">What is coded</h2><p>Each code applied to a transcript segment, counted where it was applied "
       "(a code on a sub-node does not count for its parent here): coded segments, participants per "
    << escape(str(c, "by")) << ", and the quotes the researchers picked as exemplars.</p>";
  if (report.contains("coding") && report["coding"].is_object())
    h << "<p class=\"note\">Counted: " << escape(str(report["coding"], "description")) << ".</p>";
  h << "<table><tr><th>Code</th><th>Segments</th>";
  for (const auto& g : c["groups"])
    h << "<th>" << escape(str(g, "value").empty() ? std::string("(none)") : str(g, "value")) << " (n = " << g.value("participants", Json(0)).dump()
      << ")</th>";
  h << "<th>Exemplar quotes</th></tr>";
  for (const auto& code : c["codes"]) {
    h << "<tr><td><b>" << escape(str(code, "node")) << "</b> " << escape(str(code, "name")) << "</td><td class=\"num\">"
      << code.value("segments", Json(0)).dump() << "</td>";
    for (const auto& g : c["groups"]) {
      const auto& p = code["participants"];
      std::string key = str(g, "value");
      h << "<td class=\"num\">" << (p.contains(key) ? p[key].dump() : "0") << "</td>";
    }
    h << "<td>";
    exemplar_list(h, code.value("exemplars", Json::array()));
    h << "</td></tr>";
  }
  h << "</table>\n";
}

void tree_section(std::ostringstream& h, const Json& report) {
  if (!report.contains("taxonomy")) return;
  const auto& t = report["taxonomy"];
  h << "<h2 id=\"taxonomy\">Taxonomy, version " << (t.contains("version") ? t["version"].dump() : "1") << "</h2>";
  h << "<p>Nodes added after version 1 through interview proposals are marked <span class=\"badge\">new</span>, with who proposed them and where.</p>";
  std::map<std::string, std::vector<const Json*>> children;
  for (const auto& n : t["nodes"]) children[str(n, "parent")].push_back(&n);
  std::map<std::string, const Json*> exemplars;  // the codebook's picks per node
  if (report.contains("codebook") && report["codebook"].contains("matrix"))
    for (const auto& row : report["codebook"]["matrix"]["rows"])
      if (row.contains("exemplars") && !row["exemplars"].empty()) exemplars[str(row, "node")] = &row["exemplars"];
  std::function<void(const std::string&)> render = [&](const std::string& parent) {
    auto it = children.find(parent);
    if (it == children.end()) return;
    h << "<ul class=\"tree\">";
    for (const Json* n : it->second) {
      bool added = n->contains("added_in") && !(*n)["added_in"].is_null();
      h << "<li><b>" << escape(str(*n, "id")) << "</b> " << escape(str(*n, "name"));
      if (added) h << "<span class=\"badge\">new in v" << (*n)["added_in"].dump() << "</span>";
      if (str(*n, "status") != "active" && !str(*n, "status").empty()) h << " <span class=\"muted\">(" << escape(str(*n, "status")) << ")</span>";
      if (n->contains("provenance"))
        for (const auto& p : (*n)["provenance"])
          h << "<div class=\"prov\">proposed by " << escape(str(p, "by")) << " at " << escape(str(p, "source")) << (str(p, "rationale").empty() ? "" : ": " + escape(str(p, "rationale"))) << "</div>";
      if (auto e = exemplars.find(str(*n, "id")); e != exemplars.end()) exemplar_list(h, *e->second);
      render(str(*n, "id"));
      h << "</li>";
    }
    h << "</ul>";
  };
  render("");
}

void agreement_table(std::ostringstream& h, const Json& a, const std::string& title) {
  h << "<h3>" << escape(title) << "</h3>";
  // The share of units agreed whole: all coders gave the same label (label tables), or identical code sets
  // (transcripts); absent from a report.json written before it.
  const bool transcripts = a.contains("exact_agreement");
  const char* whole_key = transcripts ? "exact_agreement" : "all_agree";
  const bool whole = a.contains(whole_key);
  h << "<table><tr><th>Units</th><th>Coders</th><th>Left out of Fleiss</th><th>Fleiss' κ</th><th>Krippendorff's α</th><th>Percent agreement</th>"
    << (whole ? std::string("<th>") + (transcripts ? "Identical code sets" : "All coders agree") + "</th>" : "")
    << "<th>95% CI κ</th><th>95% CI α</th></tr><tr>";
  h << "<td class=\"num\">" << (a.contains("units") ? a["units"].dump() : "") << "</td><td class=\"num\">"
    << (a.contains("coders") ? (a["coders"].is_array() ? std::to_string(a["coders"].size()) : a["coders"].dump()) : "") << "</td><td class=\"num\">"
    << (a.contains("dropped_units") ? a["dropped_units"].dump() : "") << "</td><td class=\"num\">" << fmt(a.value("fleiss_kappa", Json()), 3)
    << "</td><td class=\"num\">" << fmt(a.value("krippendorff_alpha", Json()), 3) << "</td><td class=\"num\">"
    << fmt(a.value("percent_agreement", Json()), 3) << "</td>";
  if (whole) h << "<td class=\"num\">" << fmt(a.value(whole_key, Json()), 3) << "</td>";
  auto ci = [&](const char* key) {
    if (a.contains("confidence") && a["confidence"].contains(key) && a["confidence"][key].is_array())
      return "[" + fmt(a["confidence"][key][0], 3) + ", " + fmt(a["confidence"][key][1], 3) + "]";
    return std::string("n/a");
  };
  h << "<td>" << ci("fleiss_kappa") << "</td><td>" << ci("krippendorff_alpha") << "</td></tr></table>";
  h << "<p class=\"muted\">Percent agreement: the mean share of agreeing coder pairs "
    << (transcripts ? "per unit and code, each code present or absent (agreeing that a code is absent counts)"
                    : "per unit, over the units with two or more ratings")
    << (!whole ? std::string(".")
               : transcripts ? "; identical code sets: the share of units on which the coders applied the same codes."
                             : "; all coders agree: the share of the units rated by every coder on which all gave the same label.")
    << "</p>";
  if (a.contains("confidence") && a["confidence"].contains("warning") && a["confidence"]["warning"].is_string())
    h << "<p class=\"note\">⚠ " << escape(a["confidence"]["warning"].get<std::string>()) << ".</p>";
  if (a.contains("confidence") && a["confidence"].value("method", Json()) == "jackknife")
    h << "<p class=\"note\">The intervals are jackknife normal intervals (used instead of the bootstrap from 100,000 units on).</p>";
  if (a.contains("groups") && a["groups"].is_object() && !a["groups"].empty()) {
    h << "<table><tr><th>Group</th><th>Units</th><th>Fleiss' κ</th><th>Krippendorff's α</th><th>Percent agreement</th></tr>";
    for (auto it = a["groups"].begin(); it != a["groups"].end(); ++it)
      h << "<tr><td>" << escape(it.key()) << "</td><td class=\"num\">" << it.value().value("units", Json()).dump() << "</td><td class=\"num\">"
        << fmt(it.value().value("fleiss_kappa", Json()), 3) << "</td><td class=\"num\">" << fmt(it.value().value("krippendorff_alpha", Json()), 3)
        << "</td><td class=\"num\">" << fmt(it.value().value("percent_agreement", Json()), 3) << "</td></tr>";
    h << "</table>";
  }
  if (a.contains("per_node") && a["per_node"].is_object() && !a["per_node"].empty()) {
    h << "<table><tr><th>Code</th><th>Units coded</th><th>Positive agreement</th><th>Fleiss' κ</th><th>Krippendorff's α</th><th>Percent agreement</th></tr>";
    for (auto it = a["per_node"].begin(); it != a["per_node"].end(); ++it)
      h << "<tr><td>" << escape(it.key()) << "</td><td class=\"num\">" << it.value().value("units_coded", Json()).dump()
        << "</td><td class=\"num\">" << fmt(it.value().value("positive_agreement", Json()), 3) << "</td><td class=\"num\">"
        << fmt(it.value().value("fleiss_kappa", Json()), 3) << "</td><td class=\"num\">"
        << fmt(it.value().value("krippendorff_alpha", Json()), 3) << "</td><td class=\"num\">"
        << fmt(it.value().value("percent_agreement", Json()), 3) << "</td></tr>";
    h << "</table><p class=\"muted\">Per code, over all " << a.value("units", Json(0)).dump()
      << " units compared, each code present or absent per coder: units coded, the units at least one coder applied the code to; "
         "positive agreement on its presence, 2a / (2a + b + c) pooled over coder pairs (a: both applied it, b + c: one did); "
         "κ, α and percent agreement count agreeing that the code is absent too.</p>";
  }
  if (a.contains("disagreements") && a["disagreements"].is_array() && !a["disagreements"].empty()) {
    h << "<details><summary>Disagreements (" << a["disagreements"].size()
      << " listed; qualrank reconcile walks them and records the decisions)</summary><table><tr><th>Unit</th><th>Where</th>";
    std::vector<std::string> names;
    for (const auto& d : a["disagreements"])
      if (d.contains("nodes") && d["nodes"].is_object())
        for (auto it = d["nodes"].begin(); it != d["nodes"].end(); ++it)
          if (std::find(names.begin(), names.end(), it.key()) == names.end()) names.push_back(it.key());
    for (const auto& n : names) h << "<th>" << escape(n) << "</th>";
    h << "</tr>";
    for (const auto& d : a["disagreements"]) {
      h << "<tr><td>" << escape(str(d, "unit")) << "</td><td>" << escape(str(d, "file")) << ":" << d.value("line", Json(0)).dump() << "</td>";
      for (const auto& n : names) {
        std::string cell = "—";
        if (d.contains("nodes") && d["nodes"].contains(n) && d["nodes"][n].is_array()) {
          cell.clear();
          for (const auto& id : d["nodes"][n]) cell += (cell.empty() ? "" : ", ") + id.get<std::string>();
          if (cell.empty()) cell = "(none)";
        }
        h << "<td>" << escape(cell) << "</td>";
      }
      h << "</tr>";
    }
    h << "</table></details>";
  }
  if (a.contains("cohen_kappa_pairs") && a["cohen_kappa_pairs"].is_array() && !a["cohen_kappa_pairs"].empty()) {
    h << "<details><summary>Cohen's κ for each pair of coders</summary><table><tr><th>Coder</th><th>Coder</th><th>κ</th></tr>";
    for (const auto& p : a["cohen_kappa_pairs"])
      h << "<tr><td>" << escape(str(p, "a")) << "</td><td>" << escape(str(p, "b")) << "</td><td class=\"num\">" << fmt(p.value("kappa", Json()), 3) << "</td></tr>";
    h << "</table></details>";
  }
}

// Saturation: the statement, the chart of the whole study, and the curve as a table (per role: the statement).
void saturation_section(std::ostringstream& h, const Json& report) {
  if (!report.contains("saturation") || !report["saturation"].is_object()) return;
  const Json& sat = report["saturation"];
  const Json& all = sat["all"];
  const Json& p = sat["parameters"];
  h << "<h2 id=\"saturation\">Saturation</h2><p>New codes per interview, in interview order (the transcripts' <code>date:</code>, "
       "else file order), and the assessment of Guest, Namey &amp; Chen (2020, PLoS ONE 15(5): e0232076): base "
    << p["base"].dump() << " interviews, runs of " << p["run"].dump() << ", new-information threshold "
    << escape(text::fixed(100 * p["threshold"].get<double>(), 0)) << "%.</p>";
  h << "<p class=\"sat-statement\"><b>" << escape(str(all, "statement")) << "</b></p>";
  svg::SaturationChart chart;
  chart.title = "New codes per interview and distinct codes so far";
  chart.base = p["base"].get<int>();
  if (all["saturated_at"].is_number()) chart.saturated_at = all["saturated_at"].get<int>();
  for (const auto& i : all["interviews"]) chart.points.push_back({str(i, "participant"), i["new_codes"].get<int>(), i["cumulative"].get<int>()});
  h << chart_box(svg::saturation_chart(chart)) << "\n";
  if (sat.contains("roles") && !sat["roles"].empty()) {
    h << "<ul class=\"sat-roles\">";
    for (auto it = sat["roles"].begin(); it != sat["roles"].end(); ++it)
      h << "<li data-role=\"" << escape(it.key()) << "\">" << escape(it.key()) << ": " << escape(str(it.value(), "statement")) << "</li>";
    h << "</ul>";
  }
  h << "<details><summary>The curve, interview by interview</summary><table class=\"sat-table\"><tr><th>#</th><th>Participant</th>"
       "<th>Role</th><th>Codes</th><th>New</th><th>Distinct so far</th><th>First seen here</th></tr>";
  for (const auto& i : all["interviews"]) {
    std::string first;
    for (const auto& c : i["first_seen"]) first += (first.empty() ? "" : ", ") + c.get<std::string>();
    h << "<tr><td>" << i["number"].dump() << "</td><td>" << escape(str(i, "participant")) << "</td><td>" << escape(str(i, "role"))
      << "</td><td>" << i["codes"].dump() << "</td><td>" << i["new_codes"].dump() << "</td><td>" << i["cumulative"].dump()
      << "</td><td>" << escape(first) << "</td></tr>";
  }
  h << "</table></details>";
}

void agreement_section(std::ostringstream& h, const Json& report) {
  if (!report.contains("agreement") || report["agreement"].is_null()) return;
  const auto& ag = report["agreement"];
  h << "<h2 id=\"agreement\">Inter-coder agreement</h2>";
  if (ag.contains("labels") && !ag["labels"].is_null()) agreement_table(h, ag["labels"], "Label tables, grouped by " + level_name(report, 1));
  if (ag.contains("transcripts") && !ag["transcripts"].is_null()) agreement_table(h, ag["transcripts"], "Transcript codings by several coders (per node, present/absent)");
  if (ag.contains("rounds") && ag["rounds"].is_array() && !ag["rounds"].empty()) {
    h << "<h3>Per coding round, before reconciliation</h3><p>A round: the transcripts reconciled on one day (the "
         "first decision in their consensus coding); the coders' own codes compared, pooled over codes.</p>"
         "<table><tr><th>Round</th><th>Transcripts</th><th>Units</th><th>Coders</th><th>Fleiss' κ</th><th>Krippendorff's α</th>"
         "<th>Percent agreement</th></tr>";
    for (const auto& r : ag["rounds"]) {
      std::string files;
      for (const auto& f : r["transcripts"]) files += (files.empty() ? "" : ", ") + f.get<std::string>();
      h << "<tr><td>" << escape(str(r, "round")) << "</td><td>" << escape(files) << "</td><td class=\"num\">"
        << r.value("units", Json(0)).dump() << "</td><td class=\"num\">" << r["coders"].size() << "</td><td class=\"num\">"
        << fmt(r.value("fleiss_kappa", Json()), 3) << "</td><td class=\"num\">" << fmt(r.value("krippendorff_alpha", Json()), 3)
        << "</td><td class=\"num\">" << fmt(r.value("percent_agreement", Json()), 3) << "</td></tr>";
    }
    h << "</table>";
  }
}

// Stage one (report.json's "corpus", Table I, and "stage_one"): the table per source with both averages of the
// false-positive rate, each named; what each keyword retrieved; the screeners, their rule and agreement; the
// samples; the coders' agreement before reconciliation; how the reconciliation resolved the disagreements.
void stage_one_section(std::ostringstream& h, const Json& report) {
  if (!report.contains("corpus") || !report["corpus"].is_object()) return;
  const Json& t = report["corpus"];
  const Json& s = report.contains("stage_one") && report["stage_one"].is_object() ? report["stage_one"] : Json(nullptr);
  auto n = [](const Json& v) { return v.is_number() ? v.dump() : std::string("n/a"); };
  auto percent = [](const Json& v) { return v.is_number() ? text::fixed(100.0 * v.get<double>(), 2) + " %" : std::string("n/a"); };
  h << "<h2 id=\"stage-one\">Stage one</h2>";
  if (t.contains("rule")) {
    h << "<h3>Table I: retrieval and screening per source</h3><p>Documents stored, created in the retrieval's window ("
      << escape(str(t, "window")) << "), retrieved by keywords, screened, screened out as false positives (rule: " << escape(str(t, "rule"))
      << "), kept, and the false-positive rate (screened out / retrieved).</p>";
    h << "<table class=\"table-one\"><tr><th>Source</th><th>Stored</th><th>In window</th><th>Retrieved</th><th>Screened</th>"
         "<th>Screened out</th><th>Kept</th><th>FP rate</th></tr>";
    auto row = [&](const Json& r, bool total) {
      h << "<tr" << (total ? " class=\"total\"" : "") << "><td>" << (total ? "<b>total</b>" : escape(str(r, "source"))) << "</td>";
      for (const char* k : {"stored", "in_window", "retrieved", "screened", "screened_out", "kept"}) h << "<td class=\"num\">" << n(r.value(k, Json())) << "</td>";
      h << "<td class=\"num\">" << fmt(r.value("fp_rate", Json()), 4) << "</td></tr>";
    };
    for (const auto& r : t["rows"]) row(r, false);
    row(t["total"], true);
    int sources = 0;
    for (const auto& r : t["rows"]) sources += r.value("retrieved", Json(0)).get<std::int64_t>() > 0;
    h << "</table><p class=\"fp-averages\">False-positive rate of the total row: <span class=\"fp-pooled\">pooled (all sources' screened out / "
         "retrieved) "
      << percent(t.value("fp_rate_pooled", Json())) << "</span>; <span class=\"fp-mean\">mean of the " << sources << " sources' rates "
      << percent(t.value("fp_rate_mean_of_sources", Json())) << "</span>.</p>";
  }
  if (!s.is_object()) return;
  const Json& kw = s["keywords"];
  h << "<h3>Retrieval per keyword</h3><p>" << kw["terms"].dump() << " keywords";
  std::string files;
  for (const auto& f : kw["files"]) files += (files.empty() ? "" : ", ") + str(f, "file") + " (" + f["terms"].dump() + " terms)";
  if (!files.empty()) h << " from " << escape(files);
  h << "; window " << escape(str(kw["window"], "text")) << ". Each keyword: the retrieved documents it matched (title, body or a comment; a "
       "document matched by several keywords counts for each).</p>";
  h << "<table class=\"keywords\"><tr><th>Source</th><th>Keyword</th><th>Documents</th></tr>";
  for (const auto& src : s["retrieval"]) {
    if (src["whole"].get<bool>()) {
      h << "<tr><td>" << escape(str(src, "source")) << "</td><td class=\"muted\">(no keyword list: taken whole)</td><td class=\"num\">"
        << src["retrieved"].dump() << "</td></tr>";
      continue;
    }
    for (const auto& k : src["keywords"])
      h << "<tr><td>" << escape(str(src, "source")) << "</td><td>" << escape(str(k, "term")) << "</td><td class=\"num\">" << k["documents"].dump()
        << "</td></tr>";
  }
  h << "</table>";
  const Json& sc = s["screening"];
  h << "<h3>Screening</h3><p class=\"screening\">";
  std::string names;
  for (const auto& x : sc["screeners"]) names += (names.empty() ? "" : ", ") + str(x, "name") + " (" + x["screened"].dump() + " screened)";
  auto counted = [](const Json& count, const char* one, const char* many) {
    return count.dump() + " " + (count.is_number() && count.get<double>() == 1 ? one : many);
  };
  h << counted(Json(sc["screeners"].size()), "screener", "screeners") << ": " << escape(names.empty() ? std::string("none") : names) << ". Rule: "
    << (str(sc, "rule") == "majority" ? "a document is excluded when more than half of those who screened it said false positive"
                                      : "a document is excluded when every screener who screened it said false positive")
    << " (" << escape(str(sc, "rule")) << "). Over the " << counted(sc["screened_by_all"], "document", "documents")
    << " every screener decided on, all agree on "
    << sc["agreeing"].dump() << " (" << percent(sc["percent_all_agree"]) << "); Cohen's κ " << fmt(sc["cohen_kappa"], 3) << ", Fleiss' κ "
    << fmt(sc["fleiss_kappa"], 3) << ".";
  if (sc.contains("percent_agreement"))
    h << " Percent agreement (the mean share of agreeing screener pairs, over the " << counted(sc.value("screened_by_two", Json(0)), "document", "documents")
      << " two or more screeners decided on): " << fmt(sc["percent_agreement"], 3) << ".";
  h << " Excluded: " << sc["excluded"].dump() << " of " << sc["retrieved"].dump() << " retrieved.</p>";
  if (!sc["excluded_by_reason"].empty() || !sc["false_positive_decisions_by_reason"].empty()) {
    h << "<table class=\"reasons\"><tr><th>Reason</th><th>Documents excluded</th><th>Screeners' false-positive decisions</th></tr>";
    std::vector<std::string> reasons;
    for (const char* k : {"excluded_by_reason", "false_positive_decisions_by_reason"})
      for (auto it = sc[k].begin(); it != sc[k].end(); ++it)
        if (std::find(reasons.begin(), reasons.end(), it.key()) == reasons.end()) reasons.push_back(it.key());
    std::sort(reasons.begin(), reasons.end());
    for (const auto& r : reasons)
      h << "<tr><td>" << escape(r) << "</td><td class=\"num\">" << sc["excluded_by_reason"].value(r, Json(0)).dump() << "</td><td class=\"num\">"
        << sc["false_positive_decisions_by_reason"].value(r, Json(0)).dump() << "</td></tr>";
    h << "</table>";
  }
  h << "<h3>Samples</h3>";
  if (s["samples"].empty()) {
    h << "<p class=\"muted\">No sample drawn yet.</p>";
    return;
  }
  h << "<table class=\"samples\"><tr><th>Sample</th><th>n</th><th>Population N</th><th>Size</th><th>Allocation</th><th>Seed</th><th>Drawn apart from</th></tr>";
  for (const auto& sm : s["samples"]) {
    std::string size;
    if (sm["cochran"].is_object()) {
      const auto& c = sm["cochran"];
      size = "Cochran: z = " + fmt(c["z"], 4) + ", p = " + fmt(c["p"], 2) + ", e = " + fmt(c["e"], 2) + ", N = " + c["N"].dump() + ", n0 = " +
             fmt(c["n0"], 2) + ", n = " + c["n"].dump();
    } else {
      size = sm["size"].is_string() ? "given: " + sm["size"].get<std::string>() : std::string("not recorded");
    }
    std::string alloc, apart;
    for (auto it = sm["allocation"].begin(); it != sm["allocation"].end(); ++it) alloc += (alloc.empty() ? "" : ", ") + it.key() + " " + it.value().dump();
    for (const auto& a : sm["drawn_apart_from"]) apart += (apart.empty() ? "" : ", ") + a.get<std::string>();
    h << "<tr><td>" << escape(str(sm, "name")) << "</td><td class=\"num\">" << sm["n"].dump() << "</td><td class=\"num\">" << n(sm["population"])
      << "</td><td>" << escape(size) << "</td><td>" << escape(alloc) << "</td><td>" << escape(sm["seed"].is_string() ? sm["seed"].get<std::string>() : "n/a")
      << "</td><td>" << escape(apart.empty() ? std::string("—") : apart) << "</td></tr>";
  }
  h << "</table>";
  h << "<h3>Labels: agreement before reconciliation</h3>";
  // All agree: of the documents labelled by all; percent agreement: the mean share of agreeing coder pairs over the
  // documents labelled by two or more (its own column, so that each share's units stand beside it).
  h << "<table class=\"labels\"><tr><th>Sample</th><th>Coders</th><th>Labelled</th><th>Labelled by all</th><th>All agree</th>"
       "<th>Labelled by two or more</th><th>Percent agreement</th><th>Fleiss' κ</th><th>Cohen's κ</th></tr>";
  bool any_labels = false;
  for (const auto& sm : s["samples"]) {
    if (!sm["labels"].is_object()) continue;
    any_labels = true;
    const auto& l = sm["labels"];
    std::string coders;
    for (const auto& c : l["coders"]) coders += (coders.empty() ? "" : ", ") + c.get<std::string>();
    h << "<tr><td>" << escape(str(sm, "name")) << "</td><td>" << escape(coders) << "</td><td class=\"num\">" << l["labelled"].dump()
      << "</td><td class=\"num\">" << l["labelled_by_all"].dump() << "</td><td class=\"num\">" << l["agreeing"].dump() << "</td><td class=\"num\">"
      << (l.contains("labelled_by_two") ? l["labelled_by_two"].dump() : std::string()) << "</td><td class=\"num\">" << fmt(l["percent_agreement"], 3) << "</td><td class=\"num\">" << fmt(l["fleiss_kappa"], 3) << "</td><td class=\"num\">" << fmt(l["cohen_kappa"], 3)
      << "</td></tr>";
  }
  h << "</table>";
  if (!any_labels) h << "<p class=\"muted\">No sample labelled yet.</p>";
  for (const auto& sm : s["samples"]) {
    if (!sm["labels"].is_object() || sm["labels"]["per_category"].empty()) continue;
    h << "<table class=\"per-category\" data-sample=\"" << escape(str(sm, "name")) << "\"><tr><th>Sample " << escape(str(sm, "name"))
      << ": category</th><th>Fleiss' κ</th></tr>";
    const auto& per = sm["labels"]["per_category"];
    for (auto it = per.begin(); it != per.end(); ++it) {
      const std::string name = item_name(report, it.key());
      h << "<tr><td>" << escape(it.key()) << (name.empty() ? "" : " " + escape(name)) << "</td><td class=\"num\">" << fmt(it.value(), 3) << "</td></tr>";
    }
    h << "</table>";
  }
  if (any_labels) {
    h << "<h3>Reconciliation</h3><table class=\"reconciliation\"><tr><th>Sample</th><th>Disagreements</th><th>Of those decided</th><th>Decisions</th><th>By majority</th>"
         "<th>Kept one coder's label</th><th>Other label</th><th>Deciders</th><th>Open</th></tr>";
    for (const auto& sm : s["samples"]) {
      if (!sm["reconciliation"].is_object()) continue;
      const auto& r = sm["reconciliation"];
      std::string deciders;
      for (auto it = r["by_decider"].begin(); it != r["by_decider"].end(); ++it) deciders += (deciders.empty() ? "" : ", ") + it.key() + " " + it.value().dump();
      h << "<tr><td>" << escape(str(sm, "name")) << "</td>";
      for (const char* k : {"disagreements", "disagreements_decided", "decisions", "by_majority", "by_keeping_a_coder", "by_other"}) h << "<td class=\"num\">" << r[k].dump() << "</td>";
      h << "<td>" << escape(deciders.empty() ? std::string("—") : deciders) << "</td><td class=\"num\">" << r["open"].dump() << "</td></tr>";
    }
    h << "</table><p class=\"muted\">Decisions count every document the reconciliation decided, disagreements and documents some coders "
         "left out alike; open: labelled documents without a final label yet.</p>";
  }
}

}  // namespace

std::string render_html_report(const Json& report) {
  const auto names = node_names(report);
  struct Scope {
    explicit Scope(const std::map<std::string, std::string>& n) { rendered_names = &n; }
    ~Scope() { rendered_names = nullptr; }
  } scope(names);
  std::ostringstream h;
  const auto& ws = report["workspace"];
  std::string title = str(ws, "title").empty() ? "qualrank report" : str(ws, "title");
  h << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
    << "<title>" << escape(title) << "</title><style>" << kStyle << "</style></head><body>\n";
  h << "<h1>" << escape(title) << "</h1><p class=\"muted\">qualrank " << escape(str(report, "qualrank")) << " · taxonomy "
    << escape(str(ws, "taxonomy")) << " version " << ws.value("taxonomy_version", Json(1)).dump() << " · guideline " << escape(str(ws, "guideline")) << "</p>\n";
  h << "<nav>";
  if (report.contains("corpus") && report["corpus"].is_object()) h << "<a href=\"#stage-one\">Stage one</a>";
  h << "<a href=\"#rankings\">Rankings</a><a href=\"#experience\">Experience comparison</a><a href=\"#matrix\">" << escape(level_name(report, 2)) << " by group</a>"
       "<a href=\"#coded\">What is coded</a><a href=\"#taxonomy\">Taxonomy</a><a href=\"#saturation\">Saturation</a><a href=\"#agreement\">Agreement</a><a href=\"#methods\">Methods evidence</a></nav>\n";
  h << "<div class=\"cards\">";
  auto card = [&](const std::string& label, const Json& v) { h << "<div class=\"card\"><b>" << escape(v.is_string() ? v.get<std::string>() : v.dump()) << "</b>" << escape(label) << "</div>"; };
  card("transcripts", ws.value("transcripts", Json(0)));
  if (ws.contains("participants_by_role"))
    for (auto it = ws["participants_by_role"].begin(); it != ws["participants_by_role"].end(); ++it) {
      // The guideline's plural of the role, else "in role X" (never a made-up plural such as "it-staffs").
      const Json plurals = ws.value("role_plurals", Json::object());
      card(plurals.contains(it.key()) ? plurals[it.key()].get<std::string>() : "in role " + it.key(), it.value());
    }
  card("coded segments", ws.value("coded_segments", Json(0)));
  card("taxonomy nodes", ws.value("taxonomy_nodes", Json(0)));
  h << "</div>\n";
  stage_one_section(h, report);
  h << "<h2 id=\"rankings\">Priority rankings by " << escape(str(report["rankings"], "by")) << "</h2>";
  ranking_section(h, report, report["rankings"], "rank");
  experience_section(h, report);
  heatmap_section(h, report);
  coded_section(h, report);
  tree_section(h, report);
  saturation_section(h, report);
  agreement_section(h, report);
  h << methods_html(report);
  h << "<p class=\"muted\" style=\"margin-top:3rem\">Every number on this page is read from report.json, written by the same run.</p>";
  h << "</body></html>\n";
  return h.str();
}

}  // namespace qualrank
