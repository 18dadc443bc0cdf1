// Inline coding markup of a transcript line: `[span]{ID, ID | memo}`, escapes `\[ \] \{ \} \| \\`, and the
// code lists shared with `.codes` files. One left-to-right pass per line; every markup character is either
// part of a well-formed span, escaped, part of a literal bracket pair (`[laughs]`), or reported as a near
// miss at its column. Linear in the line by construction: one pass lists the unescaped markup characters
// (MarkupIndex), so every search for a closing bracket or brace is a lookup, never a rescan of the rest of
// the line; columns are counted on from the last one (column_of); and past kPerKind problems of one kind on
// a line, the rest are only counted, their messages and columns never built.
#include "transcript_markup.h"

#include <algorithm>
#include <array>
#include <cstdint>

#include "qualrank/util/swar.h"
#include "qualrank/util/text.h"

namespace qualrank::markup {

namespace {
// Diagnostics on one line come left to right: column_of counts on from its last answer for the same line,
// so that many diagnostics on a long line cost linear time, not quadratic. The parsers forget it at
// every new line (new_line()), so a line at a reused address is never mistaken for the last one.
thread_local const char* last_line = nullptr;
thread_local std::size_t last_size = 0, last_off = 0;
thread_local int last_col = 1;
}  // namespace

void new_line() { last_line = nullptr; }

int column_of(std::string_view line, std::size_t off) {
  off = std::min(off, line.size());
  if (line.data() == last_line && line.size() == last_size && off < last_off) {
    // Back from the last answer (a span's start after its code list): costs the distance, not the line.
    last_col -= static_cast<int>(text::count_code_points(line.substr(off, last_off - off)));
    last_off = off;
    return last_col;
  }
  if (line.data() != last_line || line.size() != last_size) {
    last_line = line.data();
    last_size = line.size();
    last_off = 0;
    last_col = 1;
  }
  last_col += static_cast<int>(text::count_code_points(line.substr(last_off, off - last_off)));
  last_off = off;
  return last_col;
}

std::vector<Coding> parse_code_list(std::string_view list, const LineRef& ref, std::size_t base, const std::string& coder,
                                    Diagnostics& diags) {
  std::vector<Coding> out;
  out.reserve(std::min<std::size_t>(static_cast<std::size_t>(std::count(list.begin(), list.end(), ',')) + 1, 8));
  std::size_t start = 0;
  int empties = 0;
  Location first_empty;
  while (start <= list.size()) {
    auto comma = list.find(',', start);
    auto piece = list.substr(start, comma == std::string_view::npos ? list.npos : comma - start);
    auto trimmed = text::trim(piece);
    std::size_t off = base + start + (trimmed.empty() ? 0 : static_cast<std::size_t>(trimmed.data() - piece.data()));
    if (trimmed.empty()) {
      if (empties++ == 0) first_empty = {ref.file, ref.lineno, column_of(ref.raw, off)};
    } else {
      Coding c;
      c.written = std::string(trimmed);
      c.coder = coder;
      c.where = {ref.file, ref.lineno, column_of(ref.raw, off)};
      c.offset = ref.file_offset + off;
      c.length = trimmed.size();
      out.push_back(std::move(c));
    }
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  if (empties == 1) diags.error(first_empty, "empty node id in a code list (a doubled, leading or trailing comma?)");
  else if (empties > 1)
    diags.error(first_empty, "empty node id in a code list (a doubled, leading or trailing comma?), and " +
                                 std::to_string(empties - 1) + " more in this list");
  return out;
}

namespace {

// Resolves the escapes of `s` (a backslash before an escapable character).
std::string unescape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 1 < s.size() && escapable(s[i + 1])) ++i;
    out += s[i];
  }
  return out;
}

// From `i`, past the words of eight bytes holding none of `[ ] { } \\` (nor `|` when `pipe`): where a
// byte-by-byte search must go on (it finds the byte itself).
std::size_t skip_unmarked(std::string_view s, std::size_t i, bool pipe) {
  for (; i + 8 <= s.size(); i += 8) {
    const std::uint64_t w = swar::load(s.data() + i);
    if (swar::has_byte(w, '[') | swar::has_byte(w, ']') | swar::has_byte(w, '{') | swar::has_byte(w, '}') |
        swar::has_byte(w, '\\') | (pipe ? swar::has_byte(w, '|') : 0))
      break;
  }
  return i;
}

