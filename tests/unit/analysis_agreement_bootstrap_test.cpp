// Unit tests for the joint bootstrap of Fleiss' kappa and Krippendorff's alpha
// (src/analysis/agreement/agreement_bootstrap.cpp). It has its own random streams (xoshiro256** per replicate), so
// its intervals are checked (a) for determinism per seed and across thread counts, (b) statistically:
// exactly against a case whose bootstrap distribution is a binomial (quantiles from SciPy), and within a
// stated Monte Carlo tolerance against stats::bootstrap_ci and against a plain cluster bootstrap written
// here, and (c) on edge cases.
#include "catch.h"

#include <cmath>
#include <cstring>
#include <vector>

#include "qualrank/analysis/agreement/agreement_bootstrap.h"
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

// A units x coders table over `categories` codes: each unit has a true code, each coder gives it with
// probability 0.7 (else a uniform code) and leaves 5% of cells empty (-1). Deterministic for `seed`.
stats::RatingTable generated(int units, int coders, int categories, std::uint64_t seed) {
  stats::Rng rng(seed);
  stats::RatingTable t{units, coders, categories, {}};
  for (int u = 0; u < units; ++u) {
    const auto truth = static_cast<int>(rng.uniform_index(static_cast<std::uint64_t>(categories)));
    for (int c = 0; c < coders; ++c) {
      const double r = rng.uniform01();
      t.codes.push_back(r < 0.05 ? -1 : r < 0.7 ? truth : static_cast<int>(rng.uniform_index(static_cast<std::uint64_t>(categories))));
    }
  }
  return t;
}

// Rows 0..n-1 in clusters of sizes 1, 2, 3, 4, 1, 2, ... (the last one cut at n).
std::vector<std::int64_t> uneven_clusters(std::int64_t n) {
  std::vector<std::int64_t> offsets{0};
  for (std::int64_t size = 1; offsets.back() < n; size = size % 4 + 1) offsets.push_back(std::min(n, offsets.back() + size));
  return offsets;
}

// A plain cluster bootstrap for reference: draw clusters with stats::Rng, build each resampled table and
// evaluate the library's statistics on it.
stats::AgreementIntervals reference_cluster_bootstrap(const stats::RatingTable& t, const std::vector<std::int64_t>& offsets,
                                                      int resamples, std::uint64_t seed, double level) {
  stats::Rng rng(seed);
  const std::uint64_t clusters = offsets.size() - 1;
  std::vector<double> fleiss, alpha;
  for (int r = 0; r < resamples; ++r) {
    stats::RatingTable s{0, t.coders, t.categories, {}};
    for (std::uint64_t d = 0; d < clusters; ++d) {
      const auto k = rng.uniform_index(clusters);
      const auto from = t.codes.begin() + offsets[k] * t.coders, to = t.codes.begin() + offsets[k + 1] * t.coders;
      s.codes.insert(s.codes.end(), from, to);
      s.units += static_cast<int>(offsets[k + 1] - offsets[k]);
    }
    fleiss.push_back(stats::fleiss_kappa(s).kappa);
    alpha.push_back(stats::krippendorff_alpha_nominal(s));
  }
  return {stats::bootstrap_percentile_ci(fleiss, level), stats::bootstrap_percentile_ci(alpha, level)};
}

// Monte Carlo tolerance for comparing two percentile intervals, each from `resamples` independent
// replicates. The q-quantile of B draws from a distribution with density f there has standard error
// sqrt(q (1 - q) / B) / f (David & Nagaraja 2003, section 10.2); the bootstrap distributions here (a few
// hundred units) are close to normal with standard deviation sigma, so f = phi(z_q) / sigma, and we take
// sigma = reference width / (2 z) of the reference's 95% interval. Two independent estimates differ with
// sqrt(2) times that standard error; we allow 5 of those (a correct implementation fails with probability
// below 1e-6 per endpoint).
double tolerance(double q, int resamples, const Interval& reference95) {
  const double z = q == 0.025 ? 1.959963984540054 : 0.6744897501960817;  // scipy.stats.norm.ppf(1 - q)
  const double phi = std::exp(-0.5 * z * z) / std::sqrt(2.0 * M_PI);
  const double sigma = (reference95.second - reference95.first) / (2.0 * 1.959963984540054);
  return 5.0 * std::sqrt(2.0) * std::sqrt(q * (1.0 - q) / resamples) / phi * sigma;
}

