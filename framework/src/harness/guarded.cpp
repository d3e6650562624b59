#include "harness/guarded.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <memory>
#include <sstream>
#include <stdexcept>

#include "core/dtype.hpp"
#include "kernelopt/parallel.hpp"

namespace kopt {
namespace {

// Whole-tensor byte passes (copy, poison, compare), split over
// parallel_threads() in chunks of this many bytes: one thread moves ~10
// GB/s, and each trial makes several such passes over every tensor (a
// 4096^3 gemm's are 128 MB each; docs/multi-gpu.md, "Host memory"). A
// tensor under one chunk is one pass on the calling thread.
constexpr std::size_t k_byte_chunk = std::size_t{4} << 20;

// A buffer the caller overwrites whole (a download, an image it fills):
// no zeroing pass first (tensor_memory.hpp).
tensor_bytes uninitialized_bytes(std::size_t bytes) { return tensor_bytes(std::max<std::size_t>(bytes, 1)); }

void parallel_copy(unsigned char* to, const unsigned char* from, std::size_t bytes) {
  parallel_chunks(bytes, k_byte_chunk,
                  [&](std::size_t, std::size_t begin, std::size_t end) { std::memcpy(to + begin, from + begin, end - begin); });
}

bool parallel_equal(const unsigned char* a, const unsigned char* b, std::size_t bytes) {
  std::atomic<bool> equal{true};
  parallel_chunks(bytes, k_byte_chunk, [&](std::size_t, std::size_t begin, std::size_t end) {
    if (equal.load(std::memory_order_relaxed) && std::memcmp(a + begin, b + begin, end - begin) != 0) {
      equal.store(false, std::memory_order_relaxed);
    }
  });
  return equal.load();
}

void parallel_poison(dtype t, unsigned char* data, std::size_t count) {
  const std::size_t size = size_of(t);
  parallel_chunks(count, k_byte_chunk / size, [&](std::size_t, std::size_t begin, std::size_t end) {
    poison(t, data + begin * size, end - begin);
  });
}

// One tensor's elements as double: an f64 reference's copy of a floating
// tensor (upcast exactly from the values the variant sees; an `out`
// tensor's are zero, as make_inputs leaves them), or a reference's output.
tensor_values widen(dtype stored, const unsigned char* from, std::size_t count) {
  tensor_values values(count);
  double* to = values.data();
  parallel_chunks(count, k_parallel_chunk, [&](std::size_t, std::size_t begin, std::size_t end) {
    for (std::size_t e = begin; e < end; ++e) to[e] = load_element(stored, from, e);
  });
  return values;
}

// A host reference works on the copies the harness makes once, with no
// upload or download: an f64 reference on the upcast values, whose outputs
// are then the expected values themselves; another on one copy of each
// tensor. Either way `tensors` stay as they are whatever it writes.
expected_outputs run_host_reference(const kernel_spec& spec, const impl_spec& reference, const shape_spec& shape,
                                    const host_tensors& tensors, backend& host) {
  const std::size_t n = spec.m_args.size();
  std::vector<tensor_values> values(n);  // an f64 reference's floating tensors
  std::vector<device_buffer> bytes(n);   // the others, as stored
  std::vector<std::size_t> counts(n);
  std::vector<void*> pointers(n);
  for (std::size_t i = 0; i < n; ++i) {
    const arg_spec& arg = spec.m_args[i];
    counts[i] = element_count(spec, arg, shape);
    if (reference.m_f64 && is_floating(arg.m_dtype)) {
      values[i] = widen(arg.m_dtype, tensors.m_data[i].data(), counts[i]);
      values[i].reserve(1);  // a pointer even for an empty tensor
      pointers[i] = values[i].data();
    } else {
      const std::size_t size = tensors.m_data[i].size();
      bytes[i] = device_buffer(host, std::max<std::size_t>(size, 1));
      parallel_copy(static_cast<unsigned char*>(bytes[i].get()), tensors.m_data[i].data(), size);
      pointers[i] = bytes[i].get();
    }
  }
  reference.m_invoke(pointers.data(), shape.m_dims.data(), host.stream());
  host.synchronize("running the reference " + reference.m_entry + " on " + shape.m_text);

  expected_outputs expected(n);
  for (std::size_t i = 0; i < n; ++i) {
    const arg_spec& arg = spec.m_args[i];
    if (arg.m_dir == arg_dir::in) continue;
    expected[i] = bytes[i].get() != nullptr
                      ? widen(arg.m_dtype, static_cast<const unsigned char*>(bytes[i].get()), counts[i])
                      : std::move(values[i]);
  }
  return expected;
}

}  // namespace

expected_outputs run_reference(const kernel_spec& spec, const impl_spec& reference, const shape_spec& shape,
                               const host_tensors& tensors, backend& ref_backend) {
  if (reference.m_invoke == nullptr) throw std::runtime_error("the reference: " + not_loaded(reference));
  if (ref_backend.kind() == backend_kind::host) return run_host_reference(spec, reference, shape, tensors, ref_backend);
  const std::size_t n = spec.m_args.size();
  std::vector<std::size_t> sizes(n);
  std::vector<device_buffer> buffers;
  std::vector<void*> pointers(n);
  buffers.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    const arg_spec& arg = spec.m_args[i];
    // Only an f64 reference needs its own copy of the inputs (upcast); any
    // other is given the tensors as they are (outputs as make_inputs left
    // them: zero).
    const bool is_staged = reference.m_f64 && is_floating(arg.m_dtype);
    const tensor_values staged =
        is_staged ? widen(arg.m_dtype, tensors.m_data[i].data(), element_count(spec, arg, shape)) : tensor_values();
    const void* source = is_staged ? static_cast<const void*>(staged.data()) : tensors.m_data[i].data();
    sizes[i] = is_staged ? staged.size() * sizeof(double) : tensors.m_data[i].size();
    buffers.emplace_back(ref_backend, std::max<std::size_t>(sizes[i], 1));
    if (sizes[i] > 0) ref_backend.copy_to_device(buffers.back().get(), source, sizes[i]);
    pointers[i] = buffers.back().get();
  }
  reference.m_invoke(pointers.data(), shape.m_dims.data(), ref_backend.stream());
  ref_backend.synchronize("running the reference " + reference.m_entry + " on " + shape.m_text);

