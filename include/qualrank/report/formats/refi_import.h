// REFI-QDA import: a project (.qdpx) or codebook (.qdc) from another tool into a workspace. Planning and
// writing are separate: plan_refi_import reads everything, maps codes to taxonomy nodes, builds the files
// and checks them by parsing them back, reporting every problem located; write_refi_import then writes the
// planned files atomically. See docs/refi-qda.md.
#pragma once
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "qualrank/report/formats/refi.h"
#include "qualrank/util/diagnostics.h"

namespace qualrank {

struct RefiImportOptions {
  bool force = false;                         // replace transcripts and codings files that exist
  std::optional<std::filesystem::path> map;   // YAML: other tool's code name or GUID -> node id
  std::string default_role;                   // role of cases without a `role` variable
  std::vector<std::string> interviewers;      // speaker names in the sources that are the interviewer
};

// A difference between an imported codebook and the workspace's taxonomy (a .qdc into a workspace that has
// one): it becomes a proposed taxonomy edit, never a change to the taxonomy file.
struct CodebookDifference {
  enum class Kind { added, renamed, redefined, moved, removed };
  Kind kind = Kind::added;
  std::string node;       // the node (for `added`: the id the new node gets)
  std::string parent;     // added, moved: the (new) parent ("" = a root)
  std::string name;       // added, renamed: the new name
  std::string old_name;   // renamed
  std::string top_level_name;  // added: the taxonomy's name of level 1 (Taxonomy::level_name), for summary()
  refi::DescriptionFields fields;  // added, redefined
  Location where;         // the Code in the codebook (removed: the codebook's root)
  std::string summary() const;     // one line, e.g. "rename A.1 'Install' -> 'Installation'"
};

struct RefiImportPlan {
  std::map<std::string, std::string> files;      // workspace-relative path -> content
  std::string taxonomy_file;                     // set when the import creates the taxonomy
  std::vector<CodebookDifference> differences;   // .qdc into a workspace with a taxonomy
  std::string codebook_copy;                     // where the .qdc is kept as provenance (with differences)
  int transcripts = 0, codings = 0, codes = 0;
  int unmatched = 0;     // codes that map to no node of an existing taxonomy
  int second_codes = 0;  // codes mapped to a node an earlier code maps to
  bool is_codebook = false;  // the input was a .qdc
};

// Plans importing `input` (a .qdpx or .qdc, named `display` in diagnostics) into the workspace at `root`.
// - No taxonomy in the workspace: the project's codebook becomes codebooks/<name>.yaml (name from the
//   guideline's `taxonomy:`, else from the project). With a taxonomy: codes map to nodes by the mapping file,
//   by qualrank's own GUID, by an id prefix in the code name ("A.1.i ..."), or by name or alias.
// - Every source becomes transcripts/<participant>.md (front matter from the case and its variables); codings
//   of the source's own coder are written inline, other coders' in transcripts/<participant>.<coder>.codes.
// Errors (all located): unmapped codes that codings use, unknown GUID references, cases without a role,
// existing transcripts without `force`, files that would not read back as planned. Selections outside their
// source are warnings and left out. Returns nullopt when there are errors.
std::optional<RefiImportPlan> plan_refi_import(const std::filesystem::path& root, const std::filesystem::path& input,
                                               const std::string& display, const RefiImportOptions& options,
                                               Diagnostics& diags);

// Writes the plan's files (files::StagedFiles: all written to temp files, journaled, then renamed into place; creating
// folders). Returns false with `error` set on failure, having changed no file unless a rename failed.
bool write_refi_import(const std::filesystem::path& root, const RefiImportPlan& plan, std::string* error);

// Records the plan's codebook differences as proposed taxonomy edits (model/history/history.h append_proposals) by
// `author`, with the kept copy of the codebook (plan.codebook_copy) and the code's line as provenance; the copy
// may still be only planned (plan.files). A difference already pending as a proposal is not proposed again
// (a note). All or nothing: when the history refuses any proposal, each refusal is reported at its code and
// nothing is appended (nullopt). With `check_only` nothing is appended either way. Returns the new edit ids.
std::optional<std::vector<std::string>> propose_codebook_differences(const std::filesystem::path& root,
                                                                    const RefiImportPlan& plan,
                                                                    const std::string& author, Diagnostics& diags,
                                                                    bool check_only = false);

}  // namespace qualrank
