// Ranking analysis. For each question and each level of the grouping attribute: every participant's rank
// vector over the item set (partial rankings: unranked items share the mean of the remaining positions;
// ties: average ranks), then per item the mean and median rank and the Borda score (sum over participants
// of k - rank, k = number of items: higher is better); the consensus order sorts by mean rank, then Borda,
// then item order. Kendall's W (tie-corrected) measures agreement within the group.
// Between the two compared groups: Spearman's rho and Kendall's tau-b on the two mean-rank vectors, as
// scipy.stats.spearmanr/kendalltau (rho's p exact from all pairings up to stats::kSpearmanExactMaxN items); a percentile bootstrap CI for rho resampling participants within each
// group (stats::bootstrap_spearman, seeded). Per item: the gap (mean rank b - a), the Mann-Whitney U test
// of the two groups' ranks for that item (scipy.stats.mannwhitneyu defaults), Holm-adjusted p-values
// across the question's items, and Cliff's delta (positive: b ranks the item lower). A "misaligned" flag
// records its basis: "test" (Holm p < alpha) or "effect size" (|delta| >= threshold only); groups below the
// minimum size get no flags. Small samples are said: the smallest p the Mann-Whitney test can reach with
// the two group sizes (stats::mann_whitney_min_p) times the item count tells whether any item can pass Holm.
// Comparisons: `--compare`, the guideline's `compare` pairs, or the first two groups; with more than two
// groups each item also gets a Kruskal-Wallis test (scipy.stats.kruskal) over all groups, Holm across
// items, and epsilon-squared (Tomczak & Tomczak 2014).
#include "qualrank/analysis/rankings/ranking.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <set>

#include "qualrank/analysis/stats.h"
#include "qualrank/util/csv.h"
#include "qualrank/util/text.h"

