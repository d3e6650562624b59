#include "kopt/process.hpp"

#include <spawn.h>
#include <sys/wait.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

extern char** environ;

namespace kopt {

std::string process_result::describe() const {
  if (m_signal != 0) return "signal " + std::to_string(m_signal) + " (" + strsignal(m_signal) + ")";
  return "exit code " + std::to_string(m_exit_code);
}

process_result run_process(const std::vector<std::string>& argv) {
  if (argv.empty()) throw std::runtime_error("run_process: empty command");
  std::vector<char*> args;
  for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);

  pid_t pid = 0;
  const int spawned = ::posix_spawn(&pid, argv[0].c_str(), nullptr, nullptr, args.data(), environ);
  if (spawned != 0) {
    throw std::runtime_error("cannot run " + argv[0] + ": " + std::strerror(spawned));
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) throw std::runtime_error("waitpid failed: " + std::string(std::strerror(errno)));
  }
  process_result result;
  if (WIFEXITED(status)) {
    result.m_exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    result.m_signal = WTERMSIG(status);
    result.m_exit_code = 128 + result.m_signal;
  }
  return result;
}

std::string describe_command(const std::vector<std::string>& argv) {
  std::string text;
  for (const std::string& arg : argv) {
    if (!text.empty()) text += ' ';
    const bool plain = !arg.empty() && arg.find_first_of(" \t\n'\"\\$`*?()[]{};&|<>") == std::string::npos;
    if (plain) {
      text += arg;
      continue;
    }
    text += '\'';
    for (const char c : arg) {
      if (c == '\'') {
        text += "'\\''";
      } else {
        text += c;
      }
    }
    text += '\'';
  }
  return text;
}

}  // namespace kopt
