// The streamed workbook writer behind xlsx::Book for books of plain data sheets (BookProperties::streamed):
// what libxlsxwriter's constant_memory mode writes (inline strings, rows flushed in order), but deflated by
// other threads and with no object kept per cell, so a 240,000-row sheet costs what its XML costs to write.
//
// How: each sheet's rows become XML as they come (the XML of the row being written is kept until a later row
// starts, its cells then put in column order if they were not written so); every ~1 MiB of rows is one chunk, deflated as its own raw deflate
// stream ending in a sync flush, primed with the 32 KiB of XML before it (pigz's way), by worker threads
// while the next chunk is written, and (given a folder) moved to an unnamed file there, so the deflated sheets
// are not held in memory until the end. At commit the sheet's head (dimension, panes, column widths: known only
// at the end) and its tail are deflated too, and each part's pieces are joined (a deflate stream may be cut
// at a sync flush and continued by another), their CRC-32s combined. Chunks are cut by size at row ends, not
// by timing, so the same calls give the same bytes. The zip is written with every entry stamped 1980-01-01
// (as libxlsxwriter does) and without ZIP64: a part over 4 GiB fails the book.
//
// Not for charts, images, merged cells or formulas (libxlsxwriter's normal mode writes those books).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace qualrank::xlsx {

// Cell formats a streamed book knows: index = the cell's style (xf) id in styles.xml.
enum class StreamFormat : int {
  none = 0,
  bold = 1,            // header cells: bold, top-aligned
  text = 2,            // CellStyle::text ... in CellStyle order
  wrapped_text,
  integer,
  decimal,
  percent,
  one_decimal,
  three_decimals,
  scientific,
  header,              // header() cells: bold, top-aligned, wrapped
};

// What a sheet shows and prints, given at the end (its widths are known only once every row is written).
struct StreamSheetSetup {
  std::vector<double> widths;  // column widths in Excel character units, from column A
  int freeze_rows = 0, freeze_cols = 0;
  int filter_last_row = -1, filter_last_col = -1;  // the autofilter over A1:(last); -1 = none
  bool fit_width = false;                          // print one page wide
  int repeat_rows = 0, repeat_cols = 0;            // print titles: the first N rows / columns on every page
  std::string header, footer;                      // in Excel's header syntax ("&L...", "&CPage &P of &N")
};

struct StreamProperties {
  std::string title, subject, author, comments;
  long long created = 0;  // seconds since 1970, UTC
};

// Appends `v` as the streamed sheets write a number: as printf's "%.16G" (libxlsxwriter's way).
void append_number_text(std::string& out, double v);

class StreamWriter {
 public:
  // `spill_dir`: a folder (the output's) where the deflated sheet rows wait in an unnamed file until write(),
  // instead of in memory ("" keeps them in memory; so does a folder where no such file can be made).
  explicit StreamWriter(StreamProperties properties, const std::string& spill_dir = "");
  ~StreamWriter();
  StreamWriter(const StreamWriter&) = delete;
  StreamWriter& operator=(const StreamWriter&) = delete;

  int add_sheet(std::string name);
  // Cells and row heights. Rows of a sheet must come in increasing order (the caller checks); cells of one
  // row in any order. `text` is the stored text (already cleaned and escaped for OOXML, not yet for XML).
  void text(int sheet, int row, int col, std::string_view text, StreamFormat format);
  void number(int sheet, int row, int col, double value, StreamFormat format);
  void row_height(int sheet, int row, double points);
  void setup(int sheet, StreamSheetSetup setup);

  // Writes the zip to `path` (an open-for-writing temp file the caller renames). False with `error` set.
  bool write(const std::string& path, std::string* error);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace qualrank::xlsx
