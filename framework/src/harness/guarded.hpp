// The tensors of one run on a backend, each between two guard regions, and
// the check of what a run left in them. Shared by the correctness trials and
// the benchmark's checked launches, so both catch the same faults: outputs
// never written (poisoned before the run), wrong values, NaN/Inf, writes
// past either end of an output (canaries), and `in` tensors written to.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "harness/backend.hpp"
#include "harness/compare.hpp"
#include "harness/inputs.hpp"
#include "harness/tensor_memory.hpp"
#include "kernelopt/detail/kernel_spec.hpp"

namespace kopt {

// For every out / inout argument, the reference's values as double; empty
// for inputs.
using expected_outputs = std::vector<tensor_values>;

// Runs the reference on `tensors` (left unchanged) on `ref_backend`. On the
// host backend the reference works in host memory the harness fills once
// (no upload, no download); an f64 reference's outputs are the expected
// values themselves.
[[nodiscard]] expected_outputs run_reference(const kernel_spec& spec, const impl_spec& reference,
                                             const shape_spec& shape, const host_tensors& tensors,
                                             backend& ref_backend);

// The tolerance an output is checked with: TOLERANCE if declared (floating
// outputs only), else the per-dtype default; a floating output without a
// declared MAX_REL_L2 gets default_max_rel_l2.
[[nodiscard]] tolerance_spec tolerance_for(const kernel_spec& spec, const arg_spec& arg);

// What one checked run found.
struct run_check {
  std::vector<output_check> m_outputs;
  std::vector<std::string> m_modified_inputs;  // `in` tensors the implementation wrote to

  [[nodiscard]] bool passed() const;
  [[nodiscard]] std::string diagnosis() const;  // empty when passed
};

class guarded_tensors {
 public:
  guarded_tensors(const kernel_spec& spec, const shape_spec& shape, backend& device);

  // Uploads `tensors` (inputs and inouts as given, outputs poisoned,
  // canaries around everything). The pointers stay the same across loads.
  void load(const host_tensors& tensors);
  // Uploads only the payload of inputs and inouts (no poison, no guards):
  // new content under the same pointers, for timing on fresh data.
  void load_inputs(const host_tensors& tensors);
  // Downloads every tensor and checks it against `tensors` (what was
  // loaded) and `expected`. REQUIRES: the backend is synchronized.
  [[nodiscard]] run_check check(const host_tensors& tensors, const expected_outputs& expected);

  // The payloads of the `out` arguments as the last run left them (empty
  // for the others), and their upload back (no poison, no guards): the
  // benchmark checks a timed call whose outputs hold what timed calls find
  // there, another content's results, not poison. REQUIRES: synchronized.
  [[nodiscard]] std::vector<std::vector<unsigned char>> download_outputs();
  // The names of the `in` tensors whose payload differs from `tensors` now.
  // REQUIRES: synchronized.
  [[nodiscard]] std::vector<std::string> modified_inputs(const host_tensors& tensors);
  void upload_outputs(const std::vector<std::vector<unsigned char>>& outputs);

  [[nodiscard]] void* const* pointers() const { return m_pointers.data(); }

 private:
  const kernel_spec& m_spec;
  const shape_spec& m_shape;
  backend& m_device;
  std::vector<device_buffer> m_buffers;  // guard, payload, guard
  std::vector<void*> m_pointers;         // payloads
  std::vector<std::size_t> m_bytes;      // payload bytes
};

}  // namespace kopt
