// Bootstrap of Fleiss' kappa and Krippendorff's alpha (contract in agreement_bootstrap.h).
//
// Method: percentile bootstrap over units (Efron & Tibshirani 1993, ch. 13), as stats::bootstrap_ci does,
// but without building each resampled table or touching a per-unit array. Both statistics depend on a unit
// only through the multiset of its codes, so rows are first grouped into distinct "patterns" (the sorted
// codes of the row). For each pattern we keep what the two statistics add up (Fleiss: complete?,
// sum_j n_ij^2 and the per-category counts; alpha: m_u, the per-unit disagreement numerator
// m_u^2 - sum_c n_uc^2 and the per-category counts), and a replicate only needs how often each pattern was
// drawn. Drawing N units with replacement makes those counts Multinomial(N, f_k / N), f_k = rows with
// pattern k, so a replicate draws N times from the K patterns with Walker's alias method (Walker 1977;
// Vose 1991): column = high 64 bits of x * K for a 64-bit random x, and the coin = the next 32 bits of the
// product (its low half), compared with the column's 32-bit threshold; the K-entry table stays in cache.
// The table is built in exact integer arithmetic (column masses f_k * K against N), so it is the same on
// every platform. With clusters, the thing drawn is a cluster: clusters with the same pattern-count vector
// are merged into one column weighted by how many there are, and a drawn column adds its vector. Both
// statistics are then evaluated from the weighted sums with the formulas of agreement_stats.cpp.
//
// Random numbers: xoshiro256** (Blackman & Vigna, "Scrambled linear pseudorandom number generators", ACM
// TOMS 47(4), 2021; reference code at https://prng.di.unimi.it/xoshiro256starstar.c). Replicate r has its
// own generator whose four state words are outputs 4r+1 .. 4r+4 of splitmix64 (Steele, Lea & Flood 2014,
// https://prng.di.unimi.it/splitmix64.c) started at state mix(seed), mix being splitmix64's output
// function (a bijection: two seeds' streams overlap only if their starting states are within
// 4 * resamples steps, a chance of about resamples / 2^61). Seeding xoshiro from splitmix64 is what its
// authors recommend. So replicate r's draws depend only on (seed, r), and replicates run on up to two
// threads (each writes its result at index r) give the same bytes as one.
//
// Exactness: the column is biased by at most K / 2^64 and each threshold is rounded down to 2^-32, so one
// draw is within total variation distance about 2^-32 of the exact f_k / N, and a replicate of N draws
// within N * 2^-32 of the exact multinomial (2.3e-4 for a million units): far below Monte Carlo error.
#include "qualrank/analysis/agreement/agreement_bootstrap.h"

#include <algorithm>
#include <cmath>
#include <atomic>
#include <limits>
#include <map>
#include <stdexcept>
#include <system_error>
#include <thread>

#include "qualrank/analysis/stats.h"

namespace qualrank::stats {
namespace {

__extension__ typedef unsigned __int128 u128;  // GCC/Clang extension; silences -Wpedantic

// ---- random numbers ---------------------------------------------------------------------------------

constexpr std::uint64_t kGolden = 0x9E3779B97F4A7C15ULL;  // splitmix64's increment

std::uint64_t splitmix64_mix(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

// xoshiro256** 1.0 for replicate r: state = outputs 4r+1 .. 4r+4 of splitmix64 started at mix(seed).
class ReplicateRng {
 public:
  ReplicateRng(std::uint64_t seed, std::uint64_t replicate) {
    std::uint64_t x = splitmix64_mix(seed) + 4 * replicate * kGolden;  // splitmix64 state before output 4r+1
    for (auto& word : s_) word = splitmix64_mix(x += kGolden);
  }
  std::uint64_t next() {
    const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }

 private:
  std::uint64_t s_[4];
};

// ---- distinct rows ----------------------------------------------------------------------------------

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

// Groups the rows of `t` by their sorted codes; patterns are numbered in order of first appearance.
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
  // Renumber by descending row count (ties: first appearance): the often-drawn patterns then share cache
  // lines in the per-replicate counters.
  std::vector<std::int64_t> rows(out.list.size(), 0);
  for (int p : out.of_row) ++rows[static_cast<std::size_t>(p)];
  std::vector<int> order(out.list.size()), number(out.list.size());
  for (std::size_t k = 0; k < order.size(); ++k) order[k] = static_cast<int>(k);
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return rows[static_cast<std::size_t>(a)] > rows[static_cast<std::size_t>(b)]; });
  std::vector<Pattern> sorted_list(out.list.size());
  for (std::size_t k = 0; k < order.size(); ++k) {
    sorted_list[k] = out.list[static_cast<std::size_t>(order[k])];
    number[static_cast<std::size_t>(order[k])] = static_cast<int>(k);
  }
  out.list.swap(sorted_list);
  for (int& p : out.of_row) p = number[static_cast<std::size_t>(p)];
  return out;
}

