// util/hash_cache.h: remembered SHA-256 digests with git's racy rule.
#include "qualrank/util/hash_cache.h"

#include <sys/stat.h>

#include <sstream>

#include "qualrank/util/sha256.h"

namespace qualrank::files {

namespace {
constexpr const char* kHeader = "qualrank sha256 cache 1";
}  // namespace

HashCache::HashCache(std::filesystem::path file) : file_(std::move(file)) {
  struct stat st {};
  if (::lstat(file_.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return;
  auto text = read_input(file_, kListInput, nullptr, Links::refuse);  // a symlink is no cache of ours
  if (!text) return;
  std::istringstream in(*text);
  std::string line;
  if (!std::getline(in, line) || line != kHeader) return;
  while (std::getline(in, line)) {
    std::istringstream f(line);
    Entry e;
    std::string key;
    if (!(f >> e.sha256 >> e.id.dev >> e.id.ino >> e.id.size >> e.id.mtime_ns >> e.id.ctime_ns) || e.sha256.size() != 64) {
      entries_.clear();
      return;
    }
    f.get();
    std::getline(f, key);
    if (key.empty()) {
      entries_.clear();
      return;
    }
    e.id.known = true;
    entries_[key] = std::move(e);
  }
  written_ns_ = static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
}

std::string HashCache::find(const std::string& key, const FileIdentity& id) const {
  if (!id.known) return {};
  auto it = entries_.find(key);
  if (it == entries_.end()) return {};
  const FileIdentity& r = it->second.id;
  if (r.dev != id.dev || r.ino != id.ino || r.size != id.size || r.mtime_ns != id.mtime_ns || r.ctime_ns != id.ctime_ns)
    return {};
  if (id.mtime_ns >= written_ns_ || id.ctime_ns >= written_ns_) return {};  // racy: hash it again
  return it->second.sha256;
}

std::string HashCache::digest_of(const std::filesystem::path& workspace, const std::string& rel) const {
  std::string why;
  auto bytes = read_inside_mapped(workspace, rel, &why);
  if (!bytes) return {};
  std::string known = find(rel, bytes->identity());
  return known.empty() ? sha256_hex(bytes->view()) : known;
}

void HashCache::put(const std::string& key, const FileIdentity& id, const std::string& sha256) {
  if (!id.known || key.empty() || key.find('\n') != std::string::npos) return;
  entries_[key] = {id, sha256};
  changed_ = true;
}

void HashCache::save() const {
  if (!changed_) return;
  std::string out = std::string(kHeader) + '\n';
  for (const auto& [key, e] : entries_)
    out += e.sha256 + ' ' + std::to_string(e.id.dev) + ' ' + std::to_string(e.id.ino) + ' ' + std::to_string(e.id.size) + ' ' +
           std::to_string(e.id.mtime_ns) + ' ' + std::to_string(e.id.ctime_ns) + ' ' + key + '\n';
  std::string ignored;
  write_atomic(file_, out, &ignored);
}

}  // namespace qualrank::files
