#include "kopt/profile/bottleneck.hpp"

#include <algorithm>
#include <map>

#include "core/format.hpp"

namespace kopt::profile {

profile_thresholds thresholds_in_use() {
  return {"Nsight Compute rule SOLBottleneck (section SpeedOfLight), file SOLBottleneck.py in the sections/ "
          "folder of the Nsight Compute installation: balanced_threshold = 10, latency_bound_threshold = 60, "
          "no_bound_threshold = 80, waves_threshold = 1",
          {{"latency_below_pct", sol_thresholds::k_latency_below_pct},
           {"high_throughput_at_pct", sol_thresholds::k_high_throughput_pct},
           {"balanced_within_pct", sol_thresholds::k_balanced_within_pct},
           {"small_grid_waves_below", sol_thresholds::k_small_grid_waves_below}}};
}

json to_json(const profile_thresholds& t) {
  json j = json::object();
  if (t.m_source) j["source"] = *t.m_source;
  for (const auto& [name, value] : t.m_values) j[name] = value;
  return j;
}

profile_thresholds thresholds_from_json(const json_reader& node) {
  if (!node.raw().is_object()) node.fail("expected an object (source, then each threshold by name)");
  profile_thresholds t;
  for (const auto& item : node.raw().items()) {
    if (item.key() == "source") {
      t.m_source = node.at("source").as_string();
    } else {
      t.m_values.emplace_back(item.key(), node.at(item.key()).as_number());
    }
  }
  return t;
}

classification classify(const kernel_profile& k) {
  if (!k.m_sol_compute_pct || !k.m_sol_memory_pct) {
    return {"unknown", "", "SOL compute or memory throughput missing (section SpeedOfLight not collected?)"};
  }
  const double sm = *k.m_sol_compute_pct;
  const double mem = *k.m_sol_memory_pct;
  const std::string both = "compute " + format_percent_points(sm) + ", memory " + format_percent_points(mem) + " of peak";
  if (sm >= sol_thresholds::k_high_throughput_pct || mem >= sol_thresholds::k_high_throughput_pct) {
    const bool memory = mem > sm;
    return {memory ? "high-throughput (memory)" : "high-throughput (compute)", "High Throughput",
            both + ": one is >= " + format_number(sol_thresholds::k_high_throughput_pct, 3) + "%"};
  }
  if (sm < sol_thresholds::k_latency_below_pct && mem < sol_thresholds::k_latency_below_pct) {
    // ncu tells a small grid by launch__waves_per_multiprocessor < 1; without
    // it, by fewer blocks than SMs.
    if (k.m_waves_per_sm && *k.m_waves_per_sm < sol_thresholds::k_small_grid_waves_below) {
      return {"small-grid", "Small Grid", both + ", both < 60%, and " + format_number(*k.m_waves_per_sm, 3) + " waves per SM (< 1)"};
    }
    if (!k.m_waves_per_sm && k.m_grid_size && k.m_sm_count && *k.m_grid_size < *k.m_sm_count) {
      return {"small-grid", "Small Grid",
              both + ", both < 60%, and a grid of " + format_number(*k.m_grid_size, 6) + " blocks on " +
                  format_number(*k.m_sm_count, 6) + " SMs"};
    }
    return {"latency-bound", "Latency Issue", both + ": both < 60%"};
  }
  if (std::fabs(sm - mem) >= sol_thresholds::k_balanced_within_pct) {
    if (sm > mem) return {"compute-bound", "High Compute Throughput", both + ": compute leads by >= 10 points"};
    return {"memory-bound", "High Memory Throughput", both + ": memory leads by >= 10 points"};
  }
  return {"balanced", "Balanced Throughput", both + ": within 10 points of each other"};
}

std::vector<std::string> findings(const kernel_profile& k) {
  std::vector<std::string> out;
  if (k.m_theoretical_occupancy_pct && *k.m_theoretical_occupancy_pct < 100) {
    std::string limiter;
    double fewest = 1e300;
    for (const auto& [what, blocks] : k.m_occupancy_limits) {
      if (blocks < fewest) {
        fewest = blocks;
        limiter = what;
      }
    }
    out.push_back("theoretical occupancy " + format_percent_points(*k.m_theoretical_occupancy_pct) +
                  (limiter.empty() ? std::string()
                                   : ", limited by " + limiter + " (" + format_number(fewest, 4) + " blocks per SM)"));
  }
  if (k.m_achieved_occupancy_pct && k.m_theoretical_occupancy_pct &&
      *k.m_achieved_occupancy_pct < *k.m_theoretical_occupancy_pct - 10) {
    out.push_back("achieved occupancy " + format_percent_points(*k.m_achieved_occupancy_pct) + " vs theoretical " +
                  format_percent_points(*k.m_theoretical_occupancy_pct) + ": warps idle (load imbalance, a partial last wave, or "
                  "a short kernel)");
  }
  if (!k.m_stalls.empty()) {
    std::string top;
    for (std::size_t i = 0; i < k.m_stalls.size() && i < 3; ++i) {
      top += (i ? ", " : "") + k.m_stalls[i].m_reason + " " + format_number(k.m_stalls[i].m_cycles_per_issue, 3);
    }
    out.push_back("top warp stalls (cycles per issued instruction): " + top);
  }
  if (k.m_tensor_pipe_pct) {
    out.push_back("tensor pipe (HMMA) active " + format_percent_points(*k.m_tensor_pipe_pct) + " of peak");
  }
  if (k.m_waves_per_sm && *k.m_waves_per_sm < 1) {
    out.push_back(format_number(*k.m_waves_per_sm, 3) + " waves per SM: the grid does not fill the GPU");
  }
  if (k.m_registers_per_thread && *k.m_registers_per_thread > 128) {
    out.push_back(format_number(*k.m_registers_per_thread, 4) + " registers per thread");
  }
  return out;
}

benchmark_summary summarize(const std::vector<kernel_profile>& kernels) {
  benchmark_summary s;
  double total = 0;
  double dram = 0;
  bool all_durations = !kernels.empty();
  bool all_dram = !kernels.empty();
  const kernel_profile* longest = nullptr;
  for (const kernel_profile& k : kernels) {
    if (k.m_duration_ns) {
      total += *k.m_duration_ns;
      if (longest == nullptr || !longest->m_duration_ns || *k.m_duration_ns > *longest->m_duration_ns) longest = &k;
    } else {
      all_durations = false;
    }
    if (k.m_dram_bytes) {
      dram += *k.m_dram_bytes;
    } else {
      all_dram = false;
    }
  }
  if (all_durations) s.m_duration_ns = total;
  if (all_dram) s.m_dram_bytes = dram;
  if (longest == nullptr && !kernels.empty()) longest = &kernels.front();
  if (longest == nullptr) {
    s.m_class = {"unknown", "", "no kernel was profiled"};
    return s;
  }
  s.m_class = classify(*longest);
  s.m_dominant_kernel = longest->m_name;
  s.m_dominant_share = total > 0 && longest->m_duration_ns ? *longest->m_duration_ns / total : 1;
  s.m_findings = findings(*longest);
  if (kernels.size() > 1) {
    s.m_findings.insert(s.m_findings.begin(), std::to_string(kernels.size()) + " kernels; the bottleneck is the longest's (" +
                                                  format_percent_points(100 * s.m_dominant_share) + " of the time)");
  }
  return s;
}

std::string overall_bottleneck(const std::vector<std::string>& per_shape) {
  std::string best;
  int best_count = 0;
  for (const std::string& b : per_shape) {
    const int count = static_cast<int>(std::count(per_shape.begin(), per_shape.end(), b));
    if (count > best_count) {
      best = b;
      best_count = count;
    }
  }
  return best.empty() ? "unknown" : best;
}

}  // namespace kopt::profile
