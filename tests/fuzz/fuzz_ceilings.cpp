// kernelopt.ceilings: the one reader (formats/ceilings.hpp) that kopt
// (record, targets, profile) and the benchmark (% of ceiling) share, its
// round trip through to_json, and the profile's roofline set.
#include "formats/ceilings.hpp"
#include "fuzz_target.hpp"
#include "kopt/profile/document.hpp"

KOPT_FUZZ_TARGET(ceilings) {
  const auto file = kopt::fuzz::temp_file(data, size, "ceilings.json");
  return kopt::fuzz::guarded([&] {
    const kopt::ceilings_file c = kopt::read_ceilings(file);
    std::string why;
    for (const kopt::ceiling& e : c.m_ceilings) (void)kopt::value_in_target_units(e, why);
    (void)kopt::fractions_of_ceilings(c, 1e12, 1e9);
    const kopt::json doc = kopt::to_json(c);
    (void)kopt::ceilings_from_json(kopt::json_reader(doc, "round trip"));
    (void)doc.dump();
    kopt::profile::ceiling_set set;
    set.add_ceilings(c, file.string());
    (void)set.bandwidth();
  });
}
