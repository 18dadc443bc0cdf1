// Unit tests for qualrank::stats inter-coder agreement (src/analysis/agreement/agreement_stats.cpp).
// Expected values come from Debian's /usr/bin/python3 (statsmodels 0.13.5, NumPy 1.24.2) with
// the one-line command in the comment right above them. Neither the `krippendorff` package nor
// scikit-learn is installed there, so alpha is checked against an independent NumPy
// implementation that builds the full coincidence matrix o_ck pair by pair (Krippendorff 2011,
// section C) and against Krippendorff's own worked example (alpha = 0.743).
#include "catch.h"

#include <cmath>
#include <stdexcept>
#include <vector>

#include "qualrank/analysis/agreement/agreement_stats.h"
#include "qualrank/analysis/stats.h"

namespace qs = qualrank::stats;

namespace {
Approx near(double v) { return Approx(v).margin(1e-9).epsilon(1e-9); }

// Builds a table from rows of codes (units x coders).
qs::RatingTable make_table(const std::vector<std::vector<int>>& rows, int categories) {
  qs::RatingTable t;
  t.units = static_cast<int>(rows.size());
  t.coders = rows.empty() ? 0 : static_cast<int>(rows[0].size());
  t.categories = categories;
  for (const auto& r : rows) t.codes.insert(t.codes.end(), r.begin(), r.end());
  return t;
}

// 9 units x 4 coders x 3 categories; units 4, 6, 8 have missing codes, unit 8 has one code.
const std::vector<std::vector<int>> kMixed{{0, 0, 0, 0}, {0, 1, 0, 0}, {1, 1, 1, 2},
                                           {2, 2, 2, 2}, {0, -1, 0, 1}, {1, 1, 2, 2},
                                           {2, 2, -1, -1}, {0, 0, 1, 1}, {1, -1, -1, -1}};
// Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", nominal example:
// coders A-D x units 1-12, values 1-5 mapped to 0-4, '.' to -1 (here transposed to units x coders).
const std::vector<std::vector<int>> kKrippendorff{{0, 0, -1, 0}, {1, 1, 2, 1}, {2, 2, 2, 2},
                                                  {2, 2, 2, 2},  {1, 1, 1, 1}, {0, 1, 2, 3},
                                                  {3, 3, 3, 3},  {0, 0, 1, 0}, {1, 1, 1, 1},
                                                  {-1, 4, 4, 4}, {-1, -1, 0, 0}, {-1, 2, -1, -1}};
// Wikipedia's Fleiss' kappa example: 10 units, 14 raters, 5 categories (kappa = 0.210).
const std::vector<std::vector<int>> kWikipediaCounts{
    {0, 0, 0, 0, 14}, {0, 2, 6, 4, 2}, {0, 0, 3, 5, 6}, {0, 3, 9, 2, 0}, {2, 2, 8, 1, 1},
    {7, 7, 0, 0, 0},  {3, 2, 6, 3, 0}, {2, 5, 3, 2, 2}, {6, 5, 2, 1, 0}, {0, 2, 2, 3, 7}};
}  // namespace

