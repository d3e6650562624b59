// kernelopt.profile (kopt profile's output, read back by kopt record, gate
// and report): the one-implementation cut and the fields report and gate
// read.
#include "fuzz_target.hpp"
#include "kopt/profile/document.hpp"
#include "kopt/decide/targets.hpp"

KOPT_FUZZ_TARGET(profile) {
  return kopt::fuzz::guarded([&] {
    const kopt::json doc = kopt::read_json_file(kopt::fuzz::temp_file(data, size, "profile.json"));
    (void)kopt::roofline_gaps(doc);  // a record embeds the file as given
    const kopt::profile::profile_document typed =
        kopt::profile::profile_document_from_json(kopt::json_reader(doc, "profile.json"));
    const kopt::json v1 = kopt::profile::to_json(kopt::profile::impl_document(typed, "v1"));
    (void)kopt::roofline_gaps(v1);
    (void)v1.dump();
  });
}
