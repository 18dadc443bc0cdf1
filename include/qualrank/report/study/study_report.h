// `qualrank report`: validates a workspace and writes every output into one folder:
//   codebook.xlsx, rankings.xlsx, rankings.md, agreement.xlsx (when label tables or multi-coder codings
//   exist), taxonomy-diff.md (first vs latest version, when there is a history), report.json, index.html.
// report.json keys: "qualrank" (version), "workspace" {title, taxonomy, taxonomy_version, guideline,
// transcripts, participants_by_role, segments, coded_segments, taxonomy_nodes}, "taxonomy" (as
// `taxonomy show --format json`, nodes with "added_in"/"provenance" when added after version 1), "rankings"
// (as `rank --model plackett-luce --format json`), "rankings_by_experience" (the same by experience level within the first role,
// or null), "codebook" (as `codebook --format json`), "coded" (what is coded: per code applied, its
// segments, participants per role and exemplar quotes; query_output.h), "agreement" {"labels","transcripts"} (as
// `agreement --format json`, or null), "taxonomy_diff" (as `taxonomy diff --format json`, or null),
// "files" (the files written). The segments themselves are not repeated (`qualrank code --format json`
// prints them; codebook.xlsx holds them).
#pragma once
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "qualrank/util/diagnostics.h"

namespace qualrank {

struct StudyReportOptions {
  std::filesystem::path output_dir;  // absolute or relative to the process
  int resamples = 10000;             // ranking bootstrap
  std::uint64_t seed = 20250101;
  // Whose coding the codebook and "What is coded" count (analysis/coder_selection.h): "consensus" (the
  // default), "all", or a coder's name. Agreement always compares the individual coders.
  std::string coder = "consensus";
  // Called at the start and end of each step: (step, done, seconds so far in the step).
  std::function<void(const std::string& step, bool done, double seconds)> on_step;
};

struct StudyReportSummary {
  std::vector<std::string> files;        // paths written
  std::vector<std::string> headlines;    // one line each: correlations with CI, misaligned items, agreement
  std::string usage_error;               // set (and nothing written) when an option does not fit the workspace
};

// Returns false when the workspace has errors (then nothing is written) or an output cannot be written
// (outputs already renamed into place stay; each file is written atomically, so none is half-written).
bool build_study_report(const std::filesystem::path& workspace, const StudyReportOptions& options, Diagnostics& diags,
                        StudyReportSummary& summary);

}  // namespace qualrank
