// util/line_merge: the line diff rebuilds the other text, and the three-way rebase keeps both sides' changes
// where they do not overlap (compared with what `git merge-file` gives for the same three texts, noted below).
#include "catch.h"

#include <random>

#include "qualrank/util/line_merge.h"

using namespace qualrank::text;

namespace {

// Applies diff hunks to `base` with the other side's lines: must give `other` back.
std::string apply(const std::string& base, const std::string& other, const std::vector<LineHunk>& hunks) {
  auto b = split_lines_keep(base), o = split_lines_keep(other);
  std::string out;
  std::size_t cursor = 0;
  for (const auto& h : hunks) {
    for (; cursor < h.base_begin; ++cursor) out += b[cursor];
    for (std::size_t j = h.other_begin; j < h.other_end; ++j) out += o[j];
    cursor = h.base_end;
  }
  for (; cursor < b.size(); ++cursor) out += b[cursor];
  return out;
}

}  // namespace

TEST_CASE("text::diff_lines gives the fewest hunks that rebuild the other text", "[util][merge]") {
  const std::string base = "a\nb\nc\nd\ne\n", other = "a\nB\nc\nd\nx\ne\n";
  auto hunks = diff_lines(split_lines_keep(base), split_lines_keep(other), 100);
  REQUIRE(hunks);
  REQUIRE(hunks->size() == 2);
  CHECK((*hunks)[0].base_begin == 1);  // b -> B
  CHECK((*hunks)[0].base_end == 2);
  CHECK((*hunks)[1].base_begin == 4);  // x inserted before e
  CHECK((*hunks)[1].base_end == 4);
  CHECK(apply(base, other, *hunks) == other);
  // Over the edit budget: nullopt.
  CHECK_FALSE(diff_lines(split_lines_keep("1\n2\n3\n4\n"), split_lines_keep("5\n6\n7\n8\n"), 3));
}

TEST_CASE("text::diff_lines rebuilds random texts", "[util][merge]") {
  std::mt19937 rng(7);
  for (int round = 0; round < 300; ++round) {
    std::string base, other;
    int n = static_cast<int>(rng() % 30), m = static_cast<int>(rng() % 30);
    for (int i = 0; i < n; ++i) base += std::to_string(rng() % 5) + "\n";
    for (int i = 0; i < m; ++i) other += std::to_string(rng() % 5) + "\n";
    if (rng() % 3 == 0) other += "tail without newline";
    auto hunks = diff_lines(split_lines_keep(base), split_lines_keep(other), 1000);
    REQUIRE(hunks);
    CHECK(apply(base, other, *hunks) == other);
  }
}

TEST_CASE("text::rebase_lines keeps both sides' changes that do not overlap", "[util][merge]") {
  const std::string base = "t1\n@code A\nt2\nt3\n";
  // Ours adds a code after t2; theirs rewrites t1 and adds one after t3.
  const std::string ours = "t1\n@code A\nt2\n@code B\nt3\n", theirs = "T1\n@code A\nt2\nt3\n@code C\n";
  auto r = rebase_lines(base, ours, theirs);
  REQUIRE(r);
  // git merge-file -p ours base theirs gives the same text.
  CHECK(r->text == "T1\n@code A\nt2\n@code B\nt3\n@code C\n");
  CHECK(r->skipped.empty());
  // Both insert after t2: theirs first, then ours (git merge-file calls this a conflict; a caller checks the result).
  auto both = rebase_lines(base, ours, "t1\n@code A\nt2\n@code X\nt3\n");
  REQUIRE(both);
  CHECK(both->text == "t1\n@code A\nt2\n@code X\n@code B\nt3\n");
  // The same line changed on both sides: ours is skipped, theirs kept.
  auto clash = rebase_lines(base, "t1\n@code A, B\nt2\nt3\n", "t1\n@code A, C\nt2\nt3\n");
  REQUIRE(clash);
  CHECK(clash->text == "t1\n@code A, C\nt2\nt3\n");
  CHECK(clash->skipped == std::vector<std::size_t>{0});
  // Only some of ours.
  const std::string two = "t1\n@code A\n@code Z\nt2\n@code B\nt3\n";
  std::vector<std::size_t> second{1};
  auto only = rebase_lines(base, two, base, &second);
  REQUIRE(only);
  CHECK(only->text == "t1\n@code A\nt2\n@code B\nt3\n");
  CHECK(only->skipped == std::vector<std::size_t>{0});
}

TEST_CASE("text::rebase_lines is the identity when one side did not change", "[util][merge]") {
  std::mt19937 rng(11);
  for (int round = 0; round < 200; ++round) {
    std::string base, other;
    for (int i = 0, n = static_cast<int>(rng() % 20); i < n; ++i) base += std::to_string(rng() % 4) + "\n";
    for (int i = 0, n = static_cast<int>(rng() % 20); i < n; ++i) other += std::to_string(rng() % 4) + "\n";
    auto a = rebase_lines(base, other, base);
    REQUIRE(a);
    CHECK(a->text == other);
    auto b = rebase_lines(base, base, other);
    REQUIRE(b);
    CHECK(b->text == other);
  }
}
