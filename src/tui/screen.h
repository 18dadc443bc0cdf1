// The ncurses side of the terminal coder: drawing the model (draw.cpp), the code picker and the prompts
// (picker.cpp). Nothing here changes the model except through its public calls.
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "annotate_model.h"

namespace qualrank::tui {

// Draws `text` at (y, x) clipped to `max_cols` columns, whole characters only; returns the columns used.
int put_text(int y, int x, std::string_view text, int max_cols, int attr = 0);
// The whole main screen: header, turns around the current one, status line, message line.
void draw_main(const AnnotateModel& model);
// Reads a key: special keys mapped to key::*, characters as code points.
int read_key();
// The code picker; returns the chosen node id or nullopt (Esc). With `new_code` (its name) it picks that new
// code's parent: the taxonomy without suggestions, and "" (a first row) for the top level.
std::optional<std::string> run_picker(AnnotateModel& model, const std::string* new_code = nullptr);
// Shows `question` on the message line until one of `keys` is pressed (returned) or Esc (0).
int run_choose(const AnnotateModel& model, const std::string& question, const std::string& keys);
// Colours for coded spans: off when the terminal has none or NO_COLOR is set (https://no-color.org); coded
// spans are then marked «…» and underlined.
void set_colours(bool on);
bool colours();
// A line editor on the message line; nullopt on Esc.
std::optional<std::string> run_prompt(const AnnotateModel& model, const std::string& label, const std::string& initial);
// Draws a prompt's line editor at (y, x) with the terminal cursor at its cursor (line_edit.h).
struct LineEdit;
void draw_line_edit(int y, int x, const LineEdit& line);
// Shows `question` on the message line; true when the answer is y.
bool run_confirm(const AnnotateModel& model, const std::string& question);
// The help screen from the action table.
void run_help(const AnnotateModel& model);
// A full-screen list (paged) with a title: an item wider than the screen wrapped by words (wrap_list, actions.h).
void run_list(const std::string& title, const std::vector<std::string>& lines);
// The same with the lines laid out for the screen's columns, again after a resize (a help table).
void run_list(const std::string& title, const std::function<std::vector<std::string>(int cols)>& lines_for);


}  // namespace qualrank::tui