namespace qualrank {

namespace {

double median(std::vector<double> v) {
  if (v.empty()) return std::nan("");
  std::sort(v.begin(), v.end());
  std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

std::string level_of(const ParticipantRanking& r, const std::string& by) {
  auto it = r.attributes.find(by);
  return it == r.attributes.end() ? std::string() : it->second;
}

GroupRankStats group_stats(const std::string& level, const std::vector<std::vector<double>>& ranks, std::size_t k) {
  GroupRankStats g;
  g.level = level;
  g.n = static_cast<int>(ranks.size());
  g.mean_rank.assign(k, 0);
  g.median_rank.assign(k, 0);
  g.borda.assign(k, 0);
  for (std::size_t j = 0; j < k; ++j) {
    std::vector<double> col;
    for (const auto& r : ranks) col.push_back(r[j]);
    g.mean_rank[j] = col.empty() ? std::nan("") : std::accumulate(col.begin(), col.end(), 0.0) / static_cast<double>(col.size());
    g.median_rank[j] = median(col);
    for (double x : col) g.borda[j] += static_cast<double>(k) - x;
  }
  auto w = stats::kendall_w(ranks);
  g.kendall_w = w.w;
  g.kendall_w_chi2 = w.chi2;
  g.kendall_w_p = w.pvalue;
  return g;
}

std::vector<std::string> consensus(const GroupRankStats& g, const std::vector<std::string>& items) {
  std::vector<std::size_t> idx(items.size());
  std::iota(idx.begin(), idx.end(), 0);
  std::stable_sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) {
    if (g.mean_rank[a] != g.mean_rank[b]) return g.mean_rank[a] < g.mean_rank[b];
    if (g.borda[a] != g.borda[b]) return g.borda[a] > g.borda[b];
    return a < b;
  });
  std::vector<std::string> out;
  for (auto i : idx) out.push_back(items[i]);
  return out;
}

// Cuts the consensus order where the mean rank changes.
std::vector<std::vector<std::string>> tiers_of(const GroupRankStats& g, const std::vector<std::string>& items) {
  std::vector<std::vector<std::string>> tiers;
  double previous = 0;
  for (const auto& id : g.consensus) {
    auto j = static_cast<std::size_t>(std::find(items.begin(), items.end(), id) - items.begin());
    double m = g.mean_rank[j];
    if (tiers.empty() || !(std::fabs(m - previous) <= 1e-9)) tiers.emplace_back();
    tiers.back().push_back(id);
    previous = m;
  }
  return tiers;
}

const GroupRankStats* find_group(const std::vector<GroupRankStats>& groups, const std::string& name) {
  for (const auto& g : groups)
    if (g.level == name) return &g;
  return nullptr;
}

std::string format_p(double p) {
  char buf[32];
  std::snprintf(buf, sizeof buf, p < 0.001 ? "%.2g" : "%.3f", p);
  return buf;
}

// Group a vs group b: correlation of mean ranks with its bootstrap CI, per-item Mann-Whitney, Holm, Cliff's
// delta and the flags, with the small-sample facts (smallest reachable p, minimum group size, CI size).
PairAnalysis compare_groups(const GroupRankStats& ga, const GroupRankStats& gb, const std::vector<std::vector<double>>& ra,
                            const std::vector<std::vector<double>>& rb, const std::vector<std::string>& items,
                            const RankingOptions& options) {
  const std::size_t k = items.size();
  PairAnalysis out;
  GroupComparison& c = out.comparison;
  c.a = ga.level;
  c.b = gb.level;
  c.n_a = ga.n;
  c.n_b = gb.n;
  auto rho = stats::spearman(ga.mean_rank, gb.mean_rank);
  auto tau = stats::kendall_tau_b(ga.mean_rank, gb.mean_rank);
  c.spearman_rho = rho.statistic;
  // Few items: the exact permutation p (the t approximation says p = 0 for two identical 3-item orders,
  // where 1 pairing in 6 is as extreme and the exact two-sided p is 1/3, as Kendall's).
  c.spearman_p = ga.mean_rank.size() <= stats::kSpearmanExactMaxN ? stats::spearman_p_exact(ga.mean_rank, gb.mean_rank)
                                                                   : rho.pvalue;
  c.kendall_tau_b = tau.statistic;
  c.kendall_tau_p = tau.pvalue;
  c.resamples = options.resamples;
  // No interval for an undefined rho (a group's mean ranks are all equal): resamples may still give
  // values, and [-1, 1] around "n/a" would read as an estimate.
  if (options.resamples > 0 && k >= 2 && !std::isnan(rho.statistic)) {
    auto boot = stats::bootstrap_spearman(ra, rb, options.resamples, options.seed);
    c.rho_ci = stats::bootstrap_percentile_ci(boot, c.ci_level);
  } else {
    c.rho_ci = {std::nan(""), std::nan("")};
  }
  c.min_p = stats::mann_whitney_min_p(c.n_a, c.n_b);
  c.can_reach_significance = c.min_p * static_cast<double>(k) < options.misaligned_p;
  c.flags_allowed = c.n_a >= options.min_group_size && c.n_b >= options.min_group_size;
  const std::string sizes = c.a + " " + std::to_string(c.n_a) + ", " + c.b + " " + std::to_string(c.n_b);
  if (!c.can_reach_significance) c.warnings.push_back(unreachable_sentence(c, options.misaligned_p));
  if (!c.flags_allowed)
    c.warnings.push_back("a group has fewer than " + std::to_string(options.min_group_size) + " participants (" + sizes +
                         "): its gaps are reported, not flagged" +
                         (c.n_a == 1 || c.n_b == 1 ? " (one participant stands for a whole group)" : ""));
  if (!std::isnan(c.rho_ci.first) && std::min(c.n_a, c.n_b) < options.min_ci_participants)
    c.warnings.push_back("the bootstrap CI of rho resamples fewer than " + std::to_string(options.min_ci_participants) +
                         " participants in a group (" + sizes + "); it is unstable and too narrow");
  std::vector<double> ps;
  for (std::size_t j = 0; j < k; ++j) {
    std::vector<double> xa, xb;
    for (const auto& r : ra) xa.push_back(r[j]);
    for (const auto& r : rb) xb.push_back(r[j]);
    ItemGap gap;
    gap.item = items[j];
    gap.mean_a = ga.mean_rank[j];
    gap.mean_b = gb.mean_rank[j];
    gap.gap = gap.mean_b - gap.mean_a;
    auto mw = stats::mann_whitney_u(xa, xb);
    gap.mann_whitney_u = mw.u;
    gap.p = mw.pvalue;
    gap.cliffs_delta = stats::cliffs_delta(xb, xa);
    ps.push_back(gap.p);
    out.gaps.push_back(gap);
  }
  auto adjusted = stats::holm(ps);
  for (std::size_t j = 0; j < k; ++j) {
    auto& gap = out.gaps[j];
    gap.p_holm = adjusted[j];
    const bool by_test = gap.p_holm < options.misaligned_p;
    const bool by_effect = std::fabs(gap.cliffs_delta) >= options.misaligned_delta;
    gap.misaligned = c.flags_allowed && (by_test || by_effect);
    gap.basis = !gap.misaligned ? "" : by_test ? "test" : "effect size";
  }
  std::stable_sort(out.gaps.begin(), out.gaps.end(), [](const ItemGap& x, const ItemGap& y) {
    double ax = std::fabs(x.gap), ay = std::fabs(y.gap);
    if (std::isnan(ax)) return false;
    if (std::isnan(ay)) return true;
    return ax > ay;
  });
  return out;
}

}  // namespace

