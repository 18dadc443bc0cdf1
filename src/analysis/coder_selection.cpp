// Whose coding an analysis counts (coder_selection.h).
#include "qualrank/analysis/coder_selection.h"

#include <algorithm>
#include <map>
#include <set>

#include "qualrank/util/text.h"

namespace qualrank {

bool is_consensus_coder(const std::string& coder) { return text::fold_case(coder) == kConsensusCoder; }

std::string CodingChoice::describe() const {
  if (selection == "all") return "every coder's codes (" + text::join(coders, ", ") + "), the consensus left out";
  if (selection != kConsensusCoder) return "the codes of coder " + selection + " only";
  std::string out = "consensus coding: " + std::to_string(reconciled.size()) + " transcript(s) reconciled";
  if (!unreconciled.empty())
    out += ", " + std::to_string(unreconciled.size()) + " coded by several coders and not reconciled yet (their coders' codes together: " +
           text::join(unreconciled, ", ") + ")";
  return out;
}

CodingChoice select_coding(std::vector<CodedSegment>& segments, const std::string& selection, bool keep_uncoded) {
  CodingChoice out;
  const std::string wanted = text::fold_case(selection);
  out.selection = wanted == "all" || wanted == kConsensusCoder ? wanted : selection;
  // Per transcript: does it have a consensus, and how many individual coders.
  std::map<std::string, bool> has_consensus;
  std::map<std::string, std::set<std::string>> coders_of;
  for (const auto& s : segments)
    for (const auto& c : s.codes) {
      if (is_consensus_coder(c.coder)) has_consensus[s.source.file] = true;
      else coders_of[s.source.file].insert(text::fold_case(c.coder));
    }
  auto keep = [&](const CodedSegment& s, const AppliedCode& c) {
    const bool consensus = is_consensus_coder(c.coder);
    if (out.selection == "all") return !consensus;
    if (out.selection != kConsensusCoder) return text::fold_case(c.coder) == wanted;
    return has_consensus[s.source.file] ? consensus : !consensus;
  };
  std::set<std::string> seen_files;
  std::vector<CodedSegment> kept;
  kept.reserve(segments.size());
  for (auto& s : segments) {
    const bool had_codes = !s.codes.empty();
    s.codes.erase(std::remove_if(s.codes.begin(), s.codes.end(), [&](const AppliedCode& c) { return !keep(s, c); }), s.codes.end());
    for (const auto& c : s.codes)
      if (!is_consensus_coder(c.coder) && std::find(out.coders.begin(), out.coders.end(), c.coder) == out.coders.end())
        out.coders.push_back(c.coder);
    if (seen_files.insert(s.source.file).second && out.selection == kConsensusCoder) {
      if (has_consensus[s.source.file]) out.reconciled.push_back(s.source.file);
      else if (coders_of[s.source.file].size() > 1) out.unreconciled.push_back(s.source.file);
    }
    if (!s.codes.empty() || (keep_uncoded && !had_codes) || (keep_uncoded && !s.suggested.empty())) kept.push_back(std::move(s));
  }
  segments = std::move(kept);
  return out;
}

}  // namespace qualrank