// ---- what a replicate draws -------------------------------------------------------------------------

// The columns of the alias table: each column is a distinct pattern-count vector (one pattern with count 1
// when units are not clustered), with the number of units (clusters) that have it.
struct Columns {
  std::vector<std::int64_t> frequency;
  std::vector<std::size_t> first;                          // start of its (pattern, count) pairs; size + 1
  std::vector<std::pair<std::uint32_t, std::int64_t>> pairs;  // (pattern, rows of that pattern)
};

Columns unit_columns(const Patterns& patterns) {
  Columns out;
  out.frequency.assign(patterns.list.size(), 0);
  for (int p : patterns.of_row) ++out.frequency[static_cast<std::size_t>(p)];
  for (std::size_t p = 0; p < patterns.list.size(); ++p) {
    out.first.push_back(p);
    out.pairs.emplace_back(static_cast<std::uint32_t>(p), 1);
  }
  out.first.push_back(out.pairs.size());
  return out;
}

// Merges clusters with the same multiset of row patterns; columns by descending frequency, ties in order
// of first appearance (as patterns are numbered, so one row per cluster gives exactly unit_columns).
Columns cluster_columns(const Patterns& patterns, const std::vector<std::int64_t>& offsets) {
  using Vector = std::vector<std::pair<std::uint32_t, std::int64_t>>;
  std::map<Vector, std::size_t> index;
  std::vector<const Vector*> vectors;  // in order of first appearance
  std::vector<std::int64_t> frequency;
  std::vector<std::uint32_t> rows;
  Vector vec;
  for (std::size_t c = 0; c + 1 < offsets.size(); ++c) {
    rows.clear();
    for (auto row = offsets[c]; row < offsets[c + 1]; ++row)
      rows.push_back(static_cast<std::uint32_t>(patterns.of_row[static_cast<std::size_t>(row)]));
    std::sort(rows.begin(), rows.end());
    vec.clear();
    for (std::size_t i = 0; i < rows.size();) {
      std::size_t e = i;
      while (e < rows.size() && rows[e] == rows[i]) ++e;
      vec.emplace_back(rows[i], static_cast<std::int64_t>(e - i));
      i = e;
    }
    const auto [it, added] = index.try_emplace(vec, frequency.size());
    if (added) {
      vectors.push_back(&it->first);
      frequency.push_back(0);
    }
    ++frequency[it->second];
  }
  std::vector<std::size_t> order(frequency.size());
  for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return frequency[a] > frequency[b]; });
  Columns out;
  for (std::size_t k : order) {
    out.frequency.push_back(frequency[k]);
    out.first.push_back(out.pairs.size());
    out.pairs.insert(out.pairs.end(), vectors[k]->begin(), vectors[k]->end());
  }
  out.first.push_back(out.pairs.size());
  return out;
}

// Walker's alias table for drawing column k with probability frequency[k] / total.
struct AliasEntry {
  std::uint32_t threshold;  // keep the column if the 32-bit coin is below this, else take `alias`
  std::uint32_t alias;
};

// Vose's construction in integers: column k has mass frequency[k] * K in units where a full column is
// `total`; a column below `total` is topped up from one above it. Stacks are processed in index order,
// so the table is fully determined by the frequencies.
std::vector<AliasEntry> alias_table(const std::vector<std::int64_t>& frequency, std::int64_t total) {
  const std::size_t k = frequency.size();
  const u128 full = static_cast<u128>(total);
  std::vector<u128> mass(k);
  std::vector<std::uint32_t> small, large;
  std::vector<AliasEntry> table(k);
  for (std::size_t i = 0; i < k; ++i) {
    mass[i] = static_cast<u128>(frequency[i]) * k;
    table[i] = {0, static_cast<std::uint32_t>(i)};  // a full column: always itself
    (mass[i] < full ? small : large).push_back(static_cast<std::uint32_t>(i));
  }
  while (!small.empty() && !large.empty()) {
    const std::uint32_t s = small.back(), l = large.back();
    small.pop_back();
    large.pop_back();
    table[s] = {static_cast<std::uint32_t>((mass[s] << 32) / full), l};  // floor(2^32 * mass / total)
    mass[l] -= full - mass[s];
    (mass[l] < full ? small : large).push_back(l);
  }
  return table;  // the columns left over are exactly full (the masses sum to K * total)
}

