#include "catch.h"

#include <cmath>

#include "qualrank/analysis/corpus/corpus_labels.h"
#include "qualrank/model/corpus/corpus_screening.h"
#include "fixture_taxonomy.h"
#include "qualrank/util/files.h"

using namespace qualrank;
using namespace qualrank::corpus;

namespace {

SampleLabels sample(const std::vector<std::vector<std::string>>& rows, Diagnostics& d) {
  // rows: doc, then one label per coder ("" = none)
  std::vector<std::string> docs;
  std::vector<CoderLabels> coders{{"alice", {}}, {"bob", {}}, {"carol", {}}};
  for (const auto& r : rows) {
    docs.push_back(r[0]);
    for (std::size_t c = 0; c < 3; ++c)
      if (!r[c + 1].empty()) coders[c].labels.push_back({r[0], split_nodes(r[c + 1]), "", 1});
  }
  for (auto& c : coders)
    std::sort(c.labels.begin(), c.labels.end(), [](const auto& a, const auto& b) { return doc_less(a.doc, b.doc); });
  return resolve_sample_labels(docs, coders, {}, "decisions.csv", "pilot", test::fieldwork_taxonomy(), direct_resolver(test::fieldwork_taxonomy()), d);
}

}  // namespace

TEST_CASE("corpus::label_nodes orders root first and takes the deepest node as the category", "[analysis][corpus]") {
  auto ln = label_nodes({"COM.1.a", "COM"}, test::fieldwork_taxonomy());
  CHECK(ln.problem.empty());
  CHECK(ln.nodes == std::vector<std::string>{"COM", "COM.1.a"});
  CHECK(ln.category == "COM.1.a");
  CHECK(label_nodes({"COM.1", "TOOL"}, test::fieldwork_taxonomy()).problem ==
        "'TOOL' and 'COM.1' are not on one path from the root: a label is one node and, optionally, its ancestors");
}

