// Control: honest and much faster: the chain is the identity in exact
// arithmetic, so y = x within f32 rounding: a copy.
#include "work.cuh"

void adv_cuda_honest(const float* x, float* y, std::int64_t n, cudaStream_t stream) {
  cudaMemcpyAsync(y, x, sizeof(float) * static_cast<std::size_t>(n), cudaMemcpyDeviceToDevice, stream);
}
