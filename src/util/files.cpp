#include "qualrank/util/files.h"
#include "qualrank/util/input_bytes.h"

#include "qualrank/util/text.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <ctime>
#include <cstring>
#include <fstream>
#include <mutex>
#include <random>
#include <set>
#include <sstream>
#include <stdexcept>

namespace qualrank::files {

namespace {
const ReadOverlay* active_overlay = nullptr;  // set and cleared while no other thread reads (ReadOverlay)
}  // namespace

namespace {

// "a FIFO", "a directory", ... for a file type that is not a regular file.
const char* kind_of(mode_t mode) {
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISLNK(mode)) return "a symbolic link";
  return "not a file";
}

std::string mib(std::uint64_t bytes) {
  return bytes % (1u << 20) == 0 ? std::to_string(bytes >> 20) + " MiB" : std::to_string(bytes) + " bytes";
}

std::string too_large(std::uint64_t size, const InputLimit& limit, bool at_least) {
  return std::string("the file is ") + (at_least ? "over " : "") + std::to_string(size) + " bytes; the limit for " +
         limit.what + " is " + mib(limit.max_bytes) + "; not read";
}

}  // namespace

int open_input(const fs::path& path, const InputLimit& limit, std::string* why, Links links) {
  auto fail = [&](std::string reason) {
    if (why) *why = std::move(reason);
    return -1;
  };
  // O_NONBLOCK: opening a FIFO does not wait for a writer (it is refused below, before any read).
  int flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK | (links == Links::refuse ? O_NOFOLLOW : 0);
  int fd = ::open(path.c_str(), flags);
  if (fd < 0) {
    struct stat lst {};
    if (::lstat(path.c_str(), &lst) == 0 && S_ISLNK(lst.st_mode)) {
      if (links == Links::refuse)
        return fail("is a symbolic link; qualrank does not read this file through one (replace it by the file)");
      struct stat st {};
      if (::stat(path.c_str(), &st) != 0 && (errno == ENOENT || errno == ENOTDIR))
        return fail("is a symbolic link to a missing file");
    }
    return fail("cannot read the file");
  }
  struct stat st {};
  std::string problem;
  if (::fstat(fd, &st) != 0) problem = "cannot read the file";
  else if (!S_ISREG(st.st_mode)) problem = std::string("not a regular file (") + kind_of(st.st_mode) + "); qualrank reads only regular files";
  else if (static_cast<std::uint64_t>(st.st_size) > limit.max_bytes) problem = too_large(static_cast<std::uint64_t>(st.st_size), limit, false);
  if (!problem.empty()) {
    ::close(fd);
    return fail(std::move(problem));
  }
  // Back to blocking reads (a regular file never blocks; this keeps a network file system's reads whole).
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  return fd;
}

std::optional<std::string> read_input(const fs::path& path, const InputLimit& limit, std::string* why, Links links) {
  auto fail = [&](std::string reason) -> std::optional<std::string> {
    if (why) *why = std::move(reason);
    return std::nullopt;
  };
  if (active_overlay)
    if (const std::string* planned = active_overlay->find(path)) {
      if (planned->size() > limit.max_bytes) return fail(too_large(planned->size(), limit, false));
      return *planned;
    }
  int fd = open_input(path, limit, why, links);
  if (fd < 0) return std::nullopt;
  struct stat st {};
  ::fstat(fd, &st);
  const std::uint64_t size = static_cast<std::uint64_t>(st.st_size);
  // Reads into a string of the file's size + 1 (no stream buffer copies); at most max_bytes + 1 bytes, so a
  // file that grows meanwhile is refused rather than read without bound.
  const std::size_t cap = static_cast<std::size_t>(limit.max_bytes) + 1;
  std::string out(static_cast<std::size_t>(size) + 1, '\0');
  std::size_t have = 0;
  bool ok = true;
  while (have < cap) {
    if (have == out.size()) out.resize(std::min(cap, std::max<std::size_t>(out.size() * 2, 4096)));
    ssize_t n = ::read(fd, out.data() + have, out.size() - have);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      ok = n == 0;
      break;
    }
    have += static_cast<std::size_t>(n);
  }
  ::close(fd);
  if (!ok) return fail("cannot read the file");
  if (have > limit.max_bytes) return fail(too_large(limit.max_bytes, limit, true));
  out.resize(have);
  return out;
}

std::optional<std::string> read(const fs::path& path) { return read_input(path, kAnyInput); }

std::string file_name_problem(const fs::path& path) {
  return text::find_invalid_utf8(path.filename().native()) ? kNotUtf8Name : "";
}

