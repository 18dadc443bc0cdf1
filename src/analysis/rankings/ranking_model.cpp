// Plackett-Luce for a ranking question (see plackett_luce.cpp for the model). Each group is fitted alone and
// all groups together. The likelihood-ratio statistic 2 (sum_g LL_g - LL_0) compares one worth vector per group
// with one for all, referred to chi-square with (G - 1)(items - 1) degrees of freedom. With pseudo-rankings
// both sides are the maximised penalised log-likelihoods (rankings plus pseudo-rankings), and the common-worth
// model LL_0 keeps every group's pseudo-rankings (G x npseudo per item), so the two models are nested and the
// statistic is never negative; with 0 pseudo-rankings it is the plain likelihood-ratio statistic. (The
// "overall" estimates reported use npseudo once, as fitting the pooled rankings alone would.) Per item, the two
// compared groups' centred log-worths (minus the mean over the items, so no item is a privileged reference)
// are compared by a Wald test, Holm-adjusted.
#include "qualrank/analysis/rankings/ranking_model.h"

#include <algorithm>
#include <boost/math/distributions/chi_squared.hpp>
#include <cmath>

#include "qualrank/analysis/stats.h"

namespace qualrank {

namespace {

std::vector<pl::Ranking> to_model(const std::vector<std::string>& items, const std::vector<const ParticipantRanking*>& answers) {
  std::vector<pl::Ranking> out;
  out.reserve(answers.size());
  for (const auto* a : answers) {
    pl::Ranking r;
    for (const auto& tier : a->tiers) {
      std::vector<int> t;
      for (const auto& id : tier) {
        auto it = std::find(items.begin(), items.end(), id);
        if (it != items.end()) t.push_back(static_cast<int>(it - items.begin()));
      }
      if (!t.empty()) r.tiers.push_back(std::move(t));
    }
    out.push_back(std::move(r));
  }
  return out;
}

// Centred log-worths and their variances.
void centred(const pl::Fit& f, std::vector<double>& value, std::vector<double>& variance) {
  const std::size_t m = f.log_worth.size();
  double mean = 0, total = 0;
  std::vector<double> row(m, 0.0);
  for (std::size_t i = 0; i < m; ++i) {
    mean += f.log_worth[i];
    for (std::size_t j = 0; j < m; ++j) row[i] += f.covariance[i][j];
    total += row[i];
  }
  const double md = static_cast<double>(m);
  mean /= md;
  value.assign(m, 0.0);
  variance.assign(m, 0.0);
  for (std::size_t i = 0; i < m; ++i) {
    value[i] = f.log_worth[i] - mean;
    variance[i] = f.covariance[i][i] - 2.0 * row[i] / md + total / (md * md);
  }
}

}  // namespace

std::optional<QuestionModel> model_rankings(const std::string& question, const std::vector<std::string>& items,
                                            const std::vector<std::pair<std::string, std::vector<const ParticipantRanking*>>>& groups,
                                            const std::optional<std::pair<std::string, std::string>>& compare,
                                            const ModelOptions& options, Diagnostics& diags) {
  if (items.size() < 2 || groups.empty()) return std::nullopt;
  QuestionModel qm;
  qm.pseudo_rankings = options.pseudo_rankings;
  qm.partial = options.partial;
  pl::Options po;
  po.pseudo_rankings = options.pseudo_rankings;
  po.partial = options.partial;
  po.item_names = items;
  bool ok = true;
  std::vector<const ParticipantRanking*> everyone;
  for (const auto& [level, answers] : groups) {
    ModelEstimates e;
    e.level = level;
    e.n = static_cast<int>(answers.size());
    e.fit = pl::fit_plackett_luce(static_cast<int>(items.size()), to_model(items, answers), po);
    if (!e.fit.error.empty()) {
      diags.error({}, "question " + question + ", group " + level + ": " + e.fit.error);
      ok = false;
    }
    everyone.insert(everyone.end(), answers.begin(), answers.end());
    qm.groups.push_back(std::move(e));
  }
  qm.overall.n = static_cast<int>(everyone.size());
  qm.overall.fit = pl::fit_plackett_luce(static_cast<int>(items.size()), to_model(items, everyone), po);
  if (!qm.overall.fit.error.empty()) {
    diags.error({}, "question " + question + ", all groups: " + qm.overall.fit.error);
    ok = false;
  }
  if (!ok) return std::nullopt;
  const int m = static_cast<int>(items.size());
  if (qm.groups.size() >= 2) {
    LikelihoodRatioTest lr;
    double sum = 0;
    for (const auto& g : qm.groups) {
      lr.groups.push_back(g.level);
      lr.group_log_likelihoods.push_back(g.fit.penalised_log_likelihood);
      sum += g.fit.penalised_log_likelihood;
    }
    pl::Options null_options = po;
    null_options.pseudo_rankings = options.pseudo_rankings * static_cast<double>(qm.groups.size());
    auto common = options.pseudo_rankings > 0 ? pl::fit_plackett_luce(m, to_model(items, everyone), null_options) : qm.overall.fit;
    if (!common.error.empty()) {
      diags.error({}, "question " + question + ", all groups: " + common.error);
      return std::nullopt;
    }
    lr.separate_log_likelihood = sum;
    lr.pooled_log_likelihood = common.penalised_log_likelihood;
    lr.pooled_pseudo_rankings = options.pseudo_rankings > 0 ? null_options.pseudo_rankings : 0.0;
    lr.statistic = std::max(0.0, 2.0 * (sum - common.penalised_log_likelihood));  // >= 0 but for rounding
    lr.df = static_cast<int>(qm.groups.size() - 1) * (m - 1);
    lr.p = boost::math::cdf(boost::math::complement(boost::math::chi_squared(lr.df), lr.statistic));
    qm.lr_test = lr;
  }
  if (compare) {
    qm.item_differences = item_differences(qm, items, compare->first, compare->second);
    if (!qm.item_differences.empty()) {
      qm.a = compare->first;
      qm.b = compare->second;
    }
  }
  return qm;
}

std::vector<ItemDifference> item_differences(const QuestionModel& qm, const std::vector<std::string>& items,
                                             const std::string& a, const std::string& b) {
  const ModelEstimates *ga = nullptr, *gb = nullptr;
  for (const auto& g : qm.groups) {
    if (g.level == a) ga = &g;
    if (g.level == b) gb = &g;
  }
  std::vector<ItemDifference> out;
  if (!ga || !gb || ga == gb) return out;
  std::vector<double> va, vara, vb, varb, ps;
  centred(ga->fit, va, vara);
  centred(gb->fit, vb, varb);
  for (std::size_t i = 0; i < items.size(); ++i) {
    ItemDifference d;
    d.item = items[i];
    d.centred_a = va[i];
    d.centred_b = vb[i];
    d.difference = vb[i] - va[i];
    d.se = std::sqrt(vara[i] + varb[i]);
    d.p = d.se > 0 ? std::erfc(std::fabs(d.difference / d.se) / std::sqrt(2.0)) : std::nan("");
    ps.push_back(d.p);
    out.push_back(d);
  }
  auto adjusted = stats::holm(ps);
  for (std::size_t i = 0; i < items.size(); ++i) out[i].p_holm = adjusted[i];
  return out;
}

}  // namespace qualrank
