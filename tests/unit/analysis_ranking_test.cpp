// Expected values computed independently with the script below (Debian python3-scipy 1.10.1,
// python3-statsmodels 0.13.5): paste it into `/usr/bin/python3 -` (with A, B = kGroupA/kGroupB) to recompute.
//   import numpy as np; from scipy.stats import spearmanr, kendalltau, mannwhitneyu, chi2
//   from statsmodels.stats.multitest import multipletests
//   items=['A.1','A.2','A.10','B.1','B.2']
//   def ranks(tiers):   # partial rankings: unranked items share the mean of the remaining positions
//       r={}; pos=0
//       for t in tiers:
//           for i in t: r[i]=pos+(len(t)+1)/2
//           pos+=len(t)
//       left=[i for i in items if i not in r]
//       for i in left: r[i]=pos+(len(left)+1)/2
//       return [r[i] for i in items]
//   ra=np.array([ranks(t) for t in A]); rb=np.array([ranks(t) for t in B])   # A, B = the tiers in fixture()
//   ma=ra.mean(0); mb=rb.mean(0); print(spearmanr(ma,mb), kendalltau(ma,mb))
//   # rho's p for 5 items is exact over all pairings (stats::spearman_p_exact):
//   from scipy.stats import permutation_test
//   print(permutation_test((ma,), lambda a: spearmanr(a, mb).statistic, permutation_type='pairings',
//                          n_resamples=np.inf).pvalue)
//   for j in range(5): print(mannwhitneyu(ra[:,j], rb[:,j]))
//   print(multipletests(ps, method='holm')[1])
//   Cliff's delta(b, a) = sum(sign(x - y) for x in rb[:,j] for y in ra[:,j]) / (nb * na)
//   Kendall's W: 12 S / (m^2 (n^3 - n) - m sum(t^3 - t)), chi2 = m (n - 1) W, p = chi2.sf(x2, n - 1)
#include "catch.h"

#include <cmath>

#include "qualrank/analysis/rankings/ranking.h"
#include "qualrank/report/outputs/ranking_output.h"

using namespace qualrank;
using Catch::Matchers::WithinAbs;

namespace {

ParticipantRanking answer(const std::string& who, const std::string& role, std::vector<std::vector<std::string>> tiers) {
  ParticipantRanking r;
  r.participant = who;
  r.question = "Q";
  r.attributes["role"] = role;
  r.tiers = std::move(tiers);
  return r;
}

RankingQuestionInput fixture() {
  RankingQuestionInput q;
  q.question = "Q";
  q.items = {"A.1", "A.2", "A.10", "B.1", "B.2"};
  q.answers = {
      answer("a1", "user", {{"A.1"}, {"A.2"}, {"A.10"}, {"B.1"}, {"B.2"}}),
      answer("a2", "user", {{"A.2"}, {"A.1"}, {"B.1"}, {"A.10"}, {"B.2"}}),
      answer("a3", "user", {{"A.1"}, {"A.10", "A.2"}, {"B.2"}, {"B.1"}}),
      answer("a4", "user", {{"A.1"}, {"B.1"}}),
      answer("a5", "user", {{"A.2"}, {"A.1"}, {"A.10"}, {"B.2"}, {"B.1"}}),
      answer("b1", "developer", {{"B.1"}, {"B.2"}, {"A.1"}, {"A.2"}, {"A.10"}}),
      answer("b2", "developer", {{"B.2"}, {"B.1"}, {"A.2"}, {"A.1"}, {"A.10"}}),
      answer("b3", "developer", {{"B.1"}, {"A.1"}, {"B.2"}, {"A.10"}, {"A.2"}}),
      answer("b4", "developer", {{"B.1", "B.2"}, {"A.1"}, {"A.2"}, {"A.10"}}),
  };
  return q;
}

const ItemGap& gap_of(const QuestionRankAnalysis& q, const std::string& item) {
  for (const auto& g : q.gaps)
    if (g.item == item) return g;
  throw std::runtime_error("no gap for " + item);
}

}  // namespace

