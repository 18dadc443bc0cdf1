// The workbook layer over libxlsxwriter (see xlsx_book.h for what it guarantees).
//
// Cell text goes through cell_text(): invalid UTF-8 becomes U+FFFD, text::strip_xml_invalid removes what XML 1.0 forbids (libxlsxwriter
// would otherwise write "_x0001_" escapes, which Excel decodes back into control characters), then text over
// the limit is cut at a code point boundary so that the kept text plus the marker is exactly within 32,767
// UTF-16 code units (Excel counts UTF-16 units; libxlsxwriter checks code points, a weaker bound). A literal
// "_xHHHH_" is stored as "_x005F_xHHHH_" (ECMA-376's escape of the underscore), so Excel does not decode it.
// Widths are estimated from code points per line, which is what Excel's own "fit" does for Latin text.
#include "qualrank/report/xlsx/xlsx_book.h"

#include <xlsxwriter.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "qualrank/report/xlsx/xlsx_stream.h"
#include "qualrank/util/files.h"
#include "qualrank/util/swar.h"
#include "qualrank/util/text.h"
#include "qualrank/util/xlsx_read.h"  // column_letters

namespace qualrank::xlsx {

namespace fs = std::filesystem;

namespace {

constexpr long long kFallbackTime = 1735689600;  // 2025-01-01T00:00:00Z
constexpr double kMinWidth = 6;
// Printing (docs/codebook.md, "Printing"): a row is 15 points per line of its tallest wrapped cell, at most
// Excel's 409; a sheet up to kFitWidth characters wide prints one page wide (landscape A4 shrinks it to about
// 60% at most), a wider one prints across pages at full size with its id/name columns repeated; column A, where
// labels of statistics sit under the tables, may grow to kLabelWidth.
constexpr double kLineHeight = 15, kMaxRowHeight = 409;
constexpr double kFitWidth = 200;
constexpr double kLabelWidth = 60;

// Length of the UTF-8 sequence starting with byte `c` (1 for stray continuation bytes).
std::size_t sequence_length(unsigned char c) {
  if (c >= 0xF0) return 4;
  if (c >= 0xE0) return 3;
  if (c >= 0xC0) return 2;
  return 1;
}

std::size_t utf16_length(std::string_view s) {
  std::size_t units = 0;
  for (std::size_t i = 0; i < s.size();) {
    std::size_t len = sequence_length(static_cast<unsigned char>(s[i]));
    units += len == 4 ? 2 : 1;
    i += len;
  }
  return units;
}

// Excel decodes "_xHHHH_" in cell text as the character U+HHHH; a literal one is written with its underscore
// escaped ("_x005F_xHHHH_"), as Excel itself and XlsxWriter do, so the text reads back as written.
std::string escape_ooxml_literals(const std::string& s) {
  if (s.find("_x") == std::string::npos) return s;  // fast path
  auto hex = [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; };
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '_' && i + 6 < s.size() && s[i + 1] == 'x' && hex(s[i + 2]) && hex(s[i + 3]) && hex(s[i + 4]) &&
        hex(s[i + 5]) && s[i + 6] == '_')
      out += "_x005F";
    out += s[i];
  }
  return out;
}

// True when cell_text and escape_ooxml_literals would return `s` unchanged for a reason seen at a glance:
// only printable ASCII, tabs and line breaks (valid UTF-8 allowed in XML 1.0), no longer than Excel's limit
// (one UTF-16 unit per byte), and no "_x" that could start a literal "_xHHHH_".
bool plain_cell_text(std::string_view s) {
  if (s.size() > kMaxCellChars) return false;
  char previous = 0;
  auto plain = [&previous](char ch) {
    const auto c = static_cast<unsigned char>(ch);
    if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c >= 0x80 || (previous == '_' && ch == 'x')) return false;
    previous = ch;
    return true;
  };
  // Eight bytes at a time: a word of printable ASCII without '_' is plain (unless an '_' ends the word before
  // and it starts with 'x'); any other word is looked at byte by byte.
  std::size_t i = 0;
  for (; i + 8 <= s.size(); i += 8) {
    const std::uint64_t w = swar::load(s.data() + i);
    if (swar::below_or_high(w, 0x20) || swar::has_byte(w, '_') || previous == '_') {
      for (std::size_t j = i; j < i + 8; ++j)
        if (!plain(s[j])) return false;
    } else {
      previous = s[i + 7];
    }
  }
  for (; i < s.size(); ++i)
    if (!plain(s[i])) return false;
  return true;
}

