// STREAM NONE: an entry point that takes no stream and launches on the
// default stream. Generated code only.
#pragma once

#include <cuda_runtime_api.h>

namespace kopt::detail {

// The harness orders and times everything on its own non-blocking stream
// (L2 flush, events, the checked launches); an entry declared STREAM NONE
// launches on the default stream instead, which a non-blocking stream does
// not wait for. For the duration of the call this scope makes the default
// stream wait for the harness stream, and afterwards the harness stream wait
// for the default stream, so the harness's events bracket the entry's work.
// Errors of these calls are left for the harness's own cudaGetLastError.
class default_stream_scope {
 public:
  explicit default_stream_scope(void* harness_stream) : m_stream(static_cast<cudaStream_t>(harness_stream)) {
    cudaEventRecord(events().m_before, m_stream);
    cudaStreamWaitEvent(default_stream(), events().m_before, 0);
  }
  ~default_stream_scope() {
    cudaEventRecord(events().m_after, default_stream());
    cudaStreamWaitEvent(m_stream, events().m_after, 0);
  }
  default_stream_scope(const default_stream_scope&) = delete;
  default_stream_scope& operator=(const default_stream_scope&) = delete;

 private:
  struct event_pair {
    cudaEvent_t m_before = nullptr;
    cudaEvent_t m_after = nullptr;
    event_pair() {
      cudaEventCreateWithFlags(&m_before, cudaEventDisableTiming);
      cudaEventCreateWithFlags(&m_after, cudaEventDisableTiming);
    }
  };
  // One pair per module, created on first use (the harness uses one device
  // per process); never destroyed, as the CUDA runtime may be gone at exit.
  static event_pair& events() {
    static event_pair* pair = new event_pair();
    return *pair;
  }
  // The entry's default stream: the legacy one, or the per-thread one when
  // its sources are compiled with --default-stream per-thread.
  static cudaStream_t default_stream() {
#if defined(KOPT_PER_THREAD_DEFAULT_STREAM)
    return cudaStreamPerThread;
#else
    return cudaStreamLegacy;
#endif
  }

  cudaStream_t m_stream;
};

}  // namespace kopt::detail