// The positions of the unescaped markup characters `[ ] { } |` of one line, in order, found in one pass
// that reads escapes from the line's start. Every search of scan_turn_line starts just after an unescaped
// markup character, where that pass reads the same escapes as a scan starting there would.
// The index is made at the first search: a line without markup (most of a transcript) is never searched.
class MarkupIndex {
 public:
  explicit MarkupIndex(std::string_view s) : line_(s) {}
  void build() {
    built_ = true;
    const std::string_view s = line_;
    for (std::size_t i = 0; i < s.size(); ++i) {
      i = skip_unmarked(s, i, true);  // past the bytes that are neither markup nor '\\', eight at a time
      if (i >= s.size()) break;
      if (s[i] == '\\' && i + 1 < s.size() && escapable(s[i + 1])) {
        ++i;
        continue;
      }
      if (int k = slot(s[i]); k >= 0) at_[static_cast<std::size_t>(k)].push_back(i);
    }
  }
  // Position of the first unescaped `c` at or after `from`, or npos. A search that moves forward gallops from
  // where the last search of `c` ended (1, 2, 4, ... entries, then a binary search within the last step), so
  // it costs O(log d) for the d entries it passes and a line's forward searches cost O(n) in all; a search
  // that moves back is a binary search. (Each search re-starting a binary search over the whole list made a
  // line of 500,000 spans cost n log n: 12x-13x the time of 50,000 spans.)
  std::size_t next(char c, std::size_t from) {
    if (!built_) build();
    auto k = static_cast<std::size_t>(slot(c));
    const auto& v = at_[k];
    std::size_t& h = hint_[k];
    if (h > 0 && v[h - 1] >= from) {
      h = static_cast<std::size_t>(std::lower_bound(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(h), from) - v.begin());
    } else if (h < v.size() && v[h] < from) {
      std::size_t lo = h + 1, step = 1;  // v[lo - 1] < from
      while (lo + step - 1 < v.size() && v[lo + step - 1] < from) {
        lo += step;
        step *= 2;
      }
      auto hi = std::min(v.size(), lo + step - 1);
      h = static_cast<std::size_t>(
          std::lower_bound(v.begin() + static_cast<std::ptrdiff_t>(lo), v.begin() + static_cast<std::ptrdiff_t>(hi), from) -
          v.begin());
    }
    return h < v.size() ? v[h] : std::string_view::npos;
  }
  // Position of the first unescaped `want` at or after `from`, or npos. Stops early (returning npos and
  // setting `blocker`) at an unescaped character of `stop` that comes first.
  std::size_t find(std::size_t from, char want, std::string_view stop, std::size_t* blocker) {
    std::size_t found = next(want, from), first_stop = std::string_view::npos;
    for (char c : stop) first_stop = std::min(first_stop, next(c, from));
    if (first_stop < found) {
      if (blocker) *blocker = first_stop;
      return std::string_view::npos;
    }
    return found;
  }

 private:
  static int slot(char c) {
    switch (c) {
      case '[': return 0;
      case ']': return 1;
      case '{': return 2;
      case '}': return 3;
      case '|': return 4;
      default: return -1;
    }
  }
  // The positions of one markup character: the first few held inline (a line with markup mostly has one or two
  // spans: a heap block per character and line was a quarter of a transcript's allocations), the rest on the heap.
  class Positions {
   public:
    void push_back(std::size_t p) {
      if (size_ < kInline) inline_[size_] = p;
      else {
        if (size_ == kInline) heap_.assign(inline_.begin(), inline_.end());
        heap_.push_back(p);
      }
      ++size_;
    }
    std::size_t size() const { return size_; }
    const std::size_t* begin() const { return size_ <= kInline ? inline_.data() : heap_.data(); }
    const std::size_t* end() const { return begin() + size_; }
    std::size_t operator[](std::size_t k) const { return begin()[k]; }

   private:
    static constexpr std::size_t kInline = 4;
    std::array<std::size_t, kInline> inline_{};
    std::vector<std::size_t> heap_;
    std::size_t size_ = 0;
  };
  std::string_view line_;
  bool built_ = false;
  std::array<Positions, 5> at_;
  std::array<std::size_t, 5> hint_{};
};

