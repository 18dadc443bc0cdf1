// SHA-256 digests of files remembered by what identifies their content (files::FileIdentity), so that a large
// file read again unchanged is not hashed again: git's index does the same ("racily clean" entries included).
#pragma once
#include <filesystem>
#include <map>
#include <string>

#include "qualrank/util/input_bytes.h"

namespace qualrank::files {

// One cache file of lines "SHA256 DEV INO SIZE MTIME_NS CTIME_NS PATH" after a first line naming the format
// (docs/formats.md, corpus/.sha256-cache). An entry is used only when the file's identity is the one recorded
// and the file was last modified before the cache file was written (git's racy rule: a file changed in the
// same clock tick as the cache was written could keep its size and times, so it is hashed again); otherwise
// the file is hashed and the entry replaced. A missing, unreadable or malformed cache is an empty one; one that
// cannot be written is not written (it is a cache only).
class HashCache {
 public:
  explicit HashCache(std::filesystem::path file);
  // The recorded digest of `key`'s content when `id` is still what was recorded and not racy, else "".
  std::string find(const std::string& key, const FileIdentity& id) const;
  // The SHA-256 of the workspace file `rel` (read as read_inside_mapped reads it): the remembered digest when
  // the file is still what was recorded, else hashed now (and not remembered); "" when it cannot be read.
  std::string digest_of(const std::filesystem::path& workspace, const std::string& rel) const;
  // Records `sha256` for `key` as the digest of the content `id` identifies (read from that descriptor).
  void put(const std::string& key, const FileIdentity& id, const std::string& sha256);
  // Writes the cache (atomically) when put() changed it.
  void save() const;

 private:
  struct Entry {
    FileIdentity id;
    std::string sha256;
  };
  std::filesystem::path file_;
  std::map<std::string, Entry> entries_;
  std::int64_t written_ns_ = 0;  // the cache file's modification time (0: none)
  bool changed_ = false;
};

}  // namespace qualrank::files
