// Drawing the terminal coder's main screen from the model (ncursesw, wide characters). Layout, top to bottom:
// the file being written, the turns around the current one (each section's guideline question above its
// turns; interviewer turns indented and dimmed; codings under each participant turn), the status line and
// the message line. The current turn is marked '>' and the selection is bracketed as well as highlighted,
// so nothing depends on colour or reverse video alone.
#include <csignal>
#include <curses.h>

#include <algorithm>
#include <cwchar>

#include "actions.h"
#include "screen.h"

namespace qualrank::tui {

namespace {

std::wstring widen(std::string_view s) {
  std::wstring out;
  std::size_t i = 0;
  while (i < s.size()) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    int n = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    char32_t cp = n == 1 ? c : n == 2 ? (c & 0x1F) : n == 3 ? (c & 0x0F) : (c & 0x07);
    for (int k = 1; k < n && i + static_cast<std::size_t>(k) < s.size(); ++k)
      cp = (cp << 6) | (static_cast<unsigned char>(s[i + static_cast<std::size_t>(k)]) & 0x3F);
    i += static_cast<std::size_t>(n);
    out.push_back(static_cast<wchar_t>(cp));
  }
  return out;
}

struct Piece {
  std::string text;
  int attr = 0;
};
using Line = std::vector<Piece>;

// Word-wraps tokens into lines of `cols` columns; the first line starts after `first_prefix`, the others
// after `indent` spaces.
class Wrapper {
 public:
  Wrapper(int cols, Line first_prefix, int indent) : cols_(cols), indent_(indent) {
    cur_ = std::move(first_prefix);
    for (const auto& p : cur_) used_ += display_width(p.text);
    first_start_ = used_;
  }
  // Adds a word; returns the line it starts on. A word longer than the line is broken by characters (grapheme
  // clusters) onto the next lines, every piece in `attr`: nothing of it is cut off (a long URL).
  int word(const std::string& w, int attr, bool space_before = true) {
    std::string_view rest = w;
    int width = display_width(rest);
    int sep = space_before && used_ > line_start() ? 1 : 0;
    if (used_ + sep + width > cols_ && used_ > line_start()) {
      newline();
      sep = 0;
    }
    int first_line = line_index();
    while (used_ + sep + width > cols_ && !rest.empty()) {
      std::size_t cut = fitting_prefix(rest, cols_ - used_ - sep);
      if (cut == 0 && lines_.empty() && first_start_ > indent_) {  // no room after the first line's label
        newline();
        sep = 0;
        first_line = line_index();
        continue;
      }
      if (cut == 0) cut = clusters(rest).front().end;  // not one character fits: one a line
      if (cut >= rest.size()) break;
      if (sep) cur_.push_back({" ", space_attr_});
      cur_.push_back({std::string(rest.substr(0, cut)), attr});
      newline();
      sep = 0;
      rest.remove_prefix(cut);
      width = display_width(rest);
    }
    if (sep) cur_.push_back({" ", space_attr_});
    cur_.push_back({std::string(rest), attr});
    used_ += sep + width;
    return first_line;
  }
  void set_space_attr(int a) { space_attr_ = a; }
  int line_index() const { return static_cast<int>(lines_.size()); }  // the line the next word goes on (or the last one)
  std::vector<Line> finish() {
    if (!cur_.empty()) lines_.push_back(std::move(cur_));
    return std::move(lines_);
  }

