// Unit tests for the saturation assessment (src/analysis/saturation.cpp), Guest, Namey & Chen (2020).
//
// The hand-computed example (ten interviews, codes c1..c24):
//   #  codes                      new codes          new  cumulative
//   1  c1 c2 c3 c4 c5 c6 c7 c8    c1..c8              8    8
//   2  c5 .. c12                  c9 c10 c11 c12      4   12
//   3  c1 c13 c14 c15 c16         c13..c16            4   16
//   4  c2 c17 c18 c19 c20         c17..c20            4   20   <- base (4 interviews): B = 20
//   5  c21 c22 c1                 c21 c22             2   22
//   6  c23 c3                     c23                 1   23
//   7  c4                         -                   0   23
//   8  c24 c24 (twice: once)      c24                 1   24
//   9  c5                         -                   0   24
//  10  c6                         -                   0   24
// base 4, run 2, threshold 0.05 (at most 1 new code of 20):
//   run 5-6: 2+1 = 3, 3/20 = 0.15 > 0.05;   run 6-7: 1+0 = 1, 1/20 = 0.05 <= 0.05 -> saturated at 5
// base 4, run 2, threshold 0.04 (1/20 = 0.05 no longer passes):
//   5-6: 3 (0.15), 6-7: 1 (0.05), 7-8: 1 (0.05), 8-9: 1 (0.05), 9-10: 0 (0.00) -> saturated at 8
// base 4, run 3, threshold 0.05:
//   5-7: 3 (0.15), 6-8: 2 (0.10), 7-9: 1 (0.05) -> saturated at 6
// base 6, run 2, threshold 0.05: B = 23; 7-8: 1/23 = 0.0435 <= 0.05 -> saturated at 6
#include "catch.h"

#include <stdexcept>

#include "qualrank/analysis/saturation.h"

using namespace qualrank;

namespace {

std::vector<saturation::Interview> example() {
  auto codes = [](std::initializer_list<int> numbers) {
    std::vector<std::string> out;
    for (int n : numbers) out.push_back("c" + std::to_string(n));
    return out;
  };
  return {
      {"P01", "manager", codes({1, 2, 3, 4, 5, 6, 7, 8})},
      {"P02", "staff", codes({5, 6, 7, 8, 9, 10, 11, 12})},
      {"P03", "contractor", codes({1, 13, 14, 15, 16})},
      {"P04", "staff", codes({2, 17, 18, 19, 20})},
      {"P05", "manager", codes({21, 22, 1})},
      {"P06", "staff", codes({23, 3})},
      {"P07", "contractor", codes({4})},
      {"P08", "staff", codes({24, 24})},
      {"P09", "manager", codes({5})},
      {"P10", "staff", codes({6})},
  };
}

}  // namespace

TEST_CASE("saturation::assess computes the new-codes curve in interview order", "[saturation]") {
  auto r = saturation::assess(example());
  REQUIRE(r.steps.size() == 10);
  const std::vector<int> news{8, 4, 4, 4, 2, 1, 0, 1, 0, 0};
  const std::vector<int> cumulative{8, 12, 16, 20, 22, 23, 23, 24, 24, 24};
  for (std::size_t i = 0; i < 10; ++i) {
    CHECK(r.steps[i].number == static_cast<int>(i) + 1);
    CHECK(r.steps[i].new_codes == news[i]);
    CHECK(r.steps[i].cumulative == cumulative[i]);
  }
  CHECK(r.steps[1].first_seen == std::vector<std::string>{"c10", "c11", "c12", "c9"});  // sorted as text
  CHECK(r.steps[7].codes == 1);  // c24 twice counts once
  CHECK(r.steps[4].role == "manager");
}

TEST_CASE("saturation::assess with base 4, run 2, threshold 0.05 saturates at 5 (a ratio equal to the threshold passes)",
          "[saturation]") {
  auto r = saturation::assess(example());
  CHECK(r.parameters.base == 4);
  CHECK(r.parameters.run == 2);
  CHECK(r.parameters.threshold == 0.05);
  CHECK(r.base_codes == 20);
  REQUIRE(r.runs.size() == 2);
  CHECK(r.runs[0].first == 5);
  CHECK(r.runs[0].last == 6);
  CHECK(r.runs[0].new_codes == 3);
  CHECK(r.runs[0].ratio == Approx(0.15));
  CHECK(r.runs[1].first == 6);
  CHECK(r.runs[1].new_codes == 1);
  CHECK(r.runs[1].ratio == Approx(0.05));
  REQUIRE(r.saturated_at);
  CHECK(*r.saturated_at == 5);
}

TEST_CASE("saturation::assess follows the parameters: threshold, run length and base size", "[saturation]") {
  auto strict = saturation::assess(example(), {4, 2, 0.04});
  REQUIRE(strict.runs.size() == 5);
  CHECK(strict.runs[4].first == 9);
  CHECK(strict.runs[4].new_codes == 0);
  REQUIRE(strict.saturated_at);
  CHECK(*strict.saturated_at == 8);

  auto longer = saturation::assess(example(), {4, 3, 0.05});
  REQUIRE(longer.runs.size() == 3);
  CHECK(longer.runs[1].new_codes == 2);
  CHECK(longer.runs[1].ratio == Approx(0.10));
  REQUIRE(longer.saturated_at);
  CHECK(*longer.saturated_at == 6);

  auto wide = saturation::assess(example(), {6, 2, 0.05});
  CHECK(wide.base_codes == 23);
  REQUIRE(wide.runs.size() == 1);
  CHECK(wide.runs[0].ratio == Approx(1.0 / 23));
  REQUIRE(wide.saturated_at);
  CHECK(*wide.saturated_at == 6);
}

TEST_CASE("saturation::assess says not reached when no run passes or too few interviews", "[saturation]") {
  auto never = saturation::assess(example(), {4, 2, 0.0});
  CHECK(never.runs.size() == 5);  // 9-10 has 0 new codes: 0 <= 0 passes
  REQUIRE(never.saturated_at);
  CHECK(*never.saturated_at == 8);

  auto first_five = example();
  first_five.resize(5);
  auto short_study = saturation::assess(first_five);
  CHECK(short_study.steps.size() == 5);
  CHECK(short_study.runs.empty());
  CHECK_FALSE(short_study.saturated_at);

  auto rising = example();
  rising[8].codes = {"c30"};
  rising[9].codes = {"c31", "c32"};
  auto r = saturation::assess(rising, {4, 2, 0.04});
  CHECK(r.runs.size() == 5);
  CHECK(r.runs[4].new_codes == 3);
  CHECK_FALSE(r.saturated_at);

  std::vector<saturation::Interview> empty_base(6, saturation::Interview{"P", "staff", {}});
  auto e = saturation::assess(empty_base);
  CHECK(e.base_codes == 0);
  CHECK(e.runs.empty());
  CHECK_FALSE(e.saturated_at);
}

TEST_CASE("saturation::assess rejects parameters outside their range", "[saturation]") {
  CHECK_THROWS_AS(saturation::assess(example(), {0, 2, 0.05}), std::invalid_argument);
  CHECK_THROWS_AS(saturation::assess(example(), {4, 0, 0.05}), std::invalid_argument);
  CHECK_THROWS_AS(saturation::assess(example(), {4, 2, 1.5}), std::invalid_argument);
  CHECK_THROWS_AS(saturation::assess(example(), {4, 2, -0.1}), std::invalid_argument);
}
