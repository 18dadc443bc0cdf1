#include "catch.h"
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "qualrank/report/package/package.h"
#include "qualrank/util/files.h"

using namespace qualrank;
namespace fs = std::filesystem;

namespace {

// A copy of the fieldwork fixture in a fresh temp folder, removed afterwards.
struct FieldworkCopy {
  fs::path root;
  FieldworkCopy() {
    root = fs::temp_directory_path() / ("qualrank-package-" + std::to_string(::getpid()));
    fs::remove_all(root);
    fs::create_directories(root);
    for (const char* dir : {"codebooks", "guidelines", "transcripts"})
      fs::copy(fs::path(QUALRANK_FIXTURES_DIR) / "fieldwork" / dir, root / dir, fs::copy_options::recursive);
  }
  ~FieldworkCopy() { fs::remove_all(root); }
};

void overwrite_byte(const fs::path& file, std::size_t at, char value) {
  auto bytes = *files::read(file);
  bytes[at] = value;
  std::ofstream(file, std::ios::binary) << bytes;
}

}  // namespace

TEST_CASE("report::verify_package locates a changed byte: line and column in text, the byte alone in a workbook", "[report]") {
  FieldworkCopy ws;
  const fs::path names = ws.root / "names.csv";
  std::ofstream(names) << "name,pseudonym\ndana,Coder-D\n";
  PackageOptions options;
  options.output_dir = ws.root / "package";
  options.names_file = names;
  options.resamples = 200;
  Diagnostics diags;
  PackageSummary summary;
  REQUIRE(build_package(ws.root, options, diags, summary));
  CHECK_FALSE(diags.has_errors());
  CHECK(summary.names_found == 1);
  CHECK(summary.zip == ws.root / "package.zip");
  CHECK(fs::exists(ws.root / "package.zip"));
  CHECK(std::find(summary.files.begin(), summary.files.end(), "SHA256SUMS") != summary.files.end());

  Diagnostics ok;
  VerifySummary checked;
  CHECK(verify_package(options.output_dir, ok, checked));
  CHECK_FALSE(ok.has_errors());
  CHECK(checked.checksums == summary.files.size() - 1);

  // README.md: the 6th byte of line 3 (its offset found in the file itself).
  const fs::path readme = options.output_dir / "README.md";
  const std::string text = *files::read(readme);
  const std::size_t line3 = text.find('\n', text.find('\n') + 1) + 1;
  overwrite_byte(readme, line3 + 5, text[line3 + 5] == 'x' ? 'y' : 'x');
  // codebook.xlsx: a byte in the middle of the zip
  const fs::path xlsx = options.output_dir / "reports" / "codebook.xlsx";
  const std::size_t middle = fs::file_size(xlsx) / 2;
  overwrite_byte(xlsx, middle, static_cast<char>(~(*files::read(xlsx))[middle]));

  Diagnostics bad;
  VerifySummary again;
  CHECK_FALSE(verify_package(options.output_dir, bad, again));
  std::vector<std::string> messages;
  for (const auto& d : bad.items()) messages.push_back(format_diagnostic(d));
  const std::string dir = options.output_dir.lexically_normal().generic_string();
  auto has = [&](const std::string& m) { return std::find(messages.begin(), messages.end(), m) != messages.end(); };
  CHECK(has(dir + "/README.md: error: SHA-256 differs from SHA256SUMS"));
  CHECK(has(dir + "/README.md:3:6: error: differs from the re-run (first difference at byte " + std::to_string(line3 + 6) + ")"));
  CHECK(has(dir + "/reports/codebook.xlsx: error: SHA-256 differs from SHA256SUMS"));
  CHECK(has(dir + "/reports/codebook.xlsx: error: differs from the re-run (first difference at byte " + std::to_string(middle + 1) + ")"));
  CHECK(messages.size() == 4);
}
