// The Plackett-Luce model (Plackett 1975; Luce 1959) as R's PlackettLuce package fits it (Turner, van Etten,
// Firth & Kosmidis 2020, Computational Statistics 35:1027-1057), for top-k and partial rankings.
//
// Likelihood. An answer is a sequence of choices; choosing tier W from the available set S contributes
//   sum_{i in W} theta_i - sum_{l=0}^{t-1} log( sum_{j in S\W} alpha_j + (1 - l/t) sum_{i in W} alpha_i ),
// alpha = exp(theta), t = |W|. With t = 1 this is the Plackett-Luce choice probability alpha_i / sum_S alpha.
// Ties (t > 1) use Efron's approximation (Efron 1977, JASA 72:557-565, as for tied event times in the Cox
// model): the tied items were chosen one after another in an unknown order, and each later denominator
// keeps the tied items' mean share instead of a particular one. (PlackettLuce instead estimates extra
// Davidson-Luce tie parameters; Efron's method adds none, and equals Plackett-Luce when nobody ties.)
// Pseudo-rankings (PlackettLuce's `npseudo`): every item wins and loses `npseudo` paired comparisons against a
// hypothetical item of worth 1, i.e. adds npseudo (theta_i - 2 log(1 + alpha_i)); it keeps every worth finite
// and anchors the scale (the hypothetical item's log-worth is 0).
//
// Estimation. The log-likelihood is concave in theta (log-sum-exp terms), so Newton's method with a
// backtracking (Armijo) line search from theta = 0 converges to the unique maximum whenever the data connect
// the items (Hunter 2004, Annals of Statistics 32:384-406: the directed "ranked above" graph is strongly
// connected; pseudo-rankings make it so). Without pseudo-rankings the scale is free and theta_0 is fixed at 0;
// a disconnected graph is reported as an error naming the items whose worths would diverge.
// The Hessian is accumulated in O(entries^2) per choice by writing each choice set as "every item, minus a
// few" or "these few items", whichever is shorter, so top-5 answers over 50 items cost 25 operations, not 2500.
//
// Standard errors: the inverse of the observed information (minus the Hessian at the estimate) in the
// log-worth parametrisation, as contrasts with the reference item 0 (with pseudo-rankings: the full covariance
// transformed to those contrasts). Quasi-standard errors: Firth & de Menezes (2004, Biometrika 91:65-80),
// computed as R's qvcalc does (least squares on the log contrast variances).
#include "qualrank/analysis/rankings/plackett_luce.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <numeric>
#include <stdexcept>

