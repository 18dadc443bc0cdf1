// Editing codings by splices (see coding_edit.h). Adding writes new text next to the turn (a `@code` line
// after the turn's own @code/@memo lines, `[`…`]{ID}` around an inline span, a line at the end of a .codes
// file); removing erases exactly what adding wrote, so add-then-remove gives the file back byte for byte.
// Every planned edit is checked by parsing the edited text before it is offered.
#include "qualrank/model/coding_edit.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <map>

#include "qualrank/model/taxonomy.h"
#include "qualrank/util/files.h"
#include "qualrank/util/edit_distance.h"
#include "qualrank/util/line_merge.h"
#include "qualrank/util/text.h"
#include "qualrank/util/workspace_lock.h"

namespace qualrank {

namespace fs = std::filesystem;

std::vector<TextSplice> apply_splices(std::string& text, const std::vector<TextSplice>& splices) {
  std::vector<TextSplice> inverse;
  std::ptrdiff_t shift = 0;
  for (const auto& s : splices) {
    std::size_t at = static_cast<std::size_t>(static_cast<std::ptrdiff_t>(s.offset) + shift);
    inverse.push_back({at, s.insert.size(), text.substr(s.offset, s.erase)});
    shift += static_cast<std::ptrdiff_t>(s.insert.size()) - static_cast<std::ptrdiff_t>(s.erase);
  }
  for (auto it = splices.rbegin(); it != splices.rend(); ++it) text.replace(it->offset, it->erase, it->insert);
  return inverse;
}

namespace {

std::string one_line(std::string_view s) {
  std::string out(text::trim(s));
  for (auto& c : out)
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  return out;
}

// Escapes the characters that are markup inside a `[span]{ID | memo}`.
std::string escape_inline(std::string_view s) {
  std::string out;
  for (char c : one_line(s)) {
    if (c == '[' || c == ']' || c == '{' || c == '}' || c == '\\' || c == '|') out += '\\';
    out += c;
  }
  return out;
}

// The tail after a code list, written anew: ` | exemplar`, each code's own ` | memo ID: TEXT` (its '|' and
// '\\' escaped), then the shared ` | memo: TEXT` (as written). Empty when there is nothing.
std::string code_tail(bool exemplar, const std::vector<OwnMemo>& own, std::string_view shared_raw) {
  std::string out = exemplar ? " | exemplar" : "";
  for (const auto& o : own) out += " | memo " + o.id + ": " + o.raw;
  if (!shared_raw.empty()) out += " | memo: " + std::string(shared_raw);
  return out;
}

// `own` with the memo of `id` set to `memo` (escaped for a tail), or removed when `memo` is empty.
std::vector<OwnMemo> with_own_memo(std::vector<OwnMemo> own, const std::string& id, const std::string& memo) {
  own.erase(std::remove_if(own.begin(), own.end(), [&](const OwnMemo& o) { return text::fold_case(o.id) == text::fold_case(id); }),
            own.end());
  if (!memo.empty()) {
    std::string raw;
    for (char c : memo) {
      if (c == '|' || c == '\\' || c == '[' || c == ']' || c == '{' || c == '}') raw += '\\';
      raw += c;
    }
    own.push_back({id, memo, raw});
  }
  return own;
}

// The first words of a turn's text (about 8, at most 60 bytes, cut at a character boundary), quoted and with
// "…" when cut: what `code add` echoes so that a wrong turn is seen at once.
std::string first_words(std::string_view text) {
  std::string out;
  int words = 0;
  std::size_t i = 0;
  while (i < text.size() && words < 8) {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\n' || text[i] == '\t')) ++i;
    std::size_t j = i;
    while (j < text.size() && text[j] != ' ' && text[j] != '\n' && text[j] != '\t') ++j;
    if (j == i) break;
    std::string w(text.substr(i, j - i));
    if (out.size() + w.size() + 1 > 60) break;
    out += (out.empty() ? "" : " ") + w;
    ++words;
    i = j;
  }
  while (i < text.size() && (text[i] == ' ' || text[i] == '\n' || text[i] == '\t')) ++i;
  return "\"" + out + (i < text.size() ? "…" : "") + "\"";
}

// Line `n` (1-based) of `text` without its line break; empty when there is none.
std::string_view nth_line(std::string_view text, int n) {
  std::size_t start = 0;
  for (int k = 1; k < n; ++k) {
    start = text.find('\n', start);
    if (start == std::string_view::npos) return {};
    ++start;
  }
  if (start > text.size()) return {};
  std::size_t end = text.find('\n', start);
  return text.substr(start, (end == std::string_view::npos ? text.size() : end) - start);
}

std::vector<std::size_t> line_starts(const std::string& text) {
  std::vector<std::size_t> out{0};
  for (std::size_t i = text.find('\n'); i != std::string::npos; i = text.find('\n', i + 1)) out.push_back(i + 1);
  return out;
}

bool valid_coder_name(const std::string& coder) {
  if (coder.empty() || coder.size() > 64) return false;
  return std::none_of(coder.begin(), coder.end(), [](char c) {
    return c == '/' || c == '\\' || c == '.' || c == ':' || static_cast<unsigned char>(c) <= ' ';
  });
}


// The node a coding names at the version in use (as written when it does not resolve).
std::string node_of(const NodeResolver& resolve, const Coding& c) {
  auto r = resolve ? resolve(c.written) : NodeResolution{};
  return r.node ? *r.node : c.written.str();
}

// "tN|span|node" keys of every coding in the view, for checking that an edit changes only what it says.
std::multiset<std::string> coding_keys(const Transcript& t, const NodeResolver& resolve) {
  std::multiset<std::string> keys;
  auto node = [&](const Coding& c) { return node_of(resolve, c); };
  for (const auto& turn : t.turns) {
    if (turn.interviewer) continue;
    std::string tn = "t" + std::to_string(turn.number) + "|";
    for (const auto& c : turn.codes) keys.insert(tn + "|" + node(c));
    for (const auto& s : turn.spans)
      for (const auto& c : s.codes) keys.insert(tn + turn.text.substr(s.begin, s.end - s.begin) + "|" + node(c));
  }
  return keys;
}

// "tN|span|node" -> the memo and exemplar mark of each coding in the view (a repeated key: its first coding).
std::map<std::string, std::pair<std::string, bool>> coding_notes(const Transcript& t, const NodeResolver& resolve) {
  std::map<std::string, std::pair<std::string, bool>> notes;
  for (const auto& turn : t.turns) {
    if (turn.interviewer) continue;
    std::string tn = "t" + std::to_string(turn.number) + "|";
    for (const auto& c : turn.codes) notes.emplace(tn + "|" + node_of(resolve, c), std::make_pair(c.memo, c.exemplar));
    for (const auto& sp : turn.spans)
      for (const auto& c : sp.codes)
        notes.emplace(tn + turn.text.substr(sp.begin, sp.end - sp.begin) + "|" + node_of(resolve, c), std::make_pair(c.memo, c.exemplar));
  }
  return notes;
}

}  // namespace

std::optional<std::vector<std::string>> resolve_node_ids(const std::vector<std::string>& written, const Taxonomy& taxonomy,
                                                         const NodeResolver& resolve, const Location& where,
                                                         Diagnostics& diags) {
  std::vector<std::string> out;
  bool ok = true;
  for (const auto& w : written) {
    auto r = resolve(w);
    if (r.node) {
      if (std::find(out.begin(), out.end(), *r.node) == out.end()) out.push_back(*r.node);
      continue;
    }
    const std::string hint = r.problem.empty() || r.problem.rfind("unknown", 0) == 0 ? did_you_mean(taxonomy, w) : "";
    diags.error(where, (r.problem.empty() ? "unknown taxonomy node '" + w + "'" : r.problem) + hint);
    ok = false;
  }
  if (!ok) return std::nullopt;
  return out;
}

std::optional<CodingDocument> CodingDocument::open(const fs::path& root, const std::string& transcript, const std::string& coder,
                                                   NodeResolver resolve, Diagnostics& diags) {
  CodingDocument doc;
  doc.root_ = root;
  doc.resolve_ = std::move(resolve);
  auto path = files::resolve_inside(root, transcript);
  if (!path) {
    // Inside as written but not once its symlinks are followed: say so (README, "Safety and limits").
    const fs::path lexical = fs::path(transcript).lexically_normal();
    const bool written_inside = !lexical.is_absolute() && !lexical.empty() && *lexical.begin() != "..";
    diags.error({transcript, 0, 0}, written_inside ? "leads outside the workspace through a symlink; not read"
                                                   : "the transcript must be a path inside the workspace");
    return std::nullopt;
  }
  doc.transcript_file_ = files::display_path(*path, root);
  std::string why;
  auto content = files::read_input(*path, files::kTranscriptInput, &why);
  if (!content) {
    // Say why: a symlink that leads outside the workspace (never followed), or no such file.
    for (const std::string& candidate : {transcript, "transcripts/" + transcript, "transcripts/" + transcript + ".md"}) {
      std::error_code ec;
      if (fs::is_symlink(fs::symlink_status(root / candidate, ec)) && !files::resolved_inside(root, root / candidate)) {
        diags.error({candidate, 0, 0}, "leads outside the workspace through a symlink; not read");
        return std::nullopt;
      }
    }
    std::error_code ec;
    if (why != "cannot read the file") {  // a FIFO, a device, a dangling symlink, a file over the limit
      diags.error({doc.transcript_file_, 0, 0}, why);
      return std::nullopt;
    }
    diags.error({doc.transcript_file_, 0, 0}, fs::exists(*path, ec) ? "cannot read the transcript"
                                                                     : "no such transcript (looked for " + transcript + ", transcripts/" +
                                                                           transcript + " and transcripts/" + transcript + ".md)");
    return std::nullopt;
  }
  doc.transcript_text_ = std::move(*content);
  Diagnostics scratch;
  auto parsed = parse_transcript(doc.transcript_text_, doc.transcript_file_, scratch);
  if (!parsed) {
    diags.append(scratch);
    return std::nullopt;
  }
  doc.coder_ = coder.empty() ? parsed->coder : coder;
  if (text::fold_case(doc.coder_) == "consensus") {
    // The consensus holds the team's decisions, each recorded with who decided, when and the coders' codes:
    // a coding written into it by hand would have no such record.
    diags.error({doc.transcript_file_, 0, 0}, "the consensus is written only by 'qualrank reconcile', which records each decision; "
                                              "code as yourself (--coder NAME) and reconcile the disagreements");
    return std::nullopt;
  }
  doc.inline_ = text::fold_case(doc.coder_) == text::fold_case(parsed->coder);
  if (doc.inline_) doc.coder_ = parsed->coder;
  if (!doc.inline_) {
    if (auto invisible = text::invisible_character_problem(doc.coder_); !invisible.empty()) {
      diags.error({doc.transcript_file_, 0, 0}, "coder name '" + text::escape_controls(doc.coder_) + "' " + invisible);
      return std::nullopt;
    }
    if (!valid_coder_name(doc.coder_)) {
      diags.error({doc.transcript_file_, 0, 0}, "coder name '" + doc.coder_ +
                                                    "' cannot name a codings file (no spaces, '.', '/', '\\' or ':')");
      return std::nullopt;
    }
    auto dir = path->parent_path();
    auto stem = path->stem().string();
    fs::path codes = dir / (stem + "." + doc.coder_ + ".codes");
    // An existing file of the same coder written in another case ("Jonas" / "jonas") is that coder's file.
    for (const auto& f : files::list_files(dir, ".codes")) {
      auto name = f.filename().string();
      if (name.size() > stem.size() + 7 && name.compare(0, stem.size() + 1, stem + ".") == 0 &&
          text::fold_case(name.substr(stem.size() + 1, name.size() - stem.size() - 7)) == text::fold_case(doc.coder_)) {
        codes = f;
        doc.coder_ = name.substr(stem.size() + 1, name.size() - stem.size() - 7);
      }
    }
    doc.codes_file_ = files::display_path(codes, root);
    std::error_code ec;
    if (fs::exists(fs::symlink_status(codes, ec))) {
      // (`codes` starts with `root`, as `path` does: relative to the workspace it is read from there, never
      // from root/root when -C gave a relative folder)
      const fs::path rel = codes.lexically_relative(root);
      auto c = files::read_inside(root, rel, &why, files::kCodesInput);
      if (!c) {
        diags.error({rel.generic_string(), 0, 0}, why);
        return std::nullopt;
      }
      doc.codes_text_ = std::move(*c);
    }
  }
  doc.saved_transcript_ = doc.transcript_text_;
  doc.saved_codes_ = doc.codes_text_;
  if (!doc.reparse(diags)) return std::nullopt;
  return doc;
}

std::optional<Transcript> CodingDocument::parse_view(const std::string& transcript_text, const std::string& codes_text,
                                                     std::optional<StandoffFile>* standoff, Diagnostics& diags) const {
  auto parsed = parse_transcript(transcript_text, transcript_file_, diags);
  if (!parsed) return std::nullopt;
  if (!inline_) {
    for (auto& turn : parsed->turns) {
      turn.codes.clear();
      turn.spans.clear();
    }
    auto s = parse_standoff(codes_text, codes_file_, diags);
    if (s) apply_standoff(*parsed, *s, diags);
    if (standoff) *standoff = std::move(s);
  }
  return parsed;
}

bool CodingDocument::reparse(Diagnostics& diags) {
  Diagnostics local;
  auto parsed = parse_view(transcript_text_, codes_text_, &standoff_, local);
  diags.append(local);
  if (!parsed) return false;
  view_ = std::move(*parsed);
  view_errors_ = local.error_count();
  view_keys_ = coding_keys(view_, resolve_);
  line_starts_ = line_starts(inline_ ? transcript_text_ : codes_text_);
  return true;
}

std::string CodingDocument::target_file() const { return inline_ ? transcript_file_ : codes_file_; }

bool CodingDocument::dirty() const { return transcript_text_ != saved_transcript_ || codes_text_ != saved_codes_; }

std::vector<CodingView> CodingDocument::codings(int turn_number) const {
  const Turn* turn = view_.participant_turn(turn_number);
  return turn ? codings(*turn) : std::vector<CodingView>{};
}

std::vector<CodingView> CodingDocument::codings(const Turn& t) const {
  std::vector<CodingView> out;
  const Turn* turn = &t;
  const int turn_number = t.number;
  for (const auto& c : turn->codes) out.push_back({turn_number, std::nullopt, c.written, c.memo, c.exemplar, c.where});
  std::vector<const Span*> spans;
  for (const auto& s : turn->spans) spans.push_back(&s);
  std::stable_sort(spans.begin(), spans.end(), [](const Span* a, const Span* b) { return a->begin < b->begin; });
  for (const auto* s : spans) {
    std::string text = turn->text.substr(s->begin, s->end - s->begin);
    int occurrence = 1;  // occurrences of the same text that start before this span
    for (auto p = turn->text.find(text); p != std::string::npos && p < s->begin; p = turn->text.find(text, p + 1)) ++occurrence;
    for (const auto& c : s->codes) {
      CodingView v{turn_number, text, c.written, c.memo, c.exemplar, c.where};
      v.occurrence = occurrence;
      out.push_back(std::move(v));
    }
  }
  return out;
}

CodingTarget CodingDocument::as_written(const CodingTarget& given) const {
  if (!given.span || given.span->empty()) return given;
  Diagnostics quiet;  // (find_turn reports the problems again when the plan looks the turn up)
  CodingTarget turn_only = given;
  turn_only.span.reset();  // (find_turn refuses a span the turn's bytes lack: the turn alone here)
  const Turn* turn = find_turn(turn_only, quiet);
  if (!turn || turn->text.find(*given.span) != std::string::npos) return given;
  auto at = text::find_canonical(turn->text, *given.span);
  if (!at) return given;
  CodingTarget target = given;
  target.span = turn->text.substr(at->first, at->second - at->first);
  return target;
}

const Turn* CodingDocument::find_turn(const CodingTarget& target, Diagnostics& diags) const {
  const Turn* turn = nullptr;
  Location at{transcript_file_, target.line.value_or(0), 0};
  if (target.turn) {
    turn = view_.participant_turn(*target.turn);
    if (!turn) {
      int last = 0;
      for (const auto& t : view_.turns) last = std::max(last, t.number);
      diags.error(at, "no participant turn t" + std::to_string(*target.turn) + " (the transcript has t1 to t" +
                          std::to_string(last) + ")");
      return nullptr;
    }
  } else if (target.line) {
    for (const auto& t : view_.turns)
      if (t.line <= *target.line && *target.line <= t.end_line) turn = &t;
    if (!turn) {
      diags.error(at, "line " + std::to_string(*target.line) + " is not part of a turn");
      return nullptr;
    }
    if (turn->interviewer) {
      diags.error({transcript_file_, turn->line, 1}, "this is an interviewer turn ('" + turn->speaker +
                                                         "'); only participant turns are coded");
      return nullptr;
    }
    // A directive line (@code, @memo, ...) belongs to the turn above it, but a line number that lands on one
    // is almost always a number that moved when codes were added: refused, naming the turn to use.
    std::string_view line_text = nth_line(transcript_text_, *target.line);
    if (!line_text.empty() && text::trim(line_text).substr(0, 1) == "@") {
      std::string shown(text::trim(line_text).substr(0, 40));
      diags.error({transcript_file_, *target.line, 1},
                  "line " + std::to_string(*target.line) + " is the directive '" + shown + "' after turn t" +
                      std::to_string(turn->number) + " (line " + std::to_string(turn->line) +
                      "), not the turn's text; line numbers move as codes are added: name the turn with --turn " +
                      std::to_string(turn->number));
      return nullptr;
    }
  } else {
    diags.error(at, "name the turn (--turn N or --line N)");
    return nullptr;
  }
  if (target.span) {
    Location tl{transcript_file_, turn->line, 1};
    if (target.span->empty()) {
      diags.error(tl, "the span is empty");
      return nullptr;
    }
    auto pos = turn->text.find(*target.span);
    if (pos == std::string::npos) {
      diags.error(tl, "span \"" + *target.span + "\" is not in turn t" + std::to_string(turn->number));
      return nullptr;
    }
    const int count = occurrences(turn->text, *target.span);
    if (count > 1 && !target.occurrence) {
      diags.error(tl, "span \"" + *target.span + "\" occurs " + std::to_string(count) + " times in turn t" +
                          std::to_string(turn->number) + "; say which with --occurrence N (1 to " +
                          std::to_string(count) + "), or give a longer span");
      return nullptr;
    }
    if (target.occurrence && (*target.occurrence < 1 || *target.occurrence > count)) {
      diags.error(tl, "span \"" + *target.span + "\" occurs " + std::to_string(count) + " time(s) in turn t" +
                          std::to_string(turn->number) + ", not " + std::to_string(*target.occurrence));
      return nullptr;
    }
  }
  return turn;
}

namespace {

// The whole-turn codes or the span a target's codings live in.
struct Group {
  std::vector<const Coding*> codes;    // sorted by offset
  const Span* span = nullptr;          // span target
};

Group group_of(const Turn& turn, const CodingTarget& target) {
  Group g;
  if (target.span) {
    const std::size_t pos = nth_occurrence(turn.text, *target.span, target.occurrence.value_or(1));
    for (const auto& s : turn.spans)
      if (s.begin == pos && s.end == pos + target.span->size()) g.span = &s;
    if (g.span)
      for (const auto& c : g.span->codes) g.codes.push_back(&c);
  } else {
    for (const auto& c : turn.codes) g.codes.push_back(&c);
  }
  return g;
}

}  // namespace

const Coding* CodingDocument::find_coding(const Turn& turn, const CodingTarget& target, const std::vector<const Coding*>& codes,
                                          const std::string& node, Diagnostics& diags) const {
  const Coding* found = nullptr;
  for (const auto* c : codes)
    if (node_of(resolve_, *c) == node) found = c;
  if (!found)
    diags.error({transcript_file_, turn.line, 1}, "turn t" + std::to_string(turn.number) +
                                                      (target.span ? " (this span)" : "") + " has no code " + node +
                                                      " by " + coder_);
  return found;
}

int CodingDocument::attached_lines(int line, std::vector<int>* memo_lines) const {
  std::string_view all(transcript_text_);
  int last = line;
  while (static_cast<std::size_t>(last) < line_starts_.size()) {
    auto content = text::trim(all.substr(line_start(last + 1), line_start(last + 2) - line_start(last + 1)));
    bool memo = content.rfind("@memo", 0) == 0;
    if (!memo && content.rfind("@exemplar", 0) != 0) break;
    ++last;
    if (memo && memo_lines) memo_lines->push_back(last);
  }
  return last;
}

std::optional<CodingEdit> CodingDocument::checked(CodingEdit edit, const std::vector<std::string>& added,
                                                  const std::vector<std::string>& removed, Diagnostics& diags) const {
  // The current text's parse (errors, coding keys) is kept from the last reparse: only the edited text is parsed.
  std::string copy = edit.codes_file ? codes_text_ : transcript_text_;
  apply_splices(copy, edit.splices);
  Diagnostics after;
  std::optional<StandoffFile> new_standoff;
  auto new_view = edit.codes_file ? parse_view(transcript_text_, copy, &new_standoff, after)
                                  : parse_view(copy, codes_text_, &new_standoff, after);
  Location at{target_file(), 0, 0};
  if (!new_view || after.error_count() > view_errors_) {
    std::string why = "the edited file could not be read";
    for (const auto& d : after.items())
      if (d.severity == Severity::error) {
        why = format_diagnostic(d);
        break;
      }
    diags.error(at, "this edit is refused: it would leave a problem in the file (" + why + ")");
    return std::nullopt;
  }
  auto expected = view_keys_;
  for (const auto& k : removed) {
    auto it = expected.find(k);
    if (it != expected.end()) expected.erase(it);
  }
  for (const auto& k : added) expected.insert(k);
  auto new_keys = coding_keys(*new_view, resolve_);
  if (new_keys != expected) {
    diags.error(at, "this edit is refused: it would change other codings than the ones named (inline markup cannot "
                    "express it here; code a span that does not overlap another)");
    return std::nullopt;
  }
  last_checked_ = std::make_shared<Checked>(Checked{this, revision_, edit.codes_file, edit.splices, std::move(*new_view),
                                                    std::move(new_standoff), after.error_count(), std::move(new_keys)});
  return edit;
}

std::size_t CodingDocument::line_start(int line) const {
  const std::string& text = inline_ ? transcript_text_ : codes_text_;
  if (line < 1) return 0;
  return static_cast<std::size_t>(line) <= line_starts_.size() ? line_starts_[static_cast<std::size_t>(line) - 1] : text.size();
}

TextSplice CodingDocument::insert_lines_after(int after, const std::string& lines) const {
  const std::string& text = inline_ ? transcript_text_ : codes_text_;
  std::size_t at = line_start(after + 1);
  if (at == text.size() && !text.empty() && text.back() != '\n') {
    // The last line has no newline: the new lines go after one, and end without one.
    std::string nl = text.size() >= 1 && inline_ ? view_.newline : std::string("\n");
    return {at, 0, nl + lines.substr(0, lines.size() - nl.size())};
  }
  return {at, 0, lines};
}

TextSplice CodingDocument::erase_lines(int first, int last) const {
  const std::string& text = inline_ ? transcript_text_ : codes_text_;
  std::size_t begin = line_start(first), end = line_start(last + 1);
  if (end == text.size() && (end == 0 || text[end - 1] != '\n') && begin > 0) {
    // Erasing the last line, which has no newline: take the newline before it (what insert_lines_after added).
    std::size_t nl = text[begin - 1] == '\n' && begin >= 2 && text[begin - 2] == '\r' ? 2 : 1;
    begin -= nl;
  }
  return {begin, end - begin, ""};
}

namespace {

std::string key(int turn, const std::optional<std::string>& span, const std::string& node) {
  return "t" + std::to_string(turn) + "|" + span.value_or("") + "|" + node;
}

// Erase ranges for removing the codes at `drop` (indexes into `codes`, sorted by offset) from their list:
// a removed run takes the separator before it, or after it when it starts the list.
std::vector<TextSplice> erase_from_list(const std::vector<const Coding*>& codes, const std::vector<bool>& drop) {
  std::vector<TextSplice> out;
  std::size_t n = codes.size();
  for (std::size_t k = 0; k < n;) {
    if (!drop[k]) {
      ++k;
      continue;
    }
    std::size_t j = k;
    while (j + 1 < n && drop[j + 1]) ++j;
    if (k > 0) {
      std::size_t b = codes[k - 1]->offset + codes[k - 1]->length, e = codes[j]->offset + codes[j]->length;
      out.push_back({b, e - b, ""});
    } else {
      std::size_t b = codes[0]->offset, e = codes[j + 1]->offset;
      out.push_back({b, e - b, ""});
    }
    k = j + 1;
  }
  return out;
}

}  // namespace

std::optional<CodingEdit> CodingDocument::plan_add(const CodingTarget& given, const std::vector<std::string>& nodes,
                                                   const std::string& memo, Diagnostics& diags) const {
  const CodingTarget target = as_written(given);
  const Turn* turn = find_turn(target, diags);
  if (!turn) return std::nullopt;
  if (nodes.empty()) {
    diags.error({transcript_file_, turn->line, 1}, "name at least one node to add");
    return std::nullopt;
  }
  Location at{transcript_file_, turn->line, 1};
  if (inline_) {
    // A @memo or @exemplar line after the turn that follows no code (the loader reports it) would become the
    // new code's: refused, so that it never attaches silently.
    for (int line = turn->end_line + 1; static_cast<std::size_t>(line) <= line_starts_.size(); ++line) {
      std::string_view l = std::string_view(transcript_text_).substr(line_start(line), line_start(line + 1) - line_start(line));
      l = text::trim(l);
      if (l.empty()) continue;
      for (const char* d : {"@memo", "@exemplar"})
        if (l.substr(0, std::strlen(d)) == d && (l.size() == std::strlen(d) || l[std::strlen(d)] == ' ' || l[std::strlen(d)] == '\t')) {
          diags.error({transcript_file_, line, 1},
                      std::string("this ") + d + " line follows no code; coding t" + std::to_string(turn->number) +
                          " would make it the new code's: delete it or write its code above it first");
          return std::nullopt;
        }
      break;
    }
  }
  Group g = group_of(*turn, target);
  for (const auto& n : nodes)
    for (const auto* c : g.codes) {
      if (node_of(resolve_, *c) == n) {
        diags.error(c->where, "turn t" + std::to_string(turn->number) + (target.span ? " (this span)" : "") +
                                  " is already coded " + n + " by " + coder_);
        return std::nullopt;
      }
    }
  std::vector<std::string> added;
  for (const auto& n : nodes) added.push_back(key(turn->number, target.span, n));
  std::string ids = text::join(nodes, ", ");
  CodingEdit edit;
  edit.codes_file = !inline_;
  edit.summary = "added " + ids + " to t" + std::to_string(turn->number) + (target.span ? " \"" + *target.span + "\"" : "") +
                 (target.span && target.occurrence.value_or(1) > 1 ? "#" + std::to_string(*target.occurrence) : "") +
                 " (" + first_words(turn->text) + ")";
  if (target.span && target.span->find('\n') != std::string::npos) {
    diags.error(at, "a span may not cross lines");
    return std::nullopt;
  }
  if (!inline_) {
    const bool repeats = target.span && occurrences(turn->text, *target.span) > 1;
    std::string line = "t" + std::to_string(turn->number) + (target.span ? " " + quote_span(*target.span) : "") +
                       (repeats ? "#" + std::to_string(target.occurrence.value_or(1)) : "") + ": " + ids;
    if (!text::trim(memo).empty()) line += " | memo: " + one_line(memo);
    int last = static_cast<int>(line_starts_.size());
    edit.splices.push_back(insert_lines_after(last, line + "\n"));
    return checked(std::move(edit), added, {}, diags);
  }
  const std::string& nl = view_.newline;
  if (!target.span) {
    std::string lines = "@code " + ids + nl;
    if (!text::trim(memo).empty()) lines += "@memo " + one_line(memo) + nl;
    edit.splices.push_back(insert_lines_after(turn->end_line, lines));
    return checked(std::move(edit), added, {}, diags);
  }
  if (g.span) {  // the same span is coded already: the new ids join its list
    const auto& mk = *g.span->markup;
    std::string add = ", " + ids;
    if (!text::trim(memo).empty()) {
      if (mk.memo_begin != mk.memo_end) {
        diags.error({transcript_file_, g.span->line, 1}, "this span has a memo already; edit that memo instead");
        return std::nullopt;
      }
      if (mk.list_end + 1 != mk.end) {
        edit.splices.push_back({mk.list_end, 0, add});
        edit.splices.push_back({mk.memo_end, 0, " | memo: " + escape_inline(memo)});
        return checked(std::move(edit), added, {}, diags);
      }
      add += " | memo: " + escape_inline(memo);
    }
    edit.splices.push_back({mk.list_end, 0, add});
    return checked(std::move(edit), added, {}, diags);
  }
  std::size_t b = nth_occurrence(turn->text, *target.span, target.occurrence.value_or(1)), e = b + target.span->size();
  for (const auto& s : turn->spans)
    if (b < s.end && s.begin < e) {
      diags.error({transcript_file_, s.line, 1},
                  "the span overlaps the coded span \"" + turn->text.substr(s.begin, s.end - s.begin) +
                      "\"; inline spans do not overlap (code that span, or one beside it)");
      return std::nullopt;
    }
  auto file_offset = [&](std::size_t text_offset) -> std::optional<std::pair<std::size_t, int>> {
    for (const auto& r : turn->runs)
      if (r.text_begin <= text_offset && text_offset < r.text_begin + r.length)
        return std::make_pair(r.file_offset + (text_offset - r.text_begin), r.line);
    return std::nullopt;
  };
  auto fb = file_offset(b), fe = file_offset(e - 1);
  if (!fb || !fe || fb->second != fe->second) {
    diags.error(at, "a span may not cross lines");
    return std::nullopt;
  }
  std::string close = "]{" + ids;
  if (!text::trim(memo).empty()) close += " | memo: " + escape_inline(memo);
  close += "}";
  edit.splices.push_back({fb->first, 0, "["});
  edit.splices.push_back({fe->first + 1, 0, close});
  return checked(std::move(edit), added, {}, diags);
}

std::optional<CodingEdit> CodingDocument::plan_remove(const CodingTarget& given, const std::vector<std::string>& nodes,
                                                      Diagnostics& diags) const {
  const CodingTarget target = as_written(given);
  const Turn* turn = find_turn(target, diags);
  if (!turn) return std::nullopt;
  Group g = group_of(*turn, target);
  // Every coding to drop, grouped by where it is written (a @code line, a span, a .codes line).
  std::map<std::pair<int, std::size_t>, std::vector<const Coding*>> drop;  // (line, group key) -> codings
  std::vector<std::string> removed;
  for (const auto& n : nodes) {
    const Coding* found = find_coding(*turn, target, g.codes, n, diags);
    if (!found) return std::nullopt;
    drop[{found->where.line, g.span && inline_ ? g.span->markup->open : 0}].push_back(found);
    removed.push_back(key(turn->number, target.span, n));
  }
  CodingEdit edit;
  edit.codes_file = !inline_;
  edit.summary = "removed " + text::join(nodes, ", ") + " from t" + std::to_string(turn->number) +
                 (target.span ? " \"" + *target.span + "\"" : "");
  for (const auto& [where, codings] : drop) {
    // All codes written on that line (inline: the @code line or the span's list; .codes: the line).
    std::vector<const Coding*> list;
    const Span* span = g.span && inline_ ? g.span : nullptr;
    if (span) {
      for (const auto& c : span->codes) list.push_back(&c);
    } else {
      for (const auto* c : g.codes)
        if (c->where.line == where.first) list.push_back(c);
    }
    std::sort(list.begin(), list.end(), [](const Coding* a, const Coding* b) { return a->offset < b->offset; });
    std::vector<bool> flags;
    bool all = true;
    for (const auto* c : list) {
      bool d = std::find(codings.begin(), codings.end(), c) != codings.end();
      flags.push_back(d);
      all = all && d;
    }
    if (!all) {
      for (auto& s : erase_from_list(list, flags)) edit.splices.push_back(s);
      if (!span && inline_) {  // `@exemplar ID, ID` lines lose the removed codes (a line left empty goes)
        std::vector<std::string> gone;
        for (const auto* c : codings) gone.push_back(text::fold_case(c->written));
        for (auto& s : exemplar_lines_without(where.first, gone)) edit.splices.push_back(s);
      }
    } else if (span) {  // unwrap the span: its text stays
      edit.splices.push_back({span->markup->open, 1, ""});
      edit.splices.push_back({span->markup->close, span->markup->end - span->markup->close, ""});
    } else if (inline_) {  // the @code line and the @memo/@exemplar lines that belong to it
      edit.splices.push_back(erase_lines(where.first, attached_lines(where.first, nullptr)));
    } else {
      edit.splices.push_back(erase_lines(where.first, where.first));
    }
  }
  std::sort(edit.splices.begin(), edit.splices.end(), [](const TextSplice& a, const TextSplice& b) { return a.offset < b.offset; });
  return checked(std::move(edit), {}, removed, diags);
}

std::vector<TextSplice> CodingDocument::exemplar_lines_without(int code_line, const std::vector<std::string>& gone) const {
  std::vector<TextSplice> out;
  std::string_view all(transcript_text_);
  const int last = attached_lines(code_line, nullptr);
  for (int l = code_line + 1; l <= last; ++l) {
    std::size_t b = line_start(l), e = line_start(l + 1);
    std::string_view content = all.substr(b, e - b);
    std::size_t keep = content.find_last_not_of("\r\n") + 1;
    std::string_view trimmed = text::trim(content.substr(0, keep));
    if (trimmed.rfind("@exemplar", 0) != 0) continue;
    std::string_view list = text::trim(trimmed.substr(9));
    if (list.empty()) continue;  // a bare @exemplar marks whatever codes the line keeps
    std::vector<std::string> kept;
    for (auto& piece : text::split_nonempty(std::string(list), ',')) {
      std::string id(text::trim(piece));
      if (!id.empty() && std::find(gone.begin(), gone.end(), text::fold_case(id)) == gone.end()) kept.push_back(id);
    }
    if (kept.empty()) out.push_back(erase_lines(l, l));
    else out.push_back({b, keep, "@exemplar " + text::join(kept, ", ")});
  }
  return out;
}

const StandoffCoding* CodingDocument::codes_line(int line) const {
  if (!standoff_) return nullptr;
  for (const auto& c : standoff_->codings)
    if (c.line == line) return &c;
  return nullptr;
}

TextSplice CodingDocument::tail_splice(const StandoffCoding& line, bool exemplar, const std::vector<OwnMemo>& own) const {
  std::string_view all(codes_text_);
  std::size_t end = line.line_end, begin = line.list_end;
  while (end > line.list_end && (all[end - 1] == '\n' || all[end - 1] == '\r')) --end;
  while (begin > line.line_begin && (all[begin - 1] == ' ' || all[begin - 1] == '\t')) --begin;
  return {begin, end - begin, code_tail(exemplar, own, all.substr(line.memo_begin, line.memo_end - line.memo_begin))};
}

TextSplice CodingDocument::tail_splice(const SpanMarkup& mk, bool exemplar, const std::vector<OwnMemo>& own) const {
  std::string_view all(transcript_text_);
  std::size_t begin = mk.list_end;
  while (begin > mk.close && (all[begin - 1] == ' ' || all[begin - 1] == '\t')) --begin;
  return {begin, mk.end - begin, code_tail(exemplar, own, all.substr(mk.memo_begin, mk.memo_end - mk.memo_begin)) + "}"};
}

std::optional<CodingEdit> CodingDocument::plan_exemplar(const CodingTarget& given, const std::string& node, bool on,
                                                        Diagnostics& diags) const {
  const CodingTarget target = as_written(given);
  const Turn* turn = find_turn(target, diags);
  if (!turn) return std::nullopt;
  Group g = group_of(*turn, target);
  const Coding* found = find_coding(*turn, target, g.codes, node, diags);
  if (!found) return std::nullopt;
  CodingEdit edit;
  edit.codes_file = !inline_;
  edit.summary = std::string(on ? "picked " : "dropped ") + node + " in t" + std::to_string(turn->number) +
                 (target.span ? " \"" + *target.span + "\"" : "") + (on ? " as an exemplar" : " as an exemplar (its coding stays)");
  if (found->exemplar == on) {
    diags.error({transcript_file_, turn->line, 1}, node + " in t" + std::to_string(turn->number) +
                                                       (on ? " is already an exemplar" : " is not an exemplar"));
    return std::nullopt;
  }
  // A span's or a .codes line's `| exemplar` belongs to all the codes written with it: its tail is written anew.
  if (!inline_) {
    const StandoffCoding* line = codes_line(found->where.line);
    if (!line) return std::nullopt;
    edit.splices.push_back(tail_splice(*line, on, line->own_memos));
    return checked(std::move(edit), {}, {}, diags);
  }
  if (g.span) {
    edit.splices.push_back(tail_splice(*g.span->markup, on, g.span->markup->own_memos));
    return checked(std::move(edit), {}, {}, diags);
  }
  // A @code line: its @exemplar lines follow it.
  const int line = found->where.line;
  std::vector<std::string> on_line;  // the codes written on that @code line
  for (const auto* c : g.codes)
    if (c->where.line == line) on_line.push_back(c->written);
  if (on) {
    edit.splices.push_back(insert_lines_after(attached_lines(line, nullptr),
                                              "@exemplar" + (on_line.size() == 1 ? "" : " " + found->written) + view_.newline));
  } else {
    // Every @exemplar line of the group goes; one naming the codes that stay exemplars takes the first's place.
    std::vector<std::string> stay;
    for (const auto* c : g.codes)
      if (c->where.line == line && c != found && c->exemplar) stay.push_back(c->written);
    std::string_view all(transcript_text_);
    bool first = true;
    for (int l = line + 1, last = attached_lines(line, nullptr); l <= last; ++l) {
      std::size_t b = line_start(l), e = line_start(l + 1);
      std::string_view content = all.substr(b, e - b);
      if (text::trim(content).rfind("@exemplar", 0) != 0) continue;
      std::size_t keep = content.find_last_not_of("\r\n") + 1;
      if (first && !stay.empty()) edit.splices.push_back({b, keep, "@exemplar " + text::join(stay, ", ")});
      else edit.splices.push_back(erase_lines(l, l));
      first = false;
    }
  }
  return checked(std::move(edit), {}, {}, diags);
}

std::optional<CodingEdit> CodingDocument::plan_memo(const CodingTarget& given, const std::string& node,
                                                    const std::string& memo, Diagnostics& diags) const {
  const CodingTarget target = as_written(given);
  const Turn* turn = find_turn(target, diags);
  if (!turn) return std::nullopt;
  Group g = group_of(*turn, target);
  const Coding* found = find_coding(*turn, target, g.codes, node, diags);
  if (!found) return std::nullopt;
  CodingEdit edit;
  edit.codes_file = !inline_;
  edit.summary = "memo of " + node + " in t" + std::to_string(turn->number);
  std::string m = one_line(memo);
  // A memo belongs to one coding: where several codes are written together (a .codes line, a span's list, a
  // @code line), the code gets a memo of its own (`memo ID: TEXT`, `@memo ID: TEXT`) and the others keep theirs.
  std::size_t together = 0;
  for (const auto* c : g.codes)
    if (c->where.line == found->where.line) ++together;
  if (g.span && inline_) together = g.span->codes.size();
  if (!inline_) {
    const StandoffCoding* line = codes_line(found->where.line);
    if (!line) return std::nullopt;
    if (line->codes.size() > 1) {
      edit.splices.push_back(tail_splice(*line, found->exemplar, with_own_memo(line->own_memos, found->written, m)));
      return checked(std::move(edit), {}, {}, diags);
    }
    if (line->has_memo) edit.splices.push_back({line->memo_begin, line->memo_end - line->memo_begin, m});
    else if (!m.empty()) edit.splices.push_back({line->memo_end, 0, " | memo: " + m});
    return checked(std::move(edit), {}, {}, diags);
  }
  if (g.span) {
    const auto& mk = *g.span->markup;
    if (together > 1) {
      edit.splices.push_back(tail_splice(mk, found->exemplar, with_own_memo(mk.own_memos, found->written, m)));
      return checked(std::move(edit), {}, {}, diags);
    }
    if (mk.memo_begin != mk.memo_end) edit.splices.push_back({mk.memo_begin, mk.memo_end - mk.memo_begin, escape_inline(m)});
    else if (!m.empty()) edit.splices.push_back({mk.memo_end, 0, " | memo: " + escape_inline(m)});
    return checked(std::move(edit), {}, {}, diags);
  }
  // A @code line: its @memo lines follow it.
  int line = found->where.line;
  std::vector<int> memo_lines;
  const int last = attached_lines(line, &memo_lines);
  std::string_view all(transcript_text_);
  auto content_of = [&](int l) {
    std::size_t b = line_start(l), e = line_start(l + 1);
    auto content = all.substr(b, e - b);
    return std::make_pair(b, content.substr(0, content.find_last_not_of("\r\n") + 1));
  };
  if (together > 1) {
    // The code's own @memo lines ("@memo ID: ...") are replaced; the shared ones stay for the others.
    std::vector<int> own;
    for (int l : memo_lines) {
      auto body = text::trim(text::trim(content_of(l).second).substr(5));
      auto colon = body.find(':');
      if (colon != std::string_view::npos && text::fold_case(text::trim(body.substr(0, colon))) == text::fold_case(found->written))
        own.push_back(l);
    }
    const std::string line_text = "@memo " + found->written + ": " + m;
    if (own.empty()) {
      if (!m.empty()) edit.splices.push_back(insert_lines_after(last, line_text + view_.newline));
    } else {
      for (std::size_t k = own.size(); k-- > 0;) {
        if (k == 0 && !m.empty()) edit.splices.push_back({content_of(own[0]).first, content_of(own[0]).second.size(), line_text});
        else edit.splices.push_back(erase_lines(own[k], own[k]));
      }
      std::sort(edit.splices.begin(), edit.splices.end(), [](const TextSplice& a, const TextSplice& b) { return a.offset < b.offset; });
    }
    if (edit.splices.empty()) return edit;
    return checked(std::move(edit), {}, {}, diags);
  }
  if (memo_lines.empty()) {
    if (!m.empty()) edit.splices.push_back(insert_lines_after(line, "@memo " + m + view_.newline));
  } else {
    for (std::size_t k = memo_lines.size(); k-- > 0;) {
      if (k == 0 && !m.empty()) {
        auto [b, content] = content_of(memo_lines[0]);
        edit.splices.push_back({b, content.size(), "@memo " + m});
      } else {
        edit.splices.push_back(erase_lines(memo_lines[k], memo_lines[k]));
      }
    }
    std::sort(edit.splices.begin(), edit.splices.end(), [](const TextSplice& a, const TextSplice& b) { return a.offset < b.offset; });
  }
  if (edit.splices.empty()) return edit;
  return checked(std::move(edit), {}, {}, diags);
}

CodingEdit CodingDocument::apply(const CodingEdit& edit) {
  CodingEdit undo;
  undo.codes_file = edit.codes_file;
  undo.summary = edit.summary;
  undo.splices = apply_splices(edit.codes_file ? codes_text_ : transcript_text_, edit.splices);
  auto same = [](const std::vector<TextSplice>& a, const std::vector<TextSplice>& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const TextSplice& x, const TextSplice& y) {
      return x.offset == y.offset && x.erase == y.erase && x.insert == y.insert;
    });
  };
  auto cached = std::move(last_checked_);
  if (cached && cached->owner == this && cached->revision == revision_ && cached->codes_file == edit.codes_file && same(cached->splices, edit.splices)) {
    // The edit checked last on this very text: its parse is the new view.
    view_ = std::move(cached->view);
    if (!inline_) standoff_ = std::move(cached->standoff);
    view_errors_ = cached->errors;
    view_keys_ = std::move(cached->keys);
    line_starts_ = line_starts(inline_ ? transcript_text_ : codes_text_);
  } else {
    Diagnostics ignored;
    reparse(ignored);
  }
  ++revision_;
  return undo;
}

