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
// accurate. Integer sums are exact (64-bit; Q and its change are added in double, exact up to 2^53); the
// degenerate cases (Pe = 1, no expected disagreement: every code in one category) are decided exactly by
// counting the categories left nonzero. The order of the floating-point sums is the input order, so the
// result is the same bytes on every run.
#include "qualrank/analysis/agreement/agreement_jackknife.h"
#include "qualrank/analysis/stats.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include <boost/math/distributions/normal.hpp>

namespace qualrank::stats {
namespace {


// What one unit (or cluster) adds to the sums; the count vectors live in the scratch arrays of Visitor.
struct Part {
  std::int64_t fleiss_units = 0;  // complete rows
  std::int64_t fleiss_sq = 0;     // sum over complete rows of sum_j n_ij^2
  std::int64_t alpha_codes = 0;   // codes of pairable rows
  double alpha_disagreement = 0;  // sum over pairable rows of (m^2 - sum_c n_uc^2) / (m - 1)
};

// Walks the units (or clusters) of a table, giving each one's Part and count vectors.
class Visitor {
 public:
  explicit Visitor(const RatingTable& t) : t_(t), row_(cats(t)), fleiss_(cats(t)), alpha_(cats(t)) {}

  // Calls f(part, touched, fleiss_counts, alpha_counts) for rows [begin, end): the counts are indexed by
  // category and `touched` lists the categories whose alpha count is nonzero (every nonzero Fleiss count is
  // among them); the Fleiss counts are to be read only when part.fleiss_units > 0.
  template <class F>
  void visit(std::int64_t begin, std::int64_t end, F&& f) {
    const auto coders = static_cast<std::size_t>(t_.coders);
    Part part;
    const std::int64_t* fleiss = fleiss_.data();
    if (end - begin == 1) {  // one row: its own counts are the unit's (alpha's, and Fleiss' when complete)
      const int* row = t_.codes.data() + static_cast<std::size_t>(begin) * coders;
      std::int64_t m = 0, sq = 0;
      for (std::size_t c = 0; c < coders; ++c) {
        if (row[c] < 0) continue;
        const auto k = static_cast<std::size_t>(row[c]);
        if (alpha_[k] == 0) touched_.push_back(k);
        sq += 2 * alpha_[k]++ + 1;
        ++m;
      }
      if (m >= 2) {
        add_row(part, m, sq);
        fleiss = alpha_.data();
      } else {
        clear();  // not pairable: the unit adds nothing
      }
      f(part, touched_, fleiss, alpha_.data());
      clear();
      return;
    }
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
      const bool complete = add_row(part, m, sq);
      for (std::size_t c = 0; c < coders; ++c) {
        if (row[c] < 0) continue;
        const auto k = static_cast<std::size_t>(row[c]);
        if (alpha_[k]++ == 0) touched_.push_back(k);
        if (complete) ++fleiss_[k];
      }
    }
    f(part, touched_, fleiss, alpha_.data());
    for (std::size_t k : touched_) fleiss_[k] = 0;
    clear();
  }

