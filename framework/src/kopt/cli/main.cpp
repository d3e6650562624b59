// kopt: KernelOpt's post-processor. Subcommands: commands.cpp.
#include <iostream>
#include <string>
#include <vector>

#include "kopt/cli/commands.hpp"

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  return kopt::cli::dispatch(args, std::cout, std::cerr);
}