namespace qualrank::pl {

namespace {

using Matrix = std::vector<std::vector<double>>;

// The rankings as choice terms. Term d's denominator is D_d = all_d * sum_j alpha_j + sum_e delta_e alpha_e
// over its entries e (item, delta); the numerators are collected into `wins`.
struct Terms {
  std::vector<int> item;
  std::vector<double> delta;
  std::vector<std::uint32_t> begin;  // term d's entries are [begin[d], begin[d+1])
  std::vector<char> all;
  std::vector<double> wins;          // per item: how often it is in a chosen tier
  int rankings = 0;
};

void add_term(Terms& t, bool all) {
  t.all.push_back(all ? 1 : 0);
  t.begin.push_back(static_cast<std::uint32_t>(t.item.size()));
}

Terms compile(int m, const std::vector<Ranking>& rankings, PartialRankings partial) {
  Terms t;
  t.wins.assign(static_cast<std::size_t>(m), 0.0);
  std::vector<char> chosen(static_cast<std::size_t>(m), 0), named(static_cast<std::size_t>(m), 0);
  for (const auto& r : rankings) {
    std::fill(chosen.begin(), chosen.end(), 0);
    std::fill(named.begin(), named.end(), 0);
    int count = 0;
    for (const auto& tier : r.tiers)
      for (int i : tier) {
        if (i < 0 || i >= m) throw std::invalid_argument("plackett_luce: item index out of range");
        if (named[static_cast<std::size_t>(i)]) throw std::invalid_argument("plackett_luce: an item is ranked twice");
        named[static_cast<std::size_t>(i)] = 1;
        ++count;
      }
    if (count == 0) continue;
    ++t.rankings;
    const int pool = partial == PartialRankings::top_k ? m : count;  // items available at the first choice
    int used = 0;                                                       // items chosen so far
    for (const auto& tier : r.tiers) {
      if (tier.empty()) continue;
      const int size = static_cast<int>(tier.size());
      const int available = pool - used;
      if (available <= 1) break;  // choosing the last item says nothing
      for (int i : tier) t.wins[static_cast<std::size_t>(i)] += 1;
      for (int l = 0; l < size; ++l) {
        const double share = 1.0 - static_cast<double>(l) / size;  // the tied items' weight in this denominator
        const int complement = (partial == PartialRankings::top_k) ? used + (l > 0 ? size : 0) : m;
        if (complement < available) {
          add_term(t, true);
          for (int j = 0; j < m; ++j)
            if (chosen[static_cast<std::size_t>(j)]) t.item.push_back(j), t.delta.push_back(-1.0);
          if (l > 0)
            for (int i : tier) t.item.push_back(i), t.delta.push_back(share - 1.0);
        } else {
          add_term(t, false);
          std::vector<char> in_tier(static_cast<std::size_t>(m), 0);
          for (int i : tier) in_tier[static_cast<std::size_t>(i)] = 1;
          for (int j = 0; j < m; ++j) {
            const auto ju = static_cast<std::size_t>(j);
            if (chosen[ju] || (partial == PartialRankings::subset && !named[ju])) continue;
            t.item.push_back(j);
            t.delta.push_back(in_tier[ju] ? share : 1.0);
          }
        }
      }
      for (int i : tier) chosen[static_cast<std::size_t>(i)] = 1;
      used += size;
    }
  }
  t.begin.push_back(static_cast<std::uint32_t>(t.item.size()));
  return t;
}

// log(1 + exp(x)) without overflow.
double softplus(double x) { return x > 0 ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x)); }
double logistic(double x) { return x >= 0 ? 1.0 / (1.0 + std::exp(-x)) : std::exp(x) / (1.0 + std::exp(x)); }

struct Shifted {
  std::vector<double> alpha;  // exp(theta - shift)
  double shift = 0, total = 0;
};

Shifted shifted(const std::vector<double>& theta) {
  Shifted s;
  s.shift = *std::max_element(theta.begin(), theta.end());
  s.alpha.resize(theta.size());
  for (std::size_t j = 0; j < theta.size(); ++j) {
    s.alpha[j] = std::exp(theta[j] - s.shift);
    s.total += s.alpha[j];
  }
  return s;
}

// An "every item, minus a few" denominator computed as total - (the few) loses its digits when the few hold
// nearly all the worth (many identical rankings push the worths orders of magnitude apart, and the later
// choices are among items worth 1e-6 of the first): below this share of the total the term is summed over its
// items instead (`explicit_term`), as R's PlackettLuce always does.
constexpr double kComplementFloor = 1e-3;

// Term d written out as its items and weights (every item at weight 1 plus its entries' deltas; zero weights
// left out), for an "every item" term whose complement would cancel.
void explicit_term(const Terms& t, std::size_t d, std::size_t m, std::vector<int>& items, std::vector<double>& weights) {
  weights.assign(m, 1.0);
  for (auto e = t.begin[d]; e < t.begin[d + 1]; ++e) weights[static_cast<std::size_t>(t.item[e])] += t.delta[e];
  items.clear();
  std::size_t k = 0;
  for (std::size_t j = 0; j < m; ++j)
    if (weights[j] != 0) {
      items.push_back(static_cast<int>(j));
      weights[k++] = weights[j];
    }
  weights.resize(k);
}

