// Characters, columns and words on a terminal: grapheme clusters of combining, emoji, flag and CJK text, words,
// and text cut in its middle.
#include "catch.h"

#include <string>
#include <vector>

#include "text_cells.h"

using namespace qualrank::tui;

namespace {

std::vector<std::string> word_texts(const std::string& s) {
  std::vector<std::string> out;
  for (const auto& w : split_words(s)) out.push_back(s.substr(w.begin, w.end - w.begin));
  return out;
}

}  // namespace

TEST_CASE("tui: clusters keep combining marks, emoji sequences and wide characters whole", "[tui]") {
  std::string e_combining = "cafe\xCC\x81";  // e + COMBINING ACUTE ACCENT
  auto cl = clusters(e_combining);
  REQUIRE(cl.size() == 4);
  CHECK(cl[3].begin == 3);
  CHECK(cl[3].end == e_combining.size());
  CHECK(display_width(e_combining) == 4);
  CHECK(display_width("東京") == 4);
  CHECK(display_width("🙂") == 2);
  // family: man ZWJ woman ZWJ girl is one character of two columns
  std::string family = "\xF0\x9F\x91\xA8\xE2\x80\x8D\xF0\x9F\x91\xA9\xE2\x80\x8D\xF0\x9F\x91\xA7";
  REQUIRE(clusters(family).size() == 1);
  CHECK(clusters(family)[0].width == 2);
  // thumbs up with a skin tone modifier
  CHECK(clusters("\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD").size() == 1);
  // a flag (two regional indicators), a ZWJ sequence and a VS16 sequence are one character each, as wide as
  // their base (wcwidth of the base, zero for what follows it)
  REQUIRE(clusters("🇩🇪").size() == 1);
  CHECK(clusters("🇩🇪")[0].width == 2);
  REQUIRE(clusters("👩‍💻").size() == 1);
  CHECK(clusters("👩‍💻")[0].width == 2);
  REQUIRE(clusters("✔️").size() == 1);
  CHECK(clusters("✔️")[0].width == 1);
  CHECK(clusters("🇩🇪🇫🇷").size() == 2);
  CHECK(clusters("\r\n").size() == 1);
  CHECK(display_width("👩‍💻 ✔️ 🇩🇪") == 7);
}

TEST_CASE("tui: words split at spaces; a wide character is a word of its own", "[tui]") {
  CHECK(word_texts("How do  I\nshard") == std::vector<std::string>{"How", "do", "I", "shard"});
  CHECK(word_texts("for 東京 users") == std::vector<std::string>{"for", "東", "京", "users"});
  CHECK(word_texts("日本語のテキスト") .size() == 8);
  CHECK(word_texts("hi 🙂 there") == std::vector<std::string>{"hi", "🙂", "there"});
  CHECK(word_texts("cafe\xCC\x81 owners") == std::vector<std::string>{"cafe\xCC\x81", "owners"});
  CHECK(word_texts("🇩🇪 team, 👩‍💻coder ✔️done") == std::vector<std::string>{"🇩🇪", "team,", "👩‍💻", "coder", "✔️done"});
  CHECK(word_texts("").empty());
  CHECK(word_texts("   ").empty());
}

TEST_CASE("tui::fit_middle keeps a text's end", "[tui]") {
  const std::string q = "changed on disk since read: reload it and re-apply your unsaved changes, then save? (y/n)";
  CHECK(fit_middle(q, 40) == "changed on disk since read: reloa… (y/n)");
  CHECK(display_width(fit_middle(q, 40)) == 40);
  CHECK(fit_middle("segments coded COM.1 Asynchronous updates across the study (12)", 30) == "segments coded COM.1 Asy… (12)");
  CHECK(fit_middle("short", 30) == "short");
  CHECK(fit_middle("東京東京東京東京", 7) == "東京…京");
}

TEST_CASE("tui::trim_punctuation leaves out quote marks and stops at either end, never a whole range", "[tui]") {
  const std::string t = "she said: \xE2\x80\x9C""slow builds\xE2\x80\x9D, again";  // “slow builds”,
  const auto b = t.find("\xE2\x80\x9C"), e = t.find(", again") + 1;     // the word range “slow builds”,
  const auto [tb, te] = trim_punctuation(t, b, e);
  CHECK(t.substr(tb, te - tb) == "slow builds");
  CHECK(trim_punctuation(t, 0, 3) == std::make_pair(std::size_t{0}, std::size_t{3}));  // "she": nothing to leave out
  const std::string dots = "x ... y";
  CHECK(trim_punctuation(dots, 2, 5) == std::make_pair(std::size_t{2}, std::size_t{5}));  // only punctuation: as given
  const std::string emoji = "(👩‍💻)";
  const auto [eb, ee] = trim_punctuation(emoji, 0, emoji.size());
  CHECK(emoji.substr(eb, ee - eb) == "👩‍💻");  // a whole cluster kept
}
