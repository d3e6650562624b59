// The cuda-samples transpose.cu, compiled as it is with its main() renamed,
// and the launch its main() makes, on KernelOpt's stream instead of the
// default one.
#pragma once

#include <cstdint>

#include <kernelopt/kernelopt.hpp>

// What transpose.cu includes, included first so that the sample can sit in
// an anonymous namespace below, where the headers do not belong.
#include <cooperative_groups.h>
#include <helper_cuda.h>
#include <helper_image.h>
#include <helper_string.h>

// Every variant compiles the whole sample; the anonymous namespace keeps each
// variant's copy of its globals, kernels and functions its own (all variants
// of a kernel link into one executable).
namespace {
#define main transpose_sample_main  // KernelOpt's executables have their own
#include "transpose.cu"
#undef main

// main()'s launch: a TILE_DIM x BLOCK_ROWS block per TILE_DIM x TILE_DIM
// tile of the height x width input. The sample requires width and height to
// be multiples of TILE_DIM (32): SHAPES are.
void launch(void (*kernel)(float*, float*, int, int), float* odata, const float* idata, std::int64_t width,
            std::int64_t height, cudaStream_t stream) {
  const dim3 grid(static_cast<unsigned>(width / TILE_DIM), static_cast<unsigned>(height / TILE_DIM));
  const dim3 threads(TILE_DIM, BLOCK_ROWS);
  kernel<<<grid, threads, 0, stream>>>(odata, const_cast<float*>(idata),  // the kernels only read idata
                                       static_cast<int>(width), static_cast<int>(height));
  KOPT_CUDA_CALL(cudaGetLastError());
}
}  // namespace
