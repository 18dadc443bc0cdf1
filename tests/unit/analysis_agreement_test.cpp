// Unit tests for the label-table agreement report (src/analysis/agreement/agreement.cpp; the joint bootstrap is
// tested in analysis_agreement_bootstrap_test.cpp). Expected values come from Debian's /usr/bin/python3
// (statsmodels 0.13.5, NumPy 1.24.2) with the one-line command in the comment above them; alpha is checked
// against an independent NumPy implementation that builds the coincidence matrix pair by pair
// (Krippendorff 2011, section C), as in analysis_agreement_stats_test.cpp.
#include "catch.h"

#include <cmath>
#include <memory>
#include <string>

#include "qualrank/analysis/agreement/agreement.h"
#include "qualrank/analysis/agreement/agreement_bootstrap.h"
#include "qualrank/report/outputs/agreement_output.h"
#include "qualrank/util/files.h"

using namespace qualrank;

namespace {

Approx near(double v) { return Approx(v).margin(1e-12).epsilon(1e-12); }

struct LoadedTaxonomy {
  Taxonomy taxonomy;
  NodeResolver resolve;
};

const LoadedTaxonomy& study_taxonomy() {
  static const std::unique_ptr<LoadedTaxonomy> loaded = [] {
    Diagnostics d;
    auto t = load_taxonomy(*files::read(std::string(QUALRANK_SOURCE_DIR) + "/codebooks/llm-frameworks.yaml"), "t.yaml", d);
    auto out = std::make_unique<LoadedTaxonomy>(LoadedTaxonomy{std::move(*t), {}});
    out->resolve = direct_resolver(out->taxonomy);
    return out;
  }();
  return *loaded;
}

LabelTable repeated_units(DuplicateUnits duplicates) {
  Diagnostics d;
  const auto& t = study_taxonomy();
  LabelColumns columns;
  columns.duplicates = duplicates;
  auto table = read_label_files({std::string(QUALRANK_FIXTURES_DIR) + "/agreement/repeated-units.csv"},
                                QUALRANK_FIXTURES_DIR, columns, {&t.taxonomy, &t.resolve, 1}, d);
  REQUIRE_FALSE(d.has_errors());
  return table;
}

LabelTable edge_cases() {
  Diagnostics d;
  const auto& t = study_taxonomy();
  auto table = read_label_files({std::string(QUALRANK_FIXTURES_DIR) + "/agreement/edge-cases.csv"},
                                QUALRANK_FIXTURES_DIR, {}, {&t.taxonomy, &t.resolve, 1}, d);
  REQUIRE_FALSE(d.has_errors());
  return table;
}

// A free-category table from CSV text.
LabelTable free_table(const std::string& text) {
  Diagnostics d;
  auto t = read_label_tables({{"t.csv", "t", text}}, {}, {}, d);
  REQUIRE_FALSE(d.has_errors());
  return t;
}

AgreementOptions no_bootstrap() {
  AgreementOptions o;
  o.resamples = 0;
  return o;
}

}  // namespace