double denominator(const Terms& t, std::size_t d, const Shifted& s) {
  double D = t.all[d] ? s.total : 0.0;
  for (auto e = t.begin[d]; e < t.begin[d + 1]; ++e) D += t.delta[e] * s.alpha[static_cast<std::size_t>(t.item[e])];
  if (t.all[d] && D < kComplementFloor * s.total) {
    D = 0;
    std::vector<double> w(s.alpha.size(), 1.0);
    for (auto e = t.begin[d]; e < t.begin[d + 1]; ++e) w[static_cast<std::size_t>(t.item[e])] += t.delta[e];
    for (std::size_t j = 0; j < w.size(); ++j) D += w[j] * s.alpha[j];
  }
  return D;
}

double data_log_likelihood(const Terms& t, const std::vector<double>& theta) {
  const auto s = shifted(theta);
  double ll = 0;
  for (std::size_t j = 0; j < theta.size(); ++j) ll += t.wins[j] * theta[j];
  const std::size_t terms = t.all.size();
  for (std::size_t d = 0; d < terms; ++d) ll -= std::log(denominator(t, d, s)) + s.shift;
  return ll;
}

double penalised_log_likelihood(const Terms& t, const std::vector<double>& theta, double npseudo) {
  double ll = data_log_likelihood(t, theta);
  if (npseudo > 0)
    for (double th : theta) ll += npseudo * (th - 2.0 * softplus(th));
  return ll;
}

// Gradient and Hessian of the penalised log-likelihood in theta.
void derivatives(const Terms& t, const std::vector<double>& theta, double npseudo, std::vector<double>& g, Matrix& H) {
  const std::size_t m = theta.size();
  const auto s = shifted(theta);
  g = t.wins;
  for (auto& row : H) std::fill(row.begin(), row.end(), 0.0);
  double inv_all = 0, inv2_all = 0;     // sums of 1/D and 1/D^2 over terms on "every item"
  std::vector<double> u(m, 0.0);         // sum over those terms of s_j / D^2, s_j = delta_j alpha_j
  std::vector<double> diag(m, 0.0);      // sum of sparse v_j / D (v = the term's weighted alphas)
  const std::size_t terms = t.all.size();
  std::vector<int> items;       // an explicit term's items and weights (see kComplementFloor)
  std::vector<double> weights;
  for (std::size_t d = 0; d < terms; ++d) {
    const double D = denominator(t, d, s), invD = 1.0 / D, inv2 = invD * invD;
    bool all = t.all[d] != 0;
    const int* item = t.item.data() + t.begin[d];
    const double* delta = t.delta.data() + t.begin[d];
    std::size_t count = t.begin[d + 1] - t.begin[d];
    if (all) {
      double complement = s.total;
      for (std::size_t e = 0; e < count; ++e) complement += delta[e] * s.alpha[static_cast<std::size_t>(item[e])];
      if (complement < kComplementFloor * s.total) {  // summed over its items instead: a plain sparse term
        explicit_term(t, d, m, items, weights);
        all = false;
        item = items.data();
        delta = weights.data();
        count = items.size();
      }
    }
    if (all) {
      inv_all += invD;
      inv2_all += inv2;
    }
    for (std::size_t e = 0; e < count; ++e) {
      const auto i = static_cast<std::size_t>(item[e]);
      const double si = delta[e] * s.alpha[i];
      diag[i] += si * invD;
      if (all) u[i] += si * inv2;
      for (std::size_t f = 0; f < count; ++f) {
        const auto j = static_cast<std::size_t>(item[f]);
        H[i][j] += si * delta[f] * s.alpha[j] * inv2;  // + s s^T / D^2 (the sign is applied below)
      }
    }
  }
  // sum_d v v^T / D^2 = inv2_all alpha alpha^T + alpha u^T + u alpha^T + sum sparse s s^T / D^2;
  // Hessian = -(diag(sum v / D) - that).
  for (std::size_t i = 0; i < m; ++i) {
    const double p = s.alpha[i] * inv_all + diag[i];
    g[i] -= p;
    for (std::size_t j = 0; j < m; ++j)
      H[i][j] += inv2_all * s.alpha[i] * s.alpha[j] + s.alpha[i] * u[j] + u[i] * s.alpha[j];
    H[i][i] -= p;
  }
  if (npseudo > 0) {
    for (std::size_t i = 0; i < m; ++i) {
      const double q = logistic(theta[i]);
      g[i] += npseudo * (1.0 - 2.0 * q);
      H[i][i] -= 2.0 * npseudo * q * (1.0 - q);
    }
  }
}

