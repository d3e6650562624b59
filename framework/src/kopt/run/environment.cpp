#include "kopt/run/environment.hpp"

#include <unistd.h>

#include <string>

#include "core/utc.hpp"
#ifdef KOPT_HAVE_CUDA
#include "cuda/environment_probe.hpp"
#endif

namespace kopt {

env_file probe_env() {
#ifdef KOPT_HAVE_CUDA
  return kopt::cuda::probe_environment();
#else
  const std::string reason = "KernelOpt built without CUDA";
  char host[256] = {};
  env_file env;
  if (::gethostname(host, sizeof host - 1) == 0 && host[0] != '\0') env.m_hostname = host;
  env.m_timestamp_utc = utc_now_iso();
  env.m_no_device_reason = reason;
  env.m_counters_reason = reason;
  for (const char* pointer : {"/driver_version", "/cuda_driver_api", "/cuda_runtime", "/counters_readable"}) {
    env.m_reasons[pointer] = reason;
  }
  return env;
#endif
}

}  // namespace kopt
