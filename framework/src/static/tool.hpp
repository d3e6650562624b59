// Runs a tool (cuobjdump, ncu) and keeps what it printed: posix_spawn, argv
// as given (no shell), stdout and stderr each sent to a temporary file and
// read back, so that output of any size cannot block the child.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace kopt::tool {

struct captured {
  int m_exit_code = 0;  // when it exited; 128 + signal when a signal ended it
  int m_signal = 0;
  std::string m_out;
  std::string m_err;

  [[nodiscard]] bool exited(int code) const { return m_signal == 0 && m_exit_code == code; }
  // "exit code 1", "signal 11 (Segmentation fault)"
  [[nodiscard]] std::string describe() const;
};

// `environment`: "NAME=value" entries added to (or replacing in) this
// process's environment; `working_directory`: where the program runs (empty:
// here). Throws std::runtime_error when the program cannot be started.
[[nodiscard]] captured run_captured(const std::vector<std::string>& argv,
                                    const std::vector<std::string>& environment = {},
                                    const std::string& working_directory = {});

// The first executable file `name` in $PATH; empty when there is none.
[[nodiscard]] std::string find_in_path(const std::string& name);

[[nodiscard]] bool is_executable(const std::filesystem::path& path);

}  // namespace kopt::tool
