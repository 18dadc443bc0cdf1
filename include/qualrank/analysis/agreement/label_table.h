// Label tables: CSV files in which several coders each labelled the same units (one row per unit, one
// column per coder, optionally a consensus column), read straight into the units x coders RatingTable the
// agreement statistics take. This is the hot path of `qualrank agreement`: one streaming pass over the
// CSV text (csv::for_each_record), category strings interned into small ints as they are met, no
// per-row allocation. The rules (which columns are coders, empty cells, duplicates, unknown labels) are
// documented in docs/agreement.md and in the contract of read_label_tables below.
#pragma once
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "qualrank/analysis/agreement/agreement_stats.h"
#include "qualrank/model/node_resolver.h"
#include "qualrank/model/taxonomy.h"
#include "qualrank/util/diagnostics.h"
#include "qualrank/util/string_interner.h"

namespace qualrank {

// Coder columns of all label tables read together, at most: the report has a statistic per coder pair (README
// "Safety and limits").
inline constexpr std::size_t kMaxLabelCoders = 100;

// What to do with a unit id seen before (in the same or an earlier input).
enum class DuplicateUnits {
  keep,   // a warning; every row is a unit of its own (as published studies that repeat an id computed it)
  first,  // a warning; only the first row with that id is a unit, the later ones are left out
  error,  // an error at each later row, naming the first
};

// Which columns hold what (names match headers case-insensitively after trimming), and how repeated unit
// ids are treated.
struct LabelColumns {
  std::string unit;                 // empty = the first column
  std::vector<std::string> coders;  // empty = every header starting with "Label" or "coder" (ASCII case-insensitive)
  std::string consensus;            // empty = a header named "Final_Label" or "final", when there is one
  DuplicateUnits duplicates = DuplicateUnits::keep;
};

// How cell values become categories. With a taxonomy, a value is a node id, name or alias, resolved by
// `resolve` (e.g. the resolver of a taxonomy version, which maps ids of earlier versions); the category is
// the resolved node id and categories are listed in taxonomy order. Without one, every distinct trimmed
// value is its own category (case-sensitive), listed in natural order.
struct LabelVocabulary {
  const Taxonomy* taxonomy = nullptr;  // null = free categories
  const NodeResolver* resolve = nullptr;
  int version = 1;                     // for messages
};

// One CSV text to read; `name` is its display path (diagnostics) and `source` its stem.
struct LabelInput {
  std::string name;
  std::string source;
  std::string_view text;
};

// Every file's units, stacked in file then row order.
struct LabelTable {
  std::vector<std::string> sources;     // one per file, in input order
  std::vector<std::string> files;       // display paths, parallel to sources
  std::vector<std::string> coders;      // coder column headers, in order of first appearance
  std::vector<std::string> categories;  // category of code i; taxonomy order (or natural order)
  stats::RatingTable ratings;           // units x coders; -1 = no rating (empty cell, or no such column in that file)
  bool has_consensus = false;           // some file has a consensus column
  std::vector<int> consensus;           // per unit: category or -1 (no consensus column, or an empty cell)
  std::vector<int> unit_source;         // per unit: index into sources
  std::vector<int> unit_line;           // per unit: line of its row in its file
  StringInterner unit_ids;              // the distinct unit ids
  std::vector<int> unit_key;            // per unit: its id's index in unit_ids (repeated ids share one)

  std::int64_t units() const { return ratings.units; }
  std::string_view unit_id(std::int64_t u) const { return unit_ids[unit_key[static_cast<std::size_t>(u)]]; }
  // The label of unit u by coder c ("" when missing) and its consensus label ("" when none).
  std::string_view label(std::int64_t u, int c) const;
  std::string_view consensus_label(std::int64_t u) const;
};

// Reads label tables. For each input:
//  * the first record is the header; the unit, coder and consensus columns are found per `columns`
//    (a named column that is missing is an error at the header line); at least two coder columns in all,
//    at most kMaxLabelCoders distinct coders over all inputs (an error at the header cell of the first one
//    past the limit; that file is not read);
//  * coders are identified by their header text across files; a coder missing from a file has no rating
//    for that file's units;
//  * a row whose field count differs from the header's is an error (FILE:LINE) and is left out;
//  * an empty (or blank) coder cell is a missing rating (-1); an empty consensus cell means no consensus;
//  * an empty unit id is an error (FILE:LINE);
//  * a unit id seen before in any input is handled per `columns.duplicates`: keep (default) and first give
//    one warning per repeated id, located at its second row and listing FILE:LINE of its rows (the first 5,
//    then how many more; after 20 ids one warning counts the rest); error reports each later row
//    (FILE:LINE:COL, naming the first);
//  * with a taxonomy, a value that does not resolve is an error located at FILE:LINE:COL at its first
//    occurrence in the file (with how many cells hold it); deprecated nodes are errors too (the resolver's
//    message);
//  * CSV syntax (BOM, CRLF, RFC 4180 quotes, quoted commas and newlines) is csv::for_each_record's; its
//    syntax errors stop that file. A file without a header is an error, a header without rows a warning.
// Errors go to `diags` (at most 20 of each kind per file, then one summary error). The returned table
// holds every row read without error; callers must not use it when diags.has_errors().
LabelTable read_label_tables(const std::vector<LabelInput>& inputs, const LabelColumns& columns,
                             const LabelVocabulary& vocabulary, Diagnostics& diags);

// Reads the files from disk (display paths relative to `base`, sources = file stems; two files with the
// same stem get their display path as source) and calls read_label_tables. An unreadable file is an error.
LabelTable read_label_files(const std::vector<std::filesystem::path>& paths, const std::filesystem::path& base,
                            const LabelColumns& columns, const LabelVocabulary& vocabulary, Diagnostics& diags);

}  // namespace qualrank
