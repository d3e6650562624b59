#include "kopt/run/environment.hpp"

#include <unistd.h>

#include <string>

#include "core/utc.hpp"
#ifdef KOPT_HAVE_CUDA
#include "cuda/environment_probe.hpp"
#endif

namespace kopt {

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

}  // namespace kopt
