// Ranking statistics (see include/qualrank/analysis/stats.h for the contracts).
//
// Methods and references. Each function reproduces the default behaviour of SciPy 1.10.1
// (scipy/stats/_stats_py.py, _mstats_basic.py, _mannwhitneyu.py), statsmodels 0.13.5
// (stats/multitest.py) or NumPy 1.24 (lib/function_base.py), including their degenerate cases:
//  * average_ranks   = scipy.stats.rankdata(method='average');
//  * spearman        = scipy.stats.spearmanr: Pearson r of average ranks (as np.corrcoef,
//                      clipped to [-1, 1]); p = 2 stdtr(n-2, -|t|), t = r sqrt((n-2)/((1+r)(1-r)));
//                      identical or exactly reversed rank vectors give exactly +-1 (and p = 0, as
//                      SciPy), where the floating-point sums could round to 0.9999999999999999;
//  * kendall_tau_b   = scipy.stats.kendalltau: tau-b from concordant/discordant/tied pair counts
//                      (O(n log n): lexicographic sort + merge-sort inversion count); p from
//                      _kendall_p_exact (Kendall 1970, "Rank Correlation Methods", 4th ed.) or
//                      the normal approximation with the tie-corrected variance; perfect
//                      (reversed) agreement is exactly +-1, decided on the integer pair counts;
//  * mann_whitney_u  = scipy.stats.mannwhitneyu: exact null distribution of U (Loeffler 1982,
//                      the recursion of SciPy's _MWU class) or the normal approximation with tie
//                      and continuity correction;
//  * mann_whitney_min_p: the extreme U under each of mann_whitney_u's two methods (see stats.h);
//  * kruskal_wallis  = scipy.stats.kruskal (Kruskal & Wallis 1952, tie-corrected H, chi-square p);
//  * epsilon_squared = Tomczak & Tomczak (2014), E^2 = H / ((n^2 - 1) / (n + 1));
//  * holm            = statsmodels multipletests(method='holm');
//  * kendall_w       = Kendall & Babington Smith (1939) with the tie correction (Siegel &
//                      Castellan 1988, eq. 9.16); chi2 = m(n-1)W equals Friedman's tie-corrected
//                      statistic (scipy.stats.friedmanchisquare);
//  * percentile      = numpy.percentile(method='linear') (Hyndman & Fan type 7).
// Normal tail probabilities use std::erfc; Student's t and chi-square use Boost.Math.
#include "qualrank/analysis/stats.h"

#include <algorithm>
#include <map>
#include <optional>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>

#include <boost/math/distributions/chi_squared.hpp>
#include <boost/math/distributions/students_t.hpp>

