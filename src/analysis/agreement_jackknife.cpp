// Jackknife of Fleiss' kappa and Krippendorff's alpha (contract in agreement_jackknife.h).
//
// Method: the delete-one jackknife estimate of standard error (Quenouille 1956; Tukey 1958; Efron &
// Tibshirani 1993, "An Introduction to the Bootstrap", ch. 11, eq. 11.5), with the normal interval
// theta +- z SE (ibid., ch. 12.2). For clustered units the whole cluster is deleted (the delete-a-group
// jackknife). For Fleiss' kappa the large-sample variance of Fleiss, Lee & Landis (1979, "The large sample
// variance of kappa in the case of different sets of raters", Psychological Bulletin 86(5)) is the
// alternative; the jackknife is used here for both statistics because it needs no model of the raters and
// treats kappa and alpha alike. Both are smooth functions of means of per-unit vectors, so the jackknife SE is
// consistent and the normal interval agrees with the percentile bootstrap to first order (Efron &
// Tibshirani, ch. 11.5 and 13); tests/unit/analysis_agreement_jackknife_test.cpp checks it against
// bootstrap_agreement on tables of 100,000 units.
//
// Computation: both statistics are functions of integer sums over units (as in agreement_bootstrap.cpp):
//   Fleiss (complete units): N, S = sum_i sum_j n_ij^2, col_j = sum_i n_ij, Q = sum_j col_j^2;
//     kappa = (P - Pe) / (1 - Pe), P = (S - N m) / (m (m - 1) N), Pe = Q / (N m)^2;
//   alpha (units with m_u >= 2): n_c = sum_u n_uc, n = sum_c n_c, Q' = sum_c n_c^2,
//     D = sum_u (m_u^2 - sum_c n_uc^2) / (m_u - 1); alpha = 1 - (n - 1) D / (n^2 - Q').
// Deleting unit (or cluster) g with count vector a subtracts its own part from N, S, n and D, and changes
// Q to Q - 2 sum_j col_j a_j + sum_j a_j^2: O(codes of g). So one pass totals the sums and a second pass
// evaluates every theta_(g), accumulating their mean and squared deviations (Welford 1962) as deviations
// from the full-table value (computed by the same formulas), which keeps the differences of about 1/n
// accurate. Integer sums are exact (64-bit; squares in 128-bit); the order of the floating-point sums is
// the input order, so the result is the same bytes on every run.
#include "qualrank/analysis/agreement_jackknife.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include <boost/math/distributions/normal.hpp>

namespace qualrank::stats {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
__extension__ typedef __int128 i128;  // GCC/Clang extension; silences -Wpedantic

// What one unit (or cluster) adds to the sums; the count vectors live in the scratch arrays of Visitor.
struct Part {
  std::int64_t fleiss_units = 0;  // complete rows
  std::int64_t fleiss_sq = 0;     // sum over complete rows of sum_j n_ij^2
  std::int64_t alpha_codes = 0;   // codes of pairable rows
  double alpha_disagreement = 0;  // sum over pairable rows of (m^2 - sum_c n_uc^2) / (m - 1)
};

// Walks the units (or clusters) of a table, giving each one's Part and sparse count vectors.
class Visitor {
 public:
  Visitor(const RatingTable& t) : t_(t), row_(cats(t)), fleiss_(cats(t)), alpha_(cats(t)) {}

  // Calls f(part, touched, fleiss_counts, alpha_counts) for rows [begin, end); `touched` lists the
  // categories with a nonzero alpha count (every category with a nonzero Fleiss count is among them).
  template <class F>
  void visit(std::int64_t begin, std::int64_t end, F&& f) {
    Part part;
    const auto coders = static_cast<std::size_t>(t_.coders);
    for (auto r = static_cast<std::size_t>(begin); r < static_cast<std::size_t>(end); ++r) {
      const int* row = t_.codes.data() + r * coders;
      std::int64_t m = 0, sq = 0;
      for (std::size_t c = 0; c < coders; ++c)
        if (row[c] >= 0) {
          sq += 2 * row_[static_cast<std::size_t>(row[c])]++ + 1;
          ++m;
        }
      for (std::size_t c = 0; c < coders; ++c)
        if (row[c] >= 0) row_[static_cast<std::size_t>(row[c])] = 0;
      if (m < 2) continue;
      const bool complete = m == t_.coders;
      for (std::size_t c = 0; c < coders; ++c) {
        if (row[c] < 0) continue;
        const auto k = static_cast<std::size_t>(row[c]);
        if (alpha_[k]++ == 0) touched_.push_back(k);
        if (complete) ++fleiss_[k];
      }
      part.alpha_codes += m;
      part.alpha_disagreement += static_cast<double>(m * m - sq) / static_cast<double>(m - 1);
      if (complete) {
        ++part.fleiss_units;
        part.fleiss_sq += sq;
      }
    }
    f(part, touched_, fleiss_, alpha_);
    for (std::size_t k : touched_) fleiss_[k] = alpha_[k] = 0;
    touched_.clear();
  }