std::string cut_marker(std::size_t cut) {
  return "… [cut by qualrank: " + std::to_string(cut) + " characters]";
}

// Widest line of `s`, in code points.
double display_width(std::string_view s) {
  std::size_t best = 0, current = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c == '\n') {
      best = std::max(best, current);
      current = 0;
    } else if ((c & 0xC0) != 0x80) {
      ++current;
    }
  }
  return static_cast<double>(std::max(best, current));
}

}  // namespace

long long document_time() {
  long long t = files::source_date_epoch(kFallbackTime);
  return t == 0 ? 1 : t;  // libxlsxwriter reads 0 as "now"
}

std::string cell_text(std::string_view text, std::size_t* removed, std::size_t* cut, std::size_t* replaced) {
  std::string s(text);
  // Inputs are checked for UTF-8 where they are read; this is defence in depth: libxlsxwriter would copy an
  // invalid byte into sharedStrings.xml and the workbook would not open.
  std::size_t n_replaced = text::replace_invalid_utf8(s);
  if (replaced) *replaced = n_replaced;
  std::size_t n_removed = text::strip_xml_invalid(s);
  if (removed) *removed = n_removed;
  if (cut) *cut = 0;
  std::size_t units = utf16_length(s);
  if (units <= kMaxCellChars) return s;
  // The marker's length depends on the number it shows; iterate until the number and the cut agree.
  std::size_t guess = units - kMaxCellChars;
  for (;;) {
    std::string marker = cut_marker(guess);
    std::size_t budget = kMaxCellChars - utf16_length(marker);
    std::size_t kept_units = 0, pos = 0;
    while (pos < s.size()) {
      std::size_t len = sequence_length(static_cast<unsigned char>(s[pos]));
      std::size_t u = len == 4 ? 2 : 1;
      if (kept_units + u > budget) break;
      kept_units += u;
      pos += len;
    }
    std::size_t actual = units - kept_units;
    if (actual == guess || utf16_length(cut_marker(actual)) == utf16_length(marker)) {
      if (cut) *cut = actual;
      return s.substr(0, pos) + cut_marker(actual);
    }
    guess = actual;
  }
}

// ---- Sheet ----

void Sheet::header(const std::vector<Column>& columns, int frozen_columns) {
  columns_ = columns;
  column_stream_formats_.clear();
  if (stream_ >= 0)
    for (std::size_t c = 0; c < columns_.size(); ++c) column_stream_formats_.push_back(book_.stream_format(column_format(static_cast<int>(c))));
  has_header_ = true;
  frozen_cols_ = frozen_columns;
  if (widths_.size() < columns.size()) widths_.resize(columns.size(), 0);
  for (std::size_t c = 0; c < columns.size(); ++c) {
    write_text(0, static_cast<int>(c), columns[c].title, {}, book_.header_format());
    // Room for the autofilter button beside a bold title.
    widths_[c] = std::max(widths_[c], display_width(columns[c].title) * 1.1 + 3);
  }
  freeze(1, frozen_columns);
}

lxw_format* Sheet::column_format(int col) const {
  if (col < 0 || static_cast<std::size_t>(col) >= columns_.size()) return nullptr;
  return book_.format(columns_[col].style);
}

StreamFormat Sheet::column_stream_format(int col) const {
  // (Book::stream_format looks a format up among the book's: a column's is looked up once, in header(), not at
  // each of the 2.6 million cells of the codebook of 2,000 transcripts)
  const auto c = static_cast<std::size_t>(col);
  return c < column_stream_formats_.size() ? column_stream_formats_[c] : StreamFormat::none;
}

