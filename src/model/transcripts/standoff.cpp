// A second coder's standoff codings (`<stem>.<coder>.codes`, docs/formats.md): one line per coding,
// `tN ["span"]: ID, ID [| exemplar] [| memo: TEXT]`, read line by line, and applied to the transcript's turns.
#include <algorithm>
#include <cctype>

#include "qualrank/model/transcripts/transcript.h"
#include "qualrank/util/text.h"
#include "transcript_markup.h"

namespace qualrank {

using markup::column_of;

std::optional<StandoffFile> parse_standoff(const std::string& content, const std::string& file, Diagnostics& diags) {
  if (auto bad = text::find_invalid_utf8(content)) {
    diags.error({file, bad->line, bad->column}, "invalid UTF-8");
    return std::nullopt;
  }
  StandoffFile s;
  s.file = file;
  // <stem>.<coder>.codes
  auto name = file.substr(file.find_last_of('/') + 1);
  auto first_dot = name.find('.');
  auto last_dot = name.rfind(".codes");
  if (first_dot == std::string::npos || last_dot == std::string::npos || last_dot <= first_dot + 1) {
    diags.error({file, 1, 1}, "a codings file is named <transcript>.<coder>.codes");
    return std::nullopt;
  }
  s.transcript_stem = name.substr(0, first_dot);
  s.coder = name.substr(first_dot + 1, last_dot - first_dot - 1);
  int lineno = 0;
  // A byte order mark at the start is skipped, as in a transcript (offsets stay those of `content`).
  std::size_t start = content.starts_with("\xEF\xBB\xBF") ? 3 : 0, codes = 0;
  while (start < content.size()) {
    auto nl = content.find('\n', start);
    std::size_t line_begin = start;
    std::string_view raw(content.data() + start, (nl == std::string::npos ? content.size() : nl) - start);
    start = nl == std::string::npos ? content.size() : nl + 1;
    ++lineno;
    markup::new_line();
    if (!raw.empty() && raw.back() == '\r') raw.remove_suffix(1);
    auto line = text::trim(raw);
    if (line.empty()) continue;
    std::size_t base = static_cast<std::size_t>(line.data() - raw.data());
    markup::LineRef ref{file, lineno, raw, line_begin};
    if (line[0] == '#') {
      // "#t3: A.1" is a coding line with a stray '#', not a comment a coder would write.
      if (line.size() > 2 && line[1] == 't' && std::isdigit(static_cast<unsigned char>(line[2])))
        diags.warning({file, lineno, static_cast<int>(base) + 1},
                      "a coding line commented out by '#' (it is not applied; write '# ' and text for a comment)");
      continue;
    }
    if (line[0] != 't') {
      diags.error({file, lineno, static_cast<int>(base) + 1}, "expected 'tN: IDs' (N = participant turn number)");
      continue;
    }
    std::size_t i = 1;
    while (i < line.size() && std::isdigit(static_cast<unsigned char>(line[i]))) ++i;
    if (i == 1 || i > 10) {
      diags.error({file, lineno, static_cast<int>(base) + 2}, "expected a turn number after 't'");
      continue;
    }
    StandoffCoding c;
    c.turn = std::stoi(std::string(line.substr(1, i - 1)));
    c.line = lineno;
    c.line_begin = line_begin;
    c.line_end = start;
    while (i < line.size() && line[i] == ' ') ++i;
    if (i < line.size() && line[i] == '"') {
      // A quoted span: \" and \\ are escapes.
      std::string span;
      std::size_t q = i + 1;
      for (; q < line.size() && line[q] != '"'; ++q) {
        if (line[q] == '\\' && q + 1 < line.size() && (line[q + 1] == '"' || line[q + 1] == '\\')) ++q;
        span += line[q];
      }
      if (q >= line.size()) {
        diags.error({file, lineno, column_of(raw, base + i)}, "unterminated quoted span (a span is \"text\"; write \\\" for a quote inside it)");
        continue;
      }
      if (span.empty()) {
        diags.error({file, lineno, column_of(raw, base + i)}, "empty quoted span \"\"");
        continue;
      }
      c.span = std::move(span);
      i = q + 1;
      if (i < line.size() && line[i] == '#') {  // "span"#N: its N-th occurrence in the turn
        std::size_t d = i + 1;
        while (d < line.size() && d < i + 8 && std::isdigit(static_cast<unsigned char>(line[d]))) ++d;
        int n = d > i + 1 ? std::stoi(std::string(line.substr(i + 1, d - i - 1))) : 0;
        if (n < 1) {
          diags.error({file, lineno, column_of(raw, base + i)},
                      "after a quoted span, '#N' names its N-th occurrence in the turn (N = 1, 2, ...)");
          continue;
        }
        c.occurrence = n;
        i = d;
      }
      while (i < line.size() && line[i] == ' ') ++i;
    }
    if (i >= line.size() || line[i] != ':') {
      diags.error({file, lineno, column_of(raw, base + i)}, "expected ':' before the node ids");
      continue;
    }
    ++i;
    auto rest = line.substr(i);
    auto bar = rest.find('|');
    std::string_view ids = bar == std::string_view::npos ? rest : rest.substr(0, bar);
    c.list_end = line_begin + base + i + ids.size();
    c.memo_begin = c.memo_end = line_begin + base + line.size();
    if (text::trim(ids).empty()) {
      diags.error({file, lineno, column_of(raw, base + i)}, "no node ids after ':'");
      continue;
    }
    c.codes = markup::parse_code_list(ids, ref, base + i, s.coder, diags);
    if (bar != std::string_view::npos) {
      auto tail_text = rest.substr(bar + 1);
      auto tail = markup::parse_code_tail(tail_text);
      if (tail.unknown)
        diags.error({file, lineno, column_of(raw, static_cast<std::size_t>(tail_text.data() - raw.data()) - 1)},
                    "after '|' comes 'memo: TEXT' or 'exemplar'");
      c.memo_begin = line_begin + static_cast<std::size_t>(tail_text.data() - raw.data()) + tail.memo_pos;
      c.memo_end = c.memo_begin + tail.memo_len;
      c.has_memo = tail.memo_len > 0;
      c.own_memos = tail.own;
      for (const auto& id : markup::assign_tail(tail, c.codes))
        diags.error({file, lineno, column_of(raw, static_cast<std::size_t>(tail_text.data() - raw.data()) - 1)},
                    "'memo " + id + ":' names no code of this line (a code's own memo is 'memo ID: TEXT' with one of its ids)");
    }
    if ((codes += c.codes.size()) > kMaxFileCodings) {
      diags.error({file, lineno, static_cast<int>(base) + 1}, "more than " + std::to_string(kMaxFileCodings) +
                                                                 " codings in one file (the limit on codings per file)");
      return std::nullopt;
    }
    if (!c.codes.empty()) s.codings.push_back(std::move(c));
  }
  return s;
}

std::size_t nth_occurrence(std::string_view text, std::string_view span, int n) {
  if (span.empty() || n < 1) return std::string_view::npos;
  std::size_t pos = text.find(span);
  for (int k = 1; k < n && pos != std::string_view::npos; ++k) pos = text.find(span, pos + 1);
  return pos;
}

std::string quote_span(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

int occurrences(std::string_view text, std::string_view span) {
  if (span.empty()) return 0;
  int n = 0;
  for (auto p = text.find(span); p != std::string_view::npos; p = text.find(span, p + 1)) ++n;
  return n;
}

void apply_standoff(Transcript& t, const StandoffFile& s, Diagnostics& diags) {
  for (const auto& c : s.codings) {
    Turn* turn = nullptr;
    for (auto& candidate : t.turns)
      if (!candidate.interviewer && candidate.number == c.turn) turn = &candidate;
    Location at{s.file, c.line, 1};
    if (!turn) {
      diags.error(at, "transcript " + t.file + " has no participant turn t" + std::to_string(c.turn));
      continue;
    }
    if (!c.span) {
      turn->codes.insert(turn->codes.end(), c.codes.begin(), c.codes.end());
      continue;
    }
    const int count = occurrences(turn->text, *c.span);
    if (c.occurrence > count && count > 0) {
      diags.error(at, "span \"" + (c.span->size() > 60 ? c.span->substr(0, 57) + "..." : *c.span) + "\" occurs " +
                          std::to_string(count) + " time(s) in turn t" + std::to_string(c.turn) + ", not " +
                          std::to_string(c.occurrence));
      continue;
    }
    const std::size_t at_pos = nth_occurrence(turn->text, *c.span, std::max(c.occurrence, 1));
    Span* match = nullptr;
    for (auto& sp : turn->spans)
      if (sp.begin == at_pos && sp.end == at_pos + c.span->size()) match = &sp;
    if (!match) {
      auto pos = at_pos;
      if (pos == std::string::npos) {
        std::string quoted = c.span->size() > 60 ? c.span->substr(0, 57) + "..." : *c.span;
        diags.error(at, "span \"" + quoted + "\" is not in turn t" + std::to_string(c.turn) + " of " + t.file +
                            " (line " + std::to_string(turn->line) + ")");
        diags.note({t.file, turn->line, 1}, "turn t" + std::to_string(c.turn) + " does not hold the span that " +
                                                s.file + ":" + std::to_string(c.line) + " quotes");
        continue;
      }
      if (c.occurrence == 0 && count > 1)
        diags.warning(at, "span text occurs more than once in turn t" + std::to_string(c.turn) +
                              "; the first occurrence is coded (write \"span\"#N for the N-th, or quote a longer span)");
      Span added;
      added.begin = pos;
      added.end = pos + c.span->size();
      added.line = turn->line_of(pos);
      turn->spans.push_back(std::move(added));
      match = &turn->spans.back();
    }
    match->codes.insert(match->codes.end(), c.codes.begin(), c.codes.end());
  }
}

}  // namespace qualrank
