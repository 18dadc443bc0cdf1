// The terminal coder's actions: one table (name, default keys, one-line help, handler) that the key loop
// dispatches through and that `qualrank annotate --help` and the `?` screen print, so the keys shown are the
// keys that work. Handlers change the model by library calls; what needs the user (the code picker, a memo,
// a yes/no question, the help screen) goes through the Ui interface, which tests can fake.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "annotate_model.h"

namespace qualrank::tui {

// Keys: characters are their code point; special keys are mapped by the front end to these.
namespace key {
constexpr int tab = '\t';
constexpr int enter = '\n';
constexpr int escape = 27;
constexpr int ctrl_c = 3;  // the terminal is in raw mode: Ctrl-C is a key (quit asks), not SIGINT
constexpr int base = 0x110000;  // past Unicode
constexpr int up = base + 1, down = base + 2, left = base + 3, right = base + 4;
constexpr int shift_left = base + 5, shift_right = base + 6, page_up = base + 7, page_down = base + 8;
constexpr int back_tab = base + 9, backspace = base + 10, resize = base + 11, home = base + 12, end = base + 13;
}  // namespace key

// What an action asks of the user; the ncurses front end implements it, tests fake it.
class Ui {
 public:
  virtual ~Ui() = default;
  virtual std::optional<std::string> pick_code(AnnotateModel& model) = 0;  // a node id, or none (cancelled)
  // The parent of a new code `name`: a node id, "" for a new top-level code, or none (cancelled: Esc).
  virtual std::optional<std::string> pick_parent(AnnotateModel& model, const std::string& name) = 0;
  // Asks `question` and waits for one of `keys` (characters); returns it, or 0 for Esc (cancel).
  virtual int choose(const std::string& question, const std::string& keys) = 0;
  virtual std::optional<std::string> prompt(const std::string& label, const std::string& initial) = 0;
  virtual bool confirm(const std::string& question) = 0;                    // y/n
  virtual void show_help() = 0;
  // A full-screen list to read (the message history, the memos, a code's segments across the study).
  virtual void show_list(const std::string& title, const std::vector<std::string>& lines) { (void)title, (void)lines; }
};

struct ActionContext {
  AnnotateModel& model;
  Ui& ui;
  int key = 0;        // the key that triggered the action
  bool quit = false;  // set by the quit action
  int switch_transcript = 0;  // set by next/previous-transcript: +1 or -1 (the key loop opens it)
  bool discard = false;       // the user chose to leave unsaved changes (their recovery file goes too)
};

struct Action {
  const char* name;
  std::vector<int> keys;
  const char* help;
  void (*run)(ActionContext&);
};

const std::vector<Action>& actions();
const Action* action_for_key(int key);
std::string key_name(int key);  // "j", "Down", "Shift-Right", "Tab", "Esc", "Space", "1"
// The table as text, one action a line: keys, name, help (for --help and the ? screen). With `width` > 0 a
// help longer than the line wraps under itself (below the keys, indented, on a screen narrower than 60).
std::vector<std::string> help_lines(int width = 0);
// Word-wraps `text` into lines of at most `width` columns (`later_width` for the lines after the first, when
// > 0); a word longer than its line is broken by characters (grapheme clusters) onto the next lines, so
// nothing of it is lost. White space between words becomes one space.
std::vector<std::string> wrap_words(const std::string& text, int width, int later_width = 0);
// The items of a list screen (annotate's S, M and :) as shown on `cols` columns: one that fits as it is; a
// longer one wrapped by words under its own indentation (the lines after its first 4 columns further in), a
// word longer than the line broken by characters; "(none)" for no item.
std::vector<std::string> wrap_list(const std::vector<std::string>& items, int cols);
// A table of keys for a help screen (annotate's and the labeller's): each row "  KEYS NAME HELP", the keys
// padded to `keys_cols` and the name to `name_cols` columns. With `width` > 0 a help longer than the line
// wraps by words under itself (below the keys, indented by 4, on a screen too narrow for that).
struct HelpRow {
  std::string keys, name, help;
};
std::vector<std::string> help_table(const std::vector<HelpRow>& rows, int keys_cols, int name_cols, int width);
// Runs the action bound to `key`; false when no action is bound.
bool dispatch(ActionContext& ctx);

}  // namespace qualrank::tui
