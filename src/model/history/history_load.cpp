// Loading the history of a workspace, and checking provenance: every source must stay inside the workspace
// (files::resolve_inside); a source in a transcript must name a line of a turn by the participant named.
#include <algorithm>

#include "history_internal.h"
#include "qualrank/model/history/history.h"
#include "qualrank/util/files.h"
#include "qualrank/util/text.h"

namespace qualrank {

namespace history_detail {

std::string provenance_problem(const std::filesystem::path& root, const Provenance& p, bool& outside,
                               SourceCache& cache) {
  outside = false;
  if (p.file.empty()) return "";
  auto path = files::resolve_inside(root, p.file);
  if (!path) {
    outside = true;
    return "source '" + p.source + "' is outside the workspace";
  }
  auto it = cache.find(p.file);
  if (it == cache.end()) {
    SourceFile f;
    if (auto content = files::read_input(*path, files::kTranscriptInput)) {
      f.exists = true;
      f.lines = static_cast<int>(std::count(content->begin(), content->end(), '\n')) +
                (content->empty() || content->back() == '\n' ? 0 : 1);
      Diagnostics scratch;
      if (p.file.size() > 3 && p.file.compare(p.file.size() - 3, 3, ".md") == 0)
        f.transcript = parse_transcript(*content, p.file, scratch);
    }
    it = cache.emplace(p.file, std::move(f)).first;
  }
  const SourceFile& f = it->second;
  if (!f.exists) return "source file '" + p.file + "' does not exist";
  if (p.line > f.lines) return "source '" + p.source + "' is past the end of the file (" + std::to_string(f.lines) + " lines)";
  if (!f.transcript || f.transcript->participant.empty()) return "";  // not a transcript: nothing more to check
  const Transcript& t = *f.transcript;
  if (!p.participant.empty() && p.participant != t.participant)
    return "participant '" + p.participant + "' is not the participant of " + p.file + " ('" + t.participant + "')";
  const Turn* turn = nullptr;
  for (const auto& candidate : t.turns)
    if (candidate.line <= p.line) turn = &candidate;
  if (!turn) return "source '" + p.source + "' is before the first turn of the transcript";
  int last = turn->line + static_cast<int>(std::count(turn->text.begin(), turn->text.end(), '\n'));
  if (turn->interviewer || p.line > last)
    return "source '" + p.source + "' is not in a turn of " + t.participant + " (the turn before it starts at line " +
           std::to_string(turn->line) + ")";
  return "";
}

namespace {

const Turn* turn_at(const Transcript& t, int line) {
  const Turn* turn = nullptr;
  for (const auto& candidate : t.turns)
    if (candidate.line <= line) turn = &candidate;
  return turn && !turn->interviewer && line <= turn->text_end_line ? turn : nullptr;
}

}  // namespace

std::string quote_at(const SourceFile& f, int line) {
  if (!f.transcript) return "";
  const Turn* turn = turn_at(*f.transcript, line);
  if (!turn) return "";
  std::size_t begin = 0;
  while (begin <= turn->text.size()) {
    auto end = std::min(turn->text.find('\n', begin), turn->text.size());
    if (end > begin && turn->line_of(begin) == line) {
      std::string quote(text::trim(std::string_view(turn->text).substr(begin, end - begin)));
      if (quote.size() > 200) {
        std::size_t cut = 200;
        while (cut > 0 && (static_cast<unsigned char>(quote[cut]) & 0xC0) == 0x80) --cut;  // not inside a character
        quote.resize(cut);
      }
      return quote;
    }
    begin = end + 1;
  }
  return "";
}

std::optional<int> moved_quote(const Provenance& p, const SourceFile& f, int& count) {
  count = 0;
  if (p.quote.empty() || !f.transcript) return std::nullopt;
  const Turn* here = turn_at(*f.transcript, p.line);
  if (here && here->text.find(p.quote) != std::string::npos) return std::nullopt;
  int line = 0;
  for (const auto& turn : f.transcript->turns) {
    if (turn.interviewer) continue;
    for (auto pos = turn.text.find(p.quote); pos != std::string::npos; pos = turn.text.find(p.quote, pos + 1)) {
      ++count;
      line = turn.line_of(pos);
    }
  }
  return line;
}

}  // namespace history_detail

std::optional<TaxonomyHistory> load_history(const Workspace& ws, Diagnostics& diags) {
  auto path = ws.path(ws.history_path);
  std::error_code ec;
  const bool symlink = std::filesystem::is_symlink(std::filesystem::symlink_status(path, ec));
  if (!files::exists(path) && !symlink) {
    TaxonomyHistory h;
    h.file = ws.history_path;
    h.taxonomy = ws.taxonomy.name;
    h.versions.push_back({1, "", {}});
    return h;
  }
  // Never through a symlink (README, "Safety and limits"): not opened at all, and O_NOFOLLOW besides.
  if (symlink) {
    diags.error({ws.history_path, 0, 0}, kHistorySymlinkMessage);
    return std::nullopt;
  }
  std::string why;
  auto content = files::read_input(path, files::kYamlInput, &why, files::Links::refuse);
  if (!content) {
    diags.error({ws.history_path, 0, 0}, why);
    return std::nullopt;
  }
  int errors_before = diags.error_count();
  auto h = parse_history(*content, ws.history_path, diags);
  if (!h) return std::nullopt;
  if (h->taxonomy != ws.taxonomy.name)
    diags.error({ws.history_path, 1, 1}, "the history is of taxonomy '" + h->taxonomy + "', but " + ws.taxonomy_path +
                                             " is '" + ws.taxonomy.name + "'");
  history_detail::SourceCache cache;
  for (auto& e : h->edits) {
    for (auto& p : e.provenance) {
      bool outside = false;
      auto problem = history_detail::provenance_problem(ws.root, p, outside, cache);
      int count = 0;
      // A quoted source whose turn no longer holds the quote (the transcript was edited above it) follows
      // the quote when the participant's turns hold it once; the history file itself is never rewritten.
      if (auto moved = outside ? std::nullopt : history_detail::moved_quote(p, cache[p.file], count)) {
        std::string quoted = p.quote;
        if (quoted.size() > 60) {
          std::size_t cut = 57;
          while (cut > 0 && (static_cast<unsigned char>(quoted[cut]) & 0xC0) == 0x80) --cut;  // not inside a character
          quoted = quoted.substr(0, cut) + "...";
        }
        if (count != 1) {
          diags.warning(p.where, e.id + ": source '" + p.source + "' no longer points into the turn it quoted (\"" + quoted +
                                     "\"), and " + p.file + " holds the quote " +
                                     (count == 0 ? std::string("nowhere") : std::to_string(count) + " times") +
                                     "; correct the line in a new proposal");
          continue;
        }
        std::string was = p.source;
        p.line = *moved;
        p.source = p.file + ":" + std::to_string(p.line);
        diags.note(p.where, e.id + ": source '" + was + "' re-anchored to " + p.source + " by its quote (\"" + quoted + "\")");
        problem = history_detail::provenance_problem(ws.root, p, outside, cache);
      }
      if (problem.empty()) continue;
      if (outside) diags.error(p.where, e.id + ": " + problem);
      else diags.warning(p.where, e.id + ": " + problem);
    }
  }
  if (diags.error_count() > errors_before) return std::nullopt;
  return h;
}

}  // namespace qualrank
