// The streamed workbook writer (xlsx_stream.h). The XML of each part follows what libxlsxwriter 1.1.4 writes
// in constant_memory mode (ECMA-376 SpreadsheetML), without a theme part: fonts name their colour.
#include "qualrank/report/xlsx/xlsx_stream.h"

#include <fcntl.h>
#include <unistd.h>
#include <isa-l/igzip_lib.h>
#include <zlib.h>  // crc32_combine: the pieces' checksums joined into the part's

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cmath>
#include <charconv>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <deque>
#include <mutex>
#include <thread>
#include <utility>

#include "qualrank/report/xlsx/xlsx_cells.h"  // cell_name, append_cell_name
#include "qualrank/util/deflate.h"  // IgzipStream, clear_upper_vector_state
#include "qualrank/util/parallel.h"
#include "qualrank/util/swar.h"
#include "qualrank/util/xlsx_read.h"   // column_letters
#include "qualrank/util/zip.h"        // the zip's records

namespace qualrank::xlsx {

using namespace std::string_view_literals;

// As "%.16G" prints it (what libxlsxwriter writes). A whole number below 10^15 is printed by std::to_chars
// as the same digits ("%.16G" shows up to 16 significant digits, so no exponent), without printf's cost: a
// large codebook writes a million such numbers.
void append_number_text(std::string& out, double v) {
  char buf[64];
  if (v == std::trunc(v) && std::fabs(v) < 1e15 && !(v == 0.0 && std::signbit(v))) {
    out.append(buf, std::to_chars(buf, buf + sizeof buf, static_cast<long long>(v)).ptr);
    return;
  }
  const int n = std::snprintf(buf, sizeof buf, "%.16G", v);
  out.append(buf, static_cast<std::size_t>(std::max(n, 0)));
}

namespace {

constexpr std::size_t kChunk = 1u << 20;     // XML per deflated piece
constexpr std::size_t kWindow = 32u * 1024;  // deflate's window: the dictionary each piece is primed with
constexpr std::size_t kQueued = 4;           // pieces waiting for a worker, at most (bounds the memory)
constexpr std::size_t kWorkers = 2;          // deflating threads, at most (one core's worth beside the writer)
// ISA-L's level 1 (igzip): deflating the 230 MB of sheet XML of the 2,000-transcript study in 1 MiB pieces
// takes 0.19 s of CPU against zlib's level 1 at 0.77 s (and libxlsxwriter's level 6 at 2.5-3.5 s), for the
// same 31 MB (bench/report_timing.sh; measured on the sheet itself, primed pieces as below): util/deflate.h.

void xml_escape(std::string& out, std::string_view s, bool attribute = false) {
  std::size_t run = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    // Eight bytes at a time past words with nothing to escape (most of a cell's text).
    while (i + 8 <= s.size()) {
      const std::uint64_t w = swar::load(s.data() + i);
      if (swar::has_byte(w, '&') | swar::has_byte(w, '<') | swar::has_byte(w, '>') | (attribute ? swar::has_byte(w, '"') : 0))
        break;
      i += 8;
    }
    if (i >= s.size()) break;
    const char* rep = nullptr;
    switch (s[i]) {
      case '&': rep = "&amp;"; break;
      case '<': rep = "&lt;"; break;
      case '>': rep = "&gt;"; break;
      case '"': rep = attribute ? "&quot;" : nullptr; break;
      default: break;
    }
    if (!rep) continue;
    out.append(s.substr(run, i - run));
    out += rep;
    run = i + 1;
  }
  out.append(s.substr(run));
}

std::string number_text(double v) {
  std::string out;
  append_number_text(out, v);
  return out;
}

// Appends `n` in decimal (no string of its own).
void append_number(std::string& out, unsigned n) {
  char digits[16];
  out.append(digits, std::to_chars(digits, digits + sizeof digits, n).ptr);
}

// A sheet name in a formula: always quoted ('' for a quote inside), which Excel accepts for any name.
std::string quoted_sheet(const std::string& name) {
  std::string q = "'";
  for (char c : name) q += c == '\'' ? std::string("''") : std::string(1, c);
  return q + "'";
}

struct Piece {
  std::string data;  // raw deflate, ending in a sync flush (or the final block); empty once spilled
  uLong crc = 0;     // of the uncompressed bytes
  uLong length = 0;  // uncompressed bytes
  std::uint64_t spill_offset = 0, spilled = 0;  // where `data` went in the spill file, and its size (0: kept)
  std::uint64_t size() const { return spilled ? spilled : data.size(); }
};

// An unnamed file beside the output that deflated sheet pieces go to as they are made, so the book's
// compressed sheets (31 MB on the 2,000-transcript study) are not held in memory until the zip is written.
// O_TMPFILE where the file system has it; else a named file unlinked at once. Either way nothing is left
// behind, even after a kill. The deflater's workers write to it at once: each reserves its bytes, then writes.
class Spill {
 public:
  explicit Spill(const std::string& dir) {
    if (dir.empty()) return;
#ifdef O_TMPFILE
    fd_ = ::open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
#endif
    for (int attempt = 0; fd_ < 0 && attempt < 8; ++attempt) {
      const std::string name = dir + "/.qualrank-spill." + std::to_string(::getpid()) + "." + std::to_string(attempt) + ".tmp";
      fd_ = ::open(name.c_str(), O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC | O_NOFOLLOW, 0600);
      if (fd_ >= 0) ::unlink(name.c_str());
    }
  }
  ~Spill() {
    if (fd_ >= 0) ::close(fd_);
  }
  Spill(const Spill&) = delete;
  Spill& operator=(const Spill&) = delete;
  bool open() const { return fd_ >= 0; }
  // Writes `bytes` (a piece's deflated data) to the file and records where in `piece`; false (the caller then
  // keeps them in memory) when it cannot.
  bool take(std::string_view bytes, Piece& piece) {
    if (fd_ < 0 || failed_ || bytes.empty()) return false;
    std::uint64_t at = 0;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      at = end_;
      end_ += bytes.size();
    }
    if (!write_all(bytes.data(), bytes.size(), at)) {
      failed_ = true;  // (the bytes reserved stay unused)
      return false;
    }
    piece.spill_offset = at;
    piece.spilled = bytes.size();
    return true;
  }
  // Writes the spilled bytes of `piece` to `out`.
  bool copy(const Piece& piece, std::FILE* out) const {
    std::string buffer(std::min<std::uint64_t>(piece.spilled, 1u << 20), '\0');
    for (std::uint64_t done = 0; done < piece.spilled;) {
      const auto want = static_cast<std::size_t>(std::min<std::uint64_t>(buffer.size(), piece.spilled - done));
      const ssize_t got = ::pread(fd_, buffer.data(), want, static_cast<off_t>(piece.spill_offset + done));
      if (got <= 0 || std::fwrite(buffer.data(), 1, static_cast<std::size_t>(got), out) != static_cast<std::size_t>(got)) return false;
      done += static_cast<std::uint64_t>(got);
    }
    return true;
  }

