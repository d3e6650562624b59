// Signal handlers and timers left in the benchmark's process by an
// implementation's calls (framework/src/bench/process_hooks.hpp): the
// implementation whose calls did it fails, on its first call or later in
// the timed window, and the others are measured. Host backend, no clock.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/time.h>
#include <time.h>

#include <string>
#include <vector>

#include "bench/process_hooks.hpp"
#include "session_fixtures.hpp"

namespace kopt::bench {
namespace {

void ignore_signal(int) {}

// Installs a handler on its first call (never raised here).
void installs_a_handler(void* const* b, const std::int64_t* d, void* s) {
  struct sigaction action {};
  action.sa_handler = ignore_signal;
  ::sigaction(SIGUSR2, &action, nullptr);
  twice(b, d, s);
}
// Arms an interval timer of CPU time (1000 s: never fires here).
void arms_an_interval_timer(void* const* b, const std::int64_t* d, void* s) {
  itimerval value{};
  value.it_value.tv_sec = 1000;
  ::setitimer(ITIMER_VIRTUAL, &value, nullptr);
  twice(b, d, s);
}
// Creates a POSIX timer on its 40th call, inside the timed window (the
// audit's variant: its handler spun while the others ran).
timer_t g_timer{};
bool g_timer_created = false;
long g_calls = 0;
void creates_a_timer_later(void* const* b, const std::int64_t* d, void* s) {
  if (++g_calls == 40 && !g_timer_created) {
    sigevent event{};
    event.sigev_notify = SIGEV_NONE;
    g_timer_created = ::timer_create(CLOCK_MONOTONIC, &event, &g_timer) == 0;
  }
  twice(b, d, s);
}

class ProcessHooks : public ::testing::Test {
 protected:
  void TearDown() override {
    ::signal(SIGUSR2, SIG_DFL);
    itimerval off{};
    ::setitimer(ITIMER_VIRTUAL, &off, nullptr);
    if (g_timer_created) ::timer_delete(g_timer);
    g_timer_created = false;
  }
};

TEST_F(ProcessHooks, NothingAddedIsNothingReported) {
  const process_hooks now = snapshot_hooks();
  EXPECT_TRUE(hook_changes(now, snapshot_hooks()).empty());
}

TEST_F(ProcessHooks, TheImplementationWhoseCallsLeftThemFailsAndOnlyIt) {
  kernel_spec spec = spec_of({{"x", arg_dir::in, dtype::f32, {"n"}, {}}, {"y", arg_dir::out, dtype::f32, {"n"}, {}}},
                             {host_impl("honest", impl_role::variant, false, &twice),
                              host_impl("handler", impl_role::variant, false, &installs_a_handler),
                              host_impl("itimer", impl_role::variant, false, &arms_an_interval_timer),
                              host_impl("later", impl_role::variant, false, &creates_a_timer_later)},
                             host_impl("reference", impl_role::reference, true, &twice_reference));
  spec.m_timing.m_min_samples = 100;  // the 40th call falls in the timed window
  const std::vector<impl_outcome> rows = measure(spec);
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_FALSE(rows[0].m_error.has_value()) << *rows[0].m_error;
  const auto error_of = [&](std::size_t i) { return rows[i].m_error.value_or("(none)"); };
  EXPECT_NE(error_of(1).find("handler's calls left a handler for signal " + std::to_string(SIGUSR2)), std::string::npos)
      << error_of(1);
  EXPECT_NE(error_of(2).find("itimer's calls left an armed interval timer (ITIMER_VIRTUAL)"), std::string::npos)
      << error_of(2);
  if (snapshot_hooks().m_posix_timers < 0) GTEST_SKIP() << "/proc/self/timers cannot be read here";
  EXPECT_NE(error_of(3).find("while timing later: later's calls left 1 more POSIX timer (timer_create)"),
            std::string::npos)
      << error_of(3);
}

}  // namespace
}  // namespace kopt::bench
