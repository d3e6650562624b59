// softmax_bf16 v5: a family (docs/sweeps.md) over v3. v3's planner picks
// the kernel per shape as before; rows held by a block or a cluster
// (v3: > ~1024 columns) take v5's cluster kernel (v5_cluster_rows.cuh) with
// the point's BATCH (loads batched before any conversion, or v3's order)
// and MAX_THREADS (its launch bounds: 64 or 128 registers). Short rows and
// the streaming path run v3's kernels unchanged. The point BATCH=0,
// MAX_THREADS=1024 is v3 itself: the sweep measures the method against it
// in the same run.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdint>

#include <kernelopt_params.hpp>

#include "v3_launch.cuh"
#include "v5_cluster_rows.cuh"

namespace {
namespace v5 {

constexpr bool kBatch = kopt::params::BATCH != 0;
constexpr int kMaxThreads = static_cast<int>(kopt::params::MAX_THREADS);
static_assert(kMaxThreads == 512 || kMaxThreads == 1024, "MAX_THREADS: 512 or 1024");

// v3's launcher, but the block / cluster rows go to v5's kernel.
struct launcher : v3::gpu_launcher<__nv_bfloat16> {
  template <typename, int kVecs, int kCluster, access kAccess>
  void cluster(const v3::plan& p) {
    if (p.threads > kMaxThreads) {
      // More threads than this point's launch bounds allow (rows beyond
      // ~131072 columns): v3's kernel, whose bounds are 1024.
      v3::gpu_launcher<__nv_bfloat16>::cluster<__nv_bfloat16, kVecs, kCluster, kAccess>(p);
      return;
    }
    v3::launch_clustered(cluster_rows_kernel<kVecs, kCluster, kAccess, kBatch, kMaxThreads>,
                         v3::grid_for_rows(rows, kCluster), p.threads, kCluster, cuda_stream, x, y, rows,
                         static_cast<int>(cols));
  }
};

}  // namespace v5
}  // namespace

void softmax_bf16_v5(const __nv_bfloat16* x, __nv_bfloat16* y, std::int64_t rows, std::int64_t cols,
                     cudaStream_t stream) {
  const v3::plan p = v3::make_plan(x, y, rows, cols);
  v5::launcher launcher{{x, y, rows, cols, stream}};
  v3::dispatch<__nv_bfloat16>(p, launcher);
}
