// kopt env: what the machine is, written as kernelopt.env.
#include <ostream>

#include "kopt/cli/commands.hpp"
#include "kopt/run/environment.hpp"

namespace kopt::cli {

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