namespace qualrank::stats {
namespace {


bool any_nan(const std::vector<double>& v) {
  return std::any_of(v.begin(), v.end(), [](double d) { return std::isnan(d); });
}

// Two-sided normal p-value 2 * norm.sf(|z|).
double normal_two_sided(double z) { return std::erfc(std::fabs(z) / std::sqrt(2.0)); }

// Scratch space for the allocation-free Spearman rho used by spearman() and the bootstrap.
struct RhoScratch {
  std::vector<std::size_t> order;
  std::vector<double> rx, ry;
  void resize(std::size_t n) {
    order.resize(n);
    rx.resize(n);
    ry.resize(n);
  }
};

// Average ranks of v[0..n) into out (v must not contain NaN).
void rank_into(const double* v, std::size_t n, std::size_t* order, double* out) {
  std::iota(order, order + n, std::size_t{0});
  std::sort(order, order + n, [v](std::size_t a, std::size_t b) { return v[a] < v[b]; });
  std::size_t start = 0;
  while (start < n) {
    std::size_t end = start + 1;
    while (end < n && v[order[end]] == v[order[start]]) ++end;
    const double r = 0.5 * static_cast<double>(start + 1 + end);  // mean of start+1 .. end
    for (std::size_t i = start; i < end; ++i) out[order[i]] = r;
    start = end;
  }
}

bool is_constant(const double* v, std::size_t n) {
  for (std::size_t i = 1; i < n; ++i)
    if (v[i] != v[0]) return false;
  return true;
}

// Spearman rho of x and y (length n >= 2, no NaN); NaN when either is constant.
double spearman_rho(const double* x, const double* y, std::size_t n, RhoScratch& s) {
  if (n < 2 || is_constant(x, n) || is_constant(y, n)) return kNaN;
  rank_into(x, n, s.order.data(), s.rx.data());
  rank_into(y, n, s.order.data(), s.ry.data());
  // Identical or exactly reversed rankings: exactly +-1 (the sums below can round to 0.9999999999999999,
  // which would turn SciPy's p of 0 into a tiny positive number).
  if (std::equal(s.rx.begin(), s.rx.begin() + static_cast<std::ptrdiff_t>(n), s.ry.begin())) return 1.0;
  const double reversed_sum = static_cast<double>(n) + 1.0;
  bool reversed = true;
  for (std::size_t i = 0; i < n && reversed; ++i) reversed = s.rx[i] + s.ry[i] == reversed_sum;
  if (reversed) return -1.0;
  double mx = 0, my = 0;
  for (std::size_t i = 0; i < n; ++i) {
    mx += s.rx[i];
    my += s.ry[i];
  }
  mx /= static_cast<double>(n);
  my /= static_cast<double>(n);
  double sxx = 0, syy = 0, sxy = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double dx = s.rx[i] - mx, dy = s.ry[i] - my;
    sxx += dx * dx;
    syy += dy * dy;
    sxy += dx * dy;
  }
  const double r = sxy / std::sqrt(sxx) / std::sqrt(syy);
  return std::clamp(r, -1.0, 1.0);
}

// Tie statistics of one sorted sequence: sum t(t-1)/2, sum t(t-1)(t-2), sum t(t-1)(2t+5).
struct TieCounts {
  std::int64_t pairs = 0;
  double v0 = 0, v1 = 0;
};

template <class Equal>
TieCounts count_ties(std::size_t n, Equal equal) {
  TieCounts tc;
  std::size_t start = 0;
  while (start < n) {
    std::size_t end = start + 1;
    while (end < n && equal(start, end)) ++end;
    const auto t = static_cast<std::int64_t>(end - start);
    if (t > 1) {
      const double td = static_cast<double>(t);
      tc.pairs += t * (t - 1) / 2;
      tc.v0 += td * (td - 1.0) * (td - 2.0);
      tc.v1 += td * (td - 1.0) * (2.0 * td + 5.0);
    }
    start = end;
  }
  return tc;
}

// Number of pairs i < j with v[i] > v[j] (strict), by bottom-up merge sort; v is consumed.
std::int64_t count_inversions(std::vector<double>& v) {
  const std::size_t n = v.size();
  std::vector<double> buf(n);
  std::int64_t inv = 0;
  for (std::size_t width = 1; width < n; width *= 2) {
    for (std::size_t lo = 0; lo < n; lo += 2 * width) {
      const std::size_t mid = std::min(lo + width, n), hi = std::min(lo + 2 * width, n);
      std::size_t i = lo, j = mid, k = lo;
      while (i < mid && j < hi) {
        if (v[j] < v[i]) {
          inv += static_cast<std::int64_t>(mid - i);
          buf[k++] = v[j++];
        } else {
          buf[k++] = v[i++];
        }
      }
      while (i < mid) buf[k++] = v[i++];
      while (j < hi) buf[k++] = v[j++];
    }
    v.swap(buf);
  }
  return inv;
}

double factorial(std::int64_t n) {
  double f = 1.0;
  for (std::int64_t i = 2; i <= n; ++i) f *= static_cast<double>(i);
  return f;
}

}  // namespace

std::vector<double> average_ranks(const std::vector<double>& x) {
  if (any_nan(x)) return std::vector<double>(x.size(), kNaN);
  std::vector<double> out(x.size());
  std::vector<std::size_t> order(x.size());
  rank_into(x.data(), x.size(), order.data(), out.data());
  return out;
}

Correlation spearman(const std::vector<double>& x, const std::vector<double>& y) {
  if (x.size() != y.size()) throw std::invalid_argument("spearman: x and y differ in length");
  const std::size_t n = x.size();
  if (n < 2 || any_nan(x) || any_nan(y)) return {kNaN, kNaN};
  RhoScratch s;
  s.resize(n);
  const double rho = spearman_rho(x.data(), y.data(), n, s);
  if (std::isnan(rho)) return {kNaN, kNaN};
  if (n == 2) return {rho, kNaN};  // 0 degrees of freedom: SciPy's t is 0/0
  const double dof = static_cast<double>(n - 2);
  const double t = rho * std::sqrt(std::max(0.0, dof / ((rho + 1.0) * (1.0 - rho))));
  if (std::isinf(t)) return {rho, 0.0};
  const boost::math::students_t dist(dof);
  return {rho, 2.0 * boost::math::cdf(dist, -std::fabs(t))};
}

