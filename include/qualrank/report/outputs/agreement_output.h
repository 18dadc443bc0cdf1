// Agreement outputs: the JSON of `qualrank agreement --format json` (public keys, docs/agreement.md), a
// readable text table, and the agreement workbook (the same tables, one per sheet).
#pragma once
#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>

#include "qualrank/analysis/agreement/agreement.h"
#include "qualrank/analysis/agreement/transcript_agreement.h"
#include "qualrank/analysis/agreement/workspace_agreement.h"
#include "qualrank/util/diagnostics.h"

namespace qualrank {

struct CorpusTable;

// {"units","coders":[..],"categories":[..],"dropped_units","fleiss_kappa","krippendorff_alpha",
//  "percent_agreement","pairable_units","all_agree","units_all_agree",
//  "cohen_kappa_pairs":[{"a","b","kappa","units"}],"per_category":{cat:{"fleiss_kappa"}},
//  "coder_vs_final":{coder:{"agreement","cohen_kappa","units"}},
//  "confidence":{"fleiss_kappa":[lo,hi],"krippendorff_alpha":[lo,hi],"level","resamples","seed"},
//  "groups":{g:{"units","fleiss_kappa","krippendorff_alpha","percent_agreement","dropped_units"}},
//  "sources":{s:{"units","groups":{g:n}}},"group_level","ungrouped_units",
//  "disagreements":[{"unit","source","line","labels":{coder:label|null},"consensus","agreement"}]}.
// Undefined numbers (NaN) are null.
nlohmann::ordered_json label_agreement_json(const LabelAgreement& a);

// {"unit":"turn"|"segment","compare_level","transcripts":[..],"single_coder_transcripts","units",
//  "coders":[..],"categories":[nodes],"dropped_units","fleiss_kappa","krippendorff_alpha","percent_agreement",
//  "exact_agreement","units_identical","cohen_kappa_pairs":[{"a","b","kappa","units"}],
//  "per_node":{node:{"units_coded","positive_agreement","fleiss_kappa","krippendorff_alpha","percent_agreement"}},
//  "confidence":{...as above},"disagreements":[{"unit","file","line","nodes":{coder:[..]|null},"differing_nodes"}]}.
nlohmann::ordered_json transcript_agreement_json(const TranscriptAgreement& a);

// {"labels": label_agreement_json | null, "transcripts": transcript_agreement_json | null}.
nlohmann::ordered_json workspace_agreement_json(const WorkspaceAgreement& a);

// Plain-text tables for the terminal (numbers to 3 decimals, "n/a" for undefined).
std::string label_agreement_table(const LabelAgreement& a);
std::string transcript_agreement_table(const TranscriptAgreement& a);

// Writes the workbook: for label tables the sheets Summary, Coder pairs, Per category, Coder vs consensus,
// Groups, Sources (Groups/Sources only with a grouping level), Disputed units (when listed); for transcripts
// Transcripts, Transcript nodes, Transcript pairs, Transcript disputes (when listed). Either may be null.
// `taxonomy` (may be null) adds node names. Atomic and reproducible (xlsx_book.h). Returns false after
// reporting the failure to `diags`.
// `corpus` (may be null; needs `taxonomy`) adds the sheet Corpus (report/outputs/corpus_output.h).
bool write_agreement_workbook(const LabelAgreement* labels, const TranscriptAgreement* transcripts,
                              const Taxonomy* taxonomy, const std::filesystem::path& target, Diagnostics& diags,
                              const CorpusTable* corpus = nullptr);

}  // namespace qualrank
