#include "core/process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <optional>
#include <sstream>
#include <stdexcept>

extern char** environ;

namespace kopt {
namespace {

// Live child groups (their supervisors' pids), read by the signal handler.
constexpr int k_max_groups = 64;
std::atomic<pid_t> g_groups[k_max_groups];
constexpr int k_forwarded[] = {SIGINT, SIGTERM};
struct sigaction g_previous[2];
// A file to remove when kopt is interrupted by someone other than its
// children (set_interrupt_cleanup); "" for none. Read by the handler.
char g_cleanup[4096];
std::atomic<bool> g_cleanup_set{false};

void sleep_ms(long ms) {
  timespec t{ms / 1000, (ms % 1000) * 1000000L};
  while (::nanosleep(&t, &t) != 0 && errno == EINTR) {
  }
}

// Has `pid` (a child) ended? Without reaping it: a zombie keeps its pid, and
// so its process group id, from being reused while we still signal the group.
bool has_ended(pid_t pid) {
  siginfo_t info{};
  if (::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) != 0) return errno == ECHILD;
  return info.si_pid == pid;
}

void signal_groups(int sig) {
  for (std::atomic<pid_t>& group : g_groups) {
    const pid_t pid = group.load();
    if (pid > 0) ::kill(-pid, sig);
  }
}

// Did the signal come from a process in one of the child groups (a
// variant signalling kopt), rather than from a person, CTest or a CI runner?
bool from_a_child(const siginfo_t* info) {
  if (info == nullptr || info->si_code != SI_USER) return false;
  const pid_t sender_group = ::getpgid(info->si_pid);
  for (std::atomic<pid_t>& group : g_groups) {
    const pid_t pid = group.load();
    if (pid > 0 && (pid == info->si_pid || pid == sender_group)) return true;
  }
  return false;
}

// SIGINT / SIGTERM to kopt: the same to every child group, a grace period,
// SIGKILL, then die of the signal as if it had not been handled.
// Async-signal-safe calls only.
void forward_and_reraise(int sig, siginfo_t* info, void*) {
  if (g_cleanup_set.load() && !from_a_child(info)) ::unlink(g_cleanup);
  signal_groups(SIGTERM);
  const long grace_ms = static_cast<long>(k_grace_s * 1000);
  for (long waited = 0; waited < grace_ms; waited += 20) {
    bool live = false;
    for (std::atomic<pid_t>& group : g_groups) {
      const pid_t pid = group.load();
      live = live || (pid > 0 && !has_ended(pid));
    }
    if (!live) break;
    sleep_ms(20);
  }
  signal_groups(SIGKILL);
  const int index = sig == SIGINT ? 0 : 1;
  ::sigaction(sig, &g_previous[index], nullptr);
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, sig);
  ::sigprocmask(SIG_UNBLOCK, &set, nullptr);
  ::raise(sig);
}

void install_handlers() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (int i = 0; i < 2; ++i) {
      struct sigaction current {};
      ::sigaction(k_forwarded[i], nullptr, &current);
      // Where the signal is ignored (a job started with `&`, nohup) it stays so.
      if ((current.sa_flags & SA_SIGINFO) == 0 && current.sa_handler == SIG_IGN) continue;
      g_previous[i] = current;
      struct sigaction mine {};
      mine.sa_sigaction = forward_and_reraise;
      mine.sa_flags = SA_SIGINFO;
      sigemptyset(&mine.sa_mask);
      for (const int s : k_forwarded) sigaddset(&mine.sa_mask, s);
      ::sigaction(k_forwarded[i], &mine, nullptr);
    }
  });
}

int register_group(pid_t pid) {
  for (int i = 0; i < k_max_groups; ++i) {
    pid_t empty = 0;
    if (g_groups[i].compare_exchange_strong(empty, pid)) return i;
  }
  return -1;  // more live children than slots: still limited, not forwarded
}

void unregister_group(int slot) {
  if (slot >= 0) g_groups[slot].store(0);
}

void kill_own_group(int /*sig*/) { ::kill(0, SIGKILL); }

void set_handler(int sig, void (*handler)(int)) {
  struct sigaction action {};
  action.sa_handler = handler;
  sigemptyset(&action.sa_mask);
  ::sigaction(sig, &action, nullptr);
}

void report_errno_and_exit(int fd) {
  const int error = errno;
  (void)!::write(fd, &error, sizeof error);
  ::_exit(127);
}