 private:
  bool write_all(const char* data, std::size_t size, std::uint64_t at) {
    while (size > 0) {
      const ssize_t put = ::pwrite(fd_, data, size, static_cast<off_t>(at));
      if (put <= 0) return false;
      data += put;
      size -= static_cast<std::size_t>(put);
      at += static_cast<std::uint64_t>(put);
    }
    return true;
  }
  int fd_ = -1;
  std::atomic<bool> failed_{false};
  std::mutex mutex_;
  std::uint64_t end_ = 0;
};

// Deflates `input` as one raw piece primed with `dictionary` (`last` ends the stream; otherwise a sync flush
// ends it on a byte boundary, so pieces deflated apart concatenate into one stream) into `out`, or, given a
// spill that takes it, into the spill straight from the scratch buffer.
bool deflate_piece(const std::string& input, const std::string& dictionary, bool last, Piece& out, Spill* spill = nullptr) {
  thread_local deflate::IgzipStream stream;
  isal_zstream* zs = stream.reset();
  if (!dictionary.empty() &&
      isal_deflate_set_dict(zs, reinterpret_cast<std::uint8_t*>(const_cast<char*>(dictionary.data())),
                            static_cast<std::uint32_t>(dictionary.size())) != COMP_OK)
    return false;
  // Into a scratch buffer this thread keeps (deflate_into offers igzip a room that depends on the piece alone,
  // so which thread deflates which piece changes no byte), then copied at its real size (a piece keeps no
  // slack: 230 of them would otherwise hold 230 MB).
  thread_local std::string scratch;
  const auto made = deflate::deflate_into(zs, input, last, scratch);
  if (!made) return false;
  const std::string_view bytes(scratch.data(), *made);
  if (!spill || !spill->take(bytes, out)) out.data.assign(bytes);
  out.crc = deflate::crc32(input);
  out.length = static_cast<uLong>(input.size());
  return true;
}