std::string consensus_text(const std::vector<std::vector<std::string>>& tiers,
                           const std::function<std::string(const std::string&)>& label) {
  std::string out;
  for (std::size_t t = 0; t < tiers.size(); ++t) {
    if (t) out += " > ";
    for (std::size_t i = 0; i < tiers[t].size(); ++i) out += (i ? " = " : "") + (label ? label(tiers[t][i]) : tiers[t][i]);
  }
  return out;
}

std::string group_phrase(const RankingOptions& options, const std::string& level) {
  auto it = options.plurals.find(level);
  if (it != options.plurals.end()) return it->second;
  return options.by == "role" ? "participants in role " + level : "participants with " + options.by + " " + level;
}

std::string too_small_sentence(const QuestionRankAnalysis& q, const RankingOptions& options) {
  if (q.too_small.empty()) return "";
  std::vector<std::string> names;
  for (const auto& g : q.groups)  // q.too_small lists these groups' levels, in this order
    if (g.n < options.min_group) names.push_back(g.level + " (n = " + std::to_string(g.n) + ")");
  const bool one = names.size() == 1;
  return text::join(names, ", ") + (one ? " has" : " have") + " fewer than " + std::to_string(options.min_group) +
         " participants (the minimum group size, --min-group): " + (one ? "its" : "their") +
         " raw rankings are shown, and no confidence interval, test, model or flag is computed for " + (one ? "it" : "them") +
         ", since so few answers describe individuals, not a group.";
}

std::string answer_lengths_sentence(const QuestionRankAnalysis& q, bool model) {
  const int k = static_cast<int>(q.items.size());
  bool partial = false;
  for (const auto& g : q.groups)
    for (const auto& [named, answers] : g.answer_lengths) partial = partial || named < k;
  if (!partial) return "";
  std::vector<std::string> groups;
  for (const auto& g : q.groups) {
    std::vector<std::string> parts;
    for (auto it = g.answer_lengths.rbegin(); it != g.answer_lengths.rend(); ++it)
      parts.push_back(std::to_string(it->second) +
                      (it->first >= k ? " complete" : " ranking " + std::to_string(it->first) + " of the " + std::to_string(k) + " items"));
    std::string last = parts.back();
    parts.pop_back();
    groups.push_back(g.level + " " + (parts.empty() ? last : text::join(parts, ", ") + " and " + last));
  }
  int shortest = k;
  for (const auto& g : q.groups)
    if (!g.answer_lengths.empty()) shortest = std::min(shortest, g.answer_lengths.begin()->first);
  const int twice = shortest + 1 + k;  // twice the rank the unranked items of the shortest answer share
  std::string out = "Answers: " + text::join(groups, "; ") +
                    ". An item an answer leaves unranked shares the mean of the positions after the items it ranks (" +
                    std::to_string(shortest) + " of " + std::to_string(k) + " ranked: rank " + std::to_string(twice / 2) +
                    (twice % 2 ? ".5" : "") + ") in the mean and median ranks, Borda scores, Kendall's W and the tests";
  if (model) out += "; in the Plackett-Luce model it lost every choice the answer made (nothing is imputed)";
  return out + ".";
}

