// Bootstrap confidence intervals for Fleiss' kappa and Krippendorff's alpha, computed together from one
// set of resamples and fast enough for a million units: see src/analysis/agreement/agreement_bootstrap.cpp.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "qualrank/analysis/agreement/agreement_stats.h"

namespace qualrank::stats {

struct AgreementIntervals {
  std::pair<double, double> fleiss_kappa;        // {lo, hi}; {NaN, NaN} when undefined
  std::pair<double, double> krippendorff_alpha;  // {lo, hi}; {NaN, NaN} when undefined
};

// Percentile bootstrap intervals (level 0.95 = numpy.percentile(replicates, [2.5, 97.5])) of
// fleiss_kappa(table).kappa and krippendorff_alpha_nominal(table) over resampled units.
//  * `cluster_offsets` empty: every row of `table` is a resampling unit; a replicate draws `units` rows
//    with replacement (as stats::bootstrap_ci does, but from its own random stream, so the intervals agree
//    with bootstrap_ci's only up to Monte Carlo error, not bit for bit).
//  * otherwise rows are grouped into clusters, cluster i = rows [offsets[i], offsets[i+1]) (offsets start
//    at 0, ascend, and end at table.units); each replicate draws as many clusters as there are, with
//    replacement, and keeps all rows of each (a cluster bootstrap: e.g. one transcript turn compared on
//    every taxonomy node). One row per cluster gives exactly the unclustered result.
// Replicate r uses its own xoshiro256** stream seeded from (seed, r), so the result depends only on the
// arguments (same bytes for any `threads` and any scheduling). `threads`: 0 = automatic
// (min(2, std::thread::hardware_concurrency())), otherwise that many (never more than `resamples`); if a
// thread cannot be started the calling thread does its share.
// NaN replicates (undefined statistic) are dropped as in bootstrap_ci.
// resamples < 1, level outside (0, 1), threads < 0, invalid table or offsets -> std::invalid_argument.
// No unit (or no cluster) -> both intervals {NaN, NaN}.
// Cost: one pass to group identical rows (and identical clusters), then per replicate one 64-bit random
// number per drawn unit (or cluster) plus a pass over the distinct rows; memory O(units + distinct rows x
// coders), nothing per replicate beyond the two result vectors.
// The warning a bootstrap interval carries when it resamples fewer than `minimum` units (or clusters):
// e.g. "the 95% CIs resample only 3 units; with fewer than 5 they are unstable and too narrow"; "" otherwise.
std::string small_sample_ci_warning(std::int64_t resampled, const std::string& what, double level = 0.95, std::int64_t minimum = 5);

AgreementIntervals bootstrap_agreement(const RatingTable& table, int resamples, std::uint64_t seed,
                                       double level = 0.95, const std::vector<std::int64_t>& cluster_offsets = {},
                                       int threads = 0);

}  // namespace qualrank::stats
