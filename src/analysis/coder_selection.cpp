// Whose coding an analysis counts (coder_selection.h).
#include "qualrank/analysis/coder_selection.h"

#include <algorithm>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "qualrank/util/edit_distance.h"
#include "qualrank/util/text.h"

namespace qualrank {

bool is_consensus_coder(const std::string& coder) {
  // Plain ASCII (nearly every name) is compared as it is, without folding a copy: asked once per code, 300,000
  // times on a large study. Other text is folded in full (a long s, U+017F, folds to 's').
  const std::string_view want = kConsensusCoder;
  // A first letter in ASCII other than c or C folds to itself in lower case: not the consensus.
  if (coder.empty() || (static_cast<unsigned char>(coder[0]) < 0x80 && (coder[0] | 0x20) != 'c')) return false;
  if (std::all_of(coder.begin(), coder.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; }))
    return coder.size() == want.size() && text::starts_with_ci(coder, want);
  return text::fold_case(coder) == kConsensusCoder;
}

std::string CodingChoice::describe() const {
  if (selection == "all") return "every coder's codes (" + text::join(coders, ", ") + "), the consensus left out";
  if (selection != kConsensusCoder) return "the codes of coder " + selection + " only";
  std::string out = "consensus coding: " + std::to_string(reconciled.size()) + " transcript(s) reconciled";
  if (!open_units.empty())
    out += " (" + std::to_string(open_units.size()) + " unit(s) still open, counted by the codes all their coders applied: " +
           text::join(open_units, ", ") + ")";
  if (!stale_units.empty())
    out += ", " + std::to_string(stale_units.size()) + " decision(s) stale (made before the coders changed their codings: " +
           text::join(stale_units, ", ") + ")";
  if (!out_of_date.empty())
    out += ", " + std::to_string(out_of_date.size()) + " unit(s) out of date with the coders' files (" + text::join(out_of_date, ", ") + ")";
  if (!unreconciled.empty())
    out += ", " + std::to_string(unreconciled.size()) + " coded by several coders and not reconciled yet (their coders' codes together: " +
           text::join(unreconciled, ", ") + ")";
  if (!ignored.empty())
    out += ", " + std::to_string(ignored.size()) + " consensus file(s) of one-coder transcripts not counted (" + text::join(ignored, ", ") + ")";
  return out;
}

std::vector<std::string> workspace_coders(const Workspace& ws) {
  std::vector<std::string> out;
  std::set<std::string> seen;
  auto note = [&](const std::string& coder) {
    if (!is_consensus_coder(coder) && seen.insert(text::fold_case(coder)).second) out.push_back(coder);
  };
  for (const auto& t : ws.transcripts)
    for (const auto& turn : t.turns) {
      for (const auto& c : turn.codes) note(c.coder);
      for (const auto& s : turn.spans)
        for (const auto& c : s.codes) note(c.coder);
    }
  return out;
}

std::string coder_selection_problem(const Workspace& ws, const std::string& selection) {
  const std::string wanted = text::fold_case(selection);
  if (wanted == "all" || wanted == kConsensusCoder) return "";
  auto coders = workspace_coders(ws);
  for (const auto& c : coders)
    if (text::fold_case(c) == wanted) return "";
  std::string near;
  std::size_t best = 3;
  for (const auto& c : coders) {
    auto d = text::edit_distance_at_most(text::fold_case(c), wanted, 2);
    if (d < best) best = d, near = c;
  }
  return "no coder '" + selection + "' in this workspace" + (near.empty() ? "" : " (did you mean '" + near + "'?)") + "; its coders: " +
         (coders.empty() ? std::string("none") : text::join(coders, ", ")) + " (or consensus, all)";
}