// Worker threads (one per core, at most kWorkers) deflating pieces while the caller writes the next; inline
// when there is one core. Each piece is deflated on its own (primed with the XML before it), so the order they
// finish in changes no byte: a piece's result goes where the caller said.
class Deflater {
 public:
  Deflater() {
    const std::size_t workers = worker_threads() > 1 ? std::min<std::size_t>(worker_threads(), kWorkers) : 0;
    for (std::size_t i = 0; i < workers; ++i) workers_.emplace_back([this] { run(); });
  }
  ~Deflater() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    work_.notify_all();
    for (auto& w : workers_) w.join();
  }
  // Deflates `input` into `out`, then moves the result to `spill` when given (and it can).
  void submit(std::string input, std::string dictionary, bool last, Piece* out, Spill* spill = nullptr) {
    if (workers_.empty()) {
      if (!deflate_piece(input, dictionary, last, *out, spill)) failed_ = true;
      recycle(std::move(input));
      return;
    }
    std::unique_lock<std::mutex> lock(mutex_);
    room_.wait(lock, [&] { return queue_.size() < kQueued; });
    queue_.push_back({std::move(input), std::move(dictionary), last, out, spill});
    work_.notify_one();
  }
  // An empty buffer for the next piece's XML, with the room of one deflated already when there is one: a chunk
  // grown from nothing doubles past malloc's mapping threshold several times, and each such block is mapped
  // and its pages cleared anew.
  std::string spare() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (spares_.empty()) return {};
    std::string s = std::move(spares_.back());
    spares_.pop_back();
    return s;
  }
  // Waits for every piece submitted; false when one could not be deflated.
  bool finish() {
    std::unique_lock<std::mutex> lock(mutex_);
    room_.wait(lock, [&] { return queue_.empty() && busy_ == 0; });
    return !failed_;
  }

 private:
  struct Job {
    std::string input, dictionary;
    bool last;
    Piece* out;
    Spill* spill;
  };
  void run() {
    std::unique_lock<std::mutex> lock(mutex_);
    while (true) {
      work_.wait(lock, [&] { return stop_ || !queue_.empty(); });
      if (queue_.empty()) return;
      Job job = std::move(queue_.front());
      queue_.pop_front();
      ++busy_;
      room_.notify_all();
      lock.unlock();
      const bool ok = deflate_piece(job.input, job.dictionary, job.last, *job.out, job.spill);
      lock.lock();
      recycle(std::move(job.input));
      if (!ok) failed_ = true;
      --busy_;
      room_.notify_all();
    }
  }
  // Keeps an input buffer for spare() (called with mutex_ held, or inline where nothing else runs).
  void recycle(std::string buffer) {
    if (spares_.size() >= kQueued + kWorkers || buffer.capacity() < kChunk) return;
    buffer.clear();
    spares_.push_back(std::move(buffer));
  }
  std::vector<std::thread> workers_;
  std::vector<std::string> spares_;
  std::mutex mutex_;
  std::condition_variable work_, room_;
  std::deque<Job> queue_;
  std::size_t busy_ = 0;  // workers deflating a piece
  bool stop_ = false, failed_ = false;
};

struct Part {
  std::string name;
  std::deque<Piece>* pieces;  // in order; their concatenation is the part's deflate stream
};


}  // namespace

struct StreamWriter::Impl {
  struct Sheet {
    std::string name;
    std::string cells_xml;                           // the open row's cells, in the order written
    struct Cell {
      int col;
      std::size_t begin, end;  // its XML in cells_xml
    };
    std::vector<Cell> cells;
    int row = -1;                                    // the open row
    double height = 0;                               // its height in points (0 = default)
    std::string chunk;                               // XML not yet handed to the deflater
    std::string window;                              // the last kWindow bytes handed over
    std::deque<Piece> body;                          // the sheetData pieces
    int first_row = -1, last_row = -1, first_col = -1, last_col = -1;
    StreamSheetSetup setup;
  };
  StreamProperties properties;
  std::deque<Sheet> sheets;  // (a deque: a sheet never moves, so the pieces being deflated stay where they are)
  std::unique_ptr<Spill> spill;  // where the sheets' body pieces go once deflated (nullptr: kept in memory)
  Deflater deflater;             // (declared last: destroyed first, so its worker is done with the spill)

  // Hands the sheet's pending XML to the deflater, primed with the kWindow bytes of XML just before it (the
  // dictionary must be exactly what precedes the piece in the part, which it is: the body's own bytes).
  void hand_over(Sheet& s) {
    std::string dictionary = s.window;
    if (s.chunk.size() >= kWindow) {
      s.window.assign(s.chunk, s.chunk.size() - kWindow, kWindow);
    } else {
      s.window += s.chunk;
      if (s.window.size() > kWindow) s.window.erase(0, s.window.size() - kWindow);
    }
    s.body.emplace_back();
    deflater.submit(std::move(s.chunk), std::move(dictionary), false, &s.body.back(), spill.get());
    s.chunk = deflater.spare();
  }