// ---- one replicate ----------------------------------------------------------------------------------

// Both statistics are functions of integer sums that are linear in the pattern weights w_k (times pattern k
// was drawn), with C categories and M coders:
//   Fleiss: col[c] = sum over complete k of w_k n_kc, and sq = sum over complete k of w_k sumsq_k
//           (complete units = sum_c col[c] / M, as each has M codes);
//   alpha:  n_c[c] = col[c] + the same sum over incomplete k with m_k >= 2; the disagreement numerator
//           sum of w_k (m_k^2 - sumsq_k) is, for m = M (complete units), M^2 * units - sq, and for m < M a sum
//           over the incomplete k with m_k = m.
// Each sum is a list of (pattern, coefficient) terms in pattern order, so a replicate evaluates them with
// gathers and multiply-adds into registers, without scattered writes.
struct LinearSums {
  struct Term {
    std::uint32_t pattern;
    std::int32_t coefficient;  // n_kc, sumsq_k or m_k^2 - sumsq_k: at most M^2 (M <= kMaxCoders)
  };
  static constexpr int kMaxCoders = 46340;  // M^2 < 2^31

  LinearSums(const Patterns& patterns, int coders_, int categories_) : coders(coders_), categories(categories_) {
    const auto c = static_cast<std::size_t>(categories);
    std::vector<std::vector<Term>> sums(1 + 2 * c + static_cast<std::size_t>(std::max(coders - 2, 0)));
    for (std::size_t k = 0; k < patterns.list.size(); ++k) {
      const Pattern& p = patterns.list[k];
      const auto pattern = static_cast<std::uint32_t>(k);
      const auto* pair = patterns.pairs.data() + p.first;
      const auto add = [&](std::size_t sum, std::int64_t coefficient) {
        sums[sum].push_back({pattern, static_cast<std::int32_t>(coefficient)});
      };
      if (p.complete) {
        add(0, p.sumsq);
        for (std::size_t j = 0; j < p.count; ++j) add(1 + static_cast<std::size_t>(pair[j].first), pair[j].second);
      } else if (p.m >= 2) {
        add(1 + 2 * c + static_cast<std::size_t>(p.m - 2), p.m * p.m - p.sumsq);
        for (std::size_t j = 0; j < p.count; ++j) add(1 + c + static_cast<std::size_t>(pair[j].first), pair[j].second);
      }
    }
    for (const auto& s : sums) {
      terms.insert(terms.end(), s.begin(), s.end());
      end.push_back(terms.size());
    }
  }

  // Fleiss' kappa and alpha of the replicate with pattern weights `w`; `sum` is scratch of end.size().
  template <class Weight>
  std::pair<double, double> evaluate(const Weight* w, std::vector<std::int64_t>& sum) const {
    std::size_t j = 0;
    for (std::size_t s = 0; s < end.size(); ++s) {
      std::int64_t acc = 0;
      for (; j < end[s]; ++j) acc += static_cast<std::int64_t>(w[terms[j].pattern]) * terms[j].coefficient;
      sum[s] = acc;
    }
    const auto c = static_cast<std::size_t>(categories);
    const std::int64_t* col = sum.data() + 1;
    std::int64_t codes = 0;
    for (std::size_t i = 0; i < c; ++i) codes += col[i];
    const std::int64_t units = codes / coders, sq = sum[0];
    return {fleiss(col, units, sq), alpha(col, sum.data() + 1 + c, sum.data() + 1 + 2 * c, units, sq)};
  }

  // As fleiss_from_sums in agreement_stats.cpp.
  double fleiss(const std::int64_t* col, std::int64_t units, std::int64_t total_sq) const {
    if (units == 0) return kNaN;
    const double n = static_cast<double>(units), m = static_cast<double>(coders);
    const double p_mean = static_cast<double>(total_sq - units * coders) / (m * (m - 1.0)) / n;
    double p_exp = 0.0;
    for (int i = 0; i < categories; ++i) {
      const double p = static_cast<double>(col[i]) / (n * m);
      p_exp += p * p;
    }
    if (1.0 - p_exp == 0.0) return kNaN;
    return (p_mean - p_exp) / (1.0 - p_exp);
  }

