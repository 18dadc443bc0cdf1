// A new workspace (`qualrank init`): the files of a small, valid starter study to edit into one's own.
#pragma once
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace qualrank {

struct StarterOptions {
  std::string taxonomy = "study";                        // codebooks/<taxonomy>.yaml
  std::vector<std::string> roles{"group-a", "group-b"};  // the guideline's roles, in order
  bool stage_one = false;  // a study of issue reports alone: no guideline, a keywords file instead
};

// Problems with the options, as messages ("role 'a b' may contain only letters, digits, '-' and '_'");
// empty when they can be used. Names are ASCII letters, digits, '-' and '_', starting with a letter or digit;
// roles are distinct and at least one.
std::vector<std::string> check_starter_options(const StarterOptions& options);

// The starter workspace as workspace-relative path -> content: codebooks/<taxonomy>.yaml (a two-level
// taxonomy with example nodes), guidelines/<taxonomy>-interview.yaml (a background part with a years
// question binned into experience levels, one open and one ranking question per role), transcripts/.keep
// and NEXT-STEPS.md (what to edit next). With stage_one: codebooks/<taxonomy>.yaml, corpus/keywords.yaml (no
// list yet: every source taken whole) and NEXT-STEPS.md for a study of issue reports; no guideline (a
// workspace without guideline and transcripts is a stage-one study: model/workspace.h). The same options give
// the same bytes. Requires valid options.
std::map<std::string, std::string> starter_workspace(const StarterOptions& options);

// What stands in the way of writing `files` into `root`: each of them that exists already, and any
// taxonomy or guideline file already in codebooks/ or guidelines/ (a workspace has exactly one of each).
// Workspace-relative paths, sorted; empty when init may write.
std::vector<std::string> init_conflicts(const std::filesystem::path& root, const std::map<std::string, std::string>& files);

// Creates `root` and the folders, then writes every file atomically (temp file + rename). Returns false with
// `error` set when a folder or file cannot be written; files written before the failure are removed.
bool write_starter_workspace(const std::filesystem::path& root, const std::map<std::string, std::string>& files,
                             std::string* error);

}  // namespace qualrank
