// Inter-coder agreement statistics for nominal codes (contracts in
// include/qualrank/analysis/agreement/agreement_stats.h).
//
// Methods and references:
//  * Fleiss' kappa: Fleiss (1971), "Measuring nominal scale agreement among many raters",
//    Psychological Bulletin 76(5), eqs. 2-9, computed exactly as statsmodels 0.13.5
//    stats/inter_rater.py fleiss_kappa(table, method='fleiss') on the units x categories count
//    table; the per-category kappa is Fleiss' eq. 12 (kappa_j).
//  * Krippendorff's alpha (nominal): the coincidence-matrix method of Krippendorff (2011),
//    "Computing Krippendorff's Alpha-Reliability" (Annenberg School), sections A-C; for the
//    nominal metric the coincidence matrix collapses to per-unit category counts, so a single pass
//    over the codes suffices.
//  * Specific (positive) agreement: Fleiss (1975), "Measuring agreement between two judges on the presence
//    or absence of a trait", Biometrics 31(3); Cicchetti & Feinstein (1990), "High agreement but low kappa:
//    II. Resolving the paradoxes", J Clin Epidemiol 43(6); de Vet, Mokkink, Terwee, Hoekstra & Knol (2013),
//    "Clinicians are right not to like Cohen's kappa", BMJ 346:f2125. For more than two coders the pairs of
//    every unit are pooled (Uebersax's specific agreement for many raters).
//  * Cohen's kappa: Cohen (1960), as statsmodels cohens_kappa(table) / sklearn
//    cohen_kappa_score (unweighted), computed from the confusion matrix's diagonal and marginals.
//  * Bootstrap: percentile interval of unit-resampled replicates (Efron & Tibshirani 1993,
//    ch. 13), quantiles as numpy.percentile (stats::bootstrap_percentile_ci). From 100,000 units on,
//    `qualrank agreement` reports the delete-one jackknife's normal interval instead (Efron & Tibshirani
//    1993, ch. 11; agreement_jackknife.cpp).
// All integer sufficient statistics are accumulated in 64-bit integers, so the only rounding is
// in the final few divisions; per-unit work uses one scratch vector (no per-unit allocation).
#include "qualrank/analysis/agreement/agreement_stats.h"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

#include "qualrank/analysis/stats.h"

