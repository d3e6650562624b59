// The cuda-samples reduction behind KernelOpt's entry points: the sample's
// launcher reduce<T>() (reduction_kernel.cu, compiled as it is beside this
// file), called the way its benchmarkReduce() calls it with
// cpuFinalReduction off (reduction.cpp): reduce, then reduce the partial
// sums with the same kernel until one is left. The output is that full sum;
// partial sums would be no contract, since their number differs from kernel
// to kernel. reduce<T>() launches on the default stream: the variants are
// declared STREAM NONE.
#include <algorithm>

#include <kernelopt/kernelopt.hpp>

#include "reduction.h"

// Declared by reduction_kernel.cu, defined by the sample's reduction.cpp
// (not vendored: it holds main).
extern "C" bool isPow2(unsigned int x) { return ((x & (x - 1)) == 0); }

namespace {
unsigned int next_pow2(unsigned int x) {  // nextPow2() of reduction.cpp
  --x;
  x |= x >> 1;
  x |= x >> 2;
  x |= x >> 4;
  x |= x >> 8;
  x |= x >> 16;
  return ++x;
}

// getNumBlocksAndThreads() of reduction.cpp with runTest()'s maxThreads 256
// and maxBlocks 64. Its clamp to maxGridSize[0] (2^31 - 1) cannot trigger
// for an int n and is left out, with its cudaGetDeviceProperties() call.
void blocks_and_threads(int which, int n, int& blocks, int& threads) {
  constexpr int max_threads = 256;
  constexpr int max_blocks = 64;
  if (which < 3) {
    threads = (n < max_threads) ? static_cast<int>(next_pow2(n)) : max_threads;
    blocks = (n + threads - 1) / threads;
  } else {
    threads = (n < max_threads * 2) ? static_cast<int>(next_pow2((n + 1) / 2)) : max_threads;
    blocks = (n + (threads * 2 - 1)) / (threads * 2);
  }
  if (which >= 6) blocks = std::min(max_blocks, blocks);
}

// Two buffers of partial sums, kept for the process (benchmarkReduce's
// d_odata and d_intermediateSums, allocated once there too).
float* partial_sums(int count) {
  static float* buffer = nullptr;
  static int capacity = 0;
  if (count > capacity) {
    KOPT_CUDA_CALL(cudaDeviceSynchronize());  // the old buffer may still be in use
    KOPT_CUDA_CALL(cudaFree(buffer));
    KOPT_CUDA_CALL(cudaMalloc(&buffer, sizeof(float) * count));
    capacity = count;
  }
  return buffer;
}
}  // namespace

// The sum of x[0, n) into sum[0] with the sample's kernel `which`.
void sample_reduce(int which, const float* x, float* sum, int n) {
  int blocks = 0;
  int threads = 0;
  blocks_and_threads(which, n, blocks, threads);
  float* const buffer = partial_sums(2 * blocks);  // pass 1 writes the most partial sums
  float* const partial[2] = {buffer, buffer + blocks};
  // The sample copies d_odata to d_intermediateSums before each pass; the
  // two buffers take turns instead. The last pass writes the output.
  float* in = const_cast<float*>(x);  // the kernels only read it
  for (int pass = 0, size = n;; ++pass) {
    if (pass > 0) blocks_and_threads(which, size, blocks, threads);
    float* const out = blocks == 1 ? sum : partial[pass % 2];
    reduce<float>(size, threads, blocks, which, in, out);
    KOPT_CUDA_CALL(cudaGetLastError());
    if (blocks == 1) break;
    in = out;
    size = blocks;
  }
}
