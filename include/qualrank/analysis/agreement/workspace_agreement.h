// Agreement for a whole workspace, as `qualrank report` includes it: the workspace's label tables
// (codebooks/labels/*.csv, read against the study's taxonomy version) and its multi-coder transcripts.
#pragma once
#include <optional>

#include "qualrank/analysis/agreement/agreement.h"
#include "qualrank/analysis/agreement/label_table.h"
#include "qualrank/analysis/study.h"
#include "qualrank/analysis/agreement/transcript_agreement.h"

namespace qualrank {

struct WorkspaceAgreementOptions {
  LabelColumns columns;                    // defaults: see LabelColumns
  AgreementOptions labels;                 // grouping, bootstrap, disputed units for the label tables
  TranscriptAgreementOptions transcripts;  // unit, level, bootstrap, disputed units for the transcripts
};

struct WorkspaceAgreement {
  std::optional<LabelAgreement> labels;            // when the workspace has label tables
  std::optional<TranscriptAgreement> transcripts;  // when some transcript has codes from two coders
};

// Reads every label table of `study.workspace` (labels resolved at the study's taxonomy version) and
// compares the coders of its transcripts. Label-table problems are reported to `diags` (located); the
// labels part is then left out. Needs the study's segments as load_study gives them.
WorkspaceAgreement workspace_agreement(const Study& study, const WorkspaceAgreementOptions& options, Diagnostics& diags);
// Only the label tables' part of workspace_agreement (nullopt when there are none or they have errors):
// what `validate` checks, so that it refuses exactly the tables `report` refuses.
std::optional<LabelAgreement> workspace_label_agreement(const Study& study, const WorkspaceAgreementOptions& options,
                                                        Diagnostics& diags);

}  // namespace qualrank
