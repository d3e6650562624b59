// One correctness trial: fresh inputs for (shape, seed), the reference, the
// variant on poisoned and guarded outputs, and every output checked.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "harness/backend.hpp"
#include "harness/compare.hpp"
#include "formats/correctness_result.hpp"
#include "harness/guarded.hpp"
#include "kernelopt/detail/kernel_spec.hpp"

namespace kopt {

struct trial_result {
  std::string m_shape;
  std::uint64_t m_seed = 0;
  std::optional<std::string> m_error;      // the run itself failed (CUDA error, exception)
  std::vector<output_check> m_outputs;
  std::vector<std::string> m_modified_inputs;  // `in` tensors the variant wrote to
  trial_phases m_phases;                       // wall time per step, up to where it stopped

  [[nodiscard]] bool passed() const;
  [[nodiscard]] std::string diagnosis() const;  // empty when passed
};

// `device` runs the kernel's backend; `host` is used for a host reference.
[[nodiscard]] trial_result run_trial(const kernel_spec& spec, const impl_spec& variant,
                                     const shape_spec& shape, std::uint64_t seed,
                                     backend& device, backend& host);

}  // namespace kopt
