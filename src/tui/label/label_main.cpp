// The corpus labeller's terminal front end (`qualrank corpus label --coder NAME --sample NAME` on a terminal):
// one document at a time (title, url, the coder's label, the matched keywords, body and comments, the
// keywords highlighted), the node picker, the search prompt and the key loop over label_actions.h. Every
// change goes through LabelModel, which saves it as made; drawing is all this file does.
#include <curses.h>
#include <langinfo.h>
#include <unistd.h>

#include <algorithm>
#include <clocale>
#include <csignal>
#include <cstring>
#include <iostream>

#include "../../cli/cli.h"
#include "label_actions.h"
#include "line_edit.h"
#include "qualrank/model/history/versions.h"
#include "qualrank/model/workspace.h"
#include "screen.h"

namespace qualrank::cli {

namespace {

extern "C" void restore_terminal_and_exit(int sig) {
  endwin();
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

void utf8_locale() {
  std::setlocale(LC_ALL, "");
  const char* cs = nl_langinfo(CODESET);
  if (!cs || std::strcmp(cs, "UTF-8") != 0)
    if (!std::setlocale(LC_CTYPE, "C.UTF-8")) std::setlocale(LC_CTYPE, "en_US.UTF-8");
}

// A typed key (a code point) appended as UTF-8; false for keys that are not characters.
bool append_typed(std::string& s, int k) {
  if (k < 0x20 || k == 127 || k >= tui::key::base || (k >= 0xD800 && k < 0xE000)) return false;
  text::append_utf8(s, static_cast<std::uint32_t>(k));
  return true;
}

constexpr const char* kHint = "c label  A add  x clear  u undo  U unlabelled  ]/[ next/prev  / search  ? keys  q quit";

// Where the view is in the document: "line 40/212", "END" when its last line shows, "all 12 lines" when it fits.
std::string position(int scroll, int shown, int total) {
  if (total <= shown) return "all " + std::to_string(total) + " lines";
  if (scroll + shown >= total) return "END";
  return "line " + std::to_string(scroll + 1) + "/" + std::to_string(total);
}

void draw(tui::LabelModel& m) {
  m.reload_labels();  // a label recorded elsewhere (by command, from CSV, another labeller) shows
  erase();
  const int cols = COLS, body_rows = std::max(LINES - 3, 1);
  std::string head = "corpus label  " + m.coder() + "  sample " + m.sample() + "  [" +
                     std::to_string(m.size() ? m.current() + 1 : 0) + "/" + std::to_string(m.size()) + "]  " + m.progress();
  tui::put_text(0, 0, head, cols, A_BOLD);
  auto lines = m.layout(cols);
  const int total = static_cast<int>(lines.size());
  m.scroll = std::clamp(m.scroll, 0, std::max(total - body_rows, 0));
  for (int r = 0; r < body_rows && m.scroll + r < total; ++r) {
    const auto& line = lines[static_cast<std::size_t>(m.scroll + r)];
    const int base = line.kind == tui::ViewLine::heading ? A_BOLD : line.kind == tui::ViewLine::comment_head ? A_DIM : 0;
    // Pieces between the bounds of the marks: a matched keyword in reverse video, the search's text in bold
    // reverse video.
    std::vector<std::size_t> cuts{0, line.text.size()};
    for (const auto* ms : {&line.marks, &line.found})
      for (const auto& [b, e] : *ms) cuts.push_back(b), cuts.push_back(e);
    std::sort(cuts.begin(), cuts.end());
    cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
    auto in = [](const std::vector<std::pair<std::size_t, std::size_t>>& ms, std::size_t at) {
      return std::any_of(ms.begin(), ms.end(), [&](const auto& span) { return span.first <= at && at < span.second; });
    };
    int x = 0;
    for (std::size_t c = 0; c + 1 < cuts.size() && x < cols; ++c) {
      const int attr = base | (in(line.found, cuts[c]) ? A_REVERSE | A_BOLD : in(line.marks, cuts[c]) ? A_REVERSE : 0);
      x += tui::put_text(1 + r, x, std::string_view(line.text).substr(cuts[c], cuts[c + 1] - cuts[c]), cols - x, attr);
    }
  }
  const std::string where = position(m.scroll, body_rows, total);
  const int ww = static_cast<int>(where.size());
  std::string hint = kHint;  // whole items only, the position at the right
  while (tui::display_width(hint) > cols - ww - 2 && hint.rfind("  ") != std::string::npos) hint.resize(hint.rfind("  "));
  tui::put_text(LINES - 2, 0, hint, std::max(cols - ww - 2, 0), A_DIM);
  tui::put_text(LINES - 2, std::max(cols - ww, 0), where, cols, A_BOLD);
  tui::put_text(LINES - 1, 0, m.message(), cols);
  refresh();
}

class CursesLabelUi : public tui::LabelUi {
 public:
  std::optional<std::string> pick_node(tui::LabelModel& m, const std::string& title) override {
    std::string query;
    std::size_t sel = tui::first_pick(m.picker_rows(query), query), top = 0;
    for (;;) {
      auto rows = m.picker_rows(query);
      if (sel >= rows.size()) sel = rows.empty() ? 0 : rows.size() - 1;
      const int list_top = 3, list_rows = std::max(LINES - list_top - 1, 1);
      if (sel < top) top = sel;
      if (sel >= top + static_cast<std::size_t>(list_rows)) top = sel - static_cast<std::size_t>(list_rows) + 1;
      erase();
      tui::put_text(0, 0, title, COLS, A_BOLD);
      tui::put_text(1, 0, "filter (id, name or alias): " + query + "_", COLS);
      tui::put_text(2, 0, rows.empty() ? "no node matches" : "Up/Down move, Enter applies, Esc cancels", COLS, A_DIM);
      for (std::size_t r = top; r < rows.size() && r < top + static_cast<std::size_t>(list_rows); ++r) {
        const bool hl = r == sel;
        const std::string text = std::string(hl ? "> " : "  ") + std::string(static_cast<std::size_t>(2 * rows[r].depth), ' ') +
                                 rows[r].id + "  " + rows[r].name;
        tui::put_text(list_top + static_cast<int>(r - top), 0, text, COLS,
                      static_cast<int>(hl ? A_REVERSE : rows[r].match ? 0 : A_DIM));
      }
      refresh();
      const int k = tui::read_key();
      if (k == tui::key::escape || k == tui::key::ctrl_c) return std::nullopt;
      if (k == tui::key::enter) {
        if (rows.empty() || !rows[sel].match) continue;  // a parent shown for context only
        return rows[sel].id;
      }
      if (k == tui::key::up) sel = tui::step_pick(rows, sel, -1);
      else if (k == tui::key::down) sel = tui::step_pick(rows, sel, 1);
      else if (k == tui::key::page_up) sel = tui::step_pick(rows, sel, -10);
      else if (k == tui::key::page_down) sel = tui::step_pick(rows, sel, 10);
      else if (k == tui::key::backspace) {
        if (!query.empty()) query.erase(tui::clusters(query).back().begin);
        sel = tui::first_pick(m.picker_rows(query), query);
      } else if (append_typed(query, k)) {
        sel = tui::first_pick(m.picker_rows(query), query);
      }
    }
  }

  std::optional<std::string> prompt(const std::string& label, const std::string& initial) override {
    tui::LineEdit line(initial);  // the same editing keys as annotate's prompts
    for (;;) {
      draw(*model);
      move(LINES - 1, 0);
      clrtoeol();
      const int x = tui::put_text(LINES - 1, 0, label, COLS, A_BOLD);
      tui::draw_line_edit(LINES - 1, x, line);
      refresh();
      const int k = tui::read_key();
      if (k == tui::key::escape || k == tui::key::ctrl_c) return std::nullopt;
      if (k == tui::key::enter) return line.text;
      line.apply(k);
    }
  }

  void show_help() override {
    tui::run_list("qualrank corpus label: keys (every label is saved as made)", [](int cols) { return tui::label_help_lines(cols); });
  }

  tui::LabelModel* model = nullptr;
};

}  // namespace

std::vector<std::string> corpus_labeller_keys() { return tui::label_help_lines(); }

int cmd_corpus_labeller(Context& ctx, const std::string& coder, const std::string& sample) {
  Diagnostics diags;
  auto ws = load_workspace_design(ctx.workspace, diags);
  if (!ws) return report_diagnostics(ctx, diags);
  auto version = taxonomy_at(*ws, std::nullopt, diags);
  if (!version) return report_diagnostics(ctx, diags);
  auto model = tui::LabelModel::open(ctx.workspace, coder, sample, version->taxonomy, version->resolve, diags);
  if (!model) return report_diagnostics(ctx, diags);
  if (model->size() == 0) {
    *ctx.err << "qualrank corpus label: error: sample " << sample << " has no documents\n";
    return 1;
  }
  utf8_locale();
  set_escdelay(25);
  if (!initscr()) {
    *ctx.err << "qualrank corpus label: error: cannot initialise the terminal\n";
    return 1;
  }
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) std::signal(sig, restore_terminal_and_exit);
  raw();
  noecho();
  keypad(stdscr, TRUE);
  curs_set(0);
  CursesLabelUi ui;
  ui.model = &*model;
  tui::LabelActionContext actx{*model, ui, 0, 20, false, {}};
  for (;;) {
    actx.page = std::max(LINES - 4, 1);
    draw(*model);
    const int k = tui::read_key();
    if (k == tui::key::resize || k < 0) continue;
    actx.key = k;
    if (!tui::label_dispatch(actx)) model->set_message("no action on this key ('?' lists the keys)");
    if (actx.quit) break;
  }
  endwin();
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) std::signal(sig, SIG_DFL);
  if (!ctx.quiet) *ctx.out << coder << ": " << model->progress() << " (sample " << sample << ")\n";
  return 0;
}

}  // namespace qualrank::cli