namespace detail {

double kendall_p_exact(std::int64_t n, std::int64_t c) {
  if (n <= 0) throw std::invalid_argument("kendall_p_exact: n must be positive");
  const std::int64_t tot = n * (n - 1) / 2;
  if (c < 0 || c > tot) throw std::invalid_argument("kendall_p_exact: c out of range");
  c = std::min(c, tot - c);  // the distribution is symmetric: use the left tail
  double prob;
  if (n == 1 || n == 2) {
    prob = 1.0;
  } else if (c == 0) {
    prob = n < 171 ? 2.0 / factorial(n) : 0.0;
  } else if (c == 1) {
    prob = n < 172 ? 2.0 / factorial(n - 1) : 0.0;
  } else if (4 * c == n * (n - 1)) {
    prob = 1.0;
  } else {
    // Mahonian numbers: new[k] = #permutations of j elements with k inversions, k <= c.
    // Same recurrence and the same floating-point operations as SciPy (cumsum, then subtract
    // the shifted copy; descending loop = NumPy's buffered overlapping subtraction).
    const auto len = static_cast<std::size_t>(c + 1);
    std::vector<double> nw(len, 0.0);
    nw[0] = nw[1] = 1.0;
    const bool scaled = n >= 171;  // SciPy divides by j each step to avoid overflow
    for (std::int64_t j = 3; j <= n; ++j) {
      for (std::size_t k = 1; k < len; ++k) nw[k] += nw[k - 1];
      if (scaled)
        for (double& v : nw) v /= static_cast<double>(j);
      if (j <= c) {
        const auto sj = static_cast<std::size_t>(j);
        for (std::size_t i = len - sj; i-- > 0;) nw[sj + i] -= nw[i];
      }
    }
    const double sum = std::accumulate(nw.begin(), nw.end(), 0.0);
    prob = scaled ? sum : 2.0 * sum / factorial(n);
  }
  return std::clamp(prob, 0.0, 1.0);
}

double mann_whitney_exact_sf(std::int64_t k, std::int64_t m, std::int64_t n) {
  if (m < 1 || n < 1) throw std::invalid_argument("mann_whitney_exact_sf: empty sample");
  if (k < 0 || k > m * n) throw std::invalid_argument("mann_whitney_exact_sf: k out of range");
  // sf(k) = cdf(mn - k) by symmetry (as SciPy). f(m, n, u) = number of arrangements with
  // U = u satisfies SciPy's recursion f(m,n,u) = f(m-1,n,u-n) + f(m,n-1,u); its generating
  // function is the Gaussian binomial prod_{j=1..s} (1 - q^(b+j)) / (1 - q^j) with
  // s = min(m,n), b = max(m,n), which we expand truncated at degree mn - k in O(s (mn - k)).
  const std::int64_t upto = m * n - k;
  const std::int64_t s = std::min(m, n), b = std::max(m, n);
  const auto len = static_cast<std::size_t>(upto + 1);
  std::vector<double> f(len, 0.0);
  f[0] = 1.0;
  for (std::int64_t j = 1; j <= s; ++j) {
    const auto shift = static_cast<std::size_t>(b + j);
    for (std::size_t i = len; i-- > shift;) f[i] -= f[i - shift];  // times (1 - q^(b+j))
    const auto step = static_cast<std::size_t>(j);
    for (std::size_t i = step; i < len; ++i) f[i] += f[i - step];  // divided by (1 - q^j)
  }
  double total = 1.0;  // binom(m + n, s)
  for (std::int64_t j = 1; j <= s; ++j)
    total = total * static_cast<double>(b + j) / static_cast<double>(j);
  double cdf = 0.0;
  for (double count : f) cdf += count / total;
  return cdf;
}

}  // namespace detail

Correlation kendall_tau_b(const std::vector<double>& x, const std::vector<double>& y) {
  if (x.size() != y.size()) throw std::invalid_argument("kendall_tau_b: x and y differ in length");
  const std::size_t n = x.size();
  if (n == 0 || any_nan(x) || any_nan(y)) return {kNaN, kNaN};

  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return x[a] < x[b] || (x[a] == x[b] && y[a] < y[b]);
  });
  const TieCounts xt = count_ties(n, [&](std::size_t a, std::size_t b) {
    return x[order[a]] == x[order[b]];
  });
  const TieCounts joint = count_ties(n, [&](std::size_t a, std::size_t b) {
    return x[order[a]] == x[order[b]] && y[order[a]] == y[order[b]];
  });
  std::vector<double> ys(n);
  for (std::size_t i = 0; i < n; ++i) ys[i] = y[order[i]];
  std::vector<double> ysorted = ys;
  std::sort(ysorted.begin(), ysorted.end());
  const TieCounts yt = count_ties(n, [&](std::size_t a, std::size_t b) {
    return ysorted[a] == ysorted[b];
  });
  const std::int64_t dis = count_inversions(ys);  // x ascending, y strictly descending

  const auto size = static_cast<std::int64_t>(n);
  const std::int64_t tot = size * (size - 1) / 2;
  if (xt.pairs == tot || yt.pairs == tot) return {kNaN, kNaN};

  const std::int64_t con_minus_dis = tot - xt.pairs - yt.pairs + joint.pairs - 2 * dis;
  double tau = static_cast<double>(con_minus_dis) / std::sqrt(static_cast<double>(tot - xt.pairs)) /
               std::sqrt(static_cast<double>(tot - yt.pairs));
  tau = std::clamp(tau, -1.0, 1.0);
  // Perfect (or perfectly reversed) agreement, in integers: exactly +-1 whatever the square roots round to.
  if (xt.pairs == yt.pairs && (con_minus_dis == tot - xt.pairs || con_minus_dis == -(tot - xt.pairs)))
    tau = con_minus_dis > 0 ? 1.0 : -1.0;

  const bool no_ties = xt.pairs == 0 && yt.pairs == 0;
  if (no_ties && (size <= 33 || std::min(dis, tot - dis) <= 1))
    return {tau, detail::kendall_p_exact(size, tot - dis)};

  const double sz = static_cast<double>(size);
  const double m = sz * (sz - 1.0);
  const double var = (m * (2.0 * sz + 5.0) - xt.v1 - yt.v1) / 18.0 +
                     (2.0 * static_cast<double>(xt.pairs) * static_cast<double>(yt.pairs)) / m +
                     xt.v0 * yt.v0 / (9.0 * m * (sz - 2.0));
  const double z = static_cast<double>(con_minus_dis) / std::sqrt(var);
  return {tau, normal_two_sided(z)};
}

