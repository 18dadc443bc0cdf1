// Drawing the terminal coder's main screen from the model (ncursesw, wide characters). Layout, top to bottom:
// the file being written, the turns around the current one (each section's guideline question above its
// turns; interviewer turns indented and dimmed; codings under each participant turn), the status line and
// the message line. The current turn is marked '>' and the selection is bracketed as well as highlighted,
// so nothing depends on colour or reverse video alone.
#include <curses.h>

#include <algorithm>

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
  void word(const std::string& w, int attr, bool space_before = true) {
    int width = display_width(w);
    int sep = space_before && used_ > line_start() ? 1 : 0;
    if (used_ + sep + width > cols_ && used_ > line_start()) {
      newline();
      sep = 0;
    }
    if (sep) cur_.push_back({" ", space_attr_});
    cur_.push_back({w, attr});
    used_ += sep + width;
  }
  void set_space_attr(int a) { space_attr_ = a; }
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

std::vector<Line> turn_block(const AnnotateModel& m, std::size_t index, bool current, int cols) {
  const Turn& t = m.document().transcript().turns[index];
  std::vector<Line> out;
  if (t.interviewer) {
    Line prefix{{"    " + t.speaker + " (interviewer): ", A_DIM}};
    return wrap_text(t.text, cols, prefix, 6, A_DIM);
  }
  std::string label = "t" + std::to_string(t.number) + " " + t.speaker + ": ";
  Line prefix{{current ? "> " : "  ", A_BOLD}, {label, A_BOLD}};
  int indent = 2 + display_width(label);
  if (indent > cols / 2) indent = 4;
  Wrapper w(cols, prefix, indent);
  const auto words = current ? m.words() : split_words(t.text);
  auto sel = current ? m.selection() : std::nullopt;
  for (std::size_t k = 0; k < words.size(); ++k) {
    std::string word = t.text.substr(words[k].begin, words[k].end - words[k].begin);
    bool in = sel && k >= sel->first && k <= sel->second;
    if (sel && k == sel->first) word = "[" + word;
    if (sel && k == sel->second) word += "]";
    w.set_space_attr(static_cast<int>(in && k != sel->first ? A_REVERSE : 0));
    w.word(word, static_cast<int>(in ? A_REVERSE | A_BOLD : 0), k == 0 || words[k].begin > words[k - 1].end);
  }
  out = w.finish();
  auto list = m.document().codings(t.number);
  for (std::size_t k = 0; k < list.size(); ++k) {
    const auto& c = list[k];
    bool hl = current && k == m.highlighted();
    std::string line = m.node_label(c.written);
    if (c.span) line += " \"" + *c.span + "\"";
    if (c.exemplar) line += " (exemplar)";
    if (!c.memo.empty()) line += " [memo: " + c.memo + "]";
    int attr = static_cast<int>(hl ? A_BOLD : 0);
    auto wrapped = wrap_text(line, cols, {{hl ? "    * " : "    - ", attr}}, 6, attr);
    out.insert(out.end(), wrapped.begin(), wrapped.end());
  }
  if (list.empty() && current) out.push_back({{"    (no codes: c picks one, a accepts a suggestion)", A_DIM}});
  return out;
}

void draw_lines(const std::vector<Line>& lines, int top, int rows, int cols) {
  for (int r = 0; r < rows && r < static_cast<int>(lines.size()); ++r) {
    int x = 0;
    for (const auto& p : lines[static_cast<std::size_t>(r)]) x += put_text(top + r, x, p.text, cols - x, p.attr);
  }
}

}  // namespace

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
    mvaddnwstr(y, x + used, w.c_str(), static_cast<int>(w.size()));
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
                     (doc.inline_coder() ? ", inline codes)" : "; the transcript is not changed)");
  put_text(0, 0, head, cols, A_BOLD);
  int body_top = 1, body_rows = std::max(rows - 3, 1);
  if (const Turn* cur = m.current_turn()) {
    std::size_t ci = m.participant_turns()[m.current_index()];
    auto block = [&](std::size_t i, bool force_header) {
      auto lines = turn_block(m, i, i == ci, cols);
      const Turn& t = tr.turns[i];
      if (force_header || i == 0 || tr.turns[i - 1].section != t.section) {
        auto h = section_header(m, t, cols);
        lines.insert(lines.begin(), h.begin(), h.end());
      }
      return lines;
    };
    std::vector<Line> current = block(ci, true);
    // Context above: up to a third of what the current turn leaves free.
    int budget = std::max(0, (body_rows - static_cast<int>(current.size())) / 3);
    std::size_t first = ci;
    int above = 0;
    while (first > 0) {
      auto b = block(first - 1, true);
      if (above + static_cast<int>(b.size()) > budget) break;
      above += static_cast<int>(block(first - 1, false).size());
      --first;
    }
    std::vector<Line> lines = first == ci ? current : block(first, true);
    for (std::size_t i = first + 1; i <= ci; ++i) {
      auto b = i == ci ? block(i, false) : block(i, false);
      lines.insert(lines.end(), b.begin(), b.end());
    }
    for (std::size_t i = ci + 1; i < tr.turns.size() && static_cast<int>(lines.size()) < body_rows; ++i) {
      auto b = block(i, false);
      lines.insert(lines.end(), b.begin(), b.end());
    }
    (void)cur;
    draw_lines(lines, body_top, body_rows, cols);
  } else {
    put_text(body_top, 0, "this transcript has no participant turn", cols);
  }
  // Status line: file, coder, turn, modified.
  std::string status = " " + tr.file + "  coder " + doc.coder() + "  t" + std::to_string(m.current_number()) + "/" +
                       std::to_string(m.participant_turns().size()) + (m.dirty() ? "  [modified]" : "");
  std::string right = "? help ";
  attron(A_REVERSE);
  mvhline(rows - 2, 0, ' ', cols);
  attroff(A_REVERSE);
  put_text(rows - 2, 0, status, cols, A_REVERSE);
  if (display_width(status) + display_width(right) < cols) put_text(rows - 2, cols - display_width(right), right, cols, A_REVERSE);
  std::string msg = m.message();
  if (msg.empty()) msg = "j/k turn  v select  c code  a accept  m memo  d remove  u undo  w save  q quit";
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
      default: return -1;
    }
  }
  if (ch == '\r' || ch == '\n') return key::enter;
  if (ch == 127 || ch == 8) return key::backspace;
  return static_cast<int>(ch);
}

}  // namespace qualrank::tui