void check_close(const Interval& ours, const Interval& reference, double q, int resamples, const Interval& reference95) {
  const double tol = tolerance(q, resamples, reference95);
  INFO("ours [" << ours.first << ", " << ours.second << "], reference [" << reference.first << ", " << reference.second
                << "], tolerance " << tol);
  CHECK(tol > 0.0);
  CHECK(std::abs(ours.first - reference.first) <= tol);
  CHECK(std::abs(ours.second - reference.second) <= tol);
}

const stats::RatingTable kSmall{12, 4, 5, {0, 0, -1, 0, 1, 1, 2, 1, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 0, 1, 2, 3,
                                          3, 3, 3, 3, 0, 0, 1, 0, 1, 1, 1, 1, -1, 4, 4, 4, -1, -1, 0, 0, -1, 2, -1, -1}};

}  // namespace

TEST_CASE("stats::bootstrap_agreement gives the same bytes for a seed on any number of threads", "[agreement]") {
  for (const auto& t : {kSmall, generated(5000, 5, 8, 3)}) {
    const auto one = stats::bootstrap_agreement(t, 401, 7, 0.95, {}, 1);
    CHECK(same_bits(one, stats::bootstrap_agreement(t, 401, 7, 0.95, {}, 1)));
    CHECK(same_bits(one, stats::bootstrap_agreement(t, 401, 7, 0.95, {}, 2)));
    CHECK(same_bits(one, stats::bootstrap_agreement(t, 401, 7, 0.95, {}, 3)));
    CHECK(same_bits(one, stats::bootstrap_agreement(t, 401, 7)));  // automatic thread count
    CHECK(one.fleiss_kappa.first < one.fleiss_kappa.second);
    CHECK(one.krippendorff_alpha.first < one.krippendorff_alpha.second);
    // another seed, other draws
    CHECK(stats::bootstrap_agreement(t, 401, 8).fleiss_kappa != one.fleiss_kappa);
    const auto offsets = uneven_clusters(t.units);
    const auto clustered = stats::bootstrap_agreement(t, 401, 7, 0.95, offsets, 1);
    CHECK(same_bits(clustered, stats::bootstrap_agreement(t, 401, 7, 0.95, offsets, 2)));
  }
}

TEST_CASE("stats::bootstrap_agreement has the binomial bootstrap distribution of a two-pattern table", "[agreement]") {
  // 100 units, 2 coders: 70 agree (a, a), 30 disagree (a, b). A resample has X ~ Binomial(100, 0.3) units
  // (a, b); then Fleiss' kappa = -q / (1 - q) with q = X / 200, and alpha = 1 - (n - 1) D / E with n = 200
  // codes, D = 2X disagreeing pairs and E = 2 (200 - X) X, i.e. 1 - 199 / (200 - X): both decrease with X,
  // so the interval's ends are the statistics at X's 97.5% and 2.5% quantiles (and 75% / 25% for level
  // 0.5). With 100,000 resamples each empirical quantile falls on the same X as the exact one with
  // overwhelming probability: the binomial CDF steps across every quantile level with >= 0.0038 to spare,
  // more than 7 Monte Carlo standard deviations (sqrt(0.025 * 0.975 / 1e5) = 0.0005).
  // /usr/bin/python3 -c "from scipy.stats import binom; from statsmodels.stats.inter_rater import fleiss_kappa; k=lambda x: fleiss_kappa([[2,0]]*(100-x)+[[1,1]]*x); a=lambda x: 1-199/(200-x); print([(x, repr(k(x)), repr(a(x))) for x in binom(100,.3).ppf([.975,.025,.75,.25]).astype(int)])"
  //   -> [(39, -0.24223602484472073, -0.2360248447204969), (21, -0.11731843575418939, -0.1117318435754191),
  //       (33, -0.1976047904191617, -0.19161676646706582), (27, -0.15606936416185016, -0.1502890173410405)]
  stats::RatingTable t{100, 2, 2, {}};
  for (int u = 0; u < 100; ++u) {
    t.codes.push_back(0);
    t.codes.push_back(u % 10 < 3 ? 1 : 0);  // patterns interleaved
  }
  const auto ci95 = stats::bootstrap_agreement(t, 100000, 20250101);
  CHECK(ci95.fleiss_kappa.first == near(-0.24223602484472073));
  CHECK(ci95.fleiss_kappa.second == near(-0.11731843575418939));
  CHECK(ci95.krippendorff_alpha.first == near(-0.2360248447204969));
  CHECK(ci95.krippendorff_alpha.second == near(-0.1117318435754191));
  const auto ci50 = stats::bootstrap_agreement(t, 100000, 99, 0.5);
  CHECK(ci50.fleiss_kappa.first == near(-0.1976047904191617));
  CHECK(ci50.fleiss_kappa.second == near(-0.15606936416185016));
  CHECK(ci50.krippendorff_alpha.first == near(-0.19161676646706582));
  CHECK(ci50.krippendorff_alpha.second == near(-0.1502890173410405));
}

