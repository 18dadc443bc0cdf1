// File helpers: whole-file reads, atomic writes (temp file + rename), advisory locks,
// and paths that must stay inside the workspace.
#pragma once
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace qualrank::files {

namespace fs = std::filesystem;

// Reads a whole file. Returns nullopt if it cannot be opened. While a ReadOverlay lives, a file it holds is
// read from memory.
std::optional<std::string> read(const fs::path& path);
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
// over `path`. On failure the old file (if any) is untouched, the temp file removed, and false returned
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
  // Renames the temp file into place, after an fsync of it unless `synced` (its writer fsynced it already).
  bool commit(std::string* error = nullptr, bool synced = false);

 private:
  fs::path target_;
  fs::path temp_;
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
// once its symlinks are followed (resolved_inside). nullopt otherwise, with `why` set to "leads outside the
// workspace through a symlink; not read" (kOutsideMessage), or "cannot read the file" when it is inside but
// cannot be read (a missing file included). The policy in README, "Safety and limits".
std::optional<std::string> read_inside(const fs::path& workspace, const fs::path& path, std::string* why = nullptr);
inline constexpr const char* kOutsideMessage = "leads outside the workspace through a symlink; not read";

// `path` relative to `base` as a generic string when it lies below it, else `path` as given.
std::string display_path(const fs::path& path, const fs::path& base);

// Lists regular files directly in `dir` whose name ends with `suffix`, sorted by name. Empty if no dir.
// While a ReadOverlay lives, its files in `dir` are listed too.
std::vector<fs::path> list_files(const fs::path& dir, std::string_view suffix);

// Seconds since the epoch to stamp outputs with: SOURCE_DATE_EPOCH when set and valid, else `fallback`.
long long source_date_epoch(long long fallback);
// The latest SOURCE_DATE_EPOCH accepted: 9999-12-31T23:59:59Z (what a workbook's date can hold).
inline constexpr long long kMaxSourceDateEpoch = 253402300799LL;
// Why SOURCE_DATE_EPOCH (when set) is not accepted (not a whole number, negative, past kMaxSourceDateEpoch);
// "" when it is unset or fine. `qualrank` refuses to run (exit 2) with this message rather than use another time.
std::string source_date_epoch_problem();

}  // namespace qualrank::files
