// Unit tests for qualrank::stats ranking statistics (src/analysis/stats.cpp).
// Every expected value was produced by Debian's /usr/bin/python3 (SciPy 1.10.1, statsmodels
// 0.13.5, NumPy 1.24.2) with the one-line command in the comment right above it.
#include "catch.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <random>
#include <vector>

#include "qualrank/analysis/stats.h"

namespace qs = qualrank::stats;

namespace {
// Absolute+relative 1e-9 for ordinary values; purely relative for tiny p-values.
Approx near(double v) { return Approx(v).margin(1e-9).epsilon(1e-9); }
Approx rel(double v) { return Approx(v).margin(0.0).epsilon(1e-9); }
const double kNaN = std::numeric_limits<double>::quiet_NaN();
}  // namespace

TEST_CASE("stats::average_ranks matches scipy.stats.rankdata(method='average')", "[stats]") {
  // /usr/bin/python3 -c "from scipy.stats import rankdata; print(list(rankdata([3,1,4,1,5,9,2,6,5,3,5])))"
  const std::vector<double> expected{4.5, 1.5, 6.0, 1.5, 8.0, 11.0, 3.0, 10.0, 8.0, 4.5, 8.0};
  CHECK(qs::average_ranks({3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5}) == expected);
  CHECK(qs::average_ranks({7, 7, 7}) == std::vector<double>{2, 2, 2});  // all tied
  CHECK(qs::average_ranks({2, 1}) == std::vector<double>{2, 1});
  CHECK(qs::average_ranks({}).empty());
  const auto with_nan = qs::average_ranks({1, kNaN, 2});  // SciPy: [nan nan nan]
  REQUIRE(with_nan.size() == 3);
  for (double r : with_nan) CHECK(std::isnan(r));
}

TEST_CASE("stats::spearman matches scipy.stats.spearmanr", "[stats]") {
  // /usr/bin/python3 -c "from scipy.stats import spearmanr; print(spearmanr([1,2,3,4,5],[5,6,7,8,7]))"
  auto r = qs::spearman({1, 2, 3, 4, 5}, {5, 6, 7, 8, 7});
  CHECK(r.statistic == near(0.8207826816681233));
  CHECK(r.pvalue == near(0.08858700531354381));

  // ties in both vectors
  // /usr/bin/python3 -c "from scipy.stats import spearmanr; r=spearmanr([2.5,1,3,3,7,4,4,4,10,0.5,6,8],[1,2,2,5,6,3,8,7,9,4,4,10]); print(repr(r.statistic), repr(r.pvalue))"
  r = qs::spearman({2.5, 1, 3, 3, 7, 4, 4, 4, 10, 0.5, 6, 8}, {1, 2, 2, 5, 6, 3, 8, 7, 9, 4, 4, 10});
  CHECK(r.statistic == near(0.7345236287246512));
  CHECK(r.pvalue == near(0.0065149088768756466));

  // /usr/bin/python3 -c "from scipy.stats import spearmanr; r=spearmanr([1,2,3],[1,3,2]); print(repr(r.statistic), repr(r.pvalue))"
  r = qs::spearman({1, 2, 3}, {1, 3, 2});
  CHECK(r.statistic == near(0.5));
  CHECK(r.pvalue == near(0.6666666666666667));

  // perfect monotone: |rho| = 1 -> p = 0
  // /usr/bin/python3 -c "from scipy.stats import spearmanr; r=spearmanr([1,2,3,4,5,6],[6,5,4,3,2,1]); print(repr(r.statistic), repr(r.pvalue))"
  r = qs::spearman({1, 2, 3, 4, 5, 6}, {6, 5, 4, 3, 2, 1});
  CHECK(r.statistic == near(-1.0));
  CHECK(r.pvalue == 0.0);
}

TEST_CASE("stats::spearman degenerate inputs follow SciPy", "[stats]") {
  // n == 2: rho = +-1, p = nan (0 degrees of freedom)
  // /usr/bin/python3 -c "from scipy.stats import spearmanr; print(spearmanr([1,2],[3,4]), spearmanr([1,2],[4,3]))"
  // -> statistic=0.9999999999999999, pvalue=nan / statistic=-0.9999999999999999, pvalue=nan
  auto r = qs::spearman({1, 2}, {3, 4});
  CHECK(r.statistic == near(1.0));
  CHECK(std::isnan(r.pvalue));
  r = qs::spearman({1, 2}, {4, 3});
  CHECK(r.statistic == near(-1.0));
  CHECK(std::isnan(r.pvalue));
  // constant input, n < 2, NaN: all nan
  // /usr/bin/python3 -c "import numpy as np; from scipy.stats import spearmanr; print(spearmanr([1,1,1],[1,2,3]), spearmanr([1],[2]), spearmanr([1,2,np.nan],[1,2,3]))"
  for (auto c : {qs::spearman({1, 1, 1}, {1, 2, 3}), qs::spearman({1}, {2}), qs::spearman({}, {}),
                 qs::spearman({1, 2, kNaN}, {1, 2, 3})}) {
    CHECK(std::isnan(c.statistic));
    CHECK(std::isnan(c.pvalue));
  }
  CHECK_THROWS_AS(qs::spearman({1, 2, 3}, {1, 2}), std::invalid_argument);
}

