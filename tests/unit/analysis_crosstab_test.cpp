// Unit tests for the codebook crosstabs (src/analysis/crosstab.cpp) on tests/fixtures/codebook/tiny.
//
// The fixture's coded segments, worked out by hand from its three transcripts:
//   s1 P1 (user, beginner)   whole turn  {A.1}
//   s2 P1                    span        {A.1.i}
//   s3 P1                                {A.2, B.1}
//   s4 P1                                {B.1}
//   s5 P2 (developer, adv.)              {A.1.ii, A.1.i}
//   s6 P2                                {B.2}
//   s7 P3 (user, advanced)               {A}
//   s8 P3                                {B.1, B.2}
// Aggregate rule: a node counts the segments coded with it or any descendant, once per segment.
#include "catch.h"

#include <cmath>

#include "qualrank/analysis/crosstab.h"
#include "qualrank/analysis/study.h"

using namespace qualrank;

namespace {

std::unique_ptr<Study> tiny_study() {
  Diagnostics diags;
  StudyOptions options;
  options.coding.suggestions = false;
  auto study = load_study(std::string(QUALRANK_FIXTURES_DIR) + "/codebook/tiny", diags, options);
  REQUIRE(study);
  REQUIRE_FALSE(diags.has_errors());
  return study;
}

const NodeCount& row(const NodeCrosstab& t, const std::string& id) {
  for (const auto& n : t.nodes)
    if (n.node == id) return n;
  FAIL("no row " << id);
  throw 0;
}

}  // namespace

TEST_CASE("analysis::node_crosstab counts segments and participants with sub-nodes", "[crosstab]") {
  auto study = tiny_study();
  REQUIRE(study->segments.size() == 8);
  auto participants = participants_of(study->workspace);
  auto groups = study_groups(participants, study->workspace.guideline);
  auto t = node_crosstab(study->taxonomy(), study->segments, participants, groups);

  // Groups: roles in guideline order, then experience levels in guideline order.
  REQUIRE(t.groups.size() == 4);
  CHECK(t.groups[0].value == "user");
  CHECK(t.groups[0].size == 2);  // P1, P3
  CHECK(t.groups[1].value == "developer");
  CHECK(t.groups[1].size == 1);  // P2
  CHECK(t.groups[2].attribute == "experience");
  CHECK(t.groups[2].value == "beginner");
  CHECK(t.groups[2].size == 1);  // P1 (1 year)
  CHECK(t.groups[3].value == "advanced");
  CHECK(t.groups[3].size == 2);  // P2 (5), P3 (3)
  CHECK(t.participants == 3);

  // Rows in taxonomy order.
  std::vector<std::string> ids;
  for (const auto& n : t.nodes) ids.push_back(n.node);
  CHECK(ids == std::vector<std::string>{"A", "A.1", "A.1.i", "A.1.ii", "A.2", "B", "B.1", "B.2"});

  // segments: A = s1 s2 s3 s5 s7; A.1 = s1 s2 s5 (s5 once, though it carries A.1.i and A.1.ii); ...
  CHECK(row(t, "A").segments == 5);
  CHECK(row(t, "A.1").segments == 3);
  CHECK(row(t, "A.1.i").segments == 2);
  CHECK(row(t, "A.1.ii").segments == 1);
  CHECK(row(t, "A.2").segments == 1);
  CHECK(row(t, "B").segments == 4);
  CHECK(row(t, "B.1").segments == 3);
  CHECK(row(t, "B.2").segments == 2);

  CHECK(row(t, "A").participants == 3);
  CHECK(row(t, "A.1").participants == 2);   // P1, P2
  CHECK(row(t, "A.1.ii").participants == 1);
  CHECK(row(t, "B.1").participants == 2);   // P1, P3

  // by group: user, developer, beginner, advanced
  CHECK(row(t, "A.1").by_group == std::vector<std::size_t>{1, 1, 1, 1});
  CHECK(row(t, "A.2").by_group == std::vector<std::size_t>{1, 0, 1, 0});
  CHECK(row(t, "B.1").by_group == std::vector<std::size_t>{2, 0, 1, 1});
  CHECK(row(t, "B.2").by_group == std::vector<std::size_t>{1, 1, 0, 2});
  CHECK(row(t, "A").by_group == std::vector<std::size_t>{2, 1, 1, 2});

  // share = count / group size: B.2 among users 1/2, among beginners 0/1
  std::size_t b2 = 7;
  REQUIRE(t.nodes[b2].node == "B.2");
  CHECK(t.share(b2, 0) == Approx(0.5));
  CHECK(t.share(b2, 2) == 0.0);
}

