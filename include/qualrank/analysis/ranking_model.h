// Rankings as a model: Plackett-Luce worths per group and overall for one ranking question, a likelihood-ratio
// test of whether the groups share one worth vector, and per-item differences in log-worth between the two
// compared groups (Wald tests, Holm-adjusted). Shown beside the mean-rank analysis (ranking.h).
#pragma once
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "qualrank/analysis/plackett_luce.h"
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

struct LikelihoodRatioTest {
  std::vector<std::string> groups;  // the groups tested (every group with answers)
  double statistic = 0;             // 2 (sum of the groups' log-likelihoods - that of one worth vector for all);
                                    // with pseudo-rankings penalised ones, each group keeping its own (see .cpp)
  int df = 0;                       // (groups - 1) (items - 1)
  double p = 0;                     // chi-square survival function
};

struct ItemDifference {
  std::string item;
  // Centred log-worth (log-worth minus its mean over the question's items) in group b minus group a:
  // positive when group b gives the item more weight. Independent groups: se^2 = var_a + var_b.
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