MannWhitney mann_whitney_u(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.empty() || b.empty()) throw std::invalid_argument("mann_whitney_u: empty sample");
  if (any_nan(a) || any_nan(b)) return {kNaN, kNaN};
  const auto n1 = static_cast<std::int64_t>(a.size()), n2 = static_cast<std::int64_t>(b.size());
  std::vector<double> xy(a);
  xy.insert(xy.end(), b.begin(), b.end());
  const std::vector<double> ranks = average_ranks(xy);
  const double r1 = std::accumulate(ranks.begin(), ranks.begin() + n1, 0.0);
  const double u1 = r1 - static_cast<double>(n1 * (n1 + 1)) / 2.0;
  const double u2 = static_cast<double>(n1 * n2) - u1;
  const double u = std::max(u1, u2);

  std::sort(xy.begin(), xy.end());
  std::int64_t tie_term = 0;  // sum of t^3 - t over groups of equal pooled values
  for (std::size_t start = 0; start < xy.size();) {
    std::size_t end = start + 1;
    while (end < xy.size() && xy[end] == xy[start]) ++end;
    const auto t = static_cast<std::int64_t>(end - start);
    tie_term += t * t * t - t;
    start = end;
  }

  double p;
  if ((n1 <= 8 || n2 <= 8) && tie_term == 0) {
    p = 2.0 * detail::mann_whitney_exact_sf(static_cast<std::int64_t>(u), n1, n2);
  } else {
    const double nn = static_cast<double>(n1 + n2);
    const double mu = static_cast<double>(n1 * n2) / 2.0;
    const double sd = std::sqrt(static_cast<double>(n1 * n2) / 12.0 *
                                ((nn + 1.0) - static_cast<double>(tie_term) / (nn * (nn - 1.0))));
    const double z = (u - mu - 0.5) / sd;  // continuity correction; sd == 0 gives -inf
    p = std::erfc(z / std::sqrt(2.0));     // 2 * norm.sf(z)
  }
  return {u1, std::clamp(p, 0.0, 1.0)};
}

double mann_whitney_min_p(std::int64_t n1, std::int64_t n2) {
  if (n1 < 1 || n2 < 1) throw std::invalid_argument("mann_whitney_min_p: empty sample");
  double best = 1.0;
  if (n1 <= 8 || n2 <= 8) {
    // 2 / C(n1 + n2, n1) = 2 * P(U = n1 n2) under the exact null distribution.
    best = std::min(best, 2.0 * detail::mann_whitney_exact_sf(n1 * n2, n1, n2));
  }
  const double a = static_cast<double>(n1), b = static_cast<double>(n2), nn = a + b;
  const double tie_term = (a * a * a - a) + (b * b * b - b);
  const double var = a * b / 12.0 * ((nn + 1.0) - tie_term / (nn * (nn - 1.0)));
  if (var > 0.0) {
    const double z = (a * b / 2.0 - 0.5) / std::sqrt(var);
    best = std::min(best, std::erfc(z / std::sqrt(2.0)));
  }
  return std::clamp(best, 0.0, 1.0);
}

KruskalWallis kruskal_wallis(const std::vector<std::vector<double>>& groups) {
  if (groups.size() < 2) throw std::invalid_argument("kruskal_wallis: needs at least two groups");
  std::vector<double> pooled;
  for (const auto& g : groups) {
    if (g.empty()) throw std::invalid_argument("kruskal_wallis: empty group");
    if (any_nan(g)) return {kNaN, kNaN};
    pooled.insert(pooled.end(), g.begin(), g.end());
  }
  const std::vector<double> ranks = average_ranks(pooled);
  const double n = static_cast<double>(pooled.size());
  double h = 0.0;
  std::size_t at = 0;
  for (const auto& g : groups) {
    const double r = std::accumulate(ranks.begin() + static_cast<std::ptrdiff_t>(at),
                                     ranks.begin() + static_cast<std::ptrdiff_t>(at + g.size()), 0.0);
    h += r * r / static_cast<double>(g.size());
    at += g.size();
  }
  h = 12.0 / (n * (n + 1.0)) * h - 3.0 * (n + 1.0);
  std::sort(pooled.begin(), pooled.end());
  double tie_term = 0.0;
  for (std::size_t start = 0; start < pooled.size();) {
    std::size_t end = start + 1;
    while (end < pooled.size() && pooled[end] == pooled[start]) ++end;
    const double t = static_cast<double>(end - start);
    tie_term += t * t * t - t;
    start = end;
  }
  const double correction = 1.0 - tie_term / (n * n * n - n);
  if (!(correction > 0.0)) return {kNaN, kNaN};
  h /= correction;
  const boost::math::chi_squared dist(static_cast<double>(groups.size()) - 1.0);
  const double p = h <= 0.0 ? 1.0 : boost::math::cdf(boost::math::complement(dist, h));
  return {h, p};
}

