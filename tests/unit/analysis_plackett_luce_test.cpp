// Expected values computed independently by a direct maximisation of the Plackett-Luce log-likelihood with
// SciPy (Debian python3-scipy 1.10.1): paste the script below into `/usr/bin/python3 -`; it prints every
// number pasted in the cases ("python: plain", "pseudo", "subset", "groups", "lr", "lr_pseudo"). It writes the
// log-likelihood out term by term, in the log-worth parametrisation with the reference item fixed at 0
// (with pseudo-rankings all log-worths are free and the hypothetical item is at 0; the SEs are then those of
// theta_i - theta_0); the pseudo-rankings as npseudo wins and npseudo losses of each item against a
// hypothetical item of worth 1; the SEs from the inverse of a Hessian taken by central differences of the
// analytic gradient (numdifftools is not installed); the quasi-variances by
// scipy.optimize.least_squares on log(v_ij) - log(q_i + q_j), as R's qvcalc. The tie cases are derived by
// hand in the comments next to them.
//   import numpy as np
//   from scipy.optimize import minimize, least_squares
//   np.set_printoptions(precision=17)
//   m = 4
//   R = [[[0],[1],[2],[3]], [[1],[0],[3],[2]], [[0],[2]], [[2],[1],[0],[3]],
//        [[3],[0],[1]], [[1],[3]], [[0]], [[2],[3],[1],[0]]]
//   def choices(r, partial):            # (chosen tier, items available) per choice
//       pool = list(range(m)) if partial == 'top-k' else [i for t in r for i in t]
//       out, chosen = [], set()
//       for t in r:
//           avail = [j for j in pool if j not in chosen]
//           if len(avail) <= 1: break
//           out.append((t, avail)); chosen |= set(t)
//       return out
//   def loglik(th, R, partial='top-k'):  # PL; a tie of t items: Efron, sum_l log(sum_{S\W} a + (1 - l/t) sum_W a)
//       a = np.exp(th); ll = 0.0
//       for r in R:
//           for W, S in choices(r, partial):
//               ll += sum(th[i] for i in W)
//               for l in range(len(W)):
//                   ll -= np.log(sum(a[j] for j in S if j not in W) + (1 - l/len(W)) * sum(a[i] for i in W))
//       return ll
//   def grad(th, R, partial='top-k'):
//       a = np.exp(th); g = np.zeros(m)
//       for r in R:
//           for W, S in choices(r, partial):
//               for i in W: g[i] += 1
//               for l in range(len(W)):
//                   c = np.array([(1 - l/len(W)) if j in W else (1.0 if j in S else 0.0) for j in range(m)])
//                   g -= c * a / (c * a).sum()
//       return g
//   def pseudo(th, npseudo):   # npseudo wins and npseudo losses of each item vs a hypothetical item of worth 1
//       a = np.exp(th)
//       return sum(npseudo * np.log(a[i] / (a[i] + 1)) + npseudo * np.log(1 / (a[i] + 1)) for i in range(m))
//   def pseudo_grad(th, npseudo):
//       a = np.exp(th); return npseudo * (1 - 2 * a / (a + 1))
//   def fit(R, npseudo=0.0, partial='top-k'):
//       free = slice(0, m) if npseudo > 0 else slice(1, m)
//       def full(x): th = np.zeros(m); th[free] = x; return th
//       f = lambda x: -(loglik(full(x), R, partial) + pseudo(full(x), npseudo))
//       g = lambda x: -(grad(full(x), R, partial) + pseudo_grad(full(x), npseudo))[free]
//       x = minimize(f, np.zeros(len(range(m)[free])), jac=g, method='BFGS', options={'gtol': 1e-12}).x
//       h = 1e-5; n = len(x); H = np.zeros((n, n))   # Hessian: central differences of the analytic gradient
//       for k in range(n):
//           e = np.zeros(n); e[k] = h; H[:, k] = (g(x + e) - g(x - e)) / (2 * h)
//       V = np.linalg.inv((H + H.T) / 2)
//       if npseudo > 0:                                # covariance of theta_i - theta_0
//           C = np.array([[V[i,j] - V[i,0] - V[0,j] + V[0,0] for j in range(m)] for i in range(m)])
//       else:
//           C = np.zeros((m, m)); C[1:, 1:] = V
//       th = full(x); lw = th - th[0]
//       pairs = [(i, j) for i in range(m) for j in range(i + 1, m)]
//       v = np.array([C[i,i] + C[j,j] - 2 * C[i,j] for i, j in pairs])
//       q = least_squares(lambda q: np.log(v) - np.log(np.array([q[i] + q[j] for i, j in pairs])),
//                         np.full(m, v.mean() / 2), xtol=1e-15, ftol=1e-15, gtol=1e-15).x
//       return dict(shift=th[0], log_worth=lw, worth=np.exp(th) / np.exp(th).sum(), loglik=loglik(th, R, partial),
//                   se=np.sqrt(np.diag(C)), quasi_se=np.sqrt(q))
//   for name, kw in [('plain', {}), ('pseudo', {'npseudo': 0.5}), ('subset', {'partial': 'subset'})]:
//       print(name, fit(R, **kw))
//   A, B = R[:4], R[4:]
//   lr = 2 * (fit(A)['loglik'] + fit(B)['loglik'] - fit(R)['loglik'])
//   from scipy.stats import chi2
//   print('groups', fit(A), fit(B))
//   print('lr', repr(lr), 'df', (2 - 1) * (m - 1), 'p', repr(chi2.sf(lr, 3)))
//   # pseudo-rankings: penalised LR, null = one worth vector with both groups' pseudo-rankings (2 x 0.5)
//   pen = lambda d, npseudo: d['loglik'] + pseudo(d['log_worth'] + d['shift'], npseudo)
//   print('lr_pseudo', repr(2 * (pen(fit(A, 0.5), 0.5) + pen(fit(B, 0.5), 0.5) - pen(fit(R, 1.0), 1.0))))
#include "catch.h"

