// Inter-coder agreement statistics for nominal codes: pure functions, no I/O.
// Conventions (as in stats.h): an undefined statistic (0/0, nothing to compare) is a quiet NaN;
// a malformed table (wrong size, code out of range) throws std::invalid_argument.
#pragma once
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

namespace qualrank::stats {

// Units x coders table of nominal codes, row-major:
//   codes[u * coders + c] = category index in [0, categories) that coder c gave unit u,
//   or -1 when coder c did not code unit u (missing).
// Valid iff units >= 0, coders >= 0, categories >= 1 and codes.size() == units * coders and
// every entry is in [-1, categories); every function below checks this and throws
// std::invalid_argument otherwise.
struct RatingTable {
  int units = 0;
  int coders = 0;
  int categories = 0;
  std::vector<int> codes;
};

// Throws std::invalid_argument if the table violates the contract above.
void validate(const RatingTable& table);

struct FleissKappa {
  double kappa;               // NaN when undefined (see fleiss_kappa)
  std::int64_t used_units;     // units coded by every coder
  std::int64_t dropped_units;  // units with at least one missing code (excluded)
};

// Fleiss' kappa over the units coded by EVERY coder (units with any -1 are dropped and
// counted), identical to statsmodels.stats.inter_rater.fleiss_kappa(counts, method='fleiss')
// on the units x categories count table of those units:
//   P_i = (sum_j n_ij^2 - m) / (m (m - 1)),  P = mean_i P_i,  p_j = sum_i n_ij / (N m),
//   Pe = sum_j p_j^2,  kappa = (P - Pe) / (1 - Pe).
// Undefined -> NaN: no complete unit, fewer than 2 coders, or Pe == 1 (every code in one
// category, even with perfect agreement: statsmodels also gives 0/0 = nan). O(units x coders),
// no per-unit allocation.
FleissKappa fleiss_kappa(const RatingTable& table);

// Fleiss' kappa from a units x categories count table (counts[i][j] = number of coders who put
// unit i in category j), exactly statsmodels' fleiss_kappa(counts). Every row must have the same
// positive total m (statsmodels asserts this) and the same length, counts must be >= 0;
// otherwise std::invalid_argument. Empty table, m < 2 or Pe == 1 -> NaN.
double fleiss_kappa_counts(const std::vector<std::vector<int>>& counts);

// Fleiss' (1971) per-category kappa over the complete units:
//   kappa_j = 1 - sum_i n_ij (m - n_ij) / (N m (m - 1) p_j (1 - p_j)).
// One value per category; NaN for a category with p_j == 0 or p_j == 1 (0/0), and all NaN when
// there is no complete unit or m < 2.
std::vector<double> fleiss_kappa_per_category(const RatingTable& table);
// Same, from a count table (same input checks as fleiss_kappa_counts).
std::vector<double> fleiss_kappa_per_category_counts(const std::vector<std::vector<int>>& counts);

// Krippendorff's alpha for nominal data by the coincidence-matrix method (Krippendorff 2011,
// "Computing Krippendorff's Alpha-Reliability"); missing codes allowed. Units with fewer than
// two codes are not pairable and are ignored. With n_uc = codes of category c in unit u,
// m_u = sum_c n_uc (pairable units only), n_c = sum_u n_uc, n = sum_c n_c:
//   alpha = 1 - (n - 1) sum_u [(m_u^2 - sum_c n_uc^2) / (m_u - 1)] / (n^2 - sum_c n_c^2).
// Undefined -> NaN: no pairable unit, or only one category occurs among pairable codes
// (expected disagreement 0, including perfect agreement on a single category; the `krippendorff`
// Python package raises an error there). O(units x coders), no per-unit allocation.
double krippendorff_alpha_nominal(const RatingTable& table);

// Cohen's (unweighted) kappa of two coders over the items both coded (-1 = missing, skipped),
// as statsmodels.stats.inter_rater.cohens_kappa(confusion_table).kappa and
// sklearn.metrics.cohen_kappa_score: (p_o - p_e) / (1 - p_e).
// Different lengths or a code outside [-1, categories) -> std::invalid_argument.
// No item coded by both, or p_e == 1 (both coders used one and the same category) -> NaN.
double cohen_kappa(const std::vector<int>& a, const std::vector<int>& b, int categories);

// Observed percent agreement, defined as the mean over units with >= 2 codes of the share of
// agreeing ordered coder pairs within the unit: sum_c n_uc (n_uc - 1) / (m_u (m_u - 1)).
// With no missing codes this is Fleiss' P-bar. Returned as a proportion in [0, 1] (not x100).
// No unit with >= 2 codes -> NaN.
double percent_agreement(const RatingTable& table);

// The units percent_agreement and krippendorff_alpha_nominal are computed over: those with >= 2 codes.
std::int64_t pairable_units(const RatingTable& table);

// The units coded by every coder (those of Fleiss' kappa) on which every coder gave the same code.
struct AllAgree {
  std::int64_t units = 0;     // units coded by every coder
  std::int64_t agreeing = 0;  // of those, the units with one code only
  double share;               // agreeing / units; NaN when units == 0 or fewer than 2 coders
};
// "All coders agree on X% of units": a share of units, not of coder pairs (percent_agreement), and over the
// units coded by every coder only. With 2 coders and no missing code it equals percent_agreement; with more
// coders it is lower (a unit with 2 of 3 coders agreeing counts 0 here and 1/3 there).
AllAgree all_agree(const RatingTable& table);

// Specific agreement per category j: of the coder pairs (within a unit) in which at least one coder gave
// code j, the share in which both did, counting each such pair once per coder giving j (Fleiss 1975;
// Cicchetti & Feinstein 1990, positive and negative agreement; de Vet et al. 2013, specific agreement).
// Over the units with m_u >= 2 codes, n_uj the codes j of unit u:
//   ps_j = sum_u n_uj (n_uj - 1) / sum_u n_uj (m_u - 1)
//        = 2 sum_pairs a_j / sum_pairs (2 a_j + b_j + c_j),
// pooled over every coder pair of every unit (a_j: both coders gave j; b_j + c_j: exactly one did). For two
// coders and a present/absent code (category 1 = present) this is the positive agreement
// PA = 2a / (2a + b + c), and for category 0 the negative agreement NA = 2d / (2d + b + c). Unlike percent
// agreement it ignores the pairs that agree a code is absent, so a code one coder applied to 1 of 30 units
// and the other to none has PA 0 (and percent agreement 29/30). One value per category; NaN for a category
// no pairable unit has (0/0).
std::vector<double> specific_agreement(const RatingTable& table);

// Percentile bootstrap interval of `statistic` over units resampled with replacement.
// Replicate r draws `units` unit indices with Rng(seed).uniform_index(units) (one Rng for the
// whole run), builds the resampled table (same coders/categories) and evaluates `statistic`.
// Undefined (NaN) replicates are dropped; the interval is
// bootstrap_percentile_ci(replicates, level) (numpy.percentile linear). Reproducible per seed.
//  * resamples < 1, level outside (0, 1) or an invalid table -> std::invalid_argument;
//  * table.units == 0 or every replicate NaN -> {NaN, NaN}.
std::pair<double, double> bootstrap_ci(const RatingTable& table,
                                       const std::function<double(const RatingTable&)>& statistic,
                                       int resamples, std::uint64_t seed, double level = 0.95);

}  // namespace qualrank::stats