TEST_CASE("analysis::analyse_rankings matches SciPy on partial and tied rankings", "[analysis][ranking]") {
  Diagnostics d;
  RankingOptions opts;
  opts.resamples = 2000;
  auto a = analyse_rankings({fixture()}, {"user", "developer"}, opts, d);
  REQUIRE(a.questions.size() == 1);
  const auto& q = a.questions[0];
  REQUIRE(q.groups.size() == 2);
  const auto& users = q.groups[0];
  CHECK(users.level == "user");
  CHECK(users.n == 5);
  std::vector<double> mean_a{1.4, 2.1, 3.3, 3.8, 4.4}, mean_b{3.0, 4.0, 4.75, 1.375, 1.875};
  std::vector<double> median_a{1.0, 2.0, 3.0, 4.0, 4.0}, borda_a{18.0, 14.5, 8.5, 6.0, 3.0};
  for (std::size_t j = 0; j < 5; ++j) {
    CHECK_THAT(users.mean_rank[j], WithinAbs(mean_a[j], 1e-12));
    CHECK_THAT(q.groups[1].mean_rank[j], WithinAbs(mean_b[j], 1e-12));
    CHECK_THAT(users.median_rank[j], WithinAbs(median_a[j], 1e-12));
    CHECK_THAT(users.borda[j], WithinAbs(borda_a[j], 1e-12));
  }
  CHECK(users.consensus == std::vector<std::string>{"A.1", "A.2", "A.10", "B.1", "B.2"});
  CHECK(q.groups[1].consensus == std::vector<std::string>{"B.1", "B.2", "A.1", "A.2", "A.10"});
  CHECK_THAT(users.kendall_w, WithinAbs(0.6378947368421053, 1e-9));
  CHECK_THAT(users.kendall_w_p, WithinAbs(0.012521396562731307, 1e-9));
  CHECK_THAT(q.groups[1].kendall_w, WithinAbs(0.8069620253164557, 1e-9));
  CHECK_THAT(q.groups[1].kendall_w_p, WithinAbs(0.011716960501462455, 1e-9));

  REQUIRE(q.comparison);
  CHECK(q.comparison->a == "user");
  CHECK_THAT(q.comparison->spearman_rho, WithinAbs(-0.5, 1e-9));
  CHECK_THAT(q.comparison->spearman_p, WithinAbs(0.45, 1e-12));  // exact (spearmanr's t-based p: 0.39100221895577053)
  CHECK_THAT(q.comparison->kendall_tau_b, WithinAbs(-0.2, 1e-9));
  CHECK_THAT(q.comparison->kendall_tau_p, WithinAbs(0.8166666666666667, 1e-9));
  CHECK(q.comparison->rho_ci.first <= q.comparison->rho_ci.second);

  struct Expected { const char* item; double u, p, holm, delta; };
  for (auto e : {Expected{"A.1", 1.0, 0.030400749685896046, 0.10229467747285854, 0.9},
                 Expected{"A.2", 2.0, 0.06056886020265745, 0.10229467747285854, 0.8},
                 Expected{"A.10", 1.0, 0.030400749685896046, 0.10229467747285854, 0.9},
                 Expected{"B.1", 19.5, 0.025573669368214636, 0.10229467747285854, -0.95},
                 Expected{"B.2", 20.0, 0.01745104482793073, 0.08725522413965364, -1.0}}) {
    const ItemGap g = gap_of(q, e.item);  // a copy: GCC 14 -Wdangling-reference
    CHECK_THAT(g.mann_whitney_u, WithinAbs(e.u, 1e-12));
    CHECK_THAT(g.p, WithinAbs(e.p, 1e-9));
    CHECK_THAT(g.p_holm, WithinAbs(e.holm, 1e-9));
    CHECK_THAT(g.cliffs_delta, WithinAbs(e.delta, 1e-12));
    CHECK(g.misaligned);  // |delta| >= 0.474 for every item here
  }
  // sorted by |gap|: B.2 (2.525), B.1 (2.425), A.2 (1.9), A.1 (1.6), A.10 (1.45)
  std::vector<std::string> order;
  for (const auto& g : q.gaps) order.push_back(g.item);
  CHECK(order == std::vector<std::string>{"B.2", "B.1", "A.2", "A.1", "A.10"});
}

