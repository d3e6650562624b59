// kopt env: what the machine is, written as kernelopt.env.
#include <unistd.h>

#include <ostream>

#include "kopt/commands.hpp"
#include "kopt/steps.hpp"
#include "kopt/utc.hpp"

#ifdef KOPT_HAVE_CUDA
#include "cuda/environment.hpp"
#endif

namespace kopt::cli {

json env_document() {
#ifdef KOPT_HAVE_CUDA
  return kopt::cuda::to_json(kopt::cuda::probe_environment());
#else
  // Same fields as kopt::cuda::to_json writes (docs/formats.md), every
  // CUDA-side value unknown for one reason.
  const std::string reason = "KernelOpt built without CUDA";
  char host[256] = {};
  if (::gethostname(host, sizeof host - 1) != 0) host[0] = '\0';
  return {{"schema_version", 1},
          {"kind", "kernelopt.env"},
          {"hostname", host[0] != '\0' ? host : "unknown"},
          {"timestamp_utc", utc_now_iso()},
          {"driver_version", "unknown"},
          {"cuda_driver_api", "unknown"},
          {"cuda_runtime", "unknown"},
          {"devices", json::array()},
          {"no_device_reason", reason},
          {"counters_readable", "unknown"},
          {"counters_reason", reason},
          {"reasons",
           {{"/driver_version", reason},
            {"/cuda_driver_api", reason},
            {"/cuda_runtime", reason},
            {"/counters_readable", reason}}}};
#endif
}

int cmd_env(const arguments& args, std::ostream& out, std::ostream& /*err*/) {
  const json doc = env_document();
  write_json_atomic(args.value("--out"), doc);
  const json devices = doc.value("devices", json::array());
  out << "env: "
      << (devices.empty() ? "no device (" + doc.value("no_device_reason", std::string("unknown")) + ")"
                          : std::to_string(devices.size()) +
                                " device(s), first: " + devices[0].value("name", std::string("unknown")))
      << " -> " << args.value("--out") << "\n";
  return k_exit_ok;
}

}  // namespace kopt::cli