  void close_row(Sheet& s) {
    if (s.row < 0 || (s.cells.empty() && s.height <= 0)) return;
    // (literals appended as string_views: their lengths are known here, not counted at each of 240,000 rows)
    s.chunk += "<row r=\""sv;
    append_number(s.chunk, static_cast<unsigned>(s.row + 1));
    s.chunk += '"';
    if (s.height > 0) {
      s.chunk += " ht=\""sv;
      append_number_text(s.chunk, s.height);
      s.chunk += "\" customHeight=\"1\""sv;
    }
    if (s.cells.empty()) {
      s.chunk += "/>"sv;
    } else {
      s.chunk += '>';
      const auto before = [](const Sheet::Cell& a, const Sheet::Cell& b) { return a.col < b.col; };
      if (std::adjacent_find(s.cells.begin(), s.cells.end(), [](const auto& a, const auto& b) { return a.col >= b.col; }) ==
          s.cells.end()) {
        s.chunk += s.cells_xml;  // written left to right, each once: the usual case
      } else {
        std::stable_sort(s.cells.begin(), s.cells.end(), before);
        for (std::size_t i = 0; i < s.cells.size(); ++i)
          if (i + 1 == s.cells.size() || s.cells[i + 1].col != s.cells[i].col)  // a cell written twice: the last
            s.chunk.append(s.cells_xml, s.cells[i].begin, s.cells[i].end - s.cells[i].begin);
      }
      s.chunk += "</row>"sv;
    }
    s.cells.clear();
    s.cells_xml.clear();
    if (s.chunk.size() >= kChunk) hand_over(s);
  }

  // Starts the XML of a cell of `sheet` at (row, col): `<c r="REF"[ s="N"]`, left open for its type and value.
  Sheet& open_cell(int sheet, int row, int col, StreamFormat format) {
    Sheet& s = at_row(sheet, row);
    note_cell(s, row, col);
    s.cells.push_back({col, s.cells_xml.size(), 0});
    // `<c r="B12" s="3"`, appended in place: three million cells in a large codebook, each of which built four
    // temporary strings (cell_name's letters and number, and the two concatenations).
    s.cells_xml += "<c r=\""sv;
    append_cell_name(s.cells_xml, row, col);
    s.cells_xml += '"';
    if (format != StreamFormat::none) {
      s.cells_xml += " s=\""sv;
      append_number(s.cells_xml, static_cast<unsigned>(format));
      s.cells_xml += '"';
    }
    return s;
  }

  Sheet& at_row(int sheet, int row) {
    Sheet& s = sheets[static_cast<std::size_t>(sheet)];
    if (row != s.row) {
      close_row(s);
      s.row = row;
      s.height = 0;
    }
    return s;
  }

  void note_cell(Sheet& s, int row, int col) {
    if (s.first_row < 0 || row < s.first_row) s.first_row = row;
    s.last_row = std::max(s.last_row, row);
    if (s.first_col < 0 || col < s.first_col) s.first_col = col;
    s.last_col = std::max(s.last_col, col);
  }

  std::string sheet_head(const Sheet& s, bool selected) const;
  std::string sheet_tail(const Sheet& s) const;
  std::string workbook_xml() const;
  std::string styles_xml() const;
  std::string content_types_xml() const;
  std::string app_xml() const;
  std::string core_xml() const;
  std::string workbook_rels_xml() const;
};

namespace {
constexpr const char* kDecl = "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n";
constexpr const char* kMainNs = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
constexpr const char* kRelNs = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
}  // namespace

std::string StreamWriter::Impl::sheet_head(const Sheet& s, bool selected) const {
  const StreamSheetSetup& u = s.setup;
  std::string x = kDecl;
  x += std::string("<worksheet xmlns=\"") + kMainNs + "\" xmlns:r=\"" + kRelNs + "\">";
  if (u.fit_width) x += "<sheetPr><pageSetUpPr fitToPage=\"1\"/></sheetPr>";
  x += "<dimension ref=\"";
  if (s.first_row < 0) {
    x += "A1";
  } else {
    x += cell_name(s.first_row, s.first_col);
    if (s.first_row != s.last_row || s.first_col != s.last_col) {
      x += ':';
      x += cell_name(s.last_row, s.last_col);
    }
  }
  x += "\"/><sheetViews><sheetView";
  if (selected) x += " tabSelected=\"1\"";
  x += " workbookViewId=\"0\"";
  const int fr = u.freeze_rows, fc = u.freeze_cols;
  if (fr <= 0 && fc <= 0) {
    x += "/>";
  } else {
    x += '>';
    const std::string top_left = cell_name(std::max(fr, 0), std::max(fc, 0));
    if (fr > 0 && fc > 0) {
      const std::string top_right = cell_name(0, fc), bottom_left = cell_name(fr, 0);
      x += "<pane xSplit=\"" + std::to_string(fc) + "\" ySplit=\"" + std::to_string(fr) + "\" topLeftCell=\"" + top_left +
           "\" activePane=\"bottomRight\" state=\"frozen\"/><selection pane=\"topRight\" activeCell=\"" + top_right +
           "\" sqref=\"" + top_right + "\"/><selection pane=\"bottomLeft\" activeCell=\"" + bottom_left + "\" sqref=\"" +
           bottom_left + "\"/><selection pane=\"bottomRight\"/>";
    } else if (fr > 0) {
      x += "<pane ySplit=\"" + std::to_string(fr) + "\" topLeftCell=\"" + top_left +
           "\" activePane=\"bottomLeft\" state=\"frozen\"/><selection pane=\"bottomLeft\"/>";
    } else {
      x += "<pane xSplit=\"" + std::to_string(fc) + "\" topLeftCell=\"" + top_left +
           "\" activePane=\"topRight\" state=\"frozen\"/><selection pane=\"topRight\"/>";
    }
    x += "</sheetView>";
  }
  x += "</sheetViews><sheetFormatPr defaultRowHeight=\"15\"/>";
  if (!u.widths.empty()) {
    x += "<cols>";
    for (std::size_t c = 0; c < u.widths.size(); ++c) {
      // Excel's stored width: the pixels of `w` characters of the default font (7 px each, 5 px padding),
      // in 1/256ths of a character (libxlsxwriter's and Excel's conversion).
      const double w = u.widths[c];
      const int pixels = w < 1 ? static_cast<int>(w * 12 + 0.5) : static_cast<int>(w * 7 + 0.5) + 5;
      const double stored = static_cast<double>(static_cast<int>(pixels / 7.0 * 256)) / 256;
      const std::string n = std::to_string(c + 1);
      x += "<col min=\"" + n + "\" max=\"" + n + "\" width=\"" + number_text(stored) + "\" customWidth=\"1\"/>";
    }
    x += "</cols>";
  }
  x += "<sheetData>";
  return x;
}

