// Spearman's rho: the exact two-sided p-value from the permutation distribution, for few items.
//
// Method: every one of the n! pairings of y's values with x's is equally likely under independence
// (scipy.stats.permutation_test(..., permutation_type='pairings', n_resamples=np.inf,
// alternative='two-sided')): p = min(1, 2 min(P(rho* >= rho), P(rho* <= rho))). With average ranks (multiples
// of 1/2) rho is an increasing function of S = sum (2 rx_i)(2 ry_i), an integer, so the comparisons are exact
// (no floating-point tolerance as SciPy's). The pairings are walked by Heap's algorithm, O(n! n).
// Reference: Pitman (1937), "Significance tests which may be applied to samples from any populations. II.
// The correlation coefficient test", JRSS Suppl. 4(2); SciPy 1.10 scipy/stats/_resampling.py.
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

#include "qualrank/analysis/stats.h"

namespace qualrank::stats {

double spearman_p_exact(const std::vector<double>& x, const std::vector<double>& y) {
  if (x.size() != y.size()) throw std::invalid_argument("spearman_p_exact: x and y differ in length");
  const std::size_t n = x.size();
  if (n > kSpearmanExactMaxN) throw std::invalid_argument("spearman_p_exact: more items than kSpearmanExactMaxN");
  const double nan = std::numeric_limits<double>::quiet_NaN();
  if (std::isnan(spearman(x, y).statistic)) return nan;  // n < 2, a constant vector, or a NaN
  std::vector<std::int64_t> a(n), b(n);
  const auto rx = average_ranks(x), ry = average_ranks(y);
  for (std::size_t i = 0; i < n; ++i) {
    a[i] = std::llround(2 * rx[i]);
    b[i] = std::llround(2 * ry[i]);
  }
  auto sum_of_products = [&] {
    std::int64_t s = 0;
    for (std::size_t i = 0; i < n; ++i) s += a[i] * b[i];
    return s;
  };
  const std::int64_t observed = sum_of_products();
  std::uint64_t at_least = 0, at_most = 0, total = 0;
  auto count = [&] {
    const std::int64_t s = sum_of_products();
    at_least += s >= observed;
    at_most += s <= observed;
    ++total;
  };
  // Heap's algorithm (iterative): every permutation of b once.
  std::vector<std::size_t> c(n, 0);
  count();
  for (std::size_t i = 1; i < n;) {
    if (c[i] < i) {
      std::swap(b[i % 2 == 0 ? 0 : c[i]], b[i]);
      count();
      ++c[i];
      i = 1;
    } else {
      c[i] = 0;
      ++i;
    }
  }
  const double p = 2.0 * static_cast<double>(std::min(at_least, at_most)) / static_cast<double>(total);
  return std::min(1.0, p);
}

}  // namespace qualrank::stats