std::string output_problem(const fs::path& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return "";  // nothing there (or a folder we cannot look into: the write says)
  if (S_ISREG(st.st_mode) || S_ISLNK(st.st_mode)) return "";
  return std::string("is ") + kind_of(st.st_mode) + ", not a regular file; qualrank replaces only regular files (nothing written)";
}

bool exists(const fs::path& path) {
  if (active_overlay && active_overlay->find(path)) return true;
  std::error_code ec;
  return fs::exists(path, ec);
}

bool process_gone(long pid) {
  if (pid <= 0 || pid == static_cast<long>(::getpid())) return false;
  return ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH;
}

bool process_gone(std::string_view pid) {
  if (pid.empty() || pid.size() > 9 || pid.find_first_not_of("0123456789") != std::string_view::npos) return false;
  return process_gone(std::stol(std::string(pid)));
}

namespace {

// The hidden temp files (and a workbook's scratch folders) of a folder that a qualrank process killed while
// writing left behind (".NAME.PID.HEX.tmp" whose PID no longer runs) are removed before the first temp name
// there: once per folder per process, so that writing many files into one folder scans it once.
void sweep_stale_temps(const fs::path& dir) {
  static std::mutex mutex;
  static std::set<std::string> swept;
  std::lock_guard<std::mutex> lock(mutex);
  if (!swept.insert(dir.string()).second) return;
  std::error_code ec;
  for (fs::directory_iterator it(dir.empty() ? fs::path(".") : dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.size() < 8 || name[0] != '.' || name.compare(name.size() - 4, 4, ".tmp") != 0) continue;
    std::string_view rest(name.data(), name.size() - 4);           // .NAME.PID.HEX
    auto hex_dot = rest.rfind('.');
    if (hex_dot == std::string_view::npos || hex_dot == 0) continue;
    auto pid_dot = rest.rfind('.', hex_dot - 1);
    if (pid_dot == std::string_view::npos || pid_dot == 0) continue;
    auto hex = rest.substr(hex_dot + 1), pid = rest.substr(pid_dot + 1, hex_dot - pid_dot - 1);
    if (hex.empty() || hex.find_first_not_of("0123456789abcdef") != std::string_view::npos) continue;
    if (!process_gone(pid)) continue;
    std::error_code rm;
    if (it->is_symlink(rm)) continue;
    if (it->is_regular_file(rm)) fs::remove(it->path(), rm);
    else if (it->is_directory(rm)) fs::remove_all(it->path(), rm);  // a workbook's scratch folder (xlsx_book.cpp)
  }
}

fs::path temp_name_for(const fs::path& target) {
  sweep_stale_temps(target.parent_path());
  static std::random_device rd;
  std::ostringstream name;
  name << '.' << target.filename().string() << '.' << ::getpid() << '.' << std::hex << rd() << ".tmp";
  return target.parent_path() / name.str();
}

bool fsync_path(const fs::path& p) {
  int fd = ::open(p.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return false;
  bool ok = ::fsync(fd) == 0;
  ::close(fd);
  return ok;
}

}  // namespace

namespace {

// Creates `tmp` (it must not exist), writes `content` to it and fsyncs it; on failure removes it.
bool write_synced(const fs::path& tmp, std::string_view content, std::string* error) {
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) {
    if (error) *error = "cannot create " + tmp.string() + ": " + std::strerror(errno);
    return false;
  }
  const char* p = content.data();
  std::size_t left = content.size();
  while (left > 0) {
    ssize_t n = ::write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      if (error) *error = "cannot write " + tmp.string() + ": " + std::strerror(errno);
      ::close(fd);
      ::unlink(tmp.c_str());
      return false;
    }
    p += n;
    left -= static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    if (error) *error = "cannot flush " + tmp.string() + ": " + std::strerror(errno);
    ::unlink(tmp.c_str());
    return false;
  }
  return true;
}

}  // namespace

bool write_atomic(const fs::path& path, std::string_view content, std::string* error) {
  AtomicOutput out(path);
  if (!out.refused().empty()) {
    if (error) *error = path.string() + " " + out.refused();
    return false;
  }  // (its destructor removes the temp file when the rename fails)
  return write_synced(out.temp_path(), content, error) && out.commit(error, true);
}

AtomicOutput::AtomicOutput(fs::path target) : target_(std::move(target)) {
  if (auto problem = output_problem(target_); !problem.empty()) {
    refused_ = problem;
    return;  // no temp name: nothing is to be written next to it
  }
  std::error_code ec;
  if (target_.has_parent_path()) fs::create_directories(target_.parent_path(), ec);
  temp_ = temp_name_for(target_);
}