std::string StreamWriter::Impl::sheet_tail(const Sheet& s) const {
  const StreamSheetSetup& u = s.setup;
  std::string x = "</sheetData>";
  if (u.filter_last_row >= 0 && u.filter_last_col >= 0) {
    x += "<autoFilter ref=\"A1:";
    x += cell_name(u.filter_last_row, u.filter_last_col);
    x += "\"/>";
  }
  x += "<pageMargins left=\"0.7\" right=\"0.7\" top=\"0.75\" bottom=\"0.75\" header=\"0.3\" footer=\"0.3\"/>"
       "<pageSetup paperSize=\"9\" orientation=\"landscape\"";
  if (u.fit_width) x += " fitToHeight=\"0\"";
  x += "/>";
  if (!u.header.empty() || !u.footer.empty()) {
    x += "<headerFooter>";
    if (!u.header.empty()) {
      x += "<oddHeader>";
      xml_escape(x, u.header);
      x += "</oddHeader>";
    }
    if (!u.footer.empty()) {
      x += "<oddFooter>";
      xml_escape(x, u.footer);
      x += "</oddFooter>";
    }
    x += "</headerFooter>";
  }
  x += "</worksheet>";
  return x;
}

std::string StreamWriter::Impl::workbook_xml() const {
  std::string x = kDecl;
  x += std::string("<workbook xmlns=\"") + kMainNs + "\" xmlns:r=\"" + kRelNs +
       "\"><fileVersion appName=\"xl\" lastEdited=\"4\" lowestEdited=\"4\" rupBuild=\"4505\"/><workbookPr/>"
       "<bookViews><workbookView xWindow=\"240\" yWindow=\"15\" windowWidth=\"16095\" windowHeight=\"9660\"/></bookViews><sheets>";
  for (std::size_t i = 0; i < sheets.size(); ++i) {
    x += "<sheet name=\"";
    xml_escape(x, sheets[i].name, true);
    x += "\" sheetId=\"" + std::to_string(i + 1) + "\" r:id=\"rId" + std::to_string(i + 1) + "\"/>";
  }
  x += "</sheets>";
  // Defined names, by name then sheet: each sheet's autofilter range and print titles.
  std::vector<std::pair<std::string, std::string>> names;  // (sort key, XML)
  for (std::size_t i = 0; i < sheets.size(); ++i) {
    const auto& s = sheets[i];
    const std::string q = quoted_sheet(s.name);
    const std::string id = std::to_string(i);
    if (s.setup.filter_last_row >= 0 && s.setup.filter_last_col >= 0) {
      std::string range = q + "!$A$1:$" + column_letters(s.setup.filter_last_col + 1) + "$" + std::to_string(s.setup.filter_last_row + 1);
      std::string e = "<definedName name=\"_xlnm._FilterDatabase\" localSheetId=\"" + id + "\" hidden=\"1\">";
      xml_escape(e, range);
      names.emplace_back("1" + s.name, e + "</definedName>");
    }
    std::vector<std::string> titles;
    if (s.setup.repeat_cols > 0) titles.push_back(q + "!$A:$" + column_letters(s.setup.repeat_cols));
    if (s.setup.repeat_rows > 0) titles.push_back(q + "!$1:$" + std::to_string(s.setup.repeat_rows));
    if (!titles.empty()) {
      std::string e = "<definedName name=\"_xlnm.Print_Titles\" localSheetId=\"" + id + "\">";
      std::string joined;
      for (const auto& t : titles) joined += (joined.empty() ? "" : ",") + t;
      xml_escape(e, joined);
      names.emplace_back("2" + s.name, e + "</definedName>");
    }
  }
  std::stable_sort(names.begin(), names.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  if (!names.empty()) {
    x += "<definedNames>";
    for (const auto& n : names) x += n.second;
    x += "</definedNames>";
  }
  x += "<calcPr calcId=\"124519\" fullCalcOnLoad=\"1\"/></workbook>";
  return x;
}

std::string StreamWriter::Impl::styles_xml() const {
  // The xf order is StreamFormat's; number formats 2 ("0.00") and 11 ("0.00E+00") are built in.
  std::string x = kDecl;
  x += std::string("<styleSheet xmlns=\"") + kMainNs + "\">";
  x += "<numFmts count=\"4\"><numFmt numFmtId=\"164\" formatCode=\"0\"/><numFmt numFmtId=\"165\" formatCode=\"0.0%\"/>"
       "<numFmt numFmtId=\"166\" formatCode=\"0.0\"/><numFmt numFmtId=\"167\" formatCode=\"0.000\"/></numFmts>";
  x += "<fonts count=\"2\"><font><sz val=\"11\"/><color rgb=\"FF000000\"/><name val=\"Calibri\"/><family val=\"2\"/></font>"
       "<font><b/><sz val=\"11\"/><color rgb=\"FF000000\"/><name val=\"Calibri\"/><family val=\"2\"/></font></fonts>";
  x += "<fills count=\"2\"><fill><patternFill patternType=\"none\"/></fill><fill><patternFill patternType=\"gray125\"/></fill></fills>"
       "<borders count=\"1\"><border><left/><right/><top/><bottom/><diagonal/></border></borders>"
       "<cellStyleXfs count=\"1\"><xf numFmtId=\"0\" fontId=\"0\" fillId=\"0\" borderId=\"0\"/></cellStyleXfs>";
  auto xf = [](int num_fmt, bool bold, bool wrap) {
    std::string e = "<xf numFmtId=\"" + std::to_string(num_fmt) + "\" fontId=\"" + (bold ? "1" : "0") +
                    "\" fillId=\"0\" borderId=\"0\" xfId=\"0\"";
    if (num_fmt != 0) e += " applyNumberFormat=\"1\"";
    if (bold) e += " applyFont=\"1\"";
    e += " applyAlignment=\"1\"><alignment vertical=\"top\"";
    if (wrap) e += " wrapText=\"1\"";
    return e + "/></xf>";
  };
  x += "<cellXfs count=\"11\"><xf numFmtId=\"0\" fontId=\"0\" fillId=\"0\" borderId=\"0\" xfId=\"0\"/>";
  x += xf(0, true, false);     // bold
  x += xf(0, false, false);    // text
  x += xf(0, false, true);     // wrapped_text
  x += xf(164, false, false);  // integer
  x += xf(2, false, false);    // decimal
  x += xf(165, false, false);  // percent
  x += xf(166, false, false);  // one_decimal
  x += xf(167, false, false);  // three_decimals
  x += xf(11, false, false);   // scientific
  x += xf(0, true, true);      // header: bold, wrapped (a title wider than its column takes more lines)
  x += "</cellXfs><cellStyles count=\"1\"><cellStyle name=\"Normal\" xfId=\"0\" builtinId=\"0\"/></cellStyles><dxfs count=\"0\"/>"
       "<tableStyles count=\"0\" defaultTableStyle=\"TableStyleMedium9\" defaultPivotStyle=\"PivotStyleLight16\"/></styleSheet>";
  return x;
}

std::string StreamWriter::Impl::content_types_xml() const {
  std::string x = kDecl;
  x += "<Types xmlns=\"http://schemas.openxmlformats.org/package/2006/content-types\">"
       "<Default Extension=\"rels\" ContentType=\"application/vnd.openxmlformats-package.relationships+xml\"/>"
       "<Default Extension=\"xml\" ContentType=\"application/xml\"/>"
       "<Override PartName=\"/docProps/app.xml\" ContentType=\"application/vnd.openxmlformats-officedocument.extended-properties+xml\"/>"
       "<Override PartName=\"/docProps/core.xml\" ContentType=\"application/vnd.openxmlformats-package.core-properties+xml\"/>"
       "<Override PartName=\"/xl/styles.xml\" ContentType=\"application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml\"/>"
       "<Override PartName=\"/xl/workbook.xml\" ContentType=\"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml\"/>";
  for (std::size_t i = 0; i < sheets.size(); ++i)
    x += "<Override PartName=\"/xl/worksheets/sheet" + std::to_string(i + 1) +
         ".xml\" ContentType=\"application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml\"/>";
  return x + "</Types>";
}

std::string StreamWriter::Impl::app_xml() const {
  std::string x = kDecl;
  x += "<Properties xmlns=\"http://schemas.openxmlformats.org/officeDocument/2006/extended-properties\" "
       "xmlns:vt=\"http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes\"><Application>Microsoft Excel</Application>"
       "<DocSecurity>0</DocSecurity><ScaleCrop>false</ScaleCrop><HeadingPairs><vt:vector size=\"2\" baseType=\"variant\">"
       "<vt:variant><vt:lpstr>Worksheets</vt:lpstr></vt:variant><vt:variant><vt:i4>" +
       std::to_string(sheets.size()) + "</vt:i4></vt:variant></vt:vector></HeadingPairs><TitlesOfParts><vt:vector size=\"" +
       std::to_string(sheets.size()) + "\" baseType=\"lpstr\">";
  for (const auto& s : sheets) {
    x += "<vt:lpstr>";
    xml_escape(x, s.name);
    x += "</vt:lpstr>";
  }
  x += "</vt:vector></TitlesOfParts><Company></Company><LinksUpToDate>false</LinksUpToDate><SharedDoc>false</SharedDoc>"
       "<HyperlinksChanged>false</HyperlinksChanged><AppVersion>12.0000</AppVersion></Properties>";
  return x;
}

std::string StreamWriter::Impl::core_xml() const {
  char date[32] = "1970-01-01T00:00:00Z";
  const std::time_t t = static_cast<std::time_t>(properties.created);
  std::tm tm{};
  if (gmtime_r(&t, &tm)) std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &tm);
  std::string x = kDecl;
  x += "<cp:coreProperties xmlns:cp=\"http://schemas.openxmlformats.org/package/2006/metadata/core-properties\" "
       "xmlns:dc=\"http://purl.org/dc/elements/1.1/\" xmlns:dcterms=\"http://purl.org/dc/terms/\" "
       "xmlns:dcmitype=\"http://purl.org/dc/dcmitype/\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\">";
  auto element = [&](const char* name, const std::string& value) {
    if (value.empty()) return;
    x += std::string("<") + name + ">";
    xml_escape(x, value);
    x += std::string("</") + name + ">";
  };
  element("dc:title", properties.title);
  element("dc:subject", properties.subject);
  element("dc:creator", properties.author);
  element("dc:description", properties.comments);
  element("cp:lastModifiedBy", properties.author);
  x += std::string("<dcterms:created xsi:type=\"dcterms:W3CDTF\">") + date + "</dcterms:created>";
  x += std::string("<dcterms:modified xsi:type=\"dcterms:W3CDTF\">") + date + "</dcterms:modified></cp:coreProperties>";
  return x;
}

