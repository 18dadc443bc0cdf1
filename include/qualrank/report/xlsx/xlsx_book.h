// A small, safe layer over libxlsxwriter for every workbook qualrank writes (codebook, rankings, agreement).
//
// What it guarantees:
// - The workbook is written to a temporary file next to the target and renamed over it only by commit();
//   a failure (or a Book destroyed without commit) leaves the old file untouched.
// - Reproducible bytes: the document's created/modified time comes from SOURCE_DATE_EPOCH, else a fixed
//   2025-01-01T00:00:00Z (libxlsxwriter 1.1.4 stamps every zip entry 1980-01-01 itself), so two runs on the
//   same input give identical files.
// - Text is always a string cell, never a formula: "=HYPERLINK(...)", "+1", "-2", "@SUM" stay text; a literal
//   "_xHHHH_" (which Excel would decode as a character) is escaped so it reads back as written.
// - Invalid UTF-8 sequences are replaced with U+FFFD (inputs are checked where they are read; this is
//   defence in depth), characters XML 1.0 forbids are removed, and text longer than Excel's 32,767-character cell limit is cut
//   with a visible marker "… [cut by qualrank: N characters]"; each is reported as a warning located where
//   the caller says the text came from (a transcript line, a CSV row, ...); once per source location and
//   problem, so a participant attribute repeated on many rows warns once (naming its first cell).
// - Sheets made with header() get a bold, frozen header row, an autofilter over the data written, and
//   column widths that fit their content (capped per column) when the book is committed.
// - Every sheet prints in landscape, one page wide (as many pages tall as needed), with "Page N of M" in the
//   footer; a sheet made with header() repeats its header row on every printed page.
//
// Charts and anything else this layer lacks: use raw() on the Book or Sheet with the libxlsxwriter API
// (chart.h); add chart data with write_number/write_text so it is checked like everything else.
#pragma once
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "qualrank/report/xlsx/xlsx_cells.h"
#include "qualrank/util/diagnostics.h"

// libxlsxwriter's types, so callers need not include xlsxwriter.h unless they use raw().
typedef struct lxw_workbook lxw_workbook;
typedef struct lxw_worksheet lxw_worksheet;
typedef struct lxw_format lxw_format;

namespace qualrank::files {
class AtomicOutput;
}
namespace qualrank::xlsx {
class StreamWriter;
enum class StreamFormat : int;
}

namespace qualrank::xlsx {

// Excel's limits.
inline constexpr std::size_t kMaxCellChars = 32767;     // characters (UTF-16 code units) in one cell
inline constexpr int kMaxRows = 1048576;
inline constexpr int kMaxColumns = 16384;

// How a column's cells are shown. The column's style applies when write_* is given no explicit format.
enum class CellStyle {
  text,          // plain text, one line
  wrapped_text,  // long text (quotes, definitions): wrapped, aligned to the top
  integer,       // a count: number format "0"
  decimal,       // a number with two decimals: "0.00"
  percent,       // a fraction shown as a percentage: "0.0%" (write 0.25 for 25%)
  one_decimal,   // a statistic that is a whole or half number (Mann-Whitney U): "0.0"
  three_decimals,  // a coefficient or a p-value >= 0.001: "0.000"
  scientific,    // a p-value below 0.001: "0.00E+00" (three significant digits)
};

struct Column {
  std::string title;
  CellStyle style = CellStyle::text;
  double max_width = 50;  // cap on the fitted width, in Excel character units
};

struct BookProperties {
  std::string title;
  std::string subject;
  std::string author = "qualrank";
  std::string comments;
  // Streamed: written by qualrank's own streamed writer (xlsx_stream.h) instead of libxlsxwriter: rows become
  // XML as they come and are deflated on a second thread, strings stored inline, so memory stays flat however
  // many rows; each sheet's rows must then be written in increasing order (a write to an earlier row fails
  // the book: an error, never a lost cell). For workbooks of data tables only: raw() may then serve formats,
  // never sheets, charts or other libxlsxwriter features; a format not the book's own fails the book.
  bool streamed = false;
};

class Book;

// One worksheet. Rows and columns are 0-based; row 0 holds the header when header() was called.
class Sheet {
 public:
  // Writes the header row (bold), freezes it (and the first `frozen_columns` columns), remembers each
  // column's style and width cap, and turns the autofilter on over the rows written (set at commit).
  void header(const std::vector<Column>& columns, int frozen_columns = 0);