std::string unreachable_sentence(const GroupComparison& c, double alpha) {
  char a[32];
  std::snprintf(a, sizeof a, "%g", alpha);
  return "with " + std::to_string(c.n_a) + " and " + std::to_string(c.n_b) + " participants no item can reach p < " + a +
         " after Holm's correction; " + (c.flags_allowed ? "flags rest on effect size alone" : "no item is flagged") +
         " (the smallest p the Mann-Whitney test can give with these group sizes is " + format_p(c.min_p) + ")";
}

RankingAnalysis analyse_rankings(const std::vector<RankingQuestionInput>& questions, const std::vector<std::string>& levels_in,
                                 const RankingOptions& options, Diagnostics& diags) {
  RankingAnalysis out;
  out.by = options.by;
  out.options = options;
  // Levels: the given order, then any others present, sorted.
  std::set<std::string> present;
  for (const auto& q : questions)
    for (const auto& a : q.answers)
      if (!level_of(a, options.by).empty()) present.insert(level_of(a, options.by));
  for (const auto& l : levels_in)
    if (present.count(l)) out.levels.push_back(l);
  const std::set<std::string> given(out.levels.begin(), out.levels.end());  // (a table may make every answer a level)
  for (const auto& l : present)
    if (!given.count(l)) out.levels.push_back(l);

  for (const auto& q : questions) {
    QuestionRankAnalysis qa;
    qa.question = q.question;
    qa.text = q.text;
    qa.wording = q.wording;
    qa.items = q.items;
    const std::size_t k = q.items.size();
    std::map<std::string, std::vector<std::vector<double>>> by_level;
    std::map<std::string, std::vector<const ParticipantRanking*>> answers_by_level;
    for (const auto& a : q.answers) {
      bool keep = true;
      for (const auto& [attr, value] : options.where) {
        auto it = a.attributes.find(attr);
        if (it == a.attributes.end() || it->second != value) keep = false;
      }
      if (!keep) continue;
      qa.answers.push_back(a);
      auto level = level_of(a, options.by);
      if (level.empty()) continue;
      by_level[level].push_back(ranks_for(a, q.items));
      answers_by_level[level].push_back(&a);
    }
    for (const auto& level : out.levels) {
      auto it = by_level.find(level);
      if (it == by_level.end()) continue;
      auto g = group_stats(level, it->second, k);
      for (const auto* answer : answers_by_level[level]) {
        int named = 0;
        for (const auto& tier : answer->tiers)
          for (const auto& item : tier) named += std::find(q.items.begin(), q.items.end(), item) != q.items.end();
        ++g.answer_lengths[named];
      }
      g.consensus = consensus(g, q.items);
      g.consensus_tiers = tiers_of(g, q.items);
      qa.groups.push_back(std::move(g));
    }
    // Groups below the minimum size take part in no comparison, k-group test or model.
    std::vector<const GroupRankStats*> analysed;
    for (const auto& g : qa.groups) {
      if (g.n < options.min_group) qa.too_small.push_back(g.level);
      else analysed.push_back(&g);
    }
    qa.too_small_note = too_small_sentence(qa, options);
    auto is_small = [&](const std::string& level) {
      return std::find(qa.too_small.begin(), qa.too_small.end(), level) != qa.too_small.end();
    };
    std::vector<std::pair<std::string, std::string>> pairs;
    if (options.compare) pairs.push_back(*options.compare);
    else if (!options.comparisons.empty()) pairs = options.comparisons;
    else if (analysed.size() >= 2) pairs.emplace_back(analysed[0]->level, analysed[1]->level);
    if (pairs.empty()) diags.note({}, "question " + q.question + ": no comparison (fewer than two groups)");
    std::set<std::string> compared;
    for (const auto& [a_name, b_name] : pairs) {
      const GroupRankStats* ga = find_group(qa.groups, a_name);
      const GroupRankStats* gb = find_group(qa.groups, b_name);
      if (!ga || !gb || a_name == b_name) {
        diags.note({}, "question " + q.question + ": no comparison of " + a_name + " and " + b_name + " (group '" +
                           (ga ? b_name : a_name) + "' has no rankings)");
        continue;
      }
      if (is_small(a_name) || is_small(b_name)) {
        diags.note({}, "question " + q.question + ": no comparison of " + a_name + " and " + b_name + " (a group has fewer than " +
                           std::to_string(options.min_group) + " participants)");
        continue;
      }
      compared.insert(a_name);
      compared.insert(b_name);
      qa.comparisons.push_back(compare_groups(*ga, *gb, by_level[a_name], by_level[b_name], q.items, options));
    }
    if (!qa.comparisons.empty()) {
      qa.comparison = qa.comparisons.front().comparison;
      qa.gaps = qa.comparisons.front().gaps;
      for (const auto* g : analysed)
        if (!compared.count(g->level)) qa.not_compared.push_back(g->level);
    }
    if (analysed.size() > 2) {
      KGroupAnalysis kg;
      for (const auto* g : analysed) kg.groups.push_back(g->level);
      std::vector<double> ps;
      for (std::size_t j = 0; j < k; ++j) {
        std::vector<std::vector<double>> samples;
        std::int64_t n = 0;
        for (const auto* g : analysed) {
          std::vector<double> col;
          for (const auto& r : by_level[g->level]) col.push_back(r[j]);
          n += static_cast<std::int64_t>(col.size());
          samples.push_back(std::move(col));
        }
        auto kw = stats::kruskal_wallis(samples);
        KGroupItem item;
        item.item = q.items[j];
        item.kruskal_h = kw.h;
        item.p = kw.pvalue;
        item.epsilon_squared = stats::epsilon_squared(kw.h, n);
        ps.push_back(kw.pvalue);
        kg.items.push_back(item);
      }
      auto adjusted = stats::holm(ps);
      for (std::size_t j = 0; j < k; ++j) kg.items[j].p_holm = adjusted[j];
      qa.k_groups = std::move(kg);
    }
    if (options.model.enabled && !analysed.empty()) {
      std::vector<std::pair<std::string, std::vector<const ParticipantRanking*>>> groups;
      for (const auto* g : analysed) groups.emplace_back(g->level, answers_by_level[g->level]);
      std::optional<std::pair<std::string, std::string>> pair;
      if (qa.comparison) pair = std::pair{qa.comparison->a, qa.comparison->b};
      qa.model = model_rankings(q.question, q.items, groups, pair, options.model, diags);
      if (qa.model)
        for (const auto& pa : qa.comparisons)
          qa.model->pairs.push_back({pa.comparison.a, pa.comparison.b,
                                     item_differences(*qa.model, q.items, pa.comparison.a, pa.comparison.b)});
    }
    out.questions.push_back(std::move(qa));
  }
  return out;
}