namespace qualrank::stats {
namespace {


// Sufficient statistics of a complete (every unit coded m times) count table.
struct FleissSums {
  std::int64_t units = 0;          // N
  std::int64_t raters = 0;         // m
  std::vector<std::int64_t> col;   // sum_i n_ij
  std::vector<std::int64_t> sq;    // sum_i n_ij^2
};

double fleiss_from_sums(const FleissSums& s) {
  if (s.units == 0 || s.raters < 2) return kNaN;
  const double n = static_cast<double>(s.units), m = static_cast<double>(s.raters);
  std::int64_t total_sq = 0;
  for (std::int64_t v : s.sq) total_sq += v;
  const double p_mean = static_cast<double>(total_sq - s.units * s.raters) / (m * (m - 1.0)) / n;
  double p_exp = 0.0;
  for (std::int64_t c : s.col) {
    const double p = static_cast<double>(c) / (n * m);
    p_exp += p * p;
  }
  if (1.0 - p_exp == 0.0) return kNaN;  // one category only: 0/0 as in statsmodels
  return (p_mean - p_exp) / (1.0 - p_exp);
}

std::vector<double> per_category_from_sums(const FleissSums& s) {
  std::vector<double> out(s.col.size(), kNaN);
  if (s.units == 0 || s.raters < 2) return out;
  const double n = static_cast<double>(s.units), m = static_cast<double>(s.raters);
  for (std::size_t j = 0; j < s.col.size(); ++j) {
    const double p = static_cast<double>(s.col[j]) / (n * m);
    const double denom = n * m * (m - 1.0) * p * (1.0 - p);
    if (denom == 0.0) continue;  // category never or always used: 0/0
    const auto disagree = s.raters * s.col[j] - s.sq[j];  // sum_i n_ij (m - n_ij)
    out[j] = 1.0 - static_cast<double>(disagree) / denom;
  }
  return out;
}

FleissSums sums_from_counts(const std::vector<std::vector<int>>& counts) {
  FleissSums s;
  s.units = static_cast<std::int64_t>(counts.size());
  if (counts.empty()) return s;
  const std::size_t k = counts[0].size();
  s.col.assign(k, 0);
  s.sq.assign(k, 0);
  for (std::size_t i = 0; i < counts.size(); ++i) {
    if (counts[i].size() != k) throw std::invalid_argument("fleiss_kappa: ragged count table");
    std::int64_t row_total = 0;
    for (std::size_t j = 0; j < k; ++j) {
      const std::int64_t v = counts[i][j];
      if (v < 0) throw std::invalid_argument("fleiss_kappa: negative count");
      row_total += v;
      s.col[j] += v;
      s.sq[j] += v * v;
    }
    if (i == 0) s.raters = row_total;
    if (row_total != s.raters || row_total == 0)
      throw std::invalid_argument(
          "fleiss_kappa: every unit needs the same positive number of codes");
  }
  return s;
}

// One pass over the complete units of a validated table.
FleissSums sums_from_table(const RatingTable& t, std::int64_t& dropped) {
  FleissSums s;
  s.raters = t.coders;
  s.col.assign(static_cast<std::size_t>(t.categories), 0);
  s.sq.assign(static_cast<std::size_t>(t.categories), 0);
  std::vector<std::int64_t> cnt(static_cast<std::size_t>(t.categories), 0);
  dropped = 0;
  const auto coders = static_cast<std::size_t>(t.coders);
  for (std::size_t u = 0; u < static_cast<std::size_t>(t.units); ++u) {
    const int* row = t.codes.data() + u * coders;
    bool complete = true;
    for (std::size_t c = 0; c < coders; ++c) complete &= row[c] >= 0;
    if (!complete) {
      ++dropped;
      continue;
    }
    ++s.units;
    for (std::size_t c = 0; c < coders; ++c) ++cnt[static_cast<std::size_t>(row[c])];
    for (std::size_t c = 0; c < coders; ++c) {
      const auto j = static_cast<std::size_t>(row[c]);
      if (cnt[j] == 0) continue;  // category already folded in for this unit
      s.col[j] += cnt[j];
      s.sq[j] += cnt[j] * cnt[j];
      cnt[j] = 0;
    }
  }
  return s;
}

// Per-unit category counts over the non-missing codes of one row; the caller resets `cnt`
// with reset_counts. Returns m_u and sets sumsq = sum_c n_uc^2.
std::int64_t count_unit(const int* row, std::size_t coders, std::vector<std::int64_t>& cnt,
                        std::int64_t& sumsq) {
  std::int64_t m = 0;
  sumsq = 0;
  for (std::size_t c = 0; c < coders; ++c) {
    if (row[c] < 0) continue;
    std::int64_t& n = cnt[static_cast<std::size_t>(row[c])];
    sumsq += 2 * n + 1;  // (n + 1)^2 - n^2
    ++n;
    ++m;
  }
  return m;
}

void reset_counts(const int* row, std::size_t coders, std::vector<std::int64_t>& cnt) {
  for (std::size_t c = 0; c < coders; ++c)
    if (row[c] >= 0) cnt[static_cast<std::size_t>(row[c])] = 0;
}

}  // namespace

void validate(const RatingTable& t) {
  if (t.units < 0 || t.coders < 0 || t.categories < 1)
    throw std::invalid_argument("RatingTable: units/coders must be >= 0 and categories >= 1");
  if (t.codes.size() != static_cast<std::size_t>(t.units) * static_cast<std::size_t>(t.coders))
    throw std::invalid_argument("RatingTable: codes.size() != units * coders");
  for (std::size_t i = 0; i < t.codes.size(); ++i) {
    const int v = t.codes[i];
    if (v < -1 || v >= t.categories)
      throw std::invalid_argument("RatingTable: code " + std::to_string(v) + " at index " +
                                  std::to_string(i) + " outside [-1, categories)");
  }
}

FleissKappa fleiss_kappa(const RatingTable& table) {
  validate(table);
  std::int64_t dropped = 0;
  const FleissSums s = sums_from_table(table, dropped);
  return {fleiss_from_sums(s), s.units, dropped};
}

double fleiss_kappa_counts(const std::vector<std::vector<int>>& counts) {
  return fleiss_from_sums(sums_from_counts(counts));
}

std::vector<double> fleiss_kappa_per_category(const RatingTable& table) {
  validate(table);
  std::int64_t dropped = 0;
  return per_category_from_sums(sums_from_table(table, dropped));
}

std::vector<double> fleiss_kappa_per_category_counts(const std::vector<std::vector<int>>& counts) {
  return per_category_from_sums(sums_from_counts(counts));
}

double krippendorff_alpha_nominal(const RatingTable& table) {
  validate(table);
  const auto coders = static_cast<std::size_t>(table.coders);
  std::vector<std::int64_t> cnt(static_cast<std::size_t>(table.categories), 0);
  std::vector<std::int64_t> n_c(cnt.size(), 0);  // pairable values per category
  double observed = 0.0;                          // sum_{c != k} o_ck
  for (std::size_t u = 0; u < static_cast<std::size_t>(table.units); ++u) {
    const int* row = table.codes.data() + u * coders;
    std::int64_t sumsq = 0;
    const std::int64_t m = count_unit(row, coders, cnt, sumsq);
    if (m >= 2) {
      observed += static_cast<double>(m * m - sumsq) / static_cast<double>(m - 1);
      for (std::size_t c = 0; c < coders; ++c)
        if (row[c] >= 0) ++n_c[static_cast<std::size_t>(row[c])];
    }
    reset_counts(row, coders, cnt);
  }
  std::int64_t n = 0, sum_sq = 0;
  for (std::int64_t v : n_c) {
    n += v;
    sum_sq += v * v;
  }
  const double nd = static_cast<double>(n);
  const double expected = nd * nd - static_cast<double>(sum_sq);  // sum_{c != k} n_c n_k
  if (n == 0 || expected == 0.0) return kNaN;
  return 1.0 - static_cast<double>(n - 1) * observed / expected;
}

double cohen_kappa(const std::vector<int>& a, const std::vector<int>& b, int categories) {
  if (a.size() != b.size()) throw std::invalid_argument("cohen_kappa: a and b differ in length");
  if (categories < 1) throw std::invalid_argument("cohen_kappa: categories must be >= 1");
  const auto k = static_cast<std::size_t>(categories);
  std::vector<std::int64_t> row(k, 0), col(k, 0);
  std::int64_t agree = 0, nobs = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i] < -1 || a[i] >= categories || b[i] < -1 || b[i] >= categories)
      throw std::invalid_argument("cohen_kappa: code outside [-1, categories)");
    if (a[i] < 0 || b[i] < 0) continue;
    ++row[static_cast<std::size_t>(a[i])];
    ++col[static_cast<std::size_t>(b[i])];
    agree += a[i] == b[i];
    ++nobs;
  }
  if (nobs == 0) return kNaN;
  const double nd = static_cast<double>(nobs);
  double p_exp = 0.0;
  for (std::size_t j = 0; j < k; ++j)
    p_exp += (static_cast<double>(row[j]) / nd) * (static_cast<double>(col[j]) / nd);
  if (1.0 - p_exp == 0.0) return kNaN;
  return (static_cast<double>(agree) / nd - p_exp) / (1.0 - p_exp);
}

