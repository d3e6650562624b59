// Library requests built from a subcommand's arguments, where more than one
// subcommand builds the same request (`kopt optimize` runs the static checks
// with the arguments the generated <k>.static.<v> test gives `kopt static`).
#pragma once

#include "kopt/cli/cli_args.hpp"
#include "kopt/run/static_checks.hpp"

namespace kopt::cli {

// The arguments of `kopt static` (the command table's options).
[[nodiscard]] static_request static_request_from(const arguments& args);

}  // namespace kopt::cli
