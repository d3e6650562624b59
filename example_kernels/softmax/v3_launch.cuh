// v3: row-wise softmax with x read once and y written once on every shape
// class, in one entry point per dtype:
//   <= ~1024 columns       group of lanes per row, several rows per lane
//                          (v3_group_rows.cuh);
//   <= 262144 columns      row in the registers of a block, or of a cluster
//                          of up to 8 CTAs for long rows (v3_cluster_rows.cuh);
//   longer, or x and y     two-pass streaming kernel (v3_stream_rows.cuh).
//   misaligned to each other
// Rows of odd length keep 128-bit accesses for their aligned middle.
// The planner (v3_plan.cuh) picks the kernel; this file launches it.
#pragma once

#include <cuda_runtime.h>

#include <atomic>
#include <cstdint>

#include "v3_cluster_rows.cuh"
#include "v3_group_rows.cuh"
#include "v3_plan.cuh"
#include "v3_stream_rows.cuh"

namespace {
namespace v3 {

// Blocks of `kernel` resident on the whole device, cached per instantiation
// (Tag is a distinct type per call site) and device. Atomics: the harness
// may call the entry point from several host threads; a stale count only
// sizes the grid, never the result (warps stride over tiles of rows).
template <typename Tag, typename Kernel>
std::int64_t resident_blocks(Kernel kernel, int threads) {
  static std::atomic<int> cached_device{-1};
  static std::atomic<std::int64_t> cached_blocks{0};
  int device = 0;
  cudaGetDevice(&device);
  if (device != cached_device.load(std::memory_order_acquire)) {
    int per_sm = 0;
    int sms = 0;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, 0);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    cached_blocks.store(static_cast<std::int64_t>(per_sm > 0 ? per_sm : 1) * (sms > 0 ? sms : 1),
                        std::memory_order_relaxed);
    cached_device.store(device, std::memory_order_release);
    return cached_blocks.load(std::memory_order_relaxed);
  }
  return cached_blocks.load(std::memory_order_relaxed);
}

// One block per row, or one cluster per row, looping when rows exceed what
// one launch holds (gridDim.x <= 2^31 - 1).
inline unsigned grid_for_rows(std::int64_t rows, int cluster) {
  const std::int64_t max_rows = 2147483647 / cluster;
  return static_cast<unsigned>((rows < max_rows ? rows : max_rows) * cluster);
}

template <typename Kernel, typename... Args>
void launch_clustered(Kernel kernel, unsigned grid, int threads, int cluster, cudaStream_t stream,
                      Args... args) {
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(grid, 1, 1);
  config.blockDim = dim3(static_cast<unsigned>(threads), 1, 1);
  config.dynamicSmemBytes = 0;
  config.stream = stream;
  cudaLaunchAttribute attribute[1];
  attribute[0].id = cudaLaunchAttributeClusterDimension;
  attribute[0].val.clusterDim.x = static_cast<unsigned>(cluster);
  attribute[0].val.clusterDim.y = 1;
  attribute[0].val.clusterDim.z = 1;
  config.attrs = attribute;
  config.numAttrs = cluster > 1 ? 1 : 0;
  // A failed launch is left for cudaGetLastError, as for <<<...>>>.
  (void)cudaLaunchKernelEx(&config, kernel, args...);
}

template <typename T>
struct gpu_launcher {
  const T* x;
  T* y;
  std::int64_t rows;
  std::int64_t cols;
  cudaStream_t cuda_stream;

  template <typename, int kGroup, int kVecs, int kRows, access kAccess>
  void group(const plan& p) {
    const auto kernel = group_rows_kernel<T, kGroup, kVecs, kRows, kAccess>;
    struct tag {};
    const std::int64_t tile_rows = (32 / kGroup) * kRows;
    const std::int64_t blocks = ceil_div(ceil_div(rows, tile_rows), p.threads / 32);
    const std::int64_t resident = resident_blocks<tag>(kernel, p.threads);
    const unsigned grid = static_cast<unsigned>(blocks < resident ? blocks : resident);
    kernel<<<grid, p.threads, 0, cuda_stream>>>(x, y, rows, static_cast<int>(cols));
  }

  template <typename, int kVecs, int kCluster, access kAccess>
  void cluster(const plan& p) {
    launch_clustered(cluster_rows_kernel<T, kVecs, kCluster, kAccess>, grid_for_rows(rows, kCluster),
                     p.threads, kCluster, cuda_stream, x, y, rows, static_cast<int>(cols));
  }

  template <typename, int kCluster, access kAccess>
  void stream(const plan& p) {
    launch_clustered(stream_rows_kernel<T, kCluster, kAccess>, grid_for_rows(rows, kCluster), p.threads,
                     kCluster, cuda_stream, x, y, rows, cols);
  }
};

template <typename T>
void launch(const T* x, T* y, std::int64_t rows, std::int64_t cols, cudaStream_t stream) {
  const plan p = make_plan(x, y, rows, cols);
  gpu_launcher<T> launcher{x, y, rows, cols, stream};
  dispatch<T>(p, launcher);
}

}  // namespace v3
}  // namespace
