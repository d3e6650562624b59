#include "harness/trial.hpp"

#include <cstring>
#include <sstream>

#include "core/dtype.hpp"
#include "harness/inputs.hpp"
#include "kernelopt/parallel.hpp"

namespace kopt {
namespace {

// Runs the reference on `tensors` (left unchanged) and returns, for every
// out / inout argument, the expected values as double; empty for inputs.
std::vector<std::vector<double>> run_reference(const kernel_spec& spec, const impl_spec& reference,
                                               const shape_spec& shape, const host_tensors& tensors,
                                               backend& ref_backend) {
  const std::size_t n = spec.m_args.size();
  std::vector<std::vector<double>> expected(n);
  std::vector<std::vector<unsigned char>> staging(n);
  std::vector<device_buffer> buffers;
  std::vector<void*> pointers(n);
  buffers.reserve(n);

  for (std::size_t i = 0; i < n; ++i) {
    const arg_spec& arg = spec.m_args[i];
    const std::size_t count = element_count(spec, arg, shape);
    if (reference.m_f64 && is_floating(arg.m_dtype)) {
      staging[i].resize(count * sizeof(double));
      if (arg.m_dir != arg_dir::out) {
        unsigned char* to = staging[i].data();
        const unsigned char* from = tensors.m_data[i].data();
        parallel_chunks(count, k_parallel_chunk, [&](std::size_t, std::size_t begin, std::size_t end) {
          for (std::size_t e = begin; e < end; ++e) store_element(dtype::f64, to, e, load_element(arg.m_dtype, from, e));
        });
      }
    } else {
      staging[i] = tensors.m_data[i];
    }
    buffers.emplace_back(ref_backend, std::max<std::size_t>(staging[i].size(), 1));
    if (!staging[i].empty()) ref_backend.copy_to_device(buffers.back().get(), staging[i].data(), staging[i].size());
    pointers[i] = buffers.back().get();
  }
  reference.m_invoke(pointers.data(), shape.m_dims.data(), ref_backend.stream());
  ref_backend.synchronize("running the reference " + reference.m_entry + " on " + shape.m_text);

  for (std::size_t i = 0; i < n; ++i) {
    const arg_spec& arg = spec.m_args[i];
    if (arg.m_dir == arg_dir::in) continue;
    ref_backend.copy_to_host(staging[i].data(), buffers[i].get(), staging[i].size());
    const dtype stored = reference.m_f64 && is_floating(arg.m_dtype) ? dtype::f64 : arg.m_dtype;
    const std::size_t count = staging[i].size() / size_of(stored);
    expected[i].resize(count);
    const unsigned char* from = staging[i].data();
    double* to = expected[i].data();
    parallel_chunks(count, k_parallel_chunk, [&](std::size_t, std::size_t begin, std::size_t end) {
      for (std::size_t e = begin; e < end; ++e) to[e] = load_element(stored, from, e);
    });
  }
  return expected;
}

}  // namespace

tolerance_spec tolerance_for(const kernel_spec& spec, const arg_spec& arg) {
  if (spec.m_tolerance && is_floating(arg.m_dtype)) return *spec.m_tolerance;
  return default_tolerance(arg.m_dtype);
}

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
  for (const std::string& name : m_modified_inputs) {
    out << "input '" << name << "' was modified by the variant (declared `in`; use `inout`)\n";
  }
  for (const output_check& check : m_outputs) {
    if (!check.passed()) out << check.diagnosis() << "\n";
  }
  return out.str();
}

trial_result run_trial(const kernel_spec& spec, const impl_spec& variant, const shape_spec& shape,
                       std::uint64_t seed, backend& device, backend& host) {
  trial_result result;
  result.m_shape = shape.m_text;
  result.m_seed = seed;
  try {
    const host_tensors tensors = make_inputs(spec, shape, seed);
    backend& ref_backend = spec.m_reference->m_backend == backend_kind::host ? host : device;
    const std::vector<std::vector<double>> expected =
        run_reference(spec, *spec.m_reference, shape, tensors, ref_backend);

    // Every tensor sits between two guard regions so that out-of-bounds
    // writes change canaries rather than another tensor.
    const std::size_t n = spec.m_args.size();
    std::vector<std::vector<unsigned char>> guarded(n);
    std::vector<device_buffer> buffers;
    std::vector<void*> pointers(n);
    buffers.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
      const arg_spec& arg = spec.m_args[i];
      const std::size_t bytes = tensors.m_data[i].size();
      guarded[i].assign(bytes + 2 * k_guard_bytes, k_canary_byte);
      unsigned char* payload = guarded[i].data() + k_guard_bytes;
      if (arg.m_dir == arg_dir::out) {
        poison(arg.m_dtype, payload, bytes / size_of(arg.m_dtype));
      } else if (bytes > 0) {
        std::memcpy(payload, tensors.m_data[i].data(), bytes);
      }
      buffers.emplace_back(device, guarded[i].size());
      device.copy_to_device(buffers.back().get(), guarded[i].data(), guarded[i].size());
      pointers[i] = static_cast<unsigned char*>(buffers.back().get()) + k_guard_bytes;
    }

    variant.m_invoke(pointers.data(), shape.m_dims.data(), device.stream());
    device.synchronize("running " + variant.m_name + " (" + variant.m_entry + ") on " + shape.m_text +
                       ", seed " + std::to_string(seed));

    for (std::size_t i = 0; i < n; ++i) {
      const arg_spec& arg = spec.m_args[i];
      device.copy_to_host(guarded[i].data(), buffers[i].get(), guarded[i].size());
      const unsigned char* payload = guarded[i].data() + k_guard_bytes;
      const std::size_t bytes = tensors.m_data[i].size();
      if (arg.m_dir == arg_dir::in) {
        if (bytes > 0 && std::memcmp(payload, tensors.m_data[i].data(), bytes) != 0) {
          result.m_modified_inputs.push_back(arg.m_name);
        }
        continue;
      }
      result.m_outputs.push_back(compare_output(arg, tolerance_for(spec, arg), guarded[i].data(),
                                                bytes / size_of(arg.m_dtype), expected[i],
                                                extents(spec, arg, shape), arg.m_dir == arg_dir::out));
    }
  } catch (const std::exception& error) {
    result.m_error = error.what();
  }
  return result;
}

}  // namespace kopt
