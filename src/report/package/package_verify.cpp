// verify_package (report/package/package.h): the checksums first, then a re-run of the analysis from the package's
// own inputs with the manifest's settings, compared output by output, byte for byte.
#include <unistd.h>

#include <map>
#include <set>

#include "package_internal.h"
#include "qualrank/report/package/package.h"
#include "qualrank/util/files.h"
#include "qualrank/util/sha256.h"

namespace qualrank {

namespace fs = std::filesystem;
using namespace package_detail;

namespace {

bool binary(const std::string& rel) {
  return rel.ends_with(".xlsx") || rel.ends_with(".qdpx") || rel.ends_with(".zip");
}

// Where `a` and `b` first differ: byte offset, and line and column (1-based, columns in bytes).
void first_difference(const std::string& a, const std::string& b, std::size_t& byte, int& line, int& column) {
  byte = 0;
  while (byte < a.size() && byte < b.size() && a[byte] == b[byte]) ++byte;
  line = 1;
  column = 1;
  for (std::size_t i = 0; i < byte; ++i) {
    if (a[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
}

// A path in SHA256SUMS that stays inside the package: relative, no "..", no empty or hidden part.
bool plain_relative(const std::string& rel) {
  if (rel.empty() || rel.front() == '/') return false;
  for (const auto& part : fs::path(rel)) {
    auto s = part.string();
    if (s.empty() || s == "." || s == ".." || s.front() == '.') return false;
  }
  return true;
}

// Every regular file below `dir`, package-relative, hidden names (and what is below them) left out.
std::set<std::string> files_below(const fs::path& dir) {
  std::set<std::string> out;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (it->path().filename().string().front() == '.') {
      if (it->is_directory(ec)) it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file(ec) || it->is_symlink(ec)) out.insert(it->path().lexically_relative(dir).generic_string());
  }
  return out;
}


}  // namespace

bool verify_package(const fs::path& dir, Diagnostics& diags, VerifySummary& summary) {
  const std::string shown = dir.lexically_normal().generic_string();
  auto at = [&](const std::string& rel) {
    std::string s = shown;
    while (s.size() > 1 && s.back() == '/') s.pop_back();
    return s == "." ? rel : s + "/" + rel;
  };
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    diags.error({shown, 0, 0}, "not a folder");
    return false;
  }
  auto manifest_text = files::read_inside(dir, kManifest);
  if (!manifest_text) {
    diags.error({at(kManifest), 0, 0}, "cannot read the file; not a qualrank package");
    return false;
  }
  nlohmann::json manifest = nlohmann::json::parse(*manifest_text, nullptr, false);
  if (manifest.is_discarded()) {
    diags.error({at(kManifest), 0, 0}, "not valid JSON");
    return false;
  }
  auto settings = settings_from_manifest(manifest, at(kManifest), diags);
  if (!settings) return false;
  if (manifest.contains("qualrank") && manifest["qualrank"] != QUALRANK_VERSION)
    diags.warning({at(kManifest), 0, 0}, "made with qualrank " + manifest["qualrank"].dump() + ", verified with " +
                                            QUALRANK_VERSION + ": outputs may differ for that reason alone");

  // 1. The checksums.
  auto sums = files::read_inside(dir, kChecksums);
  std::map<std::string, int> listed;  // path -> its line
  if (!sums) diags.error({at(kChecksums), 0, 0}, "cannot read the file");
  else {
    int line = 0;
    std::size_t pos = 0, entries = 0;
    while (pos < sums->size()) {
      auto end = sums->find('\n', pos);
      if (end == std::string::npos) end = sums->size();
      std::string l = sums->substr(pos, end - pos);
      pos = end + 1;
      ++line;
      if (l.empty()) continue;
      if (++entries > kMaxChecksumLines) {
        diags.error({at(kChecksums), line, 1}, "more than " + std::to_string(kMaxChecksumLines) +
                                                   " lines (the limit on SHA256SUMS lines); the rest is not checked");
        break;
      }
      if (l.size() < 67 || l.compare(64, 2, "  ") != 0 || !plain_relative(l.substr(66))) {
        diags.error({at(kChecksums), line, 1}, "expected 'SHA256  PATH' with a path inside the package");
        continue;
      }
      std::string rel = l.substr(66);
      // Each file is hashed once: a path listed again is an error, whatever its checksum.
      if (auto [it, fresh] = listed.emplace(rel, line); !fresh) {
        diags.error({at(kChecksums), line, 1}, "'" + rel + "' is listed twice (first at line " +
                                                    std::to_string(it->second) + ")");
        continue;
      }
      ++summary.checksums;
      std::string why;
      auto bytes = files::read_inside(dir, rel, &why);
      if (!bytes) diags.error({at(rel), 0, 0}, "is missing (listed in SHA256SUMS): " + why);
      else if (sha256_hex(*bytes) != l.substr(0, 64)) diags.error({at(rel), 0, 0}, "SHA-256 differs from SHA256SUMS");
    }
  }
  for (const auto& rel : files_below(dir))
    if (rel != kChecksums && !listed.count(rel)) diags.warning({at(rel), 0, 0}, "not listed in SHA256SUMS");

  // 2. The re-run.
  remove_stale(dir, ".verify.", {""});
  const fs::path scratch = dir / (".verify." + std::to_string(::getpid()));
  fs::remove_all(scratch, ec);
  files::RemoveTreeOnExit cleanup{scratch};
  Diagnostics run;
  auto outputs = make_outputs(dir, scratch, *settings, run);
  if (!outputs) {
    diags.append(run);
    diags.error({shown, 0, 0}, "the analysis cannot be re-run from the package's inputs");
    return false;
  }
  std::set<std::string> made;
  std::vector<std::string> files;
  for (const auto& kv : outputs->files) made.insert(kv.first);
  // The README lists the package's files as the manifest and checksums name them.
  std::set<std::string> all;
  for (const auto& kv : listed) all.insert(kv.first);
  all.insert(kChecksums);
  files.assign(all.begin(), all.end());
  outputs->files[kReadme] = readme(*outputs, manifest, files);
  std::set<std::string> expected;
  if (manifest.contains("outputs") && manifest["outputs"].is_array())
    for (const auto& o : manifest["outputs"])
      if (o.is_string()) expected.insert(o.get<std::string>());
  for (const auto& rel : expected)
    if (!made.count(rel)) diags.error({at(rel), 0, 0}, "is not made by the re-run (the manifest lists it as an output)");
  for (const auto& [rel, bytes] : outputs->files) {
    ++summary.outputs;
    auto have = files::read_inside(dir, rel);
    if (!have) {
      diags.error({at(rel), 0, 0}, "is missing (the re-run makes it)");
      continue;
    }
    if (*have == bytes) continue;
    std::size_t byte;
    int line, column;
    first_difference(*have, bytes, byte, line, column);
    if (binary(rel)) line = column = 0;
    diags.error({at(rel), line, column}, "differs from the re-run (first difference at byte " + std::to_string(byte + 1) + ")");
  }
  return !diags.has_errors();
}

}  // namespace qualrank
