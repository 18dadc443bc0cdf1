// Ranking statistics: pure functions, no I/O, no global state.
// Every function mirrors a named SciPy 1.10 / statsmodels 0.13 / NumPy 1.24 routine with its
// default arguments; the tests in tests/unit/analysis_stats_test.cpp pin the values.
// Conventions shared by all functions:
//  * an "undefined" result (0/0, constant input, too few observations) is reported as a quiet
//    NaN in the affected fields, never as an exception;
//  * a malformed call (vectors whose lengths must match but do not, ragged matrices, negative
//    resample counts) throws std::invalid_argument.
#pragma once
#include <limits>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace qualrank::stats {

// What an undefined statistic is (0/0, too few values): a quiet NaN, printed as "n/a" or "—".
inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// 1-based ranks with ties replaced by the mean of the ranks they span, exactly as
// scipy.stats.rankdata(x, method='average'). Empty input -> empty output. If any element is NaN
// the whole result is NaN (SciPy's nan_policy='propagate').
std::vector<double> average_ranks(const std::vector<double>& x);

struct Correlation {
  double statistic;  // the coefficient (rho or tau)
  double pvalue;     // two-sided
};

// Spearman's rho as scipy.stats.spearmanr(x, y): Pearson correlation of the average ranks,
// two-sided p-value from Student's t with n-2 degrees of freedom.
//  * x.size() != y.size() -> std::invalid_argument;
//  * n < 2, either vector constant, or any NaN -> {NaN, NaN};
//  * n == 2 -> rho = +-1 and pvalue NaN (0 degrees of freedom), as SciPy;
//  * identical (or exactly reversed) rank vectors -> rho exactly 1 (-1); with n > 2, pvalue 0.
Correlation spearman(const std::vector<double>& x, const std::vector<double>& y);

// The most items for which spearman_p_exact walks every pairing (9! = 362,880 of them, a few milliseconds).
inline constexpr std::size_t kSpearmanExactMaxN = 9;
// The exact two-sided p-value of Spearman's rho from all n! pairings of y with x, as
// scipy.stats.permutation_test((x,), lambda a: spearmanr(a, y).statistic, permutation_type='pairings',
// n_resamples=np.inf): min(1, 2 min(P(rho* >= rho), P(rho* <= rho))). For two identical 3-item orders 1/3
// (where spearman's t-based p is 0). Ties are kept (average ranks). Which comparisons use it: ranking.h.
//  * size mismatch, or n > kSpearmanExactMaxN -> std::invalid_argument;
//  * n < 2, either vector constant, or any NaN -> NaN (as spearman); n == 2 -> 1.
double spearman_p_exact(const std::vector<double>& x, const std::vector<double>& y);

// Kendall's tau-b as scipy.stats.kendalltau(x, y) (SciPy 1.10, method='auto', two-sided):
// the exact null distribution when neither vector has ties and (n <= 33 or
// min(discordant, n(n-1)/2 - discordant) <= 1), otherwise the normal approximation with the
// tie-corrected variance. O(n log n).
//  * size mismatch -> std::invalid_argument;
//  * n == 0, any NaN, or either vector constant (includes n == 1) -> {NaN, NaN};
//  * n == 2 without ties -> tau = +-1, pvalue 1 (as SciPy);
//  * perfect (or perfectly reversed) agreement -> tau exactly 1 (-1).
Correlation kendall_tau_b(const std::vector<double>& x, const std::vector<double>& y);

struct MannWhitney {
  double u;       // U statistic of the FIRST sample: R1 - n1(n1+1)/2 (counts a-wins + ties/2)
  double pvalue;  // two-sided
};

// Mann-Whitney U as scipy.stats.mannwhitneyu(a, b) (SciPy 1.10 defaults: two-sided,
// use_continuity=True, method='auto'). 'auto' uses the exact null distribution when
// min(n1, n2) <= 8 and the pooled sample has no ties; otherwise the normal approximation with
// tie correction and continuity correction. p is clipped to [0, 1].
//  * an empty sample -> std::invalid_argument (SciPy raises too);
//  * any NaN -> {NaN, NaN};
//  * every pooled value tied -> pvalue 1 (zero variance: z = -inf), as SciPy.
MannWhitney mann_whitney_u(const std::vector<double>& a, const std::vector<double>& b);