 private:
  int line_start() const { return lines_.empty() ? first_start_ : indent_; }
  void newline() {
    lines_.push_back(std::move(cur_));
    cur_ = {{std::string(static_cast<std::size_t>(indent_), ' '), 0}};
    used_ = indent_;
  }
  int cols_, indent_, used_ = 0, first_start_ = 0, space_attr_ = 0;
  Line cur_;
  std::vector<Line> lines_;
};

std::vector<Line> wrap_text(std::string_view text, int cols, Line prefix, int indent, int attr) {
  Wrapper w(cols, std::move(prefix), std::max(indent, 0));
  std::size_t prev = 0;
  for (const auto& word : split_words(text)) {
    w.word(std::string(text.substr(word.begin, word.end - word.begin)), attr, word.begin > prev);
    prev = word.end;
  }
  return w.finish();
}

std::string question_text(const AnnotateModel& m, const Turn& t) {
  const auto& tr = m.document().transcript();
  if (m.guideline())
    if (const auto* q = m.guideline()->find(t.section)) return q->text_for(tr.role);
  for (const auto& s : tr.sections)
    if (s.question == t.section) return s.title;
  return "";
}

std::vector<Line> section_header(const AnnotateModel& m, const Turn& t, int cols) {
  if (t.section.empty()) return {};
  return wrap_text(question_text(m, t), cols, {{"## " + t.section + " ", A_BOLD}}, 3, A_BOLD);
}

// The margin at the right: the codes of each line (ids), when the terminal is wide enough (the status line
// says when it is hidden).
constexpr int kMarginMinCols = 70;
int margin_width(int cols) { return cols >= kMarginMinCols ? 18 : 0; }

bool g_colours = false;

// Colour pairs 1..6 stand for the top-level codes (in taxonomy order, cycling); 0 when there are no colours.
int code_colour(const AnnotateModel& m, const std::string& written) {
  if (!g_colours) return 0;
  const auto* n = m.taxonomy().find(m.node_id(written));
  while (n && !n->parent.empty()) n = m.taxonomy().find(n->parent);
  if (!n) return 0;
  int top = 0;
  for (const auto& id : m.taxonomy().order()) {
    const auto* t = m.taxonomy().find(id);
    if (!t || !t->parent.empty()) continue;
    if (id == n->id) break;
    ++top;
  }
  return 1 + top % 6;
}

struct Block {
  std::vector<Line> lines;
  std::vector<std::string> margin;  // one per line
  std::vector<int> margin_attr;
  int focus = 0;                    // the line the view must show (selection, highlighted coding)
};

Block turn_block(const AnnotateModel& m, std::size_t index, bool current, int cols) {
  const Turn& t = m.document().transcript().turns[index];
  Block b;
  const int margin = margin_width(cols);
  const int text_cols = cols - (margin ? margin + 1 : 0);
  auto finish = [&](std::vector<Line> lines) {
    b.lines = std::move(lines);
    b.margin.resize(b.lines.size());
    b.margin_attr.resize(b.lines.size(), static_cast<int>(A_BOLD));
  };
  if (t.interviewer) {
    Line prefix{{"    " + t.speaker + " (interviewer): ", A_DIM}};
    finish(wrap_text(t.text, text_cols, prefix, 6, A_DIM));
    return b;
  }
  std::string label = "t" + std::to_string(t.number) + " " + t.speaker + ": ";
  Line prefix{{current ? "> " : "  ", A_BOLD}, {label, A_BOLD}};
  int indent = 2 + display_width(label);
  if (indent > text_cols / 2) indent = 4;
  Wrapper w(text_cols, prefix, indent);
  const auto words = current ? m.words() : split_words(t.text);
  auto sel = current ? m.selection() : std::nullopt;
  auto sel_bytes = current ? m.selection_bytes() : std::nullopt;
  // Coded spans (this coder's): words inside one are coloured by its first code's top-level code, or marked
  // «…» where the terminal has no colours; the span's codes go in the margin of the line it starts on.
  struct SpanMark {
    std::size_t begin, end;
    int colour;
    std::string ids;
  };
  std::vector<SpanMark> spans;
  for (const auto& sp : t.spans) {
    if (sp.codes.empty()) continue;
    std::string ids;
    for (const auto& c : sp.codes) ids += (ids.empty() ? "" : ",") + m.node_id(c.written);
    spans.push_back({sp.begin, sp.end, code_colour(m, sp.codes.front().written), ids});
  }
  std::vector<std::pair<int, std::string>> span_margin;  // (line, ids)
  int selection_line = -1;
  for (std::size_t k = 0; k < words.size(); ++k) {
    std::string word = t.text.substr(words[k].begin, words[k].end - words[k].begin);
    bool in = sel && k >= sel->first && k <= sel->second;
    const SpanMark* span = nullptr;
    for (const auto& sp : spans)
      if (words[k].begin < sp.end && sp.begin < words[k].end) span = &sp;
    bool span_first = span && (k == 0 || !(words[k - 1].begin < span->end && span->begin < words[k - 1].end));
    bool span_last = span && (k + 1 == words.size() || !(words[k + 1].begin < span->end && span->begin < words[k + 1].end));
    // The selection's brackets go where its bytes start and end (punctuation around the words stays outside);
    // at a word's edge, outside the coded span's «» as well.
    const std::size_t open = sel && k == sel->first ? sel_bytes->first - words[k].begin : std::string::npos;
    const std::size_t close = sel && k == sel->second ? sel_bytes->second - words[k].begin : std::string::npos;
    const bool open_out = open == 0, close_out = close == word.size();
    if (close != std::string::npos && !close_out) word.insert(std::min(close, word.size()), "]");
    if (open != std::string::npos && !open_out) word.insert(std::min(open, word.size()), "[");
    if (span && !span->colour) {
      if (span_first) word = "«" + word;
      if (span_last) word += "»";
    }
    if (open_out) word = "[" + word;
    if (close_out) word += "]";
    int attr = in ? static_cast<int>(A_REVERSE | A_BOLD)
               : span ? static_cast<int>(span->colour ? COLOR_PAIR(span->colour) : A_UNDERLINE) : 0;
    w.set_space_attr(static_cast<int>(in && k != sel->first ? A_REVERSE : span && !span_first && span->colour ? COLOR_PAIR(span->colour) : 0));
    const int line = w.word(word, attr, k == 0 || words[k].begin > words[k - 1].end);
    if (sel && k == sel->first) selection_line = line;
    if (span_first) span_margin.push_back({line, span->ids});
  }
  finish(w.finish());
  // Margin: the whole-turn codes on the first line, each span's codes on the line it starts on, then (unless
  // coding blind) the other coders' codes, dimmed.
  auto list = m.document().codings(t.number);
  std::string whole;
  for (const auto& c : list)
    if (!c.span) whole += (whole.empty() ? "" : ",") + m.node_id(c.written);
  if (margin) {
    auto put_margin = [&](int line, const std::string& text, int attr) {
      while (line < static_cast<int>(b.margin.size()) && !b.margin[static_cast<std::size_t>(line)].empty()) ++line;
      if (line >= static_cast<int>(b.margin.size())) {
        b.lines.push_back({});
        b.margin.push_back("");
        b.margin_attr.push_back(0);
      }
      b.margin[static_cast<std::size_t>(line)] = text;
      b.margin_attr[static_cast<std::size_t>(line)] = attr;
    };
    if (!whole.empty()) put_margin(0, whole, static_cast<int>(A_BOLD));
    for (const auto& [line, ids] : span_margin) put_margin(line, "\"" + ids, static_cast<int>(A_BOLD));
    if (!m.blind())
      for (const auto& o : m.other_codings(t.number)) put_margin(0, o, static_cast<int>(A_DIM));
  }
  b.focus = selection_line >= 0 ? selection_line : 0;
  if (!current) return b;
  // The current turn: its codings in full (name, span, exemplar, memo), then the suggestions with their keys.
  for (std::size_t k = 0; k < list.size(); ++k) {
    const auto& c = list[k];
    bool hl = k == m.highlighted();
    std::string line = m.node_label(c.written);
    if (c.span) line += " \"" + *c.span + "\"" + (c.occurrence > 1 ? "#" + std::to_string(c.occurrence) : "");
    if (c.exemplar) line += " (exemplar)";
    if (!c.memo.empty()) line += " [memo: " + c.memo + "]";
    int attr = static_cast<int>(hl ? A_BOLD : 0);
    auto wrapped = wrap_text(line, text_cols, {{hl ? "    * " : "    - ", attr}}, 6, attr);
    if (hl && m.focus_on_codes()) b.focus = static_cast<int>(b.lines.size());
    for (auto& l : wrapped) {
      b.lines.push_back(std::move(l));
      b.margin.push_back("");
      b.margin_attr.push_back(0);
    }
  }
  auto add_line = [&](Line l) {
    b.lines.push_back(std::move(l));
    b.margin.push_back("");
    b.margin_attr.push_back(0);
  };
  if (list.empty()) add_line({{"    (no codes: c picks one, 1-9 apply a suggestion below)", A_DIM}});
  auto sugg = m.suggestions();
  if (!sugg.empty()) {
    std::string text;
    for (std::size_t k = 0; k < sugg.size() && k < 9; ++k)
      text += (k ? "  " : "") + std::to_string(k + 1) + " " + m.node_label(sugg[k]);
    for (auto& l : wrap_text(text + "  (a = 1)", text_cols, {{"    suggested: ", A_DIM}}, 6, A_DIM)) add_line(std::move(l));
  }
  return b;
}

void draw_lines(const std::vector<Line>& lines, const std::vector<std::string>& margin, const std::vector<int>& margin_attr,
                std::size_t first, int top, int rows, int cols) {
  const int mw = margin_width(cols);
  for (int r = 0; r < rows && first + static_cast<std::size_t>(r) < lines.size(); ++r) {
    const std::size_t i = first + static_cast<std::size_t>(r);
    int x = 0;
    for (const auto& p : lines[i]) x += put_text(top + r, x, p.text, cols - (mw ? mw + 1 : 0) - x, p.attr);
    if (mw && i < margin.size() && !margin[i].empty()) put_text(top + r, cols - mw, margin[i], mw, margin_attr[i]);
  }
}

}  // namespace

