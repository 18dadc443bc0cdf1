// Sampling documents for labelling: Cochran's sample size for a proportion with the finite-population
// correction, proportional allocation to strata by largest remainders, and a seeded draw (docs/corpus.md).
#pragma once
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "qualrank/analysis/corpus/corpus_screening.h"
#include "qualrank/analysis/stats.h"

namespace qualrank::corpus {

// The standard normal quantile: z with Phi(z) = q, for q in (0, 1) (Acklam's approximation refined by two
// Newton steps on std::erfc; |error| < 1e-12). q outside (0, 1) -> std::invalid_argument.
double normal_quantile(double q);

struct SampleSize {
  double z = 0;       // two-sided: normal_quantile(1 - (1 - confidence) / 2)
  double n0 = 0;      // z^2 p (1 - p) / e^2, the size for an infinite population
  std::size_t n = 0;  // ceil(n0 / (1 + (n0 - 1) / N)), at most N
};

// Cochran (1977, "Sampling Techniques", 3rd ed., eqs. 4.2 and 4.3; as in Singh & Mangat 1996, "Elements of
// Survey Sampling"): n0 = z^2 p (1 - p) / e^2 and n = n0 / (1 + (n0 - 1) / N), rounded up. N == 0 gives n = 0.
// confidence and p in (0, 1), margin in (0, 1), else std::invalid_argument.
SampleSize cochran_sample_size(std::size_t population, double confidence, double margin, double p);

// Proportional allocation of `n` over strata of `sizes` by largest remainders (Hamilton's method): stratum h
// gets floor(n N_h / N), and the units left over go one each to the strata with the largest remainders
// n N_h mod N, ties to the earlier stratum; no stratum gets more than its size. n > N -> std::invalid_argument.
std::vector<std::size_t> allocate_proportional(std::size_t n, const std::vector<std::size_t>& sizes);

// `k` distinct indices of [0, population) drawn uniformly by a partial Fisher-Yates shuffle (k draws of
// rng.uniform_index), returned sorted. k > population -> std::invalid_argument.
std::vector<std::size_t> draw_without_replacement(std::size_t population, std::size_t k, stats::Rng& rng);

// The population a sample is drawn from: the retrieved documents that screening under `rule` does not exclude
// and that no earlier sample (`left_out`) holds; grouped by source in name order when `stratify`, else one
// group "", each in retrieved (stored) order: the order the draw indexes.
struct SamplePopulation {
  std::map<std::string, std::vector<std::string>> strata;
  std::size_t size = 0;        // N
  std::size_t excluded = 0;    // false positives under the rule
  std::size_t in_samples = 0;  // retrieved, kept, but in a left-out sample
};
SamplePopulation sample_population(const std::vector<RetrievedRef>& retrieved, const std::vector<ScreenerDecisions>& screeners,
                                   ExclusionRule rule, const std::set<std::string>& left_out, bool stratify);
// The SHA-256 of the population's SOURCE#ID list, one per line in drawing order: what a sample records.
std::string population_sha256(const SamplePopulation& p);

}  // namespace qualrank::corpus
