// core/process: the one child runner. Time limits kill the whole process
// group; nothing kopt started outlives it, whether kopt ends normally, on
// SIGTERM, or on SIGKILL.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <thread>

#include "core/json_io.hpp"
#include "core/process.hpp"
#include "kopt/records/record.hpp"
#include "test_support.hpp"

extern char** environ;

namespace kopt::test {
namespace {

using namespace std::chrono_literals;

// Running and not a zombie (an orphan's zombie waits for whoever reaps it).
bool alive(pid_t pid) {
  if (::kill(pid, 0) != 0) return false;
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
  const std::size_t paren = text.rfind(')');
  return paren == std::string::npos || paren + 2 >= text.size() || text[paren + 2] != 'Z';
}

// True once `pid` is gone, polling for up to `within`.
bool gone_within(pid_t pid, std::chrono::milliseconds within) {
  const auto until = std::chrono::steady_clock::now() + within;
  while (alive(pid)) {
    if (std::chrono::steady_clock::now() > until) return false;
    std::this_thread::sleep_for(20ms);
  }
  return true;
}

// The pids in `file` ("1234 5678"), once it exists (up to 20 s).
std::vector<pid_t> wait_for_pids(const fs::path& file) {
  for (int i = 0; i < 1000 && !fs::exists(file); ++i) std::this_thread::sleep_for(20ms);
  std::ifstream in(file);
  std::vector<pid_t> pids;
  for (pid_t pid = 0; in >> pid;) pids.push_back(pid);
  return pids;
}

process_options limited(double seconds, double grace_s = k_grace_s) {
  process_options options;
  options.m_limit_s = seconds;
  options.m_limit_source = "the test's limit";
  options.m_grace_s = grace_s;
  return options;
}

TEST(process, runs_argv_and_captures_its_output) {
  process_options options;
  options.m_capture = true;
  options.m_environment = {"KOPT_PROCESS_TEST=from kopt"};
  const process_result r =
      run_process({"/bin/sh", "-c", "echo \"$KOPT_PROCESS_TEST\"; echo err >&2; exit 3"}, options);
  EXPECT_TRUE(r.exited(3)) << r.describe();
  EXPECT_FALSE(r.m_timed_out);
  EXPECT_EQ(r.m_out, "from kopt\n");
  EXPECT_EQ(r.m_err, "err\n");
  EXPECT_EQ(r.describe(), "exit code 3");
}

TEST(process, a_program_that_cannot_start_is_an_error_naming_it) {
  try {
    (void)run_process({"/nonexistent/kopt-tool"});
    FAIL() << "no exception";
  } catch (const std::runtime_error& error) {
    EXPECT_EQ(std::string(error.what()), "cannot run /nonexistent/kopt-tool: No such file or directory");
  }
}

TEST(process, a_signal_that_ends_the_program_is_reported) {
  const process_result r = run_process({"/bin/sh", "-c", "kill -SEGV $$"});
  EXPECT_EQ(r.m_signal, SIGSEGV);
  EXPECT_EQ(r.describe(), "signal 11 (Segmentation fault)");
}

TEST(process, a_child_that_sleeps_forever_is_killed_at_the_limit) {
  const auto start = std::chrono::steady_clock::now();
  const process_result r = run_process({"/bin/sleep", "1000"}, limited(0.5));
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_TRUE(r.m_timed_out);
  EXPECT_FALSE(r.exited(0));
  EXPECT_EQ(r.m_signal, SIGTERM);
  EXPECT_GE(r.m_elapsed_s, 0.5);
  EXPECT_LT(took, 4.0);
  EXPECT_EQ(r.describe(), "timed out after 0.5 s (limit: the test's limit); it and its process group were killed");
}

TEST(process, a_child_that_ignores_sigterm_gets_sigkill_after_the_grace_period) {
  // The limit leaves the shell time to set its trap first: a SIGTERM that
  // comes before it ends the shell (seen with 0.3 s on 2 loaded cores under
  // AddressSanitizer, whose large address space makes fork slow).
  const process_result r = run_process({"/bin/sh", "-c", "trap '' TERM; sleep 1000"}, limited(2.0, 0.3));
  EXPECT_TRUE(r.m_timed_out);
  EXPECT_EQ(r.m_signal, SIGKILL);
  EXPECT_LT(r.m_elapsed_s, 6.0);
}

TEST(process, a_grandchild_in_the_group_is_killed_with_the_child) {
  scratch_case c;
  const fs::path pid_file = c.path("grandchild.pid");
  const process_result r = run_process(
      {"/bin/sh", "-c", "sleep 1000 & echo $! > '" + pid_file.string() + "'; sleep 1000"}, limited(0.5));
  EXPECT_TRUE(r.m_timed_out);
  const std::vector<pid_t> pids = wait_for_pids(pid_file);
  ASSERT_EQ(pids.size(), 1u);
  EXPECT_TRUE(gone_within(pids[0], 2000ms)) << "grandchild " << pids[0] << " still running";
}

TEST(process, what_a_child_leaves_running_in_its_group_ends_with_it) {
  scratch_case c;
  const fs::path pid_file = c.path("left.pid");
  const process_result r =
      run_process({"/bin/sh", "-c", "sleep 1000 & echo $! > '" + pid_file.string() + "'"}, limited(30));
  EXPECT_TRUE(r.exited(0)) << r.describe();
  const std::vector<pid_t> pids = wait_for_pids(pid_file);
  ASSERT_EQ(pids.size(), 1u);
  EXPECT_TRUE(gone_within(pids[0], 2000ms)) << "left-over " << pids[0] << " still running";
}

// The real kopt, running `optimize` whose test hangs (with a child of its
// own), killed with `sig`: afterwards neither the test nor its child runs.
class killed_kopt : public ::testing::TestWithParam<int> {
 protected:
  void SetUp() override { ASSERT_NO_FATAL_FAILURE(record_golden_flow(c)); }
  scratch_case c;
};

// The real kopt, `optimize` on the scratch case, with `extra_env` added to
// the environment and SIGINT/SIGTERM at their defaults; stdout quiet.
pid_t spawn_optimize(const scratch_case& c, const std::string& extra_env) {
  std::vector<std::string> env = {extra_env};
  for (char** e = environ; *e != nullptr; ++e) env.emplace_back(*e);
  std::vector<char*> envp;
  for (std::string& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);
  std::vector<std::string> argv = {KOPT_BINARY, "optimize", "--manifest", c.manifest()};
  std::vector<char*> args;
  for (std::string& a : argv) args.push_back(a.data());
  args.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  sigset_t defaults;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGINT);
  sigaddset(&defaults, SIGTERM);
  posix_spawnattr_setsigdefault(&attributes, &defaults);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGDEF);
  pid_t kopt = 0;
  const int spawned = ::posix_spawn(&kopt, KOPT_BINARY, &actions, &attributes, args.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  return spawned == 0 ? kopt : -1;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST_P(killed_kopt, leaves_no_child_running) {
  const int sig = GetParam();
  const fs::path pid_file = c.path("hang.pids");
  const pid_t kopt = spawn_optimize(c, "KOPT_FAKE_TEST_HANG=" + pid_file.string());
  ASSERT_GT(kopt, 0);

  const std::vector<pid_t> pids = wait_for_pids(pid_file);
  ASSERT_EQ(pids.size(), 2u) << "the fake test did not start";
  EXPECT_TRUE(alive(pids[0]) && alive(pids[1]));
  ASSERT_EQ(::kill(kopt, sig), 0);
  int status = 0;
  ASSERT_EQ(::waitpid(kopt, &status, 0), kopt);
  ASSERT_TRUE(WIFSIGNALED(status)) << "kopt exited " << WEXITSTATUS(status) << " instead of dying";
  EXPECT_EQ(WTERMSIG(status), sig);
  EXPECT_TRUE(gone_within(pids[0], 3000ms)) << "the test " << pids[0] << " outlived kopt";
  EXPECT_TRUE(gone_within(pids[1], 3000ms)) << "the test's child " << pids[1] << " outlived kopt";
  for (const pid_t pid : pids) {
    if (alive(pid)) ::kill(pid, SIGKILL);  // not to leave them behind if the test failed
  }
  // Interrupted by someone else (a person, CTest): no verdict, nothing
  // left. Killed outright: the marker stays, and the next optimize records
  // the run as a REJECT instead of running v5 again (records/attempt.hpp).
  const fs::path marker = c.path("records/softmax/v5.attempt");
  if (sig != SIGKILL) {
    EXPECT_FALSE(fs::exists(marker)) << "an interrupt left the attempt marker";
    return;
  }
  EXPECT_TRUE(fs::exists(marker));
  const run_result next = run_kopt({"optimize", "--manifest", c.manifest()});
  EXPECT_TRUE(contains(next.m_out, "softmax/v5: an earlier optimize ended without a verdict")) << next.m_out;
  ASSERT_TRUE(fs::exists(c.record("v5")));
  const record v5 = read_record(c.record("v5"));
  EXPECT_EQ(v5.m_gate.m_decision, "REJECT");
  ASSERT_TRUE(v5.m_failure.has_value());
  EXPECT_EQ(v5.m_failure->m_step, "optimize run");
  EXPECT_FALSE(fs::exists(marker));
}

INSTANTIATE_TEST_SUITE_P(process, killed_kopt, ::testing::Values(SIGTERM, SIGINT, SIGKILL),
                         [](const ::testing::TestParamInfo<int>& info) {
                           return std::string(info.param == SIGTERM ? "sigterm"
                                              : info.param == SIGINT ? "sigint"
                                                                     : "sigkill");
                         });

// A variant that signals kopt itself (SIGTERM from inside its test) does not
// escape a verdict: kopt dies, its marker stays, and the next optimize
// records the run as a REJECT (records/attempt.hpp).
TEST(process, a_variant_that_kills_kopt_gets_a_reject_record) {
  scratch_case c;
  ASSERT_NO_FATAL_FAILURE(record_golden_flow(c));
  const pid_t kopt = spawn_optimize(c, "KOPT_FAKE_TEST_SIGNAL_KOPT=15");
  ASSERT_GT(kopt, 0);
  int status = 0;
  ASSERT_EQ(::waitpid(kopt, &status, 0), kopt);
  ASSERT_TRUE(WIFSIGNALED(status)) << "kopt exited " << WEXITSTATUS(status);
  EXPECT_EQ(WTERMSIG(status), SIGTERM);
  EXPECT_TRUE(fs::exists(c.path("records/softmax/v5.attempt")));
  const run_result next = run_kopt({"optimize", "--manifest", c.manifest()});
  EXPECT_TRUE(contains(next.m_out, "softmax/v5: an earlier optimize ended without a verdict")) << next.m_out;
  ASSERT_TRUE(fs::exists(c.record("v5")));
  EXPECT_EQ(read_record(c.record("v5")).m_gate.m_decision, "REJECT");
}

// kopt optimize on a hanging test: the step fails at the kernel's TIMEOUT,
// naming it, and no record is written.
TEST(process, optimize_stops_a_hanging_test_at_the_kernels_timeout_and_records_a_reject) {
  scratch_case c;
  ASSERT_NO_FATAL_FAILURE(record_golden_flow(c));
  json m = read_json_file(c.manifest());
  m["test_timeout_s"] = 1;
  write_text(c.manifest(), m.dump(2));
  const fs::path pid_file = c.path("hang.pids");
  ::setenv("KOPT_FAKE_TEST_HANG", pid_file.string().c_str(), 1);
  const run_result r = run_kopt({"optimize", "--manifest", c.manifest(), "--variant", "v5"});
  ::unsetenv("KOPT_FAKE_TEST_HANG");
  EXPECT_EQ(r.m_code, 1) << r.m_out << r.m_err;
  EXPECT_NE(r.m_err.find("timed out after 1 s (limit: the kernel's TIMEOUT)"), std::string::npos) << r.m_err;
  // The message names what hung: the step and the program.
  EXPECT_NE(r.m_err.find("correctness: the test " + fs::path(KOPT_FAKE_HARNESS).filename().string() +
                         " ended with timed out after 1 s"),
            std::string::npos)
      << r.m_err;
  // A failure is a verdict: a REJECT record naming the limit that expired.
  ASSERT_TRUE(fs::exists(c.record("v5")));
  const record v5 = read_record(c.record("v5"));
  EXPECT_EQ(v5.m_gate.m_decision, "REJECT");
  ASSERT_TRUE(v5.m_failure.has_value());
  EXPECT_NE(v5.m_failure->m_cause.find("timed out after 1 s (limit: the kernel's TIMEOUT)"), std::string::npos);
  const std::vector<pid_t> pids = wait_for_pids(pid_file);
  ASSERT_EQ(pids.size(), 2u);
  EXPECT_TRUE(gone_within(pids[0], 2000ms));
  EXPECT_TRUE(gone_within(pids[1], 2000ms));
}

}  // namespace
}  // namespace kopt::test