struct child_io {
  int m_in = -1;  // -1: inherit
  int m_out = -1;
  int m_err = -1;
  const char* m_directory = nullptr;  // nullptr: inherit
};

// The forked child: leads the new group, starts the program in it and ends
// as the program ended. Async-signal-safe calls only (kopt may have threads).
[[noreturn]] void supervise(pid_t kopt, char* const* argv, char* const* envp, const child_io& io, int report_fd) {
  ::setpgid(0, 0);
  set_handler(SIGINT, SIG_IGN);  // signals sent to the group are for the program
  set_handler(SIGTERM, SIG_IGN);
  set_handler(SIGHUP, kill_own_group);
  ::prctl(PR_SET_PDEATHSIG, SIGHUP);
  if (::getppid() != kopt) ::kill(0, SIGKILL);  // kopt died before prctl
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);

  const pid_t self = ::getpid();
  const pid_t program = ::fork();
  if (program < 0) report_errno_and_exit(report_fd);
  if (program == 0) {
    set_handler(SIGINT, SIG_DFL);
    set_handler(SIGTERM, SIG_DFL);
    set_handler(SIGHUP, SIG_DFL);
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != self) ::_exit(127);
    if (io.m_in >= 0 && ::dup2(io.m_in, STDIN_FILENO) < 0) report_errno_and_exit(report_fd);
    if (io.m_out >= 0 && ::dup2(io.m_out, STDOUT_FILENO) < 0) report_errno_and_exit(report_fd);
    if (io.m_err >= 0 && ::dup2(io.m_err, STDERR_FILENO) < 0) report_errno_and_exit(report_fd);
    if (io.m_directory != nullptr && ::chdir(io.m_directory) != 0) report_errno_and_exit(report_fd);
    ::execve(argv[0], argv, envp);
    report_errno_and_exit(report_fd);
  }
  ::close(report_fd);
  int status = 0;
  while (::waitpid(program, &status, 0) < 0) {
    if (errno != EINTR) ::_exit(127);
  }
  if (WIFEXITED(status)) ::_exit(WEXITSTATUS(status));
  const int sig = WTERMSIG(status);
  const rlimit no_core{0, 0};
  ::setrlimit(RLIMIT_CORE, &no_core);  // the program dumped core already, if it was to
  set_handler(sig, SIG_DFL);
  ::raise(sig);
  ::_exit(128 + sig);
}

// A temporary file for captured output, removed when it goes out of scope.
class temp_file {
 public:
  temp_file() {
    std::string pattern = (std::filesystem::temp_directory_path() / "kopt-out-XXXXXX").string();
    m_fd = ::mkostemp(pattern.data(), O_CLOEXEC);
    if (m_fd < 0) throw std::runtime_error("cannot create a temporary file: " + std::string(std::strerror(errno)));
    m_path = pattern;
  }
  ~temp_file() {
    ::close(m_fd);
    ::unlink(m_path.c_str());
  }
  temp_file(const temp_file&) = delete;
  temp_file& operator=(const temp_file&) = delete;

