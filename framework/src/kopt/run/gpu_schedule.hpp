// How tests share GPUs (docs/multi-gpu.md): the CTest resource spec that
// `kopt resources` writes, and the check `kopt overlap` makes that no two
// benchmark runs held one GPU at the same time.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "core/json_io.hpp"

namespace kopt {

struct spec_gpu {
  std::string m_id;    // CUDA ordinal as text: what CTEST_RESOURCE_GROUP_0_GPUS names
  std::string m_name;  // for the listing only
  std::string m_uuid;
};

// CTest's resource spec file (version 1.0): one "gpus" resource per GPU with
// `slots` slots. REQUIRES: slots >= 1.
[[nodiscard]] json resource_spec(const std::vector<spec_gpu>& gpus, int slots);

// One benchmark process's hold on a GPU, from its bench JSON.
struct gpu_interval {
  std::string m_file;
  std::string m_gpu;  // uuid (else PCI bus id, else index)
  std::string m_ctest_allocation;
  std::int64_t m_start_ns = 0;
  std::int64_t m_end_ns = 0;
};

// Throws format_error naming the file and the field when one is missing.
[[nodiscard]] gpu_interval read_gpu_interval(const std::filesystem::path& bench_json);

// The intervals of each GPU, in start order.
using intervals_by_gpu = std::map<std::string, std::vector<const gpu_interval*>>;
[[nodiscard]] intervals_by_gpu group_by_gpu(const std::vector<gpu_interval>& intervals);

struct interval_overlap {
  const gpu_interval* m_first;
  const gpu_interval* m_second;
  std::int64_t m_overlap_ns;
};

// Pairs of intervals on one GPU that share time, in start order.
[[nodiscard]] std::vector<interval_overlap> find_overlaps(const std::vector<gpu_interval>& intervals);

}  // namespace kopt