#include <cmath>

#include "qualrank/analysis/rankings/plackett_luce.h"
#include "qualrank/analysis/rankings/ranking_model.h"

using namespace qualrank;
using Catch::Matchers::ContainsSubstring;
using Catch::Matchers::WithinAbs;

namespace {

// Items 0..3; answers 3, 6 and 7 are top-k (3 of 4, 2 of 4, 1 of 4).
std::vector<pl::Ranking> data() {
  return {{{{0}, {1}, {2}, {3}}}, {{{1}, {0}, {3}, {2}}}, {{{0}, {2}}}, {{{2}, {1}, {0}, {3}}},
          {{{3}, {0}, {1}}},      {{{1}, {3}}},           {{{0}}},      {{{2}, {3}, {1}, {0}}}};
}

void check(const pl::Fit& fit, const std::vector<double>& log_worth, const std::vector<double>& worth, double loglik,
           const std::vector<double>& se, const std::vector<double>& quasi_se) {
  REQUIRE(fit.error.empty());
  REQUIRE(fit.log_worth.size() == log_worth.size());
  CHECK_THAT(fit.log_likelihood, WithinAbs(loglik, 1e-9));
  for (std::size_t i = 0; i < log_worth.size(); ++i) {
    CHECK_THAT(fit.log_worth[i], WithinAbs(log_worth[i], 1e-6));
    CHECK_THAT(fit.worth[i], WithinAbs(worth[i], 1e-6));
    CHECK_THAT(fit.se[i], WithinAbs(se[i], 1e-5));
    CHECK_THAT(fit.quasi_se[i], WithinAbs(quasi_se[i], 1e-5));
  }
}

}  // namespace

