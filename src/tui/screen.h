// The ncurses side of the terminal coder: drawing the model (draw.cpp), the code picker and the prompts
// (picker.cpp). Nothing here changes the model except through its public calls.
#pragma once
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
// The code picker; returns the chosen node id or nullopt (Esc).
std::optional<std::string> run_picker(AnnotateModel& model);
// A line editor on the message line; nullopt on Esc.
std::optional<std::string> run_prompt(const AnnotateModel& model, const std::string& label, const std::string& initial);
// Shows `question` on the message line; true when the answer is y.
bool run_confirm(const AnnotateModel& model, const std::string& question);
// The help screen from the action table.
void run_help(const AnnotateModel& model);
// A full-screen list (wrapped, paged) with a title.
void run_list(const std::string& title, const std::vector<std::string>& lines);

}  // namespace qualrank::tui
