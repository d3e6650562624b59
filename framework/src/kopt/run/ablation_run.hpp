// The measurements of `kopt ablate` (docs/ablation.md): each ablated build
// of a variant built on its own (`cmake --build`), its correctness test run,
// the correct ones timed with the variant in several benchmark processes,
// and, for CUDA variants, each method's SASS signature looked for in its
// ablated build. What the times mean is compare/attribution.hpp's.
#pragma once

#include <filesystem>
#include <iosfwd>
#include <string>
#include <vector>

#include "kopt/inputs/manifest.hpp"
#include "kopt/records/ablation.hpp"

namespace kopt {

struct ablation_request {
  int m_repetitions = 3;  // benchmark processes
  bool m_quick = false;
  bool m_build = true;  // build the ablation executables and each ablated module first
};

struct ablation_measurement {
  // The correctness test or the benchmark exited 77 (no device): nothing measured.
  std::string m_skipped;
  std::vector<ablation_outcome> m_outcomes;  // one per switch, in claim order
  // The benchmark files, one per process (load_timing_points reads the
  // folder); empty when no ablated build was timed.
  std::filesystem::path m_bench_dir;
};

// REQUIRES: decl has switches; the manifest names the ablation executables
// (and cmake, with m_build). Throws std::runtime_error when the ablation
// executables do not build (the variant itself or the reference) or the
// variant's own benchmark fails; a failing ablated build is an outcome.
[[nodiscard]] ablation_measurement measure_ablation(const manifest& m, const variant_decl& decl,
                                                    const ablation_request& request,
                                                    const std::filesystem::path& run_dir, std::ostream& out);

}  // namespace kopt
