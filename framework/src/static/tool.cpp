#include "static/tool.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

extern char** environ;

namespace kopt::tool {
namespace {

// A temporary file, removed when it goes out of scope.
class temp_file {
 public:
  temp_file() {
    std::string pattern = (std::filesystem::temp_directory_path() / "kopt-tool-XXXXXX").string();
    const int fd = ::mkstemp(pattern.data());
    if (fd < 0) throw std::runtime_error("cannot create a temporary file: " + std::string(std::strerror(errno)));
    ::close(fd);
    m_path = pattern;
  }
  ~temp_file() {
    std::error_code ignored;
    std::filesystem::remove(m_path, ignored);
  }
  temp_file(const temp_file&) = delete;
  temp_file& operator=(const temp_file&) = delete;

  [[nodiscard]] const std::string& path() const { return m_path; }
  [[nodiscard]] std::string read() const {
    std::ifstream in(m_path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
  }

 private:
  std::string m_path;
};

std::vector<std::string> merged_environment(const std::vector<std::string>& extra) {
  std::vector<std::string> result;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    const std::string entry = *e;
    const std::string name = entry.substr(0, entry.find('='));
    bool replaced = false;
    for (const std::string& x : extra) replaced = replaced || x.substr(0, x.find('=')) == name;
    if (!replaced) result.push_back(entry);
  }
  result.insert(result.end(), extra.begin(), extra.end());
  return result;
}

}  // namespace

std::string captured::describe() const {
  if (m_signal != 0) return "signal " + std::to_string(m_signal) + " (" + strsignal(m_signal) + ")";
  return "exit code " + std::to_string(m_exit_code);
}

captured run_captured(const std::vector<std::string>& argv, const std::vector<std::string>& environment,
                      const std::string& working_directory) {
  if (argv.empty()) throw std::runtime_error("run_captured: empty command");
  const temp_file out;
  const temp_file err;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, out.path().c_str(), O_WRONLY | O_TRUNC, 0600);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, err.path().c_str(), O_WRONLY | O_TRUNC, 0600);
  // NOTE: glibc >= 2.29, macOS >= 10.15; the temporary files are absolute paths.
  if (!working_directory.empty()) posix_spawn_file_actions_addchdir_np(&actions, working_directory.c_str());

  std::vector<char*> args;
  for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  const std::vector<std::string> env = merged_environment(environment);
  std::vector<char*> envp;
  for (const std::string& e : env) envp.push_back(const_cast<char*>(e.c_str()));
  envp.push_back(nullptr);

  pid_t pid = 0;
  const int spawned = ::posix_spawn(&pid, argv[0].c_str(), &actions, nullptr, args.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) throw std::runtime_error("cannot run " + argv[0] + ": " + std::strerror(spawned));
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) throw std::runtime_error("waitpid failed: " + std::string(std::strerror(errno)));
  }
  captured result;
  if (WIFEXITED(status)) {
    result.m_exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    result.m_signal = WTERMSIG(status);
    result.m_exit_code = 128 + result.m_signal;
  }
  result.m_out = out.read();
  result.m_err = err.read();
  return result;
}

bool is_executable(const std::filesystem::path& path) {
  std::error_code error;
  return std::filesystem::is_regular_file(path, error) && ::access(path.c_str(), X_OK) == 0;
}

std::string find_in_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  if (path == nullptr) return {};
  std::istringstream dirs(path);
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    if (dir.empty()) dir = ".";
    const std::filesystem::path candidate = std::filesystem::path(dir) / name;
    if (is_executable(candidate)) return candidate.string();
  }
  return {};
}

}  // namespace kopt::tool