double epsilon_squared(double h, std::int64_t n) {
  if (n < 2 || std::isnan(h)) return kNaN;
  const double nd = static_cast<double>(n);
  return h / ((nd * nd - 1.0) / (nd + 1.0));
}

std::vector<double> holm(const std::vector<double>& p) {
  const std::size_t n = p.size();
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    if (std::isnan(p[a])) return false;
    return std::isnan(p[b]) || p[a] < p[b];
  });
  std::vector<double> out(n);
  double running = -std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < n; ++i) {
    const double raw = p[order[i]] * static_cast<double>(n - i);
    running = (std::isnan(running) || std::isnan(raw)) ? kNaN : std::max(running, raw);
    out[order[i]] = running > 1.0 ? 1.0 : running;
  }
  return out;
}

double cliffs_delta(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.empty() || b.empty() || any_nan(a) || any_nan(b)) return kNaN;
  std::vector<double> sb(b);
  std::sort(sb.begin(), sb.end());
  std::int64_t net = 0;  // #(a > b) - #(a < b)
  for (double v : a) {
    const auto below = std::lower_bound(sb.begin(), sb.end(), v) - sb.begin();
    const auto above = sb.end() - std::upper_bound(sb.begin(), sb.end(), v);
    net += below - above;
  }
  return static_cast<double>(net) / (static_cast<double>(a.size()) * static_cast<double>(b.size()));
}

KendallW kendall_w(const std::vector<std::vector<double>>& rankings) {
  const KendallW undefined{kNaN, kNaN, kNaN};
  const std::size_t m = rankings.size();
  const std::size_t n = m == 0 ? 0 : rankings[0].size();
  for (const auto& row : rankings)
    if (row.size() != n) throw std::invalid_argument("kendall_w: rows differ in length");
  if (m < 2 || n < 2) return undefined;
  std::vector<double> col_sum(n, 0.0), sorted;
  double tie_sum = 0.0;
  for (const auto& row : rankings) {
    if (any_nan(row)) return undefined;
    for (std::size_t j = 0; j < n; ++j) col_sum[j] += row[j];
    sorted = row;
    std::sort(sorted.begin(), sorted.end());
    for (std::size_t start = 0; start < n;) {
      std::size_t end = start + 1;
      while (end < n && sorted[end] == sorted[start]) ++end;
      const double t = static_cast<double>(end - start);
      tie_sum += t * t * t - t;
      start = end;
    }
  }
  const double mean = std::accumulate(col_sum.begin(), col_sum.end(), 0.0) / static_cast<double>(n);
  double s = 0.0;
  for (double r : col_sum) s += (r - mean) * (r - mean);
  const double md = static_cast<double>(m), nd = static_cast<double>(n);
  const double denom = md * md * (nd * nd * nd - nd) - md * tie_sum;
  if (!(denom > 0.0)) return undefined;
  const double w = 12.0 * s / denom;
  const double chi2 = md * (nd - 1.0) * w;
  const boost::math::chi_squared dist(nd - 1.0);
  return {w, chi2, boost::math::cdf(boost::math::complement(dist, chi2))};
}

double percentile(std::vector<double> values, double q) {
  if (!(q >= 0.0 && q <= 100.0)) throw std::invalid_argument("percentile: q must be in [0, 100]");
  values.erase(std::remove_if(values.begin(), values.end(), [](double v) { return std::isnan(v); }),
               values.end());
  if (values.empty()) return kNaN;
  std::sort(values.begin(), values.end());
  const double n = static_cast<double>(values.size());
  const double index = (n - 1.0) * (q / 100.0);
  if (index >= n - 1.0) return values.back();
  const double lower = std::floor(index);
  const double gamma = index - lower;
  const double a = values[static_cast<std::size_t>(lower)];
  const double b = values[static_cast<std::size_t>(lower) + 1];
  const double diff = b - a;  // NumPy's _lerp, including its gamma >= 0.5 branch
  return gamma >= 0.5 ? b - diff * (1.0 - gamma) : a + diff * gamma;
}

std::pair<double, double> bootstrap_percentile_ci(const std::vector<double>& stats, double level) {
  if (!(level > 0.0 && level < 1.0))
    throw std::invalid_argument("bootstrap_percentile_ci: level must be in (0, 1)");
  return {percentile(stats, 50.0 * (1.0 - level)), percentile(stats, 50.0 * (1.0 + level))};
}

Rng::Rng(std::uint64_t seed) {
  // [rand.eng.mers]: x_0 = seed, x_i = f (x_{i-1} xor (x_{i-1} >> (w - 2))) + i, f = 6364136223846793005.
  state_[0] = seed;
  for (std::size_t i = 1; i < kN; ++i) state_[i] = 6364136223846793005ULL * (state_[i - 1] ^ (state_[i - 1] >> 62)) + i;
}