TEST_CASE("analysis::fit_plackett_luce matches SciPy on complete and top-k rankings", "[analysis][plackett_luce]") {
  pl::Options o;
  o.pseudo_rankings = 0;
  auto fit = pl::fit_plackett_luce(4, data(), o);
  // python: plain {...}
  check(fit, {0.0, 0.00234666795054678, -0.6465500769067832, -0.6997678925754217},
        {0.33080817456228023, 0.3315853830717903, 0.17329383075286536, 0.1643126116130642}, -21.356315261231632,
        {0.0, 0.6288449562577577, 0.7186633833641144, 0.6946620615167892},
        {0.4552072379179357, 0.454520096159944, 0.5328197206426495, 0.5231595605719803});
  CHECK(fit.rankings == 8);
  CHECK(fit.iterations < 20);
  double sum = 0;
  for (double w : fit.worth) sum += w;
  CHECK_THAT(sum, WithinAbs(1.0, 1e-12));
  // The log-likelihood at the estimate is the same function evaluated directly.
  CHECK_THAT(pl::plackett_luce_log_likelihood(fit.log_worth, data()), WithinAbs(fit.log_likelihood, 1e-12));
}

TEST_CASE("analysis::fit_plackett_luce matches SciPy with pseudo-rankings", "[analysis][plackett_luce]") {
  pl::Options o;
  o.pseudo_rankings = 0.5;
  // python: pseudo {...} (all four log-worths free, the hypothetical item at 0; SEs of theta_i - theta_0)
  check(pl::fit_plackett_luce(4, data(), o), {0.0, 0.00218706285911791, -0.6059070800499473, -0.6567687307052117},
        {0.326126705440636, 0.3268407455861938, 0.17792798553818742, 0.16910456343498287}, -21.359601341267407,
        {0.0, 0.6168249377989923, 0.694327245039388, 0.6717146197163473},
        {0.44588321818561183, 0.44529824771403903, 0.5108534115841318, 0.5014356323519135});
}

TEST_CASE("analysis::fit_plackett_luce reads partial answers as subsets when asked", "[analysis][plackett_luce]") {
  pl::Options o;
  o.pseudo_rankings = 0;
  o.partial = pl::PartialRankings::subset;
  // python: subset {...} (the top-1 answer says nothing; the others rank only the items they name)
  check(pl::fit_plackett_luce(4, data(), o), {0.0, 0.1494719653646329, -0.3874683032320144, -0.733062289297048},
        {0.30116585209897856, 0.3497200866274514, 0.20442329374792478, 0.14469076752564525}, -15.183248228394266,
        {0.0, 0.6997519042319356, 0.8596727779956913, 0.8045175185635675},
        {0.49940674547353997, 0.5254330102846404, 0.6839637516772124, 0.6018292046638956});
}

TEST_CASE("analysis::fit_plackett_luce gives the likelihood-ratio statistic of SciPy", "[analysis][plackett_luce]") {
  pl::Options o;
  o.pseudo_rankings = 0;
  auto all = data();
  std::vector<pl::Ranking> a(all.begin(), all.begin() + 4), b(all.begin() + 4, all.end());
  auto fa = pl::fit_plackett_luce(4, a, o), fb = pl::fit_plackett_luce(4, b, o), f = pl::fit_plackett_luce(4, all, o);
  // python: groups {...} {...}; lr 5.612535530443118 df 3 p 0.1320605561984427
  CHECK_THAT(fa.log_likelihood, WithinAbs(-9.318016963388809, 1e-9));
  CHECK_THAT(fb.log_likelihood, WithinAbs(-9.232030532621266, 1e-9));
  CHECK_THAT(fa.log_worth[3], WithinAbs(-2.3313790160754815, 1e-6));
  CHECK_THAT(fb.log_worth[3], WithinAbs(0.9051544445759859, 1e-6));
  CHECK_THAT(fa.se[3], WithinAbs(1.250080597581284, 1e-5));
  CHECK_THAT(fb.quasi_se[2], WithinAbs(1.0309740530328784, 1e-5));
  CHECK_THAT(2 * (fa.log_likelihood + fb.log_likelihood - f.log_likelihood), WithinAbs(5.612535530443118, 1e-8));
}

