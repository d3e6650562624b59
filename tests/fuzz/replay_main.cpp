// kopt_fuzz_replay TARGET PATH...: runs every file (directories: every file
// in them, recursively) through the fuzz target TARGET, as libFuzzer would
// run one input. Built with the project's normal compiler, so ctest replays
// the seeds and the committed regression inputs (tests/fuzz/regressions)
// without clang; a crash, an abort from a finding, or a sanitizer report
// fails the test.
#include <algorithm>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <vector>

#include "fuzz_target.hpp"

namespace kopt::fuzz {

std::map<std::string, target_fn>& targets() {
  static std::map<std::string, target_fn> table;
  return table;
}

bool register_target(const char* name, target_fn fn) {
  targets()[name] = fn;
  return true;
}

}  // namespace kopt::fuzz

int main(int argc, char** argv) {
  using namespace kopt::fuzz;
  if (argc < 3 || targets().count(argv[1]) == 0) {
    std::cerr << "usage: kopt_fuzz_replay TARGET PATH...\ntargets:";
    for (const auto& [name, fn] : targets()) std::cerr << " " << name;
    std::cerr << "\n";
    return 2;
  }
  const target_fn fn = targets()[argv[1]];
  std::vector<std::filesystem::path> files;
  for (int i = 2; i < argc; ++i) {
    const std::filesystem::path path = argv[i];
    if (std::filesystem::is_directory(path)) {
      for (const auto& entry : std::filesystem::recursive_directory_iterator(path)) {
        if (entry.is_regular_file()) files.push_back(entry.path());
      }
    } else if (std::filesystem::is_regular_file(path)) {
      files.push_back(path);
    } else {
      std::cerr << path.string() << ": no such file or directory\n";
      return 2;
    }
  }
  std::sort(files.begin(), files.end());
  for (const std::filesystem::path& file : files) {
    std::ifstream in(file, std::ios::binary);
    const std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    fn(reinterpret_cast<const std::uint8_t*>(data.data()), data.size());
  }
  std::cout << argv[1] << ": " << files.size() << " input(s) replayed, no finding\n";
  return 0;
}
