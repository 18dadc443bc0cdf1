// Ranking analysis: per-group consensus (mean/median rank, Borda, Kendall's W), the two groups' rank
// correlation (Spearman, Kendall tau-b, bootstrap CI for rho) and per-item priority gaps (Mann-Whitney U,
// Holm, Cliff's delta). Input: participants' (possibly partial, tied) rankings; see ranking_input.h.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "qualrank/analysis/ranking_input.h"
#include "qualrank/analysis/rankings/ranking_model.h"
#include "qualrank/model/taxonomy.h"
#include "qualrank/util/diagnostics.h"

namespace qualrank {

// One wording of a question and the roles asked it in these words.
struct QuestionWording {
  std::vector<std::string> roles;
  std::string text;
};

struct RankingQuestionInput {
  std::string question;
  std::string text;                         // question text, for reports ("" for table input)
  std::vector<QuestionWording> wording;     // per role, roles with equal words together ({} for table input)
  std::vector<std::string> items;           // the item set, taxonomy order
  std::vector<ParticipantRanking> answers;
};

struct GroupRankStats {
  std::string level;                        // the attribute value (e.g. "manager")
  int n = 0;
  std::vector<double> mean_rank, median_rank, borda;  // per item, in the question's item order
  std::vector<std::string> consensus;       // items by mean rank, ties broken by Borda (desc) then item order
  // The consensus cut where the mean rank changes: items of one tier have the same mean rank (within 1e-9).
  std::vector<std::vector<std::string>> consensus_tiers;
  double kendall_w = 0, kendall_w_chi2 = 0, kendall_w_p = 0;
  std::map<int, int> answer_lengths;        // items an answer names -> answers (a question's item count: complete)
};

// A consensus order as text: tiers joined with " > ", tied items within a tier with " = " ("A.1 = A.3 > A.2");
// `label` turns an item id into what is shown (default: the id).
std::string consensus_text(const std::vector<std::vector<std::string>>& tiers,
                           const std::function<std::string(const std::string&)>& label = {});

struct GroupComparison {
  std::string a, b;
  // spearman_p: exact from all pairings (stats::spearman_p_exact) up to kSpearmanExactMaxN items, else t-based.
  double spearman_rho = 0, spearman_p = 0, kendall_tau_b = 0, kendall_tau_p = 0;
  double ci_level = 0.95;
  std::pair<double, double> rho_ci{0, 0};  // NaN, NaN without resamples or when rho is undefined (NaN)
  int resamples = 0;
  int n_a = 0, n_b = 0;                    // participants in the two groups
  // Honest small samples: the smallest two-sided p the Mann-Whitney test can reach with n_a and n_b
  // (stats::mann_whitney_min_p, the method mann_whitney_u uses), and whether min_p times the number of items
  // (the smallest Holm-adjusted p possible) is below the flag's alpha.
  double min_p = 1;
  bool can_reach_significance = true;
  bool flags_allowed = true;               // both groups have at least RankingOptions::min_group_size participants
  std::vector<std::string> warnings;       // plain sentences on small samples, shown in every output
};

struct ItemGap {
  std::string item;
  double mean_a = 0, mean_b = 0;
  double gap = 0;              // mean rank in group b minus group a (positive: b ranks it lower)
  double mann_whitney_u = 0;   // U of group a's ranks (scipy.stats.mannwhitneyu(a, b))
  double p = 0, p_holm = 0;
  double cliffs_delta = 0;     // positive when group b's ranks tend to be larger (lower priority)
  bool misaligned = false;     // p_holm < 0.05 or |delta| >= 0.474 (never when a group is below the minimum size)
  std::string basis;           // why it is flagged: "test" (p_holm < alpha) or "effect size" (|delta| only); "" if not
};

// One pairwise comparison of a question: the correlation of the two groups' mean ranks and the item gaps.
struct PairAnalysis {
  GroupComparison comparison;
  std::vector<ItemGap> gaps;                // sorted by |gap| descending, then item order
};

// The k-group analysis of one item (k > 2 groups): Kruskal-Wallis on the participants' ranks of the item.
struct KGroupItem {
  std::string item;
  double kruskal_h = 0, p = 0, p_holm = 0, epsilon_squared = 0;
};

struct KGroupAnalysis {
  std::vector<std::string> groups;          // the groups tested, in level order
  std::vector<KGroupItem> items;            // in the question's item order; Holm across these items
};

struct QuestionRankAnalysis {
  std::string question;
  std::string text;
  std::vector<QuestionWording> wording;     // as RankingQuestionInput::wording
  std::vector<std::string> items;
  std::vector<GroupRankStats> groups;       // every level present, in level order
  std::optional<GroupComparison> comparison;  // the first of `comparisons` (kept for existing callers)
  std::vector<ItemGap> gaps;                // the first comparison's gaps, sorted by |gap| descending, then item order
  std::vector<PairAnalysis> comparisons;    // every comparison made, in the order asked for
  std::vector<std::string> not_compared;    // groups present in no comparison (said in every output)
  std::vector<std::string> too_small;       // groups below RankingOptions::min_group, in level order: in no
                                            // comparison, k-group test or model; their raw rankings are shown
  std::string too_small_note;               // too_small_sentence (said in every output); "" when none
  std::optional<KGroupAnalysis> k_groups;   // with more than two groups
  std::vector<ParticipantRanking> answers;  // the raw answers analysed
  std::optional<QuestionModel> model;       // Plackett-Luce (RankingOptions::model.enabled)
};

struct RankingOptions {
  std::string by = "role";
  std::optional<std::pair<std::string, std::string>> compare;  // one comparison (rank --compare A,B)
  std::vector<std::pair<std::string, std::string>> comparisons; // else these (the guideline's `compare`);
                                                               // default: the first two levels
  std::vector<std::pair<std::string, std::string>> where;      // attribute filters (all must hold)
  int resamples = 10000;
  std::uint64_t seed = 20250101;
  double misaligned_p = 0.05;
  double misaligned_delta = 0.474;
  int min_group = 2;                                           // smaller groups: raw rankings only (no CI,
                                                               // test, model or flag); --min-group
  int min_group_size = 3;                                      // smaller groups are reported, not flagged
  int min_ci_participants = 5;                                 // a bootstrap CI from fewer carries a warning
  ModelOptions model;                                          // Plackett-Luce beside the mean ranks
  std::map<std::string, std::string> plurals;                  // level -> how its members are named in
                                                               // sentences (the guideline's `plurals`)
};

struct RankingAnalysis {
  std::string by;
  std::vector<std::string> levels;          // the `by` levels in order
  std::vector<QuestionRankAnalysis> questions;
  RankingOptions options;
};

// Analyses every question. `levels` gives the order of the `by` attribute's values (e.g. the guideline's
// roles); values not listed come after, sorted. The comparisons are `options.compare`, else
// `options.comparisons`, else the first two levels present; groups in none of them are listed in
// `not_compared`. A comparison needs both compared groups to have at least one participant; otherwise it is
// left out and a note is added to `diags`. With more than two groups, each item also gets a Kruskal-Wallis
// test (k_groups). Small samples are said, not hidden: each comparison carries the smallest reachable
// Mann-Whitney p, and warnings when no item can reach significance after Holm, when a group is below
// `min_group_size` (no flags then) and when the bootstrap CI rests on fewer than `min_ci_participants`. With `options.model.enabled`,
// each question also gets a Plackett-Luce model (ranking_model.h); a model without an estimate is an error
// in `diags` (the question's `model` is then empty).
RankingAnalysis analyse_rankings(const std::vector<RankingQuestionInput>& questions, const std::vector<std::string>& levels,
                                 const RankingOptions& options, Diagnostics& diags);

// How the members of group `level` are named in a sentence: options.plurals[level] when given, else
// "participants in role nurse" (grouped by role) or "participants with experience senior" (any other
// attribute). Paste-ready for any level name, never "nurse rank" or "it-staffs".
std::string group_phrase(const RankingOptions& options, const std::string& level);

// Why groups below the minimum size show only their raw rankings, naming them, e.g. "contractor (n = 1) has
// fewer than 2 participants (the minimum group size, --min-group): its raw rankings are shown, and no
// confidence interval, test, model or flag is computed for it, since one or two answers describe individuals,
// not a group." "" when no group is that small.
std::string too_small_sentence(const QuestionRankAnalysis& q, const RankingOptions& options);

// The plain sentence for a comparison in which no item can reach significance, e.g. "with 3 and 4
// participants no item can reach p < 0.05 after Holm's correction; flags rest on effect size alone".
// How long the answers were, when some leave items unranked, and how those items count; "" when every
// answer is complete. E.g. "Answers: user 9 complete and 2 ranking 3 of the 4 items; developer 8 complete.
// An item an answer leaves unranked shares ...".
std::string answer_lengths_sentence(const QuestionRankAnalysis& q, bool model);

std::string unreachable_sentence(const GroupComparison& c, double alpha);

// The inputs of a workspace: its ranking questions with the resolved answers of `rankings`.
std::vector<RankingQuestionInput> ranking_inputs(const Workspace& ws, const std::vector<ParticipantRanking>& rankings);

// Rows of a ranking table, at most (README "Safety and limits"): every distinct attribute value may be a group.
inline constexpr std::size_t kMaxRankingRows = 100000;

// Reads a ranking table (CSV: participant, question, ranking, plus attribute columns). Items by id, name or
// alias, resolved with `resolve`; `=` for ties, `>` between positions. A question's item set is every item
// named in its rankings (taxonomy order), or `items` when given. Reports unknown items, items named twice,
// empty rankings and missing columns located (FILE:LINE:COL); text that is not valid UTF-8, or more than
// kMaxRankingRows rows (at the first row past it), is one located error and nothing is read.
std::vector<RankingQuestionInput> read_ranking_table(const std::string& content, const std::string& file,
                                                     const Taxonomy& taxonomy, const NodeResolver& resolve,
                                                     const std::vector<std::string>& items, Diagnostics& diags);

}  // namespace qualrank
