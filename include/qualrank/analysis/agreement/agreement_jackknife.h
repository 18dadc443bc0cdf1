// Jackknife standard errors and normal intervals for Fleiss' kappa and Krippendorff's alpha, in one pass
// over the table whatever its size: see src/analysis/agreement/agreement_jackknife.cpp. `qualrank agreement` uses them
// instead of the bootstrap from kJackknifeFromUnits resampling units on (agreement_intervals).
#pragma once
#include <cstdint>
#include <vector>

#include "qualrank/analysis/agreement/agreement_bootstrap.h"
#include "qualrank/analysis/agreement/agreement_stats.h"

namespace qualrank::stats {

struct AgreementStandardErrors {
  double fleiss_kappa;        // NaN when undefined
  double krippendorff_alpha;  // NaN when undefined
};

// Delete-one jackknife standard errors (Efron & Tibshirani 1993, ch. 11) of fleiss_kappa(table).kappa and
// krippendorff_alpha_nominal(table): with theta_(i) the statistic of the table without unit i,
//   SE = sqrt((n - 1) / n * sum_i (theta_(i) - mean_i theta_(i))^2),
// over the n units whose theta_(i) is defined (a unit whose removal leaves the statistic undefined is left
// out, as the bootstrap drops undefined replicates). A unit that does not enter a statistic (a unit with a
// missing code for Fleiss, one with fewer than two codes for alpha) still counts in n, with theta_(i) =
// theta. `cluster_offsets` as in bootstrap_agreement: empty = every row is a unit; otherwise cluster i =
// rows [offsets[i], offsets[i+1]) is deleted as a whole (delete-one-cluster jackknife).
// The statistic itself undefined, or fewer than 2 defined theta_(i) -> NaN. Invalid table or offsets ->
// std::invalid_argument. O(units x coders) time, O(categories) memory; deterministic.
AgreementStandardErrors jackknife_agreement_se(const RatingTable& table,
                                               const std::vector<std::int64_t>& cluster_offsets = {});

// Normal intervals theta +- z * SE, z = the standard normal quantile at 1 - (1 - level) / 2, theta the
// statistic of the whole table (fleiss_kappa / krippendorff_alpha_nominal, computed from the same sums as
// the SE, so equal to theirs up to rounding in the last bits) and SE from jackknife_agreement_se (one pass
// computes both); the upper end is capped at 1 (neither statistic exceeds 1). {NaN, NaN} when theta
// or SE is undefined. level outside (0, 1) -> std::invalid_argument.
AgreementIntervals jackknife_agreement(const RatingTable& table, double level = 0.95,
                                       const std::vector<std::int64_t>& cluster_offsets = {});

// Which interval `qualrank agreement` reports: the percentile bootstrap below kJackknifeFromUnits resampling
// units (units, or clusters), the jackknife normal interval from there on (where the two agree: the
// statistics are smooth functions of means, and the bootstrap's cost grows with units x resamples).
enum class IntervalMethod { bootstrap, jackknife };
inline constexpr std::int64_t kJackknifeFromUnits = 100000;
IntervalMethod interval_method(std::int64_t resampled_units);
const char* interval_method_name(IntervalMethod method);  // "bootstrap" or "jackknife"

// The intervals of that method: bootstrap_agreement(table, resamples, seed, level, cluster_offsets) or
// jackknife_agreement(table, level, cluster_offsets) (which ignores resamples and seed). Same errors as those.
AgreementIntervals agreement_intervals(const RatingTable& table, IntervalMethod method, int resamples,
                                       std::uint64_t seed, double level,
                                       const std::vector<std::int64_t>& cluster_offsets = {});

}  // namespace qualrank::stats
