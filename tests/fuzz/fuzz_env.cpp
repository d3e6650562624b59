// kernelopt.env: kopt record reads it, checks its kind and embeds it in the
// record it writes (copied and dumped).
#include "fuzz_target.hpp"

KOPT_FUZZ_TARGET(env) {
  return kopt::fuzz::guarded([&] {
    const auto file = kopt::fuzz::temp_file(data, size, "env.json");
    const kopt::json env = kopt::read_json_file(file);
    kopt::check_kind(env, file, "kernelopt.env", 1);
    kopt::json record = kopt::json::object();
    record["env"] = env;
    (void)record.dump(2);
  });
}
