// Where an implementation runs: memory, copies, the stream, and errors.
// The harness (correctness, benchmarks) talks only to this interface; the
// host backend is here, the CUDA backend in framework/src/cuda.
#pragma once

#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>

#include <optional>

#include "core/json_io.hpp"
#include "formats/gpu.hpp"
#include "harness/tensor_memory.hpp"  // k_device_alignment
#include "kernelopt/detail/kernel_spec.hpp"

namespace kopt {

// A failure reported by the device after a launch (a CUDA error): the
// current trial fails with this text; the process may not be usable after.
class device_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class backend {
 public:
  virtual ~backend() = default;
  [[nodiscard]] virtual backend_kind kind() const = 0;
  // Empty when the backend can run; otherwise the reason it cannot
  // (printed as the skip reason, e.g. "no CUDA device visible: ...").
  [[nodiscard]] virtual std::string unavailable_reason() = 0;
  // Empty when `impl` can run on this device; otherwise why not (its
  // device code was built for other architectures). REQUIRES:
  // unavailable_reason() is empty.
  [[nodiscard]] virtual std::string cannot_run(const impl_spec& impl) {
    (void)impl;
    return {};
  }
  [[nodiscard]] virtual std::string device_name() = 0;
  [[nodiscard]] virtual int device_index() const = 0;
  // The device, for results files (formats/gpu.hpp); nullopt for the host.
  [[nodiscard]] virtual std::optional<gpu_info> identity() = 0;
  // Takes the device for the rest of the process: shared for correctness
  // runs, exclusive for timing (cuda/gpu_claim.hpp). Returns what was taken,
  // nullopt when there is nothing to take (the host).
  // REQUIRES: unavailable_reason() is empty.
  virtual std::optional<gpu_claim_info> claim(bool exclusive) = 0;

  [[nodiscard]] virtual void* allocate(std::size_t bytes) = 0;
  virtual void release(void* pointer) noexcept = 0;
  virtual void copy_to_device(void* dst, const void* src, std::size_t bytes) = 0;
  virtual void copy_to_host(void* dst, const void* src, std::size_t bytes) = 0;
  // cudaStream_t for CUDA, nullptr for the host backend.
  [[nodiscard]] virtual void* stream() = 0;
  // Waits for all queued work; throws device_error naming `what` if it failed.
  virtual void synchronize(const std::string& what) = 0;
};

[[nodiscard]] std::unique_ptr<backend> make_host_backend();

// Why `impl` has no invoke function: its module's load error, or not in
// this build.
[[nodiscard]] std::string not_loaded(const impl_spec& impl);

// Why `impl` does not run here: not in this build (impl_spec::m_skip_reason)
// or not on this device (backend::cannot_run). Empty when it runs.
[[nodiscard]] std::string skip_reason(const impl_spec& impl, backend& device);

// Owns one allocation of a backend.
class device_buffer {
 public:
  device_buffer() = default;
  device_buffer(backend& owner, std::size_t bytes)
      : m_owner(&owner), m_pointer(owner.allocate(bytes)), m_bytes(bytes) {}
  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;
  device_buffer(device_buffer&& other) noexcept { *this = std::move(other); }
  device_buffer& operator=(device_buffer&& other) noexcept {
    reset();
    m_owner = other.m_owner;
    m_pointer = other.m_pointer;
    m_bytes = other.m_bytes;
    other.m_pointer = nullptr;
    other.m_bytes = 0;
    return *this;
  }
  ~device_buffer() { reset(); }

  [[nodiscard]] void* get() const { return m_pointer; }
  [[nodiscard]] std::size_t bytes() const { return m_bytes; }

 private:
  void reset() noexcept {
    if (m_pointer != nullptr) m_owner->release(m_pointer);
    m_pointer = nullptr;
  }
  backend* m_owner = nullptr;
  void* m_pointer = nullptr;
  std::size_t m_bytes = 0;
};

}  // namespace kopt