  // Writes `text` as a string cell, never a formula. Removes characters XML 1.0 forbids and cuts text over
  // 32,767 characters with a marker; each with a warning located at `source` (naming the sheet and cell).
  // `format` overrides the column's style (nullptr = the column's). Empty text writes nothing.
  void write_text(int row, int col, std::string_view text, const Location& source = {}, lxw_format* format = nullptr);
  // Writes a number cell (NaN and infinities are written as empty cells).
  void write_number(int row, int col, double value, lxw_format* format = nullptr);

  // A p-value with three significant digits: "0.000" from 0.001 up, "0.00E+00" below (NaN: an empty cell).
  void write_p(int row, int col, double p);
  // The page header printed on each page (e.g. the question the sheet answers); '&' is escaped, the text is
  // cut to Excel's 255-character header limit.
  void print_title(const std::string& text);

  // Freezes the first `rows` rows and `cols` columns (header() freezes row 0 already).
  void freeze(int rows, int cols);
  // The last row written (-1 if none), for callers that append.
  int last_row() const { return last_row_; }
  const std::string& name() const { return name_; }
  lxw_worksheet* raw() const { return sheet_; }  // nullptr in a streamed book

 private:
  friend class Book;
  Sheet(Book& book, lxw_worksheet* sheet, int stream, std::string name)
      : book_(book), sheet_(sheet), stream_(stream), name_(std::move(name)) {}
  bool usable() const { return sheet_ != nullptr || stream_ >= 0; }
  void note_width(int col, std::string_view text);
  double width_cap(std::size_t col) const;  // the widest column `col` is shown
  // Notes the lines a wrapped cell needs at its column's width cap, so the row can be made that tall.
  void note_lines(int row, int col, std::string_view text, bool ascii);  // ascii: one character per byte
  void finish();  // autofilter, column widths, row heights and print setup
  // Moves to `row` before a cell of it is written; false (and the book failed) when a streamed sheet has
  // written a later row already. Sets the height of the row being left.
  bool enter_row(int row);
  void set_row_height(int row, std::uint16_t lines);
  lxw_format* column_format(int col) const;
  StreamFormat column_stream_format(int col) const;  // the streamed writer's form of column_format(col)

  Book& book_;
  lxw_worksheet* sheet_;  // libxlsxwriter's sheet, or nullptr in a streamed book
  int stream_ = -1;       // the streamed writer's sheet, or -1
  std::string name_;
  int freeze_rows_ = 0, freeze_cols_ = 0;
  std::vector<Column> columns_;
  std::vector<double> widths_;  // fitted width per column so far
  std::vector<StreamFormat> column_stream_formats_;  // streamed: column_format's per column, looked up in header()
  std::uint64_t capped_ = 0;    // bit c: column c (< 64) is at its width cap (note_width's test, kept in the sheet)
  bool has_header_ = false;
  std::string header_text_;  // print_title(), in Excel's header syntax
  int last_row_ = -1;
  int last_col_ = -1;
  int frozen_cols_ = 0;                // header(): the id/name columns repeated on every printed page
  std::vector<std::uint16_t> lines_;   // per row: the most lines a wrapped cell of it needs (0 or 1: default height)
  int open_row_ = -1;                  // streamed: the row being written (earlier rows are written out)
  std::uint16_t open_lines_ = 0;       // streamed: lines_ of open_row_ (lines_ stays empty)
};

// A workbook being written. Create, add sheets, write, commit(). Not copyable.
class Book {
 public:
  // Starts a workbook whose final path is `target` (its folder is created if missing). Warnings about
  // cell contents go to `diags`. Check ok() before use: false when libxlsxwriter could not start.
  Book(std::filesystem::path target, const BookProperties& properties, Diagnostics& diags);
  ~Book();  // discards the temporary file unless commit() succeeded
  Book(const Book&) = delete;
  Book& operator=(const Book&) = delete;

