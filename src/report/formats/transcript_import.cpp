// Transcript import, the common part: speaker prefixes, plain text, choosing the reader, and writing the
// workspace transcript. The writer's output is parsed back with the workspace's transcript parser; anything
// it would misread was changed before (and warned about), so the result always parses cleanly.
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "qualrank/model/transcripts/transcript.h"
#include "qualrank/report/formats/transcript_import.h"
#include "qualrank/util/encoding.h"
#include "qualrank/util/files.h"
#include "qualrank/util/text.h"
#include "qualrank/util/yaml_emit.h"

namespace qualrank {

namespace {

bool is_timestamp(std::string_view s) {
  // H:MM, HH:MM:SS, with optional .mmm / ,mmm
  auto dot = s.find_first_of(".,");
  auto main = s.substr(0, dot);
  if (dot != std::string_view::npos) {
    auto frac = s.substr(dot + 1);
    if (frac.empty() || frac.size() > 3 || !std::all_of(frac.begin(), frac.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
      return false;
  }
  auto parts = text::split(main, ':');
  if (parts.size() < 2 || parts.size() > 3) return false;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const auto& p = parts[i];
    if (p.empty() || p.size() > 2 || (i > 0 && p.size() != 2)) return false;
    if (!std::all_of(p.begin(), p.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); })) return false;
  }
  return true;
}

// Lines that would start something else than turn text: directives, headings, comments.
bool misreadable(std::string_view line) {
  auto s = text::trim(line);
  return !s.empty() && (s[0] == '@' || s[0] == '#' || s.rfind("<!--", 0) == 0);
}

}  // namespace

std::optional<SpeakerPrefix> split_speaker_prefix(std::string_view line) {
  SpeakerPrefix out;
  std::string_view s = text::trim(line);
  // An optional timestamp: "[00:01:02]" or "00:01:02" followed by a space.
  if (!s.empty()) {
    bool bracket = s[0] == '[';
    auto stop = bracket ? s.find(']') : s.find_first_of(" \t");
    if (stop != std::string_view::npos) {
      auto stamp = s.substr(bracket ? 1 : 0, bracket ? stop - 1 : stop);
      if (is_timestamp(stamp)) {
        out.timestamp = std::string(stamp);
        s = text::trim(s.substr(stop + 1));
      }
    }
  }
  auto colon = s.find(':');
  if (colon == std::string_view::npos || colon == 0) return std::nullopt;
  if (colon + 1 < s.size() && s[colon + 1] != ' ' && s[colon + 1] != '\t') return std::nullopt;
  std::string_view name = text::trim(s.substr(0, colon));
  unsigned char first = name.empty() ? 0 : static_cast<unsigned char>(name[0]);
  if (name.empty() || !(std::isalpha(first) || first >= 0x80) || text::count_code_points(name) > 40) return std::nullopt;
  auto words = text::split_nonempty(name, ' ');
  if (words.size() > 4 || name.find_first_of("\"[]{}<>@#") != std::string_view::npos) return std::nullopt;
  if (words.size() > 1)  // "Sam Lee:", "Participant 3:", not "It was like this:"
    for (const auto& w : words) {
      unsigned char c = static_cast<unsigned char>(w[0]);
      if (!(std::isupper(c) || std::isdigit(c) || c >= 0x80)) return std::nullopt;
    }
  out.speaker = std::string(name);
  out.rest = std::string(text::trim(s.substr(colon + 1)));
  return out;
}

