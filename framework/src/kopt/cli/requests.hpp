// Library requests built from a subcommand's arguments, where more than one
// subcommand builds the same request (`kopt optimize` runs the static checks
// with the arguments the generated <k>.static.<v> test gives `kopt static`,
// and with --ablate kopt ablate's steps).
#pragma once

#include <iosfwd>
#include <optional>

#include "kopt/cli/cli_args.hpp"
#include "kopt/records/record.hpp"
#include "kopt/run/ablation_run.hpp"
#include "kopt/run/static_checks.hpp"

namespace kopt::cli {

// The arguments of `kopt static` (the command table's options).
[[nodiscard]] static_request static_request_from(const arguments& args);

// kopt ablate's work on a recorded variant, shared with `kopt optimize
// --ablate`: measure (run/ablation_run.hpp), attribute
// (compare/attribution.hpp), write into the record, print the table.
// nullopt: skipped (no device), nothing written. REQUIRES: the kernel's lock.
[[nodiscard]] std::optional<ablation_result> ablate_recorded(const manifest& m, const record& r,
                                                             const ablation_request& request, double threshold,
                                                             std::ostream& out);

}  // namespace kopt::cli