std::vector<RankingQuestionInput> ranking_inputs(const Workspace& ws, const std::vector<ParticipantRanking>& rankings) {
  std::vector<RankingQuestionInput> out;
  for (const auto* q : ws.guideline.ranking_questions()) {
    RankingQuestionInput in;
    in.question = q->id;
    in.text = q->text;
    for (const auto& role : ws.guideline.roles) {
      if (!q->asked_to(role)) continue;
      const std::string& words = q->text_for(role);
      auto same = std::find_if(in.wording.begin(), in.wording.end(), [&](const QuestionWording& w) { return w.text == words; });
      if (same == in.wording.end()) in.wording.push_back({{role}, words});
      else same->roles.push_back(role);
    }
    in.items = q->items;
    for (const auto& r : rankings)
      if (r.question == q->id) in.answers.push_back(r);
    out.push_back(std::move(in));
  }
  return out;
}

std::vector<RankingQuestionInput> read_ranking_table(const std::string& content, const std::string& file,
                                                     const Taxonomy& taxonomy, const NodeResolver& resolve,
                                                     const std::vector<std::string>& items_opt, Diagnostics& diags) {
  std::vector<RankingQuestionInput> out;
  // Every value may end up in JSON, a workbook or HTML: the whole table must be UTF-8 before any is read.
  if (auto bad = text::find_invalid_utf8(content)) {
    diags.error({file, bad->line, bad->column}, "invalid UTF-8");
    return out;
  }
  auto table = csv::parse(content, file, diags);
  int c_participant = table.column("participant"), c_question = table.column("question"), c_ranking = table.column("ranking");
  for (auto [col, name] : {std::pair{c_participant, "participant"}, {c_question, "question"}, {c_ranking, "ranking"}})
    if (col < 0) diags.error({file, table.header_line, 0}, std::string("missing column '") + name + "'");
  if (c_participant < 0 || c_question < 0 || c_ranking < 0) return out;
  if (table.rows.size() > kMaxRankingRows) {
    diags.error({file, table.rows[kMaxRankingRows].line, 1}, "more than " + std::to_string(kMaxRankingRows) +
                                                                 " rows (the limit on ranking table rows)");
    return out;
  }
  std::map<std::string, std::size_t> index;
  std::set<std::pair<std::string, std::string>> seen_answers;
  for (const auto& row : table.rows) {
    ParticipantRanking r;
    r.participant = std::string(text::trim(row.fields[c_participant]));
    r.question = std::string(text::trim(row.fields[c_question]));
    r.where = {file, row.line, 0};
    for (std::size_t c = 0; c < table.header.size(); ++c)
      if (static_cast<int>(c) != c_participant && static_cast<int>(c) != c_question && static_cast<int>(c) != c_ranking)
        r.attributes[table.header[c]] = std::string(text::trim(row.fields[c]));
    if (!seen_answers.insert({r.participant, r.question}).second)
      diags.error({file, row.line, 0}, "a second ranking of question '" + r.question + "' by '" + r.participant + "'");
    const std::string& ranking = row.fields[c_ranking];
    if (text::trim(ranking).empty()) {
      diags.error({file, row.line, 0}, "empty ranking");
      continue;
    }
    std::size_t field_offset = 0;
    for (int c = 0; c < c_ranking; ++c) field_offset += row.fields[static_cast<std::size_t>(c)].size() + 1;
    bool ok = true;
    std::set<std::string> named;
    std::vector<std::string> tier;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= ranking.size(); ++i) {
      char ch = i < ranking.size() ? ranking[i] : '>';
      if (ch != '>' && ch != '=') continue;
      auto item = text::trim(std::string_view(ranking).substr(start, i - start));
      // Column in the line: the ranking field's offset (exact when the fields before it are unquoted).
      int col = static_cast<int>(field_offset + start + 1);
      if (item.empty()) {
        diags.error({file, row.line, col}, "empty item in ranking '" + ranking + "'");
        ok = false;
      } else if (auto res = resolve(std::string(item)); !res.node) {
        diags.error({file, row.line, col}, "unknown ranking item '" + std::string(item) + "'");
        ok = false;
      } else if (!named.insert(*res.node).second) {
        diags.error({file, row.line, col}, "item '" + std::string(item) + "' (" + *res.node + ") is named twice");
        ok = false;
      } else if (!items_opt.empty() && std::find(items_opt.begin(), items_opt.end(), *res.node) == items_opt.end()) {
        diags.error({file, row.line, col}, "item '" + std::string(item) + "' (" + *res.node + ") is not in --items");
        ok = false;
      } else {
        tier.push_back(*res.node);
      }
      if (ch == '>') {
        if (!tier.empty()) r.tiers.push_back(tier);
        tier.clear();
      }
      start = i + 1;
    }
    if (!ok) continue;
    auto [it, fresh] = index.emplace(r.question, out.size());
    if (fresh) {
      RankingQuestionInput q;
      q.question = r.question;
      out.push_back(std::move(q));
    }
    out[it->second].answers.push_back(std::move(r));
  }
  for (auto& q : out) {
    if (!items_opt.empty()) {
      q.items = items_opt;
      continue;
    }
    std::set<std::string> all;
    for (const auto& a : q.answers)
      for (const auto& tier : a.tiers) all.insert(tier.begin(), tier.end());
    q.items.assign(all.begin(), all.end());
    std::sort(q.items.begin(), q.items.end(), [&](const std::string& a, const std::string& b) {
      auto ra = taxonomy.rank_of(a), rb = taxonomy.rank_of(b);
      return ra != rb ? ra < rb : text::natural_less(a, b);
    });
  }
  return out;
}

}  // namespace qualrank