// Cholesky factor of a symmetric positive definite matrix (lower triangle); false if it is not.
bool cholesky(Matrix& a) {
  const std::size_t n = a.size();
  for (std::size_t j = 0; j < n; ++j) {
    double d = a[j][j];
    for (std::size_t k = 0; k < j; ++k) d -= a[j][k] * a[j][k];
    if (!(d > 0) || !std::isfinite(d)) return false;
    a[j][j] = std::sqrt(d);
    for (std::size_t i = j + 1; i < n; ++i) {
      double x = a[i][j];
      for (std::size_t k = 0; k < j; ++k) x -= a[i][k] * a[j][k];
      a[i][j] = x / a[j][j];
    }
  }
  return true;
}

std::vector<double> cholesky_solve(const Matrix& l, std::vector<double> b) {
  const std::size_t n = l.size();
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t k = 0; k < i; ++k) b[i] -= l[i][k] * b[k];
    b[i] /= l[i][i];
  }
  for (std::size_t i = n; i-- > 0;) {
    for (std::size_t k = i + 1; k < n; ++k) b[i] -= l[k][i] * b[k];
    b[i] /= l[i][i];
  }
  return b;
}

// Solves a x = b for symmetric positive definite a; empty if a is not.
std::vector<double> spd_solve(Matrix a, const std::vector<double>& b) {
  if (!cholesky(a)) return {};
  return cholesky_solve(a, b);
}

Matrix spd_inverse(Matrix a) {
  const std::size_t n = a.size();
  if (!cholesky(a)) return {};
  Matrix inv(n, std::vector<double>(n, 0.0));
  for (std::size_t c = 0; c < n; ++c) {
    std::vector<double> e(n, 0.0);
    e[c] = 1;
    auto x = cholesky_solve(a, e);
    for (std::size_t r = 0; r < n; ++r) inv[r][c] = x[r];
  }
  return inv;
}

std::string name_of(const Options& o, int i) {
  const auto iu = static_cast<std::size_t>(i);
  return iu < o.item_names.size() ? o.item_names[iu] : "item " + std::to_string(i + 1);
}

