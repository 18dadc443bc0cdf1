// Burying (contract in bury.h).
#include "qualrank/util/bury.h"

#include <atomic>
#include <mutex>
#include <vector>

namespace qualrank {

namespace {
std::atomic<bool> enabled{false};
}  // namespace

void enable_burial(bool on) { enabled.store(on, std::memory_order_relaxed); }

bool burial_enabled() { return enabled.load(std::memory_order_relaxed); }

void detail::keep_forever(std::shared_ptr<void> object) {
  static std::mutex lock;
  // Never destroyed (a static vector would free everything again at exit), yet reachable from this pointer.
  static auto* graveyard = new std::vector<std::shared_ptr<void>>();
  std::lock_guard<std::mutex> hold(lock);
  graveyard->push_back(std::move(object));
}

}  // namespace qualrank
