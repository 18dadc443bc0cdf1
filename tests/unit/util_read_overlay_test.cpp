// Unit tests for files::ReadOverlay (src/util/files.cpp): planned files read and listed from memory.
#include "catch.h"

#include <unistd.h>

#include <filesystem>
#include <map>
#include <stdexcept>
#include <string>

#include "qualrank/util/files.h"

namespace fs = std::filesystem;
using namespace qualrank;

TEST_CASE("files::ReadOverlay lays planned files over the disk, in memory only", "[files]") {
  const fs::path root = fs::temp_directory_path() / ("qualrank-overlay-test." + std::to_string(::getpid()));
  fs::remove_all(root);
  fs::create_directories(root / "transcripts");
  REQUIRE(files::write_atomic(root / "transcripts" / "A.md", "disk A"));
  REQUIRE(files::write_atomic(root / "transcripts" / "B.md", "disk B"));
  const std::map<std::string, std::string> planned{
      {"transcripts/B.md", "planned B"}, {"transcripts/C.md", "planned C"}, {"codebooks/x.yaml", "planned x"},
      {"transcripts/.hidden.md", "hidden"}};
  {
    files::ReadOverlay overlay(root, planned);
    CHECK(files::read(root / "transcripts" / "A.md") == std::optional<std::string>("disk A"));
    CHECK(files::read(root / "transcripts" / "B.md") == std::optional<std::string>("planned B"));
    CHECK(files::read(root / "transcripts" / ".." / "transcripts" / "C.md") == std::optional<std::string>("planned C"));
    // Listed with the disk's files, sorted, in a folder the disk does not have yet; hidden names are not listed.
    CHECK(files::list_files(root / "transcripts", ".md") ==
          std::vector<fs::path>{root / "transcripts" / "A.md", root / "transcripts" / "B.md", root / "transcripts" / "C.md"});
    CHECK(files::list_files(root / "codebooks", ".yaml") == std::vector<fs::path>{root / "codebooks" / "x.yaml"});
    CHECK(files::list_files(root / "codebooks", ".yml").empty());
    CHECK_THROWS_AS(files::ReadOverlay(root, planned), std::logic_error);
  }
  // Gone with the overlay, and nothing was written.
  CHECK(files::read(root / "transcripts" / "B.md") == std::optional<std::string>("disk B"));
  CHECK(!files::read(root / "transcripts" / "C.md"));
  CHECK(!fs::exists(root / "codebooks"));
  CHECK(files::list_files(root / "transcripts", ".md").size() == 2);
  fs::remove_all(root);
}
