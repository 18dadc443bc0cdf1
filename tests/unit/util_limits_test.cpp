// The resource limits of issue #16: YAML alias expansion, nesting and size; zip entries, sizes and ratio with
// the real reason; diagnostics capped per kind with quoted values cut to an excerpt.
#include "catch.h"

#include <filesystem>
#include <map>
#include <sstream>
#include <string>

#include "qualrank/util/diagnostics.h"
#include "qualrank/util/yaml_source.h"
#include "qualrank/util/zip.h"

using namespace qualrank;

TEST_CASE("yaml::parse refuses alias expansion past 1 MiB at the alias that crosses it", "[util][limits]") {
  // 300 KB anchored once, named 3 times: 900 KB (+ nodes) is fine; a 4th alias crosses 1 MiB.
  std::string big(300 * 1024, 'x');
  Diagnostics ok;
  CHECK(yaml::parse("s: &s " + big + "\nl: [*s, *s, *s]\n", "t.yaml", ok).has_value());
  CHECK_FALSE(ok.has_errors());
  Diagnostics d;
  auto node = yaml::parse("s: &s " + big + "\nl: [*s, *s, *s, *s]\n", "t.yaml", d);
  CHECK_FALSE(node.has_value());
  REQUIRE(d.items().size() == 1);
  // The 4th alias is at line 2, column 20 ("l: [*s, *s, *s, *s]": columns 5, 9, 13, 17 -> 1-based 17).
  CHECK(format_diagnostic(d.items()[0]) ==
        "t.yaml:2:17: error: aliases expand to more than 1 MiB in all (the limit on alias expansion; write the "
        "values out instead)");
}

TEST_CASE("yaml::parse refuses nested billion laughs before building anything", "[util][limits]") {
  std::string text = "a0: &a0 lol\n";
  for (int i = 1; i < 10; ++i) {
    text += "a" + std::to_string(i) + ": &a" + std::to_string(i) + " [";
    for (int j = 0; j < 10; ++j) text += (j ? ", *a" : "*a") + std::to_string(i - 1);
    text += "]\n";
  }
  Diagnostics d;
  CHECK_FALSE(yaml::parse(text, "laughs.yaml", d).has_value());
  REQUIRE(d.items().size() == 1);
  CHECK(d.items()[0].message.find("aliases expand to more than 1 MiB") == 0);
  CHECK(d.items()[0].where.line == 7);  // a6 names a5 (4 bytes x 10^5 = 400 KB) ten times: crosses 1 MiB
}

TEST_CASE("yaml::parse refuses nesting deeper than 64 and texts over 4 MiB", "[util][limits]") {
  // The top-level map is level 1: 63 brackets inside it make 64 levels.
  Diagnostics ok;
  CHECK(yaml::parse("a: " + std::string(63, '[') + std::string(63, ']') + "\n", "t.yaml", ok).has_value());
  CHECK_FALSE(ok.has_errors());
  Diagnostics d;
  CHECK_FALSE(yaml::parse("a: " + std::string(64, '[') + std::string(64, ']') + "\n", "t.yaml", d).has_value());
  REQUIRE(d.items().size() == 1);
  CHECK(format_diagnostic(d.items()[0]) ==
        "t.yaml:1:67: error: nested deeper than 64 levels (the limit on YAML nesting)");
  // Block nesting (keys indented under keys, compact sequences under keys, "- - -" on one line) is refused
  // alike: the first pass that counts the depth runs whenever the depth may reach the limit.
  for (int style = 0; style < 3; ++style) {
    std::string text = style == 1 ? "k:\n" : "";
    for (int i = 0; i < 70; ++i) {
      if (style == 0) text += std::string(static_cast<std::size_t>(2 * i), ' ') + "k" + std::to_string(i) + ":\n";
      if (style == 1) text += std::string(static_cast<std::size_t>(2 * i), ' ') + "- k:\n";  // a list under each key
      if (style == 2) text += "- ";
    }
    text += style == 2 ? "x\n" : std::string(142, ' ') + "x\n";
    Diagnostics valid;  // (the same text less deep is valid YAML: the error below is the depth's)
    if (style == 1) CHECK(yaml::parse("k:\n- k:\n  - k:\n    x\n", "ok.yaml", valid).has_value());
    INFO("style " << style);
    Diagnostics deep;
    CHECK_FALSE(yaml::parse(text, "deep.yaml", deep).has_value());
    REQUIRE(deep.has_errors());
    CHECK(deep.items()[0].message.find("nested deeper than 64 levels") != std::string::npos);
  }
  Diagnostics big;
  CHECK_FALSE(yaml::parse(std::string(yaml::kMaxBytes + 1, '#'), "big.yaml", big).has_value());
  REQUIRE(big.items().size() == 1);
  CHECK(format_diagnostic(big.items()[0]) == "big.yaml:1:1: error: YAML text of 4194305 bytes; the limit is 4 MiB");
}

TEST_CASE("yaml::parse refuses an alias inside the node it names", "[util][limits]") {
  Diagnostics d;
  CHECK_FALSE(yaml::parse("a: &a [1, *a]\n", "t.yaml", d).has_value());
  REQUIRE(d.items().size() == 1);
  CHECK(format_diagnostic(d.items()[0]) ==
        "t.yaml:1:11: error: an alias inside the node it refers to (a cycle) is not supported");
}

