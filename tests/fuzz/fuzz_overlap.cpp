// kopt overlap's input (the bench JSON's kopt.gpu and run interval): the
// whole subcommand over the input given twice, output to a string.
#include <sstream>

#include "fuzz_target.hpp"
#include "kopt/cli/commands.hpp"
#include "kopt/run/gpu_schedule.hpp"

KOPT_FUZZ_TARGET(overlap) {
  const std::string file = kopt::fuzz::temp_file(data, size, "bench.json").string();
  kopt::fuzz::guarded([&] {
    const kopt::gpu_interval one = kopt::read_gpu_interval(file);
    (void)kopt::find_overlaps({one, one});
  });
  return kopt::fuzz::guarded([&] {
    std::ostringstream out;
    std::ostringstream err;
    (void)kopt::cli::dispatch({"overlap", file, file}, out, err);
    if (err.str().size() > 4 * kopt::fuzz::k_max_message) kopt::fuzz::finding("overlap error too long", err.str().c_str());
  });
}
