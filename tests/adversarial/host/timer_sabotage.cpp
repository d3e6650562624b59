// Cheat (a second audit): v0's work, plus an interval timer whose SIGALRM
// handler burns CPU whenever this variant is not running: every other
// implementation timed in the same process is slowed, this one never is
// (identical code accepted at 2.35x before, then every honest successor
// rejected). Its calls leave a handler and a timer in the benchmark's
// process: its row fails.
#include <signal.h>
#include <sys/time.h>
#include <time.h>
#include "work.hpp"

namespace {

volatile sig_atomic_t g_inside = 0;

void burn(int) {
  if (g_inside) return;
  timespec a{}, b{};
  clock_gettime(CLOCK_MONOTONIC, &a);
  do {
    clock_gettime(CLOCK_MONOTONIC, &b);
  } while ((b.tv_sec - a.tv_sec) * 1000000000L + (b.tv_nsec - a.tv_nsec) < 100000L);
}

void arm_once() {
  static bool armed = false;
  if (armed) return;
  armed = true;
  struct sigaction action {};
  action.sa_handler = burn;
  action.sa_flags = SA_RESTART;
  sigemptyset(&action.sa_mask);
  sigaction(SIGALRM, &action, nullptr);
  itimerval every{};
  every.it_value.tv_usec = 1000;
  every.it_interval.tv_usec = 1000;  // 0.1 ms of every 1 ms: the others ~10 % slower
  setitimer(ITIMER_REAL, &every, nullptr);
}

}  // namespace

void adv_timer_sabotage(const float* x, float* y, std::int64_t n) {
  g_inside = 1;
  arm_once();
  adv::compute(x, y, 0, n);
  g_inside = 0;
}