TEST_CASE("analysis::plackett_luce_log_likelihood handles ties by Efron's approximation", "[analysis][plackett_luce]") {
  // a = b from {a, b}: theta_a + theta_b - log(alpha_a + alpha_b) - log((alpha_a + alpha_b) / 2).
  // At (0, 0): -log 2 - log 1 = -log 2; at (0, log 3): log 3 - log 4 - log 2 = log(3/8).
  std::vector<pl::Ranking> tie{{{{0, 1}}}};
  CHECK_THAT(pl::plackett_luce_log_likelihood({0, 0}, tie), WithinAbs(-std::log(2.0), 1e-12));
  CHECK_THAT(pl::plackett_luce_log_likelihood({0, std::log(3.0)}, tie), WithinAbs(std::log(3.0 / 8.0), 1e-12));
  // a = b > c from {a, b, c}: theta_a + theta_b - log(a + b + c) - log(a/2 + b/2 + c); c last says nothing.
  // At (log 2, 0, 0): log 2 - log 4 - log 2.5 = log 0.2. The same answer as top-2 of 3 gives the same.
  std::vector<pl::Ranking> top{{{{0, 1}, {2}}}}, top2{{{{0, 1}}}};
  CHECK_THAT(pl::plackett_luce_log_likelihood({std::log(2.0), 0, 0}, top), WithinAbs(std::log(0.2), 1e-12));
  CHECK_THAT(pl::plackett_luce_log_likelihood({std::log(2.0), 0, 0}, top2), WithinAbs(std::log(0.2), 1e-12));
  CHECK_THAT(pl::plackett_luce_log_likelihood({0, 0, 0}, top), WithinAbs(-std::log(6.0), 1e-12));
}

TEST_CASE("analysis::fit_plackett_luce estimates a tie by hand", "[analysis][plackett_luce]") {
  // "a = b" and "a > b", theta_a = 0, x = theta_b:
  //   LL = [x - log(1 + e^x) - log((1 + e^x)/2)] + [-log(1 + e^x)] = x + log 2 - 3 log(1 + e^x)
  //   LL' = 1 - 3 p = 0 with p = e^x / (1 + e^x) -> p = 1/3, x = -log 2, worths (2/3, 1/3);
  //   LL'' = -3 p (1 - p) = -2/3 -> se = sqrt(3/2); LL(max) = -log 2 + log 2 - 3 log 1.5 = -3 log 1.5.
  pl::Options o;
  o.pseudo_rankings = 0;
  auto fit = pl::fit_plackett_luce(2, {{{{0, 1}}}, {{{0}, {1}}}}, o);
  REQUIRE(fit.error.empty());
  CHECK_THAT(fit.log_worth[1], WithinAbs(-std::log(2.0), 1e-9));
  CHECK_THAT(fit.worth[0], WithinAbs(2.0 / 3.0, 1e-9));
  CHECK_THAT(fit.se[1], WithinAbs(std::sqrt(1.5), 1e-9));
  CHECK_THAT(fit.log_likelihood, WithinAbs(-3 * std::log(1.5), 1e-12));
  // Two items: each quasi-variance is half the contrast's variance.
  CHECK_THAT(fit.quasi_se[0], WithinAbs(std::sqrt(0.75), 1e-12));
  CHECK_THAT(fit.quasi_se[1], WithinAbs(std::sqrt(0.75), 1e-12));
}

