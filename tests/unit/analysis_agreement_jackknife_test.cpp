// Unit tests for the jackknife intervals of Fleiss' kappa and Krippendorff's alpha
// (src/analysis/agreement/agreement_jackknife.cpp): (a) exactly against a delete-one jackknife computed by brute force
// in Python (statsmodels' fleiss_kappa and alpha from the coincidence matrix, each recomputed without each
// unit or cluster), (b) against bootstrap_agreement's percentile intervals on three tables of 100,000 units
// (the size from which `qualrank agreement` switches to the jackknife), (c) the switch and edge cases.
#include "catch.h"

#include <cmath>
#include <cstring>
#include <vector>

#include "qualrank/analysis/agreement/agreement_jackknife.h"
#include "qualrank/analysis/stats.h"

using namespace qualrank;
using Interval = std::pair<double, double>;

namespace {

Approx near(double v) { return Approx(v).margin(1e-12).epsilon(1e-12); }

bool same_bits(const stats::AgreementIntervals& a, const stats::AgreementIntervals& b) {
  const double x[4] = {a.fleiss_kappa.first, a.fleiss_kappa.second, a.krippendorff_alpha.first, a.krippendorff_alpha.second};
  const double y[4] = {b.fleiss_kappa.first, b.fleiss_kappa.second, b.krippendorff_alpha.first, b.krippendorff_alpha.second};
  return std::memcmp(x, y, sizeof x) == 0;
}

// 12 units x 4 coders x 5 categories, with missing codes (the table of analysis_agreement_bootstrap_test.cpp).
const stats::RatingTable kSmall{12, 4, 5, {0, 0, -1, 0, 1, 1, 2, 1, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 0, 1, 2, 3,
                                          3, 3, 3, 3, 0, 0, 1, 0, 1, 1, 1, 1, -1, 4, 4, 4, -1, -1, 0, 0, -1, 2, -1, -1}};
const std::vector<std::int64_t> kClusters{0, 1, 3, 6, 10, 11, 12};  // sizes 1, 2, 3, 4, 1, 1

// A units x coders table: each unit's true code is drawn from `prevalence` (cumulative shares), each coder
// gives it with probability `accuracy` (else a uniform code) and leaves a cell empty with probability
// `missing`. Deterministic for `seed`.
stats::RatingTable generated(int units, int coders, const std::vector<double>& prevalence, double accuracy,
                             double missing, std::uint64_t seed) {
  stats::Rng rng(seed);
  const auto categories = static_cast<int>(prevalence.size());
  stats::RatingTable t{units, coders, categories, {}};
  for (int u = 0; u < units; ++u) {
    const double p = rng.uniform01();
    int truth = 0;
    while (truth + 1 < categories && p >= prevalence[static_cast<std::size_t>(truth)]) ++truth;
    for (int c = 0; c < coders; ++c) {
      const double r = rng.uniform01();
      t.codes.push_back(r < missing                 ? -1
                        : r < missing + accuracy ? truth
                                                   : static_cast<int>(rng.uniform_index(static_cast<std::uint64_t>(categories))));
    }
  }
  return t;
}

// Each endpoint of the jackknife's normal interval within 10% of the bootstrap interval's width of the
// bootstrap's endpoint. (With 1,000 resamples a percentile endpoint's Monte Carlo standard error is about
// 2.2% of the width, sqrt(0.025 * 0.975 / 1000) / phi(1.96) / 3.92; the rest allows for the bootstrap
// distribution's skew, which at 100,000 units is small.)
void check_agree(const Interval& jackknife, const Interval& bootstrap) {
  const double tol = 0.1 * (bootstrap.second - bootstrap.first);
  INFO("jackknife [" << jackknife.first << ", " << jackknife.second << "], bootstrap [" << bootstrap.first << ", "
                     << bootstrap.second << "], tolerance " << tol);
  CHECK(tol > 0.0);
  CHECK(std::abs(jackknife.first - bootstrap.first) <= tol);
  CHECK(std::abs(jackknife.second - bootstrap.second) <= tol);
}

}  // namespace