void Rng::twist() {
  constexpr std::uint64_t upper = 0xFFFFFFFF80000000ULL, lower = 0x7FFFFFFFULL, a = 0xB5026F5AA96619E9ULL;
  // x_k = x_{k+m} xor ((upper bits of x_k | lower bits of x_{k+1}) A), A's multiply being a shift and, for an
  // odd word, an xor with `a`: as a mask, not a branch.
  auto mix = [&](std::uint64_t hi, std::uint64_t lo, std::uint64_t far) {
    const std::uint64_t y = (hi & upper) | (lo & lower);
    return far ^ (y >> 1) ^ ((0 - (y & 1)) & a);
  };
  std::size_t k = 0;
  for (; k < kN - kM; ++k) state_[k] = mix(state_[k], state_[k + 1], state_[k + kM]);
  for (; k < kN - 1; ++k) state_[k] = mix(state_[k], state_[k + 1], state_[k + kM - kN]);
  state_[kN - 1] = mix(state_[kN - 1], state_[0], state_[kM - 1]);
  index_ = 0;
}

std::uint64_t Rng::uniform_index_slow(std::uint64_t n, u128 prod) {
  if (n == 0) throw std::invalid_argument("Rng::uniform_index: n must be positive");
  // Lemire, "Fast Random Integer Generation in an Interval", ACM TOMACS 29(1), 2019.
  const std::uint64_t threshold = (0 - n) % n;  // 2^64 mod n
  while (static_cast<std::uint64_t>(prod) < threshold) prod = static_cast<u128>(next()) * n;
  return static_cast<std::uint64_t>(prod >> 64);
}

void Rng::uniform_indices(std::uint64_t n, std::uint64_t* out, std::size_t count) {
  if (n == 0) throw std::invalid_argument("Rng::uniform_index: n must be positive");
  std::uint64_t tempered[kN];
  std::size_t i = 0;
  while (i < count) {
    if (index_ >= kN) twist();
    const std::size_t block = std::min(kN - index_, count - i);
    for (std::size_t j = 0; j < block; ++j) tempered[j] = temper(state_[index_ + j]);  // a block at a time (vectorised)
    std::size_t j = 0;
    for (; j < block; ++j) {
      const u128 prod = static_cast<u128>(tempered[j]) * n;
      if (static_cast<std::uint64_t>(prod) < n) break;  // maybe rejected: uniform_index decides, word by word
      out[i + j] = static_cast<std::uint64_t>(prod >> 64);
    }
    index_ += j;
    i += j;
    if (j < block) out[i++] = uniform_index(n);
  }
}

namespace {

// Calls add(row) for each of `rows` rows drawn with replacement from [0, rows), in draw order: Rng::uniform_indices
// a block of 256 at a time, on the stack.
template <class Add>
void for_each_draw(std::size_t rows, Rng& rng, Add&& add) {
  constexpr std::size_t kDrawBlock = 256;
  std::uint64_t drawn[kDrawBlock];
  for (std::size_t d = 0; d < rows; d += kDrawBlock) {
    const std::size_t block = std::min(kDrawBlock, rows - d);
    rng.uniform_indices(rows, drawn, block);
    for (std::size_t b = 0; b < block; ++b) add(static_cast<std::size_t>(drawn[b]));
  }
}

// Copies a participants x items matrix into a row-major flat array; returns the item count.
std::size_t flatten(const std::vector<std::vector<double>>& rows, std::vector<double>& flat,
                    const char* what) {
  if (rows.empty()) throw std::invalid_argument(std::string("bootstrap_spearman: empty ") + what);
  const std::size_t k = rows[0].size();
  flat.reserve(rows.size() * k);
  for (const auto& r : rows) {
    if (r.size() != k)
      throw std::invalid_argument(std::string("bootstrap_spearman: ragged ") + what);
    flat.insert(flat.end(), r.begin(), r.end());
  }
  return k;
}

// Mean of `draws` rows drawn with replacement from flat (rows x k) into mean[0..k).
void resample_mean(const std::vector<double>& flat, std::size_t rows, std::size_t k, Rng& rng,
                   double* mean) {
  std::fill(mean, mean + k, 0.0);
  const double* base = flat.data();
  for_each_draw(rows, rng, [&](std::size_t r) {
    const double* row = base + r * k;
    for (std::size_t j = 0; j < k; ++j) mean[j] += row[j];
  });
  const double count = static_cast<double>(rows);
  for (std::size_t j = 0; j < k; ++j) mean[j] /= count;
}

// The same means when every value is a multiple of 1/2 (ranks, with ties averaged, always are): then every
// partial sum of resample_mean is a multiple of 1/2 below 2^30, exact in a double whatever the order, so
// summing twice the values as 32-bit integers gives the same sums, and the same means, bit for bit. The row
// is padded to V vectors of four, and the V accumulators stay in registers (resample_mean's sums go through
// memory, one store-to-load wait per draw and item). Same draws, same order.
typedef std::int32_t Int4 __attribute__((vector_size(16)));  // GCC/Clang vector extension: SSE2 on x86-64

struct HalfUnits {
  std::vector<Int4> rows;  // 2 * value, each row padded with zeros to `vectors` vectors
  std::size_t vectors = 0;
};

constexpr std::size_t kMaxHalfUnitVectors = 8;  // items up to 32

// Twice the values as integers, or nothing when a value is not a finite multiple of 1/2 or a sum of
// `rows` draws could pass 2^30 (then resample_mean's sums might round, and its order would matter).
std::optional<HalfUnits> half_units(const std::vector<double>& flat, std::size_t rows, std::size_t k) {
  const std::size_t vectors = (k + 3) / 4;
  if (k == 0 || vectors > kMaxHalfUnitVectors) return std::nullopt;
  double largest = 0.0;
  for (double v : flat) {
    const double twice = 2.0 * v;
    if (!std::isfinite(v) || twice != std::trunc(twice)) return std::nullopt;
    largest = std::max(largest, std::fabs(twice));
  }
  if (largest * static_cast<double>(rows) >= 1073741824.0) return std::nullopt;  // 2^30
  HalfUnits out;
  out.vectors = vectors;
  out.rows.assign(rows * vectors, Int4{0, 0, 0, 0});
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t j = 0; j < k; ++j)
      out.rows[r * vectors + j / 4][j % 4] = static_cast<std::int32_t>(2.0 * flat[r * k + j]);
  return out;
}

