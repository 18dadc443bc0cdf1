// Transcript import: caption files (WebVTT, SRT), Word documents (.docx) and plain text turned into a
// workspace transcript (docs/formats.md) with front matter, ready for coding. Readers produce utterances
// (a cue, a paragraph) with the speaker as written; the writer maps speakers to the interviewer label `I`
// or the participant id, merges consecutive utterances of one speaker into one turn and keeps timestamps
// as a comment line before the turn. See docs/refi-qda.md ("Transcript import").
#pragma once
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "qualrank/util/diagnostics.h"

namespace qualrank {

struct Utterance {
  std::string speaker;      // as written; "" when the input names none
  std::string text;         // lines joined with '\n' (paragraph inputs) or ' ' (captions)
  std::string start, end;   // timestamps "HH:MM:SS.mmm" when the input has them, else ""
  int line = 0;             // where it starts (docx: the paragraph number)
};

// "Name: text", optionally after a timestamp ("[00:01:02] Name: text", "00:01:02 Name: text"). The name is
// 1-40 characters, starts with a letter, is one word or at most four capitalised words ("Sam Lee",
// "Participant 3"), and is followed by ": " or the end of the line.
struct SpeakerPrefix {
  std::string speaker, timestamp, rest;
};
std::optional<SpeakerPrefix> split_speaker_prefix(std::string_view line);

// Readers. `text` is UTF-8 without a byte-order mark. Each reports located errors (malformed cue timings,
// a missing WEBVTT header, a cue without a timing line, nothing to import) and returns nullopt when the
// input cannot be used.
std::optional<std::vector<Utterance>> read_webvtt(const std::string& text, const std::string& file, Diagnostics& diags);
std::optional<std::vector<Utterance>> read_srt(const std::string& text, const std::string& file, Diagnostics& diags);
std::optional<std::vector<Utterance>> read_plain_text(const std::string& text, const std::string& file, Diagnostics& diags);
// word/document.xml of a .docx: one utterance per paragraph (speaker from a "Name:" prefix).
std::optional<std::vector<Utterance>> read_docx(const std::filesystem::path& path, const std::string& file,
                                                Diagnostics& diags);

// Reads `path` by its extension (.vtt, .srt, .docx, .txt): an empty file, an unknown extension, text that is
// not UTF-8 (UTF-16 with a byte-order mark is converted) are located errors.
std::optional<std::vector<Utterance>> read_transcript_source(const std::filesystem::path& path, const std::string& file,
                                                             Diagnostics& diags);

struct TranscriptImportOptions {
  std::string participant, role;
  std::vector<std::pair<std::string, std::string>> attributes;
  std::vector<std::string> interviewers;  // more speaker names (case-insensitive) that become `I`
  std::string section;                    // a guideline question id for a "## ID" heading; "" = no section
  std::string source_name;                // named in the comment at the top
};

// Distinct speakers (case-insensitive) of one imported transcript, at most: an interview has a few.
inline constexpr std::size_t kMaxImportSpeakers = 100;

// The transcript text. Speakers named `Interviewer` or `I` (the notation's labels) and those named in
// `interviewers` (case-insensitive) become `I`, every other speaker the participant;
// utterances without a speaker continue the previous speaker's turn (or, when the input names no speaker
// at all, each becomes a participant turn). Warns (located in `file`) when several speakers become the
// participant, when an --interviewer name never speaks, and when text had to be changed so it does not
// read as transcript markup ("]{" becomes "] {"; lines starting with '@' or '#' inside a turn are joined).
// More than kMaxImportSpeakers distinct speakers is an error at the first line of the one past it; "" is
// returned then.
std::string write_imported_transcript(const std::vector<Utterance>& utterances, const TranscriptImportOptions& options,
                                      const std::string& file, Diagnostics& diags);

}  // namespace qualrank