// edge-cases.csv as codes (A.1=0 A.2=1 A.3=2 A.4=3 B.1=4 C.1=5 C.2=6 C.3=7; -1 missing):
//   U=[[0,0,1],[4,4,4],[5,-1,5],[6,6,7],[2,3,2],[2,2,2]], consensus F=[0,4,5,-1,2,2]
TEST_CASE("analysis::label_agreement matches statsmodels on a table with a missing rating", "[agreement]") {
  Diagnostics d;
  const auto a = label_agreement(edge_cases(), &study_taxonomy().taxonomy, no_bootstrap(), d);
  REQUIRE_FALSE(d.has_errors());
  CHECK(a.overall.units == 6);
  CHECK(a.overall.dropped_units == 1);
  // /usr/bin/python3 -c "import numpy as np; from statsmodels.stats.inter_rater import fleiss_kappa, aggregate_raters; U=np.array([[0,0,1],[4,4,4],[5,-1,5],[6,6,7],[2,3,2],[2,2,2]]); T=U[(U>=0).all(1)]; print(repr(fleiss_kappa(aggregate_raters(T,n_cat=8)[0])))"
  CHECK(a.overall.fleiss_kappa == near(0.49999999999999994));
  // /usr/bin/python3 -c "import numpy as np, itertools as it; U=[[0,0,1],[4,4,4],[5,-1,5],[6,6,7],[2,3,2],[2,2,2]]; k=8; o=np.zeros((k,k)); [o.__setitem__((a,b),o[a,b]+1/(len(v)-1)) for u in U for v in [[x for x in u if x>=0]] if len(v)>1 for a,b in it.permutations(v,2)]; nc=o.sum(1); n=nc.sum(); print(repr(1-(n-1)*(o.sum()-np.trace(o))/(n*n-(nc**2).sum())))"
  CHECK(a.overall.krippendorff_alpha == near(0.6));
  // /usr/bin/python3 -c "import numpy as np; U=[[0,0,1],[4,4,4],[5,-1,5],[6,6,7],[2,3,2],[2,2,2]]; r=[(np.bincount(v)*(np.bincount(v)-1)).sum()/(len(v)*(len(v)-1)) for u in U for v in [[x for x in u if x>=0]] if len(v)>1]; print(repr(np.mean(r)))"
  CHECK(a.overall.percent_agreement == near(0.6666666666666666));
  CHECK(a.overall.pairable_units == 6);  // percent agreement's units: the unit with a missing rating too
  // All coders agree on [4,4,4] and [2,2,2]: 2 of the 5 units rated by every coder.
  CHECK(a.overall.all_agree.units == 5);
  CHECK(a.overall.all_agree.agreeing == 2);
  CHECK(a.overall.all_agree.share == near(0.4));
  // /usr/bin/python3 -c "import numpy as np; from statsmodels.stats.inter_rater import cohens_kappa; U=np.array([[0,0,1],[4,4,4],[5,-1,5],[6,6,7],[2,3,2],[2,2,2]]); print([repr(cohens_kappa(np.array([[sum(1 for u in U if u[a]==x and u[b]==y) for y in range(8)] for x in range(8)])).kappa) for a,b in [(0,1),(0,2),(1,2)]])"
  REQUIRE(a.pairs.size() == 3);
  CHECK(a.pairs[0].a == "Label_1");
  CHECK(a.pairs[0].b == "Label_2");
  CHECK(a.pairs[0].kappa == near(0.75));
  CHECK(a.pairs[0].units == 5);
  CHECK(a.pairs[1].kappa == near(0.6));
  CHECK(a.pairs[1].units == 6);
  CHECK(a.pairs[2].kappa == near(0.31818181818181823));
  // /usr/bin/python3 -c "import numpy as np; from statsmodels.stats.inter_rater import aggregate_raters; U=np.array([[0,0,1],[4,4,4],[5,-1,5],[6,6,7],[2,3,2],[2,2,2]]); t=aggregate_raters(U[(U>=0).all(1)],n_cat=8)[0]; N,m=len(t),t.sum(1)[0]; p=t.sum(0)/(N*m); print([repr(v) for v in 1-(t*(m-t)).sum(0)/(N*m*(m-1)*p*(1-p))])"
  const std::vector<double> per_category{0.42307692307692313, -0.0714285714285714, 0.7000000000000001, -0.0714285714285714,
                                         1.0, NAN, 0.42307692307692313, -0.0714285714285714};
  REQUIRE(a.per_category.size() == 8);
  for (std::size_t c = 0; c < 8; ++c) {
    INFO(a.per_category[c].category);
    if (std::isnan(per_category[c])) CHECK(std::isnan(a.per_category[c].fleiss_kappa));  // C.1: only in the dropped unit
    else CHECK(a.per_category[c].fleiss_kappa == near(per_category[c]));
  }
  // /usr/bin/python3 -c "import numpy as np; from statsmodels.stats.inter_rater import cohens_kappa; U=np.array([[0,0,1],[4,4,4],[5,-1,5],[6,6,7],[2,3,2],[2,2,2]]); F=[0,4,5,-1,2,2]; print([(repr(np.mean([u[c]==f for u,f in zip(U,F) if u[c]>=0 and f>=0])), repr(cohens_kappa(np.array([[sum(1 for u,f in zip(U,F) if u[c]==x and f==y) for y in range(8)] for x in range(8)])).kappa)) for c in range(3)])"
  REQUIRE(a.coder_vs_final.size() == 3);
  CHECK(a.coder_vs_final[0].agreement == near(1.0));
  CHECK(a.coder_vs_final[0].cohen_kappa == near(1.0));
  CHECK(a.coder_vs_final[0].units == 5);
  CHECK(a.coder_vs_final[1].agreement == near(0.75));
  CHECK(a.coder_vs_final[1].cohen_kappa == near(0.6666666666666666));
  CHECK(a.coder_vs_final[1].units == 4);
  CHECK(a.coder_vs_final[2].agreement == near(0.8));
  CHECK(a.coder_vs_final[2].cohen_kappa == near(0.736842105263158));
}

