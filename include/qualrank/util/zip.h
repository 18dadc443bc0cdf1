// Zip archives: reproducible writing (sorted entries, one fixed timestamp, deflate; libzip for an archive that
// needs ZIP64) and reading whole entries with a size limit (libzip).
#pragma once
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace qualrank::zip {

// Writes `entries` (name -> bytes) to `path`, in name order, every entry stamped with `epoch` (seconds since
// 1970, UTC; stored as the zip's DOS time in UTC fields whatever the local time zone). The same entries and
// epoch give the same bytes. Entries are deflated by zlib's level 1 on the worker threads (deflate::deflate_raw,
// which says why not igzip), kept only when smaller;
// an entry that is itself a zip archive (it starts with a local file header, "PK\3\4": a workbook, a REFI-QDA
// project) is stored, not deflated again: deflate would save nothing and cost the most time of all (a package
// of 2,000 transcripts carries 114 MB of them). Without ZIP64 (an entry or the archive under 4 GiB, fewer than
// 65,535 entries) qualrank writes the archive itself; else libzip does, with zlib. Returns false with `error`
// set when writing fails.
bool write(const std::filesystem::path& path, const std::map<std::string, std::string>& entries, long long epoch,
           std::string* error);

// The records of a zip written by hand, shared by write() and the streamed workbook writer
// (report/xlsx/xlsx_stream.cpp), which deflates its parts in pieces: an entry's local header, its central
// directory entry (made from the local header, at `offset`), and the end record. No ZIP64: sizes and offsets
// must be under 4 GiB. Bit 11 (UTF-8) is set for a name that is not ASCII.
struct EntryRecord {
  std::string_view name;
  bool deflated = true;       // else stored
  std::uint32_t crc = 0;      // CRC-32 of the uncompressed bytes
  std::uint64_t compressed = 0, size = 0;
  std::uint32_t dos_date = (1u << 5) | 1u, dos_time = 0;  // 1980-01-01 00:00:00 unless set
};
std::string local_header(const EntryRecord& e);
std::string central_entry(const std::string& local_header, std::uint64_t offset);
std::string end_record(std::size_t entries, std::uint64_t central_bytes, std::uint64_t central_offset);

// Limits on reading (docs/formats.md, "Limits"), each refused with its own reason in Reader::error():
inline constexpr std::size_t kMaxEntries = 10000;                    // entries in one archive
inline constexpr std::size_t kMaxEntryBytes = 64u * 1024u * 1024u;   // one entry, uncompressed
inline constexpr std::size_t kMaxTotalBytes = 256u * 1024u * 1024u;  // all entries read from one archive
inline constexpr std::size_t kMaxRatio = 200;  // uncompressed / compressed, for entries over 1 MiB uncompressed

class Reader {
 public:
  // Opens `path`; check ok() / error(). An archive with more than kMaxEntries entries is not opened.
  explicit Reader(const std::filesystem::path& path);
  ~Reader();
  Reader(const Reader&) = delete;
  Reader& operator=(const Reader&) = delete;
  bool ok() const { return archive_ != nullptr; }
  const std::string& error() const { return error_; }
  std::vector<std::string> names() const;
  // The whole entry `name` (exact match, or case-insensitive when `ignore_case`); nullopt when it is absent,
  // larger than `limit` bytes, compressed more than kMaxRatio times, past kMaxTotalBytes with what was read
  // before, or damaged (error() says which; absent() tells the first case from the others).
  std::optional<std::string> read(const std::string& name, bool ignore_case = false,
                                  std::size_t limit = kMaxEntryBytes);
  // Whether the last read() failed because there is no such entry (false when it was refused or damaged).
  bool absent() const { return absent_; }

 private:
  void* archive_ = nullptr;
  std::string error_;
  bool absent_ = false;
  std::size_t total_read_ = 0;
};

}  // namespace qualrank::zip
