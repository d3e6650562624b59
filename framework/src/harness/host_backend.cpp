#include <cstdlib>
#include <cstring>
#include <new>

#include "harness/backend.hpp"
#include "harness/host_memory.hpp"

namespace kopt {
namespace {

// Plain host memory; "device" and host are the same address space, so the
// copies are memcpy and there is nothing to synchronize.
class host_backend final : public backend {
 public:
  [[nodiscard]] backend_kind kind() const override { return backend_kind::host; }
  [[nodiscard]] std::string unavailable_reason() override { return {}; }
  [[nodiscard]] std::string device_name() override { return "host CPU"; }
  [[nodiscard]] int device_index() const override { return -1; }
  [[nodiscard]] std::optional<gpu_info> identity() override { return std::nullopt; }
  std::optional<gpu_claim_info> claim(bool) override { return std::nullopt; }

  // Aligned as cudaMalloc's, with 256 bytes to spare past the end, from
  // the harness's tensor memory (host_memory.hpp).
  [[nodiscard]] void* allocate(std::size_t bytes) override {
    return allocate_tensor_memory(((bytes + k_device_alignment - 1) / k_device_alignment + 1) * k_device_alignment);
  }
  void release(void* pointer) noexcept override { release_tensor_memory(pointer); }
  void copy_to_device(void* dst, const void* src, std::size_t bytes) override { std::memcpy(dst, src, bytes); }
  void copy_to_host(void* dst, const void* src, std::size_t bytes) override { std::memcpy(dst, src, bytes); }
  [[nodiscard]] void* stream() override { return nullptr; }
  void synchronize(const std::string&) override {}
};

}  // namespace

std::unique_ptr<backend> make_host_backend() { return std::make_unique<host_backend>(); }

std::string not_loaded(const impl_spec& impl) {
  if (!impl.m_load_error.empty()) return impl.m_load_error;
  if (!impl.m_skip_reason.empty()) return impl.m_name + " is not built: " + impl.m_skip_reason;
  return impl.m_name + " has no invoke function (its module was not loaded)";
}

std::string skip_reason(const impl_spec& impl, backend& device) {
  if (!impl.m_skip_reason.empty()) return "not built: " + impl.m_skip_reason;
  const std::string why = device.cannot_run(impl);
  return why.empty() ? why : "cannot run on " + device.device_name() + ": " + why;
}

}  // namespace kopt
