// The hashes a workspace's files record of each other, made true of their pseudonymised copies
// (package_internal.h: rehash_recorded).
//
// Pseudonymisation changes the bytes of every file that holds a listed name or an e-mail address, so a hash
// recorded of such a file (a stored source's SHA-256 in the corpus manifest and the retrieval's provenance, a
// keyword file's, an excluded sample's) or of a transcript's codings (a consensus decision's hash) would no
// longer match in the package: the package's own `status`, `validate` and report would call current steps
// stale. Each recorded hash that was true in the workspace is replaced by the same hash of the copy; one that
// was already stale there is left as it is, so the package says exactly what the workspace says.
#include <set>

#include "package_internal.h"
#include "qualrank/analysis/consensus_plan.h"
#include "qualrank/model/history/versions.h"
#include "qualrank/model/workspace.h"
#include "qualrank/util/files.h"

namespace qualrank::package_detail {

namespace {

bool is_hex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); }

// Replaces every run of exactly 64 lowercase hex digits in text[0, end) that `map` holds by its value.
std::string replace_file_hashes(const std::string& text, std::size_t end, const std::map<std::string, std::string>& map) {
  std::string out;
  out.reserve(text.size());
  std::size_t i = 0;
  while (i < end) {
    if (!is_hex(text[i])) {
      out += text[i++];
      continue;
    }
    std::size_t j = i;
    while (j < end && is_hex(text[j])) ++j;
    std::string run = text.substr(i, j - i);
    auto it = run.size() == 64 ? map.find(run) : map.end();
    out += it == map.end() ? run : it->second;
    i = j;
  }
  out.append(text, end, std::string::npos);
  return out;
}

// Each consensus file's unit hashes now, in unit order, by the consensus file's path.
std::map<std::string, std::vector<std::string>> unit_hashes(const fs::path& root) {
  std::map<std::string, std::vector<std::string>> out;
  Diagnostics quiet;
  auto ws = load_workspace(root, quiet);
  if (!ws || ws->consensus.empty()) return out;
  auto version = taxonomy_at(*ws, std::nullopt, quiet);
  if (!version) return out;
  for (const auto& record : ws->consensus)
    for (const auto& t : ws->transcripts)
      if (t.file == record.transcript) {
        auto units = reconcile_units(t, version->taxonomy, version->resolve, record.unit == "segment");
        auto& list = out[record.file];
        for (const auto& u : units.units) list.push_back(u.hash);
      }
  return out;
}

}  // namespace

bool rehash_recorded(const fs::path& root, const fs::path& staging, const std::map<std::string, std::string>& renamed_from,
                     const std::map<std::string, std::string>& file_hashes, std::map<std::string, std::string>& package_files,
                     Diagnostics& diags) {
  std::set<std::string> changed;
  // 1. File hashes: the corpus manifest, the retrieval's provenance line, the samples' `#` lines.
  if (!file_hashes.empty())
    for (auto& [rel, bytes] : package_files) {
      std::size_t end = 0;
      if (rel == "corpus/manifest.json") end = bytes.size();
      else if (rel == "corpus/retrieved.jsonl") end = std::min(bytes.find('\n'), bytes.size());
      else if (rel.starts_with("corpus/samples/"))
        for (std::size_t at = 0; at < bytes.size() && bytes[at] == '#';) {  // the header: its `#` lines
          at = std::min(bytes.find('\n', at), bytes.size());
          end = at;
          if (at < bytes.size()) ++at;
        }
      if (end == 0) continue;
      std::string now = replace_file_hashes(bytes, end, file_hashes);
      if (now != bytes) {
        bytes = std::move(now);
        changed.insert(rel);
      }
    }
  // 2. Decision hashes: a unit whose hash the copy changed gets the copy's hash where the file recorded the
  //    workspace's (a stale decision recorded another one and keeps it).
  const auto before = unit_hashes(root);
  const auto after = unit_hashes(staging);
  for (const auto& [rel, hashes] : after) {
    auto from = renamed_from.find(rel);
    auto old = before.find(from == renamed_from.end() ? rel : from->second);
    auto file = package_files.find(rel);
    if (old == before.end() || file == package_files.end()) continue;
    if (old->second.size() != hashes.size()) {
      diags.warning({rel, 1, 1}, "its units differ once pseudonymised; its decisions' hashes are left as written "
                                 "(the package may call them stale)");
      continue;
    }
    std::string& text = file->second;
    for (std::size_t k = 0; k < hashes.size(); ++k) {
      if (old->second[k] == hashes[k]) continue;
      const std::string was = "| hash " + old->second[k], now = "| hash " + hashes[k];
      for (std::size_t at = text.find(was); at != std::string::npos; at = text.find(was, at + now.size())) {
        const std::size_t after_hash = at + was.size();
        if (after_hash < text.size() && text[after_hash] != ' ' && text[after_hash] != '\n') continue;
        text.replace(at, was.size(), now);
        changed.insert(rel);
      }
    }
  }
  std::string err;
  for (const auto& rel : changed)
    if (!files::write_atomic(staging / rel, package_files[rel], &err)) {
      diags.error({(staging / rel).string(), 0, 0}, "cannot write: " + err);
      return false;
    }
  return true;
}

}  // namespace qualrank::package_detail