// The smallest two-sided p-value mann_whitney_u can return for samples of sizes n1 and n2, whatever the
// data: the minimum over the two methods mann_whitney_u uses. Exact (when min(n1, n2) <= 8 and the pooled
// sample has no ties): complete separation, U = n1 n2, p = 2 / C(n1 + n2, n1), capped at 1. Normal
// approximation (every other case): complete separation with each sample tied within itself (one value for
// all of a, another for all of b), which has the largest |U - n1 n2 / 2| and the smallest tie-corrected
// variance, so the largest z: sd = sqrt(n1 n2 / 12 ((N + 1) - ((n1^3 - n1) + (n2^3 - n2)) / (N (N - 1)))),
// z = (n1 n2 / 2 - 0.5) / sd, p = 2 norm.sf(z). Both values are reachable by rankings (every member of one
// group puts the item first, every member of the other puts it last), so the smaller one is the bound.
//  * n1 < 1 or n2 < 1 -> std::invalid_argument.
double mann_whitney_min_p(std::int64_t n1, std::int64_t n2);

struct KruskalWallis {
  double h;       // tie-corrected H
  double pvalue;  // chi-square survival function with k - 1 degrees of freedom
};

// Kruskal-Wallis H test as scipy.stats.kruskal(*groups) (SciPy 1.10; Kruskal & Wallis 1952): average
// ranks of the pooled sample, H = 12 / (N (N + 1)) sum_i R_i^2 / n_i - 3 (N + 1), divided by the tie
// correction 1 - sum(t^3 - t) / (N^3 - N); p = chi2.sf(H, k - 1).
//  * fewer than two groups or an empty group -> std::invalid_argument (SciPy raises too);
//  * any NaN, or every pooled value equal (SciPy raises "All numbers are identical") -> {NaN, NaN}.
KruskalWallis kruskal_wallis(const std::vector<std::vector<double>>& groups);

// Epsilon-squared effect size of the Kruskal-Wallis test (Tomczak & Tomczak 2014, "The need to report
// effect size estimates revisited", Trends in Sport Sciences 21(1), eq. 11): E^2 = H / ((n^2 - 1) / (n + 1)),
// i.e. H / (n - 1), n = total observations. n < 2 or H NaN -> NaN.
double epsilon_squared(double h, std::int64_t n);

// Holm step-down adjusted p-values, in the input order, as
// statsmodels.stats.multitest.multipletests(p, method='holm')[1]. Values are capped at 1.
// NaN entries count as tests (they sort last) and come back as NaN, as statsmodels.
std::vector<double> holm(const std::vector<double>& p);

// Cliff's delta = (#{(i,j): a_i > b_j} - #{(i,j): a_i < b_j}) / (n_a n_b), in [-1, 1].
// Sign convention: POSITIVE when values in `a` tend to be larger than values in `b`.
// Either sample empty or any NaN -> NaN. O((n_a + n_b) log n_b).
double cliffs_delta(const std::vector<double>& a, const std::vector<double>& b);

struct KendallW {
  double w;       // coefficient of concordance in [0, 1]
  double chi2;    // m (n - 1) W, the tie-corrected Friedman statistic
  double pvalue;  // chi-square survival function with n - 1 degrees of freedom
};

// Kendall's coefficient of concordance W with the tie correction.
// rankings[i][j] = rank that rater i gave item j (rows = m raters, columns = n items); each row
// should already be ranks (average ranks for ties). With R_j the column sums,
// S = sum_j (R_j - mean R)^2 and T_i = sum over tie groups of rater i of (t^3 - t):
//   W = 12 S / (m^2 (n^3 - n) - m sum_i T_i),  chi2 = m (n - 1) W.
//  * ragged rows -> std::invalid_argument;
//  * m < 2, n < 2, any NaN, or a zero denominator (every rater ties every item) -> all NaN.
KendallW kendall_w(const std::vector<std::vector<double>>& rankings);

// The q-th percentile (q in [0, 100]) as numpy.percentile(values, q) with the default 'linear'
// method: sorted values, virtual index (n - 1) q / 100, NumPy's lerp. NaNs are dropped first
// (unlike numpy.percentile, which would return NaN). No finite value -> NaN.
// q outside [0, 100] -> std::invalid_argument.
double percentile(std::vector<double> values, double q);

// The most bootstrap resamples a command takes (--resamples of rank, agreement, report, package; README "Safety
// and limits"): intervals are stable long before, and the replicates are kept, 16 bytes each.
inline constexpr int kMaxResamples = 1000000;

// Percentile bootstrap interval: {percentile(stats, 50 (1 - level)), percentile(stats,
// 50 (1 + level))}; level 0.95 gives numpy.percentile(stats, [2.5, 97.5]). NaN statistics
// (undefined resamples) are dropped. No finite statistic -> {NaN, NaN}.
// level outside (0, 1) -> std::invalid_argument.
std::pair<double, double> bootstrap_percentile_ci(const std::vector<double>& stats,
                                                  double level = 0.95);