TEST_CASE("stats::fleiss_kappa matches statsmodels fleiss_kappa on complete units", "[agreement]") {
  // Complete units of kMixed are 0, 1, 2, 3, 5, 7.
  // /usr/bin/python3 -c "import numpy as np; from statsmodels.stats.inter_rater import fleiss_kappa, aggregate_raters; T=np.array([[0,0,0,0],[0,1,0,0],[1,1,1,2],[2,2,2,2],[1,1,2,2],[0,0,1,1]]); print(repr(fleiss_kappa(aggregate_raters(T,n_cat=3)[0])))"
  const auto k = qs::fleiss_kappa(make_table(kMixed, 3));
  CHECK(k.kappa == near(0.4136125654450262));
  CHECK(k.used_units == 6);
  CHECK(k.dropped_units == 3);

  // /usr/bin/python3 -c "from statsmodels.stats.inter_rater import fleiss_kappa; print(repr(fleiss_kappa([[0,0,0,0,14],[0,2,6,4,2],[0,0,3,5,6],[0,3,9,2,0],[2,2,8,1,1],[7,7,0,0,0],[3,2,6,3,0],[2,5,3,2,2],[6,5,2,1,0],[0,2,2,3,7]])))"
  CHECK(qs::fleiss_kappa_counts(kWikipediaCounts) == near(0.20993070442195522));

  // two coders
  // /usr/bin/python3 -c "from statsmodels.stats.inter_rater import fleiss_kappa; print(repr(fleiss_kappa([[2,0],[0,2],[1,1],[0,2],[2,0]])))"
  const auto two = qs::fleiss_kappa(make_table({{0, 0}, {1, 1}, {0, 1}, {1, 1}, {0, 0}}, 2));
  CHECK(two.kappa == near(0.6000000000000001));
  CHECK(qs::fleiss_kappa_counts({{2, 0}, {0, 2}, {1, 1}, {0, 2}, {2, 0}}) == near(0.6000000000000001));
  // a single unit
  // /usr/bin/python3 -c "from statsmodels.stats.inter_rater import fleiss_kappa; print(repr(fleiss_kappa([[1,2,0]])))"
  CHECK(qs::fleiss_kappa(make_table({{0, 1, 1}}, 3)).kappa == near(-0.5000000000000001));
  // /usr/bin/python3 -c "from statsmodels.stats.inter_rater import fleiss_kappa; print(repr(fleiss_kappa([[2,0],[0,2],[1,1],[2,0],[1,1]])))"
  CHECK(qs::fleiss_kappa_counts({{2, 0}, {0, 2}, {1, 1}, {2, 0}, {1, 1}}) == near(0.1666666666666666));
}

TEST_CASE("stats::fleiss_kappa degenerate cases", "[agreement]") {
  // everybody uses one category: statsmodels divides 0 by 0
  // /usr/bin/python3 -c "from statsmodels.stats.inter_rater import fleiss_kappa; print(repr(fleiss_kappa([[3,0],[3,0]])))"  -> nan
  CHECK(std::isnan(qs::fleiss_kappa_counts({{3, 0}, {3, 0}})));
  const auto same = qs::fleiss_kappa(make_table({{1, 1, 1}, {1, 1, 1}}, 2));
  CHECK(std::isnan(same.kappa));
  CHECK(same.used_units == 2);
  // no complete unit, one coder, empty table
  const auto none = qs::fleiss_kappa(make_table({{0, -1}, {-1, 1}}, 2));
  CHECK(std::isnan(none.kappa));
  CHECK(none.used_units == 0);
  CHECK(none.dropped_units == 2);
  CHECK(std::isnan(qs::fleiss_kappa(make_table({{0}, {1}}, 2)).kappa));
  CHECK(std::isnan(qs::fleiss_kappa_counts({})));
  // malformed input
  CHECK_THROWS_AS(qs::fleiss_kappa_counts({{2, 0}, {1, 0}}), std::invalid_argument);  // unequal m
  CHECK_THROWS_AS(qs::fleiss_kappa_counts({{2, 0}, {2}}), std::invalid_argument);     // ragged
  CHECK_THROWS_AS(qs::fleiss_kappa_counts({{3, -1}}), std::invalid_argument);
  CHECK_THROWS_AS(qs::fleiss_kappa(make_table({{0, 2}}, 2)), std::invalid_argument);  // code >= k
  CHECK_THROWS_AS(qs::fleiss_kappa(make_table({{0, -2}}, 2)), std::invalid_argument);
  qs::RatingTable bad{2, 2, 2, {0, 1, 1}};
  CHECK_THROWS_AS(qs::fleiss_kappa(bad), std::invalid_argument);  // wrong size
}