void set_colours(bool on) { g_colours = on; }
bool colours() { return g_colours; }

int put_text(int y, int x, std::string_view text, int max_cols, int attr) {
  int used = 0;
  if (attr) attron(attr);
  for (const auto& cl : clusters(text)) {
    if (used + cl.width > max_cols) break;
    std::string_view piece = text.substr(cl.begin, cl.end - cl.begin);
    if (cl.width == 0 && used == 0) continue;  // a stray mark cannot start a line
    if (piece == "\t" || piece == "\n") piece = " ";
    std::wstring w = widen(piece);
    if (w.empty() || w[0] < 0x20) continue;
    // A flag (two regional indicators) is drawn as its two one-column halves. Any other cluster goes into one
    // cell: its base with the zero-width code points after it (combining marks, variation selectors), so that it
    // takes the base's columns, as clusters() counts them; what a zero width joiner adds (the 💻 of 👩‍💻), or a
    // skin tone modifier, would take columns of its own and is not drawn: the sequence shows as its first emoji.
    if (w.size() == 2 && w[0] >= 0x1F1E6 && w[0] <= 0x1F1FF) {
      mvaddnwstr(y, x + used, w.c_str(), 2);
    } else {
      std::wstring one(1, w[0]);
      for (std::size_t k = 1; k < w.size() && w[k] != 0x200D && one.size() < CCHARW_MAX; ++k)
        if (wcwidth(w[k]) == 0) one.push_back(w[k]);
      cchar_t cell;
      if (one.size() > 1 && setcchar(&cell, one.c_str(), A_NORMAL, 0, nullptr) == OK) mvadd_wch(y, x + used, &cell);
      else mvaddnwstr(y, x + used, one.c_str(), 1);
    }
    used += cl.width;
  }
  if (attr) attroff(attr);
  return used;
}