TEST_CASE("analysis::label_agreement groups units by the consensus label's ancestor", "[agreement]") {
  Diagnostics d;
  AgreementOptions o = no_bootstrap();
  o.group_by_level = 1;
  const auto a = label_agreement(edge_cases(), &study_taxonomy().taxonomy, o, d);
  REQUIRE_FALSE(d.has_errors());
  CHECK(a.group_level == 1);
  CHECK(a.ungrouped_units == 1);  // vllm#4 has no consensus
  REQUIRE(a.groups.size() == 3);
  // A: units 1, 5, 6; B: unit 2; C: unit 3 (rated by two of three coders)
  CHECK(a.groups[0].group == "A");
  CHECK(a.groups[0].figures.units == 3);
  // /usr/bin/python3 -c "import numpy as np; from statsmodels.stats.inter_rater import fleiss_kappa, aggregate_raters; print(repr(fleiss_kappa(aggregate_raters(np.array([[0,0,1],[2,3,2],[2,2,2]]),n_cat=8)[0])))"
  CHECK(a.groups[0].figures.fleiss_kappa == near(0.2799999999999998));
  // /usr/bin/python3 -c "import numpy as np, itertools as it; U=[[0,0,1],[2,3,2],[2,2,2]]; k=8; o=np.zeros((k,k)); [o.__setitem__((a,b),o[a,b]+1/(len(v)-1)) for u in U for v in [[x for x in u if x>=0]] if len(v)>1 for a,b in it.permutations(v,2)]; nc=o.sum(1); n=nc.sum(); print(repr(1-(n-1)*(o.sum()-np.trace(o))/(n*n-(nc**2).sum())))"
  CHECK(a.groups[0].figures.krippendorff_alpha == near(0.36));
  CHECK(a.groups[0].figures.percent_agreement == near(5.0 / 9.0));
  // one category only: Fleiss and alpha undefined, perfect observed agreement
  CHECK(a.groups[1].group == "B");
  CHECK(std::isnan(a.groups[1].figures.fleiss_kappa));
  CHECK(std::isnan(a.groups[1].figures.krippendorff_alpha));
  CHECK(a.groups[1].figures.percent_agreement == 1.0);
  CHECK(a.groups[2].group == "C");
  CHECK(a.groups[2].figures.dropped_units == 1);
  REQUIRE(a.sources.size() == 1);
  CHECK(a.sources[0].units == 6);
  CHECK(a.sources[0].groups == std::vector<std::pair<std::string, std::int64_t>>{{"A", 3}, {"B", 1}, {"C", 1}});
}

TEST_CASE("analysis::label_agreement refuses grouping without a taxonomy or consensus", "[agreement]") {
  AgreementOptions o = no_bootstrap();
  o.group_by_level = 1;
  Diagnostics d1;
  label_agreement(free_table("id,Label_1,Label_2,final\nu1,a,a,a\n"), nullptr, o, d1);
  CHECK(d1.error_count() == 1);
  Diagnostics d2;
  label_agreement(edge_cases(), &study_taxonomy().taxonomy, [&] { auto x = o; x.group_by_level = 9; return x; }(), d2);
  CHECK(d2.error_count() == 1);
}

TEST_CASE("analysis::label_agreement on perfect agreement, one category, and two coders", "[agreement]") {
  Diagnostics d;
  // perfect agreement over three categories: every statistic 1
  const auto perfect = label_agreement(free_table("id,Label_1,Label_2,Label_3\nu1,a,a,a\nu2,b,b,b\nu3,c,c,c\nu4,a,a,a\n"),
                                       nullptr, no_bootstrap(), d);
  CHECK(perfect.overall.fleiss_kappa == near(1.0));
  CHECK(perfect.overall.krippendorff_alpha == near(1.0));
  CHECK(perfect.overall.percent_agreement == 1.0);
  for (const auto& p : perfect.pairs) CHECK(p.kappa == near(1.0));
  // every coder used one category: chance agreement is 1, so kappa and alpha are undefined (null in JSON)
  // /usr/bin/python3 -c "from statsmodels.stats.inter_rater import fleiss_kappa; print(repr(fleiss_kappa([[3],[3]])))"  -> nan
  const auto one = label_agreement(free_table("id,Label_1,Label_2,Label_3\nu1,a,a,a\nu2,a,a,a\n"), nullptr, no_bootstrap(), d);
  CHECK(std::isnan(one.overall.fleiss_kappa));
  CHECK(std::isnan(one.overall.krippendorff_alpha));
  CHECK(one.overall.percent_agreement == 1.0);
  CHECK(label_agreement_json(one)["fleiss_kappa"].is_null());
  // two coders: Fleiss with m = 2
  // /usr/bin/python3 -c "from statsmodels.stats.inter_rater import fleiss_kappa; print(repr(fleiss_kappa([[2,0],[0,2],[1,1],[0,2],[2,0]])))"
  const auto two = label_agreement(free_table("id,coder_a,coder_b\n1,x,x\n2,y,y\n3,x,y\n4,y,y\n5,x,x\n"), nullptr, no_bootstrap(), d);
  CHECK(two.overall.fleiss_kappa == near(0.6000000000000001));
  // /usr/bin/python3 -c "import numpy as np; from statsmodels.stats.inter_rater import cohens_kappa; print(repr(cohens_kappa(np.array([[2,1],[0,2]])).kappa))"
  CHECK(two.pairs.at(0).kappa == near(0.6153846153846155));
  CHECK(two.overall.percent_agreement == near(0.8));
  REQUIRE_FALSE(d.has_errors());
}