TEST_CASE("stats::fleiss_kappa_per_category matches Fleiss' kappa_j written in NumPy", "[agreement]") {
  // /usr/bin/python3 -c "import numpy as np; t=np.array([[0,0,0,0,14],[0,2,6,4,2],[0,0,3,5,6],[0,3,9,2,0],[2,2,8,1,1],[7,7,0,0,0],[3,2,6,3,0],[2,5,3,2,2],[6,5,2,1,0],[0,2,2,3,7]]); N,m=len(t),t.sum(1)[0]; p=t.sum(0)/(N*m); print([repr(v) for v in 1-(t*(m-t)).sum(0)/(N*m*(m-1)*p*(1-p))])"
  const auto w = qs::fleiss_kappa_per_category_counts(kWikipediaCounts);
  REQUIRE(w.size() == 5);
  CHECK(w[0] == near(0.20128205128205134));
  CHECK(w[1] == near(0.07967032967032961));
  CHECK(w[2] == near(0.17159763313609477));
  CHECK(w[3] == near(0.030381383322559685));
  CHECK(w[4] == near(0.5076566951566952));
  // with missing codes (dropped units) and an unused category (p_j = 0 -> nan)
  // /usr/bin/python3 -c "import numpy as np; from statsmodels.stats.inter_rater import aggregate_raters; t=aggregate_raters(np.array([[0,0,0,0],[0,1,0,0],[1,1,1,2],[2,2,2,2],[1,1,2,2],[0,0,1,1]]),n_cat=4)[0]; N,m=len(t),t.sum(1)[0]; p=t.sum(0)/(N*m); print([repr(v) for v in 1-(t*(m-t)).sum(0)/(N*m*(m-1)*p*(1-p))])"
  const auto v = qs::fleiss_kappa_per_category(make_table(kMixed, 4));
  REQUIRE(v.size() == 4);
  CHECK(v[0] == near(0.5851851851851853));
  CHECK(v[1] == near(0.125));
  CHECK(v[2] == near(0.5294117647058822));
  CHECK(std::isnan(v[3]));
  // everyone in one category: p_j = 1 and 0 -> both nan
  for (double x : qs::fleiss_kappa_per_category(make_table({{1, 1}, {1, 1}}, 2))) CHECK(std::isnan(x));
  for (double x : qs::fleiss_kappa_per_category(make_table({{0, -1}}, 2))) CHECK(std::isnan(x));
}

TEST_CASE("stats::krippendorff_alpha_nominal matches the coincidence-matrix computation", "[agreement]") {
  // Krippendorff's worked example: alpha = 0.743.
  // /usr/bin/python3 -c "import numpy as np, itertools as it; U=[[0,0,-1,0],[1,1,2,1],[2,2,2,2],[2,2,2,2],[1,1,1,1],[0,1,2,3],[3,3,3,3],[0,0,1,0],[1,1,1,1],[-1,4,4,4],[-1,-1,0,0],[-1,2,-1,-1]]; k=5; o=np.zeros((k,k)); [o.__setitem__((a,b),o[a,b]+1/(len(v)-1)) for u in U for v in [[x for x in u if x>=0]] if len(v)>1 for a,b in it.permutations(v,2)]; nc=o.sum(1); n=nc.sum(); print(repr(1-(n-1)*(o.sum()-np.trace(o))/(n*n-(nc**2).sum())))"
  const double textbook = qs::krippendorff_alpha_nominal(make_table(kKrippendorff, 5));
  CHECK(textbook == near(0.743421052631579));
  CHECK(textbook == Approx(0.743).margin(5e-4));  // the published, rounded value

  // missing codes and a unit with a single code (not pairable)
  // /usr/bin/python3 -c "import numpy as np, itertools as it; U=[[0,0,0,0],[0,1,0,0],[1,1,1,2],[2,2,2,2],[0,-1,0,1],[1,1,2,2],[2,2,-1,-1],[0,0,1,1],[1,-1,-1,-1]]; k=3; o=np.zeros((k,k)); [o.__setitem__((a,b),o[a,b]+1/(len(v)-1)) for u in U for v in [[x for x in u if x>=0]] if len(v)>1 for a,b in it.permutations(v,2)]; nc=o.sum(1); n=nc.sum(); print(repr(1-(n-1)*(o.sum()-np.trace(o))/(n*n-(nc**2).sum())))"
  CHECK(qs::krippendorff_alpha_nominal(make_table(kMixed, 3)) == near(0.4313022700119473));

  // two coders
  // /usr/bin/python3 -c "import numpy as np, itertools as it; U=[[0,0],[1,1],[0,1],[1,1],[0,0]]; k=2; o=np.zeros((k,k)); [o.__setitem__((a,b),o[a,b]+1/(len(v)-1)) for u in U for v in [[x for x in u if x>=0]] if len(v)>1 for a,b in it.permutations(v,2)]; nc=o.sum(1); n=nc.sum(); print(repr(1-(n-1)*(o.sum()-np.trace(o))/(n*n-(nc**2).sum())))"
  CHECK(qs::krippendorff_alpha_nominal(make_table({{0, 0}, {1, 1}, {0, 1}, {1, 1}, {0, 0}}, 2)) == near(0.64));
  // a single unit
  // /usr/bin/python3 -c "import numpy as np, itertools as it; U=[[0,1]]; k=2; o=np.zeros((k,k)); [o.__setitem__((a,b),o[a,b]+1/(len(v)-1)) for u in U for v in [[x for x in u if x>=0]] if len(v)>1 for a,b in it.permutations(v,2)]; nc=o.sum(1); n=nc.sum(); print(repr(1-(n-1)*(o.sum()-np.trace(o))/(n*n-(nc**2).sum())))"
  CHECK(qs::krippendorff_alpha_nominal(make_table({{0, 1}}, 2)) == near(0.0));
}