 private:
  static std::size_t cats(const RatingTable& t) { return static_cast<std::size_t>(t.categories); }
  const RatingTable& t_;
  std::vector<std::int64_t> row_, fleiss_, alpha_;
  std::vector<std::size_t> touched_;
};

// Calls visitor.visit for every unit, or every cluster.
template <class F>
void for_each_unit(const RatingTable& t, const std::vector<std::int64_t>& offsets, Visitor& visitor, F&& f) {
  if (offsets.empty()) {
    for (std::int64_t u = 0; u < t.units; ++u) visitor.visit(u, u + 1, f);
  } else {
    for (std::size_t c = 0; c + 1 < offsets.size(); ++c) visitor.visit(offsets[c], offsets[c + 1], f);
  }
}

// The whole table's sums.
struct Totals {
  Part part;
  std::vector<std::int64_t> fleiss_col, alpha_col;
  i128 fleiss_q = 0, alpha_q = 0;  // sum of squares of the columns
};

double fleiss_value(std::int64_t units, std::int64_t sq, i128 q, int coders) {
  if (units <= 0) return kNaN;
  const i128 codes = static_cast<i128>(units) * coders;
  if (q == codes * codes) return kNaN;  // Pe == 1
  const double n = static_cast<double>(units), m = static_cast<double>(coders);
  const double p_mean = static_cast<double>(sq - units * coders) / (m * (m - 1.0)) / n;
  const double p_exp = static_cast<double>(q) / (static_cast<double>(codes) * static_cast<double>(codes));
  return (p_mean - p_exp) / (1.0 - p_exp);
}

double alpha_value(std::int64_t n, double disagreement, i128 q) {
  const i128 expected = static_cast<i128>(n) * n - q;
  if (n == 0 || expected == 0) return kNaN;
  return 1.0 - static_cast<double>(n - 1) * disagreement / static_cast<double>(expected);
}

// Running mean and sum of squared deviations (Welford 1962).
struct Moments {
  std::int64_t n = 0;
  double mean = 0, m2 = 0;
  void add(double x) {
    if (std::isnan(x)) return;
    ++n;
    const double d = x - mean;
    mean += d / static_cast<double>(n);
    m2 += d * (x - mean);
  }
  double jackknife_se() const {
    if (n < 2) return kNaN;
    return std::sqrt(static_cast<double>(n - 1) / static_cast<double>(n) * m2);
  }
};

void check_offsets(const RatingTable& t, const std::vector<std::int64_t>& offsets, const char* who) {
  if (offsets.empty()) return;
  if (offsets.front() != 0 || offsets.back() != t.units || !std::is_sorted(offsets.begin(), offsets.end()))
    throw std::invalid_argument(std::string(who) + ": cluster offsets must ascend from 0 to units");
}

}  // namespace

