// The attempt marker of `kopt optimize`: <RECORDS>/<k>/<variant>.attempt,
// written under the kernel's lock before anything of the variant runs and
// removed once its record is written (or the run ends without a verdict:
// a skip, an input error, an interrupt by a person). A marker the next
// optimize finds, with no record beside it, is a run that never got to its
// verdict: kopt was killed (SIGKILL, a crash, a signal from the variant
// itself). That run becomes a REJECT record (rule `run`), so that the loop
// moves on instead of running the same variant, or refusing every later
// one, forever (docs/reliability.md).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "kopt/inputs/manifest.hpp"

namespace kopt {

[[nodiscard]] std::filesystem::path attempt_path(const manifest& m, const std::string& variant);

// Written on construction, removed on destruction; removed too when SIGINT
// or SIGTERM from outside kopt's children ends kopt (core/process.hpp).
class attempt_marker {
 public:
  attempt_marker(const manifest& m, const std::string& variant);
  attempt_marker(const attempt_marker&) = delete;
  attempt_marker& operator=(const attempt_marker&) = delete;
  ~attempt_marker();

 private:
  std::filesystem::path m_path;
};

struct unfinished_attempt {
  std::string m_variant;
  std::string m_started;  // what the marker says: pid, host time, command
};

// Markers of variants that have no record. REQUIRES: the kernel's lock.
[[nodiscard]] std::vector<unfinished_attempt> unfinished_attempts(const manifest& m);

}  // namespace kopt
