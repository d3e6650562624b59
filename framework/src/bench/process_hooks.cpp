#include "bench/process_hooks.hpp"

#include <signal.h>
#include <sys/time.h>

#include <cstring>
#include <fstream>

namespace kopt::bench {
namespace {

constexpr std::array<int, 3> k_itimers = {ITIMER_REAL, ITIMER_VIRTUAL, ITIMER_PROF};
constexpr std::array<const char*, 3> k_itimer_names = {"ITIMER_REAL", "ITIMER_VIRTUAL", "ITIMER_PROF"};

int posix_timers() {
  std::ifstream in("/proc/self/timers");
  if (!in) return -1;
  int count = 0;
  std::string line;
  while (std::getline(in, line)) count += line.rfind("ID:", 0) == 0 ? 1 : 0;
  return count;
}

}  // namespace

process_hooks snapshot_hooks() {
  process_hooks h;
  h.m_handlers.assign(NSIG, 0);
  for (int sig = 1; sig < NSIG; ++sig) {
    struct sigaction current {};
    if (::sigaction(sig, nullptr, &current) == 0) {
      h.m_handlers[static_cast<std::size_t>(sig)] = reinterpret_cast<std::uintptr_t>(current.sa_handler);
    }
  }
  for (std::size_t k = 0; k < k_itimers.size(); ++k) {
    itimerval value{};
    h.m_itimers[k] = ::getitimer(k_itimers[k], &value) == 0 &&
                     (value.it_value.tv_sec != 0 || value.it_value.tv_usec != 0);
  }
  h.m_posix_timers = posix_timers();
  return h;
}

std::vector<std::string> hook_changes(const process_hooks& before, const process_hooks& after) {
  std::vector<std::string> changes;
  const auto default_or_ignore = [](std::uintptr_t handler) {
    return handler == reinterpret_cast<std::uintptr_t>(SIG_DFL) || handler == reinterpret_cast<std::uintptr_t>(SIG_IGN);
  };
  for (std::size_t sig = 1; sig < after.m_handlers.size() && sig < before.m_handlers.size(); ++sig) {
    const std::uintptr_t now = after.m_handlers[sig];
    if (now == before.m_handlers[sig] || default_or_ignore(now)) continue;
    changes.push_back("a handler for signal " + std::to_string(sig) + " (" + ::strsignal(static_cast<int>(sig)) + ")");
  }
  for (std::size_t k = 0; k < k_itimers.size(); ++k) {
    if (after.m_itimers[k] && !before.m_itimers[k]) {
      changes.push_back(std::string("an armed interval timer (") + k_itimer_names[k] + ")");
    }
  }
  if (before.m_posix_timers >= 0 && after.m_posix_timers > before.m_posix_timers) {
    const int more = after.m_posix_timers - before.m_posix_timers;
    changes.push_back(std::to_string(more) + " more POSIX timer" + (more == 1 ? "" : "s") + " (timer_create)");
  }
  return changes;
}

}  // namespace kopt::bench