AgreementStandardErrors jackknife_agreement_se(const RatingTable& table, const std::vector<std::int64_t>& cluster_offsets) {
  validate(table);
  check_offsets(table, cluster_offsets, "jackknife_agreement_se");
  if (table.coders < 2) return {kNaN, kNaN};
  const auto categories = static_cast<std::size_t>(table.categories);
  Visitor visitor(table);
  Totals total;
  total.fleiss_col.assign(categories, 0);
  total.alpha_col.assign(categories, 0);
  for_each_unit(table, cluster_offsets, visitor,
                [&](const Part& p, const std::vector<std::size_t>& touched, const std::vector<std::int64_t>& f,
                    const std::vector<std::int64_t>& a) {
                  total.part.fleiss_units += p.fleiss_units;
                  total.part.fleiss_sq += p.fleiss_sq;
                  total.part.alpha_codes += p.alpha_codes;
                  total.part.alpha_disagreement += p.alpha_disagreement;
                  for (std::size_t k : touched) {
                    total.fleiss_col[k] += f[k];
                    total.alpha_col[k] += a[k];
                  }
                });
  for (std::size_t k = 0; k < categories; ++k) {
    total.fleiss_q += static_cast<i128>(total.fleiss_col[k]) * total.fleiss_col[k];
    total.alpha_q += static_cast<i128>(total.alpha_col[k]) * total.alpha_col[k];
  }
  const Part& all = total.part;
  const double kappa = fleiss_value(all.fleiss_units, all.fleiss_sq, total.fleiss_q, table.coders);
  const double alpha = alpha_value(all.alpha_codes, all.alpha_disagreement, total.alpha_q);

  Moments kappa_moments, alpha_moments;
  for_each_unit(table, cluster_offsets, visitor,
                [&](const Part& p, const std::vector<std::size_t>& touched, const std::vector<std::int64_t>& f,
                    const std::vector<std::int64_t>& a) {
                  i128 fleiss_cross = 0, fleiss_own = 0, alpha_cross = 0, alpha_own = 0;
                  for (std::size_t k : touched) {
                    fleiss_cross += static_cast<i128>(total.fleiss_col[k]) * f[k];
                    fleiss_own += static_cast<i128>(f[k]) * f[k];
                    alpha_cross += static_cast<i128>(total.alpha_col[k]) * a[k];
                    alpha_own += static_cast<i128>(a[k]) * a[k];
                  }
                  const double k_out = p.fleiss_units == 0
                                           ? kappa
                                           : fleiss_value(all.fleiss_units - p.fleiss_units, all.fleiss_sq - p.fleiss_sq,
                                                          total.fleiss_q - 2 * fleiss_cross + fleiss_own, table.coders);
                  const double a_out = p.alpha_codes == 0
                                           ? alpha
                                           : alpha_value(all.alpha_codes - p.alpha_codes,
                                                         all.alpha_disagreement - p.alpha_disagreement,
                                                         total.alpha_q - 2 * alpha_cross + alpha_own);
                  kappa_moments.add(k_out - kappa);
                  alpha_moments.add(a_out - alpha);
                });
  return {std::isnan(kappa) ? kNaN : kappa_moments.jackknife_se(), std::isnan(alpha) ? kNaN : alpha_moments.jackknife_se()};
}

AgreementIntervals jackknife_agreement(const RatingTable& table, double level, const std::vector<std::int64_t>& cluster_offsets) {
  if (!(level > 0.0 && level < 1.0)) throw std::invalid_argument("jackknife_agreement: level must be in (0, 1)");
  const AgreementStandardErrors se = jackknife_agreement_se(table, cluster_offsets);
  const double z = boost::math::quantile(boost::math::normal(), 1.0 - (1.0 - level) / 2.0);
  const auto interval = [z](double theta, double s) -> std::pair<double, double> {
    if (std::isnan(theta) || std::isnan(s)) return {kNaN, kNaN};
    return {theta - z * s, std::min(1.0, theta + z * s)};
  };
  return {interval(fleiss_kappa(table).kappa, se.fleiss_kappa), interval(krippendorff_alpha_nominal(table), se.krippendorff_alpha)};
}

IntervalMethod interval_method(std::int64_t resampled_units) {
  return resampled_units >= kJackknifeFromUnits ? IntervalMethod::jackknife : IntervalMethod::bootstrap;
}

const char* interval_method_name(IntervalMethod method) {
  return method == IntervalMethod::jackknife ? "jackknife" : "bootstrap";
}

AgreementIntervals agreement_intervals(const RatingTable& table, IntervalMethod method, int resamples, std::uint64_t seed,
                                       double level, const std::vector<std::int64_t>& cluster_offsets) {
  if (method == IntervalMethod::jackknife) return jackknife_agreement(table, level, cluster_offsets);
  return bootstrap_agreement(table, resamples, seed, level, cluster_offsets);
}

}  // namespace qualrank::stats
