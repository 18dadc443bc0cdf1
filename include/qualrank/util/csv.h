// RFC 4180 CSV reading and writing.
// Reading: a UTF-8 byte-order mark is skipped; CRLF and LF line ends both end a record; quoted fields may
// hold commas, quotes ("") and line breaks; every record remembers the line it starts on. A quote inside an
// unquoted field, or text after a closing quote, is reported as a located error.
// Writing: fields are quoted when they hold a comma, quote, CR or LF; `neutralise_formulas` prefixes a field
// that starts with = + - @ (or tab/CR) with a single quote, as OWASP recommends against CSV injection.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "qualrank/util/diagnostics.h"

namespace qualrank::csv {

struct Record {
  int line = 0;  // 1-based line the record starts on
  std::vector<std::string> fields;
};

struct Table {
  std::vector<std::string> header;
  int header_line = 1;
  std::vector<Record> rows;
  // Index of a header name, matched case-insensitively after trimming; -1 if absent.
  int column(std::string_view name) const;
};

// Parses a whole CSV text. Empty lines are skipped. Records whose field count differs from the header's
// are reported as errors (`file:line: error: ...`) and left out. Returns the table (possibly partial).
Table parse(std::string_view text, const std::string& file, Diagnostics& diags);

// Streams records without building a table: calls `on_record(line, fields)` for each; fields are views
// into `text` when unquoted, or into a scratch buffer otherwise (valid only during the call).
// Returns false after reporting an error.
template <class F>
bool for_each_record(std::string_view text, const std::string& file, Diagnostics& diags, F&& on_record);

// Quotes a field for output when needed.
std::string quote(std::string_view field, bool neutralise_formulas);
// Formats one record, fields quoted as needed, ending in "\n".
std::string format_record(const std::vector<std::string>& fields, bool neutralise_formulas);

}  // namespace qualrank::csv

#include "qualrank/util/csv_impl.h"