CodingChoice select_coding(std::vector<CodedSegment>& segments, const std::string& selection,
                           const std::vector<ConsensusStatus>& consensus, bool keep_uncoded) {
  CodingChoice out;
  const std::string wanted = text::fold_case(selection);
  out.selection = wanted == "all" || wanted == kConsensusCoder ? wanted : selection;
  // A transcript counts its consensus when its consensus file is not ignored (one-coder transcripts), even when
  // the consensus holds no code at all (every disputed unit decided "neither").
  std::unordered_map<std::string, bool> has_consensus;
  for (const auto& st : consensus) {
    has_consensus[st.transcript] = !st.ignored;
    if (out.selection != kConsensusCoder) continue;
    if (st.ignored) {
      out.ignored.push_back(st.file);
      continue;
    }
    out.open_units.insert(out.open_units.end(), st.open.begin(), st.open.end());
    out.stale_units.insert(out.stale_units.end(), st.stale.begin(), st.stale.end());
    out.out_of_date.insert(out.out_of_date.end(), st.out_of_date.begin(), st.out_of_date.end());
  }
  // Each coder name folded once (a study has a handful of coders and hundreds of thousands of codes).
  struct CoderName {
    bool consensus;
    std::string folded;
  };
  std::unordered_map<std::string, CoderName> names;
  const std::string* last_coder = nullptr;  // codes mostly repeat the last code's coder: no lookup then
  const CoderName* last_name = nullptr;
  auto name = [&](const std::string& coder) -> const CoderName& {
    if (last_coder && *last_coder == coder) return *last_name;
    auto it = names.find(coder);
    if (it == names.end()) it = names.emplace(coder, CoderName{is_consensus_coder(coder), text::fold_case(coder)}).first;
    last_coder = &it->first;
    last_name = &it->second;
    return it->second;
  };
  // Per transcript: does it have a consensus, and how many individual coders. A transcript's segments come one
  // after another: its entries are looked up once per run of them.
  std::unordered_map<std::string, std::set<std::string>> coders_of;
  {
    const FileName* file = nullptr;
    std::set<std::string>* coders = nullptr;
    const std::string* last_added = nullptr;  // the folded name last inserted into `coders`
    for (const auto& s : segments) {
      if (s.codes.empty()) continue;
      if (!file || !(*file == s.source.file)) {
        file = &s.source.file;
        coders = nullptr;
        last_added = nullptr;
      }
      for (const auto& c : s.codes) {
        const CoderName& n = name(c.coder);
        if (n.consensus) {
          continue;
        } else if (last_added != &n.folded) {
          if (!coders) coders = &coders_of[s.source.file];
          coders->insert(n.folded);
          last_added = &n.folded;
        }
      }
    }
  }
  auto keep = [&](bool file_has_consensus, const AppliedCode& c) {
    const CoderName& n = name(c.coder);
    if (out.selection == "all") return !n.consensus;
    if (out.selection != kConsensusCoder) return n.folded == wanted;
    return file_has_consensus ? n.consensus : !n.consensus;
  };
  std::unordered_set<std::string> seen_files;
  // Kept segments are moved down in place (no second array of them), in their order.
  std::size_t kept = 0;
  FileName last_file;  // the previous segment's transcript, and whether it has a consensus
  bool file_has_consensus = false, first = true;
  for (std::size_t i = 0; i < segments.size(); ++i) {
    CodedSegment& s = segments[i];
    const bool had_codes = !s.codes.empty();
    const bool new_file = first || !(last_file == s.source.file);
    if (new_file) {
      const auto consensus_it = has_consensus.find(s.source.file);
      file_has_consensus = consensus_it != has_consensus.end() && consensus_it->second;
      last_file = s.source.file;
      first = false;
    }
    s.codes.erase(std::remove_if(s.codes.begin(), s.codes.end(), [&](const AppliedCode& c) { return !keep(file_has_consensus, c); }),
                  s.codes.end());
    for (const auto& c : s.codes)
      if (!name(c.coder).consensus && std::find(out.coders.begin(), out.coders.end(), c.coder) == out.coders.end())
        out.coders.push_back(c.coder);
    if (out.selection == kConsensusCoder && new_file && seen_files.insert(s.source.file).second) {
      if (file_has_consensus) out.reconciled.push_back(s.source.file);
      else if (auto it = coders_of.find(s.source.file); it != coders_of.end() && it->second.size() > 1)
        out.unreconciled.push_back(s.source.file);
    }
    if (!s.codes.empty() || (keep_uncoded && !had_codes) || (keep_uncoded && !s.suggested.empty())) {
      if (kept != i) segments[kept] = std::move(s);
      ++kept;
    }
  }
  segments.erase(segments.begin() + static_cast<std::ptrdiff_t>(kept), segments.end());
  return out;
}

}  // namespace qualrank