std::string StreamWriter::Impl::workbook_rels_xml() const {
  std::string x = kDecl;
  x += "<Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\">";
  for (std::size_t i = 0; i < sheets.size(); ++i)
    x += "<Relationship Id=\"rId" + std::to_string(i + 1) +
         "\" Type=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet\" Target=\"worksheets/sheet" +
         std::to_string(i + 1) + ".xml\"/>";
  x += "<Relationship Id=\"rId" + std::to_string(sheets.size() + 1) +
       "\" Type=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles\" Target=\"styles.xml\"/>";
  return x + "</Relationships>";
}

StreamWriter::StreamWriter(StreamProperties properties, const std::string& spill_dir) : impl_(std::make_unique<Impl>()) {
  impl_->properties = std::move(properties);
  if (!spill_dir.empty()) {
    impl_->spill = std::make_unique<Spill>(spill_dir);
    if (!impl_->spill->open()) impl_->spill.reset();
  }
}

StreamWriter::~StreamWriter() = default;

int StreamWriter::add_sheet(std::string name) {
  impl_->sheets.emplace_back();
  impl_->sheets.back().name = std::move(name);
  return static_cast<int>(impl_->sheets.size() - 1);
}

void StreamWriter::text(int sheet, int row, int col, std::string_view text, StreamFormat format) {
  auto& s = impl_->open_cell(sheet, row, col, format);
  // (isspace's set in the C locale, without a call through the locale per cell)
  const auto space = [](char c) { return c == ' ' || (c >= '\t' && c <= '\r'); };
  const bool preserve = !text.empty() && (space(text.front()) || space(text.back()));
  s.cells_xml += preserve ? " t=\"inlineStr\"><is><t xml:space=\"preserve\">"sv : " t=\"inlineStr\"><is><t>"sv;
  xml_escape(s.cells_xml, text);
  s.cells_xml += "</t></is></c>"sv;
  s.cells.back().end = s.cells_xml.size();
}

