// kernelopt.profile (kopt profile's output, read back by kopt record, which
// embeds it through the same type, then by the gate and report): the typed
// read, the one-implementation cut, and the fields report and gate read.
#include "fuzz_target.hpp"
#include "kopt/decide/targets.hpp"
#include "kopt/profile/document.hpp"

KOPT_FUZZ_TARGET(profile) {
  return kopt::fuzz::guarded([&] {
    const kopt::profile::profile_document typed =
        kopt::profile::read_profile_document(kopt::fuzz::temp_file(data, size, "profile.json"));
    (void)kopt::roofline_gaps(kopt::embedded_document<kopt::profile::profile_document>{typed, ""});
    const kopt::profile::profile_document v1 = kopt::profile::impl_document(typed, "v1");
    (void)kopt::roofline_gaps(kopt::embedded_document<kopt::profile::profile_document>{v1, ""});
    if (const kopt::profile::impl_profile* own = kopt::profile::single_impl(v1)) (void)own->m_bottleneck.size();
    (void)kopt::profile::to_json(v1).dump();
  });
}
