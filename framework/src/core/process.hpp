// KernelOpt's one way to run a child process (tests, benchmarks, ncu,
// cuobjdump, kopt's own subcommands): argv as given (no shell, no PATH
// search), each child in a process group of its own, with a time limit, and
// nothing left running when kopt ends.
//
// How: kopt forks a small supervisor that leads the new group and ignores
// SIGINT/SIGTERM; it forks the program (same group, PR_SET_PDEATHSIG
// SIGKILL) and relays its exit status. So
//   - at the time limit the group gets SIGTERM, a grace period, then SIGKILL:
//     the program and everything it started in its group;
//   - SIGINT / SIGTERM sent to kopt are forwarded the same way to every live
//     child group before kopt dies of the signal (handlers installed on first
//     use, not where the signal was ignored);
//   - when kopt dies of anything else (SIGKILL included), the supervisor's
//     parent-death signal (PR_SET_PDEATHSIG SIGHUP) makes it SIGKILL its
//     whole group, itself included: a program's own children go too, which
//     a plain PR_SET_PDEATHSIG on the program would leave running.
// docs/reliability.md, "Time limits and concurrency", lists the defaults.
#pragma once

#include <string>
#include <vector>

namespace kopt {

// Default time limits (seconds) per kind of child, where no better limit is
// known. Tests and benchmarks use the kernel's TIMEOUT from the manifest.
inline constexpr double k_limit_harness_s = 600;     // KernelOpt_TEST_TIMEOUT's default
inline constexpr double k_limit_ncu_run_s = 1800;    // one ncu profiling run (replays every kernel)
inline constexpr double k_limit_tool_s = 120;        // cuobjdump, ncu --import, --version probes
inline constexpr double k_grace_s = 5;               // SIGTERM -> SIGKILL

struct process_options {
  // 0: no limit. NOTE: every KernelOpt call site sets one.
  double m_limit_s = 0;
  // Where the limit comes from, for messages: "the kernel's TIMEOUT".
  std::string m_limit_source;
  // Seconds between SIGTERM and SIGKILL to the group.
  double m_grace_s = k_grace_s;
  // Keep stdout and stderr (each through a temporary file, so that output
  // of any size cannot block the child); stdin is /dev/null. Otherwise the
  // child inherits all three.
  bool m_capture = false;
  // "NAME=value" entries added to (or replacing in) this process's environment.
  std::vector<std::string> m_environment;
  // Where the program runs; empty: kopt's current directory.
  std::string m_working_directory;
};

struct process_result {
  int m_exit_code = 0;   // when it exited; 128 + signal when a signal ended it
  int m_signal = 0;      // non-zero when a signal ended it
  bool m_timed_out = false;
  double m_elapsed_s = 0;
  double m_limit_s = 0;  // the limit it ran under (0: none)
  std::string m_limit_source;
  std::string m_out;  // with m_capture
  std::string m_err;

  [[nodiscard]] bool exited(int code) const { return !m_timed_out && m_signal == 0 && m_exit_code == code; }
  // "exit code 1", "signal 11 (Segmentation fault)",
  // "timed out after 600 s (limit: the kernel's TIMEOUT); killed"
  [[nodiscard]] std::string describe() const;
};

// Runs argv[0] (a path) with argv and waits for it, within the limit.
// Throws std::runtime_error when the program cannot be started (naming it
// and why). NOTE: call it from the thread that lives as long as the child:
// PR_SET_PDEATHSIG fires when the forking thread ends.
[[nodiscard]] process_result run_process(const std::vector<std::string>& argv,
                                         const process_options& options = {});

// A file kopt removes when SIGINT or SIGTERM ends it, unless the signal
// came from one of its children (a variant signalling kopt): kopt
// optimize's attempt marker, which makes an interrupted run by a person
// leave no verdict, and a run a variant killed a REJECT. "" clears it.
void set_interrupt_cleanup(const std::string& path);

// "prog --a 'b c'" for messages: what was run, quoted where needed.
[[nodiscard]] std::string describe_command(const std::vector<std::string>& argv);

// "600 s", "1.5 s": a duration for messages.
[[nodiscard]] std::string format_seconds(double seconds);

}  // namespace kopt