TEST_CASE("corpus::sample_agreement: Fleiss' kappa before reconciliation, by hand", "[analysis][corpus]") {
  // Units x coders (categories COM.1, TOOL.1, WELL.1): counts per unit (3,0,0) (2,1,0) (0,3,0) (0,1,2) (1,1,1)
  // (0,0,3): P_i = 1, 1/3, 1, 1/3, 0, 1 so P = 11/18; p_j = 1/3 each so Pe = 1/3; kappa = (11/18 - 1/3) / (2/3)
  // = 5/12. (The same table in statsmodels: fleiss_kappa(aggregate_raters([[0,0,0],[0,0,1],[1,1,1],[2,1,2],
  // [0,1,2],[2,2,2]])[0]) = 0.41666666666666663.) The last document, labelled by two, is left out of kappa and of
  // all_agree (3 of the 6 labelled by all are alike), not of percent agreement: its two coders agree, so the mean
  // share of agreeing pairs is (11/3 + 1) / 7 = 2/3 over 7 documents, as `qualrank agreement --labels` computes it on
  // the exported label table (11/18 over the 6 alone was the sample's number before).
  Diagnostics d;
  auto s = sample({{"a#1", "COM.1", "COM COM.1", "COM.1"},
                   {"a#2", "COM.1", "COM.1", "TOOL.1"},
                   {"a#3", "TOOL.1", "TOOL.1", "TOOL.1"},
                   {"a#4", "WELL.1", "TOOL.1", "WELL.1"},
                   {"a#5", "COM.1", "TOOL.1", "WELL.1"},
                   {"a#6", "WELL.1", "WELL.1", "WELL.1"},
                   {"a#7", "COM.2", "COM.2", ""}},
                  d);
  REQUIRE_FALSE(d.has_errors());
  auto a = sample_agreement(s);
  CHECK(a.labelled_by_all == 6);
  CHECK(a.agreeing == 3);
  CHECK(a.fleiss_kappa == Approx(5.0 / 12).epsilon(1e-12));
  CHECK(a.all_agree == Approx(0.5).epsilon(1e-12));
  CHECK(a.labelled_by_two == 7);
  CHECK(a.percent_agreement == Approx(2.0 / 3).epsilon(1e-12));
  CHECK(std::isnan(a.cohen_kappa));
  // Per category (Fleiss 1971), kappa_j = 1 - sum_i n_ij (m - n_ij) / (N m (m - 1) p_j (1 - p_j)), with
  // N m (m - 1) p_j (1 - p_j) = 6 * 3 * 2 * 2/9 = 8: COM.1 1 - 4/8, TOOL.1 1 - 6/8, WELL.1 1 - 4/8 (their mean,
  // weighted by p_j (1 - p_j), equal here, is the overall 5/12). COM.2, only on the unit two labelled, is not one.
  REQUIRE(a.per_category.size() == 3);
  CHECK(a.per_category[0].first == "COM.1");
  CHECK(a.per_category[0].second == Approx(0.5).epsilon(1e-12));
  CHECK(a.per_category[1].first == "TOOL.1");
  CHECK(a.per_category[1].second == Approx(0.25).epsilon(1e-12));
  CHECK(a.per_category[2].first == "WELL.1");
  CHECK(a.per_category[2].second == Approx(0.5).epsilon(1e-12));
  CHECK(a.disagreements == 3);
  CHECK(doc_state(s, 6) == DocState::partial);
  CHECK(majority_nodes(s, 1) == std::vector<std::string>{"COM.1"});
  CHECK(majority_nodes(s, 3) == std::vector<std::string>{"WELL.1"});
  CHECK_FALSE(majority_nodes(s, 4));
  CHECK(label_table_text(s) ==
        "unit,Label_alice,Label_bob,Label_carol,Final_Label\n"
        "a#1,COM.1,COM.1,COM.1,COM.1\na#2,COM.1,COM.1,TOOL.1,\na#3,TOOL.1,TOOL.1,TOOL.1,TOOL.1\n"
        "a#4,WELL.1,TOOL.1,WELL.1,\na#5,COM.1,TOOL.1,WELL.1,\na#6,WELL.1,WELL.1,WELL.1,WELL.1\na#7,COM.2,COM.2,,\n");
  CHECK(progress_text(1234, 3437) == "1,234 of 3,437 labelled");
  CHECK(grouped(1000000) == "1,000,000");
  CHECK(grouped(999) == "999");
}

TEST_CASE("corpus::resolve_sample_labels locates labels that do not resolve", "[analysis][corpus]") {
  Diagnostics d;
  sample({{"a#1", "COMM.1", "COM.1", "COM.1"}, {"a#2", "COM.1 TOOL", "COM.1", "COM.1"}}, d);
  REQUIRE(d.items().size() == 2);
  CHECK(d.items()[0].where.file == "corpus/labels/pilot/alice.csv");
  CHECK(d.items()[0].message == "unknown taxonomy node 'COMM.1' (did you mean 'COM.1'?)");
  CHECK(d.items()[1].message == "'TOOL' and 'COM.1' are not on one path from the root: a label is one node and, optionally, its ancestors");
}

TEST_CASE("corpus::resolve_sample_labels keeps each coder's note with the label (the reconcile walk shows it)", "[analysis][corpus]") {
  std::vector<CoderLabels> coders{{"alice", {{"x#1", {"COM.1"}, "posts, not calls", 2}}}, {"bob", {{"x#1", {"TOOL.1"}, "", 2}}}};
  Diagnostics d;
  auto s = resolve_sample_labels({"x#1", "x#2"}, coders, {}, "decisions.csv", "pilot", test::fieldwork_taxonomy(),
                                 direct_resolver(test::fieldwork_taxonomy()), d);
  REQUIRE_FALSE(d.has_errors());
  REQUIRE(s.notes.size() == 2);
  CHECK(s.notes[0] == std::vector<std::string>{"posts, not calls", ""});
  CHECK(s.notes[1] == std::vector<std::string>{"", ""});
}