AtomicOutput::~AtomicOutput() {
  if (!committed_ && !temp_.empty()) {
    std::error_code ec;
    fs::remove(temp_, ec);
  }
}

bool AtomicOutput::commit(std::string* error, bool synced) {
  if (refused_.empty())
    refused_ = output_problem(target_);
  if (!refused_.empty()) {
    if (error) *error = target_.string() + " " + refused_;
    return false;
  }
  if (!synced) fsync_path(temp_);
  if (std::rename(temp_.c_str(), target_.c_str()) != 0) {
    if (error) *error = "cannot rename into " + target_.string() + ": " + std::strerror(errno);
    return false;
  }
  committed_ = true;
  return true;
}

bool StagedFiles::stage(const fs::path& target, std::string_view content, std::string* error) {
  auto out = std::make_unique<AtomicOutput>(target);  // creates the folder, picks a fresh temp name
  if (!out->refused().empty()) {
    if (error) *error = target.string() + " " + out->refused();
    return false;
  }
  if (!write_synced(out->temp_path(), content, error)) return false;
  staged_.push_back(std::move(out));
  return true;
}

bool StagedFiles::stage_inside(const std::string& relative, std::string_view content, std::string* error) {
  auto path = resolve_inside(workspace_, relative);
  if (!path) {
    if (error) *error = relative + " is outside the workspace";
    return false;
  }
  return stage(*path, content, error);
}

namespace {

const std::string kJournalPrefix = ".qualrank-staged.";

// `path` relative to `workspace` (both made absolute, lexically normalised), or empty when outside it.
std::string inside_relative(const fs::path& workspace, const fs::path& path) {
  std::error_code ec;
  fs::path rel = fs::absolute(path, ec).lexically_normal().lexically_relative(fs::absolute(workspace, ec).lexically_normal());
  if (ec || rel.empty() || rel.is_absolute() || *rel.begin() == "..") return {};
  return rel.generic_string();
}

// Whether `temp` names a temp file of `target` (".TARGET.PID.HEX.tmp"), in the same folder.
bool is_temp_of(const fs::path& temp, const fs::path& target) {
  if (temp.parent_path() != target.parent_path()) return false;
  const std::string t = temp.filename().string(), prefix = "." + target.filename().string() + ".";
  return t.size() > prefix.size() + 4 && t.compare(0, prefix.size(), prefix) == 0 && t.compare(t.size() - 4, 4, ".tmp") == 0;
}

}  // namespace

bool StagedFiles::commit(std::string* error) {
  fs::path journal;
  if (!workspace_.empty() && staged_.size() > 1) {
    std::string lines;
    for (const auto& out : staged_) {
      const std::string temp = inside_relative(workspace_, out->temp_path()), target = inside_relative(workspace_, out->target());
      if (temp.empty() || target.empty()) {
        if (error) *error = out->target().string() + " is outside the workspace";
        return false;
      }
      lines += temp + '\t' + target + '\n';
    }
    journal = workspace_ / (kJournalPrefix + std::to_string(::getpid()));
    if (!write_atomic(journal, lines, error)) return false;
  }
  // Fault injection for tests/cli/kill_safety.sh: QUALRANK_TEST_KILL_AFTER_RENAMES=N kills this process with
  // SIGKILL after N renames of a journaled commit, the moment a real kill would rarely hit.
  static const int kill_after = [] {
    const char* v = std::getenv("QUALRANK_TEST_KILL_AFTER_RENAMES");
    return v && *v ? std::atoi(v) : -1;
  }();
  bool ok = true;
  int renamed = 0;
  for (auto& out : staged_) {
    if (!journal.empty() && renamed == kill_after) ::raise(SIGKILL);
    if (!out->commit(error, true)) {  // (stage() fsynced it)
      ok = false;  // (the temp files not renamed are removed by their AtomicOutput; the journal goes too)
      break;
    }
    ++renamed;
  }
  if (!journal.empty()) ::unlink(journal.c_str());
  return ok;
}

