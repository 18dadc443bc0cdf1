// Unit tests for the safe workbook layer (src/report/xlsx/xlsx_book.cpp): cell text cleaning and cutting, cell
// names, atomic commit and reproducible bytes.
#include "catch.h"

#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <limits>
#include <string>
#include <vector>
#include <filesystem>
#include <fstream>

#include "qualrank/report/xlsx/xlsx_book.h"
#include "qualrank/report/xlsx/xlsx_stream.h"
#include "qualrank/util/xlsx_read.h"
#include "qualrank/util/files.h"

using namespace qualrank;
namespace fs = std::filesystem;

namespace {

fs::path temp_dir(const std::string& name) {
  auto dir = fs::temp_directory_path() / ("qualrank-xlsx-test-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// UTF-16 code units of valid UTF-8.
std::size_t utf16_units(const std::string& s) {
  std::size_t n = 0;
  for (unsigned char c : s) {
    if ((c & 0xC0) != 0x80) ++n;
    if (c >= 0xF0) ++n;  // a 4-byte sequence is a surrogate pair
  }
  return n;
}

void write_sample(const fs::path& out, Diagnostics& diags) {
  xlsx::Book book(out, {"Sample", "tests", "qualrank", ""}, diags);
  REQUIRE(book.ok());
  auto& sheet = book.add_sheet("Data");
  sheet.header({{"Text", xlsx::CellStyle::wrapped_text, 40}, {"Count", xlsx::CellStyle::integer, 10}});
  sheet.write_text(1, 0, "=HYPERLINK(\"http://x\")", {"t.md", 3, 0});
  sheet.write_number(1, 1, 42);
  sheet.write_text(2, 0, std::string("bell\x07"), {"t.md", 4, 0});
  sheet.write_text(3, 0, std::string("bell\x07 again"), {"t.md", 4, 0});  // same source: warned once
  REQUIRE(book.commit());
}

}  // namespace

TEST_CASE("xlsx::cell_text removes XML-invalid characters and keeps tab and newline", "[xlsx]") {
  std::size_t removed = 0, cut = 0;
  CHECK(xlsx::cell_text(std::string("a\x01" "b\tc\nd\x1f" "e"), &removed, &cut) == "ab\tc\nde");
  CHECK(removed == 2);
  CHECK(cut == 0);
  CHECK(xlsx::cell_text("=1+1") == "=1+1");  // the text itself is never changed
}

TEST_CASE("xlsx::cell_text and Book never write invalid UTF-8: U+FFFD and a warning", "[xlsx]") {
  std::size_t removed = 0, cut = 0, replaced = 0;
  CHECK(xlsx::cell_text(std::string("P\xC0" "1\x01"), &removed, &cut, &replaced) == "P\xEF\xBF\xBD" "1");
  CHECK(replaced == 1);
  CHECK(removed == 1);
  auto dir = temp_dir("utf8");
  Diagnostics d;
  {
    xlsx::Book book(dir / "u.xlsx", {"Sample", "tests", "qualrank", ""}, d);
    REQUIRE(book.ok());
    auto& sheet = book.add_sheet("Data\xC0");
    sheet.write_text(0, 0, std::string("P\xC0"), {"transcripts/P.md", 2, 14});
    REQUIRE(book.commit());
  }
  REQUIRE(d.items().size() == 1);
  CHECK(format_diagnostic(d.items()[0]) ==
        "transcripts/P.md:2:14: warning: replaced 1 invalid UTF-8 sequence with U+FFFD in the text in sheet "
        "'Data\xEF\xBF\xBD' cell A1");
  fs::remove_all(dir);
}

TEST_CASE("xlsx::cell_text cuts long text to exactly the cell limit with a marker", "[xlsx]") {
  std::size_t cut = 0;
  std::string long_text(40000, 'x');
  auto v = xlsx::cell_text(long_text, nullptr, &cut);
  CHECK(utf16_units(v) == xlsx::kMaxCellChars);
  std::string marker = "… [cut by qualrank: " + std::to_string(cut) + " characters]";
  REQUIRE(v.size() > marker.size());
  CHECK(v.substr(v.size() - marker.size()) == marker);
  CHECK(v.size() - marker.size() + cut == 40000);  // kept + cut = original (ASCII: 1 byte = 1 unit)

  // Characters outside the BMP count twice (Excel counts UTF-16 units); the cut never splits one.
  std::string emoji;
  for (int i = 0; i < 20000; ++i) emoji += "\xF0\x9F\x98\x80";  // U+1F600, 2 units each
  auto e = xlsx::cell_text(emoji, nullptr, &cut);
  CHECK(utf16_units(e) <= xlsx::kMaxCellChars);
  CHECK(utf16_units(e) >= xlsx::kMaxCellChars - 1);
  CHECK(e.rfind("\xF0\x9F\x98\x80…", std::string::npos) != std::string::npos);

  // At the limit exactly: unchanged.
  std::string exact(xlsx::kMaxCellChars, 'y');
  CHECK(xlsx::cell_text(exact, nullptr, &cut) == exact);
  CHECK(cut == 0);
}

TEST_CASE("xlsx::append_number_text prints numbers as printf's %.16G does", "[xlsx]") {
  // The whole-number fast path (std::to_chars) against printf itself, at its edges and on random values.
  auto printf_text = [](double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.16G", v);
    return std::string(buf);
  };
  std::vector<double> values = {0.0, -0.0, 1.0, -1.0, 7.0, 10.0, 240000.0, 999999999999999.0, -999999999999999.0,
                                1e15, -1e15, 1e16, 123456789012345678.0, 0.5, -2.25, 1.0 / 3.0, 1e-7, 4.9e-324,
                                1.7976931348623157e308, std::nan(""), std::numeric_limits<double>::infinity(),
                                -std::numeric_limits<double>::infinity(), 0.1 + 0.2, 100.00000000000001};
  std::uint64_t x = 88172645463325252ULL;  // xorshift64
  for (int i = 0; i < 20000; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    const double whole = static_cast<double>(static_cast<std::int64_t>(x >> (x % 60)) * ((x & 1) ? 1 : -1));
    values.push_back(whole);
    values.push_back(whole / 1024.0);
  }
  for (double v : values) {
    std::string out = "<v>";
    xlsx::append_number_text(out, v);
    INFO(printf_text(v));
    CHECK(out == "<v>" + printf_text(v));
  }
}

TEST_CASE("xlsx::cell_name converts to A1 references", "[xlsx]") {
  CHECK(xlsx::cell_name(0, 0) == "A1");
  CHECK(xlsx::cell_name(11, 25) == "Z12");
  CHECK(xlsx::cell_name(11, 27) == "AB12");
  CHECK(xlsx::cell_name(0, 701) == "ZZ1");
  CHECK(xlsx::cell_name(0, 702) == "AAA1");
}

TEST_CASE("xlsx::Book writes reproducible bytes and warns at the caller's location", "[xlsx]") {
  auto dir = temp_dir("repro");
  ::unsetenv("SOURCE_DATE_EPOCH");
  Diagnostics d1, d2;
  write_sample(dir / "a.xlsx", d1);
  write_sample(dir / "b.xlsx", d2);
  auto a = files::read(dir / "a.xlsx"), b = files::read(dir / "b.xlsx");
  REQUIRE(a);
  REQUIRE(b);
  CHECK(*a == *b);
  REQUIRE(d1.items().size() == 1);
  CHECK(format_diagnostic(d1.items()[0]).rfind("t.md:4: warning: removed 1 character", 0) == 0);
  CHECK(d1.items()[0].message.find("sheet 'Data' cell A3") != std::string::npos);
  // no temp files left beside the output
  std::size_t files = 0;
  for (auto& e : fs::directory_iterator(dir)) files += e.is_regular_file();
  CHECK(files == 2);
  fs::remove_all(dir);
}

TEST_CASE("xlsx::Book write() then publish() is commit() in two steps", "[xlsx]") {
  for (bool streamed : {false, true}) {
    auto dir = temp_dir(streamed ? "two-step-streamed" : "two-step");
    auto out = dir / "book.xlsx";
    {
      std::ofstream(out) << "old";
    }
    ::setenv("SOURCE_DATE_EPOCH", "1700000000", 1);
    auto fill = [](xlsx::Book& book) {
      auto& sheet = book.add_sheet("Data");
      sheet.header({{"Text", xlsx::CellStyle::text, 20}, {"Count", xlsx::CellStyle::integer, 10}});
      sheet.write_text(1, 0, "a & b");
      sheet.write_number(1, 1, 7);
    };
    Diagnostics diags;
    xlsx::BookProperties props;
    props.streamed = streamed;
    {
      // Written, never published: the old file stays, and the temp file goes with the book.
      xlsx::Book book(out, props, diags);
      fill(book);
      REQUIRE(book.write());
      CHECK(*files::read(out) == "old");
      CHECK_FALSE(book.write());  // once only
    }
    CHECK(*files::read(out) == "old");
    const auto entries = std::distance(fs::directory_iterator(dir), fs::directory_iterator());
    CHECK(entries == 1);  // book.xlsx alone: no temp file left
    {
      xlsx::Book book(out, props, diags);
      fill(book);
      CHECK_FALSE(book.publish());  // nothing written yet
    }
    CHECK(*files::read(out) == "old");
    // Published: the same bytes as commit() gives.
    {
      xlsx::Book book(out, props, diags);
      fill(book);
      REQUIRE(book.write());
      REQUIRE(book.publish());
      CHECK_FALSE(book.publish());
    }
    auto two_step = files::read(out);
    {
      xlsx::Book book(dir / "committed.xlsx", props, diags);
      fill(book);
      REQUIRE(book.commit());
    }
    auto committed = files::read(dir / "committed.xlsx");
    REQUIRE(two_step);
    REQUIRE(committed);
    CHECK(*two_step == *committed);
    CHECK(two_step->rfind("PK", 0) == 0);
    ::unsetenv("SOURCE_DATE_EPOCH");
    fs::remove_all(dir);
  }
}

TEST_CASE("xlsx::Book leaves the old file untouched when not committed or when it cannot write", "[xlsx]") {
  auto dir = temp_dir("atomic");
  auto out = dir / "keep.xlsx";
  {
    std::ofstream(out) << "old";
  }
  Diagnostics diags;
  {
    xlsx::Book book(out, {}, diags);
    book.add_sheet("S").write_text(0, 0, "new");
    // destroyed without commit
  }
  CHECK(*files::read(out) == "old");
  {
    xlsx::Book book(out, {}, diags);
    auto& s = book.add_sheet("S");
    s.write_text(xlsx::kMaxRows, 0, "beyond the last row");
    CHECK_FALSE(book.ok());
    CHECK_FALSE(book.commit());
    CHECK(book.error().find("beyond Excel's limits") != std::string::npos);
  }
  CHECK(*files::read(out) == "old");
  std::size_t files = 0;
  for (auto& e : fs::directory_iterator(dir)) files += e.is_regular_file();
  CHECK(files == 1);
  // a folder that cannot hold files
  {
    xlsx::Book book(out / "x.xlsx", {}, diags);  // `out` is a file, not a folder
    CHECK_FALSE(book.ok());
    CHECK(book.error().find("cannot create a file in") != std::string::npos);
  }
  fs::remove_all(dir);
}

TEST_CASE("xlsx::Book streamed: cells read back as written, across many deflated pieces", "[xlsx]") {
  auto dir = temp_dir("stream");
  Diagnostics diags;
  xlsx::BookProperties props{"Streamed", "tests", "qualrank", ""};
  props.streamed = true;
  const int rows = 40000;  // about 3 MB of sheet XML: several pieces of 1 MiB, each primed with the one before
  {
    xlsx::Book book(dir / "s.xlsx", props, diags);
    REQUIRE(book.ok());
    auto& sheet = book.add_sheet("Data");
    sheet.header({{"Id", xlsx::CellStyle::text, 10}, {"Text", xlsx::CellStyle::wrapped_text, 40}, {"n", xlsx::CellStyle::integer, 8}});
    for (int r = 1; r <= rows; ++r) {
      sheet.write_number(r, 2, r);  // columns of a row in any order
      sheet.write_text(r, 1, " <&> quote " + std::to_string(r * 7919 % 100003) + " \"x\" ");
      sheet.write_text(r, 0, "R" + std::to_string(r));
    }
    auto& other = book.add_sheet("Other");  // a second sheet started after the first is complete
    other.write_text(0, 1, "right");
    other.write_text(0, 0, "replaced");
    other.write_text(0, 0, "=1+1");  // a cell written twice: the last write counts
    REQUIRE(book.commit());
  }
  auto grid = xlsx::read_sheet(dir / "s.xlsx", "Data", "s.xlsx", diags);
  REQUIRE(grid);
  REQUIRE(grid->rows.size() == static_cast<std::size_t>(rows + 1));
  CHECK(grid->rows[0] == std::vector<std::string>{"Id", "Text", "n"});
  for (int r : {1, 2, 777, 20000, rows}) {
    INFO("row " << r);
    CHECK(grid->rows[static_cast<std::size_t>(r)] ==
          std::vector<std::string>{"R" + std::to_string(r), " <&> quote " + std::to_string(r * 7919 % 100003) + " \"x\" ", std::to_string(r)});
  }
  CHECK(grid->sheet_names == std::vector<std::string>{"Data", "Other"});
  auto other = xlsx::read_sheet(dir / "s.xlsx", "Other", "s.xlsx", diags);
  REQUIRE(other);
  CHECK(other->rows[0] == std::vector<std::string>{"=1+1", "right"});  // text, never a formula
  CHECK_FALSE(diags.has_errors());
  fs::remove_all(dir);
}

TEST_CASE("xlsx::Book streamed: a row written after a later one fails the book, never drops a cell", "[xlsx]") {
  auto dir = temp_dir("stream-order");
  auto out = dir / "s.xlsx";
  {
    std::ofstream(out) << "old";
  }
  Diagnostics diags;
  xlsx::BookProperties props;
  props.streamed = true;
  {
    xlsx::Book book(out, props, diags);
    auto& sheet = book.add_sheet("S");
    sheet.write_text(5, 0, "row 6");
    sheet.write_text(2, 0, "row 3, too late");
    CHECK_FALSE(book.ok());
    CHECK(book.error() == "internal error: sheet 'S' row 3 written after row 6 (a streamed sheet is written row by row)");
    CHECK_FALSE(book.commit());
  }
  CHECK(*files::read(out) == "old");
  const auto entries = std::distance(fs::directory_iterator(dir), fs::directory_iterator());
  CHECK(entries == 1);  // no temp file, no scratch folder
  fs::remove_all(dir);
}

TEST_CASE("xlsx::StreamWriter spilling deflated rows to an unnamed file writes the same bytes and leaves nothing", "[xlsx]") {
  auto dir = temp_dir("spill");
  // Two sheets written in turn, so their pieces interleave in the spill file; ~3 MB of XML, several pieces each.
  auto write = [&](const std::string& spill_dir, const fs::path& out) {
    xlsx::StreamWriter w({"Spill", "tests", "qualrank", "", 0}, spill_dir);
    const int a = w.add_sheet("A"), b = w.add_sheet("B");
    for (int r = 0; r < 30000; ++r) {
      w.text(a, r, 0, "row " + std::to_string(r * 7919 % 100003), xlsx::StreamFormat::text);
      w.number(b, r, 1, r * 0.5, xlsx::StreamFormat::decimal);
      w.text(b, r, 0, "b" + std::to_string(r), xlsx::StreamFormat::none);
    }
    w.text(a, 30000, 26, "AA", xlsx::StreamFormat::none);  // cell names past Z: AA30001, ZZ30001, AAA30001
    w.text(a, 30000, 701, "ZZ", xlsx::StreamFormat::none);
    w.text(a, 30000, 702, "AAA", xlsx::StreamFormat::none);
    std::string error;
    REQUIRE(w.write(out.string(), &error));
    CHECK(error.empty());
  };
  fs::create_directories(dir / "spill");
  write("", dir / "memory.xlsx");
  write((dir / "spill").string(), dir / "spilled.xlsx");
  write((dir / "no such folder").string(), dir / "fallback.xlsx");  // no spill file can be made: kept in memory
  const auto memory = files::read(dir / "memory.xlsx");
  REQUIRE(memory);
  CHECK(memory->size() > 100000);
  CHECK(files::read(dir / "spilled.xlsx") == memory);
  CHECK(files::read(dir / "fallback.xlsx") == memory);
  CHECK(fs::is_empty(dir / "spill"));  // the spill file had no name, or lost it at once
  Diagnostics diags;
  auto grid = xlsx::read_sheet(dir / "spilled.xlsx", "B", "spilled.xlsx", diags);
  REQUIRE(grid);
  REQUIRE(grid->rows.size() == 30000);
  CHECK(grid->rows[29999] == std::vector<std::string>{"b29999", "14999.5"});
  auto wide = xlsx::read_sheet(dir / "spilled.xlsx", "A", "spilled.xlsx", diags);
  REQUIRE(wide);
  REQUIRE(wide->rows.size() == 30001);
  REQUIRE(wide->rows[30000].size() == 703);
  CHECK(wide->rows[30000][26] == "AA");
  CHECK(wide->rows[30000][701] == "ZZ");
  CHECK(wide->rows[30000][702] == "AAA");
  CHECK(wide->rows[29999][0] == "row " + std::to_string(29999 * 7919 % 100003));
  fs::remove_all(dir);
}
