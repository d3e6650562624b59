// v3's choice of kernel and configuration per launch (host code, no CUDA
// call): which of the three row kernels, which instantiation, how many
// threads. dispatch() maps a plan to the one instantiation that runs it and
// hands it to a visitor: the GPU launcher (v3_launch.cuh), or a test that
// runs the same instantiation elsewhere.
#pragma once

#include <cstdint>

#include "v3_common.cuh"
#include "v3_group_rows.cuh"

namespace {
namespace v3 {

enum class path { none, group, cluster, stream };

struct plan {
  path kind = path::none;
  access mode = access::aligned;
  int group = 0;          // group: lanes per row
  int vecs = 0;           // group, cluster: 128-bit vectors per thread and row
  int rows_per_lane = 0;  // group: rows a lane holds at once
  int cluster = 1;        // cluster, stream: CTAs per row
  int threads = 0;        // block size
};

// Group and cluster kernels hold a row in registers up to these many
// vectors: 32 lanes x 8 f32 vectors or 32 x 4 bf16 vectors for a warp (~1024
// columns); 8 CTAs x 1024 threads x 32 values (262144 columns) for a cluster.
constexpr std::int64_t kMaxClusterThreads = 8 * 1024;
// Blocks are kept at <= this many threads when a cluster can split the row.
// f32: 1024 (one CTA per SM): v2's 1024-thread blocks reached 95 % of the
// copy bandwidth at 32000 columns, and each cluster barrier costs a
// MEMBAR.GPU. bf16: 512 (two CTAs per SM, one's loads overlapping the
// other's reductions): a bf16 row moves half the bytes per register, and
// v2's 1024-thread blocks reached only 70 % there (91 % with four 256-thread
// blocks per SM at 8192 columns).
template <typename T>
constexpr int preferred_threads() {
  return sizeof(T) >= 4 ? 1024 : 512;
}

inline std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

inline int whole_warps(std::int64_t threads) {
  return static_cast<int>(ceil_div(threads < 32 ? 32 : threads, 32) * 32);
}

template <typename T>
plan make_plan(const T* x, const T* y, std::int64_t rows, std::int64_t cols) {
  constexpr int kVec = vec_io<T>::kVec;
  constexpr int kBudget = kValuesPerThread / kVec;  // vectors per thread: 8 f32, 4 bf16
  plan p;
  if (rows <= 0 || cols <= 0) return p;  // nothing to write; a 0-block grid is a launch error
  const auto xa = reinterpret_cast<std::uintptr_t>(x);
  const auto ya = reinterpret_cast<std::uintptr_t>(y);
  const std::int64_t vectors = cols / kVec;  // >= the body of any row

  if ((xa - ya) % 16 != 0) {
    // No common 16-byte boundary: scalar accesses, streaming kernel.
    p.kind = path::stream;
    p.mode = access::scalar;
    // About 4 vectors per thread and pass, up to 1024 threads per CTA.
    p.cluster = vectors > 8 * 4 * 1024 ? 8 : 1;
    const std::int64_t threads = ceil_div(vectors, 4 * p.cluster);
    p.threads = whole_warps(threads < 1024 ? threads : 1024);
    return p;
  }
  p.mode = xa % 16 == 0 && cols % kVec == 0 ? access::aligned : access::shifted;

  if (vectors <= 32 * kBudget) {
    p.kind = path::group;
    // Head and tail lanes need 2 x kVec lanes in a shifted group.
    const int min_group = p.mode == access::aligned ? kVec : 2 * kVec;
    if (vectors <= 32) {
      p.vecs = 1;
      p.group = min_group;
      while (p.group < vectors) p.group *= 2;
    } else {
      p.group = 32;
      p.vecs = 2;
      while (32 * p.vecs < vectors) p.vecs *= 2;
    }
    p.rows_per_lane = p.mode == access::aligned ? group_rows_per_lane<T, access::aligned>(p.vecs)
                                                : group_rows_per_lane<T, access::shifted>(p.vecs);
    p.threads = 256;
    return p;
  }

  const std::int64_t threads = ceil_div(vectors, kBudget);  // over the whole cluster
  if (threads <= kMaxClusterThreads) {
    p.kind = path::cluster;
    p.vecs = kBudget;
    p.cluster = 1;
    while (p.cluster < 8 && ceil_div(threads, p.cluster) > preferred_threads<T>()) p.cluster *= 2;
    p.threads = whole_warps(ceil_div(threads, p.cluster));
    return p;
  }

  p.kind = path::stream;
  p.mode = access::shifted;  // aligned rows are shifted rows with empty edges
  p.cluster = 8;
  p.threads = 1024;
  return p;
}

// dispatch: calls visitor.template group<T, kGroup, kVecs, kRows, kAccess>(p),
// cluster<T, kVecs, kCluster, kAccess>(p) or stream<T, kCluster, kAccess>(p)
// for the instantiation that runs p. Returns false for a plan that has
// none (path::none).
template <typename T, access kAccess, int kGroup, int kVecs, typename Visitor>
bool try_group(const plan& p, Visitor& visitor) {
  constexpr int kVec = vec_io<T>::kVec;
  constexpr int kBudget = kValuesPerThread / kVec;
  constexpr int kMinGroup = kAccess == access::aligned ? kVec : 2 * kVec;
  if constexpr (kVecs <= kBudget && kGroup >= kMinGroup) {
    if (p.mode == kAccess && p.group == kGroup && p.vecs == kVecs) {
      visitor.template group<T, kGroup, kVecs, group_rows_per_lane<T, kAccess>(kVecs), kAccess>(p);
      return true;
    }
  }
  return false;
}

template <typename T, access kAccess, typename Visitor>
bool try_groups(const plan& p, Visitor& visitor) {
  return try_group<T, kAccess, 4, 1>(p, visitor) || try_group<T, kAccess, 8, 1>(p, visitor) ||
         try_group<T, kAccess, 16, 1>(p, visitor) || try_group<T, kAccess, 32, 1>(p, visitor) ||
         try_group<T, kAccess, 32, 2>(p, visitor) || try_group<T, kAccess, 32, 4>(p, visitor) ||
         try_group<T, kAccess, 32, 8>(p, visitor);
}

template <typename T, access kAccess, int kCluster, typename Visitor>
bool try_cluster(const plan& p, Visitor& visitor) {
  constexpr int kBudget = kValuesPerThread / vec_io<T>::kVec;
  if (p.mode != kAccess || p.cluster != kCluster || p.vecs != kBudget) return false;
  visitor.template cluster<T, kBudget, kCluster, kAccess>(p);
  return true;
}

template <typename T, access kAccess, typename Visitor>
bool try_clusters(const plan& p, Visitor& visitor) {
  return try_cluster<T, kAccess, 1>(p, visitor) || try_cluster<T, kAccess, 2>(p, visitor) ||
         try_cluster<T, kAccess, 4>(p, visitor) || try_cluster<T, kAccess, 8>(p, visitor);
}

template <typename T, access kAccess, int kCluster, typename Visitor>
bool try_stream(const plan& p, Visitor& visitor) {
  if (p.mode != kAccess || p.cluster != kCluster) return false;
  visitor.template stream<T, kCluster, kAccess>(p);
  return true;
}

template <typename T, typename Visitor>
bool dispatch(const plan& p, Visitor& visitor) {
  switch (p.kind) {
    case path::group:
      return try_groups<T, access::aligned>(p, visitor) || try_groups<T, access::shifted>(p, visitor);
    case path::cluster:
      return try_clusters<T, access::aligned>(p, visitor) || try_clusters<T, access::shifted>(p, visitor);
    case path::stream:
      return try_stream<T, access::shifted, 8>(p, visitor) || try_stream<T, access::scalar, 1>(p, visitor) ||
             try_stream<T, access::scalar, 8>(p, visitor);
    case path::none:
      break;
  }
  return false;
}

}  // namespace v3
}  // namespace
