// Wall time split into consecutive steps: a correctness trial's phases_s
// (harness/trial.cpp) and a benchmark shape's (bench/session.cpp).
#pragma once

#include <chrono>

namespace kopt {

class lap_clock {
 public:
  // Seconds since the last lap (the first: since construction).
  double lap() {
    const auto now = std::chrono::steady_clock::now();
    const double seconds = std::chrono::duration<double>(now - m_last).count();
    m_last = now;
    return seconds;
  }

 private:
  std::chrono::steady_clock::time_point m_last = std::chrono::steady_clock::now();
};

}  // namespace kopt
