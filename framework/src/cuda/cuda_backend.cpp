#include "cuda/cuda_backend.hpp"

#include <cuda_runtime_api.h>

#include <cstdlib>
#include <optional>
#include <string>

#include "core/cuda_arch.hpp"
#include "cuda/gpu_claim.hpp"
#include "cuda/owned.hpp"

#include "kernelopt/detail/mains.hpp"

namespace kopt::cuda {
namespace {

class cuda_backend final : public backend {
 public:
  explicit cuda_backend(int device) : m_device(device) {}
  ~cuda_backend() override {
    if (m_stream != nullptr) cudaStreamDestroy(m_stream);
  }

  [[nodiscard]] backend_kind kind() const override { return backend_kind::cuda; }

  [[nodiscard]] std::string unavailable_reason() override {
    int count = 0;
    const cudaError_t status = cudaGetDeviceCount(&count);
    if (status != cudaSuccess) {
      return std::string("no CUDA device visible: ") + cudaGetErrorName(status) + ": " +
             cudaGetErrorString(status);
    }
    if (count == 0) return "no CUDA device visible: cudaGetDeviceCount returned 0";
    if (m_device >= count) {
      return "CUDA device " + std::to_string(m_device) + " not visible (" + std::to_string(count) +
             " visible)";
    }
    return {};
  }

  [[nodiscard]] std::string cannot_run(const impl_spec& impl) override {
    if (impl.m_backend != backend_kind::cuda) return {};
    cudaDeviceProp prop{};
    if (cudaGetDeviceProperties(&prop, m_device) != cudaSuccess) return {};
    return cuda_arch_mismatch(impl.m_cuda_archs, prop.major, prop.minor);
  }

  [[nodiscard]] std::string device_name() override {
    cudaDeviceProp prop{};
    if (cudaGetDeviceProperties(&prop, m_device) != cudaSuccess) return "unknown CUDA device";
    return prop.name;
  }
  [[nodiscard]] int device_index() const override { return m_device; }
  [[nodiscard]] std::optional<gpu_info> identity() override { return describe(identify(m_device)); }
  std::optional<gpu_claim_info> claim(bool exclusive) override {
    if (!m_claim) m_claim.emplace(identify(m_device), exclusive ? claim_mode::exclusive : claim_mode::shared);
    return m_claim->info();
  }

  [[nodiscard]] void* allocate(std::size_t bytes) override {
    activate();
    void* pointer = nullptr;
    check(cudaMalloc(&pointer, bytes), "cudaMalloc", "allocating " + std::to_string(bytes) + " bytes");
    return pointer;
  }
  void release(void* pointer) noexcept override {
    // On this backend's device whatever the current one is; after a sticky
    // error (illegal address) nothing can be freed and the process is done.
    cudaSetDevice(m_device);
    cudaFree(pointer);
  }
  // Copies go on the harness's own stream, then wait for it. A plain
  // cudaMemcpy from pageable memory may return before its DMA has landed,
  // and it is ordered only against the legacy default stream, not against
  // this non-blocking one: under load (seen on an H200 with ctest -j8) the
  // tail of the poison upload landed after the variant had written its
  // output, and 260 rows read as never written.
  void copy_to_device(void* dst, const void* src, std::size_t bytes) override {
    copy(dst, src, bytes, cudaMemcpyHostToDevice, "copying inputs to the device");
  }
  void copy_to_host(void* dst, const void* src, std::size_t bytes) override {
    copy(dst, src, bytes, cudaMemcpyDeviceToHost, "copying outputs to the host");
  }
  [[nodiscard]] void* stream() override {
    activate();
    if (m_stream == nullptr) {
      check(cudaStreamCreateWithFlags(&m_stream, cudaStreamNonBlocking), "cudaStreamCreateWithFlags",
            "creating the harness stream");
    }
    return m_stream;
  }
  void synchronize(const std::string& what) override {
    activate();
    // A launch error (bad configuration) is reported by cudaGetLastError,
    // an execution error (illegal address) by the synchronization.
    check(cudaGetLastError(), "cudaGetLastError", what);
    check(cudaDeviceSynchronize(), "cudaDeviceSynchronize", what);
  }

 private:
  void activate() { check(cudaSetDevice(m_device), "cudaSetDevice", "selecting the GPU"); }
  void copy(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind, const std::string& what) {
    const auto s = static_cast<cudaStream_t>(stream());
    check(cudaMemcpyAsync(dst, src, bytes, kind, s), "cudaMemcpyAsync", what);
    check(cudaStreamSynchronize(s), "cudaStreamSynchronize", what);
  }

  int m_device;
  cudaStream_t m_stream = nullptr;
  std::optional<gpu_claim> m_claim;  // held until the backend goes, at process end
};

}  // namespace

void check(int status, const char* call, const std::string& what) {
  const auto error = static_cast<cudaError_t>(status);
  if (error == cudaSuccess) return;
  throw device_error(what + ": " + call + ": " + cudaGetErrorName(error) + ": " + cudaGetErrorString(error));
}

int assigned_device() {
  // CTest sets CTEST_RESOURCE_GROUP_COUNT and, per group,
  // CTEST_RESOURCE_GROUP_<i>_GPUS="id:<id>,slots:<n>".
  const char* value = std::getenv("CTEST_RESOURCE_GROUP_0_GPUS");
  if (value == nullptr) return 0;
  const std::string text = value;
  const std::size_t id = text.find("id:");
  if (id == std::string::npos) return 0;
  return std::atoi(text.c_str() + id + 3);
}

std::unique_ptr<backend> make_backend(int device) { return std::make_unique<cuda_backend>(device); }

device_memory allocate_device(std::size_t bytes, const std::string& what) {
  void* pointer = nullptr;
  check(cudaMalloc(&pointer, bytes), "cudaMalloc", what + " (" + std::to_string(bytes) + " bytes)");
  return device_memory(pointer);
}

pinned_memory allocate_pinned(std::size_t bytes, unsigned flags, const std::string& what) {
  void* pointer = nullptr;
  check(cudaHostAlloc(&pointer, bytes, flags), "cudaHostAlloc", what + " (" + std::to_string(bytes) + " bytes)");
  return pinned_memory(pointer);
}

owned_event create_event(const std::string& what) {
  cudaEvent_t event = nullptr;
  check(cudaEventCreate(&event), "cudaEventCreate", what);
  return owned_event(event);
}

}  // namespace kopt::cuda

namespace kopt::cuda {
std::unique_ptr<backend> make_default_backend() { return make_backend(assigned_device()); }
}  // namespace kopt::cuda