TEST_CASE("corpus::resolve_sample_labels: a decision made on labels that changed since is stale, naming no label", "[analysis][corpus]") {
  std::vector<CoderLabels> coders{{"alice", {{"x#1", {"COM.1"}, "", 2}, {"x#2", {"COM.2"}, "", 3}, {"x#3", {"WELL"}, "", 4}}},
                                  {"bob", {{"x#1", {"COM", "COM.1"}, "", 2}, {"x#2", {"WELL.1"}, "", 3}}},
                                  {"carol", {{"x#3", {"WELL"}, "", 2}}}};
  std::vector<LabelDecision> decisions{
      // x#1: made on the labels as they are (bob's written with its ancestor there too): current.
      {"x#1", {"COM.1"}, "majority", "dana", "2026-11-26", "", 2, {{"alice", {"COM.1"}}, {"bob", {"COM", "COM.1"}}}, ""},
      // x#2: bob's label changed, carol has labelled since (she had not), alice's is the same.
      {"x#2", {"COM.2"}, "coder:alice", "dana", "2026-11-26", "", 3, {{"alice", {"COM.2"}}, {"bob", {"COM.1"}}, {"carol", {"WELL.1"}}}, ""},
      // x#3: recorded by an older qualrank (no labels): never stale.
      {"x#3", {"WELL"}, "other", "dana", "2026-11-26", "", 4, {}, ""}};
  Diagnostics d;
  auto s = resolve_sample_labels({"x#1", "x#2", "x#3"}, coders, decisions, "decisions.csv", "pilot", test::fieldwork_taxonomy(),
                                 direct_resolver(test::fieldwork_taxonomy()), d);
  REQUIRE_FALSE(d.has_errors());
  REQUIRE(s.stale_decisions.size() == 1);
  const auto& st = s.stale_decisions[0];
  CHECK(s.docs[st.doc] == "x#2");
  CHECK(st.line == 3);
  REQUIRE(st.changes.size() == 2);
  CHECK(st.changes[0].coder == "bob");
  CHECK(st.changes[0].then == std::vector<std::string>{"COM.1"});
  CHECK(st.changes[0].now == std::vector<std::string>{"WELL.1"});
  CHECK(st.changes[1].coder == "carol");
  CHECK(st.changes[1].now.empty());
  CHECK(st.what() == "bob's label changed, carol's label was removed");
  // The round counts what each decision was made on (x#1, x#2), and the labels as they are where a decision
  // records nothing (x#3): a late edit changes the agreement before reconciliation only through a new decision.
  REQUIRE(s.round_categories.size() == 3);
  CHECK(s.round_categories[0] == std::vector<std::string>{"COM.1", "COM.1", ""});
  CHECK(s.round_categories[1] == std::vector<std::string>{"COM.2", "COM.1", "WELL.1"});
  CHECK(s.round_categories[2] == std::vector<std::string>{"WELL", "", "WELL"});
  CHECK(s.categories[1] == std::vector<std::string>{"COM.2", "WELL.1", ""});  // the files as they are
  const auto a = sample_agreement(s);
  CHECK(a.labelled_by_all == 1);  // x#2 as decided: all three had labelled it
  CHECK(a.disagreements == 1);
  CHECK(a.decided == 1);
  CHECK(label_table_text(s) ==
        "unit,Label_alice,Label_bob,Label_carol,Final_Label\nx#1,COM.1,COM.1,,COM.1\nx#2,COM.2,COM.1,WELL.1,COM.2\nx#3,WELL,,WELL,WELL\n");
  Diagnostics w;
  warn_stale_decisions(s, "pilot", w);
  REQUIRE(w.items().size() == 1);
  CHECK(w.items()[0].where.file == "corpus/labels/pilot/decisions.csv");
  CHECK(w.items()[0].where.line == 3);
  CHECK(w.items()[0].message ==
        "stale: the decision on x#2 was made on labels that changed since (bob's label changed, carol's label was removed); it still "
        "counts as decided: 'qualrank corpus reconcile --sample pilot --decider NAME' shows it again (k keeps it)");
}
