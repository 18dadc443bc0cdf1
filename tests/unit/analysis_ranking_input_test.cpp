#include "catch.h"

#include "qualrank/analysis/ranking_input.h"

using namespace qualrank;

TEST_CASE("analysis::ranks_for gives unranked items the average of the remaining positions", "[analysis]") {
  std::vector<std::string> items{"C.1", "C.2", "C.3", "C.4", "C.5", "C.6", "C.7", "C.8", "C.9", "C.10"};
  ParticipantRanking top3;
  top3.tiers = {{"C.2"}, {"C.3"}, {"C.8"}};
  auto r = ranks_for(top3, items);
  CHECK(r[1] == 1.0);
  CHECK(r[2] == 2.0);
  CHECK(r[7] == 3.0);
  CHECK(r[0] == 7.0);  // positions 4..10 -> 7
  CHECK(r[9] == 7.0);
}

TEST_CASE("analysis::ranks_for averages ties", "[analysis]") {
  std::vector<std::string> items{"A", "B", "C", "D"};
  ParticipantRanking p;
  p.tiers = {{"B"}, {"A", "D"}, {"C"}};
  CHECK(ranks_for(p, items) == std::vector<double>{2.5, 1.0, 4.0, 2.5});
  ParticipantRanking all_tied;
  all_tied.tiers = {{"A", "B", "C", "D"}};
  CHECK(ranks_for(all_tied, items) == std::vector<double>{2.5, 2.5, 2.5, 2.5});
}
