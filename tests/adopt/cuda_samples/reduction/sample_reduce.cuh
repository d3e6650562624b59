// The cuda-samples reduction behind a KernelOpt entry point: the sample's
// kernels and its launcher reduce<T>() as they are, called the way its
// benchmarkReduce() calls them with cpuFinalReduction off (reduction.cpp):
// reduce, then reduce the partial sums with the same kernel until one is
// left. The output is that full sum; partial sums would be no contract,
// since their number differs from kernel to kernel.
#pragma once

#include <algorithm>
#include <cstdint>

#include <kernelopt/kernelopt.hpp>

// What reduction_kernel.cu includes, included first so that the sample can
// sit in an anonymous namespace below, where the headers do not belong.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <stdio.h>

// Every variant compiles the whole sample; the anonymous namespace keeps each
// variant's copy of reduce<T> and its kernels its own (all variants of a
// kernel link into one executable).
namespace {
// reduction_kernel.cu declares isPow2 (in this namespace, where GCC would not
// see a definition outside it); the sample defines it in reduction.cpp (not
// vendored: it holds main). Same body; inline since every variant has it.
extern "C" inline bool isPow2(unsigned int x) { return ((x & (x - 1)) == 0); }

#include "reduction.h"
#include "reduction_kernel.cu"

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

cudaEvent_t ordering_event() {
  cudaEvent_t event = nullptr;
  KOPT_CUDA_CALL(cudaEventCreateWithFlags(&event, cudaEventDisableTiming));
  return event;
}

// The sum of x[0, n) into sum[0] with the sample's kernel `which`.
// reduce<T> launches on the legacy default stream and KernelOpt's stream is
// non-blocking: events order the two both ways, so that KernelOpt's timing
// and checks on `stream` bracket the work.
void sample_reduce(int which, const float* x, float* sum, std::int64_t n64, cudaStream_t stream) {
  static const cudaEvent_t before = ordering_event();
  static const cudaEvent_t after = ordering_event();
  const int n = static_cast<int>(n64);  // reduce<T> takes int sizes; SHAPES fit
  int blocks = 0;
  int threads = 0;
  blocks_and_threads(which, n, blocks, threads);
  float* const buffer = partial_sums(2 * blocks);  // pass 1 writes the most partial sums
  float* const partial[2] = {buffer, buffer + blocks};
  KOPT_CUDA_CALL(cudaEventRecord(before, stream));
  KOPT_CUDA_CALL(cudaStreamWaitEvent(cudaStreamLegacy, before, 0));
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
  KOPT_CUDA_CALL(cudaEventRecord(after, cudaStreamLegacy));
  KOPT_CUDA_CALL(cudaStreamWaitEvent(stream, after, 0));
}
}  // namespace
