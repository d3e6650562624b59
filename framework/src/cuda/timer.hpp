// Device time of one launch, measured cold, the way NVBench's cold
// measurement does it:
//   1. flush L2: a kernel reads a buffer of 2 x L2 size (bench_kernels.hpp);
//   2. block the stream: a one-thread kernel spins on a host-mapped flag;
//   3. record the start event, enqueue the implementation, record the stop
//      event -- all queued behind the spinning kernel;
//   4. release the flag and wait for the stop event.
// The launch is therefore queued before the start event executes, so the
// host's launch overhead is not timed and a short kernel measures as device
// time. The spin has a timeout (k_block_timeout_s): an implementation that
// synchronizes inside its launch (cudaMalloc, a blocking copy) would
// otherwise wait for the spin forever; after one timeout the timer stops
// blocking for the rest of that benchmark and remeasures the sample.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <functional>

#include "cuda/owned.hpp"

namespace kopt::cuda {

class event_timer {
 public:
  // CUDA documents event timing with "a resolution of around 0.5
  // microseconds" (cudaEventElapsedTime); the sampler floors its spread
  // estimate with it.
  static constexpr double k_resolution_ns = 500.0;
  static constexpr double k_block_timeout_s = 1.0;

  // Allocates the flush buffer, the events and the host-mapped flags, and
  // runs each helper kernel once (module loading happens here, not while
  // the stream is blocked). Throws kopt::device_error, having released what
  // it allocated.
  event_timer(int device, cudaStream_t stream);
  ~event_timer();
  event_timer(const event_timer&) = delete;
  event_timer& operator=(const event_timer&) = delete;

  // One cold sample of `launch` (which enqueues on the timer's stream, or on
  // others), in ns between the events. Throws kopt::device_error.
  [[nodiscard]] double sample_ns(const std::function<void()>& launch);

  // Per benchmark: hide the launch again, forget earlier timeouts.
  void reset_blocking();
  [[nodiscard]] std::size_t blocking_timeouts() const { return m_timeouts; }
  [[nodiscard]] std::size_t l2_flush_bytes() const { return m_flush_bytes; }
  [[nodiscard]] std::size_t l2_bytes() const { return m_l2_bytes; }

 private:
  void flush_l2();
  void release() noexcept;

  cudaStream_t m_stream;
  int m_sm_count = 1;
  std::size_t m_l2_bytes = 0;
  std::size_t m_flush_bytes = 0;
  // Destroyed in reverse order: events, flags, sink, flush buffer.
  device_memory m_flush;
  device_memory m_sink;          // unsigned
  pinned_memory m_flags;         // int[2]: [0] release, [1] timed out
  int* m_flags_host = nullptr;   // m_flags
  int* m_flags_device = nullptr;
  owned_event m_start;
  owned_event m_stop;
  bool m_blocking = true;
  std::size_t m_timeouts = 0;
};

}  // namespace kopt::cuda
