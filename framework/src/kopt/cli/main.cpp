// kopt: KernelOpt's post-processor. Subcommands: commands.cpp.
#include <iostream>
#include <string>
#include <vector>

#include "kopt/cli/commands.hpp"

#ifndef KOPT_VERSION
#error "KOPT_VERSION (the CMake project version) must be defined"
#endif

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  if (args.size() == 1 && args.front() == "--version") {
    std::cout << "kopt (KernelOpt) " << KOPT_VERSION << "\n";
    return kopt::cli::k_exit_ok;
  }
  return kopt::cli::dispatch(kopt::cli::help_rewritten(args), std::cout, std::cerr);
}
