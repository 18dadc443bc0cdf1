#include "catch.h"

#include <numeric>
#include <set>

#include "qualrank/analysis/corpus/corpus_sample.h"

using namespace qualrank;
using Catch::Matchers::WithinAbs;

// Expected values: python3 -c "from statistics import NormalDist; import math; N, c, e = 10000, .95, .05;
//   z = NormalDist().inv_cdf(1 - (1 - c) / 2); n0 = z * z * .25 / e / e; print(z, n0, math.ceil(n0 / (1 + (n0 - 1) / N)))"
TEST_CASE("analysis::normal_quantile matches Python's NormalDist().inv_cdf", "[analysis][corpus]") {
  CHECK_THAT(corpus::normal_quantile(0.975), WithinAbs(1.9599639845400536, 1e-12));
  CHECK_THAT(corpus::normal_quantile(0.995), WithinAbs(2.5758293035489, 1e-12));
  CHECK_THAT(corpus::normal_quantile(0.001), WithinAbs(-3.090232306167813, 1e-12));
  CHECK_THAT(corpus::normal_quantile(0.3), WithinAbs(-0.5244005127080407, 1e-12));
  CHECK_THROWS_AS(corpus::normal_quantile(1.0), std::invalid_argument);
}

TEST_CASE("analysis::cochran_sample_size is Cochran's n0 with the finite-population correction, rounded up", "[analysis][corpus]") {
  auto s = corpus::cochran_sample_size(10000, 0.95, 0.05, 0.5);
  CHECK_THAT(s.n0, WithinAbs(384.1458820694123, 1e-9));
  CHECK(s.n == 370);  // 369.97
  CHECK(corpus::cochran_sample_size(1000, 0.95, 0.05, 0.5).n == 278);     // 277.73
  CHECK(corpus::cochran_sample_size(50, 0.95, 0.05, 0.5).n == 45);        // 44.34
  CHECK(corpus::cochran_sample_size(100000, 0.99, 0.03, 0.5).n == 1810);  // 1809.69
  CHECK(corpus::cochran_sample_size(3000, 0.90, 0.08, 0.5).n == 103);     // 102.12
  CHECK(corpus::cochran_sample_size(1, 0.95, 0.05, 0.5).n == 1);
  CHECK(corpus::cochran_sample_size(0, 0.95, 0.05, 0.5).n == 0);
  // p (1 - p) smaller than at 0.5: a smaller sample.
  CHECK(corpus::cochran_sample_size(10000, 0.95, 0.05, 0.1).n < 370);
  CHECK_THROWS_AS(corpus::cochran_sample_size(10, 0.95, 0, 0.5), std::invalid_argument);
  CHECK_THROWS_AS(corpus::cochran_sample_size(10, 1.0, 0.05, 0.5), std::invalid_argument);
}

TEST_CASE("analysis::allocate_proportional rounds by largest remainders and sums to n", "[analysis][corpus]") {
  // 10 over 3 equal strata: 3.33 each, the one left over to the first (ties to the earlier stratum).
  CHECK(corpus::allocate_proportional(10, {5, 5, 5}) == std::vector<std::size_t>{4, 3, 3});
  // 100 over 50/30/20 of 1000... quotas 5.0, 3.0, 2.0 exactly.
  CHECK(corpus::allocate_proportional(10, {500, 300, 200}) == std::vector<std::size_t>{5, 3, 2});
  // quotas 6 * (1/7, 2/7, 4/7) = 0.857, 1.714, 3.429: floors 0, 1, 3; remainders .857 > .714 > .429.
  CHECK(corpus::allocate_proportional(6, {1, 2, 4}) == std::vector<std::size_t>{1, 2, 3});
  CHECK(corpus::allocate_proportional(7, {1, 2, 4}) == std::vector<std::size_t>{1, 2, 4});
  CHECK(corpus::allocate_proportional(0, {1, 2}) == std::vector<std::size_t>{0, 0});
  CHECK_THROWS_AS(corpus::allocate_proportional(8, {1, 2, 4}), std::invalid_argument);
}

TEST_CASE("analysis::draw_without_replacement is seeded, distinct and sorted", "[analysis][corpus]") {
  stats::Rng a(42), b(42), c(43);
  auto x = corpus::draw_without_replacement(1000, 50, a);
  auto y = corpus::draw_without_replacement(1000, 50, b);
  auto z = corpus::draw_without_replacement(1000, 50, c);
  CHECK(x == y);
  CHECK(x != z);
  CHECK(std::set<std::size_t>(x.begin(), x.end()).size() == 50);
  CHECK(std::is_sorted(x.begin(), x.end()));
  CHECK(x.back() < 1000);
  stats::Rng d(1);
  auto all = corpus::draw_without_replacement(5, 5, d);
  CHECK(all == std::vector<std::size_t>{0, 1, 2, 3, 4});
  CHECK_THROWS_AS(corpus::draw_without_replacement(3, 4, d), std::invalid_argument);
}
