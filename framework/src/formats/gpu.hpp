// Which GPU a process ran on, and the per-GPU lock it held: the `gpu` and
// `claim` objects of the correctness result and of the benchmark result's
// top-level `kopt`, which a record keeps as `timing.gpu`. One type for the
// writer (the backend's identity() and claim(): cuda/gpu_claim.hpp fills
// them in) and every reader (kopt record, perf, baseline, overlap, shard,
// report). The host backend has neither: null in the file, nullopt here.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/json_io.hpp"
#include "formats/field_doc.hpp"

namespace kopt {

struct gpu_info {
  std::int64_t m_index = 0;  // CUDA ordinal as the process saw it
  // "unknown" when the probe could not read it; nullopt: absent from the
  // file (hand-written or older files), and then left out when written.
  std::optional<std::string> m_name;
  std::optional<std::string> m_uuid;        // "GPU-...": stable across processes and CUDA_VISIBLE_DEVICES
  std::optional<std::string> m_pci_bus_id;  // "0000:1B:00.0"
  std::optional<std::string> m_ctest_allocation;  // CTEST_RESOURCE_GROUP_0_GPUS; nullopt (null): none

  // The UUID as written ("unknown" included), "" when absent: what
  // identifies the board.
  [[nodiscard]] std::string uuid_or_empty() const { return m_uuid.value_or(""); }
};

struct gpu_claim_info {
  std::string m_mode;  // shared | exclusive
  std::string m_lock;  // the lock file
  double m_waited_s = 0;
  std::int64_t m_granted_unix_ns = 0;
};

[[nodiscard]] json to_json(const gpu_info& gpu);
[[nodiscard]] json to_json(const gpu_claim_info& claim);
[[nodiscard]] json to_json(const std::optional<gpu_info>& gpu);          // null when nullopt
[[nodiscard]] json to_json(const std::optional<gpu_claim_info>& claim);  // null when nullopt
// `node` is the object, or null (nullopt). Other keys are ignored. Throws
// format_error naming the file and the JSON pointer of the field.
[[nodiscard]] std::optional<gpu_info> gpu_info_from_json(const json_reader& node);
[[nodiscard]] std::optional<gpu_claim_info> gpu_claim_from_json(const json_reader& node);

// Tables (docs/formats.md): `gpu` and `claim`.
[[nodiscard]] std::vector<format_table> gpu_tables();

}  // namespace kopt