TEST_CASE("zip::Reader refuses entries over the size, ratio and total limits, saying which", "[util][limits]") {
  auto dir = std::filesystem::temp_directory_path() / "qualrank-limits-test";
  std::filesystem::create_directories(dir);
  auto path = dir / "bomb.zip";
  // 2 MiB of one byte deflates about 1000:1; 300 KB of varied text about 1:1.
  std::string varied;
  for (int i = 0; varied.size() < 300 * 1024; ++i) varied += std::to_string(i * 7919 % 100003) + ",";
  std::string err;
  REQUIRE(zip::write(path, {{"zeros.txt", std::string(2 * 1024 * 1024, '0')}, {"text.txt", varied}}, 0, &err));
  zip::Reader r(path);
  REQUIRE(r.ok());
  CHECK_FALSE(r.read("zeros.txt").has_value());
  CHECK_FALSE(r.absent());
  CHECK(r.error().find("entry 'zeros.txt' expands ") == 0);
  CHECK(r.error().find("the limit is 200 times (a zip bomb?)") != std::string::npos);
  CHECK_FALSE(r.read("missing.txt").has_value());
  CHECK(r.absent());
  CHECK(r.error() == "no entry 'missing.txt' in the archive");
  CHECK_FALSE(r.read("text.txt", false, 1000).has_value());
  CHECK_FALSE(r.absent());
  CHECK(r.error() == "entry 'text.txt' is " + std::to_string(varied.size()) +
                         " bytes uncompressed; the limit is 1000 bytes");
  auto text = r.read("text.txt");
  REQUIRE(text.has_value());
  CHECK(*text == varied);
  std::filesystem::remove_all(dir);
}

TEST_CASE("zip::Reader refuses an archive with more than 10,000 entries", "[util][limits]") {
  auto dir = std::filesystem::temp_directory_path() / "qualrank-limits-entries";
  std::filesystem::create_directories(dir);
  std::map<std::string, std::string> entries;
  for (int i = 0; i <= 10000; ++i) entries["e" + std::to_string(i)] = "";
  std::string err;
  REQUIRE(zip::write(dir / "many.zip", entries, 0, &err));
  zip::Reader r(dir / "many.zip");
  CHECK_FALSE(r.ok());
  CHECK(r.error() == "the archive has 10001 entries; the limit is 10000");
  std::filesystem::remove_all(dir);
}

TEST_CASE("Diagnostics keep 20 of one kind per file and cut long quoted values", "[util][limits]") {
  Diagnostics d;
  for (int i = 0; i < 30; ++i) d.error({"a.md", i + 1, 1}, "unknown node 'N" + std::to_string(i) + "'");
  d.error({"a.md", 40, 1}, "another problem");
  CHECK(d.error_count() == 31);
  CHECK(d.items().size() == 21);
  CHECK(d.dropped() == 10);
  CHECK(d.items()[19].message == "unknown node 'N19'");
  CHECK(d.items()[20].message == "another problem");
  std::ostringstream out;
  d.print(out);
  CHECK(out.str().find("a.md: note: 10 more errors in this file not shown (at most 100 are listed, 20 of one kind)\n") !=
        std::string::npos);

  Diagnostics q;
  q.error({"b.csv", 2, 3}, "unknown label '" + std::string(2'000'000, 'B') + "' (did you mean 'A'?)");
  REQUIRE(q.items().size() == 1);
  CHECK(q.items()[0].message == "unknown label '" + std::string(60, 'B') + "…' (2000000 bytes) (did you mean 'A'?)");
  Diagnostics q2;
  q2.error({"b.csv", 2, 3}, "unknown label '" + std::string(500, 'B') + "' (did you mean 'A'?)");
  CHECK(q2.items()[0].message == "unknown label '" + std::string(60, 'B') + "…' (500 bytes) (did you mean 'A'?)");
  Diagnostics apostrophe;
  std::string prose = "the speaker's turn is not coded; " + std::string(200, 'x') + " and the coder's list";
  apostrophe.error({"c.md", 1, 1}, prose);
  CHECK(apostrophe.items()[0].message == prose);
}

TEST_CASE("yaml::parse refuses more than 500,000 nodes at the node past the limit", "[util][limits]") {
  // A map, its key 'l', the list, then items: 499,997 items make 500,000 nodes; one more is refused.
  auto list_of = [](std::size_t n) {
    std::string s = "l: [a";
    for (std::size_t k = 1; k < n; ++k) s += ",a";
    return s + "]\n";
  };
  Diagnostics ok;
  CHECK(yaml::parse(list_of(499997), "t.yaml", ok).has_value());
  CHECK_FALSE(ok.has_errors());
  Diagnostics over;
  CHECK_FALSE(yaml::parse(list_of(499998), "t.yaml", over).has_value());
  REQUIRE(over.items().size() == 1);
  // Item 499,998 starts at column 5 + 2 * 499,997.
  CHECK(format_diagnostic(over.items()[0]) == "t.yaml:1:" + std::to_string(5 + 2 * 499997) +
                                                  ": error: more than 500000 YAML nodes (the limit on YAML nodes)");
}

TEST_CASE("Diagnostics write a byte that is not UTF-8 as \\xNN", "[util][limits]") {
  Diagnostics diags;
  diags.error({"p.txt", 2, 1}, "unknown id '\xF3' and '\xA0" "f4' (valid: '\xC3\xA9')");
  REQUIRE(diags.items().size() == 1);
  CHECK(diags.items()[0].message == "unknown id '\\xF3' and '\\xA0f4' (valid: '\xC3\xA9')");
  diags.error({"lists/bad\xFF.txt", 0, 0}, "cannot read");  // a file name from the command line
  REQUIRE(diags.items().size() == 2);
  CHECK(format_diagnostic(diags.items()[1]) == "lists/bad\\xFF.txt: error: cannot read");
}