// Without pseudo-rankings the maximum exists only if every item is ranked above and below the others through
// some chain of answers (Hunter 2004): the "ranked above" graph must be strongly connected. Returns an error
// naming the items whose worths diverge, or "".
std::string connectivity_error(int m, const std::vector<Ranking>& rankings, const Options& o) {
  const auto mu = static_cast<std::size_t>(m);
  std::vector<std::vector<char>> above(mu, std::vector<char>(mu, 0));  // above[i][j]: i ranked above j
  std::vector<char> named(mu), chosen(mu);
  for (const auto& r : rankings) {
    std::fill(named.begin(), named.end(), 0);
    std::fill(chosen.begin(), chosen.end(), 0);
    for (const auto& tier : r.tiers)
      for (int i : tier) named[static_cast<std::size_t>(i)] = 1;
    for (const auto& tier : r.tiers) {
      for (int i : tier) chosen[static_cast<std::size_t>(i)] = 1;
      for (int i : tier) {
        for (std::size_t j = 0; j < mu; ++j) {
          if (static_cast<int>(j) == i) continue;
          const bool tied = std::find(tier.begin(), tier.end(), static_cast<int>(j)) != tier.end();
          const bool available = !chosen[j] && (o.partial == PartialRankings::top_k || named[j]);
          if (tied || available) above[static_cast<std::size_t>(i)][j] = 1;
        }
      }
    }
  }
  // Strongly connected components (Kosaraju): order by finish time on `above`, then sweep the reverse graph.
  std::vector<int> order, comp(mu, -1);
  std::vector<char> seen(mu, 0);
  std::function<void(std::size_t)> visit = [&](std::size_t v) {
    seen[v] = 1;
    for (std::size_t w = 0; w < mu; ++w)
      if (above[v][w] && !seen[w]) visit(w);
    order.push_back(static_cast<int>(v));
  };
  for (std::size_t v = 0; v < mu; ++v)
    if (!seen[v]) visit(v);
  int components = 0;
  std::function<void(std::size_t, int)> assign = [&](std::size_t v, int c) {
    comp[v] = c;
    for (std::size_t w = 0; w < mu; ++w)
      if (above[w][v] && comp[w] < 0) assign(w, c);
  };
  for (auto it = order.rbegin(); it != order.rend(); ++it)
    if (comp[static_cast<std::size_t>(*it)] < 0) assign(static_cast<std::size_t>(*it), components++);
  if (components <= 1) return "";
  std::vector<char> beaten(static_cast<std::size_t>(components), 0), beats(static_cast<std::size_t>(components), 0);
  for (std::size_t i = 0; i < mu; ++i)
    for (std::size_t j = 0; j < mu; ++j)
      if (above[i][j] && comp[i] != comp[j]) {
        beats[static_cast<std::size_t>(comp[i])] = 1;
        beaten[static_cast<std::size_t>(comp[j])] = 1;
      }
  auto list = [&](const std::vector<std::size_t>& v) {
    std::string s;
    for (std::size_t k = 0; k < v.size(); ++k) s += (k ? ", " : "") + name_of(o, static_cast<int>(v[k]));
    return s;
  };
  auto members = [&](int c) {
    std::vector<std::size_t> v;
    for (std::size_t i = 0; i < mu; ++i)
      if (comp[i] == c) v.push_back(i);
    return v;
  };
  // Items ranked above (or below) component c from outside it.
  auto neighbours = [&](int c, bool from_above) {
    std::vector<std::size_t> v;
    for (std::size_t i = 0; i < mu; ++i) {
      if (comp[i] == c) continue;
      for (std::size_t j = 0; j < mu; ++j)
        if (comp[j] == c && (from_above ? above[i][j] : above[j][i])) {
          v.push_back(i);
          break;
        }
    }
    return v;
  };
  std::vector<std::string> parts;
  std::vector<char> mentioned(mu, 0);
  std::vector<std::size_t> never;
  for (int c = 0; c < components; ++c) {
    const auto cu = static_cast<std::size_t>(c);
    if (!beaten[cu] && !beats[cu]) {
      for (auto i : members(c)) never.push_back(i);
    } else if (!beats[cu]) {  // never ranked above anything outside: its worths go to 0
      auto who = neighbours(c, true);
      parts.push_back(list(members(c)) + " never ranked above " + list(who));
      for (auto i : members(c)) mentioned[i] = 1;
      for (auto i : who) mentioned[i] = 1;
    }
  }
  for (int c = 0; c < components; ++c) {  // never ranked below anything outside, unless said already
    const auto cu = static_cast<std::size_t>(c);
    auto in = members(c);
    if (beaten[cu] || !beats[cu] || std::all_of(in.begin(), in.end(), [&](std::size_t i) { return mentioned[i] != 0; })) continue;
    parts.push_back(list(in) + " never ranked below " + list(neighbours(c, false)));
  }
  if (!never.empty()) {
    std::sort(never.begin(), never.end());
    parts.push_back(list(never) + " never compared with another item");
  }
  std::string msg = "the worths diverge without pseudo-rankings: ";
  if (parts.empty()) msg += "the items fall into groups never ranked both ways";
  for (std::size_t k = 0; k < parts.size(); ++k) msg += (k ? "; " : "") + parts[k];
  return msg + " (use --pseudo-rankings)";
}

}  // namespace