  [[nodiscard]] int fd() const { return m_fd; }
  [[nodiscard]] std::string read() const {
    std::ifstream in(m_path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
  }

 private:
  int m_fd = -1;
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

std::vector<char*> pointers(const std::vector<std::string>& strings) {
  std::vector<char*> result;
  for (const std::string& s : strings) result.push_back(const_cast<char*>(s.c_str()));
  result.push_back(nullptr);
  return result;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

std::string format_seconds(double seconds) {
  char text[32];
  if (seconds >= 10 || seconds == std::floor(seconds)) {
    std::snprintf(text, sizeof text, "%.0f s", seconds);
  } else {
    std::snprintf(text, sizeof text, "%.1f s", seconds);
  }
  return text;
}

void set_interrupt_cleanup(const std::string& path) {
  g_cleanup_set.store(false);
  if (path.empty() || path.size() >= sizeof g_cleanup) return;
  std::memcpy(g_cleanup, path.c_str(), path.size() + 1);
  g_cleanup_set.store(true);
  install_handlers();
}

std::string process_result::describe() const {
  if (m_timed_out) {
    return "timed out after " + format_seconds(m_limit_s) + " (limit: " +
           (m_limit_source.empty() ? std::string("set by the caller") : m_limit_source) +
           "); it and its process group were killed";
  }
  if (m_signal != 0) return "signal " + std::to_string(m_signal) + " (" + strsignal(m_signal) + ")";
  return "exit code " + std::to_string(m_exit_code);
}

process_result run_process(const std::vector<std::string>& argv, const process_options& options) {
  if (argv.empty()) throw std::runtime_error("run_process: empty command");
  const std::vector<char*> args = pointers(argv);
  const std::vector<std::string> env =
      options.m_environment.empty() ? std::vector<std::string>{} : merged_environment(options.m_environment);
  const std::vector<char*> envp = pointers(env);
  char* const* environment = options.m_environment.empty() ? environ : envp.data();

  std::optional<temp_file> out;
  std::optional<temp_file> err;
  child_io io;
  if (!options.m_working_directory.empty()) io.m_directory = options.m_working_directory.c_str();
  if (options.m_capture) {
    out.emplace();
    err.emplace();
    io.m_in = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (io.m_in < 0) throw std::runtime_error("cannot open /dev/null: " + std::string(std::strerror(errno)));
    io.m_out = out->fd();
    io.m_err = err->fd();
  }
  int report[2];
  if (::pipe2(report, O_CLOEXEC) != 0) {
    if (io.m_in >= 0) ::close(io.m_in);
    throw std::runtime_error("pipe failed: " + std::string(std::strerror(errno)));
  }

  install_handlers();
  sigset_t forwarded;
  sigset_t previous_mask;
  sigemptyset(&forwarded);
  for (const int s : k_forwarded) sigaddset(&forwarded, s);
  // No SIGINT/SIGTERM between fork and registration: the group would be missed.
  ::sigprocmask(SIG_BLOCK, &forwarded, &previous_mask);
  const pid_t kopt = ::getpid();
  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::close(report[0]);
    supervise(kopt, args.data(), environment, io, report[1]);
  }
  const int fork_error = errno;
  int slot = -1;
  if (pid > 0) {
    ::setpgid(pid, pid);  // also here, so that the group exists before we signal it
    slot = register_group(pid);
  }
  ::sigprocmask(SIG_SETMASK, &previous_mask, nullptr);
  ::close(report[1]);
  if (io.m_in >= 0) ::close(io.m_in);
  if (pid < 0) {
    ::close(report[0]);
    throw std::runtime_error("cannot run " + argv[0] + ": fork failed: " + std::strerror(fork_error));
  }

  // EOF once the program is exec'd (the pipe is close-on-exec); errno when not.
  int exec_error = 0;
  ssize_t got = 0;
  while ((got = ::read(report[0], &exec_error, sizeof exec_error)) < 0 && errno == EINTR) {
  }
  ::close(report[0]);

  process_result result;
  result.m_limit_s = options.m_limit_s;
  result.m_limit_source = options.m_limit_source;
  bool term_sent = false;
  std::chrono::steady_clock::time_point term_at;
  long poll_ms = 1;
  while (!has_ended(pid)) {
    if (!term_sent && options.m_limit_s > 0 && seconds_since(start) >= options.m_limit_s) {
      ::kill(-pid, SIGTERM);
      term_sent = true;
      result.m_timed_out = true;
      term_at = std::chrono::steady_clock::now();
    } else if (term_sent && seconds_since(term_at) >= options.m_grace_s) {
      ::kill(-pid, SIGKILL);
    }
    sleep_ms(poll_ms);
    poll_ms = std::min(poll_ms * 2, 50L);
  }
  // Whatever the program started in its group and left running goes too.
  ::kill(-pid, SIGKILL);
  int status = 0;
  int waited = 0;
  while ((waited = ::waitpid(pid, &status, 0)) < 0 && errno == EINTR) {
  }
  const int wait_error = errno;
  unregister_group(slot);
  if (waited < 0) {  // reaped by someone else (SIGCHLD ignored?): the status is lost, not 0
    throw std::runtime_error("waiting for " + argv[0] + " failed: " + std::strerror(wait_error));
  }
  result.m_elapsed_s = seconds_since(start);

  if (got == static_cast<ssize_t>(sizeof exec_error)) {
    throw std::runtime_error("cannot run " + argv[0] + ": " + std::strerror(exec_error));
  }
  if (WIFEXITED(status)) {
    result.m_exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    result.m_signal = WTERMSIG(status);
    result.m_exit_code = 128 + result.m_signal;
  }
  if (options.m_capture) {
    result.m_out = out->read();
    result.m_err = err->read();
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