TEST_CASE("stats::jackknife_agreement matches a brute-force delete-one jackknife", "[agreement]") {
  // /usr/bin/python3 tests/unit/agreement_jackknife_reference.py (numpy 1.24, scipy, statsmodels 0.13.5): for
  // each unit (or cluster) g, statsmodels' fleiss_kappa(method='fleiss') on the complete units and alpha from
  // the coincidence matrix built pair by pair, recomputed without g; undefined values dropped;
  // se = sqrt((n - 1) / n * sum (v - mean v)^2); interval theta -+ norm.ppf(0.975) se, upper end min(1, .).
  const auto se = stats::jackknife_agreement_se(kSmall);
  CHECK(se.fleiss_kappa == near(0.202504456672387));
  CHECK(se.krippendorff_alpha == near(0.14694221562084));
  const auto ci = stats::jackknife_agreement(kSmall);
  CHECK(ci.fleiss_kappa.first == near(0.244555140846323));
  CHECK(ci.fleiss_kappa.second == 1.0);  // 0.641 + 1.96 * 0.203 capped at 1
  CHECK(ci.krippendorff_alpha.first == near(0.455419602206214));
  CHECK(ci.krippendorff_alpha.second == 1.0);

  const auto clustered_se = stats::jackknife_agreement_se(kSmall, kClusters);
  CHECK(clustered_se.fleiss_kappa == near(0.156243750412822));
  CHECK(clustered_se.krippendorff_alpha == near(0.108257668861353));
  const auto clustered = stats::jackknife_agreement(kSmall, 0.95, kClusters);
  CHECK(clustered.fleiss_kappa.first == near(0.335224459014457));
  CHECK(clustered.fleiss_kappa.second == near(0.94768870625165));
  CHECK(clustered.krippendorff_alpha.first == near(0.531239920613064));
  CHECK(clustered.krippendorff_alpha.second == near(0.955602184650094));
  // 90%: z = norm.ppf(0.95) = 1.6448536269514722
  const auto ci90 = stats::jackknife_agreement(kSmall, 0.90, kClusters);
  CHECK(ci90.krippendorff_alpha.first == near(0.743421052631579 - 1.6448536269514722 * 0.108257668861353));
  CHECK(ci90.krippendorff_alpha.second == near(0.743421052631579 + 1.6448536269514722 * 0.108257668861353));

  // one row per cluster is the unit jackknife, bit for bit
  std::vector<std::int64_t> singletons;
  for (std::int64_t i = 0; i <= kSmall.units; ++i) singletons.push_back(i);
  CHECK(same_bits(stats::jackknife_agreement(kSmall, 0.95, singletons), ci));
}

TEST_CASE("stats::jackknife_agreement agrees with the bootstrap on 100,000 units", "[agreement]") {
  SECTION("10 coders, 5 even categories, 5% missing") {
    const auto t = generated(100000, 10, {0.2, 0.4, 0.6, 0.8, 1.0}, 0.65, 0.05, 11);
    const auto jack = stats::jackknife_agreement(t);
    const auto boot = stats::bootstrap_agreement(t, 1000, 20250101);
    check_agree(jack.fleiss_kappa, boot.fleiss_kappa);
    check_agree(jack.krippendorff_alpha, boot.krippendorff_alpha);
  }
  SECTION("3 coders, skewed: 95% / 4% / 1% of the units") {
    const auto t = generated(100000, 3, {0.95, 0.99, 1.0}, 0.8, 0.0, 12);
    const auto jack = stats::jackknife_agreement(t);
    const auto boot = stats::bootstrap_agreement(t, 1000, 20250101);
    check_agree(jack.fleiss_kappa, boot.fleiss_kappa);
    check_agree(jack.krippendorff_alpha, boot.krippendorff_alpha);
  }
  SECTION("100,000 clusters of 1 to 4 rows, 2 coders, present/absent with 10% present, 2% missing") {
    const auto t = generated(250000, 2, {0.9, 1.0}, 0.85, 0.02, 13);
    std::vector<std::int64_t> offsets{0};
    for (std::int64_t size = 1; offsets.back() < t.units; size = size % 4 + 1) offsets.push_back(offsets.back() + size);
    REQUIRE(offsets.size() == 100001);
    REQUIRE(offsets.back() == 250000);
    const auto jack = stats::jackknife_agreement(t, 0.95, offsets);
    const auto boot = stats::bootstrap_agreement(t, 1000, 20250101, 0.95, offsets);
    check_agree(jack.fleiss_kappa, boot.fleiss_kappa);
    check_agree(jack.krippendorff_alpha, boot.krippendorff_alpha);
  }
}

