// Bootstrap confidence intervals for Fleiss' kappa and Krippendorff's alpha, computed together from one
// stream of resampled units and fast enough for a million units: see src/analysis/agreement_bootstrap.cpp.
#pragma once
#include <cstdint>
#include <utility>
#include <vector>

#include "qualrank/analysis/agreement_stats.h"

namespace qualrank::stats {

struct AgreementIntervals {
  std::pair<double, double> fleiss_kappa;        // {lo, hi}; {NaN, NaN} when undefined
  std::pair<double, double> krippendorff_alpha;  // {lo, hi}; {NaN, NaN} when undefined
};

// Percentile bootstrap intervals (level 0.95 = numpy.percentile(replicates, [2.5, 97.5])) of
// fleiss_kappa(table).kappa and krippendorff_alpha_nominal(table) over resampled units.
//  * `cluster_offsets` empty: every row of `table` is a resampling unit, and the draws are exactly those
//    of stats::bootstrap_ci(table, statistic, resamples, seed, level) (one Rng(seed), `units` calls of
//    uniform_index(units) per replicate), so the Fleiss interval equals bootstrap_ci's bit for bit and the
//    alpha interval up to floating-point rounding (about 1e-15).
//  * otherwise rows are grouped into clusters, cluster i = rows [offsets[i], offsets[i+1]) (offsets start
//    at 0, ascend, and end at table.units); each replicate draws as many clusters as there are, with
//    replacement, and keeps all rows of each (a cluster bootstrap: e.g. one transcript turn compared on
//    every taxonomy node).
// NaN replicates (undefined statistic) are dropped as in bootstrap_ci.
// resamples < 1, level outside (0, 1), invalid table or offsets -> std::invalid_argument.
// No unit (or no cluster) -> both intervals {NaN, NaN}.
// Cost: one pass to group identical rows, then per replicate one random draw per unit plus a pass over
// the distinct rows; memory O(units + distinct rows x coders).
AgreementIntervals bootstrap_agreement(const RatingTable& table, int resamples, std::uint64_t seed,
                                       double level = 0.95, const std::vector<std::int64_t>& cluster_offsets = {});

}  // namespace qualrank::stats
