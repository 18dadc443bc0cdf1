#include "qualrank/report/outputs/ranking_output.h"

#include <cctype>
#include <map>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "qualrank/util/text.h"

namespace qualrank {

namespace {

nlohmann::ordered_json num(double x) {
  if (std::isnan(x) || std::isinf(x)) return nullptr;
  return x;
}

std::string fmt(double x, int digits = 2) { return text::fixed(x, digits); }

std::string fmt_p(double p) {
  if (std::isnan(p)) return "n/a";
  if (p < 0.001) return "< 0.001";
  return fmt(p, 3);
}

// "p < 0.001" or "p = 0.042", for sentences (never "p = < 0.001").
std::string p_text(double p) { return !std::isnan(p) && p < 0.001 ? "p < 0.001" : "p = " + fmt_p(p); }



const char* partial_name(pl::PartialRankings p) { return p == pl::PartialRankings::top_k ? "top-k" : "subset"; }

nlohmann::ordered_json estimates_json(const ModelEstimates& e, const std::vector<std::string>& items) {
  nlohmann::ordered_json j;
  j["n"] = e.n;
  j["log_likelihood"] = num(e.fit.log_likelihood);
  j["iterations"] = e.fit.iterations;
  j["items"] = nlohmann::ordered_json::object();
  for (std::size_t i = 0; i < items.size(); ++i)
    j["items"][items[i]] = {{"worth", num(e.fit.worth[i])},
                            {"log_worth", num(e.fit.log_worth[i])},
                            {"se", num(e.fit.se[i])},
                            {"quasi_se", num(e.fit.quasi_se[i])}};
  return j;
}

nlohmann::ordered_json model_json(const QuestionModel& m, const std::vector<std::string>& items) {
  nlohmann::ordered_json j;
  j["method"] = "plackett-luce";
  j["ties"] = "efron";
  j["partial"] = partial_name(m.partial);
  j["pseudo_rankings"] = m.pseudo_rankings;
  j["reference"] = items.front();
  j["log_likelihood"] = num(m.overall.fit.log_likelihood);
  j["iterations"] = m.overall.fit.iterations;
  j["groups"] = nlohmann::ordered_json::object();
  for (const auto& g : m.groups) j["groups"][g.level] = estimates_json(g, items);
  j["overall"] = estimates_json(m.overall, items);
  if (m.lr_test) {
    const auto& t = *m.lr_test;
    nlohmann::ordered_json per = nlohmann::ordered_json::object();
    for (std::size_t g = 0; g < t.groups.size(); ++g) per[t.groups[g]] = num(t.group_log_likelihoods[g]);
    // statistic = 2 (log_likelihood_separate - log_likelihood_pooled): penalised log-likelihoods, not the
    // groups' and overall's "log_likelihood" (rankings only; the overall fit with npseudo once).
    j["lr_test"] = {{"groups", t.groups},
                    {"log_likelihoods", per},
                    {"log_likelihood_separate", num(t.separate_log_likelihood)},
                    {"log_likelihood_pooled", num(t.pooled_log_likelihood)},
                    {"pseudo_rankings_pooled", t.pooled_pseudo_rankings},
                    {"statistic", num(t.statistic)},
                    {"df", t.df},
                    {"p", num(t.p)}};
  } else {
    j["lr_test"] = nullptr;
  }
  j["comparison_groups"] = m.a.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json{m.a, m.b};
  auto diffs = [](const std::vector<ItemDifference>& ds, const std::string& a, const std::string& b) {
    auto out = nlohmann::ordered_json::array();
    for (const auto& d : ds)
      out.push_back({{"item", d.item}, {"centred_log_worth", {{a, num(d.centred_a)}, {b, num(d.centred_b)}}},
                     {"difference", num(d.difference)}, {"se", num(d.se)}, {"p", num(d.p)}, {"p_holm", num(d.p_holm)}});
    return out;
  };
  j["item_differences"] = diffs(m.item_differences, m.a, m.b);
  j["pairs"] = nlohmann::ordered_json::array();
  for (const auto& p : m.pairs) j["pairs"].push_back({{"groups", {p.a, p.b}}, {"item_differences", diffs(p.items, p.a, p.b)}});
  return j;
}

// One sentence on the likelihood-ratio test.
std::string lr_sentence(const QuestionModel& m) {
  if (!m.lr_test) return "Only one group: no test of shared priorities.";
  const auto& t = *m.lr_test;
  std::string groups = text::join(t.groups, ", ");
  std::string stats = "likelihood-ratio chi-square = " + fmt(t.statistic) + ", df = " + std::to_string(t.df) + ", " + p_text(t.p);
  if (t.p < 0.05) return "The groups (" + groups + ") do not share one set of priorities (" + stats + ").";
  return "No evidence that the groups (" + groups + ") weigh the items differently (" + stats + ").";
}

// Where the statistic comes from, so that it can be rebuilt from the printed numbers: "Chi-square = 2 (-57.432
// - (-65.469)), the penalised log-likelihoods (rankings plus pseudo-rankings) of one worth vector per group
// (user -30.100, developer -27.332) and of one for all (with 1.0 pseudo-rankings per item, every group's)."
std::string lr_basis_sentence(const QuestionModel& m) {
  if (!m.lr_test) return "";
  const auto& t = *m.lr_test;
  auto ll = [](double x) { return fmt(x, 3); };
  std::vector<std::string> per;
  for (std::size_t g = 0; g < t.groups.size(); ++g) per.push_back(t.groups[g] + " " + ll(t.group_log_likelihoods[g]));
  const bool penalised = t.pooled_pseudo_rankings > 0;
  return "Chi-square = 2 (" + ll(t.separate_log_likelihood) + " - (" + ll(t.pooled_log_likelihood) + ")), the " +
         (penalised ? "penalised log-likelihoods (rankings plus pseudo-rankings)" : "log-likelihoods") +
         " of one worth vector per group (" + text::join(per, ", ") + ") and of one for all" +
         (penalised ? " (with " + fmt(t.pooled_pseudo_rankings, 1) + " pseudo-rankings per item, every group's)" : std::string()) + ".";
}

// "Not compared: contractor (n = 2); the comparisons are manager vs employee."
std::string not_compared_sentence(const QuestionRankAnalysis& q) {
  std::vector<std::string> names;
  for (const auto& level : q.not_compared)
    for (const auto& g : q.groups)
      if (g.level == level) names.push_back(level + " (n = " + std::to_string(g.n) + ")");
  std::vector<std::string> pairs;
  for (const auto& pa : q.comparisons) pairs.push_back(pa.comparison.a + " vs " + pa.comparison.b);
  return "Not compared pairwise: " + text::join(names, ", ") + " (the comparisons made: " + text::join(pairs, "; ") +
         "; name others with `compare:` in the guideline or --compare).";
}

// The raw rankings of the groups too small to analyse: level -> (participant, "TOOL.2 > TOOL.1 = TOOL.3"), in
// answer order. One pass over the answers, however many groups (a table may give every answer a group).
using RawRankings = std::vector<std::pair<std::string, std::string>>;
std::map<std::string, RawRankings> raw_rankings(const QuestionRankAnalysis& q, const std::string& by) {
  std::map<std::string, RawRankings> out;
  for (const auto& level : q.too_small) out.emplace(level, RawRankings{});
  for (const auto& r : q.answers) {
    auto it = r.attributes.find(by);
    if (it == r.attributes.end()) continue;
    if (auto group = out.find(it->second); group != out.end())
      group->second.emplace_back(r.participant, consensus_text(r.tiers));
  }
  return out;
}

nlohmann::ordered_json comparison_json(const GroupComparison& c) {
  nlohmann::ordered_json jc;
  jc["groups"] = {c.a, c.b};
  jc["n"] = {{c.a, c.n_a}, {c.b, c.n_b}};
  jc["spearman_rho"] = num(c.spearman_rho);
  jc["spearman_p"] = num(c.spearman_p);
  jc["kendall_tau_b"] = num(c.kendall_tau_b);
  jc["kendall_tau_p"] = num(c.kendall_tau_p);
  jc["bootstrap_ci"] = {{"level", c.ci_level}, {"spearman_rho", {num(c.rho_ci.first), num(c.rho_ci.second)}}};
  jc["min_p"] = num(c.min_p);
  jc["can_reach_significance"] = c.can_reach_significance;
  jc["flags_allowed"] = c.flags_allowed;
  jc["warnings"] = c.warnings;
  return jc;
}

nlohmann::ordered_json gaps_json(const PairAnalysis& pa) {
  const auto& c = pa.comparison;
  auto out = nlohmann::ordered_json::array();
  for (const auto& g : pa.gaps) {
    nlohmann::ordered_json jg;
    jg["item"] = g.item;
    jg["mean_rank"] = {{c.a, num(g.mean_a)}, {c.b, num(g.mean_b)}};
    jg["gap"] = num(g.gap);
    jg["mann_whitney_u"] = num(g.mann_whitney_u);
    jg["p"] = num(g.p);
    jg["p_holm"] = num(g.p_holm);
    jg["cliffs_delta"] = num(g.cliffs_delta);
    jg["misaligned"] = g.misaligned;
    jg["basis"] = g.basis.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(g.basis);
    out.push_back(jg);
  }
  return out;
}

nlohmann::ordered_json k_groups_json(const KGroupAnalysis& k) {
  nlohmann::ordered_json j;
  j["groups"] = k.groups;
  j["items"] = nlohmann::ordered_json::array();
  for (const auto& i : k.items)
    j["items"].push_back({{"item", i.item}, {"kruskal_h", num(i.kruskal_h)}, {"p", num(i.p)}, {"p_holm", num(i.p_holm)},
                          {"epsilon_squared", num(i.epsilon_squared)}});
  return j;
}

}  // namespace

std::string item_label(const Taxonomy& t, const std::string& id) {
  const auto* n = t.find(id);
  return n ? id + " " + n->name : id;
}

std::string model_summary_sentence(const QuestionModel& m) { return lr_sentence(m); }

std::string tests_differ_sentence(const QuestionRankAnalysis& q) {
  if (!q.model || !q.model->lr_test || !(q.model->lr_test->p < 0.05)) return "";
  bool any_item = false;
  if (q.k_groups)
    for (const auto& i : q.k_groups->items) any_item = any_item || i.p_holm < 0.05;
  for (const auto& pa : q.comparisons)
    for (const auto& g : pa.gaps) any_item = any_item || g.p_holm < 0.05;
  if (any_item) return "";
  return "Why the tests differ: the likelihood-ratio test asks whether the groups share one whole set of priorities, "
         "one test over every item and the full order of each answer; the per-item tests ask whether one item's ranks "
         "differ, each corrected for the number of items (Holm). Here the groups differ in their pattern of priorities, "
         "but no single item carries the difference on its own.";
}

nlohmann::ordered_json rankings_json(const RankingAnalysis& a) {
  nlohmann::ordered_json out;
  out["by"] = a.by;
  out["levels"] = a.levels;
  if (!a.options.where.empty()) {
    nlohmann::ordered_json w = nlohmann::ordered_json::object();
    for (const auto& [k, v] : a.options.where) w[k] = v;
    out["where"] = w;
  }
  out["min_group"] = a.options.min_group;
  out["resamples"] = a.options.resamples;
  out["seed"] = a.options.seed;
  out["questions"] = nlohmann::ordered_json::array();
  for (const auto& q : a.questions) {
    nlohmann::ordered_json jq;
    jq["question"] = q.question;
    jq["text"] = q.text;
    jq["wording"] = nlohmann::ordered_json::array();
    for (const auto& w : q.wording) jq["wording"].push_back({{"roles", w.roles}, {"text", w.text}});
    jq["items"] = q.items;
    jq["groups"] = nlohmann::ordered_json::object();
    for (const auto& g : q.groups) {
      nlohmann::ordered_json jg;
      jg["n"] = g.n;
      nlohmann::ordered_json mean = nlohmann::ordered_json::object(), med = mean, borda = mean;
      for (std::size_t j = 0; j < q.items.size(); ++j) {
        mean[q.items[j]] = num(g.mean_rank[j]);
        med[q.items[j]] = num(g.median_rank[j]);
        borda[q.items[j]] = num(g.borda[j]);
      }
      jg["mean_rank"] = mean;
      jg["median_rank"] = med;
      jg["borda"] = borda;
      jg["consensus"] = g.consensus;
      jg["consensus_tiers"] = g.consensus_tiers;
      jg["kendall_w"] = num(g.kendall_w);
      jg["kendall_w_p"] = num(g.kendall_w_p);
      jg["answer_lengths"] = nlohmann::ordered_json::object();
      for (const auto& [named, answers] : g.answer_lengths) jg["answer_lengths"][std::to_string(named)] = answers;
      jq["groups"][g.level] = jg;
    }
    if (!q.comparisons.empty()) {
      jq["comparison"] = comparison_json(q.comparisons.front().comparison);
      jq["gaps"] = gaps_json(q.comparisons.front());
    } else {
      jq["comparison"] = nullptr;
      jq["gaps"] = nlohmann::ordered_json::array();
    }
    jq["comparisons"] = nlohmann::ordered_json::array();
    for (const auto& pa : q.comparisons) {
      auto jc = comparison_json(pa.comparison);
      jc["gaps"] = gaps_json(pa);
      jq["comparisons"].push_back(jc);
    }
    jq["not_compared"] = q.not_compared;
    jq["too_small"] = nlohmann::ordered_json::array();
    const auto raw = raw_rankings(q, a.by);
    for (const auto& level : q.too_small) {
      nlohmann::ordered_json jt;
      jt["group"] = level;
      jt["rankings"] = nlohmann::ordered_json::array();
      for (const auto& [who, ranking] : raw.at(level)) jt["rankings"].push_back({{"participant", who}, {"ranking", ranking}});
      jq["too_small"].push_back(jt);
    }
    jq["too_small_note"] = q.too_small.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(q.too_small_note);
    if (auto lengths = answer_lengths_sentence(q, q.model.has_value()); !lengths.empty()) jq["answer_lengths_note"] = lengths;
    jq["k_groups"] = q.k_groups ? k_groups_json(*q.k_groups) : nlohmann::ordered_json(nullptr);
    if (auto why = tests_differ_sentence(q); !why.empty()) jq["tests_differ"] = why;
    if (a.options.model.enabled) jq["model"] = q.model ? model_json(*q.model, q.items) : nlohmann::ordered_json(nullptr);
    out["questions"].push_back(jq);
  }
  return out;
}

namespace {

void model_markdown(std::ostringstream& md, const QuestionModel& m, const std::vector<std::string>& items, const Taxonomy& t) {
  md << "**Plackett-Luce model** (" << (m.partial == pl::PartialRankings::top_k ? "unranked items lose every choice" : "partial answers rank only the items they name")
     << "; ties by Efron's method; " << fmt(m.pseudo_rankings, 1) << " pseudo-rankings per item): " << lr_sentence(m);
  if (m.lr_test) md << ' ' << lr_basis_sentence(m);
  md << "\n\n";
  md << "| Item | all (n = " << m.overall.n << ") |";
  for (const auto& g : m.groups) md << ' ' << g.level << " (n = " << g.n << ") |";
  if (!m.item_differences.empty())
    md << " Centred log-worth " << m.a << " | Centred log-worth " << m.b << " | Difference (" << m.b << " - " << m.a << ") | SE | Holm p |";
  md << "\n|---|---|";
  for (std::size_t i = 0; i < m.groups.size(); ++i) md << "---|";
  if (!m.item_differences.empty()) md << "---|---|---|---|---|";
  md << '\n';
  for (std::size_t i = 0; i < items.size(); ++i) {
    md << "| " << item_label(t, items[i]) << " | " << fmt(m.overall.fit.worth[i], 3) << " |";
    for (const auto& g : m.groups) md << ' ' << fmt(g.fit.worth[i], 3) << " |";
    if (!m.item_differences.empty()) {
      const auto& d = m.item_differences[i];
      md << ' ' << fmt(d.centred_a) << " | " << fmt(d.centred_b) << " | " << fmt(d.difference) << " | " << fmt(d.se) << " | " << fmt_p(d.p_holm) << " |";
    }
    md << '\n';
  }
  for (std::size_t p = 1; p < m.pairs.size(); ++p) {
    const auto& pair = m.pairs[p];
    if (pair.items.empty()) continue;
    md << "\n| Item | Centred log-worth " << pair.a << " | Centred log-worth " << pair.b << " | Difference (" << pair.b << " - " << pair.a
       << ") | SE | Holm p |\n|---|---|---|---|---|---|\n";
    for (const auto& d : pair.items)
      md << "| " << item_label(t, d.item) << " | " << fmt(d.centred_a) << " | " << fmt(d.centred_b) << " | " << fmt(d.difference) << " | "
         << fmt(d.se) << " | " << fmt_p(d.p_holm) << " |\n";
  }
  md << "\nWorths sum to 1 within each column (the chance of being chosen first from all items). Centred log-worth: the "
        "log-worth minus its mean over the items (the log of the worth over the geometric mean of the group's worths). "
        "Difference: the centred log-worth of "
     << (m.item_differences.empty() ? std::string("the second group") : m.b) << " minus that of "
     << (m.item_differences.empty() ? std::string("the first") : m.a)
     << ", positive when the item stands higher among that group's items; it is not the difference of the worths, "
        "and can have the other sign when the groups spread their worths differently.\n\n";
}

std::string flag_rule(const RankingOptions& o) {
  char buf[128];
  std::snprintf(buf, sizeof buf, "Holm-adjusted p < %g or |Cliff's delta| >= %g", o.misaligned_p, o.misaligned_delta);
  return buf;
}

void k_groups_markdown(std::ostringstream& md, const KGroupAnalysis& k, const Taxonomy& t) {
  md << "**All " << k.groups.size() << " groups** (" << text::join(k.groups, ", ")
     << "): Kruskal-Wallis test per item (tie-corrected H, chi-square p with " << k.groups.size() - 1
     << " df, Holm across items; epsilon-squared = H / (n - 1)).\n\n";
  md << "| Item | H | p | Holm p | epsilon-squared |\n|---|---|---|---|---|\n";
  for (const auto& i : k.items)
    md << "| " << item_label(t, i.item) << " | " << fmt(i.kruskal_h) << " | " << fmt_p(i.p) << " | " << fmt_p(i.p_holm) << " | "
       << fmt(i.epsilon_squared) << " |\n";
  md << '\n';
}

void comparison_markdown(std::ostringstream& md, const PairAnalysis& pa, const Taxonomy& t, const RankingOptions& o) {
  const auto& c = pa.comparison;
  md << "**" << c.a << " vs " << c.b << "** (n = " << c.n_a << " and " << c.n_b << "): Spearman's rho = " << fmt(c.spearman_rho)
     << " (" << p_text(c.spearman_p)
     << (std::isnan(c.rho_ci.first) ? ""
                                    : ", " + std::to_string(static_cast<int>(c.ci_level * 100)) + "% bootstrap CI [" +
                                          fmt(c.rho_ci.first) + ", " + fmt(c.rho_ci.second) + "], " +
                                          std::to_string(c.resamples) + " resamples")
     << "); Kendall's tau-b = " << fmt(c.kendall_tau_b) << " (" << p_text(c.kendall_tau_p) << ").\n\n";
  for (std::size_t i = 0; i < c.warnings.size(); ++i) md << (i ? ">\n" : "") << "> Note: " << c.warnings[i] << ".\n";
  if (!c.warnings.empty()) md << '\n';
  std::vector<const ItemGap*> mis;
  for (const auto& g : pa.gaps)
    if (g.misaligned) mis.push_back(&g);
  if (mis.empty()) {
    md << "No item is misaligned (" << flag_rule(o) << ").\n\n";
  } else {
    md << "Misaligned items (" << flag_rule(o) << "):\n\n";
    for (const auto* g : mis) {
      const std::string pa_ = group_phrase(o, c.a), pb_ = group_phrase(o, c.b);
      md << "- **" << item_label(t, g->item) << "**: " << pa_ << " rank it " << fmt(g->mean_a) << " on average, " << pb_ << ' '
         << fmt(g->mean_b) << "; " << (g->gap > 0 ? pa_ : pb_) << " give it higher priority (gap " << fmt(g->gap)
         << ", Cliff's delta " << fmt(g->cliffs_delta) << ", Holm-adjusted " << p_text(g->p_holm) << "; flagged on " << g->basis
         << (g->basis == "test" ? "" : " alone") << ").\n";
    }
    md << '\n';
  }
  md << "| Item | " << c.a << " | " << c.b << " | Gap | U | p | Holm p | Cliff's delta | Flag |\n|---|---|---|---|---|---|---|---|---|\n";
  for (const auto& g : pa.gaps)
    md << "| " << item_label(t, g.item) << (g.misaligned ? " ⚑" : "") << " | " << fmt(g.mean_a) << " | " << fmt(g.mean_b) << " | "
       << fmt(g.gap) << " | " << fmt(g.mann_whitney_u, 1) << " | " << fmt_p(g.p) << " | " << fmt_p(g.p_holm) << " | "
       << fmt(g.cliffs_delta) << " | " << (g.misaligned ? g.basis : std::string()) << " |\n";
  md << "\nGap: mean rank of " << c.b << " minus that of " << c.a
     << ", from the unrounded means (it can differ in the last digit from the difference of the rounded ones).\n\n";
}

}  // namespace

std::string question_heading(const QuestionRankAnalysis& q) {
  if (q.wording.size() > 1) return q.question + " (worded per role)";
  const std::string& words = q.wording.empty() ? q.text : q.wording.front().text;
  return q.question + (words.empty() ? "" : ": " + words);
}

std::string rankings_markdown(const RankingAnalysis& a, const Taxonomy& t) {
  std::ostringstream md;
  md << "# Priority rankings by " << a.by << "\n\n";
  if (!a.options.where.empty()) {
    md << "Participants:";
    for (const auto& [k, v] : a.options.where) md << ' ' << k << " = " << v;
    md << ".\n\n";
  }
  for (const auto& q : a.questions) {
    md << "## " << question_heading(q) << "\n\n";
    if (q.wording.size() > 1) {
      for (const auto& w : q.wording) md << "- " << text::join(w.roles, ", ") << ": " << w.text << "\n";
      md << '\n';
    }
    if (q.groups.empty()) {
      md << "No rankings.\n\n";
      continue;
    }
    md << "| Position |";
    for (const auto& g : q.groups) md << ' ' << g.level << " (n = " << g.n << ") |";
    md << "\n|---|";
    for (std::size_t i = 0; i < q.groups.size(); ++i) md << "---|";
    md << '\n';
    for (std::size_t pos = 0; pos < q.items.size(); ++pos) {
      md << "| " << pos + 1 << " |";
      for (const auto& g : q.groups) {
        const auto& id = g.consensus[pos];
        auto j = static_cast<std::size_t>(std::find(q.items.begin(), q.items.end(), id) - q.items.begin());
        md << ' ' << item_label(t, id) << " (" << fmt(g.mean_rank[j]) << ") |";
      }
      md << '\n';
    }
    md << "\nConsensus order (items with equal mean ranks joined with =):";
    for (const auto& g : q.groups) md << "\n- " << g.level << ": " << consensus_text(g.consensus_tiers);
    md << "\n";
    md << "\nMean rank in parentheses (1 = highest priority). Kendall's W:";
    for (std::size_t i = 0; i < q.groups.size(); ++i)
      md << (i ? "; " : " ") << q.groups[i].level << ' ' << fmt(q.groups[i].kendall_w) << " (" << p_text(q.groups[i].kendall_w_p) << ')';
    md << ".\n\n";
    if (auto lengths = answer_lengths_sentence(q, q.model.has_value()); !lengths.empty()) md << lengths << "\n\n";
    if (!q.too_small.empty()) {
      md << q.too_small_note << "\n\n";
      const auto raw = raw_rankings(q, a.by);
      for (const auto& level : q.too_small)
        for (const auto& [who, ranking] : raw.at(level)) md << "- " << level << ", " << who << ": " << ranking << '\n';
      md << '\n';
    }
    if (q.model) model_markdown(md, *q.model, q.items, t);
    if (q.k_groups) k_groups_markdown(md, *q.k_groups, t);
    if (auto why = tests_differ_sentence(q); !why.empty()) md << why << "\n\n";
    if (q.comparisons.empty()) {
      md << "No comparison between groups.\n\n";
      continue;
    }
    for (const auto& pa : q.comparisons) comparison_markdown(md, pa, t, a.options);
    if (!q.not_compared.empty()) md << not_compared_sentence(q) << "\n\n";
  }
  // Names come from input files (group names, item names, question wording): none may become an HTML tag or
  // entity where the Markdown is rendered. A '<' that would open a tag (before a letter, '/', '!' or '?') and
  // an '&' that would open an entity (before a letter or '#') are backslash-escaped (CommonMark shows "\\<"
  // as "<"); "p < 0.05" stays as it is, for pasting.
  const std::string raw = md.str();
  std::string out;
  out.reserve(raw.size());
  for (std::size_t i = 0; i < raw.size(); ++i) {
    const char c = raw[i], next = i + 1 < raw.size() ? raw[i + 1] : '\0';
    const bool letter = std::isalpha(static_cast<unsigned char>(next));
    if ((c == '<' && (letter || next == '/' || next == '!' || next == '?')) || (c == '&' && (letter || next == '#'))) out += '\\';
    out += c;
  }
  return out;
}

std::string rankings_table(const RankingAnalysis& a, const Taxonomy& t) {
  std::ostringstream out;
  for (const auto& q : a.questions) {
    out << question_heading(q) << '\n';
    if (q.wording.size() > 1)
      for (const auto& w : q.wording) out << "  (" << text::join(w.roles, ", ") << ") " << w.text << '\n';
    for (const auto& g : q.groups) {
      out << "  " << g.level << " (n=" << g.n << ", W=" << fmt(g.kendall_w) << "): ";
      out << consensus_text(g.consensus_tiers, [&](const std::string& id) {
        auto j = static_cast<std::size_t>(std::find(q.items.begin(), q.items.end(), id) - q.items.begin());
        return id + " (" + fmt(g.mean_rank[j]) + ")";
      }) << '\n';
    }
    if (auto lengths = answer_lengths_sentence(q, q.model.has_value()); !lengths.empty()) out << "  " << lengths << '\n';
    if (!q.too_small.empty()) {
      out << "  " << q.too_small_note << '\n';
      const auto raw = raw_rankings(q, a.by);
      for (const auto& level : q.too_small)
        for (const auto& [who, ranking] : raw.at(level)) out << "    " << level << ", " << who << ": " << ranking << '\n';
    }
    if (q.k_groups) {
      out << "  all groups (" << text::join(q.k_groups->groups, ", ") << "), Kruskal-Wallis per item:\n";
      for (const auto& i : q.k_groups->items)
        out << "      " << i.item << "  H " << fmt(i.kruskal_h) << "  p " << fmt_p(i.p) << "  p_holm " << fmt_p(i.p_holm)
            << "  epsilon2 " << fmt(i.epsilon_squared) << '\n';
    }
    for (const auto& pa : q.comparisons) {
      const auto& c = pa.comparison;
      out << "  " << c.a << " vs " << c.b << ": rho=" << fmt(c.spearman_rho, 3)
          << (std::isnan(c.rho_ci.first) ? "" : " [" + fmt(c.rho_ci.first, 3) + ", " + fmt(c.rho_ci.second, 3) + "]")
          << " p=" << fmt_p(c.spearman_p) << ", tau-b=" << fmt(c.kendall_tau_b, 3)
          << " p=" << fmt_p(c.kendall_tau_p) << '\n';
      for (const auto& w : c.warnings) out << "    warning: " << w << '\n';
      for (const auto& g : pa.gaps)
        out << "    " << (g.misaligned ? "! " : "  ") << g.item << "  gap " << fmt(g.gap) << "  p_holm " << fmt_p(g.p_holm)
            << "  delta " << fmt(g.cliffs_delta) << (g.misaligned ? "  [" + g.basis + "]" : std::string()) << "  "
            << (t.find(g.item) ? t.find(g.item)->name : "") << '\n';
    }
    if (!q.not_compared.empty()) out << "  " << not_compared_sentence(q) << '\n';
    if (q.model) {
      const auto& m = *q.model;
      for (const auto& g : m.groups) {
        out << "  PL worth " << g.level << ":";
        for (std::size_t j = 0; j < q.items.size(); ++j) out << ' ' << q.items[j] << '=' << fmt(g.fit.worth[j], 3);
        out << '\n';
      }
      out << "  " << lr_sentence(m) << '\n';
      if (m.lr_test) out << "  " << lr_basis_sentence(m) << '\n';
    }
    out << '\n';
  }
  return out.str();
}

}  // namespace qualrank
