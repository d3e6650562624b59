// kernelopt.spec (framework/specs): find_spec's match patterns over a
// directory holding the input, and the values read for ceilings.
#include "fuzz_target.hpp"
#include "kopt/profile/document.hpp"

KOPT_FUZZ_TARGET(spec) {
  return kopt::fuzz::guarded([&] {
    const auto file = kopt::fuzz::temp_file(data, size, "spec.json");
    (void)kopt::profile::find_spec(file.parent_path(), "NVIDIA H200");
    const kopt::json doc = kopt::read_json_file(file);
    kopt::check_kind(doc, file, "kernelopt.spec", 1);
    kopt::profile::ceiling_set set;
    set.add_spec_document(doc, file.string());
    (void)set.find("dram_bandwidth");
  });
}
