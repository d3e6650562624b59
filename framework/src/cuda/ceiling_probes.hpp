// The probes behind `kopt ceilings`: what this GPU reaches on
// the simplest code that can reach it, with the method, the samples and the
// clocks around each measurement recorded beside every number.
//   copy_bandwidth  a 128-bit grid-stride copy kernel and cudaMemcpyAsync
//                   device to device, buffers of several sizes well above
//                   L2; bytes read + written; the best of the per-size
//                   medians of both
//   fp32_fma        a register-resident FFMA loop (8 independent chains per
//                   thread), every SM filled to its occupancy limit
//   bf16_tensor, fp16_tensor, tf32_tensor
//                   cuBLAS GEMM (cublasGemmEx, FP32 accumulation; TF32 via
//                   CUBLAS_COMPUTE_32F_FAST_TF32), M = N = K = 8192 on random
//                   non-zero data, 2*M*N*K FLOP per call
// Every timed value is the median of `repeats` event-timed launches after
// warm-up. A measurement that fails is kept with no value and the reason.
#pragma once

#include <optional>
#include <string>

#include "formats/ceilings.hpp"

namespace kopt::cuda {

struct ceiling_probe_options {
  int m_device = 0;
  int m_repeats = 20;       // timed launches per configuration (median taken)
  bool m_quick = false;     // smaller buffers and GEMMs, fewer repeats: a smoke test, not a ceiling
};

// The ceilings of the device, as kopt::ceilings_file (formats/ceilings.hpp
// writes them): every value with source "measured", its method and its
// details (sizes, per-configuration medians, samples, clocks), a failed
// measurement without a value and with the reason; the measurement's device
// facts and clocks in m_measurement. `m_date` is left for the caller.
// REQUIRES: a CUDA device is visible (check with device_unavailable_reason).
// Throws kopt::device_error when the device cannot be used at all.
[[nodiscard]] ceilings_file measure_ceilings(const ceiling_probe_options& options);

// Why no device can be measured ("no CUDA device visible: ..."), or nullopt.
[[nodiscard]] std::optional<std::string> device_unavailable_reason(int device);

}  // namespace kopt::cuda
