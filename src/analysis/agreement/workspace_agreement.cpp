// A workspace's agreement: its label tables and its multi-coder transcripts (see workspace_agreement.h).
#include "qualrank/analysis/agreement/workspace_agreement.h"

namespace qualrank {

std::optional<LabelAgreement> workspace_label_agreement(const Study& study, const WorkspaceAgreementOptions& options,
                                                        Diagnostics& diags) {
  const Workspace& ws = study.workspace;
  if (ws.label_tables.empty()) return std::nullopt;
  std::vector<std::filesystem::path> paths;
  for (const auto& rel : ws.label_tables) paths.push_back(ws.path(rel));
  const LabelVocabulary vocabulary{&study.taxonomy(), &study.version->resolve, study.version->number};
  Diagnostics label_diags;
  std::optional<LabelAgreement> out;
  LabelTable table = read_label_files(paths, ws.root, options.columns, vocabulary, label_diags);
  if (!label_diags.has_errors()) out = label_agreement(table, &study.taxonomy(), options.labels, label_diags);
  if (label_diags.has_errors()) out.reset();
  diags.append(label_diags);
  return out;
}

WorkspaceAgreement workspace_agreement(const Study& study, const WorkspaceAgreementOptions& options, Diagnostics& diags) {
  WorkspaceAgreement out;
  out.labels = workspace_label_agreement(study, options, diags);
  TranscriptAgreement transcripts = transcript_agreement(study.segments, study.taxonomy(), options.transcripts);
  if (!transcripts.transcripts.empty()) out.transcripts = std::move(transcripts);
  return out;
}

}  // namespace qualrank
