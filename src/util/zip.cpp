// Zip archives. Writing: qualrank's own writer (local headers, data, central directory; no data descriptors,
// no ZIP64) with the entries deflated by zlib on the worker threads (deflate::deflate_raw); an archive that needs
// ZIP64 (an entry or the whole over 4 GiB, 65,535 entries or more) goes through libzip. Reproducibility: the
// same entries and epoch give the same bytes either way. libzip converts an entry's mtime to DOS date/time
// fields with localtime(); we pass a time_t whose local broken-down time equals the UTC broken-down time of
// the epoch, so the stored fields do not depend on the machine's time zone; our writer takes the UTC fields
// directly. Reading goes through libzip.
#include "qualrank/util/zip.h"
#include "qualrank/util/deflate.h"
#include "qualrank/util/files.h"
#include "qualrank/util/parallel.h"

#include <unistd.h>

#include <zip.h>

#include <cstdint>
#include <cstdio>
#include <ctime>
#include <string_view>
#include <vector>

namespace qualrank::zip {

namespace {

time_t dos_time_for(long long epoch) {
  time_t t = static_cast<time_t>(epoch);
  std::tm utc{};
  gmtime_r(&t, &utc);
  utc.tm_isdst = -1;
  return mktime(&utc);  // local time with the UTC fields
}

std::string zip_message(zip_t* z) { return z ? zip_strerror(z) : "cannot open the archive"; }

// An entry that is itself a zip (zip.h): stored, not deflated again.
bool is_zip(std::string_view bytes) { return bytes.starts_with(std::string_view("PK\3\4", 4)); }

void put16(std::string& s, std::uint32_t v) {
  s += static_cast<char>(v & 0xFF);
  s += static_cast<char>((v >> 8) & 0xFF);
}
void put32(std::string& s, std::uint64_t v) {
  for (int k = 0; k < 4; ++k) s += static_cast<char>((v >> (8 * k)) & 0xFF);
}

// The DOS date and time fields of `epoch`'s UTC broken-down time, within what they can hold (1980-2107).
std::pair<std::uint32_t, std::uint32_t> dos_date_time(long long epoch) {
  const time_t t = static_cast<time_t>(epoch);
  struct tm utc {};
  gmtime_r(&t, &utc);
  if (utc.tm_year < 80) return {(1u << 5) | 1u, 0};  // 1980-01-01 00:00:00
  if (utc.tm_year > 80 + 127) return {(127u << 9) | (12u << 5) | 31u, (23u << 11) | (59u << 5) | 29u};
  const auto date = static_cast<std::uint32_t>(((utc.tm_year - 80) << 9) | ((utc.tm_mon + 1) << 5) | utc.tm_mday);
  const auto time = static_cast<std::uint32_t>((utc.tm_hour << 11) | (utc.tm_min << 5) | (utc.tm_sec / 2));
  return {date, time};
}

enum class Written { ok, failed, needs_zip64 };

// The archive by qualrank's own writer, or needs_zip64 (nothing written) when it would not fit the plain
// format's 32-bit sizes and offsets and 16-bit counts.
Written write_plain(const std::filesystem::path& path, const std::map<std::string, std::string>& entries,
                    long long epoch, std::string* error) {
  constexpr std::uint64_t kMax32 = 0xFFFFFFFFull;
  if (entries.size() >= 0xFFFF) return Written::needs_zip64;
  std::vector<const std::pair<const std::string, std::string>*> list;
  for (const auto& e : entries) {
    if (e.first.size() >= 0xFFFF || e.second.size() >= kMax32) return Written::needs_zip64;
    list.push_back(&e);
  }
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) {
    if (error) *error = "cannot create " + path.string();
    return Written::failed;
  }
  bool ok = true;
  auto put = [&](std::string_view bytes) { ok = ok && std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size(); };
  auto stop = [&](Written w) {
    std::fclose(f);
    return w;
  };
  // Deflated on the worker threads a batch at a time (about kBatchBytes of entries, written and freed before
  // the next: memory stays bounded), each entry whole, so its bytes depend on the entry alone. The deflated
  // bytes are kept only when smaller than the entry; else it is stored, as is an entry that is a zip itself,
  // and an empty one.
  constexpr std::uint64_t kBatchBytes = 32u << 20;
  struct Made {
    std::string deflated;
    std::uint32_t crc = 0;
    bool stored = true;
    bool ok = true;
  };
  const auto [date, time] = dos_date_time(epoch);
  std::uint64_t offset = 0;
  std::string central;
  for (std::size_t first = 0; first < list.size();) {
    std::size_t last = first;
    for (std::uint64_t bytes = 0; last < list.size() && (last == first || bytes < kBatchBytes); ++last) bytes += list[last]->second.size();
    std::vector<Made> made(last - first);
    parallel_for(made.size(), [&](std::size_t k) {
      const std::string& bytes = list[first + k]->second;
      Made& m = made[k];
      m.crc = deflate::crc32(bytes);
      if (bytes.empty() || is_zip(bytes)) return;
      m.ok = deflate::deflate_raw(bytes, m.deflated);
      m.stored = m.deflated.size() >= bytes.size();
      if (m.stored) std::string().swap(m.deflated);
    });
    for (std::size_t k = 0; k < made.size(); ++k) {
      const std::string& name = list[first + k]->first;
      const std::string& bytes = list[first + k]->second;
      const Made& m = made[k];
      if (!m.ok) {
        if (error) *error = "cannot deflate " + name + " (zlib)";
        return stop(Written::failed);
      }
      const std::uint64_t size = m.stored ? bytes.size() : m.deflated.size();
      const std::string local = local_header({name, !m.stored, m.crc, size, bytes.size(), date, time});
      central += central_entry(local, offset);
      offset += local.size() + size;
      if (offset + central.size() + 22 >= kMax32) return stop(Written::needs_zip64);  // (22: the end record)
      put(local);
      put(m.stored ? std::string_view(bytes) : std::string_view(m.deflated));
    }
    first = last;
  }
  put(central);
  put(end_record(list.size(), central.size(), offset));
  ok = std::fclose(f) == 0 && ok;
  if (!ok && error) *error = "cannot write " + path.string() + " (disk full?)";
  return ok ? Written::ok : Written::failed;
}

}  // namespace

