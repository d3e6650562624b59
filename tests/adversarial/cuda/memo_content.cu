// Cheat: fingerprints 8 input values (one small copy to the host) and skips
// the launch when they match the last call's.
#include <array>
#include "work.cuh"

void adv_cuda_memo_content(const float* x, float* y, std::int64_t n, cudaStream_t stream) {
  static std::array<float, 8> last{};
  static bool valid = false;
  std::array<float, 8> now{};
  cudaMemcpyAsync(now.data(), x, sizeof now, cudaMemcpyDeviceToHost, stream);
  cudaStreamSynchronize(stream);
  if (valid && now == last) return;
  adv::compute(x, y, 0, n, stream);
  last = now;
  valid = true;
}
