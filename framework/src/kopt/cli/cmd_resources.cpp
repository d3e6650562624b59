// kopt resources: CTest's resource spec file for this machine's GPUs
// (docs/multi-gpu.md). Each GPU becomes one "gpus" resource of --slots
// slots; generated correctness tests ask for one slot and benchmarks and
// perf tests for all of them, so --slots must equal the build's
// KernelOpt_GPU_SLOTS. With no GPU visible it lists one placeholder GPU,
// so that ctest still schedules the GPU tests and they skip with their own
// reason instead of failing for want of resources.
#include <algorithm>
#include <ostream>
#include <sstream>

#include "kopt/cli/commands.hpp"
#include "kopt/run/gpu_schedule.hpp"
#include "kopt/run/environment.hpp"

namespace kopt::cli {
namespace {

std::vector<spec_gpu> visible_gpus(const env_file& env) {
  std::vector<spec_gpu> gpus;
  for (const env_device& d : env.m_devices) gpus.push_back({std::to_string(d.m_index), d.m_name, d.m_uuid});
  return gpus;
}

// --devices 0,2: the listed ordinals, each of which must be visible.
std::vector<spec_gpu> select(const std::vector<spec_gpu>& visible, const std::string& list) {
  std::vector<spec_gpu> chosen;
  std::stringstream items(list);
  std::string id;
  while (std::getline(items, id, ',')) {
    auto it = std::find_if(visible.begin(), visible.end(), [&](const spec_gpu& g) { return g.m_id == id; });
    if (it == visible.end()) {
      throw usage_error("--devices: GPU '" + id + "' is not visible (" + std::to_string(visible.size()) +
                        " visible; ids are CUDA ordinals)");
    }
    chosen.push_back(*it);
  }
  if (chosen.empty()) throw usage_error("--devices '" + list + "': expected comma-separated CUDA ordinals");
  return chosen;
}

}  // namespace

int cmd_resources(const arguments& args, std::ostream& out, std::ostream& /*err*/) {
  const int slots = args.has("--slots") ? int_option("--slots", args.value("--slots"), 1, 1024) : 4;
  const env_file env = probe_env();
  std::vector<spec_gpu> gpus = visible_gpus(env);
  const std::string path = args.value("--out");
  if (gpus.empty()) {
    write_json_atomic(path, resource_spec({{"0", "placeholder", ""}}, slots));
    out << "resources: no GPU visible (" << env.m_no_device_reason.value_or("unknown")
        << "): one placeholder GPU 0 with " << slots
        << " slots, so that GPU tests run and skip with their reason -> " << path << "\n";
    return k_exit_ok;
  }
  if (auto list = args.optional_value("--devices")) gpus = select(gpus, *list);
  write_json_atomic(path, resource_spec(gpus, slots));
  out << "resources: " << gpus.size() << " GPU(s), " << slots
      << " slots each (a correctness test takes 1, a benchmark or perf test all " << slots << ") -> " << path
      << "\n";
  for (const spec_gpu& g : gpus) out << "  gpus id " << g.m_id << ": " << g.m_name << " " << g.m_uuid << "\n";
  return k_exit_ok;
}

}  // namespace kopt::cli
