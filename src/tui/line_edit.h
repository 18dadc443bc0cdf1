// The one line editor of the terminal screens' prompts (annotate's and the labeller's): a text and a cursor
// between grapheme clusters, edited by the keys a shell's line editor uses. Pure: tested without a terminal.
#pragma once
#include <cstddef>
#include <string>

namespace qualrank::tui {

struct LineEdit {
  std::string text;
  std::size_t cursor = 0;  // byte offset, on a cluster boundary

  explicit LineEdit(std::string initial = {}) : text(std::move(initial)), cursor(text.size()) {}

  // Applies one key (tui::key values or a code point); false when the key is not an editing key (Enter, Esc
  // and the like are the caller's). Left/Right and Ctrl-B/Ctrl-F move by a character, Home/End and
  // Ctrl-A/Ctrl-E to the ends; Backspace and Ctrl-H delete the character before the cursor, Ctrl-D the one
  // after it; Ctrl-U deletes from the start to the cursor, Ctrl-K from the cursor to the end, Ctrl-W the word
  // before the cursor (and the spaces after it); a printable character is inserted at the cursor.
  bool apply(int k);

  std::string before_cursor() const { return text.substr(0, cursor); }
};

}  // namespace qualrank::tui