TEST_CASE("analysis::analyse_rankings is reproducible for a seed and honours --where and --compare", "[analysis][ranking]") {
  Diagnostics d;
  RankingOptions opts;
  opts.resamples = 500;
  opts.seed = 7;
  auto one = analyse_rankings({fixture()}, {"user", "developer"}, opts, d);
  auto two = analyse_rankings({fixture()}, {"user", "developer"}, opts, d);
  CHECK(one.questions[0].comparison->rho_ci == two.questions[0].comparison->rho_ci);
  opts.seed = 8;
  auto other = analyse_rankings({fixture()}, {"user", "developer"}, opts, d);
  CHECK(other.questions[0].comparison->spearman_rho == one.questions[0].comparison->spearman_rho);

  opts.compare = std::pair<std::string, std::string>{"developer", "user"};
  auto swapped = analyse_rankings({fixture()}, {"user", "developer"}, opts, d);
  CHECK(swapped.questions[0].comparison->a == "developer");
  CHECK_THAT(gap_of(swapped.questions[0], "B.2").gap, WithinAbs(4.4 - 1.875, 1e-12));

  RankingOptions only_users;
  only_users.where = {{"role", "user"}};
  Diagnostics notes;
  auto filtered = analyse_rankings({fixture()}, {"user", "developer"}, only_users, notes);
  CHECK(filtered.questions[0].groups.size() == 1);
  CHECK_FALSE(filtered.questions[0].comparison);
  CHECK_FALSE(notes.empty());
}

TEST_CASE("analysis::analyse_rankings handles identical and all-tied rankings", "[analysis][ranking]") {
  RankingQuestionInput q;
  q.question = "Q";
  q.items = {"X", "Y", "Z"};
  for (int i = 0; i < 3; ++i) q.answers.push_back(answer("u" + std::to_string(i), "user", {{"X"}, {"Y"}, {"Z"}}));
  for (int i = 0; i < 3; ++i) q.answers.push_back(answer("d" + std::to_string(i), "developer", {{"X", "Y", "Z"}}));
  Diagnostics d;
  RankingOptions opts;
  opts.resamples = 100;
  auto a = analyse_rankings({q}, {"user", "developer"}, opts, d);
  const auto& qa = a.questions[0];
  CHECK_THAT(qa.groups[0].kendall_w, WithinAbs(1.0, 1e-12));  // identical rankings
  CHECK(std::isnan(qa.groups[1].kendall_w));                    // every rater ties every item
  CHECK(std::isnan(qa.comparison->spearman_rho));               // developers' mean ranks are constant
  // No interval for an undefined rho (SciPy's spearmanr gives nan): it used to be [-1, 1] from resamples.
  CHECK(std::isnan(qa.comparison->rho_ci.first));
  CHECK(std::isnan(qa.comparison->rho_ci.second));
  const auto text = rankings_table(a, Taxonomy{});
  INFO(text);
  CHECK(text.find("user vs developer: rho=n/a p=n/a") != std::string::npos);
  CHECK(qa.groups[1].consensus == std::vector<std::string>{"X", "Y", "Z"});  // ties broken by item order
}

TEST_CASE("analysis::read_ranking_table reports invalid UTF-8 located, in any field", "[analysis][ranking]") {
  const Taxonomy taxonomy;
  const NodeResolver resolve = direct_resolver(taxonomy);
  // A byte 0xC0 (never valid UTF-8) in a role value and in a question id; it used to reach the JSON writer
  // and stop the run with an internal error (json type_error.316).
  for (const auto& [text, where] : {std::pair<std::string, std::string>{"participant,question,ranking,role\na1,Q,A.1,us\xC0r\n", "t.csv:2:12"},
                                    {"participant,question,ranking\na1,Q\xC0,A.1\n", "t.csv:2:5"}}) {
    Diagnostics d;
    const auto inputs = read_ranking_table(text, "t.csv", taxonomy, resolve, {}, d);
    CHECK(inputs.empty());
    REQUIRE(d.items().size() == 1);
    CHECK(format_diagnostic(d.items()[0]) == where + ": error: invalid UTF-8");
  }
}

