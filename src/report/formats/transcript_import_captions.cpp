// Caption files. WebVTT (W3C WebVTT, the subset captioning tools write): a "WEBVTT" header block, then cue
// blocks separated by blank lines, each an optional identifier line, a timing line "[HH:]MM:SS.mmm -->
// [HH:]MM:SS.mmm [settings]" and payload lines; NOTE, STYLE and REGION blocks are skipped. The speaker comes
// from a voice tag "<v Name>" (Teams) or a "Name:" prefix (Zoom); other tags are dropped and the character
// references &amp; &lt; &gt; &quot; &apos; &nbsp; decoded. SRT: blocks of a cue number, a timing line
// "HH:MM:SS,mmm --> HH:MM:SS,mmm" and text lines, speaker from a "Name:" prefix.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>

#include "qualrank/report/formats/transcript_import.h"
#include "qualrank/util/text.h"

namespace qualrank {

namespace {

struct Line {
  std::string_view text;
  int number;
};

std::vector<Line> split_lines(const std::string& text) {
  std::vector<Line> out;
  std::size_t start = 0;
  int n = 1;
  while (start <= text.size()) {
    auto nl = text.find('\n', start);
    std::string_view l(text.data() + start, (nl == std::string::npos ? text.size() : nl) - start);
    if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
    out.push_back({l, n++});
    if (nl == std::string::npos) break;
    start = nl + 1;
  }
  return out;
}

bool digits(std::string_view s, std::size_t n) {
  if (s.size() != n) return false;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

// "[HH:]MM:SS.mmm" (`sep` before the milliseconds: '.' for WebVTT, ',' for SRT, which also takes '.').
// Returns milliseconds, or -1.
long long parse_time(std::string_view s, bool srt) {
  auto dot = s.find_last_of(srt ? ",." : ".");
  if (dot == std::string_view::npos || !digits(s.substr(dot + 1), 3)) return -1;
  auto parts = text::split(s.substr(0, dot), ':');
  if (parts.size() < 2 || parts.size() > 3) return -1;
  long long h = 0;
  if (parts.size() == 3) {
    if (parts[0].size() < (srt ? 1 : 2) || parts[0].size() > 4) return -1;
    for (char c : parts[0])
      if (!std::isdigit(static_cast<unsigned char>(c))) return -1;
    h = std::stoll(parts[0]);
  } else if (srt) {
    return -1;
  }
  const auto& m = parts[parts.size() - 2];
  const auto& sec = parts.back();
  if (!digits(m, 2) || !digits(sec, 2) || std::stoi(m) > 59 || std::stoi(sec) > 59) return -1;
  return ((h * 60 + std::stoll(m)) * 60 + std::stoll(sec)) * 1000 + std::stoll(std::string(s.substr(dot + 1)));
}

std::string format_time(long long ms) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%02lld:%02lld:%02lld.%03lld", ms / 3600000, ms / 60000 % 60, ms / 1000 % 60, ms % 1000);
  return buf;
}

// Parses a timing line; reports the bad part located. Returns false on error.
bool parse_timing(const Line& l, bool srt, const std::string& file, Diagnostics& diags, std::string& start,
                  std::string& end) {
  auto arrow = l.text.find("-->");
  std::string_view left = text::trim(l.text.substr(0, arrow));
  std::string_view right = text::trim(l.text.substr(arrow + 3));
  std::string_view end_token = right.substr(0, right.find_first_of(" \t"));
  const char* shape = srt ? "HH:MM:SS,mmm" : "[HH:]MM:SS.mmm";
  auto col = [&](std::string_view part) {
    return static_cast<int>(text::count_code_points(l.text.substr(0, static_cast<std::size_t>(part.data() - l.text.data())))) + 1;
  };
  long long a = parse_time(left, srt), b = parse_time(end_token, srt);
  if (a < 0) {
    diags.error({file, l.number, left.empty() ? 1 : col(left)}, "malformed cue start time '" + std::string(left) + "' (expected " + shape + ")");
    return false;
  }
  if (b < 0) {
    diags.error({file, l.number, end_token.empty() ? static_cast<int>(arrow) + 4 : col(end_token)},
                "malformed cue end time '" + std::string(end_token) + "' (expected " + shape + ")");
    return false;
  }
  if (b < a) {
    diags.error({file, l.number, col(end_token)}, "cue ends (" + std::string(end_token) + ") before it starts (" + std::string(left) + ")");
    return false;
  }
  start = format_time(a);
  end = format_time(b);
  return true;
}

std::string decode_entities(std::string s) {
  static const std::pair<const char*, const char*> table[] = {{"&amp;", "&"},  {"&lt;", "<"},      {"&gt;", ">"},
                                                              {"&quot;", "\""}, {"&apos;", "'"},   {"&nbsp;", " "},
                                                              {"&lrm;", ""},    {"&rlm;", ""}};
  for (const auto& [from, to] : table)
    for (std::size_t p = s.find(from); p != std::string::npos; p = s.find(from, p + std::strlen(to)))
      s.replace(p, std::strlen(from), to);
  return s;
}

// One payload line: strips tags, returns the voice of a leading <v ...> tag in `voice`.
std::string strip_tags(std::string_view line, std::string& voice) {
  std::string out;
  for (std::size_t i = 0; i < line.size();) {
    if (line[i] == '<') {
      auto close = line.find('>', i);
      if (close == std::string_view::npos) {
        out.append(line.substr(i));
        break;
      }
      std::string_view tag = line.substr(i + 1, close - i - 1);
      if (!tag.empty() && tag[0] == 'v' && (tag.size() == 1 || tag[1] == ' ' || tag[1] == '.' || tag[1] == '\t')) {
        auto sp = tag.find_first_of(" \t");
        if (sp != std::string_view::npos) voice = std::string(text::trim(tag.substr(sp)));
      }
      i = close + 1;
      continue;
    }
    out += line[i++];
  }
  return decode_entities(out);
}

// Cue payload lines to utterances (a new utterance where a line names another speaker).
void add_cue(const std::vector<Line>& payload, const std::string& start, const std::string& end,
             std::vector<Utterance>& out) {
  std::vector<Utterance> cue;
  for (const auto& l : payload) {
    std::string voice;
    std::string text_ = std::string(text::trim(strip_tags(l.text, voice)));
    if (voice.empty())
      if (auto p = split_speaker_prefix(text_)) {
        voice = p->speaker;
        text_ = p->rest;
      }
    if (cue.empty() || (!voice.empty() && voice != cue.back().speaker)) {
      cue.push_back({voice, text_, start, end, l.number});
      continue;
    }
    if (!text_.empty()) cue.back().text += (cue.back().text.empty() ? "" : " ") + text_;
  }
  for (auto& u : cue)
    if (!u.text.empty()) out.push_back(std::move(u));
}

std::optional<std::vector<Utterance>> read_captions(const std::string& content, const std::string& file,
                                                    Diagnostics& diags, bool srt) {
  auto lines = split_lines(content);
  std::size_t i = 0;
  if (!srt) {
    std::string_view first = lines.front().text;
    if (first.rfind("WEBVTT", 0) != 0 || (first.size() > 6 && first[6] != ' ' && first[6] != '\t')) {
      diags.error({file, 1, 1}, "not a WebVTT file (the first line must be 'WEBVTT')");
      return std::nullopt;
    }
    while (i < lines.size() && !text::trim(lines[i].text).empty()) ++i;  // header block
  }
  std::vector<Utterance> out;
  int errors = diags.error_count();
  while (i < lines.size()) {
    if (text::trim(lines[i].text).empty()) {
      ++i;
      continue;
    }
    std::vector<Line> block;
    while (i < lines.size() && !text::trim(lines[i].text).empty()) block.push_back(lines[i++]);
    std::string_view head = text::trim(block[0].text);
    if (!srt && (head.rfind("NOTE", 0) == 0 || head.rfind("STYLE", 0) == 0 || head.rfind("REGION", 0) == 0) &&
        head.find("-->") == std::string_view::npos)
      continue;
    std::size_t timing = 0;
    if (head.find("-->") == std::string_view::npos) {
      if (srt && !std::all_of(head.begin(), head.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); })) {
        diags.error({file, block[0].number, 1}, "expected a cue number or a timing line 'HH:MM:SS,mmm --> HH:MM:SS,mmm'");
        continue;
      }
      timing = 1;
    }
    if (timing >= block.size() || block[timing].text.find("-->") == std::string_view::npos) {
      int at = timing < block.size() ? block[timing].number : block.back().number + 1;
      diags.error({file, at, 1}, std::string("expected a cue timing line '") +
                                     (srt ? "HH:MM:SS,mmm --> HH:MM:SS,mmm" : "HH:MM:SS.mmm --> HH:MM:SS.mmm") + "'");
      continue;
    }
    std::string start, end;
    if (!parse_timing(block[timing], srt, file, diags, start, end)) continue;
    add_cue(std::vector<Line>(block.begin() + static_cast<long>(timing) + 1, block.end()), start, end, out);
  }
  if (diags.error_count() > errors) return std::nullopt;
  if (out.empty()) {
    diags.error({file, 1, 1}, srt ? "no subtitles with text in the file" : "no cues with text in the file");
    return std::nullopt;
  }
  return out;
}

}  // namespace

std::optional<std::vector<Utterance>> read_webvtt(const std::string& text_, const std::string& file, Diagnostics& diags) {
  return read_captions(text_, file, diags, false);
}

std::optional<std::vector<Utterance>> read_srt(const std::string& text_, const std::string& file, Diagnostics& diags) {
  return read_captions(text_, file, diags, true);
}

}  // namespace qualrank
