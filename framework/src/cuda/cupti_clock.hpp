// The second clock: CUPTI activity records of every kernel (and memcpy /
// memset) an implementation put on the GPU, on any stream, with the device's
// own start and end timestamps. Launches are tied to a sample by an external
// correlation id pushed around the implementation's launch; the timer's own
// flush and spin kernels are launched outside it and so never counted.
//
// One pass: begin(), then per sample push(id) / launch / pop(), flush() now
// and then to read what has completed, end(). Costs host time per API call
// and is never on while the headline (event) clock samples.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace kopt::cuda {

struct kernel_summary {
  std::string m_name;  // demangled
  std::array<int, 3> m_grid{};
  std::array<int, 3> m_block{};
  int m_registers = 0;       // per thread
  int m_static_smem = 0;     // bytes per block
  int m_dynamic_smem = 0;
  std::uint32_t m_stream = 0;  // CUPTI's stream id
  double m_median_ns = 0;      // median duration of one launch
  double m_launches_per_sample = 0;
};

// One launch as CUPTI recorded it (internal, exposed for the store).
struct device_op {
  bool m_kernel = false;  // else a memcpy or memset
  std::string m_name;
  std::array<int, 3> m_grid{};
  std::array<int, 3> m_block{};
  int m_registers = 0;
  int m_static_smem = 0;
  int m_dynamic_smem = 0;
  std::uint32_t m_stream = 0;
  std::uint64_t m_start = 0;
  std::uint64_t m_end = 0;
  std::uint32_t m_correlation = 0;
};

class cupti_clock {
 public:
  cupti_clock() = default;
  ~cupti_clock();
  cupti_clock(const cupti_clock&) = delete;
  cupti_clock& operator=(const cupti_clock&) = delete;

  // Enables the activity kinds. Empty on success, else why CUPTI cannot be
  // used here (e.g. another profiler is attached); nothing is enabled then.
  [[nodiscard]] std::string begin();
  // Marks every CUDA call of this thread until pop() as part of `sample`.
  void push(std::uint64_t sample);
  void pop();
  // Delivers the records completed so far. REQUIRES: the launches waited for.
  void flush();
  // Synchronizes the device, delivers every record, disables the kinds.
  void end();

  // First start to last end of `sample`'s device work, from what has been
  // delivered so far; empty when nothing of it has been.
  [[nodiscard]] std::optional<double> span_ns(std::uint64_t sample) const;
  // Kernels grouped by name, grid, block, resources and stream, in order of
  // first launch.
  [[nodiscard]] std::vector<kernel_summary> kernels() const;
  // Records CUPTI reported dropped during this pass (buffers full).
  [[nodiscard]] std::size_t dropped() const;

 private:
  void take_records();

  bool m_active = false;
  std::uint64_t m_pass = 0;
  std::unordered_map<std::uint32_t, std::uint64_t> m_sample_of;  // correlation id -> sample
  std::vector<device_op> m_pending;                              // not yet tied to a sample
  std::map<std::uint64_t, std::pair<std::uint64_t, std::uint64_t>> m_spans;  // sample -> first start, last end
  std::vector<device_op> m_kernels;                                         // tied to a sample
};

// RAII push/pop around one launch.
class correlation_scope {
 public:
  correlation_scope(cupti_clock& clock, std::uint64_t sample) : m_clock(clock) { m_clock.push(sample); }
  ~correlation_scope() { m_clock.pop(); }
  correlation_scope(const correlation_scope&) = delete;
  correlation_scope& operator=(const correlation_scope&) = delete;

 private:
  cupti_clock& m_clock;
};

}  // namespace kopt::cuda
