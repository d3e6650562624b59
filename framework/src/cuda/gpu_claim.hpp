// Which GPU a process runs on, and its claim on that GPU.
//
// CTest's resource allocation (RESOURCE_GROUPS, docs/multi-gpu.md) decides
// which GPU a generated test gets. The claim makes sure that no two KernelOpt
// processes time kernels on one GPU at once even where CTest cannot: ctest
// run without a resource spec file (every test then gets GPU 0), two build
// trees tested at the same time, `kopt optimize` beside `ctest`. It is a
// flock(2) on <lock dir>/kernelopt-gpu-<uuid>.lock: exclusive for whatever
// times (benchmarks, ceilings), shared for correctness runs, which may share
// a GPU with each other but not with a benchmark. The kernel drops the lock
// when the process ends, however it ends.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "core/json_io.hpp"
#include "formats/gpu.hpp"

namespace kopt::cuda {

struct gpu_identity {
  int m_index = 0;                 // CUDA ordinal as this process sees it
  std::string m_name;
  std::string m_uuid;              // "GPU-xxxxxxxx-...": stable across processes and CUDA_VISIBLE_DEVICES
  std::string m_pci_bus_id;        // "0000:1B:00.0"
  std::string m_ctest_allocation;  // CTEST_RESOURCE_GROUP_0_GPUS, "" when CTest allocated nothing
};

// REQUIRES: `device` is a visible CUDA ordinal.
[[nodiscard]] gpu_identity identify(int device);
// What a results file says of it (formats/gpu.hpp): "unknown" for what
// could not be read.
[[nodiscard]] gpu_info describe(const gpu_identity& gpu);

enum class claim_mode { shared, exclusive };

// $KOPT_GPU_LOCK_DIR, else /tmp (not TMPDIR: processes with different
// TMPDIRs must still see one lock).
[[nodiscard]] std::filesystem::path lock_directory();
[[nodiscard]] std::filesystem::path lock_path(const gpu_identity& gpu);

class gpu_claim {
 public:
  // Blocks until granted; says on stderr whom it waits for when it must wait.
  // Throws std::runtime_error when the lock file cannot be opened.
  gpu_claim(const gpu_identity& gpu, claim_mode mode);
  // Without waiting: std::nullopt when another process holds a conflicting claim.
  [[nodiscard]] static std::optional<gpu_claim> try_claim(const gpu_identity& gpu, claim_mode mode);
  gpu_claim(gpu_claim&& other) noexcept;
  gpu_claim& operator=(gpu_claim&& other) noexcept;
  gpu_claim(const gpu_claim&) = delete;
  gpu_claim& operator=(const gpu_claim&) = delete;
  ~gpu_claim();

  [[nodiscard]] double waited_s() const { return m_waited_s; }
  [[nodiscard]] std::int64_t granted_unix_ns() const { return m_granted_unix_ns; }
  // What a results file says of it (formats/gpu.hpp).
  [[nodiscard]] gpu_claim_info info() const;

 private:
  gpu_claim() = default;
  // The lock file open, nothing locked yet; throws when it cannot be opened.
  [[nodiscard]] static gpu_claim opened(const gpu_identity& gpu, claim_mode mode);
  void release() noexcept;

  int m_fd = -1;
  claim_mode m_mode = claim_mode::shared;
  std::filesystem::path m_path;
  double m_waited_s = 0.0;
  std::int64_t m_granted_unix_ns = 0;
};

}  // namespace kopt::cuda