std::optional<std::vector<Utterance>> read_plain_text(const std::string& content, const std::string& file, Diagnostics& diags) {
  std::vector<Utterance> out;
  bool in_paragraph = false;
  int n = 0;
  std::size_t start = 0;
  while (start <= content.size()) {
    auto nl = content.find('\n', start);
    std::string_view raw(content.data() + start, (nl == std::string::npos ? content.size() : nl) - start);
    start = nl == std::string::npos ? content.size() + 1 : nl + 1;
    ++n;
    auto s = text::trim(raw);
    if (s.empty()) {
      in_paragraph = false;
      continue;
    }
    if (auto p = split_speaker_prefix(s)) {
      out.push_back({p->speaker, p->rest, p->timestamp, "", n});
    } else if (in_paragraph) {
      auto& t = out.back().text;
      if (!t.empty()) t += '\n';
      t.append(s);
    } else {
      out.push_back({"", std::string(s), "", "", n});
    }
    in_paragraph = true;
  }
  if (out.empty()) {
    diags.error({file, 1, 1}, "no text in the file");
    return std::nullopt;
  }
  return out;
}

std::optional<std::vector<Utterance>> read_transcript_source(const std::filesystem::path& path, const std::string& file,
                                                             Diagnostics& diags) {
  auto ext = text::to_lower_ascii(path.extension().string());
  if (ext != ".vtt" && ext != ".srt" && ext != ".docx" && ext != ".txt") {
    diags.error({file, 0, 0}, "unknown transcript format '" + ext + "' (expected .vtt, .srt, .docx or .txt)");
    return std::nullopt;
  }
  std::error_code ec;
  if (!std::filesystem::exists(std::filesystem::symlink_status(path, ec))) {
    diags.error({file, 0, 0}, "no such file");
    return std::nullopt;
  }
  // Anything but a regular file within the limit is said as what it is (the read policy, files::open_input).
  std::string why;
  const int fd = files::open_input(path, ext == ".docx" ? files::kArchiveInput : files::kTranscriptInput, &why);
  if (fd < 0) {
    diags.error({file, 0, 0}, why);
    return std::nullopt;
  }
  ::close(fd);
  if (std::filesystem::file_size(path, ec) == 0) {
    diags.error({file, 1, 1}, "the file is empty");
    return std::nullopt;
  }
  if (ext == ".docx") return read_docx(path, file, diags);
  auto bytes = files::read_input(path, files::kTranscriptInput, &why);
  if (!bytes) {
    diags.error({file, 0, 0}, why);
    return std::nullopt;
  }
  auto text_ = encoding::decode_to_utf8(*bytes, file, diags);
  if (!text_) return std::nullopt;
  if (text::trim(*text_).empty()) {
    diags.error({file, 1, 1}, "the file holds only white space");
    return std::nullopt;
  }
  if (ext == ".vtt") return read_webvtt(*text_, file, diags);
  if (ext == ".srt") return read_srt(*text_, file, diags);
  return read_plain_text(*text_, file, diags);
}

