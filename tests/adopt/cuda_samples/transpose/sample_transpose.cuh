// The cuda-samples transpose.cu, compiled as it is, and the launch its
// main() makes. Every version's module has its own copy of the sample (its
// globals, kernels, functions and main, all hidden in the module).
#pragma once

#include <kernelopt/kernelopt.hpp>

#include "transpose.cu"

// main()'s launch, on the default stream as there (STREAM NONE): a
// TILE_DIM x BLOCK_ROWS block per TILE_DIM x TILE_DIM tile of the
// height x width input. The sample requires width and height to be
// multiples of TILE_DIM (32): SHAPES are.
inline void launch(void (*kernel)(float*, float*, int, int), float* odata, const float* idata, int width, int height) {
  const dim3 grid(width / TILE_DIM, height / TILE_DIM);
  const dim3 threads(TILE_DIM, BLOCK_ROWS);
  kernel<<<grid, threads>>>(odata, const_cast<float*>(idata), width, height);  // the kernels only read idata
  KOPT_CUDA_CALL(cudaGetLastError());
}