template <std::size_t V>
void resample_mean_halves(const HalfUnits& h, std::size_t rows, std::size_t k, Rng& rng, double* mean) {
  Int4 acc[V] = {};
  const Int4* base = h.rows.data();
  for_each_draw(rows, rng, [&](std::size_t r) {
    const Int4* row = base + r * V;
    for (std::size_t v = 0; v < V; ++v) acc[v] += row[v];
  });
  const double count = static_cast<double>(rows);
  for (std::size_t j = 0; j < k; ++j) mean[j] = static_cast<double>(acc[j / 4][j % 4]) * 0.5 / count;
}

void resample_mean(const std::optional<HalfUnits>& halves, const std::vector<double>& flat, std::size_t rows,
                   std::size_t k, Rng& rng, double* mean) {
  if (!halves) return resample_mean(flat, rows, k, rng, mean);
  switch (halves->vectors) {
    case 1: return resample_mean_halves<1>(*halves, rows, k, rng, mean);
    case 2: return resample_mean_halves<2>(*halves, rows, k, rng, mean);
    case 3: return resample_mean_halves<3>(*halves, rows, k, rng, mean);
    case 4: return resample_mean_halves<4>(*halves, rows, k, rng, mean);
    case 5: return resample_mean_halves<5>(*halves, rows, k, rng, mean);
    case 6: return resample_mean_halves<6>(*halves, rows, k, rng, mean);
    case 7: return resample_mean_halves<7>(*halves, rows, k, rng, mean);
    default: return resample_mean_halves<8>(*halves, rows, k, rng, mean);
  }
}

// --- Large groups: the same bootstrap, drawn as counts per distinct answer --------------------------------
//
// A resample of n participants drawn with replacement holds each distinct rank vector ("pattern") a
// Multinomial(n; c_1/n, ..., c_P/n) number of times, c_i being how many participants gave it; drawing those P
// counts (conditional binomials) instead of n participants gives the same bootstrap distribution at O(P) per
// resample (P <= 13 patterns for 3 items, whatever n). Used for a group of more than kPatternMinRows
// participants with at most a quarter as many patterns; smaller groups draw participants as always, so their
// intervals are unchanged, seed for seed.

constexpr std::size_t kPatternMinRows = 2000;  // (detail::bootstrap_spearman takes another, for tests)

struct SubsetPatterns {
  std::vector<double> rows;            // P x k, in the order first met
  std::vector<std::uint64_t> counts;   // participants per pattern
};

std::optional<SubsetPatterns> patterns_of(const std::vector<double>& flat, std::size_t rows, std::size_t k, std::size_t min_rows) {
  if (rows <= min_rows || k == 0) return std::nullopt;
  std::map<std::vector<double>, std::size_t> index;
  SubsetPatterns out;
  std::vector<double> row(k);
  for (std::size_t r = 0; r < rows; ++r) {
    std::copy(flat.begin() + static_cast<std::ptrdiff_t>(r * k), flat.begin() + static_cast<std::ptrdiff_t>((r + 1) * k), row.begin());
    auto [it, fresh] = index.emplace(row, out.counts.size());
    if (fresh) {
      if (out.counts.size() + 1 > rows / 4) return std::nullopt;
      out.rows.insert(out.rows.end(), row.begin(), row.end());
      out.counts.push_back(0);
    }
    ++out.counts[it->second];
  }
  return out;
}

