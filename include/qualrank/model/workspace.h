// A workspace: the taxonomy (version 1), the guideline, the transcripts (with second coders' standoff
// codings merged in) and the label tables, loaded from the folder layout in docs/formats.md.
#pragma once
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "qualrank/model/transcripts/consensus.h"
#include "qualrank/model/guideline.h"
#include "qualrank/model/taxonomy.h"
#include "qualrank/model/transcripts/transcript.h"
#include "qualrank/util/diagnostics.h"

namespace qualrank {

struct Workspace {
  std::filesystem::path root;
  Taxonomy taxonomy;                 // version 1, as in codebooks/<name>.yaml
  Guideline guideline;
  std::vector<Transcript> transcripts;          // sorted by file name
  std::vector<std::string> label_tables;        // workspace-relative paths of codebooks/labels/*.csv
  std::vector<std::string> standoff_files;      // workspace-relative paths of the transcripts' .codes files read
  std::vector<ConsensusRecord> consensus;       // the header and decision lines of each `<stem>.consensus.codes`
  std::string taxonomy_path;                    // workspace-relative
  std::string history_path;                     // codebooks/<name>.history.yaml (may not exist)

  const Transcript* participant(const std::string& id) const;
  std::filesystem::path path(const std::string& relative) const { return root / relative; }
  // Participant roles in guideline order, then any others in order of appearance.
  std::vector<std::string> roles() const;
  // Distinct values of an attribute: the guideline's order for `role` and the experience attribute,
  // otherwise sorted.
  std::vector<std::string> attribute_levels(const std::string& attribute) const;
};

// Loads the taxonomy and guideline only (what `guide` and `new-transcript` need).
std::optional<Workspace> load_workspace_design(const std::filesystem::path& root, Diagnostics& diags);

// Loads everything and checks what can be checked without a taxonomy version: duplicate participants,
// unknown roles, sections naming questions the guideline lacks or does not ask to the role, @rank outside a
// ranking question, @answer outside a background question, standoff files without a transcript. Node ids
// in codes and rankings are checked by the coding and ranking steps, against the version in use.
// Returns nullopt when the taxonomy or guideline cannot be loaded; otherwise the workspace (check `diags`).
//
// Each transcript is parsed, checked, given its experience level and its second coders' codings (`.codes`)
// on the thread that read it; `options.trim`, when set, is then called on it there. A caller that reads only
// some turns (a query) may drop the text of the others in `trim`, so a large workspace never holds text that
// nobody reads; it must keep every turn, code and line number (codes are still resolved and checked).
struct LoadOptions {
  std::function<void(const Guideline&, Transcript&)> trim;
  // false: the turns' runs (Turn::runs, TranscriptParseOptions::text_runs) are not recorded, except in the
  // transcripts that have `.codes` files (applying them locates their spans by the runs). For a caller that
  // never maps text back to the file (`report`).
  bool text_runs = true;
};
// What load_workspace does to each transcript it parsed, against the guideline: checks its role, sections,
// rankings and answers, gives it a background question's @answer as the attribute it names (when the front
// matter lacks it) and derives the experience level. Problems go to `diags`.
void complete_attributes(const Guideline& guideline, Transcript& t, Diagnostics& diags);

std::optional<Workspace> load_workspace(const std::filesystem::path& root, Diagnostics& diags, const LoadOptions& options = {});

}  // namespace qualrank
