// A file's bytes mapped into memory rather than copied (files::read_inside's policy), with what identifies its
// content (for util/hash_cache.h). Implemented in util/files.cpp, beside the read policy.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "qualrank/util/files.h"

namespace qualrank::files {

// What identifies a file's content without reading it (git's index does the same): its device and inode, size,
// and modification and status-change times in nanoseconds, from fstat of the descriptor read. `known` is false
// for bytes that did not come from the disk (a ReadOverlay's).
struct FileIdentity {
  std::uint64_t dev = 0, ino = 0, size = 0;
  std::int64_t mtime_ns = 0, ctime_ns = 0;
  bool known = false;
};

// A file's bytes, read as read_input reads them (the same checks and reasons), but mapped into memory
// (mmap, read-only, private; MAP_POPULATE) instead of copied into a string when the file is on the disk and of
// kMapAtLeast bytes or more: retrieval reads the whole stored corpus, and a copy of it cost a fifth of its time
// (zeroed pages, then the copy). Mapped bytes are the page cache's: a file truncated by another process while it
// is mapped would make reading its lost pages fault, so only files under the workspace lock are read this way.
class InputBytes {
 public:
  static constexpr std::size_t kMapAtLeast = 1u << 20;
  InputBytes() = default;
  InputBytes(InputBytes&& o) noexcept { *this = std::move(o); }
  InputBytes& operator=(InputBytes&& o) noexcept;
  InputBytes(const InputBytes&) = delete;
  InputBytes& operator=(const InputBytes&) = delete;
  ~InputBytes();
  std::string_view view() const { return map_ ? std::string_view(static_cast<const char*>(map_), size_) : std::string_view(copy_); }
  const FileIdentity& identity() const { return id_; }

 private:
  friend std::optional<InputBytes> read_inside_mapped(const fs::path&, const fs::path&, std::string*, const InputLimit&);
  void* map_ = nullptr;
  std::size_t size_ = 0;
  std::string copy_;
  FileIdentity id_;
};
// read_inside, its bytes as InputBytes.
std::optional<InputBytes> read_inside_mapped(const fs::path& workspace, const fs::path& path, std::string* why = nullptr,
                                             const InputLimit& limit = kAnyInput);

}  // namespace qualrank::files