void draw_main(const AnnotateModel& m) {
  erase();
  int rows = LINES, cols = COLS;
  const auto& doc = m.document();
  const auto& tr = doc.transcript();
  std::string head = "writing " + doc.target_file() + " (coder " + doc.coder() +
                     (doc.inline_coder() ? ", inline codes" : ", transcript unchanged") + (m.blind() ? ", blind)" : ")");
  put_text(0, 0, head, cols, A_BOLD);
  int body_top = 1, body_rows = std::max(rows - 3, 1);
  if (m.current_turn()) {
    std::size_t ci = m.participant_turns()[m.current_index()];
    auto block = [&](std::size_t i, bool force_header) {
      Block b = turn_block(m, i, i == ci, cols);
      const Turn& t = tr.turns[i];
      if (force_header || i == 0 || tr.turns[i - 1].section != t.section) {
        auto h = section_header(m, t, cols - (margin_width(cols) ? margin_width(cols) + 1 : 0));
        b.lines.insert(b.lines.begin(), h.begin(), h.end());
        b.margin.insert(b.margin.begin(), h.size(), "");
        b.margin_attr.insert(b.margin_attr.begin(), h.size(), 0);
        b.focus += static_cast<int>(h.size());
      }
      return b;
    };
    Block all = block(ci, true);
    // Context above: up to a third of what the current turn leaves free.
    int budget = std::max(0, (body_rows - static_cast<int>(all.lines.size())) / 3);
    std::size_t first = ci;
    int above = 0;
    while (first > 0) {
      auto b = block(first - 1, true);
      if (above + static_cast<int>(b.lines.size()) > budget) break;
      above += static_cast<int>(block(first - 1, false).lines.size());
      --first;
    }
    if (first != ci) {
      Block joined = block(first, true);
      for (std::size_t i = first + 1; i <= ci; ++i) {
        Block b = i == ci ? block(i, false) : block(i, false);
        if (i == ci) joined.focus = static_cast<int>(joined.lines.size()) + b.focus;
        joined.lines.insert(joined.lines.end(), b.lines.begin(), b.lines.end());
        joined.margin.insert(joined.margin.end(), b.margin.begin(), b.margin.end());
        joined.margin_attr.insert(joined.margin_attr.end(), b.margin_attr.begin(), b.margin_attr.end());
      }
      all = std::move(joined);
    }
    for (std::size_t i = ci + 1; i < tr.turns.size() && static_cast<int>(all.lines.size()) < body_rows + all.focus; ++i) {
      Block b = block(i, false);
      all.lines.insert(all.lines.end(), b.lines.begin(), b.lines.end());
      all.margin.insert(all.margin.end(), b.margin.begin(), b.margin.end());
      all.margin_attr.insert(all.margin_attr.end(), b.margin_attr.begin(), b.margin_attr.end());
    }
    // A turn taller than the screen scrolls so that the selection (or the highlighted coding) stays in view.
    std::size_t top = 0;
    if (all.focus >= body_rows - 2) top = static_cast<std::size_t>(all.focus - body_rows / 2);
    draw_lines(all.lines, all.margin, all.margin_attr, top, body_top, body_rows, cols);
  } else {
    put_text(body_top, 0, "this transcript has no participant turn", cols);
  }
  // Status line: file, coder, turn, modified.
  // Status line: the turn, [modified] and the keys' help stay; the file name is cut in its middle first.
  std::string where = "  coder " + doc.coder() + "  t" + std::to_string(m.current_number()) + "/" +
                      std::to_string(m.participant_turns().size()) + (m.dirty() ? "  [modified]" : "");
  std::string right = (margin_width(cols) ? "" : "margin hidden  ") + std::string("? help ");
  if (display_width(right) + display_width(where) + 8 > cols) right = "? help ";
  const int file_cols = cols - display_width(right) - display_width(where) - 2;
  std::string status = " " + fit_middle(tr.file, std::max(file_cols, 4)) + where;
  attron(A_REVERSE);
  mvhline(rows - 2, 0, ' ', cols);
  attroff(A_REVERSE);
  put_text(rows - 2, 0, status, cols, A_REVERSE);
  if (display_width(status) + display_width(right) < cols) put_text(rows - 2, cols - display_width(right), right, cols, A_REVERSE);
  std::string msg = m.message();
  if (msg.empty() && !margin_width(cols))
    msg = "margin hidden below " + std::to_string(kMarginMinCols) + " columns; codes are under each turn";
  if (msg.empty()) msg = "j/k turn  v select  c code  1-9 suggest  m memo  / search  w save  ? help";
  put_text(rows - 1, 0, msg, cols, msg.rfind("error:", 0) == 0 ? A_BOLD : 0);
  // Park the cursor on the current turn's marker.
  move(rows - 1, std::min(cols - 1, display_width(msg)));
  refresh();
}

