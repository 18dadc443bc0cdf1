// Unit tests for agreement on multi-coder transcripts (src/analysis/agreement/transcript_agreement.cpp).
// Expected values from Debian's /usr/bin/python3 (statsmodels 0.13.5, NumPy 1.24.2), commands above them.
#include "catch.h"

#include <cmath>
#include <memory>
#include <string>

#include "qualrank/analysis/agreement/transcript_agreement.h"
#include "qualrank/report/outputs/agreement_output.h"
#include "qualrank/util/files.h"

using namespace qualrank;

namespace {

Approx near(double v) { return Approx(v).margin(1e-12).epsilon(1e-12); }

const Taxonomy& study_taxonomy() {
  static const std::unique_ptr<Taxonomy> loaded = [] {
    Diagnostics d;
    auto t = load_taxonomy(*files::read(std::string(QUALRANK_SOURCE_DIR) + "/codebooks/llm-frameworks.yaml"), "t.yaml", d);
    return std::make_unique<Taxonomy>(std::move(*t));
  }();
  return *loaded;
}

CodedSegment segment(const std::string& participant, int turn, const std::string& span,
                     const std::vector<std::pair<std::string, std::string>>& coder_nodes) {
  CodedSegment s;
  s.participant = participant;
  s.turn = turn;
  s.id = participant + "#t" + std::to_string(turn) + span;
  s.whole_turn = span.empty();
  s.source = {"transcripts/" + participant + ".md", 10 * turn, 0};
  for (const auto& [coder, node] : coder_nodes) s.codes.push_back({node, node, coder, "", s.source});
  return s;
}

// P1: alice and bob; P2: alice only (left out); P3: alice and carol.
std::vector<CodedSegment> segments() {
  return {segment("P1", 1, "", {{"alice", "A.1"}, {"bob", "A.1"}, {"bob", "A.1.i"}}),
          segment("P1", 1, "[0:5]", {{"alice", "A.1.i"}}),
          segment("P1", 2, "", {{"alice", "B.1"}, {"bob", "C.1"}}),
          segment("P1", 3, "", {{"bob", "B.1"}}),
          segment("P2", 1, "", {{"alice", "A.2"}}),
          segment("P3", 1, "", {{"alice", "A.1"}, {"carol", "A.1"}}),
          segment("P3", 2, "", {{"alice", "C.1"}, {"carol", "C.1"}, {"carol", "B.1"}})};
}

TranscriptAgreementOptions options(int resamples = 0) {
  TranscriptAgreementOptions o;
  o.resamples = resamples;
  return o;
}

}  // namespace

