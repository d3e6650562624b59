// Cheat: correct for the first 16 calls, no work afterwards.
#include "work.cuh"

void adv_cuda_first_calls(const float* x, float* y, std::int64_t n, cudaStream_t stream) {
  static int calls = 0;
  if (++calls > 16) return;
  adv::compute(x, y, 0, n, stream);
}
