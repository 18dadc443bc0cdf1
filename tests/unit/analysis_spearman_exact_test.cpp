// Unit tests for stats::spearman_p_exact (src/analysis/spearman_exact.cpp) and its use in the ranking
// comparison. Every expected value was produced by Debian's /usr/bin/python3 (SciPy 1.10.1) with the
// command right above it, where P is
//   from scipy.stats import permutation_test, spearmanr; import numpy as np
//   P = lambda x, y: permutation_test((x,), lambda a: spearmanr(a, y).statistic, permutation_type='pairings',
//                                     n_resamples=np.inf, alternative='two-sided').pvalue
#include "catch.h"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

#include "qualrank/analysis/stats.h"

namespace qs = qualrank::stats;

TEST_CASE("stats::spearman_p_exact matches scipy.stats.permutation_test over all pairings", "[stats]") {
  // P([1,2,3],[1,2,3]) -> 0.3333333333333333 (spearmanr's t-based p is 0.0)
  CHECK(qs::spearman_p_exact({1, 2, 3}, {1, 2, 3}) == Approx(1.0 / 3).epsilon(1e-15));
  CHECK(qs::spearman(std::vector<double>{1, 2, 3}, {1, 2, 3}).pvalue == 0.0);
  // P([1,2,3],[3,2,1]) -> 0.3333333333333333
  CHECK(qs::spearman_p_exact({1, 2, 3}, {3, 2, 1}) == Approx(1.0 / 3).epsilon(1e-15));
  // P([1,2,3,4,5],[5,6,7,8,7]) -> 0.13333333333333333 (ties in y)
  CHECK(qs::spearman_p_exact({1, 2, 3, 4, 5}, {5, 6, 7, 8, 7}) == Approx(0.13333333333333333).epsilon(1e-15));
  // P([1.5,2.25,1.0,3.5],[1.0,2.0,3.0,4.0]) -> 0.75 (mean ranks, as the ranking comparison passes)
  CHECK(qs::spearman_p_exact({1.5, 2.25, 1.0, 3.5}, {1.0, 2.0, 3.0, 4.0}) == Approx(0.75).epsilon(1e-15));
  // P([1,2,2,3],[1,3,2,4]) -> 0.16666666666666666
  CHECK(qs::spearman_p_exact({1, 2, 2, 3}, {1, 3, 2, 4}) == Approx(0.16666666666666666).epsilon(1e-15));
  // P([1,2,3,4,5,6,7,8,9],[2,1,4,3,6,5,8,7,9]) -> 0.0007495590828924162 (9 items: 362,880 pairings)
  CHECK(qs::spearman_p_exact({1, 2, 3, 4, 5, 6, 7, 8, 9}, {2, 1, 4, 3, 6, 5, 8, 7, 9}) ==
        Approx(0.0007495590828924162).epsilon(1e-12));
  // P([1,2],[3,4]) -> 1.0
  CHECK(qs::spearman_p_exact({1, 2}, {3, 4}) == 1.0);
}

TEST_CASE("stats::spearman_p_exact refuses what it cannot answer", "[stats]") {
  CHECK(std::isnan(qs::spearman_p_exact({1, 1, 1}, {1, 2, 3})));
  CHECK(std::isnan(qs::spearman_p_exact({1}, {2})));
  CHECK(std::isnan(qs::spearman_p_exact({1, 2, std::numeric_limits<double>::quiet_NaN()}, {1, 2, 3})));
  CHECK_THROWS_AS(qs::spearman_p_exact({1, 2}, {1, 2, 3}), std::invalid_argument);
  std::vector<double> ten{1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  CHECK_THROWS_AS(qs::spearman_p_exact(ten, ten), std::invalid_argument);
}
