// kernelopt.spec (framework/specs): find_spec's match patterns over a
// directory holding the input, and the values read for ceilings.
#include "fuzz_target.hpp"
#include "kopt/profile/document.hpp"

KOPT_FUZZ_TARGET(spec) {
  return kopt::fuzz::guarded([&] {
    const auto file = kopt::fuzz::temp_file(data, size, "spec.json");
    (void)kopt::profile::find_spec(file.parent_path(), "NVIDIA H200");
    const kopt::spec_file spec = kopt::read_spec(file);
    (void)kopt::to_json(spec).dump();
    kopt::profile::ceiling_set set;
    set.add_spec(spec);
    (void)set.find("dram_bandwidth");
  });
}
