// Bootstrap of Fleiss' kappa and Krippendorff's alpha (contract in agreement_bootstrap.h).
//
// Method: percentile bootstrap over units (Efron & Tibshirani 1993, ch. 13), as stats::bootstrap_ci does,
// but without building each resampled table. Both statistics depend on a unit only through the multiset of
// its codes, so rows are first grouped into distinct "patterns" (the sorted codes of the row). For each
// pattern we keep what the two statistics add up (Fleiss: complete?, sum_j n_ij^2 and the per-category
// counts; alpha: m_u, the per-unit disagreement numerator m_u^2 - sum_c n_uc^2 and the per-category
// counts). A replicate draws unit indices with the same Rng calls as bootstrap_ci, counts how often each
// pattern was drawn, and evaluates both statistics from the weighted sums, using the formulas of
// agreement_stats.cpp in the same order (Fleiss: integer sums, so identical replicates; alpha: the
// observed-disagreement sum is formed per m_u, so it may differ from a unit-by-unit sum in the last bits).
// Real label tables have few distinct patterns (coders mostly agree), so a replicate costs about one
// random draw and one counter increment per unit.
#include "qualrank/analysis/agreement_bootstrap.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "qualrank/analysis/stats.h"

namespace qualrank::stats {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

struct Pattern {
  bool complete = false;   // no missing code
  std::int64_t m = 0;      // codes in the unit
  std::int64_t sumsq = 0;  // sum_c n_uc^2
  std::size_t first = 0;   // start of its (category, count) pairs in Patterns::pairs
  std::size_t count = 0;   // number of pairs
};

struct Patterns {
  std::vector<Pattern> list;
  std::vector<std::pair<int, std::int64_t>> pairs;  // (category, n_uc) of every pattern, back to back
  std::vector<int> of_row;                          // pattern index of each row
};

std::uint64_t hash_codes(const int* codes, std::size_t n) {
  std::uint64_t h = 1469598103934665603ULL;
  for (std::size_t i = 0; i < n; ++i) {
    h ^= static_cast<std::uint32_t>(codes[i]);
    h *= 1099511628211ULL;
    h ^= h >> 29;
  }
  return h;
}

// Groups the rows of `t` by their sorted codes.
Patterns find_patterns(const RatingTable& t) {
  const auto coders = static_cast<std::size_t>(t.coders);
  Patterns out;
  out.of_row.resize(static_cast<std::size_t>(t.units));
  std::vector<int> keys;       // sorted codes of each pattern, coders per pattern
  std::vector<std::int32_t> slots(64, -1);
  std::vector<std::uint64_t> hashes;
  std::vector<int> sorted(coders);
  for (std::size_t u = 0; u < static_cast<std::size_t>(t.units); ++u) {
    const int* row = t.codes.data() + u * coders;
    std::copy(row, row + coders, sorted.begin());
    std::sort(sorted.begin(), sorted.end());
    const std::uint64_t h = hash_codes(sorted.data(), coders);
    std::size_t mask = slots.size() - 1, i = static_cast<std::size_t>(h) & mask;
    int found = -1;
    for (; slots[i] >= 0; i = (i + 1) & mask) {
      const auto p = static_cast<std::size_t>(slots[i]);
      if (hashes[p] == h && std::equal(sorted.begin(), sorted.end(), keys.begin() + static_cast<std::ptrdiff_t>(p * coders))) {
        found = slots[i];
        break;
      }
    }
    if (found < 0) {
      found = static_cast<int>(out.list.size());
      slots[i] = found;
      hashes.push_back(h);
      keys.insert(keys.end(), sorted.begin(), sorted.end());
      Pattern p;
      p.first = out.pairs.size();
      p.complete = coders > 0 && sorted.front() >= 0;
      for (std::size_t c = 0; c < coders;) {
        std::size_t e = c;
        while (e < coders && sorted[e] == sorted[c]) ++e;
        if (sorted[c] >= 0) {
          const auto n = static_cast<std::int64_t>(e - c);
          out.pairs.emplace_back(sorted[c], n);
          p.m += n;
          p.sumsq += n * n;
        }
        c = e;
      }
      p.count = out.pairs.size() - p.first;
      out.list.push_back(p);
      if (out.list.size() * 2 > slots.size()) {  // grow and rehash
        std::vector<std::int32_t> bigger(slots.size() * 2, -1);
        mask = bigger.size() - 1;
        for (std::size_t k = 0; k < hashes.size(); ++k) {
          std::size_t j = static_cast<std::size_t>(hashes[k]) & mask;
          while (bigger[j] >= 0) j = (j + 1) & mask;
          bigger[j] = static_cast<std::int32_t>(k);
        }
        slots.swap(bigger);
      }
    }
    out.of_row[u] = found;
  }
  return out;
}

// Both statistics of a replicate in which pattern p was drawn weight[p] times.
struct Accumulator {
  explicit Accumulator(const RatingTable& t)
      : coders(t.coders), col(static_cast<std::size_t>(t.categories)), n_c(col.size()),
        disagree(static_cast<std::size_t>(t.coders) + 1) {}

