// NVML, loaded at run time (dlopen "libnvidia-ml.so.1", the driver's
// library; the toolkit has no nvml.h here and the benchmark must run where
// NVML is absent). Only reads: clocks are never changed.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/json_io.hpp"
#include "formats/clocks.hpp"

namespace kopt::cuda::nvml {

enum class clock { sm = 1, memory = 2 };  // nvmlClockType_t: NVML_CLOCK_SM, NVML_CLOCK_MEM

using device_handle = void*;  // nvmlDevice_t

// Loaded and initialized once per process, on first use; never shut down.
// Every query returns std::nullopt and says why in `why` when it fails.
class library {
 public:
  [[nodiscard]] static const library& get();
  [[nodiscard]] bool loaded() const { return m_error.empty(); }
  [[nodiscard]] const std::string& error() const { return m_error; }

  [[nodiscard]] std::optional<std::string> driver_version(std::string& why) const;
  // The NVML device of a CUDA ordinal, found by PCI bus id, else by UUID.
  [[nodiscard]] std::optional<device_handle> device(int cuda_device, std::string& why) const;
  // Current (`max` false) or maximum clock in MHz.
  [[nodiscard]] std::optional<int> clock_mhz(device_handle device, clock which, bool max, std::string& why) const;
  // nvmlDeviceGetCurrentClocksEventReasons (or the older ...ThrottleReasons).
  [[nodiscard]] std::optional<std::uint64_t> clock_event_reasons(device_handle device, std::string& why) const;

  library(const library&) = delete;
  library& operator=(const library&) = delete;

 private:
  library();
  [[nodiscard]] std::string error_text(const char* call, int status) const;

  std::string m_error;
  void* m_handle = nullptr;
  using error_string_fn = const char* (*)(int);
  using driver_version_fn = int (*)(char*, unsigned);
  using by_string_fn = int (*)(const char*, device_handle*);
  using clock_fn = int (*)(device_handle, int, unsigned*);
  using reasons_fn = int (*)(device_handle, unsigned long long*);
  error_string_fn m_error_string = nullptr;
  driver_version_fn m_driver_version = nullptr;
  by_string_fn m_by_pci = nullptr;
  by_string_fn m_by_uuid = nullptr;
  clock_fn m_clock = nullptr;
  clock_fn m_max_clock = nullptr;
  reasons_fn m_reasons = nullptr;
  const char* m_reasons_name = "";
};

// "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" (nvidia-smi's form) from the
// 16 bytes of cudaDeviceProp::uuid.
[[nodiscard]] std::string uuid_text(const char* bytes);

// NVML's clock event reason bits, named as nvml.h names them, lower case
// ("sw_power_cap"); an unknown bit is written in hex.
[[nodiscard]] std::vector<std::string> reason_names(std::uint64_t mask);
// Whether a reason holds the clock down: every reason but GPU idle and the
// applications-clocks setting.
[[nodiscard]] bool holds_clock_down(std::uint64_t mask);
[[nodiscard]] bool is_idle(std::uint64_t mask);

}  // namespace kopt::cuda::nvml

namespace kopt::cuda {

// The SM clock of one GPU over a benchmark: read at begin(), at most every
// k_poll_interval_s from poll() (called between samples, outside timing),
// and at finish(). Throttled when a reason that holds the clock down was
// active at any reading, or when a reading taken while the GPU was not idle
// was more than 5% below the maximum SM clock.
class clock_monitor {
 public:
  static constexpr double k_poll_interval_s = 0.1;
  static constexpr double k_max_drop = 0.05;

  explicit clock_monitor(int cuda_device);
  void begin();
  void poll();
  void finish();
  // The per-benchmark "clock" (formats/clocks.hpp): values unknown, with
  // the reason, when NVML cannot tell.
  [[nodiscard]] clock_window window() const;
  [[nodiscard]] bool throttled() const;

 private:
  void read();
  [[nodiscard]] json unknown_reason() const;

  std::optional<nvml::device_handle> m_device;
  std::string m_why;
  std::optional<int> m_limit_mhz;
  std::optional<int> m_min_mhz;
  std::optional<int> m_max_mhz;
  std::uint64_t m_seen_reasons = 0;
  bool m_clock_held_down = false;
  bool m_clock_dropped = false;
  std::size_t m_readings = 0;
  double m_last_read_s = -1e30;
};

}  // namespace kopt::cuda