void Sheet::note_width(int col, std::string_view text) {
  // A column already at its cap stays there whatever else it holds (the width is clamped to the cap when the
  // sheet is done): its long texts are not measured again, 240,000 of them in a large codebook. The test reads
  // a bit of the sheet itself, not the widths (3-4% less CPU for `codebook` on the 2,000-transcript bench).
  const std::uint64_t bit = col < 64 ? std::uint64_t{1} << col : 0;
  if (capped_ & bit) return;
  if (widths_.size() <= static_cast<std::size_t>(col)) widths_.resize(col + 1, 0);
  double& width = widths_[static_cast<std::size_t>(col)];
  if (width >= width_cap(static_cast<std::size_t>(col))) {
    capped_ |= bit;
    return;
  }
  // A text no longer in bytes than the width so far cannot widen the column (the width counts characters).
  if (static_cast<double>(text.size()) + 1 <= width) return;
  width = std::max(width, display_width(text) + 1);
}

double Sheet::width_cap(std::size_t col) const {
  double cap = col < columns_.size() ? columns_[col].max_width : 50;
  if (col == 0) cap = std::max(cap, kLabelWidth);  // column A holds the labels of the statistics under the tables
  return std::max(cap, kMinWidth);
}

void Sheet::note_lines(int row, int col, std::string_view text, bool ascii) {
  // Characters per line at the column's cap (a text that wraps has made its column reach the cap), less a
  // tenth for the words carried to the next line.
  const double cap = static_cast<std::size_t>(col) < columns_.size() ? columns_[col].max_width : 50;
  const double per_line = std::max(1.0, (std::max(cap, kMinWidth) - 1) * 0.9);
  std::size_t lines = 0, current = 0;
  auto end_line = [&] { lines += std::max<std::size_t>(1, static_cast<std::size_t>(std::ceil(static_cast<double>(current) / per_line))); };
  if (ascii) {  // one character per byte: each line's length is where the next line break is
    for (std::size_t start = 0;;) {
      const std::size_t nl = text.find('\n', start);
      current = (nl == std::string_view::npos ? text.size() : nl) - start;
      end_line();
      if (nl == std::string_view::npos) break;
      start = nl + 1;
    }
  } else {
    for (unsigned char c : text) {
      if (c == '\n') {
        end_line();
        current = 0;
      } else if ((c & 0xC0) != 0x80) {
        ++current;
      }
    }
    end_line();
  }
  if (lines <= 1) return;
  if (stream_ >= 0) {
    open_lines_ = static_cast<std::uint16_t>(std::max<std::size_t>(open_lines_, std::min<std::size_t>(lines, 1000)));
    return;
  }
  if (lines_.size() <= static_cast<std::size_t>(row)) lines_.resize(static_cast<std::size_t>(row) + 1, 0);
  auto& slot = lines_[static_cast<std::size_t>(row)];
  slot = static_cast<std::uint16_t>(std::max<std::size_t>(slot, std::min<std::size_t>(lines, 1000)));
}

void Sheet::set_row_height(int row, std::uint16_t lines) {
  if (lines <= 1) return;
  const double points = std::min(kMaxRowHeight, kLineHeight * lines);
  if (stream_ >= 0) book_.stream_->row_height(stream_, row, points);
  else book_.check(worksheet_set_row(sheet_, static_cast<lxw_row_t>(row), points, nullptr), "cannot set the row heights of sheet '" + name_ + "'");
}

bool Sheet::enter_row(int row) {
  if (stream_ < 0 || row == open_row_) return true;
  if (row < open_row_) {
    book_.fail("internal error: sheet '" + name_ + "' row " + std::to_string(row + 1) + " written after row " +
               std::to_string(open_row_ + 1) + " (a streamed sheet is written row by row)");
    return false;
  }
  if (open_row_ >= 0) set_row_height(open_row_, open_lines_);  // the row is still in memory until `row` is written
  open_row_ = row;
  open_lines_ = 0;
  return true;
}

