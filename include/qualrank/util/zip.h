// Zip archives through libzip: reproducible writing (sorted entries, one fixed timestamp, deflate) and
// reading whole entries with a size limit.
#pragma once
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace qualrank::zip {

// Writes `entries` (name -> bytes) to `path`, in name order, every entry stamped with `epoch` (seconds since
// 1970, UTC; stored as the zip's DOS time in UTC fields whatever the local time zone). The same entries and
// epoch give the same bytes. Returns false with `error` set when libzip fails.
bool write(const std::filesystem::path& path, const std::map<std::string, std::string>& entries, long long epoch,
           std::string* error);

class Reader {
 public:
  // Opens `path`; check ok() / error().
  explicit Reader(const std::filesystem::path& path);
  ~Reader();
  Reader(const Reader&) = delete;
  Reader& operator=(const Reader&) = delete;
  bool ok() const { return archive_ != nullptr; }
  const std::string& error() const { return error_; }
  std::vector<std::string> names() const;
  // The whole entry `name` (exact match, or case-insensitive when `ignore_case`); nullopt when it is absent
  // or larger than `limit` bytes (error() says which).
  std::optional<std::string> read(const std::string& name, bool ignore_case = false,
                                  std::size_t limit = 512u * 1024u * 1024u);

 private:
  void* archive_ = nullptr;
  std::string error_;
};

}  // namespace qualrank::zip
