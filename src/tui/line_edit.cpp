// The prompts' line editor (line_edit.h).
#include "line_edit.h"

#include "actions.h"
#include "qualrank/util/text.h"
#include "text_cells.h"

namespace qualrank::tui {

namespace {

// The cluster boundary before / after byte `at` of `s`.
std::size_t prev_boundary(const std::string& s, std::size_t at) {
  std::size_t best = 0;
  for (const auto& c : clusters(s))
    if (c.begin < at) best = c.begin;
  return best;
}
std::size_t next_boundary(const std::string& s, std::size_t at) {
  for (const auto& c : clusters(s))
    if (c.begin >= at) return c.end;
  return s.size();
}

constexpr int ctrl(char c) { return c - 'a' + 1; }

}  // namespace

bool LineEdit::apply(int k) {
  if (k == key::left || k == ctrl('b')) {
    cursor = prev_boundary(text, cursor);
  } else if (k == key::right || k == ctrl('f')) {
    cursor = cursor < text.size() ? next_boundary(text, cursor) : cursor;
  } else if (k == key::home || k == ctrl('a')) {
    cursor = 0;
  } else if (k == key::end || k == ctrl('e')) {
    cursor = text.size();
  } else if (k == key::backspace || k == ctrl('h')) {
    if (cursor > 0) {
      const std::size_t from = prev_boundary(text, cursor);
      text.erase(from, cursor - from);
      cursor = from;
    }
  } else if (k == ctrl('d')) {
    if (cursor < text.size()) text.erase(cursor, next_boundary(text, cursor) - cursor);
  } else if (k == ctrl('u')) {
    text.erase(0, cursor);
    cursor = 0;
  } else if (k == ctrl('k')) {
    text.erase(cursor);
  } else if (k == ctrl('w')) {
    std::size_t from = cursor;
    while (from > 0 && (text[from - 1] == ' ' || text[from - 1] == '\t')) --from;
    while (from > 0 && text[from - 1] != ' ' && text[from - 1] != '\t') from = prev_boundary(text, from);
    text.erase(from, cursor - from);
    cursor = from;
  } else if (k >= 0x20 && k != 127 && k < key::base && !(k >= 0xD800 && k < 0xE000)) {
    std::string typed;
    text::append_utf8(typed, static_cast<std::uint32_t>(k));
    text.insert(cursor, typed);
    cursor += typed.size();
    // A combining mark typed after a base joins its cluster: the cursor goes to that cluster's end.
    for (const auto& c : clusters(text))
      if (c.begin < cursor && cursor < c.end) cursor = c.end;
  } else {
    return false;
  }
  return true;
}

}  // namespace qualrank::tui