double percent_agreement(const RatingTable& table) {
  validate(table);
  const auto coders = static_cast<std::size_t>(table.coders);
  std::vector<std::int64_t> cnt(static_cast<std::size_t>(table.categories), 0);
  double total = 0.0;
  std::int64_t used = 0;
  for (std::size_t u = 0; u < static_cast<std::size_t>(table.units); ++u) {
    const int* row = table.codes.data() + u * coders;
    std::int64_t sumsq = 0;
    const std::int64_t m = count_unit(row, coders, cnt, sumsq);
    reset_counts(row, coders, cnt);
    if (m < 2) continue;
    total += static_cast<double>(sumsq - m) / static_cast<double>(m * (m - 1));
    ++used;
  }
  return used == 0 ? kNaN : total / static_cast<double>(used);
}

std::int64_t pairable_units(const RatingTable& table) {
  validate(table);
  const auto coders = static_cast<std::size_t>(table.coders);
  std::int64_t used = 0;
  for (std::size_t u = 0; u < static_cast<std::size_t>(table.units); ++u) {
    const int* row = table.codes.data() + u * coders;
    used += std::count_if(row, row + coders, [](int v) { return v >= 0; }) >= 2;
  }
  return used;
}

AllAgree all_agree(const RatingTable& table) {
  validate(table);
  AllAgree out;
  const auto coders = static_cast<std::size_t>(table.coders);
  for (std::size_t u = 0; u < static_cast<std::size_t>(table.units); ++u) {
    const int* row = table.codes.data() + u * coders;
    if (std::any_of(row, row + coders, [](int v) { return v < 0; })) continue;
    ++out.units;
    out.agreeing += std::all_of(row, row + coders, [&](int v) { return v == row[0]; });
  }
  out.share = out.units == 0 || table.coders < 2 ? kNaN : static_cast<double>(out.agreeing) / static_cast<double>(out.units);
  return out;
}

