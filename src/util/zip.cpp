// libzip wrapper. Reproducibility: libzip converts an entry's mtime to DOS date/time fields with localtime();
// we pass a time_t whose local broken-down time equals the UTC broken-down time of the epoch, so the stored
// fields do not depend on the machine's time zone. Entries are added in name order with deflate.
#include "qualrank/util/zip.h"
#include "qualrank/util/files.h"

#include <unistd.h>

#include <zip.h>

#include <ctime>
#include <string_view>

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

}  // namespace

bool write(const std::filesystem::path& path, const std::map<std::string, std::string>& entries, long long epoch,
           std::string* error) {
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
    const bool zipped = std::string_view(bytes).starts_with(std::string_view("PK\3\4", 4));  // (zip.h)
    zip_set_file_compression(z, static_cast<zip_uint64_t>(index), zipped ? ZIP_CM_STORE : ZIP_CM_DEFLATE, 1);
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