  expected_outputs expected(n);
  for (std::size_t i = 0; i < n; ++i) {
    const arg_spec& arg = spec.m_args[i];
    if (arg.m_dir == arg_dir::in) continue;
    tensor_bytes results = uninitialized_bytes(sizes[i]);
    ref_backend.copy_to_host(results.data(), buffers[i].get(), sizes[i]);
    const dtype stored = reference.m_f64 && is_floating(arg.m_dtype) ? dtype::f64 : arg.m_dtype;
    expected[i] = widen(stored, results.data(), sizes[i] / size_of(stored));
  }
  return expected;
}

tolerance_spec tolerance_for(const kernel_spec& spec, const arg_spec& arg) {
  tolerance_spec tolerance =
      spec.m_tolerance && is_floating(arg.m_dtype) ? *spec.m_tolerance : default_tolerance(arg.m_dtype);
  if (is_floating(arg.m_dtype) && !tolerance.m_max_rel_l2) {
    tolerance.m_max_rel_l2 = default_max_rel_l2(arg.m_dtype);
    tolerance.m_max_rel_l2_default = true;
  }
  return tolerance;
}

bool run_check::passed() const {
  if (!m_modified_inputs.empty()) return false;
  for (const output_check& out : m_outputs) {
    if (!out.passed()) return false;
  }
  return true;
}

std::string run_check::diagnosis() const {
  std::ostringstream out;
  for (const std::string& name : m_modified_inputs) {
    out << "input '" << name << "' was modified by the variant (declared `in`; use `inout`)\n";
  }
  for (const output_check& check : m_outputs) {
    if (!check.passed()) out << check.diagnosis() << "\n";
  }
  return out.str();
}

guarded_tensors::guarded_tensors(const kernel_spec& spec, const shape_spec& shape, backend& device)
    : m_spec(spec), m_shape(shape), m_device(device) {
  const std::size_t n = spec.m_args.size();
  m_buffers.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    const arg_spec& arg = spec.m_args[i];
    const std::size_t bytes = element_count(spec, arg, shape) * size_of(arg.m_dtype);
    m_bytes.push_back(bytes);
    m_buffers.emplace_back(device, bytes + 2 * k_guard_bytes);
    m_pointers.push_back(static_cast<unsigned char*>(m_buffers.back().get()) + k_guard_bytes);
  }
}

