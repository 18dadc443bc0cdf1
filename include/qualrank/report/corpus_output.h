// Outputs of the corpus table (analysis/corpus_table.h): JSON, a plain-text table and a workbook sheet, the
// top-level groups headed by the taxonomy's names ("A Question"), never by bare ids.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "qualrank/analysis/corpus_table.h"
#include "qualrank/report/xlsx_book.h"

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

// The same as a sheet named `sheet_name` (integers, the FP rate with 3 decimals, the header row frozen).
void corpus_sheet(xlsx::Book& book, const CorpusTable& t, const Taxonomy& taxonomy, const std::string& sheet_name = "Corpus");

}  // namespace qualrank