std::string write_imported_transcript(const std::vector<Utterance>& utterances, const TranscriptImportOptions& options,
                                      const std::string& file, Diagnostics& diags) {
  // The notation's own interviewer labels are always the interviewer; --interviewer names more.
  std::set<std::string> interviewers = {text::fold_case("Interviewer"), text::fold_case("I")};
  for (const auto& name : options.interviewers) interviewers.insert(text::fold_case(text::trim(name)));
  bool any_speaker = std::any_of(utterances.begin(), utterances.end(), [](const Utterance& u) { return !u.speaker.empty(); });
  if (!any_speaker)
    diags.warning({file, 0, 0}, "no speaker names found; every " + std::string(utterances.front().start.empty() ? "paragraph" : "cue") +
                                    " becomes a turn of " + options.participant);

  struct OutTurn {
    std::string label, speaker, start, end;
    std::vector<std::string> lines;
  };
  std::vector<OutTurn> turns;
  std::vector<std::string> preamble;
  std::map<std::string, int> participant_speakers;  // speaker -> first line
  std::set<std::string> spoke;
  bool changed_markup = false;
  std::vector<int> joined;  // lines starting with '@', '#' or '<!--' joined to the line before
  for (const auto& u : utterances) {
    std::string text_ = u.text;
    if (text_.find_first_of("[]{}\\|") != std::string::npos) {  // markup characters stay text: escaped
      std::string escaped;
      for (char c : text_) {
        if (c == '[' || c == ']' || c == '{' || c == '}' || c == '\\' || c == '|') escaped += '\\';
        escaped += c;
      }
      text_ = std::move(escaped);
      changed_markup = true;
    }
    if (u.speaker.empty() && any_speaker && turns.empty()) {  // text before the first speaker
      for (const auto& l : text::split(text_, '\n')) preamble.push_back(misreadable(l) ? "> " + l : l);
      continue;
    }
    std::string speaker = u.speaker.empty() && any_speaker ? turns.back().speaker : u.speaker;
    bool interviewer = !speaker.empty() && interviewers.count(text::fold_case(speaker));
    if (!speaker.empty() && spoke.insert(text::fold_case(speaker)).second && spoke.size() > kMaxImportSpeakers) {
      diags.error({file, u.line, 1}, "more than " + std::to_string(kMaxImportSpeakers) +
                                         " speakers (the limit on speakers of an imported transcript)");
      return {};
    }
    if (!interviewer && !speaker.empty()) participant_speakers.emplace(speaker, u.line);
    std::string label = interviewer ? "I" : options.participant;
    bool merge = any_speaker && !turns.empty() && turns.back().speaker == speaker;
    if (!merge) turns.push_back({label, speaker, u.start, u.end, {}});
    auto& t = turns.back();
    if (!u.end.empty()) t.end = u.end;
    bool captions = !u.start.empty() && !u.end.empty();
    for (const auto& l : text::split(text_, '\n')) {
      if (l.empty()) continue;
      if (t.lines.empty() || (!captions && !misreadable(l))) {
        t.lines.push_back(l);
      } else {
        if (!captions) joined.push_back(u.line);
        t.lines.back() += " " + l;
      }
    }
  }
  if (changed_markup) diags.warning({file, 0, 0}, "brackets, braces, '|' and '\\' in the text were escaped (\\[ ...) so that they read as text, not as codes");
  for (int line : joined)
    diags.warning({file, line, 0}, "a line of this text starts with '@', '#' or '<!--', which would read as transcript markup; "
                                   "it is joined to the line before");
  if (participant_speakers.size() > 1) {
    std::vector<std::string> names;
    for (const auto& [name, line] : participant_speakers) names.push_back(name);
    diags.warning({file, 0, 0}, "speakers " + text::join(names, ", ") + " all become participant " + options.participant +
                                    (options.interviewers.empty() ? " (name the interviewer with --interviewer)" : ""));
  }
  for (const auto& name : options.interviewers)
    if (!spoke.count(text::fold_case(text::trim(name))))
      diags.warning({file, 0, 0}, "--interviewer '" + name + "' names no speaker of the file");

  std::string md = "---\nparticipant: " + yaml::quote(options.participant) + "\nrole: " + yaml::quote(options.role) +
                   "\ninterviewer: I\n";
  if (!options.attributes.empty()) {
    md += "attributes:\n";
    for (const auto& [k, v] : options.attributes) md += "  " + yaml::quote(k) + ": " + yaml::quote(v) + "\n";
  }
  md += "---\n";
  if (!options.source_name.empty()) md += "<!-- imported from " + options.source_name + " by qualrank import-transcript -->\n";
  for (const auto& l : preamble) md += "\n" + l;
  if (!preamble.empty()) md += "\n";
  if (!options.section.empty()) md += "\n## " + options.section + "\n";
  for (const auto& t : turns) {
    md += "\n";
    if (!t.start.empty()) md += "<!-- " + t.start + (t.end.empty() ? "" : " - " + t.end) + " -->\n";
    md += t.label + ": " + (t.lines.empty() ? "" : t.lines.front()) + "\n";
    for (std::size_t k = 1; k < t.lines.size(); ++k) md += t.lines[k] + "\n";
  }
  return md;
}

}  // namespace qualrank