TEST_CASE("stats::bootstrap_agreement agrees with stats::bootstrap_ci within Monte Carlo error", "[agreement]") {
  const auto t = generated(300, 4, 5, 11);  // 5% missing: alpha uses incomplete units, Fleiss drops them
  const int b = 20000;
  const auto fleiss = [](const stats::RatingTable& s) { return stats::fleiss_kappa(s).kappa; };
  const Interval ref_fleiss95 = stats::bootstrap_ci(t, fleiss, b, 1);
  const Interval ref_alpha95 = stats::bootstrap_ci(t, stats::krippendorff_alpha_nominal, b, 2);
  const auto ours95 = stats::bootstrap_agreement(t, b, 3);
  check_close(ours95.fleiss_kappa, ref_fleiss95, 0.025, b, ref_fleiss95);
  check_close(ours95.krippendorff_alpha, ref_alpha95, 0.025, b, ref_alpha95);
  // the interquartile range: a second, tighter check of the same distribution
  const auto ours50 = stats::bootstrap_agreement(t, b, 4, 0.5);
  check_close(ours50.fleiss_kappa, stats::bootstrap_ci(t, fleiss, b, 5, 0.5), 0.25, b, ref_fleiss95);
  check_close(ours50.krippendorff_alpha, stats::bootstrap_ci(t, stats::krippendorff_alpha_nominal, b, 6, 0.5), 0.25, b,
              ref_alpha95);
  // and the point estimates sit inside
  CHECK(ours95.fleiss_kappa.first < fleiss(t));
  CHECK(fleiss(t) < ours95.fleiss_kappa.second);
}

TEST_CASE("stats::bootstrap_agreement resamples whole clusters", "[agreement]") {
  // one row per cluster is exactly the unit bootstrap
  std::vector<std::int64_t> singletons;
  for (std::int64_t i = 0; i <= kSmall.units; ++i) singletons.push_back(i);
  const auto units = stats::bootstrap_agreement(kSmall, 400, 7);
  CHECK(same_bits(stats::bootstrap_agreement(kSmall, 400, 7, 0.95, singletons), units));
  // every row twice, each pair a cluster: the same draws with every sum doubled, so Fleiss' kappa (a ratio
  // of doubled integer sums) is bit for bit the unit bootstrap's
  stats::RatingTable doubled{2 * kSmall.units, kSmall.coders, kSmall.categories, {}};
  std::vector<std::int64_t> pairs{0};
  for (int u = 0; u < kSmall.units; ++u) {
    for (int twice = 0; twice < 2; ++twice)
      doubled.codes.insert(doubled.codes.end(), kSmall.codes.begin() + u * kSmall.coders,
                           kSmall.codes.begin() + (u + 1) * kSmall.coders);
    pairs.push_back(pairs.back() + 2);
  }
  CHECK(stats::bootstrap_agreement(doubled, 400, 7, 0.95, pairs).fleiss_kappa == units.fleiss_kappa);
  // uneven clusters against a plain cluster bootstrap (tolerance as in tolerance())
  const auto t = generated(250, 3, 4, 12);
  const auto offsets = uneven_clusters(t.units);
  const int b = 20000;
  const auto reference = reference_cluster_bootstrap(t, offsets, b, 1, 0.95);
  const auto ours = stats::bootstrap_agreement(t, b, 2, 0.95, offsets);
  check_close(ours.fleiss_kappa, reference.fleiss_kappa, 0.025, b, reference.fleiss_kappa);
  check_close(ours.krippendorff_alpha, reference.krippendorff_alpha, 0.025, b, reference.krippendorff_alpha);
}