std::string local_header(const EntryRecord& e) {
  bool ascii = true;
  for (char c : e.name) ascii = ascii && static_cast<unsigned char>(c) < 0x80;
  std::string local;
  put32(local, 0x04034b50);
  put16(local, e.deflated ? 20 : 10);  // version needed: 2.0 to inflate, 1.0 to store
  put16(local, ascii ? 0 : 0x0800);    // bit 11: the name is UTF-8
  put16(local, e.deflated ? 8 : 0);    // deflated or stored
  put16(local, e.dos_time);
  put16(local, e.dos_date);
  put32(local, e.crc);
  put32(local, e.compressed);
  put32(local, e.size);
  put16(local, static_cast<std::uint32_t>(e.name.size()));
  put16(local, 0);  // no extra field
  local += e.name;
  return local;
}

std::string central_entry(const std::string& local_header, std::uint64_t offset) {
  std::string entry;
  put32(entry, 0x02014b50);
  put16(entry, 20);                   // made by: MS-DOS, 2.0
  entry.append(local_header, 4, 26);  // version needed ... extra length, as in the local header
  put16(entry, 0);                    // comment length
  put16(entry, 0);                    // disk
  put16(entry, 0);                    // internal attributes
  put32(entry, 0);                    // external attributes
  put32(entry, offset);
  entry.append(local_header, 30, std::string::npos);  // the name
  return entry;
}

std::string end_record(std::size_t entries, std::uint64_t central_bytes, std::uint64_t central_offset) {
  std::string end;
  put32(end, 0x06054b50);
  put16(end, 0);  // this disk
  put16(end, 0);  // the central directory's disk
  put16(end, static_cast<std::uint32_t>(entries));
  put16(end, static_cast<std::uint32_t>(entries));
  put32(end, central_bytes);
  put32(end, central_offset);
  put16(end, 0);  // comment length
  return end;
}

bool write(const std::filesystem::path& path, const std::map<std::string, std::string>& entries, long long epoch,
           std::string* error) {
  if (const Written w = write_plain(path, entries, epoch, error); w != Written::needs_zip64) return w == Written::ok;
  // ZIP64 through libzip, every entry deflated by zlib (level 1) but those that are zips themselves.
  int code = 0;
  zip_t* z = zip_open(path.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &code);
  if (!z) {
    zip_error_t e;
    zip_error_init_with_code(&e, code);
    if (error) *error = std::string("cannot create ") + path.string() + ": " + zip_error_strerror(&e);
    zip_error_fini(&e);
    return false;
  }
  time_t mtime = dos_time_for(epoch);
  for (const auto& [name, bytes] : entries) {  // std::map: sorted by name
    zip_source_t* src = zip_source_buffer(z, bytes.data(), bytes.size(), 0);
    if (!src) {
      if (error) *error = zip_message(z);
      zip_discard(z);
      return false;
    }
    zip_int64_t index = zip_file_add(z, name.c_str(), src, ZIP_FL_ENC_UTF_8 | ZIP_FL_OVERWRITE);
    if (index < 0) {
      zip_source_free(src);
      if (error) *error = zip_message(z);
      zip_discard(z);
      return false;
    }
    zip_set_file_compression(z, static_cast<zip_uint64_t>(index), is_zip(bytes) ? ZIP_CM_STORE : ZIP_CM_DEFLATE, 1);
    zip_file_set_mtime(z, static_cast<zip_uint64_t>(index), mtime, 0);
  }
  if (zip_close(z) != 0) {
    if (error) *error = zip_message(z);
    zip_discard(z);
    return false;
  }
  return true;
}

