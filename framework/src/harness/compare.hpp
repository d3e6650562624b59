// Checks one output tensor against the reference: allclose with rtol/atol,
// rel-L2, NaN/Inf, never-written elements, and the guard canaries around it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kernelopt/detail/kernel_spec.hpp"

namespace kopt {

// Guard bytes before and after every output buffer on the device; a write
// past either end changes them.
inline constexpr std::size_t k_guard_bytes = 16384;
inline constexpr unsigned char k_canary_byte = 0xA5;

// The bit pattern written into every output element before a run: a quiet
// NaN with a payload no arithmetic produces (integers: 0xCD bytes).
void poison(dtype t, void* data, std::size_t count);
[[nodiscard]] bool is_poison(dtype t, const void* data, std::size_t index);

// Default tolerance for an output of type `t` (fp32 1e-4, bf16/fp16 1e-2,
// f64 1e-10, integers exact).
[[nodiscard]] tolerance_spec default_tolerance(dtype t);

// The bound on a floating output's relative L2 error where TOLERANCE sets no
// MAX_REL_L2 (f64 1e-6, f32 1e-2, f16/bf16 1e-1): far above what rounding
// gives, so that only outputs that are mostly wrong fail it, such as zeros
// where every reference value is below ATOL.
[[nodiscard]] double default_max_rel_l2(dtype t);

struct mismatch {
  std::size_t m_flat = 0;
  std::vector<std::int64_t> m_index;
  double m_got = 0;
  double m_expected = 0;
};

struct output_check {
  std::string m_arg;
  dtype m_dtype = dtype::f32;
  std::size_t m_elements = 0;
  tolerance_spec m_tolerance;
  double m_max_abs = 0;
  double m_max_rel = 0;
  double m_rel_l2 = 0;  // relative to the reference's L2 norm; absolute when that is 0
  bool m_reference_zero = false;  // the reference's L2 norm is 0 (the default MAX_REL_L2 does not apply)
  std::size_t m_mismatches = 0;
  std::size_t m_nonfinite = 0;
  std::size_t m_unwritten = 0;
  std::string m_canary = "intact";
  std::optional<mismatch> m_first_mismatch;
  std::optional<mismatch> m_first_unwritten;

  [[nodiscard]] bool passed() const;
  [[nodiscard]] bool l2_exceeded() const;  // beyond the tolerance's MAX_REL_L2
  // One paragraph a person can act on; empty when passed.
  [[nodiscard]] std::string diagnosis() const;
};

// `guarded` holds k_guard_bytes, then `count` elements, then k_guard_bytes.
// `expected` holds `count` values. `check_unwritten` is false for inout
// tensors (they start from data).
[[nodiscard]] output_check compare_output(const arg_spec& arg, const tolerance_spec& tolerance,
                                          const unsigned char* guarded, std::size_t count,
                                          const double* expected,
                                          const std::vector<std::int64_t>& extents,
                                          bool check_unwritten);

[[nodiscard]] std::vector<std::int64_t> unflatten(std::size_t flat,
                                                  const std::vector<std::int64_t>& extents);

}  // namespace kopt