int read_key() {
  wint_t ch = 0;
  int r = get_wch(&ch);
  if (r == ERR) return -1;
  if (r == KEY_CODE_YES) {
    switch (ch) {
      case KEY_UP: return key::up;
      case KEY_DOWN: return key::down;
      case KEY_LEFT: return key::left;
      case KEY_RIGHT: return key::right;
      case KEY_SLEFT: return key::shift_left;
      case KEY_SRIGHT: return key::shift_right;
      case KEY_PPAGE: return key::page_up;
      case KEY_NPAGE: return key::page_down;
      case KEY_BTAB: return key::back_tab;
      case KEY_BACKSPACE: return key::backspace;
      case KEY_ENTER: return key::enter;
      case KEY_RESIZE: return key::resize;
      case KEY_HOME: return key::home;
      case KEY_END: return key::end;
      default: return -1;
    }
  }
  if (ch == '\r' || ch == '\n') return key::enter;
  if (ch == 127 || ch == 8) return key::backspace;
  if (ch == 26) {  // Ctrl-Z (raw mode keeps the terminal from sending SIGTSTP): suspend as a shell job, and
    def_prog_mode();  // come back to a redrawn screen on `fg` (the caller redraws on resize)
    endwin();
    std::raise(SIGTSTP);
    reset_prog_mode();
    clearok(curscr, TRUE);
    refresh();
    return key::resize;
  }
  return static_cast<int>(ch);
}

}  // namespace qualrank::tui