double plackett_luce_log_likelihood(const std::vector<double>& log_worth, const std::vector<Ranking>& rankings,
                                    PartialRankings partial) {
  auto terms = compile(static_cast<int>(log_worth.size()), rankings, partial);
  return data_log_likelihood(terms, log_worth);
}

Fit fit_plackett_luce(int items, const std::vector<Ranking>& rankings, const Options& options) {
  Fit fit;
  if (items < 2) {
    fit.error = "a ranking question needs at least two items";
    return fit;
  }
  const auto m = static_cast<std::size_t>(items);
  const double npseudo = options.pseudo_rankings;
  if (!(npseudo >= 0)) throw std::invalid_argument("plackett_luce: pseudo_rankings must be 0 or more");
  auto terms = compile(items, rankings, options.partial);
  fit.rankings = terms.rankings;
  if (npseudo == 0) {
    fit.error = connectivity_error(items, rankings, options);
    if (!fit.error.empty()) return fit;
  }
  // Free parameters: all log-worths with pseudo-rankings (the hypothetical item anchors the scale),
  // else items 1..m-1 (theta_0 = 0).
  const std::size_t first = npseudo > 0 ? 0 : 1, n = m - first;
  std::vector<double> theta(m, 0.0), g;
  Matrix H(m, std::vector<double>(m, 0.0));
  auto reduced = [&](const Matrix& full) {
    Matrix r(n, std::vector<double>(n));
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j) r[i][j] = -full[i + first][j + first];
    return r;
  };
  double ll = penalised_log_likelihood(terms, theta, npseudo);
  bool converged = false;
  for (int it = 0; it < options.max_iterations; ++it) {
    derivatives(terms, theta, npseudo, g, H);
    std::vector<double> rhs(g.begin() + static_cast<std::ptrdiff_t>(first), g.end());
    auto step = spd_solve(reduced(H), rhs);
    if (step.empty()) {
      fit.error = "the information matrix is singular (the rankings do not connect the items)";
      return fit;
    }
    const double slope = std::inner_product(step.begin(), step.end(), rhs.begin(), 0.0);
    double size = 1, max_change = 0;
    std::vector<double> next = theta;
    double next_ll = ll;
    for (int halvings = 0; halvings < 60; ++halvings, size /= 2) {
      for (std::size_t i = 0; i < n; ++i) next[i + first] = theta[i + first] + size * step[i];
      next_ll = penalised_log_likelihood(terms, next, npseudo);
      if (next_ll >= ll + 1e-4 * size * slope) break;
    }
    fit.iterations = it + 1;
    for (std::size_t i = 0; i < n; ++i) max_change = std::max(max_change, std::fabs(size * step[i]));
    if (!(next_ll >= ll)) {  // no improvement even for tiny steps: at the maximum to rounding
      converged = true;
      break;
    }
    theta = next;
    ll = next_ll;
    if (max_change < 1e-10) {
      converged = true;
      break;
    }
  }
  if (!converged) {
    fit.error = "no convergence in " + std::to_string(options.max_iterations) + " iterations";
    return fit;
  }
  fit.log_likelihood = data_log_likelihood(terms, theta);
  fit.penalised_log_likelihood = penalised_log_likelihood(terms, theta, npseudo);
  // Covariance of the log-worths relative to item 0.
  derivatives(terms, theta, npseudo, g, H);
  Matrix V = spd_inverse(reduced(H));
  if (V.empty()) {
    fit.error = "the information matrix is singular (the rankings do not connect the items)";
    return fit;
  }
  fit.covariance.assign(m, std::vector<double>(m, 0.0));
  for (std::size_t i = 1; i < m; ++i)
    for (std::size_t j = 1; j < m; ++j)
      fit.covariance[i][j] = first == 0 ? V[i][j] - V[i][0] - V[0][j] + V[0][0] : V[i - 1][j - 1];
  double total = 0;
  const double top = *std::max_element(theta.begin(), theta.end());
  for (double th : theta) total += std::exp(th - top);
  for (std::size_t i = 0; i < m; ++i) {
    fit.worth.push_back(std::exp(theta[i] - top) / total);
    fit.log_worth.push_back(theta[i] - theta[0]);
    fit.se.push_back(std::sqrt(fit.covariance[i][i]));
  }
  for (double q : quasi_variances(fit.covariance)) fit.quasi_se.push_back(q >= 0 ? std::sqrt(q) : std::nan(""));
  return fit;
}

