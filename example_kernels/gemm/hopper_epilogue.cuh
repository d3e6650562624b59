// Hopper (sm_90) building blocks for an epilogue that stages C in shared
// memory and writes it with the copy engine: the TMA store, its bulk async
// groups, the proxy fence that orders ordinary shared-memory stores before
// the copy engine reads them, and a named barrier for one warpgroup. Same
// conventions as hopper.cuh (one PTX instruction per wrapper, 32-bit
// shared-window addresses); kept apart so that v5's header stays as v5 was
// recorded.
#pragma once

#include <cuda.h>  // CUtensorMap (a type only)

#include <cstdint>

namespace hopper {

// Makes this thread's ordinary (generic-proxy) shared-memory writes visible
// to the async proxy, i.e. to a TMA store issued after a barrier.
__device__ __forceinline__ void fence_proxy_async_shared() {
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}

// Barrier `id` (1..15; 0 is __syncthreads) over `threads` threads, a
// multiple of 32; lets one warpgroup synchronise without the others.
__device__ __forceinline__ void named_barrier_sync(std::uint32_t id, std::uint32_t threads) {
  asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(threads) : "memory");
}

__device__ __forceinline__ void st_shared_v2(std::uint32_t addr, float x, float y) {
  asm volatile("st.shared.v2.f32 [%0], {%1, %2};" ::"r"(addr), "f"(x), "f"(y) : "memory");
}

// Copies the box at `src` in shared memory to element coordinates (x, y) of
// the tensor (x the contiguous dimension). Parts of the box outside the
// tensor are not written. Joins this thread's current bulk async group.
__device__ __forceinline__ void tma_store_2d(const CUtensorMap* map, std::uint32_t src, int x,
                                             int y) {
  asm volatile(
      "cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%2, %3}], [%1];" ::"l"(
          reinterpret_cast<std::uint64_t>(map)),
      "r"(src), "r"(x), "r"(y)
      : "memory");
}

// Closes this thread's current bulk async group (possibly empty).
__device__ __forceinline__ void bulk_commit_group() {
  asm volatile("cp.async.bulk.commit_group;" ::: "memory");
}

// Waits until at most kPending of this thread's committed bulk groups have
// not yet finished reading their shared-memory sources (the buffers of the
// others may be rewritten; their global writes may still be in flight).
template <int kPending>
__device__ __forceinline__ void bulk_wait_group_read() {
  asm volatile("cp.async.bulk.wait_group.read %0;" ::"n"(kPending) : "memory");
}

// Waits until at most kPending of this thread's committed bulk groups are
// incomplete, global writes included.
template <int kPending>
__device__ __forceinline__ void bulk_wait_group() {
  asm volatile("cp.async.bulk.wait_group %0;" ::"n"(kPending) : "memory");
}

}  // namespace hopper