TEST_CASE("analysis::fit_plackett_luce needs pseudo-rankings for one participant", "[analysis][plackett_luce]") {
  std::vector<pl::Ranking> one{{{{0}, {1}}}};
  pl::Options o;
  o.pseudo_rankings = 0;
  o.item_names = {"A.1", "A.2"};
  auto fit = pl::fit_plackett_luce(2, one, o);
  CHECK(fit.error == "the worths diverge without pseudo-rankings: A.2 never ranked above A.1 (use --pseudo-rankings)");
  CHECK(fit.worth.empty());
  // With 0.5 pseudo-rankings the problem is symmetric: theta_b = -theta_a = -x, and the score equation
  //   1 - tanh(x) + (1 - 2 sigma(x)) = 0, i.e. with t = tanh(x/2): t^3 - t^2 + 3t - 1 = 0,
  //   t = 0.3611030805286473 (numpy.roots([1, -1, 3, -1])), log-worth of b = -4 artanh(t) = -1.5126152252319292.
  o.pseudo_rankings = 0.5;
  fit = pl::fit_plackett_luce(2, one, o);
  REQUIRE(fit.error.empty());
  CHECK_THAT(fit.log_worth[1], WithinAbs(-1.5126152252319292, 1e-9));
}

TEST_CASE("analysis::fit_plackett_luce reports identical answers and unranked items", "[analysis][plackett_luce]") {
  pl::Options o;
  o.pseudo_rankings = 0;
  o.item_names = {"A.1", "A.2", "A.3"};
  std::vector<pl::Ranking> same(3, pl::Ranking{{{0}, {1}, {2}}});
  auto fit = pl::fit_plackett_luce(3, same, o);
  CHECK_THAT(fit.error, ContainsSubstring("A.3 never ranked above A.1, A.2"));
  o.pseudo_rankings = 0.5;
  fit = pl::fit_plackett_luce(3, same, o);
  REQUIRE(fit.error.empty());
  CHECK(fit.log_worth[1] < 0);
  CHECK(fit.log_worth[2] < fit.log_worth[1]);
  for (double s : fit.se) CHECK(std::isfinite(s));
  // Nobody ranks A.3 (top-1 answers): it loses every choice; with pseudo-rankings it is finite and last.
  std::vector<pl::Ranking> top1{{{{0}}}, {{{1}}}, {{{0}}}};
  o.pseudo_rankings = 0;
  CHECK_THAT(pl::fit_plackett_luce(3, top1, o).error, ContainsSubstring("A.3 never ranked above A.1, A.2"));
  o.pseudo_rankings = 0.5;
  fit = pl::fit_plackett_luce(3, top1, o);
  REQUIRE(fit.error.empty());
  CHECK(fit.worth[2] < fit.worth[1]);
  CHECK(fit.worth[1] < fit.worth[0]);
  // Read as subsets, top-1 answers compare nothing.
  o.pseudo_rankings = 0;
  o.partial = pl::PartialRankings::subset;
  CHECK_THAT(pl::fit_plackett_luce(3, top1, o).error, ContainsSubstring("never compared"));
}

TEST_CASE("analysis::fit_plackett_luce rejects malformed input", "[analysis][plackett_luce]") {
  CHECK_THROWS_AS(pl::fit_plackett_luce(2, {{{{0}, {2}}}}), std::invalid_argument);
  CHECK_THROWS_AS(pl::fit_plackett_luce(2, {{{{0}, {0}}}}), std::invalid_argument);
  CHECK_FALSE(pl::fit_plackett_luce(1, {{{{0}}}}).error.empty());
}

TEST_CASE("analysis::quasi_variances is exact for three items", "[analysis][plackett_luce]") {
  // With three items the quasi-variances fit every contrast: q_i = (v_ij + v_ik - v_jk) / 2.
  std::vector<std::vector<double>> cov{{0, 0, 0}, {0, 0.5, 0.1}, {0, 0.1, 0.3}};
  double v01 = 0.5, v02 = 0.3, v12 = 0.5 + 0.3 - 0.2;
  auto q = pl::quasi_variances(cov);
  REQUIRE(q.size() == 3);
  CHECK_THAT(q[0], WithinAbs((v01 + v02 - v12) / 2, 1e-12));
  CHECK_THAT(q[1], WithinAbs((v01 + v12 - v02) / 2, 1e-12));
  CHECK_THAT(q[2], WithinAbs((v02 + v12 - v01) / 2, 1e-12));
  CHECK_THROWS_AS(pl::quasi_variances({{0, 0}, {0, 0}}), std::invalid_argument);
}