// Per turn, coders alice/bob/carol, present (1) / absent (0) / not coding the transcript (-1):
//   A.1   = [[1,1,-1],[0,0,-1],[0,0,-1],[1,-1,1],[0,-1,0]]
//   A.1.i = [[1,1,-1],[0,0,-1],[0,0,-1],[0,-1,0],[0,-1,0]]
//   B.1   = [[0,0,-1],[1,0,-1],[0,1,-1],[0,-1,0],[0,-1,1]]
//   C.1   = [[0,0,-1],[0,1,-1],[0,0,-1],[0,-1,0],[1,-1,1]]
TEST_CASE("analysis::transcript_agreement compares coders per node and pooled, per turn", "[agreement]") {
  const auto a = transcript_agreement(segments(), study_taxonomy(), options());
  CHECK(a.transcripts == std::vector<std::string>{"transcripts/P1.md", "transcripts/P3.md"});
  CHECK(a.single_coder_transcripts == 1);
  CHECK(a.coders == std::vector<std::string>{"alice", "bob", "carol"});
  CHECK(a.nodes == std::vector<std::string>{"A.1", "A.1.i", "B.1", "C.1"});  // A.2 only in the left-out P2
  CHECK(a.units == 5);  // the span of P1#t1 belongs to the turn
  // no unit is coded by all three coders: Fleiss' kappa has no complete unit
  CHECK(a.pooled.dropped_units == 20);
  CHECK(std::isnan(a.pooled.fleiss_kappa));
  // /usr/bin/python3 -c "import numpy as np, itertools as it; N={'A.1':[[1,1,-1],[0,0,-1],[0,0,-1],[1,-1,1],[0,-1,0]],'A.1.i':[[1,1,-1],[0,0,-1],[0,0,-1],[0,-1,0],[0,-1,0]],'B.1':[[0,0,-1],[1,0,-1],[0,1,-1],[0,-1,0],[0,-1,1]],'C.1':[[0,0,-1],[0,1,-1],[0,0,-1],[0,-1,0],[1,-1,1]]}; al=lambda U: (lambda o: (lambda nc: 1-(nc.sum()-1)*(o.sum()-np.trace(o))/(nc.sum()**2-(nc**2).sum()))(o.sum(1)))(sum((np.eye(2)[a][:,None]*np.eye(2)[b][None,:])/(len(v)-1) for u in U for v in [[x for x in u if x>=0]] if len(v)>1 for a,b in it.permutations(v,2))); print({k:repr(al(U)) for k,U in N.items()}, repr(al([r for u in range(5) for k in N for r in [N[k][u]]])))"
  CHECK(a.pooled.krippendorff_alpha == near(0.5357142857142857));
  REQUIRE(a.per_node.size() == 4);
  CHECK(a.per_node[0].figures.krippendorff_alpha == near(1.0));
  CHECK(a.per_node[1].figures.krippendorff_alpha == near(1.0));
  CHECK(a.per_node[2].figures.krippendorff_alpha == near(-0.2857142857142858));
  CHECK(a.per_node[3].figures.krippendorff_alpha == near(0.5714285714285714));
  CHECK(a.per_node[2].units_coded == 3);
  CHECK(a.per_node[2].figures.percent_agreement == near(0.4));
  CHECK(a.pooled.percent_agreement == near(0.8));
  CHECK(a.exact_agreement == near(0.4));  // P1#t1 and P3#t1
  CHECK(a.identical_units == 2);
  // Positive agreement per node, counted pair by pair over the coders of each turn:
  // /usr/bin/python3 -c "from itertools import combinations as C; from fractions import Fraction as F; N={'A.1':[[1,1,-1],[0,0,-1],[0,0,-1],[1,-1,1],[0,-1,0]],'A.1.i':[[1,1,-1],[0,0,-1],[0,0,-1],[0,-1,0],[0,-1,0]],'B.1':[[0,0,-1],[1,0,-1],[0,1,-1],[0,-1,0],[0,-1,1]],'C.1':[[0,0,-1],[0,1,-1],[0,0,-1],[0,-1,0],[1,-1,1]]}; P=lambda U: [(x,y) for u in U for x,y in C([v for v in u if v>=0],2)]; print({k: F(2*sum(x+y==2 for x,y in P(U)), sum(x+y for x,y in P(U))) for k,U in N.items()})"
  // -> {'A.1': 1, 'A.1.i': 1, 'B.1': 0, 'C.1': 2/3}; the units any coder applied the node to: 2, 1, 3, 2.
  CHECK(a.per_node[0].positive_agreement == near(1.0));
  CHECK(a.per_node[1].positive_agreement == near(1.0));
  CHECK(a.per_node[2].positive_agreement == 0.0);
  CHECK(a.per_node[3].positive_agreement == near(2.0 / 3));
  CHECK(a.per_node[0].units_coded == 2);
  CHECK(a.per_node[1].units_coded == 1);
  CHECK(a.per_node[3].units_coded == 2);
  // Every per-node figure is over all 5 turns, not only those coded with the node: B.1's percent agreement 0.4 is
  // (1 + 0 + 0 + 1 + 0) / 5.
  CHECK(a.per_node[2].figures.pairable_units == 5);
  // /usr/bin/python3 -c "import numpy as np; from statsmodels.stats.inter_rater import cohens_kappa; N={'A.1':[[1,1,-1],[0,0,-1],[0,0,-1],[1,-1,1],[0,-1,0]],'A.1.i':[[1,1,-1],[0,0,-1],[0,0,-1],[0,-1,0],[0,-1,0]],'B.1':[[0,0,-1],[1,0,-1],[0,1,-1],[0,-1,0],[0,-1,1]],'C.1':[[0,0,-1],[0,1,-1],[0,0,-1],[0,-1,0],[1,-1,1]]}; R=[N[k][u] for u in range(5) for k in N]; print([repr(cohens_kappa(np.array([[sum(1 for r in R if r[a]==x and r[b]==y) for y in range(2)] for x in range(2)])).kappa) for a,b in [(0,1),(0,2)]])"
  REQUIRE(a.pairs.size() == 3);
  CHECK(a.pairs[0].kappa == near(0.39999999999999997));
  CHECK(a.pairs[0].units == 3);
  CHECK(a.pairs[1].kappa == near(0.7142857142857143));
  CHECK(std::isnan(a.pairs[2].kappa));  // bob and carol never coded the same transcript
  CHECK(a.pairs[2].units == 0);
}

