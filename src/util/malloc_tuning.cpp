#include "qualrank/util/malloc_tuning.h"

#include <unistd.h>

#include <cstdlib>
#include <cstring>

namespace qualrank {

namespace {
constexpr const char* kTunables = "glibc.malloc.hugetlb=1:glibc.malloc.top_pad=67108864";
constexpr const char* kMarker = "QUALRANK_MALLOC_TUNED";
}  // namespace

void tune_malloc_and_reexec(char** argv) {
#if defined(__GLIBC__) && defined(__linux__)
  const char* marker = std::getenv(kMarker);
  const char* tunables = std::getenv("GLIBC_TUNABLES");
  if (marker) {
    // The run this function started: take both variables away again (a user's own marker stays).
    if (std::strcmp(marker, "1") == 0 && tunables && std::strcmp(tunables, kTunables) == 0) {
      ::unsetenv("GLIBC_TUNABLES");
      ::unsetenv(kMarker);
    }
    return;
  }
  if ((tunables && *tunables) || !argv || !argv[0]) return;  // (set but empty: as if not set)
  // The program's own file, by its name (exec of /proc/self/exe itself would rename the process "exe" in ps).
  char self[4096];
  const ssize_t len = ::readlink("/proc/self/exe", self, sizeof self - 1);
  if (len <= 0 || static_cast<std::size_t>(len) >= sizeof self - 1) return;
  self[len] = '\0';
  if (::setenv("GLIBC_TUNABLES", kTunables, 1) != 0 || ::setenv(kMarker, "1", 1) != 0) return;
  ::execv(self, argv);
  ::unsetenv("GLIBC_TUNABLES");  // the exec failed: run as we are
  ::unsetenv(kMarker);
#else
  (void)argv;
#endif
}

}  // namespace qualrank
