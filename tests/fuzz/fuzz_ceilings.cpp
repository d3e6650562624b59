// kernelopt.ceilings: kopt's reader (record, targets, profile) and the
// benchmark's (bench/ceilings.cpp, for % of ceiling).
#include "bench/ceilings.hpp"
#include "fuzz_target.hpp"
#include "kopt/inputs/ceilings.hpp"
#include "kopt/profile/document.hpp"

KOPT_FUZZ_TARGET(ceilings) {
  const auto file = kopt::fuzz::temp_file(data, size, "ceilings.json");
  kopt::fuzz::guarded([&] {
    const kopt::json doc = kopt::read_ceilings_document(file);
    const kopt::ceilings_file c = kopt::ceilings_from_json(doc, file.string());
    std::string why;
    for (const kopt::ceiling& e : c.m_ceilings) (void)kopt::value_in_target_units(e, why);
    (void)kopt::fractions_of_ceilings(c, 1.0, 1.0);
    kopt::profile::ceiling_set set;
    set.add_ceilings_document(doc, file.string());
    (void)set.bandwidth();
  });
  return kopt::fuzz::guarded([&] {
    const kopt::bench::ceilings c = kopt::bench::read_ceilings(file);
    (void)kopt::bench::fractions_of(c, 1e12, 1e9);
  });
}
