// A family point as a unit of `kopt shard run` (docs/scale-out.md,
// "Families"): run as `kopt sweep --point P` runs it (run_sweep: built,
// tested, then timed when correct), its kernelopt.sweep_point and harness
// files in <shard>/<kernel>/sweep/<family>/, the layout of the family's
// sweep folder, and summarized into the shard's unit_outcome. A build
// failure is a verdict (correctness "fail"), as in the sweep; a build this
// tree skips (its architectures) is "skipped".
#pragma once

#include <filesystem>
#include <iosfwd>

#include "kopt/inputs/manifest.hpp"
#include "kopt/scale/shard/shard_document.hpp"
#include "kopt/scale/shard/suite.hpp"

namespace kopt::scale {

// REQUIRES: `unit` is a point (m_family set) of `m`. Fills in `u` (its
// device fields keep their defaults unless the results name a device).
void run_point(const manifest& m, const suite_unit& unit, const std::filesystem::path& shard_dir, unit_outcome& u,
               std::ostream& out);

}  // namespace kopt::scale
