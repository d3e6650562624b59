// kernelopt.env: the one reader (formats/env.hpp) that kopt record uses
// before it embeds the document, its round trip through to_json, and the
// record's copy (copied and dumped).
#include "formats/env.hpp"
#include "fuzz_target.hpp"

KOPT_FUZZ_TARGET(env) {
  return kopt::fuzz::guarded([&] {
    const kopt::env_file env = kopt::read_env(kopt::fuzz::temp_file(data, size, "env.json"));
    const kopt::json doc = kopt::to_json(env);
    (void)kopt::env_from_json(kopt::json_reader(doc, "round trip"));
    kopt::json record = kopt::json::object();
    record["env"] = doc;
    (void)record.dump(2);
  });
}
