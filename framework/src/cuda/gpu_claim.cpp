#include "cuda/gpu_claim.hpp"

#include <cuda_runtime_api.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include "core/unix_time.hpp"
#include "cuda/nvml.hpp"

namespace kopt::cuda {
namespace {

const char* mode_name(claim_mode mode) { return mode == claim_mode::exclusive ? "exclusive" : "shared"; }

int lock_operation(claim_mode mode) { return mode == claim_mode::exclusive ? LOCK_EX : LOCK_SH; }

// Opens (creating) the lock file; -1 with errno on failure. Mode 0666 so that
// users sharing a machine share the lock.
int open_lock(const std::filesystem::path& path) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
  if (fd >= 0) ::fchmod(fd, 0666);  // the umask narrowed it; a failure only narrows who shares it
  return fd;
}

// flock, retried when a signal interrupts it.
int flock_retrying(int fd, int operation) {
  int status = 0;
  do {
    status = ::flock(fd, operation);
  } while (status != 0 && errno == EINTR);
  return status;
}

}  // namespace

gpu_identity identify(int device) {
  gpu_identity gpu;
  gpu.m_index = device;
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, device) == cudaSuccess) {
    gpu.m_name = prop.name;
    gpu.m_uuid = nvml::uuid_text(prop.uuid.bytes);
  }
  char bus_id[64] = {};
  if (cudaDeviceGetPCIBusId(bus_id, sizeof bus_id, device) == cudaSuccess) gpu.m_pci_bus_id = bus_id;
  if (const char* allocation = std::getenv("CTEST_RESOURCE_GROUP_0_GPUS")) gpu.m_ctest_allocation = allocation;
  return gpu;
}

gpu_info describe(const gpu_identity& gpu) {
  auto text_or_unknown = [](const std::string& text) { return text.empty() ? std::string("unknown") : text; };
  gpu_info info;
  info.m_index = gpu.m_index;
  info.m_name = text_or_unknown(gpu.m_name);
  info.m_uuid = text_or_unknown(gpu.m_uuid);
  info.m_pci_bus_id = text_or_unknown(gpu.m_pci_bus_id);
  if (!gpu.m_ctest_allocation.empty()) info.m_ctest_allocation = gpu.m_ctest_allocation;
  return info;
}

std::filesystem::path lock_directory() {
  const char* dir = std::getenv("KOPT_GPU_LOCK_DIR");
  return dir != nullptr && *dir != '\0' ? std::filesystem::path(dir) : std::filesystem::path("/tmp");
}

std::filesystem::path lock_path(const gpu_identity& gpu) {
  // The UUID names the physical GPU whatever CUDA_VISIBLE_DEVICES renumbers;
  // the PCI bus id, then the ordinal, only when the UUID cannot be read.
  std::string key = !gpu.m_uuid.empty() ? gpu.m_uuid
                    : !gpu.m_pci_bus_id.empty() ? "pci-" + gpu.m_pci_bus_id
                                                : "index-" + std::to_string(gpu.m_index);
  for (char& c : key) {
    if (c == ':' || c == '/') c = '_';
  }
  return lock_directory() / ("kernelopt-gpu-" + key + ".lock");
}

gpu_claim gpu_claim::opened(const gpu_identity& gpu, claim_mode mode) {
  gpu_claim claim;
  claim.m_mode = mode;
  claim.m_path = lock_path(gpu);
  claim.m_fd = open_lock(claim.m_path);
  if (claim.m_fd < 0) {
    throw std::runtime_error("cannot open the GPU lock " + claim.m_path.string() + ": " + std::strerror(errno) +
                             " (set KOPT_GPU_LOCK_DIR to a writable directory)");
  }
  return claim;
}

gpu_claim::gpu_claim(const gpu_identity& gpu, claim_mode mode) : gpu_claim(opened(gpu, mode)) {
  const auto start = std::chrono::steady_clock::now();
  if (flock_retrying(m_fd, lock_operation(mode) | LOCK_NB) != 0) {
    std::fprintf(stderr,
                 "[kernelopt] waiting for GPU %d (%s): another KernelOpt process holds %s; this one needs it %s\n",
                 gpu.m_index, gpu.m_uuid.c_str(), m_path.c_str(),
                 mode == claim_mode::exclusive ? "alone (timing)" : "shared (correctness)");
    std::fflush(stderr);
    if (flock_retrying(m_fd, lock_operation(mode)) != 0) {
      const std::string why = std::strerror(errno);
      release();
      throw std::runtime_error("cannot lock " + m_path.string() + ": " + why);
    }
  }
  m_waited_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  m_granted_unix_ns = unix_now_ns();
}

std::optional<gpu_claim> gpu_claim::try_claim(const gpu_identity& gpu, claim_mode mode) {
  gpu_claim claim = opened(gpu, mode);
  if (flock_retrying(claim.m_fd, lock_operation(mode) | LOCK_NB) != 0) return std::nullopt;
  claim.m_granted_unix_ns = unix_now_ns();
  return claim;
}

gpu_claim::gpu_claim(gpu_claim&& other) noexcept { *this = std::move(other); }

gpu_claim& gpu_claim::operator=(gpu_claim&& other) noexcept {
  if (this != &other) {
    release();
    m_fd = other.m_fd;
    m_mode = other.m_mode;
    m_path = std::move(other.m_path);
    m_waited_s = other.m_waited_s;
    m_granted_unix_ns = other.m_granted_unix_ns;
    other.m_fd = -1;
  }
  return *this;
}

gpu_claim::~gpu_claim() { release(); }

void gpu_claim::release() noexcept {
  if (m_fd >= 0) ::close(m_fd);  // closing the only descriptor drops the flock
  m_fd = -1;
}

gpu_claim_info gpu_claim::info() const {
  return {mode_name(m_mode), m_path.string(), m_waited_s, m_granted_unix_ns};
}

}  // namespace kopt::cuda