  bool ok() const { return workbook_ != nullptr && error_.empty(); }
  // The first error (libxlsxwriter's message, or a limit exceeded); empty while all is well.
  const std::string& error() const { return error_; }

  // Adds a worksheet. Characters Excel forbids in sheet names ([]:*?/\) become '_', and the name is cut to
  // 31 characters. Returns a reference valid for the Book's lifetime.
  Sheet& add_sheet(std::string_view name);

  // Shared formats: bold, and one per CellStyle (the style's number format or wrapping).
  lxw_format* bold() const { return bold_; }
  // header()'s titles: bold and wrapped, so a title wider than its column's cap takes more lines, never cut.
  lxw_format* header_format() const { return header_; }
  lxw_format* format(CellStyle style) const;
  // three_decimals for p >= 0.001 (and 0), scientific below.
  lxw_format* p_value_format(double p) const;

  // Finishes every sheet (autofilter, widths), writes the zip and renames it over the target. Returns false,
  // with error() set, on any failure (a write that failed earlier, a full disk, a rename); the target is then
  // untouched. Call once. When `gate` is given it is asked, once the temp file is complete, whether to rename
  // it into place; on false the temp file is removed and commit returns false with error() empty (the caller
  // decided not to write, e.g. because work done beside it failed).
  bool commit(const std::function<bool()>& gate = nullptr);
  // commit() in two steps, for a book written while other work goes on and put in place only once that work
  // has succeeded: write() finishes every sheet and writes the temp file (false, with error() set, on any
  // failure); publish() then renames it over the target (false, with error() set, when it cannot). A book
  // written but never published leaves the target untouched (its destructor removes the temp file).
  bool write();
  bool publish();

  lxw_workbook* raw() const { return workbook_; }
  const std::filesystem::path& target() const { return target_; }

 private:
  friend class Sheet;
  void fail(std::string message);
  void check(int lxw_error_code, const std::string& what);
  // Warns at `source` unless this problem was reported there already (sources without a file always warn).
  void warn_once(const Location& source, char problem, std::string message);

  std::filesystem::path target_;
  std::unique_ptr<files::AtomicOutput> output_;  // the temp path; renamed over target_ by commit()
  Diagnostics& diags_;
  lxw_workbook* workbook_ = nullptr;
  lxw_format* bold_ = nullptr;
  lxw_format* header_ = nullptr;
  std::vector<lxw_format*> style_formats_;
  std::vector<std::unique_ptr<Sheet>> sheets_;
  std::set<std::tuple<std::string, int, int, char>> warned_;
  std::string error_;
  bool committed_ = false;
  bool written_ = false;  // write() succeeded: publish() may rename
  std::unique_ptr<StreamWriter> stream_;  // a streamed book's writer (nullptr: libxlsxwriter writes the book)
  std::set<std::string> sheet_names_;      // folded, for a streamed book's own check of names used twice
  StreamFormat stream_format(lxw_format* f);
  std::filesystem::path scratch_dir_;  // libxlsxwriter's tmpdir, a hidden folder beside the output (not streamed)
  std::string scratch_dir_text_;       // its path as libxlsxwriter keeps it (a pointer into this string)
  void remove_scratch();
};

// cell_name, append_cell_name: xlsx_cells.h.

// What write_text stores for `text`: invalid UTF-8 sequences replaced with U+FFFD, XML-invalid characters
// removed, cut to the cell limit with the marker. `removed` and `cut` (may be null) receive how many
// characters were removed and cut (in UTF-16 units), `replaced` how many invalid sequences were replaced.
std::string cell_text(std::string_view text, std::size_t* removed = nullptr, std::size_t* cut = nullptr,
                      std::size_t* replaced = nullptr);

// The document time used in workbook properties: SOURCE_DATE_EPOCH, else 2025-01-01T00:00:00Z.
long long document_time();

}  // namespace qualrank::xlsx