std::vector<std::string> CodingDocument::changed_on_disk() const {
  std::vector<std::string> out;
  if (!files::still_as_read(root_ / transcript_file_, saved_transcript_)) out.push_back(transcript_file_);
  if (!inline_ && !files::still_as_read(root_ / codes_file_, saved_codes_)) out.push_back(codes_file_);
  return out;
}

CodingDocument::SaveResult CodingDocument::save_checked(std::string* error) {
  const bool transcript = transcript_text_ != saved_transcript_;
  const bool codes = codes_text_ != saved_codes_;
  files::WorkspaceLock lock(root_);  // the check and the write as one step against every other qualrank writer
  if (!lock.locked()) {
    if (error) *error = lock.why();
    return SaveResult::failed;
  }
  if (auto changed = changed_on_disk(); !changed.empty()) {
    if (error) *error = text::join(changed, " and ") + " changed on disk since read (by another program or qualrank command); nothing written";
    return SaveResult::changed_on_disk;
  }
  files::StagedFiles staged(root_);  // the transcript and its .codes: both written before either is renamed (journaled)
  if (transcript && !staged.stage(root_ / transcript_file_, transcript_text_, error)) return SaveResult::failed;
  if (codes && !codes_text_.empty() && !staged.stage(root_ / codes_file_, codes_text_, error)) return SaveResult::failed;
  if (!staged.commit(error)) return SaveResult::failed;
  if (transcript) saved_transcript_ = transcript_text_;
  if (codes && codes_text_.empty()) {
    std::error_code ec;
    fs::remove(root_ / codes_file_, ec);
    if (ec) {
      if (error) *error = ec.message();
      return SaveResult::failed;
    }
  }
  if (codes) saved_codes_ = codes_text_;
  return SaveResult::saved;
}