TEST_CASE("analysis::transcript_agreement with two coders on every unit has Fleiss' kappa", "[agreement]") {
  auto segs = segments();
  segs.resize(4);  // P1 only: alice and bob
  const auto a = transcript_agreement(segs, study_taxonomy(), options(200));
  CHECK(a.units == 3);
  CHECK(a.pooled.dropped_units == 0);
  // rows unit-major over A.1, A.1.i, B.1, C.1 as counts (absent, present):
  // /usr/bin/python3 -c "import numpy as np; from statsmodels.stats.inter_rater import fleiss_kappa, aggregate_raters; R=[[1,1],[1,1],[0,0],[0,0],[0,0],[0,0],[1,0],[0,1],[0,0],[0,0],[0,1],[0,0]]; print(repr(fleiss_kappa(aggregate_raters(np.array(R),n_cat=2)[0])))"
  CHECK(a.pooled.fleiss_kappa == near(0.3949579831932773));
  CHECK(a.fleiss_ci.first <= a.fleiss_ci.second);
  CHECK_FALSE(std::isnan(a.alpha_ci.first));
  // same seed, same interval
  CHECK(transcript_agreement(segs, study_taxonomy(), options(200)).fleiss_ci == a.fleiss_ci);
}

TEST_CASE("analysis::transcript_agreement per segment and at a taxonomy level", "[agreement]") {
  TranscriptAgreementOptions o = options();
  o.unit = TranscriptUnit::segment;
  const auto seg = transcript_agreement(segments(), study_taxonomy(), o);
  CHECK(seg.units == 6);  // the span of P1#t1 is its own unit (coded by alice only: a disagreement)
  o.unit = TranscriptUnit::turn;
  o.compare_level = 2;
  o.disagreements = 10;
  const auto level2 = transcript_agreement(segments(), study_taxonomy(), o);
  CHECK(level2.nodes == std::vector<std::string>{"A.1", "B.1", "C.1"});
  CHECK(level2.per_node[0].figures.percent_agreement == near(1.0));
  // disputed turns: most differing nodes first, then input order
  REQUIRE(level2.disagreements.size() == 3);
  CHECK(level2.disagreements[0].unit == "P1#t2");
  CHECK(level2.disagreements[0].differing_nodes == 2);
  CHECK(level2.disagreements[0].nodes[0] == std::vector<std::string>{"B.1"});
  CHECK(level2.disagreements[0].nodes[1] == std::vector<std::string>{"C.1"});
  CHECK_FALSE(level2.disagreements[0].coded[2]);
  CHECK(level2.disagreements[1].unit == "P1#t3");
  CHECK(level2.disagreements[2].unit == "P3#t2");
  const auto j = transcript_agreement_json(level2);
  CHECK(j["disagreements"][0]["nodes"]["carol"].is_null());
  CHECK(j["per_node"]["B.1"]["units_coded"] == 3);
  CHECK(j["dropped_units"] == 5);
}

TEST_CASE("analysis::transcript_agreement without multi-coder transcripts is empty", "[agreement]") {
  const auto a = transcript_agreement({segment("P2", 1, "", {{"alice", "A.2"}})}, study_taxonomy(), options(100));
  CHECK(a.transcripts.empty());
  CHECK(a.units == 0);
  CHECK(std::isnan(a.pooled.krippendorff_alpha));
  CHECK(std::isnan(a.exact_agreement));
}
