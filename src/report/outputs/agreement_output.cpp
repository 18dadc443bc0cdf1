// Agreement as JSON and as a text table (see agreement_output.h; the workbook is agreement_workbook.cpp).
#include "qualrank/report/outputs/agreement_output.h"

#include <cmath>
#include <cstdio>
#include <sstream>

#include "qualrank/util/text.h"

namespace qualrank {

namespace {

using json = nlohmann::ordered_json;

// A number, or null when undefined (NaN), so the JSON value itself says "undefined".
json number(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }

json pair_json(const std::pair<double, double>& p) { return json::array({number(p.first), number(p.second)}); }

json confidence_json(const std::pair<double, double>& fleiss, const std::pair<double, double>& alpha,
                     stats::IntervalMethod method, double level, int resamples, std::uint64_t seed,
                     const std::string& warning) {
  return {{"fleiss_kappa", pair_json(fleiss)},
          {"krippendorff_alpha", pair_json(alpha)},
          {"method", stats::interval_method_name(method)},
          {"level", level},
          {"resamples", resamples},
          {"seed", seed},
          {"warning", warning.empty() ? json(nullptr) : json(warning)}};
}

json pairs_json(const std::vector<CoderPairKappa>& pairs) {
  json out = json::array();
  for (const auto& p : pairs) out.push_back({{"a", p.a}, {"b", p.b}, {"kappa", number(p.kappa)}, {"units", p.units}});
  return out;
}

std::string num_text(double v, int decimals = 3) {
  if (std::isnan(v)) return "n/a";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

// "  95% CI [lo, hi]"; the jackknife's interval says so: "  95% CI [lo, hi] (jackknife)".
std::string interval(const std::pair<double, double>& ci, stats::IntervalMethod method, double level, int resamples) {
  if (resamples <= 0) return "";
  const std::string how = method == stats::IntervalMethod::jackknife ? " (jackknife)" : "";
  if (std::isnan(ci.first)) return "  " + num_text(level * 100, 0) + "% CI n/a" + how;
  return "  " + num_text(level * 100, 0) + "% CI [" + num_text(ci.first) + ", " + num_text(ci.second) + "]" + how;
}

// Left-aligned columns separated by two spaces, indented by two.
std::string columns(const std::vector<std::vector<std::string>>& rows) { return text::columns(rows, {}, "  "); }

// Kappa, alpha and percent agreement, then `last`: the rows that say how many units agreed whole (all coders
// agree, identical code sets). `basis` ends the percent agreement's row: what its share is over.
std::string figures_block(const AgreementFigures& f, const std::pair<double, double>& fleiss_ci,
                          const std::pair<double, double>& alpha_ci, stats::IntervalMethod method, double level,
                          int resamples, const std::string& basis, std::vector<std::vector<std::string>> last) {
  std::vector<std::vector<std::string>> rows{
      {"Fleiss' kappa", num_text(f.fleiss_kappa) + interval(fleiss_ci, method, level, resamples)},
      {"Krippendorff's alpha", num_text(f.krippendorff_alpha) + interval(alpha_ci, method, level, resamples)},
      {"Percent agreement", num_text(f.percent_agreement) + "  (mean share of agreeing coder pairs " + basis + ")"}};
  for (auto& r : last) rows.push_back(std::move(r));
  return columns(rows);
}

}  // namespace

nlohmann::ordered_json label_agreement_json(const LabelAgreement& a) {
  json out;
  out["units"] = a.overall.units;
  out["coders"] = a.coders;
  out["categories"] = a.categories;
  out["dropped_units"] = a.overall.dropped_units;
  out["fleiss_kappa"] = number(a.overall.fleiss_kappa);
  out["krippendorff_alpha"] = number(a.overall.krippendorff_alpha);
  out["percent_agreement"] = number(a.overall.percent_agreement);
  out["pairable_units"] = a.overall.pairable_units;
  out["all_agree"] = number(a.overall.all_agree.share);
  out["units_all_agree"] = a.overall.all_agree.agreeing;
  out["cohen_kappa_pairs"] = pairs_json(a.pairs);
  json per_category = json::object();
  for (const auto& c : a.per_category) per_category[c.category] = {{"fleiss_kappa", number(c.fleiss_kappa)}};
  out["per_category"] = per_category;
  json vs = json::object();
  for (const auto& c : a.coder_vs_final)
    vs[c.coder] = {{"agreement", number(c.agreement)}, {"cohen_kappa", number(c.cohen_kappa)}, {"units", c.units}};
  out["coder_vs_final"] = vs;
  out["confidence"] = confidence_json(a.fleiss_ci, a.alpha_ci, a.ci_method, a.level, a.resamples, a.seed, a.ci_warning);
  json groups = json::object();
  for (const auto& g : a.groups)
    groups[g.group] = {{"name", g.name},
                       {"units", g.figures.units},
                       {"fleiss_kappa", number(g.figures.fleiss_kappa)},
                       {"krippendorff_alpha", number(g.figures.krippendorff_alpha)},
                       {"percent_agreement", number(g.figures.percent_agreement)},
                       {"dropped_units", g.figures.dropped_units}};
  out["groups"] = groups;
  json sources = json::object();
  for (const auto& s : a.sources) {
    json counts = json::object();
    for (const auto& [g, n] : s.groups) counts[g] = n;
    sources[s.source] = {{"units", s.units}, {"groups", counts}};
  }
  out["sources"] = sources;
  out["group_level"] = a.group_level;
  out["ungrouped_units"] = a.ungrouped_units;
  json disputed = json::array();
  for (const auto& d : a.disagreements) {
    json labels = json::object();
    for (std::size_t c = 0; c < a.coders.size(); ++c)
      labels[a.coders[c]] = d.labels[c].empty() ? json(nullptr) : json(d.labels[c]);
    disputed.push_back({{"unit", d.unit},
                        {"source", d.source},
                        {"line", d.line},
                        {"labels", labels},
                        {"consensus", d.consensus.empty() ? json(nullptr) : json(d.consensus)},
                        {"agreement", number(d.agreement)}});
  }
  out["disagreements"] = disputed;
  return out;
}

nlohmann::ordered_json transcript_agreement_json(const TranscriptAgreement& a) {
  json out;
  out["unit"] = a.unit == TranscriptUnit::turn ? "turn" : "segment";
  out["compare_level"] = a.compare_level;
  out["transcripts"] = a.transcripts;
  out["single_coder_transcripts"] = a.single_coder_transcripts;
  out["units"] = a.units;
  out["coders"] = a.coders;
  out["categories"] = a.nodes;
  const auto nodes = static_cast<std::int64_t>(a.nodes.size());
  out["dropped_units"] = nodes == 0 ? 0 : a.pooled.dropped_units / nodes;
  out["fleiss_kappa"] = number(a.pooled.fleiss_kappa);
  out["krippendorff_alpha"] = number(a.pooled.krippendorff_alpha);
  out["percent_agreement"] = number(a.pooled.percent_agreement);
  out["exact_agreement"] = number(a.exact_agreement);
  out["units_identical"] = a.identical_units;
  out["cohen_kappa_pairs"] = pairs_json(a.pairs);
  json per_node = json::object();
  for (const auto& n : a.per_node)
    per_node[n.node] = {{"units_coded", n.units_coded},
                        {"positive_agreement", number(n.positive_agreement)},
                        {"fleiss_kappa", number(n.figures.fleiss_kappa)},
                        {"krippendorff_alpha", number(n.figures.krippendorff_alpha)},
                        {"percent_agreement", number(n.figures.percent_agreement)}};
  out["per_node"] = per_node;
  out["confidence"] = confidence_json(a.fleiss_ci, a.alpha_ci, a.ci_method, a.level, a.resamples, a.seed, a.ci_warning);
  json disputed = json::array();
  for (const auto& d : a.disagreements) {
    json by_coder = json::object();
    for (std::size_t c = 0; c < a.coders.size(); ++c) by_coder[a.coders[c]] = d.coded[c] ? json(d.nodes[c]) : json(nullptr);
    disputed.push_back({{"unit", d.unit},
                        {"file", d.where.file},
                        {"line", d.where.line},
                        {"nodes", by_coder},
                        {"differing_nodes", d.differing_nodes}});
  }
  out["disagreements"] = disputed;
  return out;
}

nlohmann::ordered_json workspace_agreement_json(const WorkspaceAgreement& a) {
  json out;
  out["labels"] = a.labels ? label_agreement_json(*a.labels) : json(nullptr);
  out["transcripts"] = a.transcripts ? transcript_agreement_json(*a.transcripts) : json(nullptr);
  return out;
}

std::string label_agreement_table(const LabelAgreement& a) {
  std::ostringstream out;
  out << "Agreement on label tables: " << a.overall.units << " units, " << a.coders.size() << " coders, "
      << a.categories.size() << (a.categories.size() == 1 ? " category, " : " categories, ") << a.sources.size() << (a.sources.size() == 1 ? " source\n" : " sources\n");
  const auto complete = a.overall.units - a.overall.dropped_units;
  out << figures_block(a.overall, a.fleiss_ci, a.alpha_ci, a.ci_method, a.level, a.resamples,
                       "per unit, over the " + std::to_string(a.overall.pairable_units) + " units with two or more ratings",
                       {{"All coders agree", num_text(a.overall.all_agree.share) + "  (" + std::to_string(a.overall.all_agree.agreeing) +
                                                 " of the " + std::to_string(complete) + " units rated by every coder)"}});
  if (!a.ci_warning.empty()) out << "  warning: " << a.ci_warning << "\n";
  out << "  (Fleiss' kappa over the " << a.overall.units - a.overall.dropped_units << " units rated by every coder; "
      << a.overall.dropped_units << " left out)\n";

  out << "\nCohen's kappa per coder pair\n";
  std::vector<std::vector<std::string>> rows{{"coder a", "coder b", "kappa", "units"}};
  for (const auto& p : a.pairs) rows.push_back({p.a, p.b, num_text(p.kappa), std::to_string(p.units)});
  out << columns(rows);

  out << "\nFleiss' kappa per category\n";
  rows = {{"category", "kappa"}};
  for (const auto& c : a.per_category) rows.push_back({c.category, num_text(c.fleiss_kappa)});
  out << columns(rows);

  if (!a.coder_vs_final.empty()) {
    out << "\nEach coder against the consensus\n";
    rows = {{"coder", "agreement", "kappa", "units"}};
    for (const auto& c : a.coder_vs_final)
      rows.push_back({c.coder, num_text(c.agreement), num_text(c.cohen_kappa), std::to_string(c.units)});
    out << columns(rows);
  }
  if (a.group_level > 0) {
    out << "\nBy level-" << a.group_level << " group of the consensus label (" << a.ungrouped_units << " units ungrouped)\n";
    rows = {{"group", "units", "fleiss", "alpha", "percent agreement"}};
    for (const auto& g : a.groups)
      rows.push_back({g.name.empty() || g.name == g.group ? g.group : g.group + " " + g.name, std::to_string(g.figures.units), num_text(g.figures.fleiss_kappa),
                      num_text(g.figures.krippendorff_alpha), num_text(g.figures.percent_agreement)});
    out << columns(rows);
  }
  out << "\nUnits per source\n";
  rows = {{"source", "units"}};
  for (const auto& g : a.groups) rows[0].push_back(g.name.empty() || g.name == g.group ? g.group : g.group + " " + g.name);
  for (const auto& s : a.sources) {
    rows.push_back({s.source, std::to_string(s.units)});
    for (const auto& [g, n] : s.groups) rows.back().push_back(std::to_string(n));
  }
  out << columns(rows);
  if (!a.disagreements.empty()) {
    out << "\nMost disputed units\n";
    rows = {{"unit", "source:line", "agreement"}};
    for (const auto& c : a.coders) rows[0].push_back(c);
    rows[0].push_back("consensus");
    for (const auto& d : a.disagreements) {
      rows.push_back({d.unit, d.source + ":" + std::to_string(d.line), num_text(d.agreement)});
      for (const auto& l : d.labels) rows.back().push_back(l.empty() ? "-" : l);
      rows.back().push_back(d.consensus.empty() ? "-" : d.consensus);
    }
    out << columns(rows);
  }
  return out.str();
}

std::string transcript_agreement_table(const TranscriptAgreement& a) {
  std::ostringstream out;
  out << "Agreement on multi-coder transcripts: " << a.transcripts.size() << " transcripts (" << a.single_coder_transcripts
      << " with one coder left out), " << a.units << (a.unit == TranscriptUnit::turn ? " turns, " : " segments, ")
      << a.coders.size() << " coders, " << a.nodes.size() << " nodes";
  if (a.compare_level > 0) out << " (compared at level " << a.compare_level << ")";
  out << "\n";
  if (a.transcripts.empty()) return out.str() + "  no transcript has codes from two coders\n";
  const std::string units = a.unit == TranscriptUnit::turn ? "turns" : "segments";
  out << "Pooled over every (unit, node), present/absent:\n";
  out << figures_block(a.pooled, a.fleiss_ci, a.alpha_ci, a.ci_method, a.level, a.resamples,
                       "per (unit, node), over the " + std::to_string(a.pooled.pairable_units) + " (unit, node) pairs with two or more ratings",
                       {{"Identical code sets", num_text(a.exact_agreement) + "  (" + std::to_string(a.identical_units) + " of the " +
                                                    std::to_string(a.units) + " " + units + ": the coders applied the same nodes)"}});
  if (!a.ci_warning.empty()) out << "  warning: " << a.ci_warning << "\n";

  out << "\nCohen's kappa per coder pair (pooled)\n";
  std::vector<std::vector<std::string>> rows{{"coder a", "coder b", "kappa", "units"}};
  for (const auto& p : a.pairs) rows.push_back({p.a, p.b, num_text(p.kappa), std::to_string(p.units)});
  out << columns(rows);

  out << "\nPer node: coded on = the " << units << " any coder applied the node to; positive = positive agreement on its\n"
         "presence, 2a / (2a + b + c) pooled over coder pairs; fleiss, alpha and percent agreement over all " << a.units << " " << units
      << ",\npresent/absent (agreeing that a node is absent counts)\n";
  rows = {{"node", "coded on", "positive", "fleiss", "alpha", "percent agreement"}};
  for (const auto& n : a.per_node)
    rows.push_back({n.node, std::to_string(n.units_coded), num_text(n.positive_agreement), num_text(n.figures.fleiss_kappa),
                    num_text(n.figures.krippendorff_alpha), num_text(n.figures.percent_agreement)});
  out << columns(rows);
  if (!a.disagreements.empty()) {
    out << "\nMost disputed units\n";
    rows = {{"unit", "file:line", "differing"}};
    for (const auto& c : a.coders) rows[0].push_back(c);
    for (const auto& d : a.disagreements) {
      rows.push_back({d.unit, d.where.file + ":" + std::to_string(d.where.line), std::to_string(d.differing_nodes)});
      for (std::size_t c = 0; c < a.coders.size(); ++c)
        rows.back().push_back(!d.coded[c] ? "(not coding)" : d.nodes[c].empty() ? "-" : text::join(d.nodes[c], " "));
    }
    out << columns(rows);
  }
  return out.str();
}

}  // namespace qualrank
