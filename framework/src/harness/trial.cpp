#include "harness/trial.hpp"

#include <sstream>
#include <stdexcept>

#include "harness/guarded.hpp"
#include "harness/inputs.hpp"
#include "harness/lap_clock.hpp"

namespace kopt {

bool trial_result::passed() const {
  if (m_error || !m_modified_inputs.empty()) return false;
  for (const output_check& out : m_outputs) {
    if (!out.passed()) return false;
  }
  return true;
}

std::string trial_result::diagnosis() const {
  std::ostringstream out;
  if (m_error) out << *m_error << "\n";
  run_check check;
  check.m_outputs = m_outputs;
  check.m_modified_inputs = m_modified_inputs;
  out << check.diagnosis();
  return out.str();
}

trial_result run_trial(const kernel_spec& spec, const impl_spec& variant, const shape_spec& shape,
                       std::uint64_t seed, backend& device, backend& host) {
  trial_result result;
  result.m_shape = shape.m_text;
  result.m_seed = seed;
  lap_clock clock;
  try {
    const host_tensors tensors = make_inputs(spec, shape, seed);
    result.m_phases.m_inputs_s = clock.lap();
    backend& ref_backend = spec.m_reference->m_backend == backend_kind::host ? host : device;
    const expected_outputs expected = run_reference(spec, *spec.m_reference, shape, tensors, ref_backend);
    result.m_phases.m_reference_s = clock.lap();

    if (variant.m_invoke == nullptr) throw std::runtime_error(not_loaded(variant));
    guarded_tensors guarded(spec, shape, device);
    guarded.load(tensors);
    result.m_phases.m_load_s = clock.lap();
    variant.m_invoke(guarded.pointers(), shape.m_dims.data(), device.stream());
    device.synchronize("running " + variant.m_name + " (" + variant.m_entry + ") on " + shape.m_text +
                       ", seed " + std::to_string(seed));
    result.m_phases.m_run_s = clock.lap();
    run_check check = guarded.check(tensors, expected);
    result.m_outputs = std::move(check.m_outputs);
    result.m_modified_inputs = std::move(check.m_modified_inputs);
    result.m_phases.m_check_s = clock.lap();
  } catch (const std::exception& error) {
    result.m_error = error.what();
  } catch (...) {
    result.m_error = "an exception of a type not derived from std::exception";
  }
  return result;
}

}  // namespace kopt
