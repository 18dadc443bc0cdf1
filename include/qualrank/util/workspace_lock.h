// No lost update: the workspace's write lock, and the check that a file is still what was read.
// Every qualrank command that writes a transcript or a `.codes` file holds the lock from the moment it reads
// those files until they are written (`qualrank annotate` while it saves), and writes only when each file is
// still byte for byte what it read; otherwise it refuses ("changed on disk since read") and writes nothing.
// Programs that do not know the lock (an editor, sed) are caught by the check.
#pragma once
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace qualrank::files {

namespace fs = std::filesystem;

// The lock file at the workspace root.
inline constexpr std::string_view kWorkspaceLockName = ".qualrank.lock";

// An exclusive advisory lock (flock) on `workspace/.qualrank.lock`, waiting for it while another process holds
// it, released by the destructor. Re-entrant in one process: a second WorkspaceLock on the same workspace while
// the first is held shares it (flock would deadlock on a second descriptor). The lock file is created with
// O_NOFOLLOW: when it is a symlink (or not a regular file) nothing is created or followed, locked() is false
// and why() says so.
class WorkspaceLock {
 public:
  explicit WorkspaceLock(const fs::path& workspace);
  ~WorkspaceLock();
  WorkspaceLock(const WorkspaceLock&) = delete;
  WorkspaceLock& operator=(const WorkspaceLock&) = delete;
  bool locked() const { return held_; }
  const std::string& why() const { return why_; }

 private:
  std::string key_;
  bool held_ = false;
  std::string why_;
};

// True when the file at `path` holds exactly `expected`; a missing file counts as holding "" (a `.codes` file
// that does not exist yet, or was removed because it became empty). False when it cannot be read.
bool still_as_read(const fs::path& path, std::string_view expected);

}  // namespace qualrank::files
