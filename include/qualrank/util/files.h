// File helpers: whole-file reads, atomic writes (temp file + rename), advisory locks,
// and paths that must stay inside the workspace.
#pragma once
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace qualrank::files {

namespace fs = std::filesystem;

// One kind of input: the most bytes qualrank reads of one such file, and its name in the refusal. The limits
// are listed in README, "Safety and limits", and docs/formats.md, "Limits".
struct InputLimit {
  std::uint64_t max_bytes;
  const char* what;
};
inline constexpr InputLimit kYamlInput{4u << 20, "a YAML file"};  // = yaml::kMaxBytes
inline constexpr InputLimit kTranscriptInput{64u << 20, "a transcript"};
inline constexpr InputLimit kCodesInput{64u << 20, "a .codes file"};
inline constexpr InputLimit kTableInput{64u << 20, "a table"};  // label, ranking and codebook tables (CSV)
inline constexpr InputLimit kListInput{4u << 20, "a list"};     // --names, --periods
inline constexpr InputLimit kArchiveInput{256u << 20, "an archive"};  // .qdpx, .docx, .xlsx, .qdc
inline constexpr InputLimit kAnyInput{256u << 20, "an input file"};  // anything else (a package's files)

// Whether read_input may follow a symlink at the file itself: the workspace forbids one for the history.
enum class Links { follow, refuse };

// The one read policy (README, "Safety and limits"): opens `path` without blocking (O_NONBLOCK; with
// Links::refuse also O_NOFOLLOW), fstat()s the descriptor and reads only a regular file of at most
// limit.max_bytes, checked before reading; at most max_bytes + 1 bytes are read (a file growing meanwhile is
// refused too). Returns nullopt with `why` set to what to print after "FILE: error: ":
//   "not a regular file (a FIFO); qualrank reads only regular files" (a FIFO, a character device, a block
//     device, a socket, a directory),
//   "is a symbolic link to a missing file", "is a symbolic link; qualrank does not read this file through one
//     (replace it by the file)" (Links::refuse),
//   "the file is N bytes; the limit for WHAT is M MiB; not read", or "cannot read the file" (no such file, no
//     permission, a read error).
// While a ReadOverlay lives, a file it holds is read from memory.
std::optional<std::string> read_input(const fs::path& path, const InputLimit& limit, std::string* why = nullptr,
                                      Links links = Links::follow);
// The first half of read_input, for readers that take a descriptor (libzip): a descriptor of `path`, open for
// blocking reads, when it is a regular file within the limit; -1 with `why` set (read_input's reasons)
// otherwise. The caller closes it.
int open_input(const fs::path& path, const InputLimit& limit, std::string* why = nullptr, Links links = Links::follow);
// read_input(path, kAnyInput) without the reason.
std::optional<std::string> read(const fs::path& path);
// Why `path`'s file name is refused ("file name is not valid UTF-8; rename it"), or "" when it is fine. The
// name is shown with text::escape_invalid_utf8 by whoever reports it.
std::string file_name_problem(const fs::path& path);
inline constexpr const char* kNotUtf8Name = "file name is not valid UTF-8; rename it";

// The one write policy: what is at `path` may be replaced by an output only when it is a regular file, a
// symlink (renamed over, never written through) or nothing. Returns "" then, else what to print after the
// path: "is a character device, not a regular file; qualrank replaces only regular files (nothing written)"
// (a FIFO, a device, a socket, a directory). write_atomic, StagedFiles::stage and AtomicOutput::commit refuse
// such a target; commands check their output paths with it before they write anything.
std::string output_problem(const fs::path& path);
// Whether something is at `path` (std::filesystem::exists, errors as false), or a ReadOverlay holds it.
bool exists(const fs::path& path);

// While one lives, read() and list_files() see `planned` (workspace-relative path -> content) laid over the
// files under `root`: a planned file is read from memory, and listed in its folder whether or not the disk has
// it. Nothing is written anywhere. What checks a write of several files before it is made
// (analysis/planned_workspace.h), without a copy of the workspace. One at a time (a second throws
// std::logic_error); make and destroy it while no other thread reads files. `planned` must outlive it.
class ReadOverlay {
 public:
  ReadOverlay(const fs::path& root, const std::map<std::string, std::string>& planned);
  ~ReadOverlay();
  ReadOverlay(const ReadOverlay&) = delete;
  ReadOverlay& operator=(const ReadOverlay&) = delete;
  // The planned content of `path` (any spelling of it that names the same place lexically), or nullptr.
  const std::string* find(const fs::path& path) const;
  // The planned files directly in `dir` whose name ends with `suffix` (not starting with '.').
  std::vector<fs::path> list(const fs::path& dir, std::string_view suffix) const;

 private:
  std::map<fs::path, const std::string*> files_;  // absolute, lexically normal path -> content
};

// True when no process `pid` runs any more (kill(pid, 0) fails with ESRCH): what leaves a file that process
// owned (a temp file, a scratch folder) free to remove. Never true for this process itself.
bool process_gone(long pid);
// The same for a PID written in a name (1 to 9 decimal digits); false for anything else.
bool process_gone(std::string_view pid);

// Writes `content` to `path` atomically: a temp file in the same folder, flushed and fsynced, then renamed
// over `path`. A target that output_problem() refuses is left alone (`error`: "PATH " + its reason). On failure the old file (if any) is untouched, the temp file removed, and false returned
// with `error` set. Temp files are ".NAME.PID.HEX.tmp"; those of a process that no longer runs (killed while
// writing) are removed from a folder before the first temp file in it (every writer below does the same).
bool write_atomic(const fs::path& path, std::string_view content, std::string* error = nullptr);

// For writers that produce a file themselves (libxlsxwriter, libzip): gives a temp path next to the target;
// commit() renames it into place, the destructor removes it when commit() was not called.
class AtomicOutput {
 public:
  explicit AtomicOutput(fs::path target);
  ~AtomicOutput();
  AtomicOutput(const AtomicOutput&) = delete;
  AtomicOutput& operator=(const AtomicOutput&) = delete;
  const fs::path& temp_path() const { return temp_; }
  const fs::path& target() const { return target_; }
  // output_problem(target) when the target may not be replaced (then no folder was created, temp_path() is
  // empty and commit() fails with "TARGET " + it): a writer checks it before it writes. "" otherwise.
  const std::string& refused() const { return refused_; }
  // Renames the temp file into place, after an fsync of it unless `synced` (its writer fsynced it already).
  // Refuses (false, nothing renamed) a target output_problem() refuses.
  bool commit(std::string* error = nullptr, bool synced = false);

 private:
  fs::path target_;
  fs::path temp_;
  std::string refused_;
  bool committed_ = false;
};

// Several files written as one change: stage() writes each content to a temp file next to its target and
// fsyncs it; commit() then renames them into place in the order staged. A failure while staging (a full
// disk, a folder that cannot be written) changes no target, and the destructor removes every temp file not
// renamed. With a `workspace`, commit() first writes a journal there (".qualrank-staged.PID": one line
// "TEMP<TAB>TARGET" per file, workspace-relative) and removes it after the renames, so that a kill during the
// renames is finished by the next qualrank command (finish_staged): the targets change all together or not
// at all. Targets must then lie inside the workspace.
class StagedFiles {
 public:
  explicit StagedFiles(fs::path workspace = {}) : workspace_(std::move(workspace)) {}
  bool stage(const fs::path& target, std::string_view content, std::string* error = nullptr);
  // stage() of the workspace-relative path `relative` (resolve_inside: "REL is outside the workspace" else).
  bool stage_inside(const std::string& relative, std::string_view content, std::string* error = nullptr);
  bool commit(std::string* error = nullptr);

 private:
  fs::path workspace_;
  std::vector<std::unique_ptr<AtomicOutput>> staged_;
};

// Finishes the commits of StagedFiles that were killed during their renames: every journal
// ".qualrank-staged.PID" in `workspace` whose process no longer runs has its temp files that still exist
// renamed over their targets, then is removed. A journal line is followed only when both paths stay inside
// the workspace, lie in one folder, and the temp's name is that of a temp file of the target
// (".TARGET.PID.HEX.tmp"); other lines are skipped. Returns the number of files renamed into place; `problems`
// gets one line for each journal line skipped or rename that failed.
int finish_staged(const fs::path& workspace, std::vector<std::string>* problems = nullptr);

// Removes a folder this process made (a staging or scratch folder), quietly, when it goes out of scope; an
// empty path removes nothing.
struct RemoveTreeOnExit {
  fs::path dir;
  RemoveTreeOnExit() = default;
  explicit RemoveTreeOnExit(fs::path d) : dir(std::move(d)) {}
  RemoveTreeOnExit(const RemoveTreeOnExit&) = delete;
  RemoveTreeOnExit& operator=(const RemoveTreeOnExit&) = delete;
  ~RemoveTreeOnExit() {
    std::error_code ec;
    if (!dir.empty()) fs::remove_all(dir, ec);
  }
};

// An exclusive advisory lock (flock) on `path` (created if missing), released by the destructor.
class FileLock {
 public:
  explicit FileLock(const fs::path& path);
  ~FileLock();
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;
  bool locked() const { return fd_ >= 0; }

 private:
  int fd_ = -1;
};

// Resolves `relative` (a path written in an input file, or a default output location) against `workspace`.
// Returns nullopt when it is absolute, points outside the workspace after normalisation ("../x", "a/../../x"),
// or leads outside it through a symlink (resolved_inside). Returns `workspace / normalised`, not the target.
std::optional<fs::path> resolve_inside(const fs::path& workspace, std::string_view relative);

// `path` (relative paths taken from `workspace`) with every symlink of its existing part resolved
// (std::filesystem::weakly_canonical), when that lies inside the workspace, itself resolved the same way;
// nullopt when it leads outside (or cannot be resolved). The one symlink-aware containment check.
std::optional<fs::path> resolved_inside(const fs::path& workspace, const fs::path& path);

// The read of a file that the workspace names (a transcript's .codes, a guideline, a file an import would
// replace): `path` (relative paths taken from `workspace`) is read only when it stays inside the workspace
// once its symlinks are followed (resolved_inside), and then by read_input(path, limit). nullopt otherwise,
// with `why` set to "leads outside the workspace through a symlink; not read" (kOutsideMessage), or to
// read_input's reason ("cannot read the file" for a missing file). The policy in README, "Safety and limits".
std::optional<std::string> read_inside(const fs::path& workspace, const fs::path& path, std::string* why = nullptr,
                                       const InputLimit& limit = kAnyInput);
inline constexpr const char* kOutsideMessage = "leads outside the workspace through a symlink; not read";

// `path` relative to `base` as a generic string when it lies below it, else `path` as given.
std::string display_path(const fs::path& path, const fs::path& base);

// Lists the entries directly in `dir` whose name ends with `suffix` (not starting with '.'), sorted by name:
// every entry but a folder (or a symlink to one), so that a FIFO, a device or a dangling symlink named like an
// input is read and refused by read_input, not skipped in silence. Empty if no dir.
// While a ReadOverlay lives, its files in `dir` are listed too.
std::vector<fs::path> list_files(const fs::path& dir, std::string_view suffix);

// Seconds since the epoch to stamp outputs with: SOURCE_DATE_EPOCH when set and valid, else `fallback`.
long long source_date_epoch(long long fallback);
// Today's UTC date as YYYY-MM-DD: of SOURCE_DATE_EPOCH when set, else of the clock (an entry's, a decision's,
// an import's default date).
std::string today_utc();
// The latest SOURCE_DATE_EPOCH accepted: 9999-12-31T23:59:59Z (what a workbook's date can hold).
inline constexpr long long kMaxSourceDateEpoch = 253402300799LL;
// Why SOURCE_DATE_EPOCH (when set) is not accepted (not a whole number, negative, past kMaxSourceDateEpoch);
// "" when it is unset or fine. `qualrank` refuses to run (exit 2) with this message rather than use another time.
std::string source_date_epoch_problem();

}  // namespace qualrank::files
