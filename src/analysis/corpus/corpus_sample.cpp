// Sample size and allocation for labelling a corpus. The size is Cochran's (1977, "Sampling Techniques",
// 3rd ed., Wiley, section 4.4) for estimating a proportion p within a margin of error e at a confidence level,
// n0 = z^2 p (1 - p) / e^2, corrected for a finite population of N documents, n = n0 / (1 + (n0 - 1) / N), and
// rounded up; Singh & Mangat (1996, "Elements of Survey Sampling", Kluwer) give the same formulas, and are what
// the studies of issue reports cite. p = 0.5 maximises p (1 - p), the conservative choice. A stratified sample
// allocates n in proportion to the strata's sizes, rounded by largest remainders (Hamilton's method, so the
// allocations sum to n exactly). The draw is a partial Fisher-Yates shuffle driven by stats::Rng (a seeded
// mt19937_64 with our own range reduction), so the same seed gives the same sample on every platform.
#include "qualrank/analysis/corpus/corpus_sample.h"

#include "qualrank/util/sha256.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

#include "qualrank/analysis/stats.h"
#include "qualrank/util/sha256.h"

namespace qualrank::corpus {

double normal_quantile(double q) {
  if (!(q > 0 && q < 1)) throw std::invalid_argument("normal_quantile: q must lie in (0, 1)");
  // Acklam's rational approximation.
  static const double a[] = {-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
                             1.383577518672690e+02, -3.066479806614716e+01, 2.506628277459239e+00};
  static const double b[] = {-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
                             6.680131188771972e+01, -1.328068155288572e+01};
  static const double c[] = {-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
                             -2.549732539343734e+00, 4.374664141464968e+00, 2.938163982698783e+00};
  static const double d[] = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00, 3.754408661907416e+00};
  double x;
  if (q < 0.02425) {
    double t = std::sqrt(-2 * std::log(q));
    x = (((((c[0] * t + c[1]) * t + c[2]) * t + c[3]) * t + c[4]) * t + c[5]) / ((((d[0] * t + d[1]) * t + d[2]) * t + d[3]) * t + 1);
  } else if (q > 1 - 0.02425) {
    double t = std::sqrt(-2 * std::log(1 - q));
    x = -(((((c[0] * t + c[1]) * t + c[2]) * t + c[3]) * t + c[4]) * t + c[5]) / ((((d[0] * t + d[1]) * t + d[2]) * t + d[3]) * t + 1);
  } else {
    double t = q - 0.5, r = t * t;
    x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * t /
        (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
  }
  // Newton steps on Phi(x) - q, Phi(x) = erfc(-x / sqrt 2) / 2.
  for (int k = 0; k < 2; ++k) {
    double e = 0.5 * std::erfc(-x / std::sqrt(2.0)) - q;
    double u = e * std::sqrt(2 * M_PI) * std::exp(x * x / 2);
    x = x - u / (1 + x * u / 2);
  }
  return x;
}

SampleSize cochran_sample_size(std::size_t population, double confidence, double margin, double p) {
  if (!(confidence > 0 && confidence < 1)) throw std::invalid_argument("confidence must lie in (0, 1)");
  if (!(margin > 0 && margin < 1)) throw std::invalid_argument("margin must lie in (0, 1)");
  if (!(p > 0 && p < 1)) throw std::invalid_argument("p must lie in (0, 1)");
  SampleSize s;
  s.z = normal_quantile(1 - (1 - confidence) / 2);
  s.n0 = s.z * s.z * p * (1 - p) / (margin * margin);
  if (population == 0) return s;
  const double N = static_cast<double>(population);
  const double n = s.n0 / (1 + (s.n0 - 1) / N);
  // Rounded up; a value within 1e-9 of an integer is that integer (no rounding up of floating-point noise).
  double up = std::ceil(n - 1e-9);
  s.n = std::min(population, static_cast<std::size_t>(std::max(up, 1.0)));
  return s;
}

std::vector<std::size_t> allocate_proportional(std::size_t n, const std::vector<std::size_t>& sizes) {
  const std::size_t N = std::accumulate(sizes.begin(), sizes.end(), std::size_t{0});
  if (n > N) throw std::invalid_argument("allocate_proportional: n exceeds the population");
  std::vector<std::size_t> out(sizes.size(), 0);
  if (N == 0) return out;
  std::vector<std::pair<std::size_t, std::size_t>> remainders;  // (remainder, stratum)
  std::size_t given = 0;
  for (std::size_t h = 0; h < sizes.size(); ++h) {
    // n * N_h fits in 64 bits for any corpus under the import limits (2^20 documents).
    const std::size_t prod = n * sizes[h];
    out[h] = prod / N;
    given += out[h];
    remainders.emplace_back(prod % N, h);
  }
  std::stable_sort(remainders.begin(), remainders.end(), [](const auto& x, const auto& y) { return x.first > y.first; });
  for (std::size_t k = 0; given < n && k < remainders.size(); ++k) {
    auto h = remainders[k].second;
    if (out[h] < sizes[h]) {
      ++out[h];
      ++given;
    }
  }
  return out;
}

std::vector<std::size_t> draw_without_replacement(std::size_t population, std::size_t k, stats::Rng& rng) {
  if (k > population) throw std::invalid_argument("draw_without_replacement: k exceeds the population");
  std::vector<std::size_t> idx(population);
  std::iota(idx.begin(), idx.end(), std::size_t{0});
  for (std::size_t i = 0; i < k; ++i) {
    auto j = i + static_cast<std::size_t>(rng.uniform_index(population - i));
    std::swap(idx[i], idx[j]);
  }
  idx.resize(k);
  std::sort(idx.begin(), idx.end());
  return idx;
}

SamplePopulation sample_population(const std::vector<RetrievedRef>& retrieved, const std::vector<ScreenerDecisions>& screeners,
                                   ExclusionRule rule, const std::set<std::string>& left_out, bool stratify) {
  SamplePopulation out;
  const auto status = screening_status(retrieved, screeners, rule);
  const std::set<std::string> excluded(status.excluded_docs.begin(), status.excluded_docs.end());
  out.excluded = excluded.size();
  for (const auto& r : retrieved) {
    if (excluded.count(r.doc)) continue;
    if (left_out.count(r.doc)) {
      ++out.in_samples;
      continue;
    }
    out.strata[stratify ? r.source : std::string()].push_back(r.doc);
    ++out.size;
  }
  return out;
}

std::string population_sha256(const SamplePopulation& p) {
  std::string list;
  for (const auto& [s, docs] : p.strata)
    for (const auto& d : docs) list += d + "\n";
  return sha256_hex(list);
}

}  // namespace qualrank::corpus