TEST_CASE("stats::krippendorff_alpha_nominal degenerate cases are NaN", "[agreement]") {
  // perfect agreement on a single category: expected disagreement 0 -> undefined
  CHECK(std::isnan(qs::krippendorff_alpha_nominal(make_table({{2, 2, 2}, {2, -1, 2}}, 3))));
  // no pairable unit (every unit has < 2 codes)
  CHECK(std::isnan(qs::krippendorff_alpha_nominal(make_table({{0, -1}, {-1, 1}}, 2))));
  CHECK(std::isnan(qs::krippendorff_alpha_nominal(make_table({}, 2))));
  // perfect agreement using two categories is defined and equals 1
  CHECK(qs::krippendorff_alpha_nominal(make_table({{0, 0}, {1, 1}, {1, -1}}, 2)) == near(1.0));
}

TEST_CASE("stats::cohen_kappa matches statsmodels cohens_kappa", "[agreement]") {
  // items 9 and 10 each have one missing code and are skipped
  // /usr/bin/python3 -c "import numpy as np; from statsmodels.stats.inter_rater import cohens_kappa; a=[0,1,2,1,0,2,2,1,0,-1,1]; b=[0,1,1,1,0,2,0,1,2,1,-1]; t=np.zeros((3,3)); [t.__setitem__((x,y),t[x,y]+1) for x,y in zip(a,b) if x>=0 and y>=0]; print(repr(cohens_kappa(t).kappa))"
  CHECK(qs::cohen_kappa({0, 1, 2, 1, 0, 2, 2, 1, 0, -1, 1}, {0, 1, 1, 1, 0, 2, 0, 1, 2, 1, -1}, 3) ==
        near(0.49999999999999994));
  // /usr/bin/python3 -c "import numpy as np; from statsmodels.stats.inter_rater import cohens_kappa; a=[0,1,1,0,1]; b=[1,0,0,1,0]; t=np.zeros((2,2)); [t.__setitem__((x,y),t[x,y]+1) for x,y in zip(a,b) if x>=0 and y>=0]; print(repr(cohens_kappa(t).kappa))"
  CHECK(qs::cohen_kappa({0, 1, 1, 0, 1}, {1, 0, 0, 1, 0}, 2) == near(-0.923076923076923));
  // /usr/bin/python3 -c "import numpy as np; from statsmodels.stats.inter_rater import cohens_kappa; a=[0,1,0,1,0]; b=[0,1,1,1,0]; t=np.zeros((2,2)); [t.__setitem__((x,y),t[x,y]+1) for x,y in zip(a,b) if x>=0 and y>=0]; print(repr(cohens_kappa(t).kappa))"
  CHECK(qs::cohen_kappa({0, 1, 0, 1, 0}, {0, 1, 1, 1, 0}, 2) == near(0.6153846153846155));
  // two items
  // /usr/bin/python3 -c "import numpy as np; from statsmodels.stats.inter_rater import cohens_kappa; a=[0,1]; b=[0,0]; t=np.zeros((2,2)); [t.__setitem__((x,y),t[x,y]+1) for x,y in zip(a,b) if x>=0 and y>=0]; print(repr(cohens_kappa(t).kappa))"
  CHECK(qs::cohen_kappa({0, 1}, {0, 0}, 2) == near(0.0));
  CHECK(qs::cohen_kappa({0, 1, 2}, {0, 1, 2}, 3) == near(1.0));  // identical codings
  // degenerate: both coders use one category (p_e = 1), nothing coded by both
  CHECK(std::isnan(qs::cohen_kappa({1, 1, 1}, {1, 1, 1}, 2)));
  CHECK(std::isnan(qs::cohen_kappa({0, -1}, {-1, 1}, 2)));
  CHECK(std::isnan(qs::cohen_kappa({}, {}, 2)));
  CHECK_THROWS_AS(qs::cohen_kappa({0, 1}, {0}, 2), std::invalid_argument);
  CHECK_THROWS_AS(qs::cohen_kappa({0, 2}, {0, 1}, 2), std::invalid_argument);
}

