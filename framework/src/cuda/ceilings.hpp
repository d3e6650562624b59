// Measured hardware ceilings (`kopt ceilings`): what this GPU reaches on
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
#include <vector>

#include "core/json_io.hpp"

namespace kopt::cuda {

struct ceilings_options {
  int m_device = 0;
  int m_repeats = 20;       // timed launches per configuration (median taken)
  bool m_quick = false;     // smaller buffers and GEMMs, fewer repeats: a smoke test, not a ceiling
};

struct measured_ceiling {
  std::string m_name;             // "copy_bandwidth", "fp32_fma", "bf16_tensor", ...
  std::optional<double> m_value;  // B/s or FLOP/s
  std::string m_unit;             // "B/s" or "FLOP/s"
  std::string m_method;
  std::string m_reason;           // why m_value is missing
  json m_details = json::object();  // sizes, per-configuration medians, sample counts, clocks
};

struct ceilings_result {
  std::string m_device_name;
  std::string m_device_uuid;      // "GPU-..." (nvidia-smi's form)
  int m_device_index = 0;
  int m_cc_major = 0;
  int m_cc_minor = 0;
  int m_sm_count = 0;
  std::size_t m_l2_bytes = 0;
  std::size_t m_memory_bytes = 0;
  std::string m_cublas_version;
  json m_clocks_before = json::object();  // NVML SM / memory clocks and clock-event reasons
  json m_clocks_after = json::object();
  std::vector<measured_ceiling> m_ceilings;
};

// REQUIRES: a CUDA device is visible (check with device_unavailable_reason).
// Throws kopt::device_error when the device cannot be used at all.
[[nodiscard]] ceilings_result measure_ceilings(const ceilings_options& options);

// Why no device can be measured ("no CUDA device visible: ..."), or nullopt.
[[nodiscard]] std::optional<std::string> device_unavailable_reason(int device);

// kind kernelopt.ceilings, schema_version 1, as kopt's ceilings reader
// (framework/src/kopt/ceilings.hpp) and the benchmark read it; `date` is the
// UTC time of the run.
[[nodiscard]] json to_json(const ceilings_result& result, const std::string& date);

}  // namespace kopt::cuda
