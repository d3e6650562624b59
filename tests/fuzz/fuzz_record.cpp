// kernelopt.record: read_record, then written back as kopt does when it
// masks or re-renders a record (the embedded documents copied and dumped),
// and what the gate and report read of its embedded kernelopt.profile.
#include "fuzz_target.hpp"
#include "kopt/records/record.hpp"
#include "kopt/decide/targets.hpp"

KOPT_FUZZ_TARGET(record) {
  return kopt::fuzz::guarded([&] {
    const kopt::record r = kopt::read_record(kopt::fuzz::temp_file(data, size, "record.json"));
    (void)kopt::to_json(r).dump(2);
    (void)kopt::roofline_gaps(r.m_profile);
    (void)kopt::profiled_bottleneck(r);
    for (const kopt::shape_timing& s : r.m_timing.m_shapes) (void)kopt::shape_values(s);
  });
}
