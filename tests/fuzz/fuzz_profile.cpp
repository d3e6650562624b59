// kernelopt.profile (kopt profile's output, read back by kopt record, gate
// and report): the one-implementation cut and the fields report and gate
// read.
#include "fuzz_target.hpp"
#include "kopt/profile/document.hpp"
#include "kopt/decide/targets.hpp"

KOPT_FUZZ_TARGET(profile) {
  return kopt::fuzz::guarded([&] {
    const kopt::json doc = kopt::read_json_file(kopt::fuzz::temp_file(data, size, "profile.json"));
    (void)kopt::roofline_gaps(doc);
    const kopt::json v1 = kopt::profile::impl_document(doc, "v1", "profile.json");
    (void)kopt::roofline_gaps(v1);
    (void)v1.dump();
  });
}