  // As krippendorff_alpha_nominal in agreement_stats.cpp, with the observed disagreement summed by m.
  double alpha(const std::int64_t* col, const std::int64_t* incomplete_col, const std::int64_t* disagree_below,
               std::int64_t units, std::int64_t sq) const {
    double observed = 0.0;
    for (std::int64_t m = 2; m < coders; ++m)
      observed += static_cast<double>(disagree_below[m - 2]) / static_cast<double>(m - 1);
    observed += static_cast<double>(std::int64_t{coders} * coders * units - sq) / static_cast<double>(coders - 1);
    std::int64_t n = 0, sum_sq = 0;
    for (int i = 0; i < categories; ++i) {
      const std::int64_t v = col[i] + incomplete_col[i];
      n += v;
      sum_sq += v * v;
    }
    const double expected = static_cast<double>(n) * static_cast<double>(n) - static_cast<double>(sum_sq);
    if (n == 0 || expected == 0.0) return kNaN;
    return 1.0 - static_cast<double>(n - 1) * observed / expected;
  }

  int coders, categories;  // coders >= 2
  std::vector<Term> terms;
  // sum s is terms [end[s - 1], end[s]): sq, col[C], incomplete n_c[C], disagreement for m = 2 .. M-1
  std::vector<std::size_t> end;
};

// Everything a replicate reads (shared, read-only) and where the replicates are stored.
struct Job {
  const LinearSums& sums;
  const Columns& columns;
  bool unit_columns;  // column k is pattern k with count 1
  const std::vector<AliasEntry>& alias;
  std::uint64_t draws;
  std::uint64_t seed;
  std::vector<double>& fleiss;
  std::vector<double>& alpha;
};

// The alias draw: column = high 64 bits of x * K, coin = bits 32..63 of the low half (x * K mod 2^64).
// Branch-free, as the coin is unpredictable.
inline std::uint32_t pick(const AliasEntry* table, std::uint32_t column, std::uint32_t coin) {
  const AliasEntry e = table[column];
  const std::uint32_t keep = 0u - static_cast<std::uint32_t>(coin < e.threshold);  // all ones or zero
  return (column & keep) | (e.alias & ~keep);
}

// One thread's scratch space; run() takes blocks of replicates until none is left.
struct Worker {
  Worker(std::size_t patterns, const Job& job)
      : drawn(job.alias.size()), weight(job.unit_columns ? 0 : patterns), sum(job.sums.end.size()) {}

  void run(const Job& job, std::atomic<int>& next, int resamples) noexcept {
    constexpr int kBlock = 4;
    for (int begin; (begin = next.fetch_add(kBlock, std::memory_order_relaxed)) < resamples;)
      for (int r = begin; r < std::min(begin + kBlock, resamples); ++r) replicate(job, r);
  }

  void replicate(const Job& job, int r) {
    ReplicateRng rng(job.seed, static_cast<std::uint64_t>(r));
    std::fill(drawn.begin(), drawn.end(), 0);
    const std::uint64_t columns = job.alias.size();
    const AliasEntry* table = job.alias.data();
    std::uint32_t* count = drawn.data();
    // In batches: first the random numbers (pure arithmetic, with the table row and counter prefetched),
    // then the lookups, so that many cache misses on a large table are in flight at once.
    constexpr std::uint64_t kBatch = 64;
    std::uint32_t batch_column[kBatch], batch_coin[kBatch];
    for (std::uint64_t done = 0; done < job.draws; done += kBatch) {
      const std::uint64_t n = std::min(kBatch, job.draws - done);
      for (std::uint64_t i = 0; i < n; ++i) {
        const std::uint64_t x = rng.next();
        batch_column[i] = static_cast<std::uint32_t>((static_cast<u128>(x) * columns) >> 64);
        batch_coin[i] = static_cast<std::uint32_t>((x * columns) >> 32);
        __builtin_prefetch(table + batch_column[i]);
        __builtin_prefetch(count + batch_column[i], 1);
      }
      for (std::uint64_t i = 0; i < n; ++i) ++count[pick(table, batch_column[i], batch_coin[i])];
    }
    std::pair<double, double> stats;
    if (job.unit_columns) {
      stats = job.sums.evaluate(drawn.data(), sum);
    } else {
      std::fill(weight.begin(), weight.end(), 0);
      const auto& c = job.columns;
      for (std::size_t k = 0; k < drawn.size(); ++k)
        for (std::size_t j = c.first[k]; j < c.first[k + 1]; ++j)
          weight[c.pairs[j].first] += static_cast<std::int64_t>(drawn[k]) * c.pairs[j].second;
      stats = job.sums.evaluate(weight.data(), sum);
    }
    job.fleiss[static_cast<std::size_t>(r)] = stats.first;
    job.alpha[static_cast<std::size_t>(r)] = stats.second;
  }