TEST_CASE("stats::percent_agreement is the mean within-unit pair agreement", "[agreement]") {
  // /usr/bin/python3 -c "import numpy as np; U=[[0,0,0,0],[0,1,0,0],[1,1,1,2],[2,2,2,2],[0,-1,0,1],[1,1,2,2],[2,2,-1,-1],[0,0,1,1],[1,-1,-1,-1]]; r=[(np.bincount(v)*(np.bincount(v)-1)).sum()/(len(v)*(len(v)-1)) for u in U for v in [[x for x in u if x>=0]] if len(v)>1]; print(repr(np.mean(r)))"
  CHECK(qs::percent_agreement(make_table(kMixed, 3)) == near(0.625));
  // two coders: share of units with identical codes
  CHECK(qs::percent_agreement(make_table({{0, 0}, {1, 1}, {0, 1}, {1, 1}, {0, 0}}, 2)) == near(0.8));
  CHECK(qs::percent_agreement(make_table({{1, 1, 1}}, 2)) == near(1.0));  // single unit, all tied
  CHECK(std::isnan(qs::percent_agreement(make_table({{0, -1}}, 2))));
}

// The specific agreements below were counted pair by pair (every coder pair of every unit, not the closed form
// the code uses), in exact fractions:
// /usr/bin/python3 -c "from itertools import combinations as C; from fractions import Fraction as F; U=[[0,0,0,0],[0,1,0,0],[1,1,1,2],[2,2,2,2],[0,-1,0,1],[1,1,2,2],[2,2,-1,-1],[0,0,1,1],[1,-1,-1,-1]]; P=[(x,y) for u in U for x,y in C([v for v in u if v>=0],2)]; print([F(2*sum(x==j and y==j for x,y in P), sum((x==j)+(y==j) for x,y in P)) for j in range(3)])"
// -> [Fraction(22, 31), Fraction(5, 13), Fraction(16, 23)]
TEST_CASE("stats::specific_agreement is 2a / (2a + b + c), pooled over coder pairs", "[agreement]") {
  const auto ps = qs::specific_agreement(make_table(kMixed, 3));
  REQUIRE(ps.size() == 3);
  CHECK(ps[0] == near(22.0 / 31));
  CHECK(ps[1] == near(5.0 / 13));
  CHECK(ps[2] == near(16.0 / 23));
  // Two coders, a present/absent code: a = 3 units both applied it, b + c = 2 one did, d = 2 neither:
  // positive agreement 2a / (2a + b + c) = 6/8, negative 2d / (2d + b + c) = 4/6 (de Vet et al. 2013, table 1's layout).
  const auto two = qs::specific_agreement(make_table({{1, 1}, {1, 0}, {0, 1}, {1, 1}, {0, 0}, {1, 1}, {0, 0}}, 2));
  CHECK(two[1] == near(0.75));
  CHECK(two[0] == near(2.0 / 3));
  // A code one coder applied to 1 of 30 units: percent agreement 29/30, positive agreement 0.
  std::vector<std::vector<int>> rare(30, {0, 0});
  rare[0] = {1, 0};
  CHECK(qs::percent_agreement(make_table(rare, 2)) == near(29.0 / 30));
  CHECK(qs::specific_agreement(make_table(rare, 2))[1] == 0.0);
  CHECK(qs::specific_agreement(make_table(rare, 2))[0] == near(58.0 / 59));
  // No pairable unit with the category: 0/0.
  CHECK(std::isnan(qs::specific_agreement(make_table({{0, 0}, {1, -1}}, 2))[1]));
  CHECK(std::isnan(qs::specific_agreement(make_table(kMixed, 4))[3]));
}