void StreamWriter::number(int sheet, int row, int col, double value, StreamFormat format) {
  auto& s = impl_->open_cell(sheet, row, col, format);
  s.cells_xml += "><v>"sv;
  append_number_text(s.cells_xml, value);
  s.cells_xml += "</v></c>"sv;
  s.cells.back().end = s.cells_xml.size();
}

void StreamWriter::row_height(int sheet, int row, double points) { impl_->at_row(sheet, row).height = points; }

void StreamWriter::setup(int sheet, StreamSheetSetup setup) { impl_->sheets[static_cast<std::size_t>(sheet)].setup = std::move(setup); }

bool StreamWriter::write(const std::string& path, std::string* error) {
  auto fail = [&](const std::string& why) {
    if (error) *error = why;
    return false;
  };
  Impl& w = *impl_;
  // Every part as pieces: small parts one final piece; a sheet its head, its body pieces, its tail.
  std::deque<std::deque<Piece>> small;  // (deques: nothing moves while the worker writes into it)
  std::vector<Part> parts;
  auto whole = [&](std::string name, const std::string& xml) {
    small.emplace_back().emplace_back();
    w.deflater.submit(xml, "", true, &small.back().back());
    parts.push_back({std::move(name), &small.back()});
  };
  whole("[Content_Types].xml", w.content_types_xml());
  whole("_rels/.rels", std::string(kDecl) +
                           "<Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\">"
                           "<Relationship Id=\"rId1\" Type=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument\" Target=\"xl/workbook.xml\"/>"
                           "<Relationship Id=\"rId2\" Type=\"http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties\" Target=\"docProps/core.xml\"/>"
                           "<Relationship Id=\"rId3\" Type=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships/extended-properties\" Target=\"docProps/app.xml\"/>"
                           "</Relationships>");
  whole("docProps/app.xml", w.app_xml());
  whole("docProps/core.xml", w.core_xml());
  whole("xl/_rels/workbook.xml.rels", w.workbook_rels_xml());
  whole("xl/workbook.xml", w.workbook_xml());
  whole("xl/styles.xml", w.styles_xml());
  // Sheets: close the open row, hand over the rest, then the head (first) and the tail (last, final).
  std::deque<std::deque<Piece>> heads(w.sheets.size());
  for (std::size_t i = 0; i < w.sheets.size(); ++i) {
    auto& s = w.sheets[i];
    w.close_row(s);
    if (!s.chunk.empty()) w.hand_over(s);
    heads[i].emplace_back();
    w.deflater.submit(w.sheet_head(s, i == 0), "", false, &heads[i].back());
    s.body.emplace_back();
    w.deflater.submit(w.sheet_tail(s), s.window, true, &s.body.back());
  }
  if (!w.deflater.finish()) return fail("cannot compress the workbook (igzip)");
  for (std::size_t i = 0; i < w.sheets.size(); ++i) {
    for (auto& p : w.sheets[i].body) heads[i].push_back(std::move(p));
    w.sheets[i].body.clear();
    parts.push_back({"xl/worksheets/sheet" + std::to_string(i + 1) + ".xml", &heads[i]});
  }
  // The zip: local header and data per part, then the central directory (no data descriptors, no ZIP64).
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) return fail("cannot open " + path + " for writing");
  std::string central;
  unsigned long offset = 0;
  bool ok = true;
  for (const auto& part : parts) {
    uLong crc = 0;
    unsigned long long compressed = 0, total = 0;
    for (const auto& p : *part.pieces) {
      crc = crc32_combine(crc, p.crc, static_cast<z_off_t>(p.length));
      total += p.length;
      compressed += p.size();
    }
    if (total > 0xFFFFFFFFull || compressed > 0xFFFFFFFFull || offset > 0xFFFFFFFFul - compressed - 1024) {
      std::fclose(f);
      return fail("the workbook part " + part.name + " is over 4 GiB (qualrank writes no ZIP64)");
    }
    const std::string local = zip::local_header({part.name, true, static_cast<std::uint32_t>(crc), compressed, total});
    central += zip::central_entry(local, offset);
    ok = ok && std::fwrite(local.data(), 1, local.size(), f) == local.size();
    for (const auto& p : *part.pieces)
      ok = ok && (p.spilled ? w.spill->copy(p, f) : std::fwrite(p.data.data(), 1, p.data.size(), f) == p.data.size());
    offset += static_cast<unsigned long>(local.size() + compressed);
  }
  const std::string end = zip::end_record(parts.size(), central.size(), offset);
  ok = ok && std::fwrite(central.data(), 1, central.size(), f) == central.size();
  ok = ok && std::fwrite(end.data(), 1, end.size(), f) == end.size();
  ok = std::fclose(f) == 0 && ok;
  if (!ok) return fail("cannot write " + path + " (disk full?)");
  return true;
}

}  // namespace qualrank::xlsx