 private:
  static std::size_t cats(const RatingTable& t) { return static_cast<std::size_t>(t.categories); }
  // Adds a pairable row with m codes and sum of squared counts sq; true if it is complete.
  bool add_row(Part& part, std::int64_t m, std::int64_t sq) const {
    part.alpha_codes += m;
    part.alpha_disagreement += static_cast<double>(m * m - sq) / static_cast<double>(m - 1);
    if (m != t_.coders) return false;
    ++part.fleiss_units;
    part.fleiss_sq += sq;
    return true;
  }
  void clear() {
    for (std::size_t k : touched_) alpha_[k] = 0;
    touched_.clear();
  }
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
  double fleiss_q = 0, alpha_q = 0;           // sum of squares of the columns
  std::int64_t fleiss_used = 0, alpha_used = 0;  // nonzero columns
};

// `categories`: how many columns are nonzero (fewer than 2: Pe = 1, undefined).
double fleiss_value(std::int64_t units, std::int64_t sq, double q, std::int64_t categories, int coders) {
  if (units <= 0 || categories < 2) return kNaN;
  const double n = static_cast<double>(units), m = static_cast<double>(coders);
  const double p_mean = static_cast<double>(sq - units * coders) / (m * (m - 1.0)) / n;
  const double p_exp = q / ((n * m) * (n * m));
  return (p_mean - p_exp) / (1.0 - p_exp);
}

// `categories` as above (fewer than 2: no expected disagreement, undefined).
double alpha_value(std::int64_t n, double disagreement, double q, std::int64_t categories) {
  if (n == 0 || categories < 2) return kNaN;
  const double codes = static_cast<double>(n);
  return 1.0 - (codes - 1.0) * disagreement / (codes * codes - q);
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

// Both statistics of the whole table and their jackknife standard errors.
struct Jackknife {
  double kappa, alpha;
  AgreementStandardErrors se;
};

Jackknife jackknife(const RatingTable& table, const std::vector<std::int64_t>& cluster_offsets, const char* who) {
  validate(table);
  check_offsets(table, cluster_offsets, who);
  if (table.coders < 2) return {kNaN, kNaN, {kNaN, kNaN}};
  const auto categories = static_cast<std::size_t>(table.categories);
  Visitor visitor(table);
  Totals total;
  total.fleiss_col.assign(categories, 0);
  total.alpha_col.assign(categories, 0);
  for_each_unit(table, cluster_offsets, visitor,
                [&](const Part& p, const std::vector<std::size_t>& touched, const std::int64_t* f, const std::int64_t* a) {
                  total.part.fleiss_units += p.fleiss_units;
                  total.part.fleiss_sq += p.fleiss_sq;
                  total.part.alpha_codes += p.alpha_codes;
                  total.part.alpha_disagreement += p.alpha_disagreement;
                  for (std::size_t k : touched) total.alpha_col[k] += a[k];
                  if (p.fleiss_units > 0)
                    for (std::size_t k : touched) total.fleiss_col[k] += f[k];
                });
  for (std::size_t k = 0; k < categories; ++k) {
    const auto f = static_cast<double>(total.fleiss_col[k]), a = static_cast<double>(total.alpha_col[k]);
    total.fleiss_q += f * f;
    total.alpha_q += a * a;
    total.fleiss_used += total.fleiss_col[k] > 0;
    total.alpha_used += total.alpha_col[k] > 0;
  }
  const Part& all = total.part;
  const double kappa = fleiss_value(all.fleiss_units, all.fleiss_sq, total.fleiss_q, total.fleiss_used, table.coders);
  const double alpha = alpha_value(all.alpha_codes, all.alpha_disagreement, total.alpha_q, total.alpha_used);

  Moments kappa_moments, alpha_moments;
  for_each_unit(table, cluster_offsets, visitor,
                [&](const Part& p, const std::vector<std::size_t>& touched, const std::int64_t* f, const std::int64_t* a) {
                  // change of Q: sum over the touched columns of (col - a)^2 - col^2 = a (a - 2 col)
                  std::int64_t fleiss_change = 0, alpha_change = 0, fleiss_emptied = 0, alpha_emptied = 0;
                  for (std::size_t k : touched) {
                    alpha_change += a[k] * (a[k] - 2 * total.alpha_col[k]);
                    alpha_emptied += a[k] == total.alpha_col[k];
                  }
                  if (p.fleiss_units > 0)
                    for (std::size_t k : touched) {
                      fleiss_change += f[k] * (f[k] - 2 * total.fleiss_col[k]);
                      fleiss_emptied += f[k] > 0 && f[k] == total.fleiss_col[k];
                    }
                  const double k_out =
                      p.fleiss_units == 0
                          ? kappa
                          : fleiss_value(all.fleiss_units - p.fleiss_units, all.fleiss_sq - p.fleiss_sq,
                                         total.fleiss_q + static_cast<double>(fleiss_change),
                                         total.fleiss_used - fleiss_emptied, table.coders);
                  const double a_out = p.alpha_codes == 0
                                           ? alpha
                                           : alpha_value(all.alpha_codes - p.alpha_codes,
                                                         all.alpha_disagreement - p.alpha_disagreement,
                                                         total.alpha_q + static_cast<double>(alpha_change),
                                                         total.alpha_used - alpha_emptied);
                  kappa_moments.add(k_out - kappa);
                  alpha_moments.add(a_out - alpha);
                });
  return {kappa, alpha,
          {std::isnan(kappa) ? kNaN : kappa_moments.jackknife_se(), std::isnan(alpha) ? kNaN : alpha_moments.jackknife_se()}};
}

}  // namespace

AgreementStandardErrors jackknife_agreement_se(const RatingTable& table, const std::vector<std::int64_t>& cluster_offsets) {
  return jackknife(table, cluster_offsets, "jackknife_agreement_se").se;
}

AgreementIntervals jackknife_agreement(const RatingTable& table, double level, const std::vector<std::int64_t>& cluster_offsets) {
  if (!(level > 0.0 && level < 1.0)) throw std::invalid_argument("jackknife_agreement: level must be in (0, 1)");
  const Jackknife j = jackknife(table, cluster_offsets, "jackknife_agreement");
  const double z = boost::math::quantile(boost::math::normal(), 1.0 - (1.0 - level) / 2.0);
  const auto interval = [z](double theta, double s) -> std::pair<double, double> {
    if (std::isnan(theta) || std::isnan(s)) return {kNaN, kNaN};
    return {theta - z * s, std::min(1.0, theta + z * s)};
  };
  return {interval(j.kappa, j.se.fleiss_kappa), interval(j.alpha, j.se.krippendorff_alpha)};
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
