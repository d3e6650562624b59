// Shapes and random inputs for one trial, shared by the correctness tests
// and the benchmarks so both see the same data for the same seed.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "harness/tensor_memory.hpp"
#include "kernelopt/detail/kernel_spec.hpp"

namespace kopt {

// The DIMS of a shape by name.
[[nodiscard]] std::map<std::string, double> dim_values(const kernel_spec& spec,
                                                       const shape_spec& shape);
// The most bytes one tensor may hold at one shape: 2^48 (256 TiB), the bound
// the CMake functions check at configure time (cmake/kernelopt/Limits.cmake).
inline constexpr std::int64_t k_max_tensor_bytes = std::int64_t{1} << 48;

// Element count of argument `arg` at `shape` (product of its axis expressions).
// Throws, naming the argument and the shape, when an axis is not a
// non-negative integer below 2^63, when the product overflows int64, or when
// the tensor's bytes exceed k_max_tensor_bytes; so count * size_of(dtype),
// and count * sizeof(double), cannot overflow.
[[nodiscard]] std::size_t element_count(const kernel_spec& spec, const arg_spec& arg,
                                        const shape_spec& shape);
// Shape of `arg` at `shape`, one extent per axis.
[[nodiscard]] std::vector<std::int64_t> extents(const kernel_spec& spec, const arg_spec& arg,
                                                const shape_spec& shape);
// Evaluates a work-model expression (FLOPS, BYTES) at `shape`; 0 if empty.
[[nodiscard]] double work(const kernel_spec& spec, const std::string& expression,
                          const shape_spec& shape);

// Host-side contents of every argument for one trial: inputs and inouts
// filled from their init_spec with a generator seeded by (seed, arg index),
// outputs sized and zero. Element type is the argument's dtype.
struct host_tensors {
  std::vector<tensor_bytes> m_data;  // one per argument; an `out` argument's is zero
};
[[nodiscard]] host_tensors make_inputs(const kernel_spec& spec, const shape_spec& shape,
                                       std::uint64_t seed);

}  // namespace kopt