void Sheet::write_text(int row, int col, std::string_view text, const Location& source, lxw_format* format) {
  if (!usable() || !book_.ok()) return;
  if (row >= kMaxRows || col >= kMaxColumns || row < 0 || col < 0) {
    book_.fail("sheet '" + name_ + "' needs cell " + std::to_string(row + 1) + "," + std::to_string(col + 1) +
               ", beyond Excel's limits (1,048,576 rows, 16,384 columns)");
    return;
  }
  if (!enter_row(row)) return;
  last_row_ = std::max(last_row_, row);
  last_col_ = std::max(last_col_, col);
  if (text.empty()) {
    note_width(col, "");
    return;
  }
  // Plain text (printable ASCII, tabs and line breaks, within the limit, no "_x") is stored as it is, without
  // the copies cell_text and escape_ooxml_literals would make of it (this is the per-cell hot path).
  auto where = [&] { return "sheet '" + name_ + "' cell " + cell_name(row, col); };  // built only when needed
  std::string value, stored;
  std::string_view shown = text, kept = text;  // the text as shown (widths, lines) and as stored
  const bool plain = plain_cell_text(text);  // (so ASCII)
  if (!plain) {
    std::size_t removed = 0, cut = 0, replaced = 0;
    value = cell_text(text, &removed, &cut, &replaced);
    if (replaced > 0)
      book_.warn_once(source, 'u', "replaced " + std::to_string(replaced) + " invalid UTF-8 sequence" +
                                       (replaced == 1 ? "" : "s") + " with U+FFFD in the text in " + where());
    if (removed > 0)
      book_.warn_once(source, 'x', "removed " + std::to_string(removed) + " character" + (removed == 1 ? "" : "s") +
                                       " that XML 1.0 forbids (control characters) from the text in " + where());
    if (cut > 0)
      book_.warn_once(source, 'c', "text in " + where() + " is longer than Excel's limit of 32,767 characters; cut, " +
                                       std::to_string(cut) + " characters left out and marked '[cut by qualrank: " +
                                       std::to_string(cut) + " characters]'");
    stored = escape_ooxml_literals(value);
    if (stored.size() != value.size() && text::count_code_points(stored) > kMaxCellChars) stored = value;  // rare
    shown = value;
    kept = stored;
  }
  note_width(col, shown);
  lxw_format* const f = format ? format : column_format(col);
  if (f && f->text_wrap) note_lines(row, col, shown, plain);
  if (stream_ >= 0) {
    book_.stream_->text(stream_, row, col, kept, format ? book_.stream_format(format) : column_stream_format(col));
    return;
  }
  if (stored.empty()) stored = std::string(kept);  // libxlsxwriter takes a C string
  int rc = worksheet_write_string(sheet_, static_cast<lxw_row_t>(row), static_cast<lxw_col_t>(col), stored.c_str(),
                                  format ? format : column_format(col));
  if (rc != LXW_NO_ERROR) book_.check(rc, "cannot write " + where());
}

void Sheet::write_number(int row, int col, double value, lxw_format* format) {
  if (!usable() || !book_.ok()) return;
  if (row >= kMaxRows || col >= kMaxColumns || row < 0 || col < 0) {
    book_.fail("sheet '" + name_ + "' needs cell " + std::to_string(row + 1) + "," + std::to_string(col + 1) +
               ", beyond Excel's limits (1,048,576 rows, 16,384 columns)");
    return;
  }
  if (!enter_row(row)) return;
  last_row_ = std::max(last_row_, row);
  last_col_ = std::max(last_col_, col);
  if (!std::isfinite(value)) {
    note_width(col, "");
    return;
  }
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.4g", value);
  note_width(col, buf);
  if (stream_ >= 0) {
    book_.stream_->number(stream_, row, col, value, format ? book_.stream_format(format) : column_stream_format(col));
    return;
  }
  book_.check(worksheet_write_number(sheet_, static_cast<lxw_row_t>(row), static_cast<lxw_col_t>(col), value,
                                     format ? format : column_format(col)),
              "cannot write sheet '" + name_ + "' cell " + cell_name(row, col));
}

void Sheet::freeze(int rows, int cols) {
  freeze_rows_ = rows;
  freeze_cols_ = cols;
  if (sheet_) worksheet_freeze_panes(sheet_, static_cast<lxw_row_t>(rows), static_cast<lxw_col_t>(cols));
}

void Sheet::write_p(int row, int col, double p) { write_number(row, col, p, book_.p_value_format(p)); }