TEST_CASE("analysis::label_agreement lists the most disputed units first", "[agreement]") {
  Diagnostics d;
  AgreementOptions o = no_bootstrap();
  o.disagreements = 10;
  const auto a = label_agreement(edge_cases(), &study_taxonomy().taxonomy, o, d);
  // units 1, 4 and 5 disagree, each with 1 of 3 pairs agreeing; ties keep input order
  REQUIRE(a.disagreements.size() == 3);
  CHECK(a.disagreements[0].unit == "pytorch#1, part \"a\"");
  CHECK(a.disagreements[0].labels == std::vector<std::string>{"A.1", "A.1", "A.2"});
  CHECK(a.disagreements[0].consensus == "A.1");
  CHECK(a.disagreements[0].agreement == near(1.0 / 3.0));
  CHECK(a.disagreements[1].unit == "vllm#4");
  CHECK(a.disagreements[1].consensus.empty());
  CHECK(a.disagreements[2].unit == "vllm#5");
  CHECK(a.disagreements[2].line == 8);
  o.disagreements = 1;
  CHECK(label_agreement(edge_cases(), &study_taxonomy().taxonomy, o, d).disagreements.size() == 1);
}

TEST_CASE("report::label_agreement_json has the documented keys", "[agreement]") {
  Diagnostics d;
  AgreementOptions o;
  o.resamples = 200;
  o.group_by_level = 1;
  o.disagreements = 2;
  const auto a = label_agreement(edge_cases(), &study_taxonomy().taxonomy, o, d);
  const auto j = label_agreement_json(a);
  std::vector<std::string> keys;
  for (const auto& item : j.items()) keys.push_back(item.key());
  CHECK(keys == std::vector<std::string>{"units", "coders", "categories", "dropped_units", "fleiss_kappa",
                                         "krippendorff_alpha", "percent_agreement", "pairable_units", "all_agree",
                                         "units_all_agree", "cohen_kappa_pairs", "per_category",
                                         "coder_vs_final", "confidence", "groups", "sources", "group_level",
                                         "ungrouped_units", "disagreements"});
  CHECK(j["cohen_kappa_pairs"][0]["a"] == "Label_1");
  CHECK(j["per_category"]["C.1"]["fleiss_kappa"].is_null());
  CHECK(j["coder_vs_final"]["Label_2"]["agreement"] == 0.75);
  CHECK(j["confidence"]["fleiss_kappa"].size() == 2);
  CHECK(j["confidence"]["resamples"] == 200);
  CHECK(j["groups"]["A"]["units"] == 3);
  CHECK(j["sources"]["edge-cases"]["groups"]["C"] == 1);
  CHECK(j["disagreements"][1]["labels"]["Label_3"] == "C.3");
  CHECK(j["disagreements"][1]["consensus"].is_null());
  // reproducible: same seed, same JSON
  CHECK(label_agreement_json(label_agreement(edge_cases(), &study_taxonomy().taxonomy, o, d)).dump() == j.dump());
}

// repeated-units.csv: u1 on three rows, u3 on two (7 rows, 4 distinct ids, 3 coders).
TEST_CASE("analysis::label_agreement counts repeated unit ids as kept or first, as statsmodels", "[agreement]") {
  Diagnostics d;
  const auto keep = label_agreement(repeated_units(DuplicateUnits::keep), &study_taxonomy().taxonomy, no_bootstrap(), d);
  const auto first = label_agreement(repeated_units(DuplicateUnits::first), &study_taxonomy().taxonomy, no_bootstrap(), d);
  REQUIRE_FALSE(d.has_errors());
  CHECK(keep.overall.units == 7);
  CHECK(first.overall.units == 4);
  // cd tests/fixtures/agreement && /usr/bin/python3 -c "import csv; from statsmodels.stats.inter_rater import
  //   aggregate_raters, fleiss_kappa; rows=list(csv.reader(open('repeated-units.csv')))[1:]; seen=set();
  //   first=[r for r in rows if not (r[0] in seen or seen.add(r[0]))];
  //   [print(repr(fleiss_kappa(aggregate_raters([r[1:4] for r in rs])[0], method='fleiss'))) for rs in (rows, first)]"
  //   -> 0.42465753424657526 (every row), 0.23404255319148928 (first row of each id)
  CHECK(keep.overall.fleiss_kappa == near(0.42465753424657526));
  CHECK(first.overall.fleiss_kappa == near(0.23404255319148928));
}
