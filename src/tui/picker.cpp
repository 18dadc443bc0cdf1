// The code picker, the line editor, the y/n question and the help screen of the terminal coder.
#include <curses.h>

#include <algorithm>

#include "actions.h"
#include "line_edit.h"
#include "qualrank/util/text.h"
#include "screen.h"

namespace qualrank::tui {

namespace {

void erase_last_char(std::string& s) {
  auto cl = clusters(s);
  if (!cl.empty()) s.erase(cl.back().begin);
}

bool printable(int k) { return k >= 0x20 && k != 127 && k < key::base; }

}  // namespace

std::optional<std::string> run_picker(AnnotateModel& m, const std::string* new_code) {
  std::string query;
  // Picking a new code's parent: the taxonomy only, and (unfiltered) the top level as the first row.
  auto rows_for = [&](const std::string& q) {
    if (!new_code) return m.picker_rows(q);
    auto rows = m.picker_rows(q, false);
    if (text::trim(q).empty()) rows.insert(rows.begin(), PickerRow{"", "(the top level: a new top-level code)", 0, false, true});
    return rows;
  };
  std::size_t sel = first_pick(rows_for(query), query), top = 0;
  auto target = m.selected_text();
  std::string what = new_code ? "parent of the new code '" + *new_code + "'"
                              : "code for t" + std::to_string(m.current_number()) + (target ? " \"" + *target + "\"" : " (whole turn)");
  for (;;) {
    auto rows = rows_for(query);
    if (sel >= rows.size()) sel = rows.empty() ? 0 : rows.size() - 1;
    int lines = LINES, cols = COLS;
    int list_top = 3, list_rows = std::max(lines - list_top - 1, 1);
    if (sel < top) top = sel;
    if (sel >= top + static_cast<std::size_t>(list_rows)) top = sel - static_cast<std::size_t>(list_rows) + 1;
    erase();
    put_text(0, 0, fit_middle(what, cols), cols, A_BOLD);
    put_text(1, 0, "filter (id, name or alias): " + query + "_", cols);
    put_text(2, 0, rows.empty() ? "no node matches"
                   : new_code ? "Up/Down move, Enter picks the parent, Esc cancels (nothing proposed)"
                              : "Up/Down move, Enter applies, Esc cancels", cols, A_DIM);
    for (std::size_t r = top; r < rows.size() && r < top + static_cast<std::size_t>(list_rows); ++r) {
      const auto& row = rows[r];
      bool hl = r == sel;
      std::string text = std::string(hl ? "> " : "  ") + (row.suggested ? "suggested: " : std::string(static_cast<std::size_t>(2 * row.depth), ' ')) +
                         (row.id.empty() ? "" : row.id + "  ") + row.name;
      int y = list_top + static_cast<int>(r - top);
      if (hl) {
        attron(A_REVERSE);
        mvhline(y, 0, ' ', cols);
        attroff(A_REVERSE);
      }
      put_text(y, 0, text, cols, static_cast<int>(hl ? A_REVERSE : row.match ? 0 : A_DIM));
    }
    put_text(lines - 1, 0, m.message(), cols);
    refresh();
    int k = read_key();
    if (k == key::escape || k == key::ctrl_c) {
      m.set_message(new_code ? "no code proposed" : "no code applied");
      return std::nullopt;
    }
    if (k == key::enter) {
      if (rows.empty() || !rows[sel].match) continue;  // a parent shown for context only is never applied
      return rows[sel].id;
    }
    if (k == key::up) sel = step_pick(rows, sel, -1);
    else if (k == key::down) sel = step_pick(rows, sel, 1);
    else if (k == key::page_up) sel = step_pick(rows, sel, -10);
    else if (k == key::page_down) sel = step_pick(rows, sel, 10);
    else if (k == key::backspace) { erase_last_char(query); sel = first_pick(rows_for(query), query); }
    else if (printable(k)) { text::append_utf8(query, static_cast<std::uint32_t>(k)); sel = first_pick(rows_for(query), query); }
  }
}

void draw_line_edit(int y, int x, const LineEdit& line) {
  // The text around the cursor, the cursor shown as the terminal's own (at the end: '_').
  std::string before = line.before_cursor(), after = line.text.substr(line.cursor);
  const int room = std::max(COLS - x - 1, 4);
  while (display_width(before) > room - std::min(room / 3, display_width(after)) && !before.empty())
    before.erase(0, clusters(before).front().end);
  const int cx = x + put_text(y, x, before, COLS - x);  // (put_text returns the columns it wrote)
  put_text(y, cx, after.empty() ? "_" : after, COLS - cx);
  move(y, std::min(cx, COLS - 1));
}

std::optional<std::string> run_prompt(const AnnotateModel& m, const std::string& label, const std::string& initial) {
  LineEdit line(initial);
  for (;;) {
    draw_main(m);
    int y = LINES - 1;
    move(y, 0);
    clrtoeol();
    int x = put_text(y, 0, fit_middle(label, std::max(COLS / 2, std::min(COLS, 20))), COLS, A_BOLD);
    put_text(LINES - 2, 0, "Enter accepts, Esc cancels; Left/Right, Ctrl-A/E, Ctrl-U/K/W edit", COLS, A_DIM);
    draw_line_edit(y, x, line);
    refresh();
    int k = read_key();
    if (k == key::escape || k == key::ctrl_c) return std::nullopt;
    if (k == key::enter) return line.text;
    line.apply(k);
  }
}

bool run_confirm(const AnnotateModel& m, const std::string& question) {
  for (;;) {
    draw_main(m);
    move(LINES - 1, 0);
    clrtoeol();
    put_text(LINES - 1, 0, fit_middle(question, COLS), COLS, A_BOLD);
    refresh();
    int k = read_key();
    if (k == key::resize) continue;
    return k == 'y' || k == 'Y';
  }
}

int run_choose(const AnnotateModel& m, const std::string& question, const std::string& keys) {
  for (;;) {
    draw_main(m);
    move(LINES - 1, 0);
    clrtoeol();
    put_text(LINES - 1, 0, fit_middle(question, COLS), COLS, A_BOLD);
    refresh();
    int k = read_key();
    if (k == key::escape || k == key::ctrl_c) return 0;
    if (k > 0 && k < 128 && keys.find(static_cast<char>(k)) != std::string::npos) return k;
  }
}

void run_help(const AnnotateModel& m) {
  std::size_t top = 0;
  for (;;) {
    auto lines = help_lines(COLS);
    erase();
    put_text(0, 0, "qualrank annotate: keys (any other key returns)", COLS, A_BOLD);
    int rows = std::max(LINES - 2, 1);
    for (int r = 0; r < rows && top + static_cast<std::size_t>(r) < lines.size(); ++r)
      put_text(1 + r, 0, lines[top + static_cast<std::size_t>(r)], COLS);
    bool more = top + static_cast<std::size_t>(rows) < lines.size();
    put_text(LINES - 1, 0, more ? "-- more: Space or Down --" : fit_middle("writing " + m.document().target_file(), COLS), COLS, A_DIM);
    refresh();
    int k = read_key();
    if (k == key::resize) continue;
    if (more && (k == ' ' || k == key::down || k == 'j')) {
      top += static_cast<std::size_t>(rows);
      continue;
    }
    return;
  }
}

void run_list(const std::string& title, const std::vector<std::string>& items) {
  run_list(title, [&](int cols) { return wrap_list(items, cols); });
}

void run_list(const std::string& title, const std::function<std::vector<std::string>(int cols)>& lines_for) {
  // Space/Down/PgDn page on, Up/PgUp back, any other key returns; a resize lays the lines out again.
  std::size_t top = 0;
  for (;;) {
    int cols = std::max(COLS, 10), rows = std::max(LINES - 2, 1);
    const std::vector<std::string> lines = lines_for(cols);
    if (top >= lines.size()) top = lines.empty() ? 0 : (lines.size() - 1) / static_cast<std::size_t>(rows) * static_cast<std::size_t>(rows);
    erase();
    put_text(0, 0, fit_middle(title, cols), cols, A_BOLD);
    for (int r = 0; r < rows && top + static_cast<std::size_t>(r) < lines.size(); ++r)
      put_text(1 + r, 0, lines[top + static_cast<std::size_t>(r)], cols);
    bool more = top + static_cast<std::size_t>(rows) < lines.size();
    put_text(LINES - 1, 0, more ? "-- more: Space or Down; any other key returns --" : "-- any key returns --", cols, A_DIM);
    refresh();
    int k = read_key();
    if (k == key::resize) continue;
    if (more && (k == ' ' || k == key::down || k == 'j' || k == key::page_down)) {
      top += static_cast<std::size_t>(rows);
      continue;
    }
    if (top > 0 && (k == key::up || k == 'k' || k == key::page_up)) {
      top -= std::min(top, static_cast<std::size_t>(rows));
      continue;
    }
    return;
  }
}

}  // namespace qualrank::tui
