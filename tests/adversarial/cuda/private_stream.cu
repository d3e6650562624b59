// Cheat: does the work on a stream of its own that the harness's stream
// never waits for, so the timed events see an empty stream.
#include "work.cuh"

void adv_cuda_private_stream(const float* x, float* y, std::int64_t n, cudaStream_t) {
  static cudaStream_t own = [] {
    cudaStream_t s = nullptr;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    return s;
  }();
  adv::compute(x, y, 0, n, own);
}
