// `qualrank status`: per step of a study, whether its derived file is up to date with what it was made from,
// stale (and why), or incomplete (work left: documents nobody screened, units a coder has not labelled, open
// disagreements), with the command that brings it forward. Read-only; every check is the one the step's own
// readers make (analysis/corpus/corpus_provenance.h), so status and the commands never disagree. docs/status.md.
#pragma once
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "qualrank/model/node_resolver.h"
#include "qualrank/model/taxonomy.h"
#include "qualrank/util/diagnostics.h"

namespace qualrank {

enum class StepState { up_to_date, stale, incomplete };

struct StepStatus {
  std::string step;                // "retrieval", "sample pilot", "labels pilot", ...
  StepState state = StepState::up_to_date;
  std::string summary;             // what is there ("3 sources, 2,345 documents")
  std::vector<std::string> why;    // stale or incomplete: one sentence each
  std::string next;                // the command to run next ("" when up to date)
  // Records a reason: stale outranks incomplete, and a stale reason's command becomes the next one.
  void mark(StepState new_state, std::string reason, std::string command);
};

struct StudyStatus {
  std::vector<StepStatus> steps;   // in the study's order; a step the workspace has not begun is not listed
  bool up_to_date() const;
};

// The stage-one steps of the workspace's corpus (none when it has no corpus/manifest.json): sources,
// retrieval, screening, then per sample its draw, labels, decisions and label table. `taxonomy`/`resolve` read
// the labels (null: the label steps say the taxonomy could not be read).
std::vector<StepStatus> corpus_status(const std::filesystem::path& workspace, const Taxonomy* taxonomy,
                                      const NodeResolver* resolve);

// The report in reports/ (the default output folder): stale when an input changed, was added or removed since
// its report.json was written (its "provenance": each input's SHA-256), or when it records none. Not listed
// when there is no reports/report.json.
std::optional<StepStatus> report_status(const std::filesystem::path& workspace);
// The replication package in `package/` (the default of `qualrank package`), when there is one: stale when the
// workspace's inputs are no longer those it was made from (its manifest's made_from digest); nullopt when there
// is none.
std::optional<StepStatus> package_status(const std::filesystem::path& workspace);

const char* state_name(StepState s);  // "up to date", "stale", "incomplete"

// What `validate` checks of the corpus (nothing without corpus/manifest.json): the manifest, the screening
// files, the samples and every sample's labels and decisions are read (their problems located errors), and
// each stale file is a warning saying what changed and what to run (the reasons corpus_status gives).
void check_corpus(const std::filesystem::path& workspace, const Taxonomy* taxonomy, const NodeResolver* resolve,
                  Diagnostics& diags);

}  // namespace qualrank
