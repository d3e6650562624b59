// The KernelOpt version (project(KernelOpt VERSION ...)): printed by
// `kopt --version` and `<k>_kopt_bench --version`, stamped into the bench
// JSON (`kopt.kernelopt_version`) and into every record.
#pragma once

namespace kopt {

// "0.2.0"
[[nodiscard]] const char* kernelopt_version();

}  // namespace kopt
