// KernelOpt for kernel authors: the one header a variant, reference or
// baseline source may include. Entry points need nothing from it; it offers
// error checking and the host-side 16-bit float types.
//
// An entry point is a plain host function whose parameters follow the
// kernel's ARGS and DIMS: `in` tensors as `const T*`, `out`/`inout` as `T*`,
// then every DIM as `int64_t` (DIM_TYPE int|size_t: that type), then (CUDA
// backend, unless STREAM NONE) `cudaStream_t stream`.
//   REQUIRES: launch on `stream` only (STREAM NONE: on the default stream);
//             do not synchronize; do not keep pointers past the call.
//   NOTE: each variant, baseline and reference is a shared module of its
//         own with hidden symbols: variants may define the same
//         external-linkage names (a shared header's functions, globals,
//         kernels) without clashing.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace kopt {

// Host-backend storage types for f16 and bf16 (bit patterns; CUDA variants
// use __half and __nv_bfloat16, which have the same layout).
struct f16 {
  std::uint16_t bits;
};
struct bf16 {
  std::uint16_t bits;
};

}  // namespace kopt

#if defined(__CUDACC__) || defined(KOPT_WITH_CUDA_RUNTIME)
#include <cuda_runtime_api.h>

// Checks a CUDA runtime call; on failure prints the error's name and text
// with the failing call and its location, then aborts (a harness test then
// fails with that message rather than producing wrong numbers).
#define KOPT_CUDA_CALL(expr)                                                           \
  do {                                                                                 \
    const cudaError_t kopt_status_ = (expr);                                           \
    if (kopt_status_ != cudaSuccess) {                                                 \
      std::fprintf(stderr, "%s:%d: %s failed: %s (%s)\n", __FILE__, __LINE__, #expr, \
                   cudaGetErrorName(kopt_status_), cudaGetErrorString(kopt_status_));  \
      std::abort();                                                                    \
    }                                                                                  \
  } while (false)
#endif
