// FileName (util/diagnostics.h): a Location's file name, interned (a SharedText), reading as a string.
#include "catch.h"

#include <map>
#include <sstream>

#include "qualrank/util/diagnostics.h"

using namespace qualrank;

TEST_CASE("util::FileName is shared by copies and reads as the string it holds", "[util][diagnostics]") {
  const std::string path = "transcripts/P00001-a-long-name.md";  // longer than a short string's inline room
  Location a{path, 3, 7};
  Location b = a;  // a copy shares the name
  CHECK(&a.file.str() == &b.file.str());
  CHECK(b.file == path);
  CHECK(path == b.file);
  CHECK(b.file == "transcripts/P00001-a-long-name.md");
  CHECK(b.file != "transcripts/P00002.md");
  CHECK(b.file.size() == path.size());
  CHECK(std::string(b.file.c_str()) == path);
  // Interned: a name built again from another string (as two parsers of one file would) is the same string.
  const Location c{std::string("transcripts/P00001-") + "a-long-name.md", 1, 1};
  CHECK(&c.file.str() == &a.file.str());
  CHECK(sizeof(FileName) == sizeof(void*));

  // Assigning a string gives the copy a name of its own; the original is unchanged.
  b.file = std::string("transcripts/E01.md");
  CHECK(a.file == path);
  CHECK(b.file == "transcripts/E01.md");
  CHECK(a.file != b.file);
  CHECK(b.file < a.file);  // as the strings compare

  // As a string: concatenation, map keys, streams.
  CHECK(a.file + ":" + std::to_string(a.line) == path + ":3");
  CHECK("in " + b.file == "in transcripts/E01.md");
  std::map<std::string, int> seen;
  ++seen[a.file];
  ++seen[Location{path, 9, 1}.file];
  CHECK(seen.at(path) == 2);
  std::ostringstream out;
  out << b.file;
  CHECK(out.str() == "transcripts/E01.md");

  // Empty (no file) in every form.
  Location none;
  CHECK(none.file.empty());
  CHECK(none.file == "");
  CHECK(Location{"", 1, 1}.file.empty());
  Diagnostic d;
  d.where = a;
  d.message = "bad";
  CHECK(format_diagnostic(d) == path + ":3:7: error: bad");
}
