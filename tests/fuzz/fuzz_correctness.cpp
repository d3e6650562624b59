// kernelopt.correctness (the harness's results): summarized for a manifest
// declaring kernel "softmax", as kopt record does, then the summary's own
// round trip through the record.
#include "fuzz_target.hpp"
#include "kopt/inputs/correctness.hpp"
#include "kopt/inputs/manifest.hpp"

KOPT_FUZZ_TARGET(correctness) {
  return kopt::fuzz::guarded([&] {
    kopt::manifest m;
    m.m_kernel = "softmax";
    m.m_shapes = {"rows=4096,cols=4096", "rows=1,cols=1"};
    m.m_seeds = {1, 2, 3};
    const auto file = kopt::fuzz::temp_file(data, size, "correct.json");
    for (const char* variant : {"v1", "v0"}) {
      const kopt::correctness_summary s = kopt::summarize_correctness(m, variant, {file});
      (void)s.problem();
      const kopt::json doc = kopt::to_json(s);
      (void)kopt::correctness_from_json(kopt::json_reader(doc, "summary")).problem();
      (void)doc.dump();
    }
  });
}