std::vector<double> specific_agreement(const RatingTable& table) {
  validate(table);
  const auto coders = static_cast<std::size_t>(table.coders);
  const auto k = static_cast<std::size_t>(table.categories);
  std::vector<std::int64_t> cnt(k, 0), agree(k, 0), any(k, 0);  // sum n_uj (n_uj - 1), sum n_uj (m_u - 1)
  for (std::size_t u = 0; u < static_cast<std::size_t>(table.units); ++u) {
    const int* row = table.codes.data() + u * coders;
    std::int64_t sumsq = 0;
    const std::int64_t m = count_unit(row, coders, cnt, sumsq);
    if (m >= 2)
      for (std::size_t c = 0; c < coders; ++c) {
        if (row[c] < 0) continue;
        const auto j = static_cast<std::size_t>(row[c]);
        if (cnt[j] == 0) continue;  // category already added for this unit
        agree[j] += cnt[j] * (cnt[j] - 1);
        any[j] += cnt[j] * (m - 1);
        cnt[j] = 0;
      }
    reset_counts(row, coders, cnt);
  }
  std::vector<double> out(k, kNaN);
  for (std::size_t j = 0; j < k; ++j)
    if (any[j] > 0) out[j] = static_cast<double>(agree[j]) / static_cast<double>(any[j]);
  return out;
}

std::pair<double, double> bootstrap_ci(const RatingTable& table,
                                       const std::function<double(const RatingTable&)>& statistic,
                                       int resamples, std::uint64_t seed, double level) {
  validate(table);
  if (resamples < 1) throw std::invalid_argument("bootstrap_ci: resamples must be >= 1");
  if (!(level > 0.0 && level < 1.0))
    throw std::invalid_argument("bootstrap_ci: level must be in (0, 1)");
  if (table.units == 0) return {kNaN, kNaN};
  RatingTable sample{table.units, table.coders, table.categories, table.codes};
  const auto coders = static_cast<std::size_t>(table.coders);
  const auto units = static_cast<std::uint64_t>(table.units);
  std::vector<double> replicates;
  replicates.reserve(static_cast<std::size_t>(resamples));
  Rng rng(seed);
  for (int r = 0; r < resamples; ++r) {
    int* dst = sample.codes.data();
    for (std::uint64_t u = 0; u < units; ++u, dst += coders) {
      const int* src = table.codes.data() + rng.uniform_index(units) * coders;
      std::copy(src, src + coders, dst);
    }
    replicates.push_back(statistic(sample));
  }
  return bootstrap_percentile_ci(replicates, level);
}

}  // namespace qualrank::stats
