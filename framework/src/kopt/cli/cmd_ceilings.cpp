// kopt ceilings: measures copy bandwidth and FMA / tensor-core rates on the
// device (kernelopt_cuda's ceiling_probes.cu) and writes kernelopt.ceilings
// (formats/ceilings.hpp), every
// value with its method, samples and the clocks around it. Without a GPU (or
// in a build without CUDA) it measures nothing and exits 77 saying why.
#include <cstdio>
#include <cstdlib>
#include <ostream>

#include "kopt/cli/commands.hpp"
#include "core/utc.hpp"
#include "formats/ceilings.hpp"

#ifdef KOPT_HAVE_CUDA
#include "cuda/cuda_backend.hpp"
#include "cuda/ceiling_probes.hpp"
#include "cuda/gpu_claim.hpp"
#endif

namespace kopt::cli {
namespace {

[[maybe_unused]] std::string human(double value, const std::string& unit) {
  char text[64];
  if (unit == "B/s") {
    std::snprintf(text, sizeof text, "%.3g TB/s", value / 1e12);
  } else {
    std::snprintf(text, sizeof text, "%.4g TFLOP/s", value / 1e12);
  }
  return text;
}

}  // namespace

int cmd_ceilings(const arguments& args, std::ostream& out, std::ostream& /*err*/) {
#ifdef KOPT_HAVE_CUDA
  kopt::cuda::ceiling_probe_options options;
  options.m_device = kopt::cuda::assigned_device();
  if (auto v = args.optional_value("--device")) options.m_device = int_option("--device", *v, 0, 1024);
  if (auto v = args.optional_value("--repeats")) options.m_repeats = std::max(1, int_option("--repeats", *v, 0, 100000));
  options.m_quick = args.has("--quick");
  if (const auto why = kopt::cuda::device_unavailable_reason(options.m_device)) {
    out << "SKIPPED: " << *why << ": nothing measured, nothing written\n";
    return k_exit_skipped;
  }
  // Measured alone on the GPU, as benchmarks are (cuda/gpu_claim.hpp).
  const kopt::cuda::gpu_claim claim(kopt::cuda::identify(options.m_device), kopt::cuda::claim_mode::exclusive);
  ceilings_file result = kopt::cuda::measure_ceilings(options);
  result.m_date = utc_now_iso();
  write_json_atomic(args.value("--out"), to_json(result));
  out << "ceilings of " << result.m_device << " (" << result.m_measurement->m_device_uuid << ", device "
      << result.m_measurement->m_device_index << ")" << (options.m_quick ? ", quick mode" : "") << ":\n";
  bool all = true;
  for (const ceiling& c : result.m_ceilings) {
    char name[32];
    std::snprintf(name, sizeof name, "  %-16s", c.m_name.c_str());
    out << name << (c.m_value ? human(*c.m_value, c.m_unit) : "unknown (" + c.m_reason + ")") << "\n";
    all = all && c.m_value.has_value();
  }
  out << "-> " << args.value("--out") << "\n";
  return all ? k_exit_ok : k_exit_fail;
#else
  (void)args;
  out << "SKIPPED: KernelOpt was built without CUDA: no device to measure, nothing written\n";
  return k_exit_skipped;
#endif
}

}  // namespace kopt::cli
