#include <cstdint>
#include <cstdlib>

// KOPT_CI_FLOW_SLOWDOWN=N (tests/ci_flow only): the same result computed
// N times, as a PR that made the kernel slower would.
void ci_flow_v0(const float* x, float* y, std::int64_t n) {
  static const int repeats = [] {
    const char* env = std::getenv("KOPT_CI_FLOW_SLOWDOWN");
    const int value = env != nullptr ? std::atoi(env) : 1;
    return value < 1 ? 1 : value;
  }();
  for (int r = 0; r < repeats; ++r) {
    for (std::int64_t i = 0; i < n; ++i) {
      float v = x[i];
      for (int k = 0; k < 20; ++k) v = v * 0.5f + 0.25f;
      y[i] = v;
    }
  }
}
