// A record assembled from one run's results with the gate's decision
// embedded: what `kopt record` and `kopt optimize` write.
#pragma once

#include "kopt/inputs/manifest.hpp"
#include "kopt/decide/assemble.hpp"
#include "kopt/records/record.hpp"

namespace kopt {

[[nodiscard]] record build_gated_record(const manifest& m, const record_inputs& inputs);

}  // namespace kopt
