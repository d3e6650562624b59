#include "kopt/run/gpu_schedule.hpp"

#include <algorithm>

#include "formats/bench_result.hpp"

namespace kopt {

json resource_spec(const std::vector<spec_gpu>& gpus, int slots) {
  json list = json::array();
  for (const spec_gpu& gpu : gpus) list.push_back({{"id", gpu.m_id}, {"slots", slots}});
  return {{"version", {{"major", 1}, {"minor", 0}}}, {"local", json::array({{{"gpus", list}}})}};
}

gpu_interval read_gpu_interval(const std::filesystem::path& bench_json) {
  const json doc = read_json_file(bench_json);
  const json_reader k = json_reader(doc, bench_json.string()).at("kopt");
  const bench_header header = bench_header_from_json(k);
  if (!header.m_gpu) k.at("gpu").fail("null: the benchmark names no GPU");  // "missing" when absent
  const gpu_info& gpu = *header.m_gpu;
  gpu_interval interval;
  interval.m_file = bench_json.string();
  for (const std::optional<std::string>& id : {gpu.m_uuid, gpu.m_pci_bus_id}) {
    if (id && *id != "unknown") {
      interval.m_gpu = *id;
      break;
    }
  }
  if (interval.m_gpu.empty()) interval.m_gpu = "index " + std::to_string(gpu.m_index);
  if (gpu.m_ctest_allocation) interval.m_ctest_allocation = *gpu.m_ctest_allocation;
  if (!header.m_started_unix_ns) (void)k.at("started_unix_ns").as_non_negative_integer();  // names the field
  if (!header.m_finished_unix_ns) (void)k.at("finished_unix_ns").as_non_negative_integer();
  interval.m_start_ns = *header.m_started_unix_ns;
  interval.m_end_ns = *header.m_finished_unix_ns;
  if (interval.m_end_ns < interval.m_start_ns) k.at("finished_unix_ns").fail("earlier than started_unix_ns");
  return interval;
}

intervals_by_gpu group_by_gpu(const std::vector<gpu_interval>& intervals) {
  intervals_by_gpu by_gpu;
  for (const gpu_interval& i : intervals) by_gpu[i.m_gpu].push_back(&i);
  for (auto& [gpu, list] : by_gpu) {
    std::sort(list.begin(), list.end(),
              [](const gpu_interval* a, const gpu_interval* b) { return a->m_start_ns < b->m_start_ns; });
  }
  return by_gpu;
}

std::vector<interval_overlap> find_overlaps(const std::vector<gpu_interval>& intervals) {
  std::vector<interval_overlap> overlaps;
  for (const auto& [gpu, list] : group_by_gpu(intervals)) {
    // Every earlier interval still running when a later one starts overlaps
    // it; intervals that merely touch (end == start) do not.
    for (std::size_t j = 1; j < list.size(); ++j) {
      for (std::size_t i = 0; i < j; ++i) {
        const std::int64_t shared = std::min(list[i]->m_end_ns, list[j]->m_end_ns) - list[j]->m_start_ns;
        if (shared > 0) overlaps.push_back({list[i], list[j], shared});
      }
    }
  }
  std::sort(overlaps.begin(), overlaps.end(), [](const interval_overlap& a, const interval_overlap& b) {
    return a.m_second->m_start_ns < b.m_second->m_start_ns;
  });
  return overlaps;
}

}  // namespace kopt