  std::vector<std::uint32_t> drawn;  // times each alias column was drawn (draws <= units < 2^31)
  std::vector<std::int64_t> weight;  // clusters: times each pattern was drawn
  std::vector<std::int64_t> sum;     // LinearSums scratch
};

}  // namespace

AgreementIntervals bootstrap_agreement(const RatingTable& table, int resamples, std::uint64_t seed, double level,
                                       const std::vector<std::int64_t>& cluster_offsets, int threads) {
  validate(table);
  if (resamples < 1) throw std::invalid_argument("bootstrap_agreement: resamples must be >= 1");
  if (!(level > 0.0 && level < 1.0)) throw std::invalid_argument("bootstrap_agreement: level must be in (0, 1)");
  if (threads < 0) throw std::invalid_argument("bootstrap_agreement: threads must be >= 0");
  if (table.coders > LinearSums::kMaxCoders) throw std::invalid_argument("bootstrap_agreement: more than 46340 coders");
  const bool clustered = !cluster_offsets.empty();
  if (clustered) {
    if (cluster_offsets.front() != 0 || cluster_offsets.back() != table.units ||
        !std::is_sorted(cluster_offsets.begin(), cluster_offsets.end()))
      throw std::invalid_argument("bootstrap_agreement: cluster offsets must ascend from 0 to units");
  }
  const auto draws = static_cast<std::int64_t>(clustered ? cluster_offsets.size() - 1 : static_cast<std::size_t>(table.units));
  // Fewer than two coders: no pairable unit, both statistics undefined in every replicate.
  if (draws == 0 || table.coders < 2) return {{kNaN, kNaN}, {kNaN, kNaN}};

  const Patterns patterns = find_patterns(table);
  const LinearSums sums(patterns, table.coders, table.categories);
  const Columns columns = clustered ? cluster_columns(patterns, cluster_offsets) : unit_columns(patterns);
  const std::vector<AliasEntry> alias = alias_table(columns.frequency, draws);
  std::vector<double> fleiss(static_cast<std::size_t>(resamples)), alpha(fleiss.size());
  const Job job{sums, columns, !clustered, alias, static_cast<std::uint64_t>(draws), seed, fleiss, alpha};

  int workers = threads;
  if (workers == 0) workers = static_cast<int>(std::clamp(std::thread::hardware_concurrency(), 1u, 2u));
  workers = std::min(workers, resamples);
  std::vector<Worker> scratch;
  scratch.reserve(static_cast<std::size_t>(workers));
  for (int w = 0; w < workers; ++w) scratch.emplace_back(patterns.list.size(), job);
  std::atomic<int> next{0};
  std::vector<std::thread> helpers;
  helpers.reserve(static_cast<std::size_t>(workers));
  for (int w = 1; w < workers; ++w) {
    try {
      helpers.emplace_back([&, w] { scratch[static_cast<std::size_t>(w)].run(job, next, resamples); });
    } catch (const std::system_error&) {
      break;  // no more threads: the calling thread takes their share
    }
  }
  scratch[0].run(job, next, resamples);
  for (auto& h : helpers) h.join();
  return {bootstrap_percentile_ci(fleiss, level), bootstrap_percentile_ci(alpha, level)};
}

std::string small_sample_ci_warning(std::int64_t resampled, const std::string& what, double level, std::int64_t minimum) {
  if (resampled >= minimum) return "";
  return "the " + std::to_string(static_cast<int>(std::lround(level * 100))) + "% CIs resample only " + std::to_string(resampled) + " " + what +
         "; with fewer than " + std::to_string(minimum) + " they are unstable and too narrow";
}

}  // namespace qualrank::stats