TEST_CASE("analysis::analyse_rankings cuts the consensus into tiers of equal mean rank, shown with =", "[analysis][ranking]") {
  RankingQuestionInput q;
  q.question = "Q";
  q.items = {"X", "Y", "Z", "W"};
  // Mean ranks: X 1.5, Y 1.5, Z 3, W 4 (two raters swap X and Y).
  q.answers = {answer("m1", "manager", {{"X"}, {"Y"}, {"Z"}, {"W"}}), answer("m2", "manager", {{"Y"}, {"X"}, {"Z"}, {"W"}})};
  for (int i = 0; i < 2; ++i) q.answers.push_back(answer("e" + std::to_string(i), "employee", {{"W"}, {"Z"}, {"Y"}, {"X"}}));
  Diagnostics d;
  RankingOptions opts;
  opts.resamples = 100;
  auto a = analyse_rankings({q}, {"manager", "employee"}, opts, d);
  const auto& managers = a.questions[0].groups[0];
  CHECK(managers.consensus == std::vector<std::string>{"X", "Y", "Z", "W"});
  CHECK(managers.consensus_tiers == std::vector<std::vector<std::string>>{{"X", "Y"}, {"Z"}, {"W"}});
  CHECK(consensus_text(managers.consensus_tiers) == "X = Y > Z > W");
  CHECK(consensus_text(a.questions[0].groups[1].consensus_tiers) == "W > Z > Y > X");
  const auto text = rankings_table(a, Taxonomy{});
  INFO(text);
  CHECK(text.find("manager (n=2, W=") != std::string::npos);
  CHECK(text.find("X (1.50) = Y (1.50) > Z (3.00) > W (4.00)") != std::string::npos);
  const auto md = rankings_markdown(a, Taxonomy{});
  INFO(md);
  CHECK(md.find("- manager: X = Y > Z > W") != std::string::npos);
  auto json = rankings_json(a);
  CHECK(json["questions"][0]["groups"]["manager"]["consensus_tiers"].dump() == R"([["X","Y"],["Z"],["W"]])");
  CHECK(json["questions"][0]["groups"]["manager"]["consensus"].dump() == R"(["X","Y","Z","W"])");  // unchanged key
}

TEST_CASE("report::question_heading shows the words, or marks a question worded per role", "[analysis][ranking]") {
  QuestionRankAnalysis q;
  q.question = "III.R";
  q.text = "Rank these.";
  CHECK(question_heading(q) == "III.R: Rank these.");
  q.wording = {{{"manager", "employee"}, "Rank these."}};
  CHECK(question_heading(q) == "III.R: Rank these.");
  q.wording = {{{"manager"}, "Rank these."}, {{"employee", "contractor"}, "Which two matter?"}};
  CHECK(question_heading(q) == "III.R (worded per role)");
}

namespace {

// Three groups over items T.1..T.3 (full rankings): the fieldwork-groups table of tests/fixtures/rank.
RankingQuestionInput three_groups() {
  const auto a = answer;  // (the helper above)
  RankingQuestionInput q;
  q.question = "Q";
  q.items = {"T.1", "T.2", "T.3"};
  q.answers = {a("m1", "manager", {{"T.1"}, {"T.2"}, {"T.3"}}),  a("m2", "manager", {{"T.1"}, {"T.3"}, {"T.2"}}),
               a("m3", "manager", {{"T.2"}, {"T.1"}, {"T.3"}}),  a("e1", "employee", {{"T.3"}, {"T.2"}, {"T.1"}}),
               a("e2", "employee", {{"T.2"}, {"T.3"}, {"T.1"}}), a("e3", "employee", {{"T.3"}, {"T.1"}, {"T.2"}}),
               a("e4", "employee", {{"T.2"}, {"T.1"}, {"T.3"}}), a("c1", "contractor", {{"T.1"}, {"T.2"}, {"T.3"}}),
               a("c2", "contractor", {{"T.3"}, {"T.2"}, {"T.1"}})};
  return q;
}

}  // namespace

