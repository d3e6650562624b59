// Cheat: remembers which (input, output) pointer pairs it has computed and
// skips the launch for them. The first input value is part of the key, so a
// correctness process that frees and reallocates buffers at the same
// addresses for new content does not expose it: the benchmark must.
#include <set>
#include <tuple>
#include "work.cuh"

void adv_cuda_memo_pointer(const float* x, float* y, std::int64_t n, cudaStream_t stream) {
  static std::set<std::tuple<const float*, float*, float>> seen;
  float first = 0;
  cudaMemcpyAsync(&first, x, sizeof first, cudaMemcpyDeviceToHost, stream);
  cudaStreamSynchronize(stream);
  if (!seen.insert({x, y, first}).second) return;
  adv::compute(x, y, 0, n, stream);
}
