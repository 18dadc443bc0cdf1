// The files a study is computed from, and their hashes (model/inputs/workspace_inputs.h).
#include "qualrank/model/inputs/workspace_inputs.h"

#include <algorithm>

#include "qualrank/model/corpus/corpus.h"
#include "qualrank/model/findings.h"
#include "qualrank/model/history/history.h"
#include "qualrank/util/files.h"
#include "qualrank/util/hash_cache.h"
#include "qualrank/util/sha256.h"
#include "qualrank/util/text.h"

namespace qualrank {

namespace fs = std::filesystem;

std::vector<std::string> workspace_input_files(const fs::path& root, Diagnostics& diags, bool corpus) {
  std::vector<std::string> out;
  auto add = [&](const std::string& dir, std::string_view suffix) {
    for (const auto& p : files::list_files(root / dir, suffix)) {
      std::string rel = dir + "/" + p.filename().string();
      if (p.filename().string().front() == '.') continue;
      if (auto problem = files::file_name_problem(p); !problem.empty()) {
        diags.error({text::escape_invalid_utf8(rel), 0, 0}, problem);
        continue;
      }
      std::error_code ec;
      if (dir == "codebooks" && (rel.ends_with(".history.yaml") || rel.ends_with(".history.yml")) &&
          fs::is_symlink(fs::symlink_status(p, ec))) {
        diags.error({rel, 0, 0}, kHistorySymlinkMessage);  // never followed, even inside (load_history)
        continue;
      }
      if (!files::resolved_inside(root, p)) {
        diags.error({rel, 0, 0}, files::kOutsideMessage);
        continue;
      }
      out.push_back(rel);
    }
  };
  add("codebooks", ".yaml");
  add("codebooks", ".yml");
  add("codebooks/labels", ".csv");
  add("guidelines", ".yaml");
  add("guidelines", ".yml");
  add("transcripts", ".md");
  add("transcripts", ".codes");
  // The study's findings (the chain of evidence of methods.md), when there are some.
  if (const fs::path f = root / kFindingsFile; fs::exists(fs::symlink_status(f))) {
    if (!files::resolved_inside(root, f)) diags.error({kFindingsFile, 0, 0}, files::kOutsideMessage);
    else out.push_back(kFindingsFile);
  }
  if (corpus && fs::exists(fs::symlink_status(root / "corpus/manifest.json"))) {
    // The stored sources themselves are not hashed again (they may be GBs): the manifest records each one's
    // SHA-256, and `status` compares it with the file (corpus sources).
    add("corpus", ".json");
    add("corpus", ".yaml");
    out.push_back("corpus/retrieved.jsonl");
    if (!fs::exists(fs::symlink_status(root / out.back()))) out.pop_back();
    add("corpus/screening", ".csv");
    add("corpus/samples", ".txt");
    std::error_code ec;
    std::vector<std::string> samples;
    for (fs::directory_iterator it(root / "corpus/labels", ec), end; !ec && it != end; it.increment(ec))
      if (it->is_directory(ec) && !fs::is_symlink(it->symlink_status(ec))) samples.push_back(it->path().filename().string());
    std::sort(samples.begin(), samples.end());
    for (const auto& d : samples) add("corpus/labels/" + d, ".csv");
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> package_input_files(const fs::path& root, Diagnostics& diags) {
  auto out = workspace_input_files(root, diags, true);
  Diagnostics quiet;  // (a broken manifest is the report's error, said there)
  if (auto manifest = corpus::read_manifest(root, quiet)) {
    for (const auto& [source, entry] : manifest->sources) {
      const std::string rel = corpus::store_path(source);
      if (!files::exists(root / rel)) continue;
      if (!files::resolved_inside(root, root / rel)) diags.error({rel, 0, 0}, files::kOutsideMessage);
      else out.push_back(rel);
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
  }
  return out;
}

std::string inputs_digest(const std::map<std::string, std::string>& hashes) {
  std::string lines;
  for (const auto& [path, hash] : hashes) lines += path + '\t' + hash + '\n';
  return sha256_hex(lines);
}

std::map<std::string, std::string> input_hashes(const fs::path& root, const std::vector<std::string>& files) {
  std::vector<std::string> hashes(files.size());
  // The stored corpus sources' digests, as corpus retrieve remembered them (only read: a file whose identity or
  // times changed since is hashed again; util/hash_cache.h): they are the largest inputs by far.
  const files::HashCache remembered(root / corpus::kHashCacheFile);
  for (std::size_t k = 0; k < files.size(); ++k) hashes[k] = remembered.digest_of(root, files[k]);
  std::map<std::string, std::string> out;
  for (std::size_t k = 0; k < files.size(); ++k) out.emplace(files[k], std::move(hashes[k]));
  return out;
}

}  // namespace qualrank
