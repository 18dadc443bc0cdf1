// A study: a loaded, validated workspace at one taxonomy version, with its coded segments and rankings.
// This is what every analysis command starts from.
#pragma once
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "qualrank/analysis/coding.h"
#include "qualrank/analysis/consensus_plan.h"
#include "qualrank/analysis/ranking_input.h"
#include "qualrank/model/findings.h"
#include "qualrank/model/history/versions.h"
#include "qualrank/model/workspace.h"

namespace qualrank {

struct Study {
  Workspace workspace;
  std::unique_ptr<TaxonomyVersion> version;
  std::vector<CodedSegment> segments;
  CodingTally tally;              // segments counted but not built (StudyOptions::coding.suggestions_counted_only)
  std::vector<ParticipantRanking> rankings;
  std::vector<Finding> findings;  // findings.yaml (checked against the codes when every segment is built)
  std::vector<ConsensusStatus> consensus;  // each consensus file checked against its coders (check_consensus)
  const Taxonomy& taxonomy() const { return version->taxonomy; }
};

struct StudyOptions {
  std::optional<std::string> at;   // taxonomy version; nullopt = latest
  CodingOptions coding;
  // When set, called once the taxonomy version is known, before the segments are built; what it returns
  // becomes coding.keep (a query builds only the segments it may list: analysis/suggest/query.h).
  std::function<SegmentFilter(const TaxonomyVersion&, const Workspace&)> segment_filter;
  // Passed to load_workspace (model/workspace.h): a query drops there the text of turns it cannot list.
  LoadOptions load;
  // Whole-turn segments take their turn's text instead of copying it (coded_segments_taking_text): the
  // coded turns of `workspace.transcripts` are left without text. For a caller that reads text only from the
  // segments (`report`: 80 MB less on 2,000 transcripts, and no copy).
  bool segments_take_turn_text = false;
};

// Loads the workspace, materialises the taxonomy version, resolves every code and ranking. All problems are
// reported to `diags`; returns nullptr when the workspace cannot be used at all. The caller decides whether
// errors in `diags` stop it (validate/report do).
std::unique_ptr<Study> load_study(const std::filesystem::path& root, Diagnostics& diags, const StudyOptions& options = {});

}  // namespace qualrank