int finish_staged(const fs::path& workspace, std::vector<std::string>* problems) {
  int renamed = 0;
  std::error_code ec;
  for (fs::directory_iterator it(workspace, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.compare(0, kJournalPrefix.size(), kJournalPrefix) != 0) continue;
    std::error_code st;
    if (!process_gone(std::string_view(name).substr(kJournalPrefix.size())) || !it->is_regular_file(st) || it->is_symlink(st))
      continue;
    auto text = read(it->path());
    if (!text || text->size() > (1u << 20)) continue;
    std::istringstream lines(*text);
    std::string line;
    int number = 0;
    while (std::getline(lines, line)) {
      ++number;
      auto tab = line.find('\t');
      auto temp = tab == std::string::npos ? std::nullopt : resolve_inside(workspace, line.substr(0, tab));
      auto target = tab == std::string::npos ? std::nullopt : resolve_inside(workspace, line.substr(tab + 1));
      if (!temp || !target || !is_temp_of(*temp, *target)) {
        if (problems) problems->push_back(name + ":" + std::to_string(number) + ": not a temp file and its target in the workspace; skipped");
        continue;
      }
      std::error_code exists;
      if (!fs::is_regular_file(fs::symlink_status(*temp, exists))) continue;  // renamed before the kill
      if (std::rename(temp->c_str(), target->c_str()) != 0) {
        if (problems) problems->push_back(name + ":" + std::to_string(number) + ": cannot rename into " + target->string() + ": " + std::strerror(errno));
        continue;
      }
      ++renamed;
    }
    fs::remove(it->path(), st);
  }
  return renamed;
}

FileLock::FileLock(const fs::path& path) {
  // Never through a symlink (a lock file that is one is refused, nothing is created where it points).
  fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd_ < 0) return;
  struct stat st {};
  if (::fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd_);
    fd_ = -1;
    return;
  }
  while (::flock(fd_, LOCK_EX) != 0) {
    if (errno != EINTR) {
      ::close(fd_);
      fd_ = -1;
      return;
    }
  }
}

FileLock::~FileLock() {
  if (fd_ >= 0) {
    ::flock(fd_, LOCK_UN);
    ::close(fd_);
  }
}

std::optional<fs::path> resolved_inside(const fs::path& workspace, const fs::path& path) {
  // weakly_canonical resolves every symlink along the part of the path that exists (and normalises the rest),
  // so "reports -> /elsewhere" or "escape -> /etc" leads where the operating system would go.
  std::error_code ec;
  fs::path root = fs::weakly_canonical(workspace, ec);
  if (ec) return std::nullopt;
  fs::path real = fs::weakly_canonical(path.is_absolute() ? path : workspace / path, ec);
  if (ec) return std::nullopt;
  auto r = real.begin();
  for (auto w = root.begin(); w != root.end(); ++w, ++r) {
    if (w->empty()) continue;  // a trailing separator
    if (r == real.end() || *r != *w) return std::nullopt;
  }
  return real;
}

std::optional<fs::path> resolve_inside(const fs::path& workspace, std::string_view relative) {
  fs::path rel(relative);
  if (relative.empty() || rel.is_absolute() || rel.has_root_name()) return std::nullopt;
  fs::path norm = rel.lexically_normal();
  if (norm.empty() || *norm.begin() == "..") return std::nullopt;
  for (const auto& part : norm)
    if (part == "..") return std::nullopt;
  if (!resolved_inside(workspace, norm)) return std::nullopt;
  return workspace / norm;
}

std::optional<std::string> read_inside(const fs::path& workspace, const fs::path& path, std::string* why,
                                       const InputLimit& limit) {
  const fs::path full = path.is_relative() ? workspace / path : path;
  // A planned file (ReadOverlay) is not on the disk yet, and is inside by construction.
  if (!(active_overlay && active_overlay->find(full)) && !resolved_inside(workspace, full)) {
    if (why) *why = kOutsideMessage;
    return std::nullopt;
  }
  return read_input(full, limit, why);
}

InputBytes& InputBytes::operator=(InputBytes&& o) noexcept {
  if (this != &o) {
    if (map_) ::munmap(map_, size_);
    map_ = std::exchange(o.map_, nullptr);
    size_ = std::exchange(o.size_, 0);
    copy_ = std::move(o.copy_);
    id_ = o.id_;
  }
  return *this;
}

InputBytes::~InputBytes() {
  if (map_) ::munmap(map_, size_);
}

