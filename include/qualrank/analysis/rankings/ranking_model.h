// Rankings as a model: Plackett-Luce worths per group and overall for one ranking question, a likelihood-ratio
// test of whether the groups share one worth vector, and per-item differences in log-worth between the two
// compared groups (Wald tests, Holm-adjusted). Shown beside the mean-rank analysis (ranking.h).
#pragma once
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "qualrank/analysis/rankings/plackett_luce.h"
#include "qualrank/analysis/ranking_input.h"
#include "qualrank/util/diagnostics.h"

namespace qualrank {

struct ModelOptions {
  bool enabled = false;
  double pseudo_rankings = 0.5;  // PlackettLuce's npseudo; 0 = plain maximum likelihood
  pl::PartialRankings partial = pl::PartialRankings::top_k;
};

struct ModelEstimates {
  std::string level;  // the group ("" for the overall fit)
  int n = 0;          // answers
  pl::Fit fit;
};

// statistic = 2 (separate_log_likelihood - pooled_log_likelihood), from exactly these numbers (clamped at 0
// against rounding). With pseudo-rankings both are penalised log-likelihoods (rankings plus pseudo-rankings),
// and the pooled model keeps every group's pseudo-rankings (pooled_pseudo_rankings = groups x npseudo per item),
// so they are NOT the rankings-only log-likelihoods of ModelEstimates (pl::Fit::log_likelihood), nor the
// overall fit's (which uses npseudo once): 2 (sum of those - overall's) is another number.
struct LikelihoodRatioTest {
  std::vector<std::string> groups;  // the groups tested (every group with answers)
  std::vector<double> group_log_likelihoods;  // per group (parallel to groups): its penalised log-likelihood
  double separate_log_likelihood = 0;  // their sum: one worth vector per group
  double pooled_log_likelihood = 0;    // one worth vector for all groups (penalised, pooled_pseudo_rankings)
  double pooled_pseudo_rankings = 0;   // pseudo-rankings per item of the pooled fit (groups x npseudo)
  double statistic = 0;                // 2 (separate_log_likelihood - pooled_log_likelihood)
  int df = 0;                          // (groups - 1) (items - 1)
  double p = 0;                        // chi-square survival function
};

struct ItemDifference {
  std::string item;
  // Centred log-worth, c_i = log w_i - mean_j log w_j (the log of the worth over the geometric mean of the
  // group's worths), of group b minus that of group a: positive when b weighs the item more, relative to b's
  // other items, than a does relative to a's. Not the difference of the worths (which sum to 1 in each group):
  // the two can differ in sign, as when b's worths are spread more unevenly. Independent groups:
  // se^2 = var_a + var_b.
  double centred_a = 0, centred_b = 0;  // the two centred log-worths (difference = centred_b - centred_a)
  double difference = 0, se = 0;
  double p = 0, p_holm = 0;  // two-sided Wald test; Holm across the question's items
};

// The item differences of one compared pair (a, b), as ItemDifference.
struct PairDifferences {
  std::string a, b;
  std::vector<ItemDifference> items;  // question item order
};

struct QuestionModel {
  double pseudo_rankings = 0.5;
  pl::PartialRankings partial = pl::PartialRankings::top_k;
  std::vector<ModelEstimates> groups;  // in level order
  ModelEstimates overall;              // every answer of those groups together
  std::optional<LikelihoodRatioTest> lr_test;           // with two or more groups
  std::string a, b;                                     // the compared groups of item_differences
  std::vector<ItemDifference> item_differences;         // question item order; empty without a comparison
  std::vector<PairDifferences> pairs;                   // every comparison's differences (the first = a, b)
};

// The per-item differences of group b minus group a in `model` (centred log-worth, Wald test, Holm across
// items); empty when either group has no estimates in the model.
std::vector<ItemDifference> item_differences(const QuestionModel& model, const std::vector<std::string>& items,
                                             const std::string& a, const std::string& b);

// Fits the model for one question. `groups`: (level, that level's answers) in level order; `compare`: the two
// levels of item_differences (none: no differences). A fit without an estimate (the rankings do not connect
// the items and there are no pseudo-rankings) is reported to `diags` as an error naming the question, the
// group and the items, and the result is std::nullopt.
std::optional<QuestionModel> model_rankings(const std::string& question, const std::vector<std::string>& items,
                                            const std::vector<std::pair<std::string, std::vector<const ParticipantRanking*>>>& groups,
                                            const std::optional<std::pair<std::string, std::string>>& compare,
                                            const ModelOptions& options, Diagnostics& diags);

}  // namespace qualrank
