#include "catch.h"

#include <filesystem>

#include "qualrank/util/xlsx_read.h"
#include "qualrank/util/zip.h"

using namespace qualrank;
namespace fs = std::filesystem;

namespace {

// A minimal workbook written with the project's own zip writer: two sheets, the second one the target of
// an absolute relationship path, cells of every type the reader knows.
fs::path write_book(const fs::path& dir, const std::string& sheet2) {
  std::map<std::string, std::string> e;
  e["[Content_Types].xml"] = "<Types xmlns=\"http://schemas.openxmlformats.org/package/2006/content-types\"/>";
  e["xl/workbook.xml"] =
      "<workbook xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\" "
      "xmlns:r=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships\"><sheets>"
      "<sheet name=\"Front\" sheetId=\"1\" r:id=\"rId1\"/><sheet name=\"Data\" sheetId=\"2\" r:id=\"rId2\"/></sheets></workbook>";
  e["xl/_rels/workbook.xml.rels"] =
      "<Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\">"
      "<Relationship Id=\"rId1\" Target=\"worksheets/sheet1.xml\"/>"
      "<Relationship Id=\"rId2\" Target=\"/xl/worksheets/sheet2.xml\"/></Relationships>";
  e["xl/sharedStrings.xml"] =
      "<sst xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\"><si><t>id</t></si>"
      "<si><r><t>Years </t></r><r><t>remote</t></r></si><si><t xml:space=\"preserve\"> P1 </t></si></sst>";
  e["xl/worksheets/sheet1.xml"] =
      "<worksheet xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\"><sheetData>"
      "<row r=\"1\"><c r=\"A1\" t=\"inlineStr\"><is><t>front</t></is></c></row></sheetData></worksheet>";
  e["xl/worksheets/sheet2.xml"] = sheet2;
  auto path = dir / "book.xlsx";
  std::string err;
  REQUIRE(zip::write(path, e, 1735689600, &err));
  return path;
}

const char* kSheetHead = "<worksheet xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\"><sheetData>";

}  // namespace

TEST_CASE("xlsx::read_sheet reads shared, rich, inline and formula strings, numbers and booleans", "[util]") {
  auto dir = fs::temp_directory_path() / "qualrank_xlsx_read_test";
  fs::create_directories(dir);
  auto path = write_book(dir, std::string(kSheetHead) +
                                  "<row r=\"1\"><c r=\"A1\" t=\"s\"><v>0</v></c><c r=\"B1\" t=\"s\"><v>1</v></c></row>"
                                  "<row r=\"2\"><c r=\"A2\" t=\"s\"><v>2</v></c><c r=\"B2\"><v>1.5</v></c>"
                                  "<c r=\"D2\" t=\"b\"><v>1</v></c></row>"
                                  "<row r=\"4\"><c r=\"A4\" t=\"inlineStr\"><is><t>P3</t></is></c>"
                                  "<c r=\"C4\" t=\"str\"><f>A4</f><v>P3</v></c><c r=\"D4\" t=\"b\"><v>0</v></c></row>"
                                  "</sheetData></worksheet>");
  Diagnostics d;
  auto g = xlsx::read_sheet(path, "data", "book.xlsx", d);  // case-insensitive sheet name
  REQUIRE_FALSE(d.has_errors());
  REQUIRE(g);
  CHECK(g->name == "Data");
  CHECK(g->sheet_names == std::vector<std::string>{"Front", "Data"});
  REQUIRE(g->rows.size() == 4);
  CHECK(g->rows[0] == std::vector<std::string>{"id", "Years remote", "", ""});
  CHECK(g->rows[1] == std::vector<std::string>{" P1 ", "1.5", "", "TRUE"});
  CHECK(g->rows[2] == std::vector<std::string>{"", "", "", ""});
  CHECK(g->rows[3] == std::vector<std::string>{"P3", "", "P3", "FALSE"});

  auto first = xlsx::read_sheet(path, "", "book.xlsx", d);
  REQUIRE(first);
  CHECK(first->name == "Front");
  CHECK(first->rows == std::vector<std::vector<std::string>>{{"front"}});
  fs::remove_all(dir);
}

TEST_CASE("xlsx::read_sheet reports unknown sheets, bad references and string indexes, located", "[util]") {
  auto dir = fs::temp_directory_path() / "qualrank_xlsx_read_test2";
  fs::create_directories(dir);
  auto path = write_book(dir, std::string(kSheetHead) +
                                  "<row r=\"2\"><c r=\"A2\" t=\"s\"><v>7</v></c><c r=\"2B\"><v>1</v></c></row>"
                                  "</sheetData></worksheet>");
  Diagnostics d;
  CHECK_FALSE(xlsx::read_sheet(path, "Dta", "book.xlsx", d));
  REQUIRE(d.error_count() == 1);
  CHECK(format_diagnostic(d.items()[0]) == "book.xlsx: error: no sheet 'Dta' (did you mean 'Data'?) (sheets: Front, Data)");
  Diagnostics d2;
  CHECK_FALSE(xlsx::read_sheet(path, "Data", "book.xlsx", d2));
  REQUIRE(d2.error_count() == 2);
  CHECK(format_diagnostic(d2.items()[0]) == "book.xlsx:Data:2:1: error: shared string index '7' out of range");
  CHECK(format_diagnostic(d2.items()[1]) == "book.xlsx:Data:2: error: malformed cell reference '2B'");
  Diagnostics d3;
  CHECK_FALSE(xlsx::read_sheet(dir / "missing.xlsx", "", "missing.xlsx", d3));
  CHECK(d3.error_count() == 1);
  fs::remove_all(dir);
}

TEST_CASE("xlsx::read_sheet reads the committed openpyxl fixture", "[util]") {
  Diagnostics d;
  auto g = xlsx::read_sheet(fs::path(QUALRANK_FIXTURES_DIR) / "participants/people.xlsx", "", "people.xlsx", d);
  REQUIRE_FALSE(d.has_errors());
  REQUIRE(g);
  CHECK(g->name == "People");
  REQUIRE(g->rows.size() == 7);
  CHECK(g->rows[0][2] == "Years remote");
  CHECK(g->rows[3][2] == "1");        // a number cell, as written
  CHECK(g->rows[4][3] == " DE ");     // not trimmed by the reader
  CHECK(g->rows[6][6] == "interview cancelled");
  CHECK(xlsx::column_letters(1) == "A");
  CHECK(xlsx::column_letters(28) == "AB");
  CHECK(xlsx::column_letters(703) == "AAA");
}
