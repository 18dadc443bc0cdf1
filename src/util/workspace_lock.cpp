#include "qualrank/util/workspace_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <map>
#include <mutex>

#include "qualrank/util/files.h"

namespace qualrank::files {

namespace {

struct Held {
  int fd = -1;
  int count = 0;
};

std::mutex& held_mutex() {
  static std::mutex m;
  return m;
}
std::map<std::string, Held>& held_locks() {
  static std::map<std::string, Held> m;
  return m;
}

}  // namespace

WorkspaceLock::WorkspaceLock(const fs::path& workspace) {
  std::error_code ec;
  fs::path root = fs::weakly_canonical(workspace, ec);
  if (ec) root = fs::absolute(workspace);
  const fs::path path = root / std::string(kWorkspaceLockName);
  key_ = path.string();
  std::lock_guard<std::mutex> guard(held_mutex());
  auto& held = held_locks()[key_];
  if (held.count > 0) {
    ++held.count;
    held_ = true;
    return;
  }
  int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) {
    why_ = errno == ELOOP ? std::string(kWorkspaceLockName) + " is a symlink; remove it (qualrank never follows it)"
                          : "cannot open " + std::string(kWorkspaceLockName) + ": " + std::strerror(errno);
    held_locks().erase(key_);
    return;
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    why_ = std::string(kWorkspaceLockName) + " is not a regular file; remove it";
    held_locks().erase(key_);
    return;
  }
  while (::flock(fd, LOCK_EX) != 0) {
    if (errno != EINTR) {
      why_ = "cannot lock " + std::string(kWorkspaceLockName) + ": " + std::strerror(errno);
      ::close(fd);
      held_locks().erase(key_);
      return;
    }
  }
  held.fd = fd;
  held.count = 1;
  held_ = true;
}

WorkspaceLock::~WorkspaceLock() {
  if (!held_) return;
  std::lock_guard<std::mutex> guard(held_mutex());
  auto it = held_locks().find(key_);
  if (it == held_locks().end()) return;
  if (--it->second.count == 0) {
    ::flock(it->second.fd, LOCK_UN);
    ::close(it->second.fd);
    held_locks().erase(it);
  }
}

bool still_as_read(const fs::path& path, std::string_view expected) {
  std::error_code ec;
  auto st = fs::symlink_status(path, ec);
  if (st.type() == fs::file_type::not_found) return expected.empty();
  if (ec) return false;
  auto now = read(path);
  return now && *now == expected;
}

}  // namespace qualrank::files