TEST_CASE("analysis::node_crosstab handles an empty group and unlisted participants", "[crosstab]") {
  auto study = tiny_study();
  auto participants = participants_of(study->workspace);
  std::vector<ParticipantGroup> groups = {{"role", "observer", 0}, {"role", "user", 0}};
  participants.erase(participants.begin());  // P1 not listed: counts overall, in no group
  auto t = node_crosstab(study->taxonomy(), study->segments, participants, groups);
  CHECK(t.participants == 2);
  CHECK(t.groups[0].size == 0);
  CHECK(std::isnan(t.share(0, 0)));
  CHECK(row(t, "A.2").participants == 1);  // P1 only
  CHECK(row(t, "A.2").by_group == std::vector<std::size_t>{0, 0});
  CHECK(row(t, "B.1").by_group == std::vector<std::size_t>{0, 1});  // P3 listed, P1 not
}

TEST_CASE("analysis::cooccurrence rolls codes up to the level", "[crosstab]") {
  auto study = tiny_study();
  const auto& tax = study->taxonomy();

  // Level 2: s1 {A.1} s2 {A.1} s3 {A.2,B.1} s4 {B.1} s5 {A.1} s6 {B.2} s8 {B.1,B.2}; s7 (bare A) is above.
  auto co = cooccurrence(tax, study->segments, 2);
  REQUIRE(co.nodes == std::vector<std::string>{"A.1", "A.2", "B.1", "B.2"});
  using V = std::vector<std::size_t>;
  CHECK(co.counts[0] == V{3, 0, 0, 0});
  CHECK(co.counts[1] == V{0, 1, 1, 0});
  CHECK(co.counts[2] == V{0, 1, 3, 1});
  CHECK(co.counts[3] == V{0, 0, 1, 2});
  CHECK(co.segments_above_level == 1);

  // Level 1: A in s1 s2 s3 s5 s7, B in s3 s4 s6 s8, both in s3.
  auto top = cooccurrence(tax, study->segments, 1);
  REQUIRE(top.nodes == std::vector<std::string>{"A", "B"});
  CHECK(top.counts[0] == V{5, 1});
  CHECK(top.counts[1] == V{1, 4});
  CHECK(top.segments_above_level == 0);

  // Level 3: only s2 {A.1.i} and s5 {A.1.i, A.1.ii} reach it.
  auto deep = cooccurrence(tax, study->segments, 3);
  REQUIRE(deep.nodes == std::vector<std::string>{"A.1.i", "A.1.ii"});
  CHECK(deep.counts[0] == V{2, 1});
  CHECK(deep.counts[1] == V{1, 1});
  CHECK(deep.segments_above_level == 6);
}

TEST_CASE("analysis::groups_of orders preferred values first and adds a no-value group", "[crosstab]") {
  std::vector<CrosstabParticipant> ps = {
      {"a", {{"experience", "advanced"}}}, {"b", {{"experience", "zzz"}}}, {"c", {}}, {"d", {{"experience", "beginner"}}}};
  auto g = groups_of(ps, "experience", {"beginner", "intermediate", "advanced"});
  REQUIRE(g.size() == 4);
  CHECK(g[0].value == "beginner");
  CHECK(g[1].value == "advanced");  // intermediate is absent, so left out
  CHECK(g[2].value == "zzz");
  CHECK(g[3].value.empty());
}