// Binomial(n, p) variate. n p < 10: inversion (sequential search from 0); otherwise Hormann's BTRS
// (transformed rejection with squeeze; W. Hormann 1993, "The generation of binomial random variates", J.
// Statist. Comput. Simul. 46:101-110), on p <= 1/2 by symmetry.
std::uint64_t binomial(std::uint64_t n, double p, Rng& rng) {
  if (n == 0 || p <= 0.0) return 0;
  if (p >= 1.0) return n;
  if (p > 0.5) return n - binomial(n, 1.0 - p, rng);
  const double nd = static_cast<double>(n);
  if (nd * p < 10.0) {
    const double q = 1.0 - p, ratio = p / q, a = (nd + 1.0) * ratio;
    double r = std::pow(q, nd), u = rng.uniform01();
    std::uint64_t x = 0;
    while (u > r && x < n) {
      u -= r;
      ++x;
      r *= a / static_cast<double>(x) - ratio;
    }
    return x;
  }
  const double spq = std::sqrt(nd * p * (1.0 - p));
  const double b = 1.15 + 2.53 * spq, a = -0.0873 + 0.0248 * b + 0.01 * p, c = nd * p + 0.5;
  const double alpha = (2.83 + 5.1 / b) * spq, lpq = std::log(p / (1.0 - p));
  const double m = std::floor((nd + 1.0) * p);
  const double h = std::lgamma(m + 1.0) + std::lgamma(nd - m + 1.0);
  while (true) {
    const double u = rng.uniform01() - 0.5, v0 = rng.uniform01();
    const double us = 0.5 - std::fabs(u);
    const double kd = std::floor((2.0 * a / us + b) * u + c);
    if (kd < 0.0 || kd > nd) continue;
    if (us >= 0.07 && v0 <= 0.92) return static_cast<std::uint64_t>(kd);
    const double v = std::log(v0 * alpha / (a / (us * us) + b));
    if (v <= h - std::lgamma(kd + 1.0) - std::lgamma(nd - kd + 1.0) + (kd - m) * lpq) return static_cast<std::uint64_t>(kd);
  }
}

// The mean rank vector of one resample of `rows` participants, drawn as counts per pattern.
void resample_mean(const SubsetPatterns& pt, std::size_t rows, std::size_t k, Rng& rng, double* mean) {
  std::fill(mean, mean + k, 0.0);
  std::uint64_t left = rows, weight = rows;  // draws still to place; participants in the patterns not yet drawn
  for (std::size_t i = 0; i < pt.counts.size() && left > 0; ++i) {
    const std::uint64_t x = i + 1 == pt.counts.size() ? left
                                                      : binomial(left, static_cast<double>(pt.counts[i]) / static_cast<double>(weight), rng);
    weight -= pt.counts[i];
    left -= x;
    for (std::size_t j = 0; j < k; ++j) mean[j] += static_cast<double>(x) * pt.rows[i * k + j];
  }
  for (std::size_t j = 0; j < k; ++j) mean[j] /= static_cast<double>(rows);
}

void resample_mean(const std::optional<SubsetPatterns>& patterns, const std::optional<HalfUnits>& halves, const std::vector<double>& flat,
                   std::size_t rows, std::size_t k, Rng& rng, double* mean) {
  if (patterns) return resample_mean(*patterns, rows, k, rng, mean);
  resample_mean(halves, flat, rows, k, rng, mean);
}

}  // namespace

std::vector<double> bootstrap_spearman(const std::vector<std::vector<double>>& group_a_ranks,
                                       const std::vector<std::vector<double>>& group_b_ranks,
                                       int resamples, std::uint64_t seed) {
  return detail::bootstrap_spearman(group_a_ranks, group_b_ranks, resamples, seed, kPatternMinRows);
}

std::vector<double> detail::bootstrap_spearman(const std::vector<std::vector<double>>& group_a_ranks,
                                               const std::vector<std::vector<double>>& group_b_ranks, int resamples,
                                               std::uint64_t seed, std::size_t pattern_min_rows) {
  if (resamples < 0) throw std::invalid_argument("bootstrap_spearman: negative resamples");
  std::vector<double> flat_a, flat_b;
  const std::size_t k = flatten(group_a_ranks, flat_a, "group A");
  if (flatten(group_b_ranks, flat_b, "group B") != k)
    throw std::invalid_argument("bootstrap_spearman: groups differ in item count");
  const std::size_t na = group_a_ranks.size(), nb = group_b_ranks.size();
  std::vector<double> mean_a(k), mean_b(k), out(static_cast<std::size_t>(resamples));
  RhoScratch scratch;
  scratch.resize(k);
  const auto halves_a = half_units(flat_a, na, k), halves_b = half_units(flat_b, nb, k);
  const auto patterns_a = patterns_of(flat_a, na, k, pattern_min_rows), patterns_b = patterns_of(flat_b, nb, k, pattern_min_rows);
  Rng rng(seed);
  for (double& rho : out) {
    resample_mean(patterns_a, halves_a, flat_a, na, k, rng, mean_a.data());
    resample_mean(patterns_b, halves_b, flat_b, nb, k, rng, mean_b.data());
    const bool undefined = any_nan(mean_a) || any_nan(mean_b);
    rho = undefined ? kNaN : spearman_rho(mean_a.data(), mean_b.data(), k, scratch);
  }
  return out;
}

}  // namespace qualrank::stats
