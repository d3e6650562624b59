// kopt env: what the machine is, written as kernelopt.env.
#include <ostream>

#include "kopt/cli/commands.hpp"
#include "kopt/run/environment.hpp"

namespace kopt::cli {

int cmd_env(const arguments& args, std::ostream& out, std::ostream& /*err*/) {
  const env_file env = probe_env();
  write_json_atomic(args.value("--out"), to_json(env));
  out << "env: "
      << (env.m_devices.empty() ? "no device (" + env.m_no_device_reason.value_or("unknown") + ")"
                                : std::to_string(env.m_devices.size()) +
                                      " device(s), first: " + env.m_devices[0].m_name)
      << " -> " << args.value("--out") << "\n";
  return k_exit_ok;
}

}  // namespace kopt::cli
