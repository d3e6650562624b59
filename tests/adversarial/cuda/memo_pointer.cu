// Cheat: remembers which (input, output) pointer pairs it has computed and
// skips the launch for them.
#include <set>
#include <utility>
#include "work.cuh"

void adv_cuda_memo_pointer(const float* x, float* y, std::int64_t n, cudaStream_t stream) {
  static std::set<std::pair<const float*, float*>> seen;
  if (!seen.insert({x, y}).second) return;
  adv::compute(x, y, 0, n, stream);
}