  std::pair<double, double> evaluate(const Patterns& patterns, const std::vector<std::int64_t>& weight) {
    std::fill(col.begin(), col.end(), 0);
    std::fill(n_c.begin(), n_c.end(), 0);
    std::fill(disagree.begin(), disagree.end(), 0);
    std::int64_t complete_units = 0, complete_sq = 0;
    for (std::size_t k = 0; k < patterns.list.size(); ++k) {
      const std::int64_t w = weight[k];
      if (w == 0) continue;
      const Pattern& p = patterns.list[k];
      const auto* pair = patterns.pairs.data() + p.first;
      if (p.complete) {
        complete_units += w;
        complete_sq += w * p.sumsq;
        for (std::size_t j = 0; j < p.count; ++j) col[static_cast<std::size_t>(pair[j].first)] += w * pair[j].second;
      }
      if (p.m >= 2) {
        disagree[static_cast<std::size_t>(p.m)] += w * (p.m * p.m - p.sumsq);
        for (std::size_t j = 0; j < p.count; ++j) n_c[static_cast<std::size_t>(pair[j].first)] += w * pair[j].second;
      }
    }
    return {fleiss(complete_units, complete_sq), alpha()};
  }

  // As fleiss_from_sums in agreement_stats.cpp.
  double fleiss(std::int64_t units, std::int64_t total_sq) const {
    if (units == 0 || coders < 2) return kNaN;
    const double n = static_cast<double>(units), m = static_cast<double>(coders);
    const double p_mean = static_cast<double>(total_sq - units * coders) / (m * (m - 1.0)) / n;
    double p_exp = 0.0;
    for (std::int64_t c : col) {
      const double p = static_cast<double>(c) / (n * m);
      p_exp += p * p;
    }
    if (1.0 - p_exp == 0.0) return kNaN;
    return (p_mean - p_exp) / (1.0 - p_exp);
  }

  // As krippendorff_alpha_nominal in agreement_stats.cpp.
  double alpha() const {
    double observed = 0.0;
    for (std::size_t m = 2; m < disagree.size(); ++m)
      observed += static_cast<double>(disagree[m]) / static_cast<double>(m - 1);
    std::int64_t n = 0, sum_sq = 0;
    for (std::int64_t v : n_c) {
      n += v;
      sum_sq += v * v;
    }
    const double expected = static_cast<double>(n) * static_cast<double>(n) - static_cast<double>(sum_sq);
    if (n == 0 || expected == 0.0) return kNaN;
    return 1.0 - static_cast<double>(n - 1) * observed / expected;
  }

  std::int64_t coders;
  std::vector<std::int64_t> col;       // Fleiss: per-category codes over complete units
  std::vector<std::int64_t> n_c;       // alpha: per-category pairable codes
  std::vector<std::int64_t> disagree;  // alpha: sum of m^2 - sum_c n_uc^2 over pairable units, by m
};

}  // namespace

AgreementIntervals bootstrap_agreement(const RatingTable& table, int resamples, std::uint64_t seed, double level,
                                       const std::vector<std::int64_t>& cluster_offsets) {
  validate(table);
  if (resamples < 1) throw std::invalid_argument("bootstrap_agreement: resamples must be >= 1");
  if (!(level > 0.0 && level < 1.0)) throw std::invalid_argument("bootstrap_agreement: level must be in (0, 1)");
  const bool clustered = !cluster_offsets.empty();
  if (clustered) {
    if (cluster_offsets.front() != 0 || cluster_offsets.back() != table.units ||
        !std::is_sorted(cluster_offsets.begin(), cluster_offsets.end()))
      throw std::invalid_argument("bootstrap_agreement: cluster offsets must ascend from 0 to units");
  }
  const auto draws = static_cast<std::uint64_t>(clustered ? cluster_offsets.size() - 1 : static_cast<std::size_t>(table.units));
  if (draws == 0) return {{kNaN, kNaN}, {kNaN, kNaN}};

  const Patterns patterns = find_patterns(table);
  Accumulator acc(table);
  std::vector<std::int64_t> weight(patterns.list.size());
  std::vector<double> fleiss, alpha;
  fleiss.reserve(static_cast<std::size_t>(resamples));
  alpha.reserve(static_cast<std::size_t>(resamples));
  Rng rng(seed);
  const int* of_row = patterns.of_row.data();
  for (int r = 0; r < resamples; ++r) {
    std::fill(weight.begin(), weight.end(), 0);
    if (!clustered) {
      for (std::uint64_t d = 0; d < draws; ++d) ++weight[static_cast<std::size_t>(of_row[rng.uniform_index(draws)])];
    } else {
      for (std::uint64_t d = 0; d < draws; ++d) {
        const auto k = static_cast<std::size_t>(rng.uniform_index(draws));
        for (auto row = cluster_offsets[k]; row < cluster_offsets[k + 1]; ++row)
          ++weight[static_cast<std::size_t>(of_row[row])];
      }
    }
    const auto [f, a] = acc.evaluate(patterns, weight);
    fleiss.push_back(f);
    alpha.push_back(a);
  }
  return {bootstrap_percentile_ci(fleiss, level), bootstrap_percentile_ci(alpha, level)};
}

}  // namespace qualrank::stats
