// Transcript parser: a line-oriented pass over Markdown with front matter (see docs/formats.md).
// Front matter is parsed with yaml-cpp (line numbers shifted to the file); the body is read line by line:
// "## QID title" opens a section, "SPEAKER: text" opens a turn, "@directive" lines code, memo, rank or
// answer; "[span]{IDs}" inside a turn line codes a span (a span may not cross lines; transcript_markup.cpp).
// A second coder's `.codes` files are read in standoff.cpp.
#include "qualrank/model/transcripts/transcript.h"

#include <algorithm>
#include <cctype>
#include <iterator>
#include <set>

#include "qualrank/util/edit_distance.h"
#include "qualrank/util/text.h"
#include "qualrank/util/yaml_source.h"
#include "transcript_markup.h"

namespace qualrank {

int Turn::line_of(std::size_t text_offset) const {
  auto it = std::upper_bound(runs.begin(), runs.end(), text_offset,
                             [](std::size_t off, const TextRun& r) { return off < r.text_begin; });
  return it == runs.begin() ? line : std::prev(it)->line;
}

const Turn* Transcript::participant_turn(int number) const {
  for (const auto& t : turns)
    if (!t.interviewer && t.number == number) return &t;
  return nullptr;
}

namespace {

using markup::column_of;

struct BodyParser {
  Transcript& t;
  const FileName& file;  // shared by every Location the parser builds
  bool text_runs;        // TranscriptParseOptions::text_runs
  std::string_view content;
  Diagnostics& diags;
  Turn* current = nullptr;             // the turn text lines are appended to
  int last_participant_turn = -1;      // index into t.turns
  Turn* coded_turn = nullptr;          // the turn the @code/@memo/@exemplar lines just read belong to
  std::vector<Coding*> last_codes;     // target of @memo and @exemplar
  std::set<const Coding*> own_memo;    // codes of last_codes given a memo of their own (`@memo ID: TEXT`)
  int next_number = 1;

  bool is_interviewer(std::string_view label) const {
    return std::find(t.interviewer_labels.begin(), t.interviewer_labels.end(), label) != t.interviewer_labels.end();
  }
  bool is_speaker(std::string_view label) const { return label == t.participant || is_interviewer(label); }
  std::string section() const { return t.sections.empty() ? std::string() : t.sections.back().question; }

  markup::LineRef ref(std::string_view raw, int lineno) const {
    return {file, lineno, raw, static_cast<std::size_t>(raw.data() - content.data())};
  }

  // Scans raw[base...] as turn text (or as free text when there is no current turn).
  void append_text(std::string_view raw, std::size_t base, int lineno) {
    auto r = ref(raw, lineno);
    if (current) {
      if (!current->text.empty()) current->text += '\n';
      current->text_end_line = current->end_line = lineno;
    }
    auto codes = markup::scan_turn_line(raw.substr(base), base, r, current, t.coder, diags, text_runs);
    if (!codes.empty()) {
      last_codes = std::move(codes);
      own_memo.clear();
      coded_turn = current;
    }
  }

  void start_turn(std::string_view speaker, int lineno) {
    Turn& turn = t.turns.emplace_back();  // built in place (turns are reserved: see parse_transcript_unguarded)
    turn.speaker = speaker;
    turn.interviewer = is_interviewer(speaker);
    if (!t.sections.empty()) turn.section = t.sections.back().question;
    turn.line = turn.text_end_line = turn.end_line = lineno;
    if (!turn.interviewer) turn.number = next_number++;
    current = &turn;
    if (!current->interviewer) last_participant_turn = static_cast<int>(t.turns.size()) - 1;
    last_codes.clear();
    own_memo.clear();
    coded_turn = nullptr;
  }

  // `@memo` and `@exemplar` lines extend the turn their codes belong to.
  void extend_coded_turn(int lineno) {
    if (coded_turn && coded_turn->end_line == lineno - 1) coded_turn->end_line = lineno;
  }