TEST_CASE("stats::kendall_tau_b matches scipy.stats.kendalltau (exact branch)", "[stats]") {
  // no ties, n <= 33 -> exact
  // /usr/bin/python3 -c "from scipy.stats import kendalltau; r=kendalltau([1,2,3,4,5,6,7,8,9,10],[3,1,2,5,4,7,10,6,9,8]); print(repr(r.statistic), repr(r.pvalue))"
  auto r = qs::kendall_tau_b({1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, {3, 1, 2, 5, 4, 7, 10, 6, 9, 8});
  CHECK(r.statistic == near(0.6444444444444444));
  CHECK(r.pvalue == near(0.009148478835978836));

  std::vector<double> x33, y33rev, y33perm;
  for (int i = 0; i < 33; ++i) {
    x33.push_back(i + 1);
    y33rev.push_back(33 - i);
    y33perm.push_back((5 * i) % 33);
  }
  // /usr/bin/python3 -c "from scipy.stats import kendalltau; r=kendalltau([1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33],[(5*i)%33 for i in range(33)]); print(repr(r.statistic), repr(r.pvalue))"
  r = qs::kendall_tau_b(x33, y33perm);
  CHECK(r.statistic == near(0.17803030303030304));
  CHECK(r.pvalue == near(0.15061735773454274));
  // /usr/bin/python3 -c "from scipy.stats import kendalltau; r=kendalltau([1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33],[33,32,31,30,29,28,27,26,25,24,23,22,21,20,19,18,17,16,15,14,13,12,11,10,9,8,7,6,5,4,3,2,1]); print(repr(r.statistic), repr(r.pvalue))"
  r = qs::kendall_tau_b(x33, y33rev);
  CHECK(r.statistic == near(-1.0));
  CHECK(r.pvalue == rel(2.30326712415439e-37));

  // n > 33 but min(dis, tot - dis) <= 1 -> still exact
  std::vector<double> x40, y40swap, y40rev;
  for (int i = 0; i < 40; ++i) {
    x40.push_back(i);
    y40swap.push_back(i < 2 ? 1 - i : i);
    y40rev.push_back(39 - i);
  }
  // /usr/bin/python3 -c "from scipy.stats import kendalltau; r=kendalltau(list(range(40)),[1,0]+list(range(2,40))); print(repr(r.statistic), repr(r.pvalue))"
  r = qs::kendall_tau_b(x40, y40swap);
  CHECK(r.statistic == near(0.9974358974358974));
  CHECK(r.pvalue == rel(9.804939513027087e-47));
  // /usr/bin/python3 -c "from scipy.stats import kendalltau; r=kendalltau(list(range(40)),list(range(39,-1,-1))); print(repr(r.statistic), repr(r.pvalue))"
  r = qs::kendall_tau_b(x40, y40rev);
  CHECK(r.statistic == near(-1.0));
  CHECK(r.pvalue == rel(2.451234878256772e-48));

  // n == 2 without ties
  // /usr/bin/python3 -c "from scipy.stats import kendalltau; r=kendalltau([1,2],[5,3]); print(repr(r.statistic), repr(r.pvalue))"
  r = qs::kendall_tau_b({1, 2}, {5, 3});
  CHECK(r.statistic == near(-1.0));
  CHECK(r.pvalue == near(1.0));
}

TEST_CASE("stats::kendall_tau_b matches scipy.stats.kendalltau (asymptotic branch)", "[stats]") {
  // ties -> asymptotic with tie-corrected variance (SciPy docstring example)
  // /usr/bin/python3 -c "from scipy.stats import kendalltau; r=kendalltau([12,2,1,12,2],[1,4,7,1,0]); print(repr(r.statistic), repr(r.pvalue))"
  auto r = qs::kendall_tau_b({12, 2, 1, 12, 2}, {1, 4, 7, 1, 0});
  CHECK(r.statistic == near(-0.4714045207910316));
  CHECK(r.pvalue == near(0.28274545993277467));
  // /usr/bin/python3 -c "from scipy.stats import kendalltau; r=kendalltau([2.5,1,3,3,7,4,4,4,10,0.5,6,8],[1,2,2,5,6,3,8,7,9,4,4,10]); print(repr(r.statistic), repr(r.pvalue))"
  r = qs::kendall_tau_b({2.5, 1, 3, 3, 7, 4, 4, 4, 10, 0.5, 6, 8}, {1, 2, 2, 5, 6, 3, 8, 7, 9, 4, 4, 10});
  CHECK(r.statistic == near(0.5715005715008572));
  CHECK(r.pvalue == near(0.012158815407331667));
  // no ties but n = 40 > 33 -> asymptotic
  std::vector<double> x, y;
  for (int i = 0; i < 40; ++i) {
    x.push_back(i);
    y.push_back((7 * i) % 40);
  }
  // /usr/bin/python3 -c "from scipy.stats import kendalltau; r=kendalltau(list(range(40)),[(7*i)%40 for i in range(40)]); print(repr(r.statistic), repr(r.pvalue))"
  r = qs::kendall_tau_b(x, y);
  CHECK(r.statistic == near(0.14615384615384616));
  CHECK(r.pvalue == near(0.1841061194960797));
}

TEST_CASE("stats::spearman and kendall_tau_b of identical or reversed orders are exactly +-1", "[stats]") {
  // SciPy 1.10.1 (Debian's /usr/bin/python3):
  // /usr/bin/python3 -c "from scipy.stats import spearmanr, kendalltau; x=[1,2,3]; print(repr(spearmanr(x,x).correlation), repr(spearmanr(x,x).pvalue), repr(kendalltau(x,x).correlation), repr(kendalltau(x,x).pvalue))"
  // -> 1.0 0.0 1.0 0.3333333333333333; with [3,2,1] as y: -1.0 0.0 -1.0 0.3333333333333333
  auto r = qs::spearman({1, 2, 3}, {1, 2, 3});
  CHECK(r.statistic == 1.0);  // exactly: the sums used to give 0.9999999999999999 and p 9.5e-9
  CHECK(r.pvalue == 0.0);
  r = qs::spearman({1, 2, 3}, {3, 2, 1});
  CHECK(r.statistic == -1.0);
  CHECK(r.pvalue == 0.0);
  auto t = qs::kendall_tau_b({1, 2, 3}, {1, 2, 3});
  CHECK(t.statistic == 1.0);
  CHECK(t.pvalue == near(0.3333333333333333));
  t = qs::kendall_tau_b({1, 2, 3}, {3, 2, 1});
  CHECK(t.statistic == -1.0);
  CHECK(t.pvalue == near(0.3333333333333333));
  // Mean ranks (not integers) and ties: the same ranks, so still exactly 1.
  // /usr/bin/python3 -c "from scipy.stats import spearmanr, kendalltau; x=[1.5,1.5,3]; print(spearmanr(x,x), kendalltau(x,x))"
  // -> correlation=1.0, pvalue=0.0; correlation=0.9999999999999999, pvalue=0.15729920705028516
  r = qs::spearman({1.5, 1.5, 3}, {1.5, 1.5, 3});
  CHECK(r.statistic == 1.0);
  CHECK(r.pvalue == 0.0);
  t = qs::kendall_tau_b({1.5, 1.5, 3}, {1.5, 1.5, 3});
  CHECK(t.statistic == 1.0);  // SciPy's square roots round to 0.9999999999999999; its p is unaffected
  CHECK(t.pvalue == near(0.15729920705028516));
  // A reversed order of 5: SciPy's own sums give -0.9999999999999999 (p 1.4e-24 for rho); the exact value is
  // -1 with p 0, what SciPy returns whenever its rho is exactly -1 (as for [1,2,3] above). tau's exact p:
  // /usr/bin/python3 -c "from scipy.stats import kendalltau; print(kendalltau([1,2,3,4,5],[5,4,3,2,1]))"
  // -> correlation=-0.9999999999999999, pvalue=0.016666666666666666
  r = qs::spearman({1, 2, 3, 4, 5}, {5, 4, 3, 2, 1});
  CHECK(r.statistic == -1.0);
  CHECK(r.pvalue == 0.0);
  t = qs::kendall_tau_b({1, 2, 3, 4, 5}, {5, 4, 3, 2, 1});
  CHECK(t.statistic == -1.0);
  CHECK(t.pvalue == near(0.016666666666666666));
  // Not identical ranks: computed as before.
  CHECK(qs::spearman({1, 2, 3, 4}, {1, 2, 4, 3}).statistic < 1.0);
  CHECK(qs::kendall_tau_b({1, 2, 3, 4}, {1, 2, 4, 3}).statistic < 1.0);
}

TEST_CASE("stats::kendall_tau_b degenerate inputs follow SciPy", "[stats]") {
  // /usr/bin/python3 -c "from scipy.stats import kendalltau; print(kendalltau([1],[1]), kendalltau([1,1],[1,2]), kendalltau([],[]))"
  // -> all statistic=nan, pvalue=nan
  for (auto c : {qs::kendall_tau_b({1}, {1}), qs::kendall_tau_b({1, 1}, {1, 2}), qs::kendall_tau_b({}, {}),
                 qs::kendall_tau_b({3, 3, 3}, {3, 3, 3}), qs::kendall_tau_b({1, kNaN}, {1, 2})}) {
    CHECK(std::isnan(c.statistic));
    CHECK(std::isnan(c.pvalue));
  }
  CHECK_THROWS_AS(qs::kendall_tau_b({1, 2}, {1}), std::invalid_argument);
}

TEST_CASE("stats::detail::kendall_p_exact ports scipy _kendall_p_exact", "[stats]") {
  // /usr/bin/python3 -c "from scipy.stats._mstats_basic import _kendall_p_exact as f; print([repr(f(n,c)) for n,c in [(1,0),(2,1),(3,1),(5,5),(6,0),(6,15),(7,10),(12,40),(20,60),(30,300),(200,100)]])"
  // -> ['1.0', '1.0', '1.0', '1.0', '0.002777777777777778', '0.002777777777777778', '1.0',
  //     '0.38070480349126185', '0.02373449564495179', '0.0028860459235048133', '5.9109480620260684e-294']
  CHECK(qs::detail::kendall_p_exact(1, 0) == 1.0);
  CHECK(qs::detail::kendall_p_exact(2, 1) == 1.0);
  CHECK(qs::detail::kendall_p_exact(3, 1) == near(1.0));
  CHECK(qs::detail::kendall_p_exact(5, 5) == 1.0);
  CHECK(qs::detail::kendall_p_exact(6, 0) == near(0.002777777777777778));
  CHECK(qs::detail::kendall_p_exact(6, 15) == near(0.002777777777777778));
  CHECK(qs::detail::kendall_p_exact(7, 10) == 1.0);
  CHECK(qs::detail::kendall_p_exact(12, 40) == near(0.38070480349126185));
  CHECK(qs::detail::kendall_p_exact(20, 60) == near(0.02373449564495179));
  CHECK(qs::detail::kendall_p_exact(30, 300) == rel(0.0028860459235048133));
  CHECK(qs::detail::kendall_p_exact(200, 100) == rel(5.9109480620260684e-294));  // n >= 171 branch
  CHECK_THROWS_AS(qs::detail::kendall_p_exact(0, 0), std::invalid_argument);
  CHECK_THROWS_AS(qs::detail::kendall_p_exact(4, 7), std::invalid_argument);
}

TEST_CASE("stats::mann_whitney_u matches scipy.stats.mannwhitneyu (exact branch)", "[stats]") {
  // /usr/bin/python3 -c "from scipy.stats import mannwhitneyu as f; r=f([1.1,3.4,2.2],[4.5,6.7,5.1,0.3,8.8]); print(repr(r.statistic), repr(r.pvalue))"
  auto r = qs::mann_whitney_u({1.1, 3.4, 2.2}, {4.5, 6.7, 5.1, 0.3, 8.8});
  CHECK(r.u == 3.0);
  CHECK(r.pvalue == near(0.25));
  // /usr/bin/python3 -c "from scipy.stats import mannwhitneyu as f; r=f([3,9,14,20,1,7,11,30],[2,4,5,6,8,10,12,13,15,16,17,18,19,21,22,23,24,25,26,27]); print(repr(r.statistic), repr(r.pvalue))"
  r = qs::mann_whitney_u({3, 9, 14, 20, 1, 7, 11, 30},
                         {2, 4, 5, 6, 8, 10, 12, 13, 15, 16, 17, 18, 19, 21, 22, 23, 24, 25, 26, 27});
  CHECK(r.u == 57.0);
  CHECK(r.pvalue == near(0.25843592800114545));
  // 9 vs 8: second sample <= 8, no ties -> exact
  // /usr/bin/python3 -c "from scipy.stats import mannwhitneyu as f; r=f([0.5,2.5,4.5,6.5,8.5,10.5,12.5,14.5,16.5],[1,2,3,4,5,6,7,8]); print(repr(r.statistic), repr(r.pvalue))"
  r = qs::mann_whitney_u({0.5, 2.5, 4.5, 6.5, 8.5, 10.5, 12.5, 14.5, 16.5}, {1, 2, 3, 4, 5, 6, 7, 8});
  CHECK(r.u == 52.0);
  CHECK(r.pvalue == near(0.13879062114356233));
  // n1 = n2 = 1
  // /usr/bin/python3 -c "from scipy.stats import mannwhitneyu as f; r=f([1],[2]); print(repr(r.statistic), repr(r.pvalue))"
  r = qs::mann_whitney_u({1}, {2});
  CHECK(r.u == 0.0);
  CHECK(r.pvalue == near(1.0));
  // /usr/bin/python3 -c "from scipy.stats import mannwhitneyu as f; r=f([2],[1]); print(repr(r.statistic), repr(r.pvalue))"
  r = qs::mann_whitney_u({2}, {1});
  CHECK(r.u == 1.0);
  CHECK(r.pvalue == near(1.0));
}

TEST_CASE("stats::mann_whitney_u matches scipy.stats.mannwhitneyu (asymptotic branch)", "[stats]") {
  // ties -> asymptotic with tie and continuity correction
  // /usr/bin/python3 -c "from scipy.stats import mannwhitneyu as f; r=f([1,2,2,3],[2,3,4,5]); print(repr(r.statistic), repr(r.pvalue))"
  auto r = qs::mann_whitney_u({1, 2, 2, 3}, {2, 3, 4, 5});
  CHECK(r.u == 2.5);
  CHECK(r.pvalue == near(0.1366582477381475));
  // /usr/bin/python3 -c "from scipy.stats import mannwhitneyu as f; r=f([19,22,16,29,24,33,41],[20,11,17,12,8,15,9,16,19]); print(repr(r.statistic), repr(r.pvalue))"
  r = qs::mann_whitney_u({19, 22, 16, 29, 24, 33, 41}, {20, 11, 17, 12, 8, 15, 9, 16, 19});
  CHECK(r.u == 58.0);
  CHECK(r.pvalue == near(0.005847936557615308));
  // both samples > 8, no ties
  // /usr/bin/python3 -c "from scipy.stats import mannwhitneyu as f; r=f([1,2,3,4,5,6,7,8,9],[10,11,12,13,14,15,16,17,18]); print(repr(r.statistic), repr(r.pvalue))"
  r = qs::mann_whitney_u({1, 2, 3, 4, 5, 6, 7, 8, 9}, {10, 11, 12, 13, 14, 15, 16, 17, 18});
  CHECK(r.u == 0.0);
  CHECK(r.pvalue == near(0.00041229480206169127));
  // /usr/bin/python3 -c "from scipy.stats import mannwhitneyu as f; r=f([5.5,1.2,9.1,3.3,7.7,2.8,6.4,8.0,4.9,0.6],[3.9,6.1,2.2,8.8,5.0,7.1,1.9,4.4,9.9,0.8,6.6]); print(repr(r.statistic), repr(r.pvalue))"
  r = qs::mann_whitney_u({5.5, 1.2, 9.1, 3.3, 7.7, 2.8, 6.4, 8.0, 4.9, 0.6},
                         {3.9, 6.1, 2.2, 8.8, 5.0, 7.1, 1.9, 4.4, 9.9, 0.8, 6.6});
  CHECK(r.u == 53.0);
  CHECK(r.pvalue == near(0.915878445665947));
  // every value tied: zero variance -> p = 1
  // /usr/bin/python3 -c "from scipy.stats import mannwhitneyu as f; r=f([1,1],[1,1]); print(repr(r.statistic), repr(r.pvalue))"
  r = qs::mann_whitney_u({1, 1}, {1, 1});
  CHECK(r.u == 2.0);
  CHECK(r.pvalue == 1.0);
}

TEST_CASE("stats::mann_whitney_u degenerate inputs and exact sf", "[stats]") {
  // /usr/bin/python3 -c "import numpy as np; from scipy.stats import mannwhitneyu as f; print(f([1,2,np.nan],[3,4]))"
  // -> statistic=nan, pvalue=nan
  auto r = qs::mann_whitney_u({1, 2, kNaN}, {3, 4});
  CHECK(std::isnan(r.u));
  CHECK(std::isnan(r.pvalue));
  CHECK_THROWS_AS(qs::mann_whitney_u({}, {1, 2}), std::invalid_argument);  // SciPy raises

  // /usr/bin/python3 -c "from scipy.stats._mannwhitneyu import _mwu_state as s; print([repr(s.sf(k,m,n)) for k,m,n in [(0,1,1),(1,1,1),(10,3,7),(15,4,6),(40,8,8),(100,8,30),(3,2,9)]])"
  // -> ['1.0', '0.5', '0.5833333333333333', '0.30476190476190473', '0.22090132090132086',
  //     '0.7647864082998412', '0.9272727272727275']
  CHECK(qs::detail::mann_whitney_exact_sf(0, 1, 1) == near(1.0));
  CHECK(qs::detail::mann_whitney_exact_sf(1, 1, 1) == near(0.5));
  CHECK(qs::detail::mann_whitney_exact_sf(10, 3, 7) == near(0.5833333333333333));
  CHECK(qs::detail::mann_whitney_exact_sf(15, 4, 6) == near(0.30476190476190473));
  CHECK(qs::detail::mann_whitney_exact_sf(40, 8, 8) == near(0.22090132090132086));
  CHECK(qs::detail::mann_whitney_exact_sf(100, 8, 30) == near(0.7647864082998412));
  CHECK(qs::detail::mann_whitney_exact_sf(3, 2, 9) == near(0.9272727272727275));
  CHECK(qs::detail::mann_whitney_exact_sf(100, 30, 8) == near(0.7647864082998412));  // symmetric
  CHECK_THROWS_AS(qs::detail::mann_whitney_exact_sf(5, 2, 2), std::invalid_argument);
}

TEST_CASE("stats::holm matches statsmodels multipletests(method='holm')", "[stats]") {
  // /usr/bin/python3 -c "from statsmodels.stats.multitest import multipletests as m; print([repr(v) for v in m([0.01,0.04,0.03,0.005],method='holm')[1]])"
  auto h = qs::holm({0.01, 0.04, 0.03, 0.005});
  REQUIRE(h.size() == 4);
  CHECK(h[0] == near(0.03));
  CHECK(h[1] == near(0.06));
  CHECK(h[2] == near(0.06));
  CHECK(h[3] == near(0.02));
  // ties and capping at 1
  // /usr/bin/python3 -c "from statsmodels.stats.multitest import multipletests as m; print([repr(v) for v in m([0.02,0.5,0.02,0.3,0.9],method='holm')[1]])"
  h = qs::holm({0.02, 0.5, 0.02, 0.3, 0.9});
  REQUIRE(h.size() == 5);
  CHECK(h[0] == near(0.1));
  CHECK(h[1] == 1.0);
  CHECK(h[2] == near(0.1));
  CHECK(h[3] == near(0.8999999999999999));
  CHECK(h[4] == 1.0);
  // NaN counts as a test and stays NaN
  // /usr/bin/python3 -c "from statsmodels.stats.multitest import multipletests as m; print([repr(v) for v in m([0.01,float('nan'),0.04,0.03],method='holm')[1]])"
  h = qs::holm({0.01, kNaN, 0.04, 0.03});
  CHECK(h[0] == near(0.04));
  CHECK(std::isnan(h[1]));
  CHECK(h[2] == near(0.09));
  CHECK(h[3] == near(0.09));
  // /usr/bin/python3 -c "from statsmodels.stats.multitest import multipletests as m; print([repr(v) for v in m([0.2],method='holm')[1]])"
  CHECK(qs::holm({0.2}) == std::vector<double>{0.2});
  CHECK(qs::holm({}).empty());
}

TEST_CASE("stats::cliffs_delta matches the pairwise sign mean", "[stats]") {
  // /usr/bin/python3 -c "import numpy as np; a=np.array([1,2,2,3,5,8]); b=np.array([2,2,4,1]); print(repr(np.sign(a[:,None]-b[None,:]).mean()))"
  CHECK(qs::cliffs_delta({1, 2, 2, 3, 5, 8}, {2, 2, 4, 1}) == near(0.2916666666666667));
  // /usr/bin/python3 -c "import numpy as np; a=np.array([0.3,0.3,0.7]); b=np.array([0.1,0.3,0.9,0.9,0.2]); print(repr(np.sign(a[:,None]-b[None,:]).mean()))"
  CHECK(qs::cliffs_delta({0.3, 0.3, 0.7}, {0.1, 0.3, 0.9, 0.9, 0.2}) == near(0.06666666666666667));
  // sign convention: positive when a is larger
  CHECK(qs::cliffs_delta({5, 6}, {1, 2}) == 1.0);
  CHECK(qs::cliffs_delta({1, 2}, {5, 6}) == -1.0);
  CHECK(qs::cliffs_delta({3, 3}, {3, 3}) == 0.0);  // all tied
  CHECK(qs::cliffs_delta({1, 2, 3}, {3, 2, 1}) == 0.0);  // identical samples
  CHECK(std::isnan(qs::cliffs_delta({}, {1})));
  CHECK(std::isnan(qs::cliffs_delta({1, kNaN}, {1})));
}

TEST_CASE("stats::kendall_w matches scipy.stats.friedmanchisquare and the tie-corrected formula", "[stats]") {
  // chi2 = m (n - 1) W is Friedman's tie-corrected statistic; arguments are the items (columns).
  // /usr/bin/python3 -c "from scipy.stats import friedmanchisquare as f; r=f([1,2,1],[2,1,3],[3,3,2],[4,5,4],[5,4,5]); print(repr(r.statistic), repr(r.pvalue), repr(r.statistic/(3*4)))"
  auto k = qs::kendall_w({{1, 2, 3, 4, 5}, {2, 1, 3, 5, 4}, {1, 3, 2, 4, 5}});
  CHECK(k.w == near(0.8444444444444438));
  CHECK(k.chi2 == near(10.133333333333326));
  CHECK(k.pvalue == near(0.03824060532666496));
  // ties within raters
  // /usr/bin/python3 -c "from scipy.stats import friedmanchisquare as f; r=f([1.5,1,2,1],[1.5,2.5,2,3],[3,2.5,2,2],[4,4,4,4]); print(repr(r.statistic), repr(r.pvalue), repr(r.statistic/(4*3)))"
  k = qs::kendall_w({{1.5, 1.5, 3, 4}, {1, 2.5, 2.5, 4}, {2, 2, 2, 4}, {1, 3, 2, 4}});
  CHECK(k.w == near(0.8455882352941176));
  CHECK(k.chi2 == near(10.147058823529411));
  CHECK(k.pvalue == near(0.01735656741053781));
  // identical rankings -> W = 1
  // /usr/bin/python3 -c "from scipy.stats import friedmanchisquare as f; r=f([1,1,1],[2,2,2],[3,3,3],[4,4,4]); print(repr(r.statistic), repr(r.pvalue), repr(r.statistic/(3*3)))"
  k = qs::kendall_w({{1, 2, 3, 4}, {1, 2, 3, 4}, {1, 2, 3, 4}});
  CHECK(k.w == near(1.0));
  CHECK(k.chi2 == near(9.0));
  CHECK(k.pvalue == near(0.02929088653488826));
  // n = 2 items (friedmanchisquare needs 3): the formula written out in NumPy
  // /usr/bin/python3 -c "import numpy as np; R=np.array([[1.5,1.5],[1,2],[2,1],[1,2]]); m,n=R.shape; S=((R.sum(0)-R.sum()/n)**2).sum(); T=sum((c**3-c).sum() for c in [np.unique(r,return_counts=True)[1] for r in R]); W=12*S/(m*m*(n**3-n)-m*T); print(repr(W), repr(m*(n-1)*W))"
  // /usr/bin/python3 -c "from scipy.stats import chi2; print(repr(chi2.sf(0.3333333333333333, 1)))"
  k = qs::kendall_w({{1.5, 1.5}, {1, 2}, {2, 1}, {1, 2}});
  CHECK(k.w == near(0.08333333333333333));
  CHECK(k.chi2 == near(0.3333333333333333));
  CHECK(k.pvalue == near(0.5637028616507731));
}

TEST_CASE("stats::kendall_w degenerate inputs are NaN", "[stats]") {
  for (auto k : {qs::kendall_w({{1, 2, 3}}),                      // one rater
                 qs::kendall_w({{1}, {1}}),                       // one item
                 qs::kendall_w({}),                               // nothing
                 qs::kendall_w({{2, 2, 2}, {2, 2, 2}}),           // every rater ties everything
                 qs::kendall_w({{1, 2, kNaN}, {1, 2, 3}})}) {
    CHECK(std::isnan(k.w));
    CHECK(std::isnan(k.chi2));
    CHECK(std::isnan(k.pvalue));
  }
  CHECK_THROWS_AS(qs::kendall_w({{1, 2, 3}, {1, 2}}), std::invalid_argument);
}

TEST_CASE("stats::percentile and bootstrap_percentile_ci match numpy.percentile", "[stats]") {
  const std::vector<double> v{0.3, -1.2, 0.8, 0.05, 0.9, 0.41, 0.2};
  // /usr/bin/python3 -c "import numpy as np; print([repr(v) for v in np.percentile([0.3,-1.2,0.8,0.05,0.9,0.41,0.2],[2.5,97.5,50,0,100])])"
  CHECK(qs::percentile(v, 2.5) == near(-1.0125));
  CHECK(qs::percentile(v, 97.5) == near(0.885));
  CHECK(qs::percentile(v, 50) == near(0.3));
  CHECK(qs::percentile(v, 0) == -1.2);
  CHECK(qs::percentile(v, 100) == 0.9);
  const auto ci = qs::bootstrap_percentile_ci(v);
  CHECK(ci.first == near(-1.0125));
  CHECK(ci.second == near(0.885));
  // NaNs dropped (numpy.nanpercentile)
  // /usr/bin/python3 -c "import numpy as np; print([repr(v) for v in np.nanpercentile([5.0,float('nan'),1.0,3.0,2.0],[2.5,97.5,37])])"
  const std::vector<double> w{5.0, kNaN, 1.0, 3.0, 2.0};
  CHECK(qs::percentile(w, 37) == near(2.11));
  const auto ci2 = qs::bootstrap_percentile_ci(w);
  CHECK(ci2.first == near(1.075));
  CHECK(ci2.second == near(4.85));
  // single value, empty, all NaN
  CHECK(qs::percentile({4.0}, 2.5) == 4.0);
  CHECK(std::isnan(qs::percentile({}, 50)));
  CHECK(std::isnan(qs::bootstrap_percentile_ci({kNaN, kNaN}).first));
  CHECK_THROWS_AS(qs::percentile(v, 101), std::invalid_argument);
  CHECK_THROWS_AS(qs::bootstrap_percentile_ci(v, 1.0), std::invalid_argument);
}

TEST_CASE("stats::Rng is the standard mt19937_64 with Lemire bounded integers", "[stats]") {
  // Expected values from a from-scratch Python MT19937-64 + Lemire reference, independent of any
  // C++ library (the script is /usr/bin/python3 with this code; `g.index` mirrors uniform_index):
  //   M=(1<<64)-1
  //   class MT64:
  //     def __init__(s,seed):
  //       s.mt=[seed&M]
  //       for i in range(1,312): s.mt.append((6364136223846793005*(s.mt[-1]^(s.mt[-1]>>62))+i)&M)
  //       s.i=312
  //     def next(s):
  //       if s.i>=312:
  //         for k in range(312):
  //           x=(s.mt[k]&0xFFFFFFFF80000000)|(s.mt[(k+1)%312]&0x7FFFFFFF)
  //           s.mt[k]=s.mt[(k+156)%312]^(x>>1)^(0xB5026F5AA96619E9 if x&1 else 0)
  //         s.i=0
  //       y=s.mt[s.i]; s.i+=1
  //       y^=(y>>29)&0x5555555555555555; y^=(y<<17)&0x71D67FFFEDA60000
  //       y^=(y<<37)&0xFFF7EEE000000000; return y^(y>>43)
  //     def index(s,n):
  //       p=s.next()*n
  //       if (p&M)<n:
  //         t=((1<<64)-n)%n  # 2^64 mod n
  //         while (p&M)<t: p=s.next()*n
  //       return p>>64
  //   g=MT64(5489); print([g.next() for _ in range(10000)][-1])    # 9981545732273789042
  //   g=MT64(42); print([g.next() for _ in range(3)])
  //   g=MT64(7); print([g.index(10) for _ in range(8)])
  //   g=MT64(2024); print([g.index(3) for _ in range(8)], [g.index(1000003) for _ in range(3)])
  //   g=MT64(99); print([g.index(2**63+1) for _ in range(4)])
  qs::Rng std_check(5489);
  std::uint64_t v = 0;
  for (int i = 0; i < 10000; ++i) v = std_check.next();
  CHECK(v == 9981545732273789042ULL);  // the value required by [rand.predef]

  qs::Rng a(42);
  CHECK(a.next() == 13930160852258120406ULL);
  CHECK(a.next() == 11788048577503494824ULL);
  CHECK(a.next() == 13874630024467741450ULL);

  qs::Rng b(7);
  const std::vector<std::uint64_t> expect_b{7, 9, 1, 8, 1, 0, 8, 9};
  for (auto e : expect_b) CHECK(b.uniform_index(10) == e);

  qs::Rng c(2024);
  const std::vector<std::uint64_t> expect_c{1, 2, 0, 1, 0, 0, 2, 1};
  for (auto e : expect_c) CHECK(c.uniform_index(3) == e);
  CHECK(c.uniform_index(1000003) == 233465);
  CHECK(c.uniform_index(1000003) == 534232);
  CHECK(c.uniform_index(1000003) == 567096);

  qs::Rng d(99);  // n just above 2^63: the rejection loop runs about half the time
  const std::uint64_t big = (std::uint64_t{1} << 63) + 1;
  CHECK(d.uniform_index(big) == 4007965723204664335ULL);
  CHECK(d.uniform_index(big) == 3504834694829092203ULL);
  CHECK(d.uniform_index(big) == 3284823740366963888ULL);
  CHECK(d.uniform_index(big) == 7841978371843619232ULL);

  qs::Rng e(1);
  CHECK(e.uniform_index(1) == 0);
  const double u = e.uniform01();
  CHECK((u >= 0.0 && u < 1.0));
  CHECK_THROWS_AS(e.uniform_index(0), std::invalid_argument);
}

TEST_CASE("stats::bootstrap_spearman replicates match an independent Python bootstrap", "[stats]") {
  const std::vector<std::vector<double>> a{{1, 2, 3, 4}, {2, 1, 4, 3}, {1, 3, 2, 4}, {4, 3, 2, 1}, {1, 2, 4, 3}};
  const std::vector<std::vector<double>> b{{2, 1, 3, 4}, {1, 2, 3, 4}, {3, 4, 1, 2}, {1, 3, 2, 4}};
  // Same MT64 class as in the Rng test, then (per replicate: all A draws, then all B draws):
  //   from scipy.stats import spearmanr; import numpy as np
  //   A=[[1,2,3,4],[2,1,4,3],[1,3,2,4],[4,3,2,1],[1,2,4,3]]; B=[[2,1,3,4],[1,2,3,4],[3,4,1,2],[1,3,2,4]]
  //   g=MT64(11); out=[]
  //   for r in range(3):
  //     ma=np.mean([A[g.index(len(A))] for _ in A],axis=0); mb=np.mean([B[g.index(len(B))] for _ in B],axis=0)
  //     out.append(repr(spearmanr(ma,mb).statistic))
  //   print(out)   # ['-0.7999999999999999', '0.7999999999999999', '0.7999999999999999']
  const auto rho = qs::bootstrap_spearman(a, b, 3, 11);
  REQUIRE(rho.size() == 3);
  CHECK(rho[0] == near(-0.7999999999999999));
  CHECK(rho[1] == near(0.7999999999999999));
  CHECK(rho[2] == near(0.7999999999999999));

  // Each replicate equals spearman() of the means built from the same Rng draws.
  const auto many = qs::bootstrap_spearman(a, b, 200, 5);
  CHECK(many == qs::bootstrap_spearman(a, b, 200, 5));  // reproducible
  qs::Rng rng(5);
  for (std::size_t r = 0; r < many.size(); ++r) {
    std::vector<double> ma(4, 0.0), mb(4, 0.0);
    for (std::size_t d = 0; d < a.size(); ++d) {
      const auto& row = a[rng.uniform_index(a.size())];
      for (std::size_t j = 0; j < 4; ++j) ma[j] += row[j];
    }
    for (std::size_t d = 0; d < b.size(); ++d) {
      const auto& row = b[rng.uniform_index(b.size())];
      for (std::size_t j = 0; j < 4; ++j) mb[j] += row[j];
    }
    for (std::size_t j = 0; j < 4; ++j) {
      ma[j] /= static_cast<double>(a.size());
      mb[j] /= static_cast<double>(b.size());
    }
    const double expected = qs::spearman(ma, mb).statistic;
    if (std::isnan(expected))
      CHECK(std::isnan(many[r]));
    else
      CHECK(many[r] == near(expected));
  }
}

TEST_CASE("stats::bootstrap_spearman gives the plain double sums' results bit for bit, on every path", "[stats]") {
  // Ranks (multiples of 1/2) take an integer path; other values the double sums. Both must give what the
  // reference below gives (the contract's draws, summed in doubles in draw order), to the last bit.
  auto reference = [](const std::vector<std::vector<double>>& a, const std::vector<std::vector<double>>& b, int resamples,
                      std::uint64_t seed) {
    qs::Rng rng(seed);
    std::vector<double> out;
    const std::size_t k = a[0].size();
    for (int r = 0; r < resamples; ++r) {
      std::vector<double> ma(k, 0.0), mb(k, 0.0);
      for (std::size_t d = 0; d < a.size(); ++d) {
        const auto& row = a[rng.uniform_index(a.size())];
        for (std::size_t j = 0; j < k; ++j) ma[j] += row[j];
      }
      for (std::size_t d = 0; d < b.size(); ++d) {
        const auto& row = b[rng.uniform_index(b.size())];
        for (std::size_t j = 0; j < k; ++j) mb[j] += row[j];
      }
      for (std::size_t j = 0; j < k; ++j) {
        ma[j] /= static_cast<double>(a.size());
        mb[j] /= static_cast<double>(b.size());
      }
      out.push_back(qs::spearman(ma, mb).statistic);
    }
    return out;
  };
  auto same = [](const std::vector<double>& x, const std::vector<double>& y) {
    if (x.size() != y.size()) return false;
    for (std::size_t i = 0; i < x.size(); ++i)
      if (!(x[i] == y[i] || (std::isnan(x[i]) && std::isnan(y[i])))) return false;
    return true;
  };
  qs::Rng data(77);
  for (std::size_t k : {1u, 2u, 3u, 4u, 5u, 8u, 9u, 17u, 32u, 33u}) {
    for (int kind = 0; kind < 4; ++kind) {
      // 0: whole ranks; 1: ranks with ties averaged (x.5); 2: thirds (not halves: the double path);
      // 3: ranks with one value too large for the integer sums (the double path).
      auto group = [&](std::size_t n) {
        std::vector<std::vector<double>> g(n, std::vector<double>(k));
        for (auto& row : g)
          for (std::size_t j = 0; j < k; ++j) {
            const double rank = 1.0 + static_cast<double>(data.uniform_index(k));
            row[j] = kind == 1 ? rank + 0.5 * static_cast<double>(data.uniform_index(2)) : kind == 2 ? rank / 3.0 : rank;
          }
        if (kind == 3) g[0][0] = 1e9;
        return g;
      };
      const auto a = group(37), b = group(23);
      INFO("k = " << k << ", kind " << kind);
      CHECK(same(qs::bootstrap_spearman(a, b, 60, 9), reference(a, b, 60, 9)));
    }
  }
}

TEST_CASE("stats::bootstrap_spearman degenerate inputs", "[stats]") {
  CHECK(qs::bootstrap_spearman({{1, 2}}, {{2, 1}}, 0, 1).empty());
  // a single participant per group: every replicate is the original rho
  for (double r : qs::bootstrap_spearman({{1, 2, 3}}, {{3, 2, 1}}, 5, 1)) CHECK(r == near(-1.0));
  // constant mean vector (everybody tied everything) and a single item -> NaN
  for (double r : qs::bootstrap_spearman({{2, 2, 2}, {2, 2, 2}}, {{1, 2, 3}}, 4, 1)) CHECK(std::isnan(r));
  for (double r : qs::bootstrap_spearman({{1}, {1}}, {{1}}, 4, 1)) CHECK(std::isnan(r));
  CHECK_THROWS_AS(qs::bootstrap_spearman({}, {{1, 2}}, 1, 1), std::invalid_argument);
  CHECK_THROWS_AS(qs::bootstrap_spearman({{1, 2}, {1}}, {{1, 2}}, 1, 1), std::invalid_argument);
  CHECK_THROWS_AS(qs::bootstrap_spearman({{1, 2}}, {{1, 2, 3}}, 1, 1), std::invalid_argument);
  CHECK_THROWS_AS(qs::bootstrap_spearman({{1, 2}}, {{1, 2}}, -1, 1), std::invalid_argument);
}

TEST_CASE("stats::mann_whitney_min_p is the smallest p mann_whitney_u can return for the group sizes", "[stats]") {
  // Exact branch bound 2 / C(n1 + n2, n1) vs the asymptotic bound at complete separation with each group tied
  // within itself; the smaller one is reachable, as scipy shows:
  // /usr/bin/python3 -c "from scipy.stats import mannwhitneyu as f; print(repr(f([1,1,1],[2,2,2,2]).pvalue), repr(f([1,2,3],[4,5,6,7]).pvalue))"
  // -> 0.024744672046398936 0.05714285714285714   (3 vs 4: the tied extreme is smaller than 2/35)
  CHECK(qs::mann_whitney_min_p(3, 4) == near(0.024744672046398936));
  CHECK(qs::mann_whitney_min_p(4, 3) == near(0.024744672046398936));
  // /usr/bin/python3 -c "from scipy.stats import mannwhitneyu as f; print(repr(f([1,1],[2,2]).pvalue))"  -> 0.1939308522824107
  CHECK(qs::mann_whitney_min_p(2, 2) == near(0.1939308522824107));
  // /usr/bin/python3 -c "from scipy.stats import mannwhitneyu as f; print(repr(f([1]*9,[2]*10).pvalue))"  -> 2.722700042960588e-05
  CHECK(qs::mann_whitney_min_p(9, 10) == rel(2.722700042960588e-05));
  CHECK(qs::mann_whitney_min_p(1, 1) == 1.0);
  // Brute force over every pair of samples with values 1..4 (n1, n2 <= 4) finds no smaller p:
  // /usr/bin/python3 -c "import itertools as I; from scipy.stats import mannwhitneyu as f; print(min(f(a,b).pvalue for a in I.combinations_with_replacement(range(1,5),3) for b in I.combinations_with_replacement(range(1,5),3)))"
  // -> 0.04685417760387376
  CHECK(qs::mann_whitney_min_p(3, 3) == near(0.04685417760387376));
  // A real sample never goes below the bound.
  CHECK(qs::mann_whitney_u({1, 2, 3}, {4, 5, 6, 7}).pvalue >= qs::mann_whitney_min_p(3, 4));
  CHECK_THROWS_AS(qs::mann_whitney_min_p(0, 3), std::invalid_argument);
}

TEST_CASE("stats::kruskal_wallis matches scipy.stats.kruskal", "[stats]") {
  // /usr/bin/python3 -c "from scipy.stats import kruskal; print(repr(kruskal([1.1,3.4,2.2],[4.5,6.7,5.1,0.3],[8.8,7.7,9.9])))"
  // -> KruskalResult(statistic=6.299999999999997, pvalue=0.04285212686704024)
  auto r = qs::kruskal_wallis({{1.1, 3.4, 2.2}, {4.5, 6.7, 5.1, 0.3}, {8.8, 7.7, 9.9}});
  CHECK(r.h == near(6.299999999999997));
  CHECK(r.pvalue == near(0.04285212686704024));
  // ties (tie-corrected H)
  // /usr/bin/python3 -c "from scipy.stats import kruskal; print(repr(kruskal([1,2,2,3],[2,3,3],[1,1,4,4,4])))"
  // -> KruskalResult(statistic=1.1244444444444441, pvalue=0.5699411197221903)
  r = qs::kruskal_wallis({{1, 2, 2, 3}, {2, 3, 3}, {1, 1, 4, 4, 4}});
  CHECK(r.h == near(1.1244444444444441));
  CHECK(r.pvalue == near(0.5699411197221903));
  // two groups: df = 1
  // /usr/bin/python3 -c "from scipy.stats import kruskal; print(repr(kruskal([1,2],[3,4])))"
  // -> KruskalResult(statistic=2.3999999999999986, pvalue=0.12133525035848367)
  r = qs::kruskal_wallis({{1, 2}, {3, 4}});
  CHECK(r.h == near(2.3999999999999986));
  CHECK(r.pvalue == near(0.12133525035848367));
  // every value equal: SciPy raises "All numbers are identical"; here NaN
  r = qs::kruskal_wallis({{2, 2}, {2}, {2, 2}});
  CHECK(std::isnan(r.h));
  CHECK(std::isnan(r.pvalue));
  CHECK_THROWS_AS(qs::kruskal_wallis({{1, 2}}), std::invalid_argument);
  CHECK_THROWS_AS(qs::kruskal_wallis({{1, 2}, {}}), std::invalid_argument);
}

TEST_CASE("stats::epsilon_squared is H / ((n^2 - 1) / (n + 1))", "[stats]") {
  // Tomczak & Tomczak (2014): /usr/bin/python3 -c "h=6.299999999999997; n=10; print(repr(h/((n*n-1)/(n+1))))" -> 0.6999999999999997
  CHECK(qs::epsilon_squared(6.299999999999997, 10) == near(0.6999999999999997));
  CHECK(std::isnan(qs::epsilon_squared(1.0, 1)));
  CHECK(std::isnan(qs::epsilon_squared(std::nan(""), 10)));
}

TEST_CASE("stats::Rng's own engine gives std::mt19937_64's sequence across many twists", "[stats]") {
  for (std::uint64_t seed : {0ULL, 1ULL, 5489ULL, 20250101ULL, 0xFFFFFFFFFFFFFFFFULL}) {
    INFO("seed " << seed);
    std::mt19937_64 reference(seed);
    qs::Rng rng(seed);
    bool same = true;
    for (int i = 0; i < 5000 && same; ++i) same = rng.next() == reference();  // 5000 outputs: 16 twists
    CHECK(same);
  }
  qs::Rng zero(3);
  CHECK_THROWS_AS(zero.uniform_index(0), std::invalid_argument);
}

TEST_CASE("stats::Rng::uniform_indices gives what uniform_index gives, call for call, and leaves the engine alike", "[stats]") {
  // Bounds where Lemire's method rejects often (just above 2^63: nearly half the words) or never (1), and
  // blocks that start mid-state and cross several twists.
  for (std::uint64_t n : {1ULL, 2ULL, 7ULL, 1000ULL, 3000ULL, (1ULL << 63) + 1, 0xFFFFFFFFFFFFFFFFULL}) {
    for (std::size_t count : {std::size_t{0}, std::size_t{1}, std::size_t{5}, std::size_t{311}, std::size_t{313}, std::size_t{1000}}) {
      INFO("n " << n << ", count " << count);
      qs::Rng one(20261129), block(20261129);
      for (int i = 0; i < 17; ++i) (void)one.next(), (void)block.next();  // start mid-state
      std::vector<std::uint64_t> want(count), got(count);
      for (auto& w : want) w = one.uniform_index(n);
      block.uniform_indices(n, got.data(), count);
      CHECK(got == want);
      CHECK(block.next() == one.next());  // the engine where the calls would leave it
      if (n > 1 && count > 0) {
        const std::uint64_t most = *std::max_element(got.begin(), got.end());
        CHECK(most < n);
      }
    }
  }
  qs::Rng zero(3);
  std::uint64_t out[1];
  CHECK_THROWS_AS(zero.uniform_indices(0, out, 1), std::invalid_argument);
}

TEST_CASE("stats::bootstrap_spearman of large groups: counts per distinct answer give the participants' bootstrap distribution", "[stats]") {
  // Two groups of 3,000 and 2,600 whose answers take five rank vectors; with nearly equal mean ranks rho varies
  // over the whole range from resample to resample. Drawn both ways (participants one by one; counts per
  // distinct vector), 10,000 replicates each: the histograms (bins of 0.1) differ by a total variation distance
  // of about 0.03 by sampling error alone; the means and spreads agree closely.
  std::vector<std::vector<double>> a, b;
  using Row = std::vector<double>;
  auto fill = [](std::vector<Row>& g, const std::vector<std::pair<Row, int>>& parts) {
    for (const auto& [row, n] : parts) g.insert(g.end(), static_cast<std::size_t>(n), row);
  };
  fill(a, {{Row{1, 2, 3, 4, 5}, 1400}, {Row{5, 4, 3, 2, 1}, 1400}, {Row{1.5, 1.5, 3, 4.5, 4.5}, 200}});
  fill(b, {{Row{1, 2, 3, 4, 5}, 1200}, {Row{5, 4, 3, 2, 1}, 1250}, {Row{3, 1, 2, 5, 4}, 100}, {Row{2, 3, 1, 4, 5}, 50}});
  const int n = 10000;
  const auto rows = qs::detail::bootstrap_spearman(a, b, n, 20250101, SIZE_MAX);  // participants one by one
  const auto counts = qs::detail::bootstrap_spearman(a, b, n, 20250101, 2000);    // counts per distinct vector
  CHECK(counts == qs::bootstrap_spearman(a, b, n, 20250101));                    // the default above 2,000
  CHECK(counts == qs::detail::bootstrap_spearman(a, b, n, 20250101, 2000));      // reproducible
  CHECK(rows != counts);                                                          // other draws
  auto histogram = [](const std::vector<double>& v) {
    std::vector<double> h(21, 0.0);
    for (double x : v) h[static_cast<std::size_t>(std::lround((x + 1.0) * 10.0))] += 1.0 / static_cast<double>(v.size());
    return h;
  };
  const auto hr = histogram(rows), hc = histogram(counts);
  double tv = 0;
  for (std::size_t i = 0; i < hr.size(); ++i) tv += std::fabs(hr[i] - hc[i]) / 2;
  CHECK(tv < 0.05);
  auto mean_sd = [](const std::vector<double>& v) {
    double m = 0, s = 0;
    for (double x : v) m += x / static_cast<double>(v.size());
    for (double x : v) s += (x - m) * (x - m) / static_cast<double>(v.size() - 1);
    return std::pair(m, std::sqrt(s));
  };
  const auto [mr, sr] = mean_sd(rows);
  const auto [mc, sc] = mean_sd(counts);
  CHECK(sr > 0.3);  // rho does vary
  CHECK(std::fabs(mr - mc) < 0.03);
  CHECK(std::fabs(sr - sc) < 0.03);
  // Groups of 2,000 or fewer are drawn participant by participant, as before.
  std::vector<std::vector<double>> small_a(a.begin(), a.begin() + 2000), small_b(b.begin(), b.begin() + 1500);
  CHECK(qs::bootstrap_spearman(small_a, small_b, 50, 7) == qs::detail::bootstrap_spearman(small_a, small_b, 50, 7, SIZE_MAX));
}
