// zip::write (util/zip.h): qualrank's own writer read back by libzip (zip::Reader) and checked field by field in
// the central directory: each entry's method (a zip inside stored, text deflated, an empty one stored), the
// UTF-8 flag only on a name that needs it, the DOS date of the epoch in UTC, and the same bytes twice.
#include "catch.h"

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "qualrank/util/zip.h"

using namespace qualrank;

namespace {

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::uint32_t le(const std::string& s, std::size_t at, int bytes) {
  std::uint32_t v = 0;
  for (int k = bytes - 1; k >= 0; --k) v = (v << 8) | static_cast<unsigned char>(s[at + static_cast<std::size_t>(k)]);
  return v;
}

struct CentralEntry {
  std::uint32_t flags, method, time, date, compressed, size;
};

// The central directory's entries by name, read from the end record.
std::map<std::string, CentralEntry> central(const std::string& zip) {
  const std::size_t end = zip.size() - 22;
  REQUIRE(le(zip, end, 4) == 0x06054b50u);
  std::size_t at = le(zip, end + 16, 4);
  std::map<std::string, CentralEntry> out;
  for (std::uint32_t n = le(zip, end + 10, 2); n > 0; --n) {
    REQUIRE(le(zip, at, 4) == 0x02014b50u);
    const std::size_t name_len = le(zip, at + 28, 2), extra = le(zip, at + 30, 2), comment = le(zip, at + 32, 2);
    out[zip.substr(at + 46, name_len)] = {le(zip, at + 8, 2),  le(zip, at + 10, 2), le(zip, at + 12, 2),
                                          le(zip, at + 14, 2), le(zip, at + 20, 4), le(zip, at + 24, 4)};
    at += 46 + name_len + extra + comment;
  }
  return out;
}

}  // namespace

TEST_CASE("zip::write stores zips, deflates text, flags UTF-8 names, stamps the epoch, and reads back", "[util][zip]") {
  const auto dir = std::filesystem::temp_directory_path() / "qualrank-zip-write-test";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::string text;
  for (int i = 0; text.size() < 200 * 1024; ++i) text += "line " + std::to_string(i % 977) + " of the transcript\n";
  std::string inner = std::string("PK\3\4", 4);
  for (int i = 0; i < 5000; ++i) inner += static_cast<char>((i * 7919) % 251);
  const std::map<std::string, std::string> entries{{"a/text.md", text},
                                                   {"a/book.xlsx", inner},
                                                   {"empty.txt", ""},
                                                   {"x", "x"},
                                                   {"transcripts/Zoë.md", "Zoë said hello\n"}};
  std::string err;
  REQUIRE(zip::write(dir / "one.zip", entries, 1735689600, &err));  // 2025-01-01 00:00:00 UTC
  REQUIRE(zip::write(dir / "two.zip", entries, 1735689600, &err));
  const std::string one = slurp(dir / "one.zip");
  CHECK(one == slurp(dir / "two.zip"));

  zip::Reader r(dir / "one.zip");
  REQUIRE(r.ok());
  CHECK(r.names().size() == entries.size());
  for (const auto& [name, bytes] : entries) {
    auto got = r.read(name);
    REQUIRE(got.has_value());
    CHECK(*got == bytes);
  }

  const auto c = central(one);
  REQUIRE(c.size() == entries.size());
  CHECK(c.at("a/text.md").method == 8);
  CHECK(c.at("a/text.md").compressed < text.size() / 4);
  CHECK(c.at("a/text.md").size == text.size());
  CHECK(c.at("a/book.xlsx").method == 0);
  CHECK(c.at("a/book.xlsx").compressed == inner.size());
  CHECK(c.at("empty.txt").method == 0);
  CHECK(c.at("x").method == 0);  // deflate would make it larger
  CHECK((c.at("transcripts/Zoë.md").flags & 0x0800) != 0);
  CHECK((c.at("a/text.md").flags & 0x0800) == 0);
  CHECK(c.at("a/text.md").date == ((45u << 9) | (1u << 5) | 1u));
  CHECK(c.at("a/text.md").time == 0);

  // Before 1980 (DOS's first year): 1980-01-01 00:00; 2024-02-29 13:45:58 UTC as it is.
  REQUIRE(zip::write(dir / "old.zip", {{"t", "t"}}, 0, &err));
  CHECK(central(slurp(dir / "old.zip")).at("t").date == ((0u << 9) | (1u << 5) | 1u));
  REQUIRE(zip::write(dir / "leap.zip", {{"t", "t"}}, 1709214358, &err));
  const auto leap = central(slurp(dir / "leap.zip")).at("t");
  CHECK(leap.date == ((44u << 9) | (2u << 5) | 29u));
  CHECK(leap.time == ((13u << 11) | (45u << 5) | 29u));
  std::filesystem::remove_all(dir);
}
