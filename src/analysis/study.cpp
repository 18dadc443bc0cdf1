#include "qualrank/analysis/study.h"

namespace qualrank {

std::unique_ptr<Study> load_study(const std::filesystem::path& root, Diagnostics& diags, const StudyOptions& options) {
  auto ws = load_workspace(root, diags, options.load);
  if (!ws) return nullptr;
  auto study = std::make_unique<Study>();
  study->workspace = std::move(*ws);
  study->version = taxonomy_at(study->workspace, options.at, diags);
  if (!study->version) return nullptr;
  migrate_guideline(study->workspace.guideline, *study->version, diags);  // item sets at the version in use
  CodingOptions coding = options.coding;
  if (options.segment_filter) coding.keep = options.segment_filter(*study->version, study->workspace);
  study->segments = coded_segments(study->workspace, study->version->taxonomy, study->version->resolve, diags, coding);
  study->rankings = collect_rankings(study->workspace, study->version->resolve, diags);
  return study;
}

}  // namespace qualrank
