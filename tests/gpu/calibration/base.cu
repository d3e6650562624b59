#include <cstdlib>

#include "chain.cuh"

// KOPT_CALIBRATION_EXTRA_ITERS=E (tools/gpu/gate_calibration.sh only): E
// more chain iterations, a real slowdown of the same sources, so that the
// perf gate's calibration can time "this tree, made slower" against a
// record and baseline of this tree. Unset: exactly the work of the record.
void calibration_base(const float* x, float* y, std::int64_t n, std::int64_t iters, cudaStream_t stream) {
  static const std::int64_t extra = [] {
    const char* env = std::getenv("KOPT_CALIBRATION_EXTRA_ITERS");
    return env != nullptr ? std::atoll(env) : 0LL;
  }();
  launch_chain(x, y, n, iters, extra, stream);
}