void guarded_tensors::load(const host_tensors& tensors) {
  for (std::size_t i = 0; i < m_buffers.size(); ++i) {
    const arg_spec& arg = m_spec.m_args[i];
    const std::size_t bytes = m_bytes[i];
    // Every byte of the image is written: the guards, then the payload.
    tensor_bytes image = uninitialized_bytes(bytes + 2 * k_guard_bytes);
    std::memset(image.data(), k_canary_byte, k_guard_bytes);
    std::memset(image.data() + k_guard_bytes + bytes, k_canary_byte, k_guard_bytes);
    unsigned char* payload = image.data() + k_guard_bytes;
    if (arg.m_dir == arg_dir::out) {
      parallel_poison(arg.m_dtype, payload, bytes / size_of(arg.m_dtype));
    } else if (bytes > 0) {
      parallel_copy(payload, tensors.m_data[i].data(), bytes);
    }
    m_device.copy_to_device(m_buffers[i].get(), image.data(), bytes + 2 * k_guard_bytes);
  }
}

void guarded_tensors::load_inputs(const host_tensors& tensors) {
  for (std::size_t i = 0; i < m_buffers.size(); ++i) {
    if (m_spec.m_args[i].m_dir == arg_dir::out || m_bytes[i] == 0) continue;
    m_device.copy_to_device(m_pointers[i], tensors.m_data[i].data(), m_bytes[i]);
  }
}

std::vector<std::vector<unsigned char>> guarded_tensors::download_outputs() {
  std::vector<std::vector<unsigned char>> outputs(m_buffers.size());
  for (std::size_t i = 0; i < m_buffers.size(); ++i) {
    if (m_spec.m_args[i].m_dir != arg_dir::out || m_bytes[i] == 0) continue;
    outputs[i].resize(m_bytes[i]);
    m_device.copy_to_host(outputs[i].data(), m_pointers[i], m_bytes[i]);
  }
  return outputs;
}

void guarded_tensors::upload_outputs(const std::vector<std::vector<unsigned char>>& outputs) {
  for (std::size_t i = 0; i < m_buffers.size() && i < outputs.size(); ++i) {
    if (m_spec.m_args[i].m_dir != arg_dir::out || outputs[i].size() != m_bytes[i] || m_bytes[i] == 0) continue;
    m_device.copy_to_device(m_pointers[i], outputs[i].data(), m_bytes[i]);
  }
}

std::vector<std::string> guarded_tensors::modified_inputs(const host_tensors& tensors) {
  std::vector<std::string> modified;
  for (std::size_t i = 0; i < m_buffers.size(); ++i) {
    if (m_spec.m_args[i].m_dir != arg_dir::in || m_bytes[i] == 0) continue;
    tensor_bytes payload = uninitialized_bytes(m_bytes[i]);
    m_device.copy_to_host(payload.data(), m_pointers[i], m_bytes[i]);
    if (!parallel_equal(payload.data(), tensors.m_data[i].data(), m_bytes[i])) modified.push_back(m_spec.m_args[i].m_name);
  }
  return modified;
}

run_check guarded_tensors::check(const host_tensors& tensors, const expected_outputs& expected) {
  run_check result;
  for (std::size_t i = 0; i < m_buffers.size(); ++i) {
    const arg_spec& arg = m_spec.m_args[i];
    const std::size_t bytes = m_bytes[i];
    tensor_bytes image = uninitialized_bytes(bytes + 2 * k_guard_bytes);
    m_device.copy_to_host(image.data(), m_buffers[i].get(), bytes + 2 * k_guard_bytes);
    const unsigned char* payload = image.data() + k_guard_bytes;
    if (arg.m_dir == arg_dir::in) {
      if (bytes > 0 && !parallel_equal(payload, tensors.m_data[i].data(), bytes)) {
        result.m_modified_inputs.push_back(arg.m_name);
      }
      continue;
    }
    result.m_outputs.push_back(compare_output(arg, tolerance_for(m_spec, arg), image.data(),
                                              bytes / size_of(arg.m_dtype), expected[i].data(),
                                              extents(m_spec, arg, m_shape), arg.m_dir == arg_dir::out));
  }
  return result;
}

}  // namespace kopt
