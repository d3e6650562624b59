// Cheat: a result cache keyed by a content sample, any number of entries;
// on a hit it copies the stored result (device to device) instead of
// computing.
#include <map>
#include <vector>
#include "work.cuh"

void adv_cuda_memo_cache(const float* x, float* y, std::int64_t n, cudaStream_t stream) {
  static std::map<std::vector<float>, float*> cache;
  std::vector<float> key(8);
  cudaMemcpyAsync(key.data(), x, 8 * sizeof(float), cudaMemcpyDeviceToHost, stream);
  cudaStreamSynchronize(stream);
  key.push_back(static_cast<float>(n));
  const auto hit = cache.find(key);
  const std::size_t bytes = sizeof(float) * static_cast<std::size_t>(n);
  if (hit != cache.end()) {
    cudaMemcpyAsync(y, hit->second, bytes, cudaMemcpyDeviceToDevice, stream);
    return;
  }
  adv::compute(x, y, 0, n, stream);
  float* stored = nullptr;
  if (cache.size() < 8 && cudaMalloc(&stored, bytes) == cudaSuccess) {
    cudaMemcpyAsync(stored, y, bytes, cudaMemcpyDeviceToDevice, stream);
    cache[key] = stored;
  }
}
