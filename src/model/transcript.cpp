// Transcript parser: a line-oriented pass over Markdown with front matter (see docs/formats.md).
// Front matter is parsed with yaml-cpp (line numbers shifted to the file); the body is read line by line:
// "## QID title" opens a section, "SPEAKER: text" opens a turn, "@directive" lines code, memo, rank or
// answer; "[span]{IDs}" inside a turn line codes a span (a span may not cross lines).
#include "qualrank/model/transcript.h"

#include <algorithm>

#include "qualrank/util/text.h"
#include "qualrank/util/yaml_source.h"

namespace qualrank {

const Turn* Transcript::participant_turn(int number) const {
  for (const auto& t : turns)
    if (!t.interviewer && t.number == number) return &t;
  return nullptr;
}

namespace {

// 1-based column (in code points) of byte offset `off` in `line`.
int column_of(std::string_view line, std::size_t off) {
  return static_cast<int>(text::count_code_points(line.substr(0, off))) + 1;
}

// Splits "A.1, A.2" into codes with their columns; `base` is the byte offset of `list` in `line`.
std::vector<Coding> parse_code_list(std::string_view list, std::string_view line, std::size_t base,
                                    const std::string& file, int lineno, const std::string& coder,
                                    Diagnostics& diags) {
  std::vector<Coding> out;
  std::size_t start = 0;
  while (start <= list.size()) {
    auto comma = list.find(',', start);
    auto piece = list.substr(start, comma == std::string_view::npos ? list.npos : comma - start);
    auto trimmed = text::trim(piece);
    std::size_t off = base + start + (trimmed.empty() ? 0 : static_cast<std::size_t>(trimmed.data() - piece.data()));
    if (trimmed.empty()) {
      diags.error({file, lineno, column_of(line, off)}, "empty code in a code list");
    } else {
      out.push_back({std::string(trimmed), coder, "", {file, lineno, column_of(line, off)}});
    }
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return out;
}

struct BodyParser {
  Transcript& t;
  const std::string& file;
  Diagnostics& diags;
  Turn* current = nullptr;             // the turn text lines are appended to
  int last_participant_turn = -1;      // index into t.turns
  std::vector<Coding*> last_codes;     // target of @memo
  int next_number = 1;

  bool is_speaker(const std::string& label) const {
    if (label == t.participant) return true;
    return std::find(t.interviewer_labels.begin(), t.interviewer_labels.end(), label) != t.interviewer_labels.end();
  }
  bool is_interviewer(const std::string& label) const {
    return std::find(t.interviewer_labels.begin(), t.interviewer_labels.end(), label) != t.interviewer_labels.end();
  }
  std::string section() const { return t.sections.empty() ? std::string() : t.sections.back().question; }

  // Appends `line` (without speaker prefix) to the current turn, extracting [span]{IDs}.
  void append_text(std::string_view line, std::string_view full, std::size_t base, int lineno) {
    Turn& turn = *current;
    if (!turn.text.empty()) turn.text += '\n';
    std::size_t i = 0;
    while (i < line.size()) {
      auto open = line.find('[', i);
      if (open == std::string_view::npos) {
        turn.text.append(line.substr(i));
        break;
      }
      auto close = line.find(']', open + 1);
      if (close == std::string_view::npos || close + 1 >= line.size() || line[close + 1] != '{') {
        turn.text.append(line.substr(i, open + 1 - i));  // a plain bracket
        i = open + 1;
        continue;
      }
      auto brace_end = line.find('}', close + 2);
      if (brace_end == std::string_view::npos) {
        diags.error({file, lineno, column_of(full, base + close + 1)}, "unterminated code '{' after a span");
        turn.text.append(line.substr(i));
        break;
      }
      turn.text.append(line.substr(i, open - i));
      Span span;
      span.begin = turn.text.size();
      turn.text.append(line.substr(open + 1, close - open - 1));
      span.end = turn.text.size();
      if (span.begin == span.end) diags.error({file, lineno, column_of(full, base + open)}, "empty coded span '[]'");
      auto list = line.substr(close + 2, brace_end - close - 2);
      span.codes = parse_code_list(list, full, base + close + 2, file, lineno, t.coder, diags);
      if (turn.interviewer)
        diags.error({file, lineno, column_of(full, base + open)}, "codes on an interviewer turn (only participant turns are coded)");
      turn.spans.push_back(std::move(span));
      last_codes.clear();
      for (auto& c : turn.spans.back().codes) last_codes.push_back(&c);
      i = brace_end + 1;
    }
  }

  void start_turn(const std::string& speaker, int lineno) {
    Turn turn;
    turn.speaker = speaker;
    turn.interviewer = is_interviewer(speaker);
    turn.section = section();
    turn.line = lineno;
    if (!turn.interviewer) turn.number = next_number++;
    t.turns.push_back(std::move(turn));
    current = &t.turns.back();
    if (!current->interviewer) last_participant_turn = static_cast<int>(t.turns.size()) - 1;
    last_codes.clear();
  }

  void directive(std::string_view line, int lineno) {
    auto sp = line.find_first_of(" \t");
    std::string name(line.substr(1, sp == std::string_view::npos ? line.npos : sp - 1));
    std::size_t arg_off = sp == std::string_view::npos ? line.size() : line.find_first_not_of(" \t", sp);
    if (arg_off == std::string_view::npos) arg_off = line.size();
    std::string_view arg = text::trim(line.substr(arg_off));
    Location at{file, lineno, 1};
    current = nullptr;  // a directive ends the turn's text
    if (name == "code") {
      if (last_participant_turn < 0 || t.turns.back().interviewer || t.turns.back().section != section()) {
        diags.error(at, "@code must follow a participant turn (in the same section)");
        return;
      }
      if (arg.empty()) {
        diags.error(at, "@code needs at least one node id");
        return;
      }
      Turn& turn = t.turns[last_participant_turn];
      auto codes = parse_code_list(arg, line, arg_off, file, lineno, t.coder, diags);
      std::size_t first = turn.codes.size();
      for (auto& c : codes) turn.codes.push_back(c);
      last_codes.clear();
      for (std::size_t k = first; k < turn.codes.size(); ++k) last_codes.push_back(&turn.codes[k]);
    } else if (name == "memo") {
      if (last_codes.empty()) {
        diags.error(at, "@memo must follow a code (@code line or [span]{ID})");
        return;
      }
      if (arg.empty()) diags.error(at, "@memo needs text");
      for (auto* c : last_codes) {
        if (!c->memo.empty()) c->memo += '\n';
        c->memo += std::string(arg);
      }
    } else if (name == "exemplar") {
      if (last_codes.empty()) {
        diags.error(at, "@exemplar must follow a code (@code line or [span]{ID})");
        return;
      }
      // `@exemplar` marks every code just before it; `@exemplar ID, ID` only those written so.
      std::vector<std::string> only;
      if (!arg.empty())
        for (auto& c : parse_code_list(arg, line, arg_off, file, lineno, t.coder, diags)) only.push_back(c.written);
      bool marked = false;
      for (auto* c : last_codes) {
        if (!only.empty() && std::find_if(only.begin(), only.end(), [&](const std::string& w) {
              return text::fold_case(w) == text::fold_case(c->written);
            }) == only.end())
          continue;
        c->exemplar = true;
        marked = true;
      }
      if (!marked) diags.error(at, "@exemplar names no code of the coding just before it");
    } else if (name == "rank") {
      rank(line, arg, arg_off, lineno);
    } else if (name == "answer") {
      if (section().empty()) {
        diags.error(at, "@answer outside a question section");
        return;
      }
      t.answers.push_back({section(), std::string(arg), at});
    } else {
      diags.error(at, "unknown directive '@" + name + "' (known: @code, @memo, @exemplar, @rank, @answer)");
    }
  }

  void rank(std::string_view line, std::string_view arg, std::size_t arg_off, int lineno) {
    Location at{file, lineno, 1};
    if (section().empty()) {
      diags.error(at, "@rank outside a question section");
      return;
    }
    if (arg.empty()) {
      diags.error(at, "empty ranking");
      return;
    }
    RankingAnswer r;
    r.question = section();
    r.line = at;
    std::size_t i = 0;
    std::vector<std::string> tier;
    std::vector<Location> tier_where;
    auto flush_item = [&](std::size_t from, std::size_t to) {
      auto piece = arg.substr(from, to - from);
      auto item = text::trim(piece);
      std::size_t off = arg_off + from + (item.empty() ? 0 : static_cast<std::size_t>(item.data() - piece.data()));
      if (item.empty()) {
        diags.error({file, lineno, column_of(line, off)}, "empty item in a ranking");
        return;
      }
      tier.emplace_back(item);
      tier_where.push_back({file, lineno, column_of(line, off)});
    };
    std::size_t start = 0;
    for (; i <= arg.size(); ++i) {
      char c = i < arg.size() ? arg[i] : '>';
      if (c == '>' || c == '=') {
        flush_item(start, i);
        start = i + 1;
        if (c == '>') {
          if (!tier.empty()) {
            r.tiers.push_back(tier);
            r.where.push_back(tier_where);
          }
          tier.clear();
          tier_where.clear();
        }
      }
    }
    t.rankings.push_back(std::move(r));
  }

  void run(const std::vector<std::string_view>& lines, int first_line) {
    bool in_comment = false;
    for (std::size_t k = 0; k < lines.size(); ++k) {
      int lineno = first_line + static_cast<int>(k);
      std::string_view raw = lines[k];
      if (!raw.empty() && raw.back() == '\r') raw.remove_suffix(1);
      std::string_view s = text::trim(raw);
      // HTML comments (<!-- ... -->, possibly over several lines) are notes for the interviewer: skipped.
      if (in_comment || s.rfind("<!--", 0) == 0) {
        in_comment = s.find("-->") == std::string_view::npos;
        continue;
      }
      if (s.empty()) {
        current = nullptr;
        continue;
      }
      if (s.rfind("##", 0) == 0 && (s.size() == 2 || s[2] == ' ')) {
        current = nullptr;
        auto rest = text::trim(s.substr(2));
        auto sp = rest.find(' ');
        Section sec;
        sec.question = std::string(rest.substr(0, sp));
        sec.title = sp == std::string_view::npos ? "" : std::string(text::trim(rest.substr(sp)));
        sec.where = {file, lineno, 4};
        if (sec.question.empty()) diags.error({file, lineno, 1}, "a '##' section heading must start with a guideline question id");
        t.sections.push_back(sec);
        last_codes.clear();
        continue;
      }
      if (s[0] == '#') {  // other headings: free text
        current = nullptr;
        continue;
      }
      if (s[0] == '@') {
        directive(s, lineno);
        continue;
      }
      auto colon = s.find(':');
      if (colon != std::string_view::npos && colon > 0) {
        std::string label(s.substr(0, colon));
        if (label.find_first_of(" \t") == std::string::npos && is_speaker(label)) {
          start_turn(label, lineno);
          std::size_t off = static_cast<std::size_t>(s.data() - raw.data()) + colon + 1;
          std::string_view rest = raw.substr(off);
          std::size_t lead = rest.find_first_not_of(" \t");
          if (lead == std::string_view::npos) rest = {};
          else {
            off += lead;
            rest = raw.substr(off);
          }
          append_text(text::trim(rest), raw, off, lineno);
          continue;
        }
      }
      if (current) {
        std::size_t off = static_cast<std::size_t>(s.data() - raw.data());
        append_text(s, raw, off, lineno);
      }
      // Other prose outside a turn is free text.
    }
  }
};

}  // namespace

std::optional<Transcript> parse_transcript(const std::string& content, const std::string& file, Diagnostics& diags) {
  if (auto bad = text::find_invalid_utf8(content)) {
    diags.error({file, bad->line, bad->column}, "invalid UTF-8 (byte offset " + std::to_string(bad->offset) + ")");
    return std::nullopt;
  }
  std::vector<std::string_view> lines;
  {
    std::string_view v(content);
    std::size_t start = 0;
    if (v.size() >= 3 && v.substr(0, 3) == "\xEF\xBB\xBF") start = 3;
    while (start <= v.size()) {
      auto nl = v.find('\n', start);
      lines.push_back(v.substr(start, nl == std::string_view::npos ? v.npos : nl - start));
      if (nl == std::string_view::npos) break;
      start = nl + 1;
    }
  }
  auto is_fence = [](std::string_view l) { return text::trim(l) == "---"; };
  if (lines.empty() || !is_fence(lines[0])) {
    diags.error({file, 1, 1}, "transcript without front matter (it must start with a '---' line)");
    return std::nullopt;
  }
  std::size_t end = 1;
  while (end < lines.size() && !is_fence(lines[end])) ++end;
  if (end == lines.size()) {
    diags.error({file, 1, 1}, "front matter is not closed by a '---' line");
    return std::nullopt;
  }
  std::string fm;
  for (std::size_t k = 1; k < end; ++k) {
    fm.append(lines[k]);
    fm.push_back('\n');
  }
  auto node = yaml::parse(fm, file, diags, 2);
  if (!node) return std::nullopt;
  if (!node->IsMap()) {
    diags.error({file, 2, 1}, "front matter must be a YAML map (participant, role, attributes)");
    return std::nullopt;
  }
  Transcript t;
  t.file = file;
  t.participant = yaml::get_string(*node, "participant", file, diags, true, 2);
  t.participant_where = (*node)["participant"] ? yaml::where((*node)["participant"], file, 2) : Location{file, 2, 1};
  t.role = yaml::get_string(*node, "role", file, diags, true, 2);
  t.role_where = (*node)["role"] ? yaml::where((*node)["role"], file, 2) : Location{file, 2, 1};
  auto coder = yaml::get_string(*node, "coder", file, diags, false, 2);
  if (!coder.empty()) t.coder = coder;
  if ((*node)["interviewer"]) t.interviewer_labels = yaml::get_string_list(*node, "interviewer", file, diags, 2);
  if (t.participant.find_first_of(" \t:") != std::string::npos)
    diags.error(t.participant_where, "participant id '" + t.participant + "' may not contain spaces or ':'");
  for (const char* key : {"date", "language", "duration"}) {
    if (auto v = (*node)[key]; v && v.IsScalar()) {
      t.attributes[key] = v.Scalar();
      t.attribute_where[key] = yaml::where(v, file, 2);
    }
  }
  if (auto attrs = (*node)["attributes"]) {
    if (!attrs.IsMap()) {
      diags.error(yaml::where(attrs, file, 2), "'attributes' must be a map of name: value");
    } else {
      for (const auto& kv : attrs) {
        std::string key = kv.first.Scalar();
        std::string value;
        if (kv.second.IsScalar()) value = kv.second.Scalar();
        else if (kv.second.IsSequence()) {
          std::vector<std::string> parts;
          for (const auto& x : kv.second) parts.push_back(x.IsScalar() ? x.Scalar() : "");
          value = text::join(parts, ", ");
        } else if (!kv.second.IsNull()) {
          diags.error(yaml::where(kv.second, file, 2), "attribute '" + key + "' must be text, a number or a list");
        }
        t.attributes[key] = value;
        t.attribute_where[key] = yaml::where(kv.second, file, 2);
      }
    }
  }
  std::size_t body_offset = 0;
  for (std::size_t k = 0; k <= end && k < lines.size(); ++k) body_offset = static_cast<std::size_t>(lines[k].data() - content.data()) + lines[k].size() + 1;
  t.body = body_offset < content.size() ? content.substr(body_offset) : std::string();
  std::vector<std::string_view> body(lines.begin() + static_cast<long>(end) + 1, lines.end());
  BodyParser p{t, file, diags, nullptr, -1, {}, 1};
  t.turns.reserve(body.size());  // keeps Turn pointers stable while parsing
  p.run(body, static_cast<int>(end) + 2);
  return t;
}

// ---------------------------------------------------------------------------------------------------------
// Standoff codings

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
  std::size_t start = 0;
  while (start <= content.size()) {
    auto nl = content.find('\n', start);
    std::string_view raw(content.data() + start, (nl == std::string::npos ? content.size() : nl) - start);
    start = nl == std::string::npos ? content.size() + 1 : nl + 1;
    ++lineno;
    if (!raw.empty() && raw.back() == '\r') raw.remove_suffix(1);
    auto line = text::trim(raw);
    if (line.empty() || line[0] == '#') continue;
    std::size_t base = static_cast<std::size_t>(line.data() - raw.data());
    if (line[0] != 't') {
      diags.error({file, lineno, 1}, "expected 'tN: IDs' (N = participant turn number)");
      continue;
    }
    std::size_t i = 1;
    while (i < line.size() && std::isdigit(static_cast<unsigned char>(line[i]))) ++i;
    if (i == 1) {
      diags.error({file, lineno, static_cast<int>(base) + 2}, "expected a turn number after 't'");
      continue;
    }
    StandoffCoding c;
    c.turn = std::stoi(std::string(line.substr(1, i - 1)));
    while (i < line.size() && line[i] == ' ') ++i;
    if (i < line.size() && line[i] == '"') {
      auto q = line.find('"', i + 1);
      if (q == std::string_view::npos) {
        diags.error({file, lineno, column_of(raw, base + i)}, "unterminated quoted span");
        continue;
      }
      c.span = std::string(line.substr(i + 1, q - i - 1));
      i = q + 1;
      while (i < line.size() && line[i] == ' ') ++i;
    }
    if (i >= line.size() || line[i] != ':') {
      diags.error({file, lineno, column_of(raw, base + i)}, "expected ':' before the node ids");
      continue;
    }
    ++i;
    auto rest = line.substr(i);
    std::string memo;
    bool exemplar = false;
    auto bar = rest.find('|');
    if (bar != std::string_view::npos) {
      auto m = text::trim(rest.substr(bar + 1));
      // `| exemplar` (alone or before `| memo: ...`) picks the segment as an exemplar quote.
      if (text::starts_with_ci(m, "exemplar") && (m.size() == 8 || m[8] == '|' || m[8] == ' ')) {
        exemplar = true;
        m = text::trim(m.substr(8));
        if (!m.empty() && m[0] == '|') m = text::trim(m.substr(1));
      }
      if (text::starts_with_ci(m, "memo:")) m = text::trim(m.substr(5));
      memo = std::string(m);
      rest = rest.substr(0, bar);
    }
    c.codes = parse_code_list(rest, raw, base + i, file, lineno, s.coder, diags);
    for (auto& code : c.codes) {
      code.memo = memo;
      code.exemplar = exemplar;
    }
    if (!c.codes.empty()) s.codings.push_back(std::move(c));
  }
  return s;
}

void apply_standoff(Transcript& t, const StandoffFile& s, Diagnostics& diags) {
  for (const auto& c : s.codings) {
    Turn* turn = nullptr;
    for (auto& candidate : t.turns)
      if (!candidate.interviewer && candidate.number == c.turn) turn = &candidate;
    Location at = c.codes.empty() ? Location{s.file, 0, 0} : Location{s.file, c.codes.front().where.line, 1};
    if (!turn) {
      diags.error(at, "transcript " + t.file + " has no participant turn t" + std::to_string(c.turn));
      continue;
    }
    if (!c.span) {
      turn->codes.insert(turn->codes.end(), c.codes.begin(), c.codes.end());
      continue;
    }
    Span* match = nullptr;
    for (auto& sp : turn->spans)
      if (turn->text.compare(sp.begin, sp.end - sp.begin, *c.span) == 0) match = &sp;
    if (!match) {
      auto pos = turn->text.find(*c.span);
      if (pos == std::string::npos || c.span->empty()) {
        diags.error(at, "span \"" + *c.span + "\" is not in turn t" + std::to_string(c.turn) + " of " + t.file);
        continue;
      }
      turn->spans.push_back({pos, pos + c.span->size(), {}});
      match = &turn->spans.back();
    }
    match->codes.insert(match->codes.end(), c.codes.begin(), c.codes.end());
  }
}

}  // namespace qualrank