TEST_CASE("analysis::model_rankings tests shared priorities as SciPy does", "[analysis][plackett_luce]") {
  // The same eight answers as data(), items a, b, c, d; the first four by nurses, the last four by carers.
  const std::vector<std::string> items{"a", "b", "c", "d"};
  std::vector<ParticipantRanking> answers;
  for (const auto& r : data()) {
    ParticipantRanking p;
    for (const auto& tier : r.tiers) {
      std::vector<std::string> t;
      for (int i : tier) t.push_back(items[static_cast<std::size_t>(i)]);
      p.tiers.push_back(t);
    }
    answers.push_back(p);
  }
  std::vector<std::pair<std::string, std::vector<const ParticipantRanking*>>> groups{{"nurse", {}}, {"carer", {}}};
  for (std::size_t i = 0; i < answers.size(); ++i) groups[i < 4 ? 0 : 1].second.push_back(&answers[i]);
  Diagnostics d;
  ModelOptions o;
  o.enabled = true;
  o.pseudo_rankings = 0;
  auto m = model_rankings("Q", items, groups, std::pair<std::string, std::string>{"nurse", "carer"}, o, d);
  REQUIRE(m);
  REQUIRE(m->lr_test);
  // python: lr 5.612535530443118 df 3 p 0.1320605561984427
  CHECK_THAT(m->lr_test->statistic, WithinAbs(5.612535530443118, 1e-8));
  CHECK(m->lr_test->df == 3);
  CHECK_THAT(m->lr_test->p, WithinAbs(0.1320605561984427, 1e-8));
  CHECK(m->overall.n == 8);
  // Item differences: centred log-worths, carer - nurse. From the "groups" log-worths above:
  //   nurse (0, -0.3138, -1.0799, -2.3314), mean -0.9313; carer (0, 0.2676, -0.6434, 0.9052), mean 0.1323;
  //   d: difference of d's centred values = (0.9052 - 0.1323) - (-2.3314 + 0.9313) = 2.1730.
  REQUIRE(m->item_differences.size() == 4);
  CHECK_THAT(m->item_differences[3].difference,
             WithinAbs((0.9051544445759859 - (0 + 0.26760975052175634 - 0.6434425146716694 + 0.9051544445759859) / 4) -
                           (-2.3313790160754815 - (0 - 0.313752790239999 - 1.079949732909803 - 2.3313790160754815) / 4),
                       1e-6));
  CHECK(m->item_differences[3].p_holm >= m->item_differences[3].p);
  // The two centred log-worths the difference is made from, as printed beside it.
  CHECK_THAT(m->item_differences[3].centred_b - m->item_differences[3].centred_a, WithinAbs(m->item_differences[3].difference, 1e-12));
  CHECK_THAT(m->item_differences[3].centred_a, WithinAbs(-2.3313790160754815 - (0 - 0.313752790239999 - 1.079949732909803 - 2.3313790160754815) / 4, 1e-6));
  // The log-likelihoods the statistic is made from: without pseudo-rankings the groups' own and the overall fit's.
  CHECK(m->lr_test->pooled_pseudo_rankings == 0.0);
  REQUIRE(m->lr_test->group_log_likelihoods.size() == 2);
  CHECK_THAT(m->lr_test->group_log_likelihoods[0], WithinAbs(m->groups[0].fit.log_likelihood, 1e-12));
  CHECK_THAT(m->lr_test->separate_log_likelihood, WithinAbs(m->groups[0].fit.log_likelihood + m->groups[1].fit.log_likelihood, 1e-12));
  CHECK_THAT(m->lr_test->pooled_log_likelihood, WithinAbs(m->overall.fit.log_likelihood, 1e-12));
  CHECK_THAT(2 * (m->lr_test->separate_log_likelihood - m->lr_test->pooled_log_likelihood), WithinAbs(m->lr_test->statistic, 1e-12));
  // With pseudo-rankings: penalised, nested (the common model keeps both groups' pseudo-rankings).
  // python: lr_pseudo 4.908696053221412
  o.pseudo_rankings = 0.5;
  m = model_rankings("Q", items, groups, std::nullopt, o, d);
  REQUIRE(m);
  CHECK_THAT(m->lr_test->statistic, WithinAbs(4.908696053221412, 1e-7));
  // Rebuilt from the numbers reported beside it, which are not the rankings-only log-likelihoods (nor the overall
  // fit's, with npseudo once): the pooled fit has 2 x 0.5 pseudo-rankings per item.
  CHECK(m->lr_test->pooled_pseudo_rankings == 1.0);
  CHECK_THAT(2 * (m->lr_test->separate_log_likelihood - m->lr_test->pooled_log_likelihood), WithinAbs(m->lr_test->statistic, 1e-12));
  CHECK_THAT(m->lr_test->separate_log_likelihood,
             WithinAbs(m->groups[0].fit.penalised_log_likelihood + m->groups[1].fit.penalised_log_likelihood, 1e-12));
  CHECK(std::fabs(2 * (m->groups[0].fit.log_likelihood + m->groups[1].fit.log_likelihood - m->overall.fit.log_likelihood) -
                  m->lr_test->statistic) > 1e-3);
  CHECK(m->item_differences.empty());
  CHECK_FALSE(d.has_errors());
}

