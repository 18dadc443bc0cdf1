// Running independent pieces of work on several threads. Results are written by index, so what a caller
// builds from them does not depend on how the work was scheduled: same inputs, same bytes.
#pragma once
#include <cstddef>
#include <functional>

namespace qualrank {

// Threads parallel_for uses: the hardware's, at least 1 and at most 16; QUALRANK_THREADS=N overrides (1 = no
// helper threads, for comparisons and debugging).
std::size_t worker_threads();

// Calls body(i) for every i in [0, n), each exactly once, on up to worker_threads() threads (the calling
// thread among them), and returns when all calls have returned. `body` must be safe to call concurrently for
// different i. The first exception a call throws is rethrown here after every thread has stopped.
void parallel_for(std::size_t n, const std::function<void(std::size_t)>& body);

}  // namespace qualrank
