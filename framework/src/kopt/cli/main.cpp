// kopt: KernelOpt's post-processor. Subcommands: commands.cpp; the command
// line: parser.hpp.
#include <iostream>
#include <string>
#include <vector>

#include "kopt/cli/commands.hpp"

int main(int argc, char** argv) {
  return kopt::cli::dispatch(std::vector<std::string>(argv + 1, argv + argc), std::cout, std::cerr);
}