// The near misses of scan_turn_line, one per message kind: past Diagnostics::kPerKind of one kind on a line
// the rest would be dropped anyway, so they are counted without building message or column.
enum Problem : std::size_t {
  kStrayClose, kStrayBrace, kListNeverClosed, kListNoSpan, kNested, kNeverClosed, kWhitespace, kBraceNeverClosed,
  kOpenBraceInSpan, kCloseBraceInSpan, kBadTail, kEmptyList, kEmptySpan, kOutsideTurn, kInterviewer, kProblemCount
};

// Position of the first unescaped '|' in `s`, or npos: one forward pass (a memo's text runs to it).
std::size_t find_unescaped_bar(std::string_view s) {
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 1 < s.size() && escapable(s[i + 1])) {
      ++i;
      continue;
    }
    if (s[i] == '|') return i;
  }
  return std::string_view::npos;
}

}  // namespace

CodeTail parse_code_tail(std::string_view tail) {
  CodeTail out;
  auto m = text::trim(tail);
  for (bool more = true; more && !m.empty();) {
    more = false;
    if (text::starts_with_ci(m, "exemplar") && (m.size() == 8 || m[8] == '|' || m[8] == ' ')) {
      out.exemplar = true;
      m = text::trim(m.substr(8));
      if (!m.empty() && m[0] == '|') m = text::trim(m.substr(1));
      more = true;
    } else if (text::starts_with_ci(m, "memo ") && !text::starts_with_ci(text::trim(m.substr(4)), ":")) {
      // `memo ID: TEXT`: ID has no space; the text runs to the next unescaped '|'.
      auto rest = text::trim(m.substr(4));
      auto colon = rest.find(':');
      auto id = colon == std::string_view::npos ? std::string_view{} : text::trim(rest.substr(0, colon));
      if (id.empty() || id.find_first_of(" \t|") != std::string_view::npos) break;
      auto body = rest.substr(colon + 1);
      std::size_t bar = find_unescaped_bar(body);
      auto raw = text::trim(body.substr(0, bar));
      out.own.push_back({std::string(id), unescape(raw), std::string(raw)});
      m = bar == std::string_view::npos ? body.substr(body.size()) : text::trim(body.substr(bar + 1));
      more = true;
    }
  }
  if (text::starts_with_ci(m, "memo:")) m = text::trim(m.substr(5));
  else if (!m.empty()) out.unknown = true;
  out.memo = unescape(m);
  out.memo_pos = static_cast<std::size_t>(m.data() - tail.data());
  out.memo_len = m.size();
  return out;
}

std::vector<std::string> assign_tail(const CodeTail& tail, std::vector<Coding>& codes) {
  std::vector<std::string> unknown;
  for (auto& code : codes) {
    code.memo = tail.memo;
    code.exemplar = tail.exemplar;
  }
  for (const auto& own : tail.own) {
    bool found = false;
    for (auto& code : codes)
      if (text::fold_case(code.written) == text::fold_case(own.id)) {
        code.memo = own.text;
        found = true;
      }
    if (!found) unknown.push_back(own.id);
  }
  return unknown;
}

