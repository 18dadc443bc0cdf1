// parallel_for: a shared atomic counter hands out indexes; helper threads and the calling thread take the
// next one until none is left. A thread that cannot be started leaves its share to the others.
#include "qualrank/util/parallel.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

namespace qualrank {

std::size_t worker_threads() {
  if (const char* env = std::getenv("QUALRANK_THREADS")) {
    try {
      long n = std::stol(env);
      if (n >= 1) return static_cast<std::size_t>(std::min(n, 256L));
    } catch (...) {
    }
  }
  return std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, 16);
}

void parallel_for(std::size_t n, const std::function<void(std::size_t)>& body) {
  std::atomic<std::size_t> next{0};
  std::exception_ptr failure;
  std::mutex failure_mutex;
  auto run = [&] {
    for (std::size_t i; (i = next.fetch_add(1)) < n;) {
      try {
        body(i);
      } catch (...) {
        std::lock_guard<std::mutex> lock(failure_mutex);
        if (!failure) failure = std::current_exception();
        next = n;  // stop handing out work
      }
    }
  };
  std::vector<std::thread> helpers;
  const std::size_t workers = std::min(worker_threads(), n);
  for (std::size_t w = 1; w < workers; ++w) {
    try {
      helpers.emplace_back(run);
    } catch (const std::system_error&) {
      break;
    }
  }
  run();
  for (auto& h : helpers) h.join();
  if (failure) std::rethrow_exception(failure);
}

}  // namespace qualrank
