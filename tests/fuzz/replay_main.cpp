// Replays inputs through a fuzz target without libFuzzer: qualrank_fuzz_replay TARGET FILE|DIR...
// Every regular file (directories: their files, sorted) is run once; prints how many. A crash aborts the run
// (ctest reports it with the file being replayed, printed first). `--list` prints the targets.
// QUALRANK_REPLAY_MAX_CPU_MS: fail when one input takes longer (CPU time); QUALRANK_REPLAY_MAX_RSS_MB: fail when
// the process's peak resident memory ends up above it.
#include <sys/resource.h>

#include <algorithm>
#include <cstdlib>
#include <ctime>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "fuzz_target.h"
#include "qualrank/util/files.h"

namespace qualrank::fuzz {

static std::map<std::string, TargetFn>& registry() {
  static std::map<std::string, TargetFn> r;
  return r;
}

bool register_target(const char* name, TargetFn fn) {
  registry()[name] = fn;
  return true;
}

}  // namespace qualrank::fuzz

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  auto& targets = qualrank::fuzz::registry();
  if (argc >= 2 && std::strcmp(argv[1], "--list") == 0) {
    for (const auto& [name, fn] : targets) std::cout << name << "\n";
    return 0;
  }
  if (argc < 3) {
    std::cerr << "usage: qualrank_fuzz_replay TARGET FILE|DIR...  (or --list)\n";
    return 2;
  }
  auto it = targets.find(argv[1]);
  if (it == targets.end()) {
    std::cerr << "unknown fuzz target '" << argv[1] << "' (--list shows them)\n";
    return 2;
  }
  std::vector<fs::path> inputs;
  for (int i = 2; i < argc; ++i) {
    fs::path p = argv[i];
    if (fs::is_directory(p)) {
      std::vector<fs::path> found;
      for (const auto& e : fs::recursive_directory_iterator(p))
        if (e.is_regular_file()) found.push_back(e.path());
      std::sort(found.begin(), found.end());
      inputs.insert(inputs.end(), found.begin(), found.end());
    } else if (fs::is_regular_file(p)) {
      inputs.push_back(p);
    } else {
      std::cerr << "no such file or directory: " << p.string() << "\n";
      return 2;
    }
  }
  auto env_limit = [](const char* name) -> long {
    const char* v = std::getenv(name);
    return v && *v ? std::atol(v) : 0;
  };
  const long max_cpu_ms = env_limit("QUALRANK_REPLAY_MAX_CPU_MS");
  const long max_rss_mb = env_limit("QUALRANK_REPLAY_MAX_RSS_MB");
  int failures = 0;
  for (const auto& p : inputs) {
    auto bytes = qualrank::files::read(p);
    if (!bytes) {
      std::cerr << "cannot read " << p.string() << "\n";
      return 2;
    }
    std::cerr << "replaying " << p.string() << " (" << bytes->size() << " bytes)\n";
    std::clock_t start = std::clock();
    it->second(reinterpret_cast<const std::uint8_t*>(bytes->data()), bytes->size());
    long ms = static_cast<long>((std::clock() - start) * 1000.0 / CLOCKS_PER_SEC);
    if (max_cpu_ms > 0 && ms > max_cpu_ms) {
      std::cerr << "TOO SLOW: " << p.string() << " took " << ms << " ms of CPU (limit " << max_cpu_ms << ")\n";
      ++failures;
    }
    bytes.reset();
  }
  struct rusage usage {};
  getrusage(RUSAGE_SELF, &usage);
  long peak_mb = usage.ru_maxrss / 1024;
  std::cout << argv[1] << ": " << inputs.size() << " inputs replayed, peak " << peak_mb << " MiB\n";
  if (max_rss_mb > 0 && peak_mb > max_rss_mb) {
    std::cerr << "TOO MUCH MEMORY: peak " << peak_mb << " MiB (limit " << max_rss_mb << ")\n";
    ++failures;
  }
  return failures ? 1 : 0;
}