std::vector<double> quasi_variances(const Matrix& cov) {
  const std::size_t m = cov.size();
  for (const auto& row : cov)
    if (row.size() != m) throw std::invalid_argument("quasi_variances: the covariance matrix is not square");
  if (m < 2) return m == 1 ? std::vector<double>{cov[0][0]} : std::vector<double>{};
  std::vector<std::pair<std::size_t, std::size_t>> pairs;
  std::vector<double> logv;
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = i + 1; j < m; ++j) {
      const double v = cov[i][i] + cov[j][j] - 2 * cov[i][j];
      if (!(v > 0)) throw std::invalid_argument("quasi_variances: a contrast has no positive variance");
      pairs.emplace_back(i, j);
      logv.push_back(std::log(v));
    }
  if (m == 2) return {std::exp(logv[0]) / 2, std::exp(logv[0]) / 2};
  // Start: least squares of q_i + q_j = v_ij (A q = b, A = (m - 2) I + 1 1^T).
  Matrix A(m, std::vector<double>(m, 1.0));
  std::vector<double> b(m, 0.0);
  for (std::size_t i = 0; i < m; ++i) A[i][i] = static_cast<double>(m) - 1.0;
  for (std::size_t p = 0; p < pairs.size(); ++p) {
    b[pairs[p].first] += std::exp(logv[p]);
    b[pairs[p].second] += std::exp(logv[p]);
  }
  std::vector<double> q = spd_solve(A, b);
  auto objective = [&](const std::vector<double>& x) {
    double f = 0;
    for (std::size_t p = 0; p < pairs.size(); ++p) {
      const double s = x[pairs[p].first] + x[pairs[p].second];
      if (!(s > 0)) return std::numeric_limits<double>::infinity();
      const double r = logv[p] - std::log(s);
      f += r * r;
    }
    return f;
  };
  if (!std::isfinite(objective(q))) {  // a start with a non-positive pair sum: start from the mean instead
    double mean = 0;
    for (double lv : logv) mean += std::exp(lv);
    q.assign(m, mean / static_cast<double>(pairs.size()) / 2);
  }
  double f = objective(q);
  // Gauss-Newton with step halving on r_p = log v_p - log(q_i + q_j).
  for (int it = 0; it < 200; ++it) {
    Matrix JtJ(m, std::vector<double>(m, 0.0));
    std::vector<double> Jtr(m, 0.0);
    for (std::size_t p = 0; p < pairs.size(); ++p) {
      const auto [i, j] = pairs[p];
      const double s = q[i] + q[j], r = logv[p] - std::log(s), w = 1.0 / s;
      JtJ[i][i] += w * w;
      JtJ[j][j] += w * w;
      JtJ[i][j] += w * w;
      JtJ[j][i] += w * w;
      Jtr[i] += w * r;
      Jtr[j] += w * r;
    }
    auto step = spd_solve(JtJ, Jtr);
    if (step.empty()) break;
    double size = 1, next_f = f;
    std::vector<double> next = q;
    for (int h = 0; h < 60; ++h, size /= 2) {
      for (std::size_t i = 0; i < m; ++i) next[i] = q[i] + size * step[i];
      next_f = objective(next);
      if (next_f <= f) break;
    }
    if (!(next_f <= f)) break;
    double change = 0, scale = 0;
    for (std::size_t i = 0; i < m; ++i) {
      change = std::max(change, std::fabs(next[i] - q[i]));
      scale = std::max(scale, std::fabs(next[i]));
    }
    q = next;
    f = next_f;
    if (change <= 1e-13 * scale) break;
  }
  return q;
}

}  // namespace qualrank::pl