TEST_CASE("analysis::analyse_rankings tests k groups and says what small samples cannot show", "[ranking]") {
  RankingOptions o;
  o.resamples = 100;
  Diagnostics d;
  auto a = analyse_rankings({three_groups()}, {"manager", "employee", "contractor"}, o, d);
  const auto& q = a.questions.at(0);
  // /usr/bin/python3 -c 'from scipy.stats import kruskal; print(repr(kruskal([1,1,2],[3,3,2,2],[1,3]).statistic), repr(kruskal([1,1,2],[3,3,2,2],[1,3]).pvalue))'
  // -> 3.111111111111108 0.21107208779109052; epsilon-squared 3.111111111111108 / 8 = 0.3888888888888885
  // Holm: /usr/bin/python3 -c 'from statsmodels.stats.multitest import multipletests as m; print(m([0.21107208779109052,0.8696342659522598,0.43667265903363073],method="holm")[1])'
  // -> [0.63321626 0.87334532 0.87334532]
  REQUIRE(q.k_groups);
  CHECK(q.k_groups->groups == std::vector<std::string>{"manager", "employee", "contractor"});
  CHECK_THAT(q.k_groups->items[0].kruskal_h, WithinAbs(3.111111111111108, 1e-9));
  CHECK_THAT(q.k_groups->items[0].p, WithinAbs(0.21107208779109052, 1e-9));
  CHECK_THAT(q.k_groups->items[0].p_holm, WithinAbs(0.6332162633732715, 1e-9));
  CHECK_THAT(q.k_groups->items[0].epsilon_squared, WithinAbs(0.3888888888888885, 1e-9));
  CHECK_THAT(q.k_groups->items[2].p_holm, WithinAbs(0.8733453180672615, 1e-9));
  // default pair: the first two groups; the third is named, not dropped silently
  REQUIRE(q.comparisons.size() == 1);
  CHECK(q.comparison->a == "manager");
  CHECK(q.not_compared == std::vector<std::string>{"contractor"});
  // 3 and 4: min p 0.024744672046398936 (scipy: mannwhitneyu([1,1,1],[2,2,2,2])) x 3 items >= 0.05
  CHECK_THAT(q.comparison->min_p, WithinAbs(0.024744672046398936, 1e-12));
  CHECK_FALSE(q.comparison->can_reach_significance);
  CHECK(q.comparison->warnings.at(0).rfind("with 3 and 4 participants no item can reach p < 0.05 after Holm's correction; flags rest on effect size alone", 0) == 0);
  for (const auto& g : q.gaps) CHECK(g.basis == (g.misaligned ? "effect size" : ""));
  // the guideline's pairs: both analysed, nothing left out; a pair with a group of 2 is reported, not flagged
  o.comparisons = {{"manager", "contractor"}, {"employee", "contractor"}};
  a = analyse_rankings({three_groups()}, {"manager", "employee", "contractor"}, o, d);
  const auto& q2 = a.questions.at(0);
  REQUIRE(q2.comparisons.size() == 2);
  CHECK(q2.comparisons[1].comparison.a == "employee");
  CHECK(q2.not_compared.empty());
  CHECK_FALSE(q2.comparisons[0].comparison.flags_allowed);
  for (const auto& pa : q2.comparisons)
    for (const auto& g : pa.gaps) CHECK_FALSE(g.misaligned);
}

TEST_CASE("analysis::group_phrase names a group for a sentence", "[analysis][ranking]") {
  RankingOptions o;
  o.plurals = {{"nurse", "nurses"}};
  CHECK(group_phrase(o, "nurse") == "nurses");
  CHECK(group_phrase(o, "it-staff") == "participants in role it-staff");
  o.by = "experience";
  CHECK(group_phrase(o, "senior") == "participants with experience senior");
}

TEST_CASE("analysis::analyse_rankings leaves groups below min_group out of every statistic", "[analysis][ranking]") {
  // manager 3, employee 4, contractor 2 (three_groups()); min_group 3 leaves contractor out
  RankingOptions o;
  o.resamples = 0;
  o.min_group = 3;
  o.model.enabled = true;
  Diagnostics d;
  auto a = analyse_rankings({three_groups()}, {"manager", "employee", "contractor"}, o, d);
  const auto& q = a.questions.at(0);
  CHECK(q.too_small == std::vector<std::string>{"contractor"});
  CHECK(q.too_small_note ==
        "contractor (n = 2) has fewer than 3 participants (the minimum group size, --min-group): its raw rankings are shown, and no "
        "confidence interval, test, model or flag is computed for it, since so few answers describe individuals, not a group.");
  CHECK_FALSE(q.k_groups);  // two groups remain
  CHECK(q.not_compared.empty());
  REQUIRE(q.model);
  REQUIRE(q.model->groups.size() == 2);
  CHECK(q.model->groups[1].level == "employee");
  // a comparison asked for with the small group is not made
  o.comparisons = {{"manager", "contractor"}, {"manager", "employee"}};
  a = analyse_rankings({three_groups()}, {"manager", "employee", "contractor"}, o, d);
  REQUIRE(a.questions[0].comparisons.size() == 1);
  CHECK(a.questions[0].comparisons[0].comparison.b == "employee");
  REQUIRE(a.questions[0].model->pairs.size() == 1);
  CHECK(a.questions[0].model->pairs[0].b == "employee");
}