void Sheet::print_title(const std::string& text) {
  // Excel allows 255 characters for the whole header string; stop at a character boundary before that.
  std::string escaped = "&L";
  for (std::size_t i = 0; i < text.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    bool starts_char = (c & 0xC0) != 0x80;
    if (starts_char && escaped.size() > 240) {
      escaped += "...";
      break;
    }
    if (c == '&') escaped += '&';
    escaped += static_cast<char>(c);
  }
  header_text_ = escaped;
}

void Sheet::finish() {
  if (!usable()) return;
  // Print settings: landscape A4, the header row repeated on every page, page numbers; one page wide when
  // that stays readable, else across pages with the id/name columns repeated (see kFitWidth).
  std::vector<double> widths(widths_.size());
  double total = 0;
  for (std::size_t c = 0; c < widths_.size(); ++c) {
    widths[c] = std::clamp(widths_[c], kMinWidth, width_cap(c));
    total += widths[c];
  }
  const bool fit = total <= kFitWidth;
  if (open_row_ >= 0) set_row_height(open_row_, open_lines_);  // (streamed: the last row's height)
  if (stream_ >= 0) {
    StreamSheetSetup u;
    u.widths = std::move(widths);
    u.freeze_rows = freeze_rows_;
    u.freeze_cols = freeze_cols_;
    if (has_header_ && !columns_.empty()) {
      u.filter_last_row = std::max(last_row_, 0);
      u.filter_last_col = static_cast<int>(columns_.size() - 1);
    }
    u.fit_width = fit;
    u.repeat_cols = !fit && frozen_cols_ > 0 ? frozen_cols_ : 0;
    u.repeat_rows = has_header_ ? 1 : 0;
    u.header = header_text_;
    u.footer = "&CPage &P of &N";
    book_.stream_->setup(stream_, std::move(u));
    return;
  }
  worksheet_set_landscape(sheet_);
  worksheet_set_paper(sheet_, 9);  // A4
  if (fit) worksheet_fit_to_pages(sheet_, 1, 0);
  else if (frozen_cols_ > 0)
    book_.check(worksheet_repeat_columns(sheet_, 0, static_cast<lxw_col_t>(frozen_cols_ - 1)),
                "cannot set the print titles of sheet '" + name_ + "'");
  if (has_header_) book_.check(worksheet_repeat_rows(sheet_, 0, 0), "cannot set the print titles of sheet '" + name_ + "'");
  for (std::size_t r = 0; r < lines_.size(); ++r) set_row_height(static_cast<int>(r), lines_[r]);
  if (!header_text_.empty()) book_.check(worksheet_set_header(sheet_, header_text_.c_str()), "cannot set the page header of sheet '" + name_ + "'");
  book_.check(worksheet_set_footer(sheet_, "&CPage &P of &N"), "cannot set the page footer of sheet '" + name_ + "'");
  if (has_header_ && !columns_.empty())
    book_.check(worksheet_autofilter(sheet_, 0, 0, static_cast<lxw_row_t>(std::max(last_row_, 0)),
                                     static_cast<lxw_col_t>(columns_.size() - 1)),
                "cannot set the autofilter of sheet '" + name_ + "'");
  for (std::size_t c = 0; c < widths.size(); ++c)
    book_.check(worksheet_set_column(sheet_, static_cast<lxw_col_t>(c), static_cast<lxw_col_t>(c), widths[c], nullptr),
                "cannot set the column widths of sheet '" + name_ + "'");
}

// ---- Book ----