Reader::Reader(const std::filesystem::path& path) {
  int code = 0;
  // The read policy (files::open_input): only a regular file, opened without blocking on a FIFO.
  const int fd = files::open_input(path, files::kArchiveInput, &error_);
  if (fd < 0) return;
  zip_t* z = zip_fdopen(fd, ZIP_RDONLY, &code);  // (owns fd once it succeeds)
  if (!z) {
    ::close(fd);
    zip_error_t e;
    zip_error_init_with_code(&e, code);
    error_ = std::string("not a readable zip archive (") + zip_error_strerror(&e) + ")";
    zip_error_fini(&e);
    return;
  }
  zip_int64_t n = zip_get_num_entries(z, 0);
  if (n < 0 || static_cast<zip_uint64_t>(n) > kMaxEntries) {
    error_ = "the archive has " + std::to_string(n) + " entries; the limit is " + std::to_string(kMaxEntries);
    zip_discard(z);
    return;
  }
  archive_ = z;
}

Reader::~Reader() {
  if (archive_) zip_discard(static_cast<zip_t*>(archive_));
}

std::vector<std::string> Reader::names() const {
  std::vector<std::string> out;
  if (!archive_) return out;
  auto* z = static_cast<zip_t*>(archive_);
  zip_int64_t n = zip_get_num_entries(z, 0);
  for (zip_int64_t i = 0; i < n; ++i)
    if (const char* name = zip_get_name(z, static_cast<zip_uint64_t>(i), 0)) out.emplace_back(name);
  return out;
}

std::optional<std::string> Reader::read(const std::string& name, bool ignore_case, std::size_t limit) {
  absent_ = false;
  if (!archive_) return std::nullopt;
  auto* z = static_cast<zip_t*>(archive_);
  zip_int64_t index = zip_name_locate(z, name.c_str(), ignore_case ? ZIP_FL_NOCASE : 0);
  if (index < 0) {
    error_ = "no entry '" + name + "' in the archive";
    absent_ = true;
    return std::nullopt;
  }
  zip_stat_t st;
  zip_stat_init(&st);
  if (zip_stat_index(z, static_cast<zip_uint64_t>(index), 0, &st) != 0 || !(st.valid & ZIP_STAT_SIZE)) {
    error_ = "cannot read entry '" + name + "'";
    return std::nullopt;
  }
  auto size_text = [](std::size_t bytes) {
    return bytes % (1024u * 1024u) == 0 ? std::to_string(bytes / (1024u * 1024u)) + " MiB"
                                        : std::to_string(bytes) + " bytes";
  };
  if (st.size > limit) {
    error_ = "entry '" + name + "' is " + std::to_string(st.size) + " bytes uncompressed; the limit is " +
             size_text(limit);
    return std::nullopt;
  }
  if (st.size > 1024u * 1024u && (st.valid & ZIP_STAT_COMP_SIZE) && st.comp_size > 0 &&
      st.size / st.comp_size > kMaxRatio) {
    error_ = "entry '" + name + "' expands " + std::to_string(st.size / st.comp_size) + " times (" +
             std::to_string(st.comp_size) + " bytes to " + std::to_string(st.size) + "); the limit is " +
             std::to_string(kMaxRatio) + " times (a zip bomb?)";
    return std::nullopt;
  }
  if (total_read_ + st.size > kMaxTotalBytes) {
    error_ = "entry '" + name + "' would bring what is read from the archive past " + size_text(kMaxTotalBytes) +
             " uncompressed (the limit for one archive)";
    return std::nullopt;
  }
  zip_file_t* f = zip_fopen_index(z, static_cast<zip_uint64_t>(index), 0);
  if (!f) {
    error_ = "cannot open entry '" + name + "': " + zip_message(z);
    return std::nullopt;
  }
  std::string out(static_cast<std::size_t>(st.size), '\0');
  zip_int64_t got = out.empty() ? 0 : zip_fread(f, out.data(), out.size());
  zip_fclose(f);
  if (got < 0 || static_cast<zip_uint64_t>(got) != st.size) {
    error_ = "entry '" + name + "' is damaged";
    return std::nullopt;
  }
  total_read_ += out.size();
  return out;
}

}  // namespace qualrank::zip