// Issue #22: 1,600 identical rankings of 10 items (the report failed "information matrix is singular"): the
// worths lie orders of magnitude apart, so the later choices' "every item but the chosen" denominators cancel.
// Expected log-worths from SciPy (Debian python3-scipy 1.10.1), BFGS on the penalised log-likelihood
// (npseudo 0.5 wins and 0.5 losses per item against a hypothetical item of worth 1):
//   import numpy as np; from scipy.optimize import minimize; from scipy.special import logsumexp
//   n, m = 1600, 10
//   def f(th): return -(n * sum(th[k] - logsumexp(th[k:]) for k in range(m - 1)) + np.sum(0.5 * (th - 2 * np.logaddexp(0, th))))
//   def g(th):
//       out = np.zeros(m)
//       for k in range(m - 1):
//           p = np.exp(th[k:] - logsumexp(th[k:])); out[k] += n; out[k:] -= n * p
//       return -(out + 0.5 * (1 - 2 / (1 + np.exp(-th))))
//   r = minimize(f, np.zeros(m), jac=g, method='BFGS', options={'gtol': 1e-10, 'maxiter': 10000})
//   print([round(x - r.x[0], 4) for x in r.x])
//   -> [0.0, -8.0712, -15.4496, -22.4228, -29.1087, -35.5864, -42.2722, -49.2454, -56.6238, -64.695]
TEST_CASE("analysis::fit_plackett_luce fits many identical rankings (worths far apart)", "[analysis][plackett_luce]") {
  std::vector<qualrank::pl::Ranking> rankings;
  for (int i = 0; i < 1600; ++i) {
    qualrank::pl::Ranking r;
    for (int k = 0; k < 10; ++k) r.tiers.push_back({k});
    rankings.push_back(r);
  }
  auto fit = qualrank::pl::fit_plackett_luce(10, rankings);
  REQUIRE(fit.error.empty());
  const double expected[] = {0.0, -8.0712, -15.4496, -22.4228, -29.1087, -35.5864, -42.2722, -49.2454, -56.6238, -64.695};
  for (int k = 0; k < 10; ++k) CHECK(fit.log_worth[k] == Approx(expected[k]).margin(2e-4));
  for (int k = 1; k < 10; ++k) CHECK(std::isfinite(fit.se[k]));
}