std::optional<InputBytes> read_inside_mapped(const fs::path& workspace, const fs::path& path, std::string* why,
                                             const InputLimit& limit) {
  const fs::path full = path.is_relative() ? workspace / path : path;
  InputBytes out;
  auto copied = [&]() -> std::optional<InputBytes> {
    auto text = read_inside(workspace, path, why, limit);
    if (!text) return std::nullopt;
    out.copy_ = std::move(*text);
    return std::move(out);
  };
  if (active_overlay && active_overlay->find(full)) return copied();
  if (!resolved_inside(workspace, full)) {
    if (why) *why = kOutsideMessage;
    return std::nullopt;
  }
  const int fd = open_input(full, limit, why);
  if (fd < 0) return std::nullopt;
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    ::close(fd);
    if (why) *why = "cannot read the file";
    return std::nullopt;
  }
  out.id_ = {static_cast<std::uint64_t>(st.st_dev), static_cast<std::uint64_t>(st.st_ino), static_cast<std::uint64_t>(st.st_size),
             static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec,
             static_cast<std::int64_t>(st.st_ctim.tv_sec) * 1000000000 + st.st_ctim.tv_nsec, true};
  const auto size = static_cast<std::size_t>(st.st_size);
  if (size >= InputBytes::kMapAtLeast) {
    void* p = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
    if (p != MAP_FAILED) {
      ::close(fd);
      out.map_ = p;
      out.size_ = size;
      return out;
    }
  }
  ::close(fd);
  const FileIdentity id = out.id_;
  auto r = copied();  // (a small file, or one that cannot be mapped: read as read_inside reads it)
  if (r) r->id_ = id;
  return r;
}

std::string display_path(const fs::path& path, const fs::path& base) {
  std::error_code ec;
  auto rel = fs::relative(path, base, ec);
  if (ec || rel.empty() || *rel.begin() == "..") return path.generic_string();
  return rel.generic_string();
}

std::vector<fs::path> list_files(const fs::path& dir, std::string_view suffix) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {  // no entries when `dir` is not a folder
    // Every entry but a folder: a FIFO, a device or a dangling symlink named like an input is listed, so that
    // reading it says what it is (read_input) rather than the file silently not being there.
    std::error_code type;
    if (entry.is_directory(type)) continue;
    auto name = entry.path().filename().string();
    if (name.size() >= suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0 &&
        name[0] != '.')
      out.push_back(entry.path());
  }
  if (active_overlay)
    for (auto& p : active_overlay->list(dir, suffix))
      if (std::find(out.begin(), out.end(), p) == out.end()) out.push_back(std::move(p));
  std::sort(out.begin(), out.end());
  return out;
}

namespace {
fs::path overlay_key(const fs::path& path) {
  std::error_code ec;
  fs::path abs = fs::absolute(path, ec);
  return (ec ? path : abs).lexically_normal();
}
}  // namespace

ReadOverlay::ReadOverlay(const fs::path& root, const std::map<std::string, std::string>& planned) {
  if (active_overlay) throw std::logic_error("files::ReadOverlay: one is active already");
  for (const auto& [rel, content] : planned) files_[overlay_key(root / rel)] = &content;
  active_overlay = this;
}

ReadOverlay::~ReadOverlay() { active_overlay = nullptr; }

const std::string* ReadOverlay::find(const fs::path& path) const {
  auto it = files_.find(overlay_key(path));
  return it == files_.end() ? nullptr : it->second;
}

std::vector<fs::path> ReadOverlay::list(const fs::path& dir, std::string_view suffix) const {
  std::vector<fs::path> out;
  const fs::path folder = overlay_key(dir);
  for (const auto& [path, content] : files_) {
    const std::string name = path.filename().string();
    if (path.parent_path() != folder || name.empty() || name[0] == '.' || name.size() < suffix.size() ||
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0)
      continue;
    out.push_back(dir / name);  // spelled as the caller spelled the folder, as the disk's entries are
  }
  return out;
}

long long source_date_epoch(long long fallback) {
  return source_date_epoch_problem().empty() && std::getenv("SOURCE_DATE_EPOCH") && *std::getenv("SOURCE_DATE_EPOCH")
             ? std::strtoll(std::getenv("SOURCE_DATE_EPOCH"), nullptr, 10)
             : fallback;
}

std::string today_utc() {
  const auto now = static_cast<std::time_t>(source_date_epoch(static_cast<long long>(std::time(nullptr))));
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[16];
  std::strftime(buf, sizeof buf, "%Y-%m-%d", &tm);
  return buf;
}

std::string source_date_epoch_problem() {
  const char* v = std::getenv("SOURCE_DATE_EPOCH");
  if (!v || !*v) return "";
  errno = 0;
  char* end = nullptr;
  long long t = std::strtoll(v, &end, 10);
  if (*end != '\0' || errno == ERANGE || t < 0 || t > kMaxSourceDateEpoch) {
    std::string shown(v);
    if (shown.size() > 40) shown = shown.substr(0, 37) + "...";
    for (auto& c : shown)
      if (static_cast<unsigned char>(c) < 0x20) c = '?';
    return "SOURCE_DATE_EPOCH '" + shown + "' is not a whole number of seconds from 0 to " +
           std::to_string(kMaxSourceDateEpoch) + " (9999-12-31T23:59:59Z)";
  }
  return "";
}

}  // namespace qualrank::files
