// kernelopt.manifest: read_manifest, then the lookups kopt makes on it.
#include "fuzz_target.hpp"
#include "kopt/inputs/manifest.hpp"

KOPT_FUZZ_TARGET(manifest) {
  return kopt::fuzz::guarded([&] {
    const kopt::manifest m = kopt::read_manifest(kopt::fuzz::temp_file(data, size, "manifest.json"));
    for (const kopt::variant_decl& v : m.m_variants) (void)m.record_path(v.m_name);
    (void)m.variant_index("v0");
    (void)kopt::to_json(m.m_timing).dump();
  });
}