namespace {

// "t3 \"span\" A.1" from a coding key "t3|span|A.1".
std::string key_label(const std::string& key) {
  auto a = key.find('|'), b = key.rfind('|');
  std::string span = key.substr(a + 1, b - a - 1);
  return key.substr(0, a) + (span.empty() ? "" : " \"" + span + "\"") + " " + key.substr(b + 1);
}

// The change a coding key "tN|span|node" names, of `kind`, with `label` as its line.
CodingDocument::Reloaded::Change key_change(const std::string& key, CodingDocument::Reloaded::Change::Kind kind,
                                            std::string label) {
  CodingDocument::Reloaded::Change c;
  auto a = key.find('|'), b = key.rfind('|');
  c.kind = kind;
  c.turn = std::atoi(key.c_str() + 1);
  if (b > a + 1) c.span = key.substr(a + 1, b - a - 1);
  c.node = key.substr(b + 1);
  c.label = std::move(label);
  return c;
}

}  // namespace

std::optional<CodingDocument::Reloaded> CodingDocument::reload(Diagnostics& diags) {
  std::optional<std::string> disk_transcript, disk_codes;
  {
    files::WorkspaceLock lock(root_);
    disk_transcript = files::read_inside(root_, transcript_file_);
    if (!inline_) disk_codes = files::read_inside(root_, codes_file_);
  }
  if (!disk_transcript) {
    diags.error({transcript_file_, 0, 0}, "cannot read the transcript to reload it");
    return std::nullopt;
  }
  if (!disk_codes) disk_codes = std::string();
  // The text this coder edits: base (last read or saved), ours (now), theirs (on disk).
  const std::string& base = inline_ ? saved_transcript_ : saved_codes_;
  const std::string& ours = inline_ ? transcript_text_ : codes_text_;
  const std::string& theirs = inline_ ? *disk_transcript : *disk_codes;
  auto view_of = [&](const std::string& edited, Diagnostics& d) {
    return parse_view(inline_ ? edited : *disk_transcript, inline_ ? "" : edited, nullptr, d);
  };
  Diagnostics their_diags;
  auto their_view = view_of(theirs, their_diags);
  if (!their_view) {
    diags.append(their_diags);
    return std::nullopt;
  }
  // The codings this coder added and removed since the last save (keys "tN|span|node").
  Diagnostics ignored;
  auto base_view = parse_view(saved_transcript_, saved_codes_, nullptr, ignored);
  const std::multiset<std::string> base_keys = base_view ? coding_keys(*base_view, resolve_) : std::multiset<std::string>{};
  const std::multiset<std::string> their_keys = coding_keys(*their_view, resolve_);
  std::set<std::string> added, removed;
  for (const auto& k : view_keys_)
    if (view_keys_.count(k) > base_keys.count(k)) added.insert(k);
  for (const auto& k : base_keys)
    if (base_keys.count(k) > view_keys_.count(k)) removed.insert(k);

  // Re-apply every unsaved hunk that does not overlap theirs. A result with a new problem, or a coding written
  // twice that neither side has twice (both added it), is refused; then only the hunks that each leave the
  // result clean are kept, in file order.
  auto clean = [&](const std::string& t) -> std::optional<Transcript> {
    Diagnostics d;
    auto v = view_of(t, d);
    if (!v || d.error_count() > their_diags.error_count()) return std::nullopt;
    auto keys = coding_keys(*v, resolve_);
    for (auto it = keys.begin(); it != keys.end(); it = keys.upper_bound(*it))
      if (keys.count(*it) > std::max(their_keys.count(*it), view_keys_.count(*it))) return std::nullopt;
    return v;
  };
  Reloaded result;
  std::string merged = theirs;
  std::optional<Transcript> merged_view = their_view;
  if (auto r = text::rebase_lines(base, ours, theirs)) {
    if (auto v = clean(r->text)) {
      merged = r->text, merged_view = std::move(v);
      result.reapplied = static_cast<int>(r->ours.size() - r->skipped.size());
    } else {
      std::vector<std::size_t> keep;
      for (std::size_t i = 0; i < r->ours.size(); ++i) {
        if (std::binary_search(r->skipped.begin(), r->skipped.end(), i)) continue;
        keep.push_back(i);
        auto t = text::rebase_lines(base, ours, theirs, &keep);
        auto tv = t ? clean(t->text) : std::nullopt;
        if (!tv) {
          keep.pop_back();
          continue;
        }
        merged = t->text, merged_view = std::move(tv);
      }
      result.reapplied = static_cast<int>(keep.size());
    }
  }
  // A coding added since the last save must be in the result (re-applied, or already written by the other
  // writer), a coding removed must not be; the others are listed.
  using Kind = Reloaded::Change::Kind;
  auto lost = [&](const std::string& k, Kind kind, std::string label) -> Reloaded::Change& {
    result.not_reapplied.push_back(label);
    result.changes.push_back(key_change(k, kind, std::move(label)));
    return result.changes.back();
  };
  const auto base_notes = base_view ? coding_notes(*base_view, resolve_) : decltype(coding_notes(view_, resolve_)){};
  const auto our_notes = coding_notes(view_, resolve_), got_notes = coding_notes(*merged_view, resolve_);
  const std::multiset<std::string> got = coding_keys(*merged_view, resolve_);
  for (const auto& k : added)
    if (!got.count(k)) {  // with its memo and mark: they went with it
      auto n = our_notes.find(k);
      const std::string memo = n == our_notes.end() ? "" : n->second.first;
      const bool mark = n != our_notes.end() && n->second.second;
      std::string label = key_label(k) + ": your addition";
      if (!memo.empty()) label += " with its memo \"" + memo + "\"";
      if (mark) label += memo.empty() ? " with its exemplar mark" : " and its exemplar mark";
      auto& c = lost(k, Kind::addition, std::move(label));
      c.memo = memo;
      c.exemplar = mark;
    }
  for (const auto& k : removed)
    if (got.count(k) && !(their_keys.count(k) > base_keys.count(k))) lost(k, Kind::removal, key_label(k) + ": your removal");
  // A memo or exemplar mark changed since the last save must be in the result too (or the other writer made the
  // same change); else it is named, with the memo's text, so that nothing typed is lost unseen.
  for (const auto& [k, mine] : our_notes) {
    auto b = base_notes.find(k);
    const std::pair<std::string, bool> before = b == base_notes.end() ? std::make_pair(std::string(), false) : b->second;
    auto g = got_notes.find(k);
    if (mine == before || (g == got_notes.end() && added.count(k))) continue;  // unchanged, or listed above
    if (g == got_notes.end()) {  // the coding is gone from the result (the other writer changed its words)
      if (mine.first != before.first)
        lost(k, Kind::memo, key_label(k) + (mine.first.empty() ? ": your removal of its memo" : ": your memo \"" + mine.first + "\""))
            .memo = mine.first;
      if (mine.second != before.second)
        lost(k, Kind::exemplar, key_label(k) + (mine.second ? ": your exemplar mark" : ": your dropping of its exemplar mark"))
            .exemplar = mine.second;
      continue;
    }
    if (g->second.first != mine.first && mine.first != before.first)
      lost(k, Kind::memo, key_label(k) + (mine.first.empty() ? ": your removal of its memo" : ": your memo \"" + mine.first + "\""))
          .memo = mine.first;
    if (g->second.second != mine.second && mine.second != before.second)
      lost(k, Kind::exemplar, key_label(k) + (mine.second ? ": your exemplar mark" : ": your dropping of its exemplar mark"))
          .exemplar = mine.second;
  }

  saved_transcript_ = *disk_transcript;
  saved_codes_ = inline_ ? codes_text_ : *disk_codes;
  if (inline_) transcript_text_ = std::move(merged);
  else transcript_text_ = *disk_transcript, codes_text_ = std::move(merged);
  last_checked_.reset();
  ++revision_;
  Diagnostics scratch;
  reparse(scratch);
  return result;
}

std::optional<CodingDocument::Reloaded> CodingDocument::restore_unsaved(const std::string& base, const std::string& edited,
                                                                      Diagnostics& diags) {
  std::string& saved = inline_ ? saved_transcript_ : saved_codes_;
  std::string& text = inline_ ? transcript_text_ : codes_text_;
  std::string keep_saved = std::move(saved), keep_text = std::move(text);
  saved = base;
  text = edited;
  last_checked_.reset();
  ++revision_;
  Diagnostics scratch;
  std::optional<Reloaded> r;
  if (reparse(scratch)) r = reload(diags);
  else diags.error({target_file(), 0, 0}, "the unsaved changes kept for recovery cannot be read");
  if (!r) {
    saved = std::move(keep_saved);
    text = std::move(keep_text);
    reparse(scratch);
  }
  return r;
}

}  // namespace qualrank