std::vector<Coding*> scan_turn_line(std::string_view part, std::size_t base, const LineRef& ref, Turn* turn,
                                    const std::string& coder, Diagnostics& diags, bool runs) {
  std::string scratch;
  std::string& out = turn ? turn->text : scratch;
  std::vector<Coding*> last;
  const std::size_t n = part.size();
  // The text grows by at most this line: reserve it (geometrically across a turn's lines), so a turn's text
  // holds no doubling slack; a workspace of 100 MB of transcripts keeps 100 MB of text, not 150.
  if (turn && out.capacity() < out.size() + n + 1) out.reserve(std::max(out.size() + n + 1, out.empty() ? 0 : 2 * out.capacity()));
  auto at = [&](std::size_t pos) { return Location{ref.file, ref.lineno, column_of(ref.raw, base + pos)}; };
  std::array<int, kProblemCount> seen{};
  int unbuilt = 0;
  // Reports problem `p` at `pos`; `message` is called only when the problem may be kept.
  // Reports problem p at pos; false when past the cap of its kind on this line (counted, not built).
  auto report = [&](Problem p, std::size_t pos, auto&& message) {
    if (++seen[p] > Diagnostics::kPerKind) {
      ++unbuilt;
      return false;
    }
    diags.error(at(pos), message());
    return true;
  };
  MarkupIndex index(part);
  auto file_pos = [&](std::size_t pos) { return ref.file_offset + base + pos; };
  // Appends part[a, b) verbatim, as a run.
  auto emit = [&](std::size_t a, std::size_t b) {
    if (a >= b) return;
    if (turn && runs) {
      auto& turn_runs = turn->runs;
      if (!turn_runs.empty() && turn_runs.back().text_begin + turn_runs.back().length == out.size() &&
          turn_runs.back().file_offset + turn_runs.back().length == file_pos(a))
        turn_runs.back().length += b - a;
      else
        turn_runs.push_back({out.size(), file_pos(a), b - a, ref.lineno});
    }
    out.append(part.substr(a, b - a));
  };
  // Appends part[a, b) resolving escapes.
  auto emit_text = [&](std::size_t a, std::size_t b) {
    std::size_t run = a;
    for (std::size_t i = a; i < b; ++i) {
      if (part[i] == '\\' && i + 1 < b && escapable(part[i + 1])) {
        emit(run, i);
        run = i + 1;
        ++i;
      }
    }
    emit(run, b);
  };

  // Most text holds no markup: skip to the next character that may be markup in one tight loop.
  static constexpr auto kMarkup = [] {
    std::array<bool, 256> t{};
    for (unsigned char c : std::string_view("[]{}\\")) t[c] = true;
    return t;
  }();
  std::size_t literal_close = std::string_view::npos;  // the ']' of a literal bracket pair like "[laughs]"
  std::size_t blanks_from = std::string_view::npos, blanks_to = 0;  // blanks after a ']' at part[blanks_from - 1]
  std::size_t i = 0, run = 0;
  while (i < n) {
    i = skip_unmarked(part, i, false);
    while (i < n && !kMarkup[static_cast<unsigned char>(part[i])]) ++i;
    if (i >= n) break;
    char c = part[i];
    if (c == '\\' && i + 1 < n && escapable(part[i + 1])) {
      emit(run, i);
      run = i + 1;
      i += 2;
      continue;
    }
    if (c == ']' && i == literal_close) {
      literal_close = std::string_view::npos;
      ++i;
      continue;
    }
    if (c == ']') {
      report(kStrayClose, i, [] { return "']' with no '[' before it on this line (a coded span is [text]{ID}; write \\] for a literal bracket)"; });
      ++i;
      continue;
    }
    if (c == '}') {
      report(kStrayBrace, i, [] { return "'}' with no '{' before it (write \\} for a literal brace)"; });
      ++i;
      continue;
    }
    if (c == '{') {
      auto close = index.find(i + 1, '}', "", nullptr);
      if (close == std::string_view::npos)
        report(kListNeverClosed, i, [] { return "'{' is never closed, and no span '[text]' comes before it (write \\{ for a literal brace)"; });
      else
        report(kListNoSpan, i, [] {
          return "code list with no span before it (a coded span is [text]{ID}, with nothing between "
                 "']' and '{'; write \\{ for a literal brace)";
        });
      i = close == std::string_view::npos ? i + 1 : close + 1;  // the list's '}' is part of this one problem
      continue;
    }
    if (c != '[') {
      ++i;
      continue;
    }
    // A '[': a coded span, a literal bracket pair, or a near miss.
    std::size_t nested = std::string_view::npos;
    std::size_t close = index.find(i + 1, ']', "[", &nested);
    if (close == std::string_view::npos && nested != std::string_view::npos) {
      report(kNested, nested, [] { return "'[' inside a bracket (spans do not nest; write \\[ for a literal bracket)"; });
      close = index.find(nested + 1, ']', "", nullptr);
    }
    if (close == std::string_view::npos) {
      report(kNeverClosed, i, [] {
        return "'[' is never closed on this line (a coded span is [text]{ID} on one line; write \\[ for a literal bracket)";
      });
      ++i;
      continue;
    }
    std::size_t brace = close + 1;
    if (brace >= n || part[brace] != '{') {
      // Several '[' may close at one ']' ("[[[a]   "): the blanks after it are skipped once.
      if (brace != blanks_from) {
        blanks_from = blanks_to = brace;
        while (blanks_to < n && (part[blanks_to] == ' ' || part[blanks_to] == '\t')) ++blanks_to;
      }
      std::size_t k = blanks_to;
      // A near miss within the cap is read as the span it was meant to be, so its codes are checked too;
      // past the cap it is left as text (the file is in error anyway), so a line of a million near misses
      // holds no million spans.
      if (k > brace && k < n && part[k] == '{' &&
          report(kWhitespace, brace, [] {
            return "whitespace between ']' and '{' (a coded span is [text]{ID}, with nothing between; "
                   "write \\{ for a literal brace)";
          })) {
        brace = k;
      } else {
        literal_close = close;  // "[laughs]": kept as text, brackets included
        ++i;
        continue;
      }
    }
    std::size_t blocker = std::string_view::npos;
    std::size_t end = index.find(brace + 1, '}', "[]{", &blocker);
    if (end == std::string_view::npos) {
      report(kBraceNeverClosed, brace, [] { return "'{' is never closed on this line (a code list is {ID, ID} before the end of the line)"; });
      emit(run, i);
      emit_text(i + 1, close);
      run = i = n;  // the rest of the line is the broken list
      break;
    }
    // Checks inside the span's text: braces there are near misses too.
    for (std::size_t k = i + 1; k < close; ++k) {
      if (part[k] == '\\' && k + 1 < close && escapable(part[k + 1])) {
        ++k;
        continue;
      }
      if (part[k] == '{' || part[k] == '}')
        report(part[k] == '{' ? kOpenBraceInSpan : kCloseBraceInSpan, k,
               [&] { return std::string("'") + part[k] + "' inside a coded span (write \\" + part[k] + " for a literal brace)"; });
    }
    std::size_t bar = index.find(brace + 1, '|', "}", nullptr);
    std::size_t list_end = bar == std::string_view::npos || bar > end ? end : bar;
    // A span adds up to three runs (the text before it, its own, the text after it): reserved together, not
    // grown one by one (1, 2, 4), still geometrically for a line of many spans.
    if (turn && runs && turn->runs.capacity() < turn->runs.size() + 3)
      turn->runs.reserve(std::max(turn->runs.size() + 3, 2 * turn->runs.capacity()));
    emit(run, i);
    Span span;
    span.begin = out.size();
    emit_text(i + 1, close);
    span.end = out.size();
    span.line = ref.lineno;
    SpanMarkup mk;
    mk.open = file_pos(i);
    mk.close = file_pos(close);
    mk.list_end = file_pos(list_end);
    mk.end = file_pos(end) + 1;
    mk.memo_begin = mk.memo_end = file_pos(end);
    auto ids = part.substr(brace + 1, list_end - brace - 1);
    if (text::trim(ids).empty()) report(kEmptyList, brace, [] { return "empty code list '{}' (name at least one node id)"; });
    else span.codes = parse_code_list(ids, ref, base + brace + 1, coder, diags);
    if (list_end < end) {
      auto tail_text = part.substr(list_end + 1, end - list_end - 1);
      auto tail = parse_code_tail(tail_text);
      if (tail.unknown)
        report(kBadTail, list_end, [] { return "after '|' in a code list comes 'memo: TEXT' or 'exemplar' (write \\| for a literal bar)"; });
      mk.memo_begin = file_pos(list_end + 1) + tail.memo_pos;
      mk.memo_end = mk.memo_begin + tail.memo_len;
      for (const auto& id : assign_tail(tail, span.codes))
        diags.error(at(list_end), "'memo " + id + ":' names no code of this list (a code's own memo is 'memo ID: TEXT' with one of its ids)");
      mk.own_memos = std::move(tail.own);  // (after assign_tail, which reads them)
    }
    span.markup = std::move(mk);
    if (span.begin == span.end) report(kEmptySpan, i, [] { return "empty coded span '[]'"; });
    if (!turn) report(kOutsideTurn, i, [] { return "coded span outside a turn (a turn starts with 'SPEAKER: ')"; });
    else if (turn->interviewer) report(kInterviewer, i, [] { return "codes on an interviewer turn (only participant turns are coded)"; });
    else {
      turn->spans.push_back(std::move(span));
      last.clear();
      for (auto& code : turn->spans.back().codes) last.push_back(&code);
    }
    i = run = end + 1;
  }
  emit(run, n);
  diags.count_dropped(ref.file, Severity::error, unbuilt);
  return last;
}

}  // namespace qualrank::markup
