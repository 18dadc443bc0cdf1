#include "qualrank/analysis/study.h"

#include "qualrank/analysis/findings.h"

namespace qualrank {

std::unique_ptr<Study> load_study(const std::filesystem::path& root, Diagnostics& diags, const StudyOptions& options) {
  auto ws = load_workspace(root, diags, options.load);
  if (!ws) return nullptr;
  auto study = std::make_unique<Study>();
  study->workspace = std::move(*ws);
  study->version = taxonomy_at(study->workspace, options.at, diags);
  if (!study->version) return nullptr;
  migrate_guideline(study->workspace.guideline, *study->version, diags);  // item sets at the version in use
  // Before the segments are built: they may take the turns' text, which the consensus check reads.
  study->consensus = check_consensus(study->workspace, study->version->taxonomy, study->version->resolve, diags);
  CodingOptions coding = options.coding;
  if (options.segment_filter) coding.keep = options.segment_filter(*study->version, study->workspace);
  study->segments = options.segments_take_turn_text
                        ? coded_segments_taking_text(study->workspace, study->version->taxonomy, study->version->resolve,
                                                     diags, coding, &study->tally)
                        : coded_segments(study->workspace, study->version->taxonomy, study->version->resolve, diags,
                                         coding, &study->tally);
  study->rankings = collect_rankings(study->workspace, study->version->resolve, diags);
  study->findings = load_findings(root, diags);
  if (!options.segment_filter)  // a query builds only some segments: "no segment is coded" would be wrong there
    check_findings(study->findings, study->version->taxonomy, study->version->resolve, study->segments, diags);
  return study;
}

}  // namespace qualrank