TEST_CASE("stats::bootstrap_agreement edge cases and bad arguments", "[agreement]") {
  // every unit the same pattern of one category: kappa and alpha undefined in every replicate
  const stats::RatingTable same{20, 3, 2, std::vector<int>(60, 1)};
  const auto undefined = stats::bootstrap_agreement(same, 100, 7);
  CHECK(std::isnan(undefined.fleiss_kappa.first));
  CHECK(std::isnan(undefined.fleiss_kappa.second));
  CHECK(std::isnan(undefined.krippendorff_alpha.first));
  // every unit the same disagreeing pattern: every replicate is the table itself, a degenerate interval
  stats::RatingTable split{20, 2, 2, {}};
  for (int u = 0; u < 20; ++u) split.codes.insert(split.codes.end(), {0, 1});
  const auto constant = stats::bootstrap_agreement(split, 100, 7);
  CHECK(constant.fleiss_kappa.first == near(stats::fleiss_kappa(split).kappa));
  CHECK(constant.fleiss_kappa.second == constant.fleiss_kappa.first);
  CHECK(constant.krippendorff_alpha.first == near(stats::krippendorff_alpha_nominal(split)));
  CHECK(constant.krippendorff_alpha.second == constant.krippendorff_alpha.first);
  // a single unit (kappa -0.5: P = 1/3, P_e = 5/9) and a single cluster
  const stats::RatingTable single{1, 3, 3, {0, 1, 1}};
  const auto one = stats::bootstrap_agreement(single, 50, 7);
  CHECK(one.fleiss_kappa.first == near(-0.5));
  CHECK(one.fleiss_kappa.second == near(-0.5));
  CHECK(one.krippendorff_alpha.first == near(stats::krippendorff_alpha_nominal(single)));
  const auto whole = stats::bootstrap_agreement(kSmall, 50, 7, 0.95, {0, kSmall.units});
  CHECK(whole.fleiss_kappa.first == near(stats::fleiss_kappa(kSmall).kappa));
  CHECK(whole.fleiss_kappa.second == near(stats::fleiss_kappa(kSmall).kappa));
  // no unit
  const auto empty = stats::bootstrap_agreement(stats::RatingTable{0, 3, 2, {}}, 10, 7);
  CHECK(std::isnan(empty.fleiss_kappa.first));
  CHECK(std::isnan(empty.krippendorff_alpha.second));
  // more threads than resamples is fine
  CHECK(same_bits(stats::bootstrap_agreement(kSmall, 3, 7, 0.95, {}, 8), stats::bootstrap_agreement(kSmall, 3, 7, 0.95, {}, 1)));
  CHECK_THROWS_AS(stats::bootstrap_agreement(kSmall, 0, 7), std::invalid_argument);
  CHECK_THROWS_AS(stats::bootstrap_agreement(kSmall, 10, 7, 1.0), std::invalid_argument);
  CHECK_THROWS_AS(stats::bootstrap_agreement(kSmall, 10, 7, 0.95, {0, 5}), std::invalid_argument);
  CHECK_THROWS_AS(stats::bootstrap_agreement(kSmall, 10, 7, 0.95, {}, -1), std::invalid_argument);
}
