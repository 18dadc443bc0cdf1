// A qualrank .qdpx carries each transcript and its .codes files as written (qualrank/transcripts/...). When
// what they say is exactly what the project's source says (the same turns and front-matter values, the same
// codings resolved to the same nodes, with the same coders, memos and exemplar marks), an import keeps the
// carried bytes: line numbers, comments and layout survive export -> import, so that the history's provenance
// (`transcripts/X.md:LINE`) still points at the same words. Anything edited in another tool makes them differ,
// and the transcript built from the source is written instead.
#include <algorithm>
#include <sstream>

#include "qualrank/model/transcripts/transcript.h"
#include "qualrank/model/workspace.h"
#include "refi_import_internal.h"

namespace qualrank::refi_import {

namespace {

// What a transcript with its .codes files says, as one comparable string; nullopt when it does not parse
// cleanly or a node does not resolve.
std::optional<std::string> meaning(const std::string& md, const std::string& md_file,
                                   const std::map<std::string, std::string>& codes, const NodeResolver& resolve,
                                   const Guideline* guideline) {
  Diagnostics scratch;
  auto t = parse_transcript(md, md_file, scratch);
  if (!t || scratch.has_errors()) return std::nullopt;
  const std::string stem = md_file.substr(0, md_file.size() - 3);
  for (const auto& [coder, text] : codes) {
    auto s = parse_standoff(text, stem + "." + coder + ".codes", scratch);
    if (!s || scratch.has_errors()) return std::nullopt;
    apply_standoff(*t, *s, scratch);
    if (scratch.has_errors()) return std::nullopt;
  }
  if (guideline) {
    Diagnostics checks;  // what the transcript says about itself is compared, not whether it validates
    complete_attributes(*guideline, *t, checks);
  }
  std::ostringstream out;
  out << t->participant << '\n' << t->role << '\n' << t->coder << '\n';
  for (const auto& label : t->interviewer_labels) out << "I=" << label << '\n';
  for (const auto& [k, v] : t->attributes) out << "A " << k << '=' << v << '\n';
  bool ok = true;
  auto codings = [&](const std::vector<Coding>& list) {
    std::vector<std::string> one;
    for (const auto& c : list) {
      auto r = resolve(c.written);
      if (!r.node) ok = false;
      one.push_back(r.node.value_or("?") + '\x1f' + c.coder + '\x1f' + c.memo + '\x1f' + (c.exemplar ? "x" : ""));
    }
    std::sort(one.begin(), one.end());
    std::string joined;
    for (const auto& s : one) joined += s + '\x1e';
    return joined;
  };
  for (const auto& turn : t->turns) {
    out << "T " << turn.speaker << '\x1f' << turn.interviewer << '\x1f' << turn.section << '\x1f' << turn.text << '\n';
    out << "C " << codings(turn.codes) << '\n';
    std::vector<std::string> spans;
    for (const auto& s : turn.spans) spans.push_back(std::to_string(s.begin) + ':' + std::to_string(s.end) + ' ' + codings(s.codes));
    std::sort(spans.begin(), spans.end());
    for (const auto& s : spans) out << "S " << s << '\n';
  }
  if (!ok) return std::nullopt;
  return out.str();
}

}  // namespace

bool keep_carried_transcript(BuiltTranscript& built, const std::string& md_rel, const refi::Project& project,
                             const NodeResolver& resolve, const Guideline* guideline) {
  auto md = project.carried_transcripts.find(md_rel);
  if (md == project.carried_transcripts.end()) return false;
  // The carried .codes files of this transcript: "<stem>.<coder>.codes" -> coder.
  const std::string prefix = md_rel.substr(0, md_rel.size() - 3) + ".";
  std::map<std::string, std::string> carried_codes;
  for (const auto& [rel, bytes] : project.carried_transcripts)
    if (rel.size() > prefix.size() + 6 && rel.compare(0, prefix.size(), prefix) == 0 && rel.ends_with(".codes"))
      carried_codes[rel.substr(prefix.size(), rel.size() - prefix.size() - 6)] = bytes;
  std::set<std::string> built_coders, carried_coders;
  for (const auto& [coder, text] : built.standoff) built_coders.insert(coder);
  for (const auto& [coder, text] : carried_codes) carried_coders.insert(coder);
  if (built_coders != carried_coders) return false;
  auto said = meaning(md->second, md_rel, carried_codes, resolve, guideline);
  auto source_says = meaning(built.markdown, md_rel, built.standoff, resolve, guideline);
  if (!said || !source_says || *said != *source_says) return false;
  built.markdown = md->second;
  built.standoff = std::move(carried_codes);
  return true;
}

}  // namespace qualrank::refi_import