Book::Book(fs::path target, const BookProperties& properties, Diagnostics& diags)
    : target_(std::move(target)), diags_(diags) {
  output_ = std::make_unique<files::AtomicOutput>(target_);  // creates the folder, picks a fresh temp name
  if (!output_->refused().empty()) {  // a device, a FIFO, a folder where the workbook goes: left alone
    error_ = output_->refused();
    return;
  }
  // Create the temp file now, so an unwritable folder is reported here (libxlsxwriter would only find out at
  // workbook_close, and print its own message to stderr).
  if (FILE* probe = std::fopen(output_->temp_path().c_str(), "wbx")) {
    std::fclose(probe);
  } else {
    error_ = "cannot create a file in " + output_->temp_path().parent_path().string() + ": " + std::strerror(errno);
    return;
  }
  // QUALRANK_XLSX_LIBXLSXWRITER=1 writes a streamed book with libxlsxwriter instead: for the test that both
  // writers give the same cells, formats and layout (tests/cli/workbook_stream.sh).
  const char* lxw = std::getenv("QUALRANK_XLSX_LIBXLSXWRITER");
  lxw_workbook_options options = {};
  if (properties.streamed && !(lxw && std::string_view(lxw) == "1")) {
    // libxlsxwriter then only makes the formats, which say how cells look; it writes no file.
    stream_ = std::make_unique<StreamWriter>(StreamProperties{properties.title, properties.subject, properties.author,
                                                              properties.comments, document_time()},
                                             output_->temp_path().parent_path().string());
  } else {
    // libxlsxwriter's scratch files (each part before it is zipped) go to a hidden folder beside the output,
    // ".NAME.scratch.PID.HEX.tmp", not to the system's temp folder: removed when the book is done, or (after
    // a kill) by the next write into this folder, as the temp file is.
    const std::string temp_name = output_->temp_path().filename().string();  // .NAME.PID.HEX.tmp
    const std::string prefix = "." + target_.filename().string();
    scratch_dir_ = output_->temp_path().parent_path() / (prefix + ".scratch" + temp_name.substr(prefix.size()));
    std::error_code ec;
    if (!fs::create_directory(scratch_dir_, ec) || ec) {
      error_ = "cannot create a folder in " + scratch_dir_.parent_path().string() + ": " +
               (ec ? ec.message() : std::string("it exists"));
      scratch_dir_.clear();
      return;
    }
    scratch_dir_text_ = scratch_dir_.string();
    options.tmpdir = scratch_dir_text_.data();
  }
  workbook_ = workbook_new_opt(output_->temp_path().c_str(), &options);
  if (!workbook_) {
    error_ = "cannot start a workbook at " + output_->temp_path().string();
    return;
  }
  lxw_doc_properties props = {};
  props.title = const_cast<char*>(properties.title.c_str());
  props.subject = const_cast<char*>(properties.subject.c_str());
  props.author = const_cast<char*>(properties.author.c_str());
  props.comments = const_cast<char*>(properties.comments.c_str());
  props.created = static_cast<time_t>(document_time());
  check(workbook_set_properties(workbook_, &props), "cannot set the workbook properties");

  bold_ = workbook_add_format(workbook_);
  format_set_bold(bold_);
  format_set_align(bold_, LXW_ALIGN_VERTICAL_TOP);
  for (CellStyle style : {CellStyle::text, CellStyle::wrapped_text, CellStyle::integer, CellStyle::decimal,
                          CellStyle::percent, CellStyle::one_decimal, CellStyle::three_decimals, CellStyle::scientific}) {
    lxw_format* f = workbook_add_format(workbook_);
    format_set_align(f, LXW_ALIGN_VERTICAL_TOP);
    switch (style) {
      case CellStyle::text: break;
      case CellStyle::wrapped_text: format_set_text_wrap(f); break;
      case CellStyle::integer: format_set_num_format(f, "0"); break;
      case CellStyle::decimal: format_set_num_format(f, "0.00"); break;
      case CellStyle::percent: format_set_num_format(f, "0.0%"); break;
      case CellStyle::one_decimal: format_set_num_format(f, "0.0"); break;
      case CellStyle::three_decimals: format_set_num_format(f, "0.000"); break;
      case CellStyle::scientific: format_set_num_format(f, "0.00E+00"); break;
    }
    style_formats_.push_back(f);
  }
  header_ = workbook_add_format(workbook_);
  format_set_bold(header_);
  format_set_align(header_, LXW_ALIGN_VERTICAL_TOP);
  format_set_text_wrap(header_);
}

Book::~Book() {
  if (workbook_ && !committed_) lxw_workbook_free(workbook_);
  remove_scratch();
  // output_'s destructor removes the temp file unless it was committed.
}

void Book::remove_scratch() {
  if (scratch_dir_.empty()) return;
  std::error_code ec;
  fs::remove_all(scratch_dir_, ec);  // libxlsxwriter has unlinked its files already; this removes the folder
  scratch_dir_.clear();
}

