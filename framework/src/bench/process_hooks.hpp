// What code can leave behind in the benchmark's process after its call
// returns, besides threads: signal handlers and timers. A variant that
// installs a timer whose handler spins while the others run slows every
// implementation it is compared with and none of its own calls (an audit:
// identical code accepted at 2.35x, then every honest successor rejected).
// The host backend's benchmark snapshots them before any call and looks
// again after each implementation's calls (session.cpp); honest kernels
// install neither.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace kopt::bench {

struct process_hooks {
  std::vector<std::uintptr_t> m_handlers;  // per signal 1..NSIG-1: its handler (SIG_DFL, SIG_IGN or a function)
  std::array<bool, 3> m_itimers{};         // ITIMER_REAL, ITIMER_VIRTUAL, ITIMER_PROF armed
  int m_posix_timers = -1;                 // entries of /proc/self/timers; -1 where it cannot be read
};

[[nodiscard]] process_hooks snapshot_hooks();

// What `after` has that `before` had not, one phrase each ("a handler for
// signal 14 (Alarm clock)", "an armed interval timer (ITIMER_REAL)",
// "1 more POSIX timer (timer_create)"); empty when nothing was added.
// A handler removed or reset to the default is not reported.
[[nodiscard]] std::vector<std::string> hook_changes(const process_hooks& before, const process_hooks& after);

}  // namespace kopt::bench
