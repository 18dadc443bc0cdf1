// A REFI source's plain text as transcript turns, remembering for every turn which code points of the source
// its text came from. When the text uses speaker labels it is read the way the transcript parser reads a body
// (comments, headings, @ lines, turns and continuation lines); other tools' speaker names are mapped: names
// given with --interviewer become `I`, and, in a text that never uses the participant id as a label, a
// "Name:" that starts at least two lines becomes the participant. Without labels, every non-blank line is a
// participant turn.
#include <algorithm>
#include <map>
#include <set>

#include "qualrank/report/formats/transcript_import.h"
#include "qualrank/util/text.h"
#include "refi_import_internal.h"

namespace qualrank::refi_import {

std::string BuiltTurn::text() const {
  std::string t;
  for (const auto& l : lines) {
    if (!t.empty()) t += '\n';
    t += l;
  }
  return t;
}

void BuiltTurn::append(std::string_view line, std::size_t src_cp) {
  std::size_t start = cp_length;
  if (cp_length > 0 && !line.empty()) start += 1;  // the parser joins non-empty text with '\n'
  bool joins = cp_length > 0;
  std::size_t n = text::count_code_points(line);
  if (!line.empty()) {
    pieces.push_back({src_cp, start, n});
    if (joins) ++cp_length;
    cp_length += n;
  }
  lines.emplace_back(line);
  line_cp.push_back(start);
}

SourceLayout lay_out_source(const refi::Source& source, const TranscriptSpec& spec, Diagnostics& diags) {
  const std::string& src = source.text;
  std::vector<std::string> interviewer = spec.interviewer_labels;
  if (interviewer.empty()) interviewer = {"I", "Interviewer"};
  auto is_interviewer = [&](const std::string& l) { return std::find(interviewer.begin(), interviewer.end(), l) != interviewer.end(); };
  std::set<std::string> named_interviewers;
  for (const auto& n : spec.interviewer_names) named_interviewers.insert(text::fold_case(text::trim(n)));
  std::string interviewer_label = is_interviewer("I") ? "I" : interviewer.front();

  struct SrcLine {
    std::string_view raw;
    std::size_t cp;
  };
  SourceLayout layout;
  std::vector<SrcLine> lines;
  for (std::size_t start = 0;;) {
    auto nl = src.find('\n', start);
    std::string_view raw(src.data() + start, (nl == std::string::npos ? src.size() : nl) - start);
    lines.push_back({raw, layout.total_cp});
    layout.total_cp += text::count_code_points(raw) + (nl == std::string::npos ? 0 : 1);
    if (nl == std::string::npos) break;
    start = nl + 1;
  }

  // A known label: "LABEL:" with LABEL the participant id or an interviewer label (as the parser sees it).
  auto known_label = [&](std::string_view s) -> std::optional<std::string> {
    auto colon = s.find(':');
    if (colon == std::string_view::npos || colon == 0) return std::nullopt;
    std::string label(s.substr(0, colon));
    if (label.find_first_of(" \t") != std::string::npos) return std::nullopt;
    if (label == spec.participant || is_interviewer(label)) return label;
    return std::nullopt;
  };
  bool participant_label = false, any_label = false;
  std::map<std::string, int> names;  // other "Name:" prefixes -> lines they start
  for (const auto& l : lines) {
    auto s = text::trim(l.raw);
    if (auto k = known_label(s)) {
      any_label = true;
      participant_label = participant_label || *k == spec.participant;
    } else if (auto p = split_speaker_prefix(s); p && p->timestamp.empty()) {
      ++names[p->speaker];
      if (named_interviewers.count(text::fold_case(p->speaker))) any_label = true;
    }
  }
  if (!any_label) {
    std::vector<std::string> repeated;
    for (const auto& [name, count] : names)
      if (count >= 2) repeated.push_back(name);
    if (!repeated.empty())
      diags.warning({source.text_file, 0, 0}, "source '" + source.name + "': lines start with speaker names (" +
                                                  text::join(repeated, ", ") + ") but none is the interviewer or " +
                                                  spec.participant + "; every line becomes a turn of " + spec.participant +
                                                  " (name the interviewer with --interviewer)");
  }
  std::set<std::string> as_participant;
  if (any_label && !participant_label)
    for (const auto& [name, count] : names)
      if (count >= 2 && !named_interviewers.count(text::fold_case(name))) as_participant.insert(name);
  if (!as_participant.empty())
    diags.note({source.text_file, 0, 0}, "source '" + source.name + "': speaker" + (as_participant.size() > 1 ? "s " : " ") +
                                             text::join({as_participant.begin(), as_participant.end()}, ", ") +
                                             " become" + (as_participant.size() > 1 ? "" : "s") + " participant " + spec.participant);
  // The speaker a line starts, as written in the transcript, and the rest of the line.
  auto speaker_of = [&](std::string_view s, std::string_view& rest) -> std::optional<std::string> {
    if (auto k = known_label(s)) {
      rest = text::trim(s.substr(k->size() + 1));
      return k;
    }
    auto p = split_speaker_prefix(s);
    if (!p || !p->timestamp.empty()) return std::nullopt;
    bool to_interviewer = named_interviewers.count(text::fold_case(p->speaker)) > 0;
    if (!to_interviewer && !as_participant.count(p->speaker)) return std::nullopt;
    auto colon = s.find(':');
    rest = text::trim(s.substr(colon + 1));
    return to_interviewer ? interviewer_label : spec.participant;
  };

  auto& turns = layout.turns;
  auto& out = layout.out;
  int current = -1, next_number = 1;
  bool in_comment = false;
  auto lead_cp = [](std::string_view raw, std::string_view inner) {
    return text::count_code_points(raw.substr(0, static_cast<std::size_t>(inner.data() - raw.data())));
  };
  for (const auto& l : lines) {
    std::string_view s = text::trim(l.raw);
    auto free_line = [&] { out.push_back({std::string(s), -1, 0}); };
    if (any_label && (in_comment || s.rfind("<!--", 0) == 0)) {
      in_comment = s.find("-->") == std::string_view::npos;
      free_line();
      continue;
    }
    if (s.empty()) {
      free_line();
      current = -1;
      continue;
    }
    std::optional<std::string> speaker;
    std::string_view rest = s;
    if (any_label) {
      if (s[0] == '#' || s[0] == '@') {
        free_line();
        current = -1;
        continue;
      }
      speaker = speaker_of(s, rest);
    } else {
      speaker = spec.participant;
    }
    if (speaker) {
      BuiltTurn t;
      t.speaker = *speaker;
      t.interviewer = is_interviewer(*speaker) && *speaker != spec.participant;
      if (!t.interviewer) t.number = next_number++;
      t.append(rest, l.cp + lead_cp(l.raw, rest));
      turns.push_back(std::move(t));
      current = static_cast<int>(turns.size()) - 1;
      out.push_back({"", current, 0});
    } else if (current >= 0) {
      turns[static_cast<std::size_t>(current)].append(s, l.cp + lead_cp(l.raw, s));
      out.push_back({"", current, turns[static_cast<std::size_t>(current)].lines.size() - 1});
    } else {
      free_line();
    }
    if (current >= 0) turns[static_cast<std::size_t>(current)].last_out_line = out.size() - 1;
    if (!any_label) current = -1;
  }
  return layout;
}

}  // namespace qualrank::refi_import
