// The prompts' line editor (src/tui/line_edit.h): every editing key, on ASCII and on grapheme clusters.
#include "catch.h"

#include "actions.h"
#include "line_edit.h"

using namespace qualrank::tui;

namespace {
constexpr int ctrl(char c) { return c - 'a' + 1; }
void type(LineEdit& e, const char* s) {
  for (; *s; ++s) e.apply(static_cast<unsigned char>(*s));
}
}  // namespace

TEST_CASE("tui::LineEdit moves, inserts and deletes at the cursor", "[tui]") {
  LineEdit e("cache miss");
  CHECK(e.cursor == 10);
  e.apply(key::left);
  e.apply(key::left);
  e.apply(key::left);
  e.apply(key::left);  // before "miss"
  type(e, "big ");
  CHECK(e.text == "cache big miss");
  CHECK(e.before_cursor() == "cache big ");
  e.apply(ctrl('w'));  // the word before the cursor and the space after it
  CHECK(e.text == "cache miss");
  CHECK(e.cursor == 6);
  e.apply(ctrl('k'));
  CHECK(e.text == "cache ");
  e.apply(key::home);
  e.apply(ctrl('d'));
  CHECK(e.text == "ache ");
  e.apply(ctrl('e'));
  e.apply(key::backspace);
  CHECK(e.text == "ache");
  e.apply(key::left);
  e.apply(ctrl('u'));
  CHECK(e.text == "e");
  CHECK(e.cursor == 0);
  CHECK_FALSE(e.apply(key::enter));
  CHECK_FALSE(e.apply(key::escape));
}

TEST_CASE("tui::LineEdit keeps whole characters: an accent, a combining mark, an emoji", "[tui]") {
  LineEdit e("Zo\xC3\xAB x");  // Zoë x
  e.apply(key::left);
  e.apply(key::left);
  e.apply(key::left);  // before ë
  CHECK(e.before_cursor() == "Zo");
  e.apply(ctrl('d'));
  CHECK(e.text == "Zo x");
  e.apply('e');
  e.apply(0x308);  // a combining diaeresis joins the e: the cursor after the whole character
  CHECK(e.text == "Zoe\xCC\x88 x");
  CHECK(e.before_cursor() == "Zoe\xCC\x88");
  e.apply(key::backspace);  // removes e and its mark together
  CHECK(e.text == "Zo x");
  e.apply(key::end);
  e.apply(0x1F44D);  // 👍
  e.apply(key::left);
  CHECK(e.before_cursor() == "Zo x");
}