  void directive(std::string_view raw, std::string_view line, int lineno) {
    auto sp = line.find_first_of(" \t");
    std::string name(line.substr(1, sp == std::string_view::npos ? line.npos : sp - 1));
    std::size_t arg_off = sp == std::string_view::npos ? line.size() : line.find_first_not_of(" \t", sp);
    if (arg_off == std::string_view::npos) arg_off = line.size();
    std::string_view arg = text::trim(line.substr(arg_off));
    std::size_t arg_in_raw = static_cast<std::size_t>(line.data() - raw.data()) + arg_off;
    Location at{file, lineno, column_of(raw, static_cast<std::size_t>(line.data() - raw.data()))};
    current = nullptr;  // a directive ends the turn's text
    if (name == "code") {
      if (last_participant_turn < 0 || t.turns.back().section != section()) {
        diags.error(at, "@code must follow a participant turn (in the same section)");
        return;
      }
      if (t.turns.back().end_line != lineno - 1) {
        diags.error(at, "@code must directly follow the turn it codes (its text or its @ lines; the last turn, at line " +
                            std::to_string(t.turns.back().line) + ", ends at line " + std::to_string(t.turns.back().end_line) + ")");
        return;
      }
      if (t.turns.back().interviewer) {
        diags.error(at, "codes on an interviewer turn (only participant turns are coded; the turn at line " +
                            std::to_string(t.turns.back().line) + " is the interviewer's)");
        return;
      }
      if (arg.empty()) {
        diags.error(at, "@code needs at least one node id");
        return;
      }
      Turn& turn = t.turns[last_participant_turn];
      auto codes = markup::parse_code_list(arg, ref(raw, lineno), arg_in_raw, t.coder, diags);
      std::size_t first = turn.codes.size();
      if (turn.codes.empty()) turn.codes = std::move(codes);
      else turn.codes.insert(turn.codes.end(), std::make_move_iterator(codes.begin()), std::make_move_iterator(codes.end()));
      last_codes.clear();
      own_memo.clear();
      for (std::size_t k = first; k < turn.codes.size(); ++k) last_codes.push_back(&turn.codes[k]);
      if (turn.end_line == lineno - 1) turn.end_line = lineno;
      coded_turn = &turn;
    } else if (name == "memo") {
      if (last_codes.empty()) {
        diags.error(at, "@memo must follow a code (@code line or [span]{ID})");
        return;
      }
      if (arg.empty()) diags.error(at, "@memo needs text");
      // `@memo ID: TEXT` is the memo of that one code of the line (ID one of its codes as written); any other
      // @memo belongs to every code of the line that has no memo of its own.
      Coding* own = nullptr;
      std::string_view own_text;
      if (auto colon = arg.find(':'); colon != std::string_view::npos && last_codes.size() > 1) {
        auto id = text::trim(arg.substr(0, colon));
        if (!id.empty() && id.find_first_of(" \t") == std::string_view::npos) {
          for (auto* c : last_codes)
            if (text::fold_case(c->written) == text::fold_case(id)) own = c;
          if (!own && id.find_first_of(".0123456789") != std::string_view::npos)
            diags.warning(at, "'@memo " + std::string(id) + ":' names no code of the coding just before it; taken as the memo of all its codes (a code's own memo is '@memo ID: TEXT' with one of its ids)");
          own_text = text::trim(arg.substr(colon + 1));
        }
      }
      if (own) {
        if (!own_memo.count(own)) own->memo.clear();
        own_memo.insert(own);
        if (!own->memo.empty()) own->memo += '\n';
        own->memo.append(own_text);
      } else {
        for (auto* c : last_codes) {
          if (own_memo.count(c)) continue;
          if (!c->memo.empty()) c->memo += '\n';
          c->memo.append(arg);
        }
      }
      extend_coded_turn(lineno);
    } else if (name == "exemplar") {
      if (last_codes.empty()) {
        diags.error(at, "@exemplar must follow a code (@code line or [span]{ID})");
        return;
      }
      // `@exemplar` marks every code just before it; `@exemplar ID, ID` only those written so.
      std::vector<std::string> only;
      if (!arg.empty())
        for (auto& c : markup::parse_code_list(arg, ref(raw, lineno), arg_in_raw, t.coder, diags))
          only.push_back(text::fold_case(c.written));
      bool marked = false;
      for (auto* c : last_codes) {
        if (!only.empty() && std::find(only.begin(), only.end(), text::fold_case(c->written)) == only.end()) continue;
        c->exemplar = true;
        marked = true;
      }
      if (!marked) diags.error(at, "@exemplar names no code of the coding just before it");
      extend_coded_turn(lineno);
    } else if (name == "rank") {
      rank(raw, arg, arg_in_raw, lineno);
      if (!t.turns.empty() && t.turns.back().end_line == lineno - 1) t.turns.back().end_line = lineno;
    } else if (name == "answer") {
      if (section().empty()) {
        diags.error(at, "@answer outside a question section");
        return;
      }
      t.answers.push_back({section(), std::string(arg), at});
      if (!t.turns.empty() && t.turns.back().end_line == lineno - 1) t.turns.back().end_line = lineno;
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
    for (std::size_t i = 0; i <= arg.size(); ++i) {
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

  // Lines that are one character away from a directive or a turn are read as text; say so.
  void check_near_miss(std::string_view s, int lineno, bool after_turn_or_directive) {
    std::string_view bare = s;
    while (!bare.empty() && std::string_view("\\,|@").find(bare[0]) != std::string_view::npos) bare.remove_prefix(1);
    auto sp = bare.find_first_of(" \t");
    std::string_view word = bare.substr(0, sp);
    std::string_view rest = sp == std::string_view::npos ? std::string_view() : text::trim(bare.substr(sp));
    bool directive_word = word == "code" || word == "memo" || word == "exemplar";
    if (bare.size() < s.size() && s.find('@') != std::string_view::npos && s.find('@') < s.size() - bare.size() &&
        (directive_word || word == "rank" || word == "answer")) {
      diags.warning({file, lineno, 1}, "a directive must start its line ('@" + std::string(word) +
                                           "'); this line is read as text");
      return;
    }
    if (after_turn_or_directive && directive_word) {
      bool id_list = !rest.empty();  // "A.1, A.2": comma-separated words without spaces inside
      for (auto& piece : text::split(rest, ','))
        if (piece.empty() || piece.find_first_of(" \t") != std::string::npos) id_list = false;
      if (word != "code" || id_list) {
        diags.warning({file, lineno, 1}, "line starts with '" + std::string(word) + "': did you mean the directive '@" +
                                             std::string(word) + "'? (it is read as text)");
        return;
      }
    }
    // "P@1: text": a label one character away from a speaker's (or holding a markup character).
    auto colon = bare.find(':');
    if (colon != std::string_view::npos && colon >= 2 && bare.substr(0, colon).find_first_of(" \t") == std::string_view::npos) {
      std::string_view label = bare.substr(0, colon);
      bool marked = label.find_first_of("[]{},@\\|") != std::string_view::npos;
      for (const std::string& known : speaker_labels())
        if (label != known && (marked || (known.size() >= 2 && text::edit_distance_at_most(label, known, 1) <= 1))) {
          diags.warning({file, lineno, 1}, "'" + std::string(label) + "' is not a speaker of this transcript (did you mean '" +
                                               known + "'?); the line is read as text, not as a turn");
          return;
        }
    }
    // "P1 text", "P1, text", "P1\: text": a speaker label that does not open a turn.
    for (const std::string& label : speaker_labels()) {
      if (label.size() < 2 || bare.size() <= label.size() || bare.compare(0, label.size(), label) != 0) continue;
      unsigned char next = static_cast<unsigned char>(bare[label.size()]);
      if (next < 0x80 && !std::isalnum(next) && next != '-' && next != '_') {
        diags.warning({file, lineno, 1}, "line starts with the speaker label '" + label +
                                             "' but is not a turn (a turn is 'LABEL: text'); it is read as text");
        return;
      }
    }
  }

  std::vector<std::string> speaker_labels() const {
    std::vector<std::string> out = t.interviewer_labels;
    out.push_back(t.participant);
    return out;
  }

  void run(const std::vector<std::string_view>& lines, int first_line) {
    bool in_comment = false;
    bool after_turn_or_directive = false;
    for (std::size_t k = 0; k < lines.size(); ++k) {
      int lineno = first_line + static_cast<int>(k);
      std::string_view raw = lines[k];
      if (!raw.empty() && raw.back() == '\r') raw.remove_suffix(1);
      markup::new_line();
      std::string_view s = text::trim(raw);
      // HTML comments (<!-- ... -->, possibly over several lines) are notes for the interviewer: skipped.
      if (in_comment || s.rfind("<!--", 0) == 0) {
        in_comment = s.find("-->") == std::string_view::npos;
        continue;
      }
      bool after = after_turn_or_directive;
      after_turn_or_directive = false;
      if (s.empty()) {
        current = nullptr;
        coded_turn = nullptr;
        continue;
      }
      std::size_t s_off = static_cast<std::size_t>(s.data() - raw.data());
      if (s.rfind("##", 0) == 0 && (s.size() == 2 || s[2] == ' ')) {
        current = nullptr;
        coded_turn = nullptr;
        auto rest = text::trim(s.substr(2));
        auto sp = rest.find(' ');
        Section sec;
        sec.question = std::string(rest.substr(0, sp));
        sec.title = sp == std::string_view::npos ? "" : std::string(text::trim(rest.substr(sp)));
        sec.where = {file, lineno, 4};
        if (sec.question.empty()) diags.error({file, lineno, 1}, "a '##' section heading must start with a guideline question id");
        t.sections.push_back(sec);
        last_codes.clear();
        own_memo.clear();
        continue;
      }
      if (s[0] == '#') {  // other headings: free text
        current = nullptr;
        coded_turn = nullptr;
        continue;
      }
      if (s[0] == '@') {
        directive(raw, s, lineno);
        after_turn_or_directive = true;
        continue;
      }
      auto colon = s.find(':');
      if (colon != std::string_view::npos && colon > 0) {
        std::string_view label = s.substr(0, colon);
        if (label.find_first_of(" \t") == std::string_view::npos && is_speaker(label)) {
          start_turn(label, lineno);
          std::string_view line = raw.substr(0, s_off + s.size());
          std::size_t off = s_off + colon + 1;
          while (off < line.size() && (line[off] == ' ' || line[off] == '\t')) ++off;
          append_text(line, off, lineno);
          after_turn_or_directive = true;
          continue;
        }
      }
      check_near_miss(s, lineno, after || current);
      // A continuation line of the current turn, or free text (where a coded span is an error).
      append_text(raw.substr(0, s_off + s.size()), s_off, lineno);
      if (current) after_turn_or_directive = true;
    }
  }
};

}  // namespace

static std::optional<Transcript> parse_transcript_unguarded(const std::string& content, const std::string& path, Diagnostics& diags,
                                                            const TranscriptParseOptions& options) {
  const FileName file(path);  // one string for all the file's Locations
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
  // Every coded span ends in ']{': past kMaxTranscriptSpans of them the file is refused before any is built
  // (each costs some hundred bytes through the analyses). A ']' escaped as '\]' does not count.
  {
    std::size_t spans = 0;
    for (std::size_t at = content.find("]{"); at != std::string::npos; at = content.find("]{", at + 2)) {
      if (at > 0 && content[at - 1] == '\\') continue;
      if (++spans <= kMaxTranscriptSpans) continue;
      const auto line = std::upper_bound(lines.begin(), lines.end(), content.data() + at,
                                         [](const char* p, std::string_view l) { return p < l.data(); }) - 1;
      const auto col = text::count_code_points(std::string_view(line->data(), content.data() + at - line->data())) + 1;
      diags.error({file, static_cast<int>(line - lines.begin()) + 1, static_cast<int>(col)},
                  "more than " + std::to_string(kMaxTranscriptSpans) + " coded spans (the limit on coded spans per transcript)");
      return std::nullopt;
    }
  }
  auto is_fence = [](std::string_view l) { return text::trim(l) == "---"; };
  if (content.find('\r') != std::string_view::npos && content.find('\n') == std::string_view::npos) {
    diags.error({file, 1, 1}, "the file's lines end with a bare carriage return (CR, old Mac style); convert them to LF or CRLF");
    return std::nullopt;
  }
  if (lines.empty() || !is_fence(lines[0])) {
    diags.error({file, 1, 1}, "transcript without front matter (it must start with a '---' line)");
    return std::nullopt;
  }
  std::size_t end = 1;
  while (end < lines.size() && !is_fence(lines[end])) ++end;
  if (end == lines.size()) {
    // A line that is nearly a fence ("--", "-,--") is most likely the closing one.
    for (std::size_t k = 1; k < lines.size(); ++k)
      if (text::trim(lines[k]).rfind("--", 0) == 0 || (text::trim(lines[k]).size() <= 4 && text::trim(lines[k]).find("--") != std::string_view::npos)) {
        diags.error({file, static_cast<int>(k) + 1, 1}, "front matter is not closed by a '---' line (is this line meant to be '---'?)");
        return std::nullopt;
      }
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
  if (!lines[0].empty() && lines[0].back() == '\r') t.newline = "\r\n";  // for lines that editing adds
  t.file = file;
  t.participant = yaml::get_string(*node, "participant", file, diags, true, 2);
  t.participant_where = (*node)["participant"] ? yaml::where((*node)["participant"], file, 2) : Location{file, 2, 1};
  if (!t.participant.empty())
    if (auto why = text::participant_id_problem(t.participant); !why.empty())
      diags.error(t.participant_where, "participant id '" + text::escape_controls(t.participant) + "' " + why);
  t.role = yaml::get_string(*node, "role", file, diags, true, 2);
  t.role_where = (*node)["role"] ? yaml::where((*node)["role"], file, 2) : Location{file, 2, 1};
  auto coder = yaml::get_string(*node, "coder", file, diags, false, 2);
  if (!coder.empty()) t.coder = coder;
  if ((*node)["date"]) {
    t.date = yaml::get_string(*node, "date", file, diags, false, 2);
    t.date_where = yaml::where((*node)["date"], file, 2);
  }
  if ((*node)["interviewer"]) t.interviewer_labels = yaml::get_string_list(*node, "interviewer", file, diags, 2);
  if (t.participant.find_first_of(" \t:,[]{}@\\|\"") != std::string::npos)
    diags.error(t.participant_where, "participant id '" + t.participant + "' may not contain spaces or any of : , [ ] { } @ \\ | \"");
  if (t.coder.find_first_of(" \t:,[]{}@\\|\"/.") != std::string::npos)
    diags.error((*node)["coder"] ? yaml::where((*node)["coder"], file, 2) : Location{file, 2, 1},
                "coder name '" + t.coder + "' may not contain spaces or any of : , [ ] { } @ \\ | \" / .");
  else if (auto why = text::invisible_character_problem(t.coder); !why.empty())
    // (a coder written "jo\u200Bnas" prints as "jonas": another coder on screen)
    diags.error((*node)["coder"] ? yaml::where((*node)["coder"], file, 2) : Location{file, 2, 1},
                "coder name '" + text::escape_controls(t.coder) + "' " + why);
  for (const auto& kv : *node) {
    static const std::vector<std::string> known{"participant", "role", "coder", "interviewer", "date", "language", "duration", "attributes"};
    std::string key = kv.first.IsScalar() ? kv.first.Scalar() : std::string();
    if (std::find(known.begin(), known.end(), key) == known.end())
      diags.warning(yaml::where(kv.first, file, 2), "unknown front-matter key '" + key + "' (known: " + text::join(known, ", ") +
                                                        "; other attributes go under 'attributes:')");
  }
  for (const char* key : {"date", "language", "duration"}) {
    if (auto v = (*node)[key]; v && v.IsScalar()) {
      t.attributes[key] = v.Scalar();
      t.attribute_where[key] = yaml::where(v, file, 2);
      if (std::string(key) == "date" && !text::is_calendar_date(v.Scalar()))
        diags.error(yaml::where(v, file, 2), "date '" + v.Scalar() + "' is not a date YYYY-MM-DD (the interview's day; it orders the saturation curve)");
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
  std::vector<std::string_view> body(lines.begin() + static_cast<long>(end) + 1, lines.end());
  BodyParser p{t, file, options.text_runs, content, diags, nullptr, -1, nullptr, {}, {}, 1};
  // Keeps Turn pointers stable while parsing: a turn starts on a line with a ':'.
  t.turns.reserve(static_cast<std::size_t>(std::count_if(body.begin(), body.end(), [](std::string_view l) {
    return l.find(':') != std::string_view::npos;
  })));
  p.run(body, static_cast<int>(end) + 2);
  return t;
}

std::optional<Transcript> parse_transcript(const std::string& content, const std::string& file, Diagnostics& diags,
                                           const TranscriptParseOptions& options) {
  return yaml::guarded(file, diags, 2, [&] { return parse_transcript_unguarded(content, file, diags, options); });  // (a located error, not an internal one)
}

}  // namespace qualrank

