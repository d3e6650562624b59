// Runs a child process with posix_spawn (argv as given: no shell, no word
// splitting), inheriting stdout, stderr and the environment.
#pragma once

#include <string>
#include <vector>

namespace kopt {

struct process_result {
  int m_exit_code = 0;  // when it exited
  int m_signal = 0;     // non-zero when a signal ended it

  [[nodiscard]] bool exited(int code) const { return m_signal == 0 && m_exit_code == code; }
  // "exit code 1", "signal 11 (Segmentation fault)"
  [[nodiscard]] std::string describe() const;
};

// Throws std::runtime_error when the program cannot be started.
[[nodiscard]] process_result run_process(const std::vector<std::string>& argv);

// "prog --a 'b c'" for messages: what was run, quoted where needed.
[[nodiscard]] std::string describe_command(const std::vector<std::string>& argv);

}  // namespace kopt