lxw_format* Book::format(CellStyle style) const {
  auto i = static_cast<std::size_t>(style);
  return i < style_formats_.size() ? style_formats_[i] : nullptr;
}

StreamFormat Book::stream_format(lxw_format* f) {
  if (!f) return StreamFormat::none;
  if (f == bold_) return StreamFormat::bold;
  if (f == header_) return StreamFormat::header;
  for (std::size_t i = 0; i < style_formats_.size(); ++i)
    if (style_formats_[i] == f) return static_cast<StreamFormat>(static_cast<int>(StreamFormat::text) + static_cast<int>(i));
  fail("internal error: a streamed workbook was given a format that is not the book's own");
  return StreamFormat::none;
}

lxw_format* Book::p_value_format(double p) const {
  return format(p != 0 && std::fabs(p) < 0.001 ? CellStyle::scientific : CellStyle::three_decimals);
}

void Book::fail(std::string message) {
  if (error_.empty()) error_ = std::move(message);
}

void Book::warn_once(const Location& source, char problem, std::string message) {
  if (!source.file.empty() && !warned_.emplace(source.file, source.line, source.column, problem).second) return;
  diags_.warning(source, std::move(message));
}

void Book::check(int code, const std::string& what) {
  if (code != LXW_NO_ERROR) fail(what + ": " + lxw_strerror(static_cast<lxw_error>(code)));
}

Sheet& Book::add_sheet(std::string_view name) {
  std::string clean;
  for (char c : name) clean += std::string_view("[]:*?/\\").find(c) == std::string_view::npos ? c : '_';
  text::replace_invalid_utf8(clean);  // defence in depth, as in cell_text
  // Cut to 31 characters (code points), never inside a UTF-8 sequence.
  std::size_t count = 0, pos = 0;
  while (pos < clean.size() && count < 31) {
    pos += sequence_length(static_cast<unsigned char>(clean[pos]));
    ++count;
  }
  clean.resize(std::min(pos, clean.size()));
  lxw_worksheet* ws = nullptr;
  int stream = -1;
  if (stream_) {
    if (clean.empty() || !sheet_names_.insert(text::fold_case(clean)).second) fail("cannot add a sheet named '" + clean + "' (empty or used twice)");
    else stream = stream_->add_sheet(clean);
  } else {
    ws = workbook_ ? workbook_add_worksheet(workbook_, clean.c_str()) : nullptr;
    if (workbook_ && !ws) fail("cannot add a sheet named '" + clean + "' (empty or used twice)");
  }
  sheets_.push_back(std::unique_ptr<Sheet>(new Sheet(*this, ws, stream, clean)));
  return *sheets_.back();
}

bool Book::commit(const std::function<bool()>& gate) {
  if (!write()) return false;
  if (gate && !gate()) return false;  // output_'s destructor removes the temp file
  return publish();
}

bool Book::write() {
  if (!workbook_ || committed_ || written_) {
    fail("the workbook was not started or is already committed");
    return false;
  }
  for (auto& s : sheets_) s->finish();
  if (!error_.empty()) return false;
  std::string written_error;
  if (stream_) {
    lxw_workbook_free(workbook_);  // it only held the formats
    workbook_ = nullptr;
    stream_->write(output_->temp_path().string(), &written_error);
    stream_.reset();
  } else {
    lxw_error rc = workbook_close(workbook_);
    workbook_ = nullptr;  // workbook_close frees it whatever happens
    remove_scratch();
    if (rc != LXW_NO_ERROR) written_error = lxw_strerror(rc);
  }
  if (!written_error.empty()) {
    fail("cannot write the workbook: " + written_error);
    return false;
  }
  written_ = true;
  return true;
}

bool Book::publish() {
  if (!written_ || committed_) {
    fail("the workbook was not written or is already committed");
    return false;
  }
  std::string err;
  if (!output_->commit(&err)) {  // fsync + rename; on failure the target is untouched
    fail(err);
    return false;
  }
  committed_ = true;
  return true;
}

}  // namespace qualrank::xlsx