TEST_CASE("stats::interval_method switches to the jackknife at 100,000 resampled units", "[agreement]") {
  CHECK(stats::interval_method(0) == stats::IntervalMethod::bootstrap);
  CHECK(stats::interval_method(99999) == stats::IntervalMethod::bootstrap);
  CHECK(stats::interval_method(100000) == stats::IntervalMethod::jackknife);
  CHECK(std::string(stats::interval_method_name(stats::IntervalMethod::bootstrap)) == "bootstrap");
  CHECK(std::string(stats::interval_method_name(stats::IntervalMethod::jackknife)) == "jackknife");
  CHECK(same_bits(stats::agreement_intervals(kSmall, stats::IntervalMethod::bootstrap, 200, 7, 0.95, kClusters),
                  stats::bootstrap_agreement(kSmall, 200, 7, 0.95, kClusters)));
  CHECK(same_bits(stats::agreement_intervals(kSmall, stats::IntervalMethod::jackknife, 200, 7, 0.9, kClusters),
                  stats::jackknife_agreement(kSmall, 0.9, kClusters)));
}

TEST_CASE("stats::jackknife_agreement edge cases and bad arguments", "[agreement]") {
  // every code in one category: both statistics undefined
  const stats::RatingTable same{3, 2, 2, {1, 1, 1, 1, 1, 1}};
  const auto undefined = stats::jackknife_agreement(same);
  CHECK(std::isnan(undefined.fleiss_kappa.first));
  CHECK(std::isnan(undefined.krippendorff_alpha.second));
  // two units: deleting either leaves one unit, whose kappa and alpha are undefined (one category) or
  // defined; fewer than two defined values -> NaN
  const stats::RatingTable two{2, 2, 2, {0, 1, 1, 1}};
  CHECK(std::isnan(stats::jackknife_agreement_se(two).fleiss_kappa));
  // one coder, no unit
  CHECK(std::isnan(stats::jackknife_agreement(stats::RatingTable{3, 1, 2, {0, 1, 0}}).fleiss_kappa.first));
  CHECK(std::isnan(stats::jackknife_agreement(stats::RatingTable{0, 3, 2, {}}).krippendorff_alpha.first));
  // units with missing codes only move alpha: with every unit but the complete ones incomplete, Fleiss'
  // jackknife counts them with theta_(i) = theta
  CHECK(stats::jackknife_agreement_se(kSmall).fleiss_kappa > 0.0);
  // deterministic
  CHECK(same_bits(stats::jackknife_agreement(kSmall), stats::jackknife_agreement(kSmall)));
  CHECK_THROWS_AS(stats::jackknife_agreement(kSmall, 1.0), std::invalid_argument);
  CHECK_THROWS_AS(stats::jackknife_agreement(kSmall, 0.0), std::invalid_argument);
  CHECK_THROWS_AS(stats::jackknife_agreement(kSmall, 0.95, {0, 5}), std::invalid_argument);
  CHECK_THROWS_AS(stats::jackknife_agreement_se(kSmall, {1, 12}), std::invalid_argument);
  CHECK_THROWS_AS(stats::jackknife_agreement_se(stats::RatingTable{1, 2, 2, {0, 2}}), std::invalid_argument);
}
