// Outputs of the corpus table (analysis/corpus/corpus_table.h): JSON, a plain-text table and a workbook sheet, the
// top-level groups headed by the taxonomy's names ("A Question"), never by bare ids.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "qualrank/analysis/corpus/corpus_stage_one.h"
#include "qualrank/analysis/corpus/corpus_table.h"
#include "qualrank/report/xlsx/xlsx_book.h"

namespace qualrank {

// {"level","periods":[..],"groups":[{"id","name"}],"rows":[ROW],"total":ROW},
// ROW = {"source","units","periods":{PERIOD:n},"no_period","groups":{ID:n},"open","ungrouped"}; with t.screening
// (Table I whole: corpus_overview) also "rule" after "level" and, in each ROW after "source", "retrieved",
// "screened_out", "kept" and "fp_rate" (screened out / retrieved; null when nothing was retrieved).
nlohmann::ordered_json corpus_table_json(const CorpusTable& t, const Taxonomy& taxonomy);

// "Units per source, period and <level name>": one row per source and a total; columns: units, each period,
// "(no period)" when some unit has none, each group as "ID Name", "open" when some unit has no consensus label yet, "(ungrouped)" when some unit's label is above the level. With
// t.screening, "stored", "in window", "retrieved", "screened", "screened out", "kept" and "FP rate" (4 decimals,
// n/a) come first, and the table is followed by fp_rate_sentence.
// The sentence naming both averages of the false-positive rate: the pooled one of the total row and the mean
// of the sources' rates (the "Average" such papers print), in percent.
std::string fp_rate_sentence(const CorpusTable& t);

std::string corpus_table_text(const CorpusTable& t, const Taxonomy& taxonomy);

// report.json's "stage_one" (analysis/corpus/corpus_stage_one.h; undefined numbers null):
// {"keywords":{"terms","files":[{"file","terms"}],"window":{"from","to","text"}},
//  "retrieval":[{"source","whole","retrieved","keywords":[{"term","documents"}]}],
//  "screening":{"rule","screeners":[{"name","screened"}],"retrieved","screened","screened_by_all","agreeing",
//               "percent_all_agree","screened_by_two","percent_agreement","cohen_kappa","fleiss_kappa","excluded",
//               "excluded_by_reason":{REASON:n},
//               "false_positive_decisions_by_reason":{REASON:n}},
//  "samples":[{"name","n","population","seed","rule","size","stratify","drawn_apart_from":[..],
//              "cochran":{"confidence","z","p","e","N","n0","n"}|null,"allocation":{SOURCE:n},
//              "labels":{"coders":[..],"labelled","labelled_by_all","agreeing","all_agree","labelled_by_two","percent_agreement",
//                        "fleiss_kappa",
//                        "cohen_kappa","per_category":{CATEGORY:kappa}}|null,
//              "reconciliation":{"disagreements","disagreements_decided","decisions","by_majority","by_keeping_a_coder","by_other",
//                                "by_decider":{NAME:n},"open"}|null}]}
nlohmann::ordered_json stage_one_json(const corpus::StageOne& s);

// The same as a sheet named `sheet_name` (integers, the FP rate with 3 decimals, the header row frozen).
void corpus_sheet(xlsx::Book& book, const CorpusTable& t, const Taxonomy& taxonomy, const std::string& sheet_name = "Corpus");

}  // namespace qualrank