TEST_CASE("stats::all_agree and pairable_units give the bases of the shares", "[agreement]") {
  // kMixed: complete units 0, 1, 2, 3, 5, 7; all four coders agree on 0 and 3. Units with two or more codes: all
  // but unit 8.
  const auto all = qs::all_agree(make_table(kMixed, 3));
  CHECK(all.units == 6);
  CHECK(all.agreeing == 2);
  CHECK(all.share == near(2.0 / 6));
  CHECK(qs::pairable_units(make_table(kMixed, 3)) == 8);
  // Three coders: percent agreement counts 2 of 3 agreeing as 1/3 of the pairs; all_agree as 0.
  const auto three = make_table({{0, 0, 1}, {1, 1, 1}}, 2);
  CHECK(qs::percent_agreement(three) == near((1.0 / 3 + 1.0) / 2));
  CHECK(qs::all_agree(three).share == near(0.5));
  CHECK(std::isnan(qs::all_agree(make_table({{0, -1}}, 2)).share));
  CHECK(std::isnan(qs::all_agree(make_table({{0}, {1}}, 2)).share));  // one coder
}

TEST_CASE("stats::bootstrap_ci resamples units reproducibly", "[agreement]") {
  const auto table = make_table(kKrippendorff, 5);
  const auto alpha = [](const qs::RatingTable& t) { return qs::krippendorff_alpha_nominal(t); };
  const auto ci = qs::bootstrap_ci(table, alpha, 500, 17);
  CHECK(ci == qs::bootstrap_ci(table, alpha, 500, 17));  // same seed, same interval
  CHECK(ci.first <= ci.second);
  CHECK(ci.first <= 0.743421052631579);
  CHECK(ci.second >= 0.743421052631579);

  // The interval is the numpy-percentile interval of replicates built from the same Rng draws.
  qs::Rng rng(17);
  std::vector<double> replicates;
  for (int r = 0; r < 500; ++r) {
    qs::RatingTable s{table.units, table.coders, table.categories, {}};
    for (int u = 0; u < table.units; ++u) {
      const auto src = rng.uniform_index(static_cast<std::uint64_t>(table.units)) * 4;
      s.codes.insert(s.codes.end(), table.codes.begin() + static_cast<long>(src),
                     table.codes.begin() + static_cast<long>(src + 4));
    }
    replicates.push_back(alpha(s));
  }
  const auto expected = qs::bootstrap_percentile_ci(replicates);
  CHECK(ci.first == near(expected.first));
  CHECK(ci.second == near(expected.second));

  // perfect agreement over two categories: every defined replicate is 1 (one-category resamples
  // are NaN and dropped)
  const auto perfect = make_table({{0, 0}, {1, 1}, {1, 1}}, 2);
  const auto fleiss = [](const qs::RatingTable& t) { return qs::fleiss_kappa(t).kappa; };
  const auto p = qs::bootstrap_ci(perfect, fleiss, 200, 3, 0.9);
  CHECK(p.first == near(1.0));
  CHECK(p.second == near(1.0));
  // nothing to resample; everything NaN
  CHECK(std::isnan(qs::bootstrap_ci(make_table({}, 2), fleiss, 10, 1).first));
  CHECK(std::isnan(qs::bootstrap_ci(make_table({{1, 1}}, 2), fleiss, 10, 1).second));
  CHECK_THROWS_AS(qs::bootstrap_ci(perfect, fleiss, 0, 1), std::invalid_argument);
  CHECK_THROWS_AS(qs::bootstrap_ci(perfect, fleiss, 10, 1, 1.5), std::invalid_argument);
}
