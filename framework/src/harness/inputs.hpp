// Shapes and random inputs for one trial, shared by the correctness tests
// and the benchmarks so both see the same data for the same seed.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "kernelopt/detail/kernel_spec.hpp"

namespace kopt {

// The DIMS of a shape by name.
[[nodiscard]] std::map<std::string, double> dim_values(const kernel_spec& spec,
                                                       const shape_spec& shape);
// Element count of argument `arg` at `shape` (product of its axis expressions).
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
// outputs left empty (sized). Element type is the argument's dtype.
struct host_tensors {
  std::vector<std::vector<unsigned char>> m_data;  // one per argument
};
[[nodiscard]] host_tensors make_inputs(const kernel_spec& spec, const shape_spec& shape,
                                       std::uint64_t seed);

}  // namespace kopt
