// Splits [0, n) into chunks and runs them on parallel_threads() threads.
// The host side of a trial (random fill, f64 conversion, comparison)
// touches every element of tensors of up to a few GB; one core would make
// it the slowest part. Host references and host variants may use it too: a
// serial f64 reference over a few hundred million elements is what a
// correctness test otherwise waits for (docs/getting-started.md).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace kopt {

namespace detail {
inline std::atomic<unsigned>& parallel_thread_limit() {
  static std::atomic<unsigned> limit{0};  // 0: every core
  return limit;
}
}  // namespace detail

// How many threads this process's host work may use: the limit set with
// set_parallel_threads (a generated correctness test run by CTest gets
// --kopt_threads=KernelOpt_REFERENCE_THREADS, and CTest counts that many
// processors for it), at most the cores; every core when no limit is set.
// NOTE: a reference or host variant with threads of its own (std::thread,
// OpenMP) should start no more than this; CTest also sets OMP_NUM_THREADS.
[[nodiscard]] inline unsigned parallel_threads() {
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  const unsigned limit = detail::parallel_thread_limit().load(std::memory_order_relaxed);
  return limit == 0 ? cores : std::min(limit, cores);
}

// REQUIRES: no parallel_chunks call is running. 0 lifts the limit.
inline void set_parallel_threads(unsigned threads) {
  detail::parallel_thread_limit().store(threads, std::memory_order_relaxed);
}

// Calls body(chunk_index, begin, end) for consecutive chunks of `chunk`
// elements (the last may be shorter). Chunk boundaries do not depend on the
// number of threads, so results built per chunk are deterministic.
template <typename Body>
void parallel_chunks(std::size_t n, std::size_t chunk, Body&& body) {
  const std::size_t chunks = (n + chunk - 1) / chunk;
  const std::size_t workers =
      std::min<std::size_t>(chunks, parallel_threads());
  if (workers <= 1) {
    for (std::size_t c = 0; c < chunks; ++c) body(c, c * chunk, std::min(n, (c + 1) * chunk));
    return;
  }
  std::exception_ptr failure;
  std::mutex failure_mutex;
  std::vector<std::thread> threads;
  threads.reserve(workers);
  for (std::size_t w = 0; w < workers; ++w) {
    threads.emplace_back([&, w] {
      try {
        for (std::size_t c = w; c < chunks; c += workers) body(c, c * chunk, std::min(n, (c + 1) * chunk));
      } catch (...) {
        const std::lock_guard<std::mutex> lock(failure_mutex);
        if (!failure) failure = std::current_exception();
      }
    });
  }
  for (std::thread& t : threads) t.join();
  if (failure) std::rethrow_exception(failure);
}

inline constexpr std::size_t k_parallel_chunk = std::size_t{1} << 18;

}  // namespace kopt
