#include "cuda/timer.hpp"

#include <algorithm>
#include <atomic>
#include <string>

#include "cuda/cuda_backend.hpp"
#include "cuda/bench_kernels.hpp"

namespace kopt::cuda {
namespace {

constexpr std::size_t k_min_flush_bytes = std::size_t{1} << 20;  // when a device reports no L2

std::uint64_t timeout_ns() { return static_cast<std::uint64_t>(event_timer::k_block_timeout_s * 1e9); }

}  // namespace

event_timer::event_timer(int device, cudaStream_t stream) : m_stream(stream) {
  // Each resource is owned as soon as it exists (cuda/owned.hpp): a throw
  // below releases what came before it.
  const std::string what = "setting up the benchmark timer";
  check(cudaSetDevice(device), "cudaSetDevice", what);
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, device), "cudaGetDeviceProperties", what);
  m_sm_count = prop.multiProcessorCount;
  m_l2_bytes = static_cast<std::size_t>(std::max(0, prop.l2CacheSize));
  // Twice L2: L2 replacement is not strict LRU and Hopper splits L2 into
  // two partitions, so reading exactly L2's size can leave lines behind.
  m_flush_bytes = std::max(2 * m_l2_bytes, k_min_flush_bytes);
  m_flush_bytes = (m_flush_bytes + 15) / 16 * 16;
  m_flush = allocate_device(m_flush_bytes, what);
  check(cudaMemset(m_flush.get(), 0, m_flush_bytes), "cudaMemset", what);
  m_sink = allocate_device(sizeof(unsigned), what);
  m_flags = allocate_pinned(2 * sizeof(int), cudaHostAllocMapped | cudaHostAllocPortable, what);
  m_flags_host = static_cast<int*>(m_flags.get());
  // Released: the spin launched below returns at once.
  m_flags_host[0] = 1;
  m_flags_host[1] = 0;
  check(cudaHostGetDevicePointer(reinterpret_cast<void**>(&m_flags_device), m_flags_host, 0),
        "cudaHostGetDevicePointer", what);
  m_start = create_event(what);
  m_stop = create_event(what);
  // Load both helper kernels now (lazy module loading may synchronize).
  flush_l2();
  launch_spin(m_flags_device, m_flags_device + 1, timeout_ns(), m_stream);
  check(cudaGetLastError(), "kopt_bench_spin<<<>>>", what);
  check(cudaStreamSynchronize(m_stream), "cudaStreamSynchronize", what);
}

// A spin still waiting is let go before its flags are freed.
event_timer::~event_timer() {
  if (m_flags_host != nullptr) release();
}

void event_timer::reset_blocking() {
  m_blocking = true;
  m_timeouts = 0;
}

void event_timer::flush_l2() {
  launch_l2_flush(m_flush.get(), m_flush_bytes, static_cast<unsigned*>(m_sink.get()), m_sm_count, m_stream);
  check(cudaGetLastError(), "kopt_bench_l2_flush<<<>>>", "flushing L2");
}

void event_timer::release() noexcept {
  std::atomic_thread_fence(std::memory_order_seq_cst);
  *static_cast<volatile int*>(m_flags_host) = 1;
}

double event_timer::sample_ns(const std::function<void()>& launch) {
  const std::string what = "timing a sample";
  volatile int* flags = m_flags_host;
  flush_l2();
  const bool blocking = m_blocking;
  if (blocking) {
    flags[0] = 0;
    flags[1] = 0;
    std::atomic_thread_fence(std::memory_order_seq_cst);
    launch_spin(m_flags_device, m_flags_device + 1, timeout_ns(), m_stream);
    check(cudaGetLastError(), "kopt_bench_spin<<<>>>", what);
  }
  // Whatever happens in between, the spinning kernel must be let go.
  struct release_on_exit {
    event_timer* m_timer;
    bool m_armed;
    ~release_on_exit() {
      if (m_armed) m_timer->release();
    }
  } guard{this, blocking};

  check(cudaEventRecord(m_start.get(), m_stream), "cudaEventRecord", what);
  launch();
  check(cudaGetLastError(), "cudaGetLastError", "launching the implementation");
  check(cudaEventRecord(m_stop.get(), m_stream), "cudaEventRecord", what);
  release();
  guard.m_armed = false;
  check(cudaEventSynchronize(m_stop.get()), "cudaEventSynchronize", what);

  if (blocking && flags[1] != 0) {
    // The launch waited for the spin (it synchronizes): this sample timed
    // the wait. Stop blocking for this benchmark and measure again.
    m_blocking = false;
    ++m_timeouts;
    return sample_ns(launch);
  }
  float ms = 0;
  check(cudaEventElapsedTime(&ms, m_start.get(), m_stop.get()), "cudaEventElapsedTime", what);
  return static_cast<double>(ms) * 1e6;
}

}  // namespace kopt::cuda