// Deterministic random numbers that are byte-identical across compilers and standard
// libraries: MT19937-64 (Matsumoto & Nishimura 1998; Nishimura 2000), whose output sequence the C++
// standard fixes for std::mt19937_64 (the 10000th output of the default seed is 9981545732273789042),
// plus our own range reduction (std::uniform_int_distribution's algorithm is implementation-defined).
// The engine is written here rather than taken from <random>: libstdc++'s twist branches on each word's
// low bit, a coin flip the processor mispredicts half the time; here it is a mask, and the twist runs
// several times faster for the same numbers (a bootstrap of 10,000 resamples draws 10^8 of them).
class Rng {
 public:
  explicit Rng(std::uint64_t seed);
  // Raw 64-bit output of the engine: std::mt19937_64(seed)'s sequence.
  std::uint64_t next() {
    if (index_ >= kN) twist();
    return temper(state_[index_++]);
  }
  // Uniform integer in [0, n) by Lemire's multiply-and-reject method (unbiased).
  // n == 0 -> std::invalid_argument.
  std::uint64_t uniform_index(std::uint64_t n) {
    const u128 prod = static_cast<u128>(next()) * n;
    if (static_cast<std::uint64_t>(prod) < n || n == 0) return uniform_index_slow(n, prod);
    return static_cast<std::uint64_t>(prod >> 64);
  }
  // Uniform double in [0, 1) with 53 random bits.
  double uniform01() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  // out[0..count) = what `count` calls of uniform_index(n) return, in order, leaving the engine where they
  // would: the engine's words are tempered and multiplied a block at a time, off the caller's loop (a
  // bootstrap's draws then cost about half as much). n == 0 -> std::invalid_argument.
  void uniform_indices(std::uint64_t n, std::uint64_t* out, std::size_t count);

 private:
  __extension__ typedef unsigned __int128 u128;  // GCC/Clang extension; silences -Wpedantic
  static constexpr std::size_t kN = 312, kM = 156;
  // The engine's output from a word of its state ([rand.eng.mers]'s tempering).
  static std::uint64_t temper(std::uint64_t y) {
    y ^= (y >> 29) & 0x5555555555555555ULL;
    y ^= (y << 17) & 0x71D67FFFEDA60000ULL;
    y ^= (y << 37) & 0xFFF7EEE000000000ULL;
    return y ^ (y >> 43);
  }
  void twist();
  std::uint64_t uniform_index_slow(std::uint64_t n, u128 prod);
  std::uint64_t state_[kN];
  std::size_t index_ = kN;
};

// Bootstrap of the Spearman correlation between two groups' mean-rank vectors.
// group_a_ranks / group_b_ranks: rows = participants, columns = items (same item count k).
// For each of `resamples` replicates (in order): draw n_a rows of group A with replacement
// (Rng::uniform_index, n_a draws), then n_b rows of group B, average each group's drawn rows
// per item, and store spearman(mean_a, mean_b).statistic. One Rng(seed) drives the whole run,
// so the output is reproducible for a given seed. A replicate whose mean vector is constant
// yields NaN (as spearman does). Allocation-free inside the resample loop. A group of more than 2,000
// participants whose answers take at most a quarter as many distinct rank vectors is resampled as counts per
// distinct vector (multinomial, by conditional binomials: Hormann's BTRS): the same bootstrap distribution at
// a cost that does not grow with the group (a ranking table at its 100,000-row limit), other draws.
//  * an empty group, ragged rows, differing item counts, or resamples < 0
//    -> std::invalid_argument. k < 2 gives all-NaN replicates.
std::vector<double> bootstrap_spearman(const std::vector<std::vector<double>>& group_a_ranks,
                                       const std::vector<std::vector<double>>& group_b_ranks,
                                       int resamples, std::uint64_t seed);

namespace detail {
// bootstrap_spearman with the group size above which a group is resampled as counts per distinct rank vector
// (bootstrap_spearman: 2,000; SIZE_MAX: never; tests compare the two ways).
std::vector<double> bootstrap_spearman(const std::vector<std::vector<double>>& group_a_ranks,
                                       const std::vector<std::vector<double>>& group_b_ranks, int resamples,
                                       std::uint64_t seed, std::size_t pattern_min_rows);

// Exact two-sided p-value of Kendall's tau without ties: port of SciPy 1.10
// scipy.stats._mstats_basic._kendall_p_exact(n, c, 'two-sided'), c = concordant pairs.
// n <= 0 or c outside [0, n(n-1)/2] -> std::invalid_argument.
double kendall_p_exact(std::int64_t n, std::int64_t c);

// Exact survival function P(U >= k) of the Mann-Whitney U statistic for sample sizes m and n
// without ties; same values as SciPy 1.10's _mwu_state.sf(k, m, n).
// m, n < 1 or k outside [0, m n] -> std::invalid_argument.
double mann_whitney_exact_sf(std::int64_t k, std::int64_t m, std::int64_t n);
}  // namespace detail

}  // namespace qualrank::stats
