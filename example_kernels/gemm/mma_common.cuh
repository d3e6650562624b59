// Device helpers shared by the tensor-core GEMM variants (v3, v4): thin
// wrappers over the PTX of ldmatrix, mma.sync m16n8k16 (bf16 in, f32
// accumulate) and cp.async, plus the tile bookkeeping every tiled variant
// repeats.
//
// Everything has internal linkage (anonymous namespace): all variants link
// into one executable, and each .cu that includes this header gets its own
// copy.
//
// Fragment layouts (PTX ISA, "Matrix Fragments for mma.m16n8k16"), with
// g = lane / 4 and t = lane % 4:
//   A (16x16, row-major): a0 = (g, 2t..2t+1), a1 = (g+8, 2t..), a2 = (g, 2t+8..),
//                         a3 = (g+8, 2t+8..)
//   B (16x8, "col"):      b0 = (k 2t..2t+1, n g), b1 = (k 2t+8.., n g)
//   C (16x8, f32):        c0,c1 = (g, 2t..2t+1), c2,c3 = (g+8, 2t..2t+1)
// ldmatrix.x4 with lane l pointing at row (l % 16), column (l / 16) * 8 of a
// 16x16 bf16 block yields exactly a0..a3 of that block. B is stored k-major
// (row-major [K,N]); the same addressing with .trans yields b0,b1 of the
// n-columns 0-7 (registers 0,1) and of n-columns 8-15 (registers 2,3).
#pragma once

#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdint>

namespace {

// The 32-bit shared-window address that ldmatrix and cp.async take.
__device__ __forceinline__ std::uint32_t smem_addr(const void* p) {
  return static_cast<std::uint32_t>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void ldmatrix_x4(std::uint32_t (&r)[4], std::uint32_t addr) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(addr));
}

__device__ __forceinline__ void ldmatrix_x4_trans(std::uint32_t (&r)[4], std::uint32_t addr) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(addr));
}

// d += a * b for one 16x8x16 tile; b0, b1 are the two B registers.
__device__ __forceinline__ void mma_bf16_16816(float (&d)[4], const std::uint32_t (&a)[4],
                                               std::uint32_t b0, std::uint32_t b1) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
      "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

// 16-byte global -> shared copy that bypasses L1 (.cg). When !valid, zero
// bytes are read (src-size 0) and the 16 destination bytes are zero-filled:
// out-of-range rows and K columns become zeros that add nothing. src must
// still be a mapped address, so callers pass a clamped one.
__device__ __forceinline__ void cp_async_16(std::uint32_t dst, const void* src, bool valid) {
  const int src_size = valid ? 16 : 0;
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src),
               "r"(src_size));
}

__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n"); }

// Waits until at most `pending` of this thread's committed groups are in flight.
template <int pending>
__device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(pending));
}

// 16-byte load of 8 bf16, or zeros when out of range (dimensions are
// multiples of 8, so an aligned 8-element chunk is wholly in or out).
__device__ __forceinline__ uint4 load_chunk_or_zero(const __nv_bfloat16* p, bool valid) {
  return valid ? __ldg(reinterpret_cast<const uint4*>(p)) : make_uint4(0u, 0u, 0u, 0u);
}

// Stores the two f32 values of one accumulator half-row (columns n, n+1).
// N is even and n is even, so n < N implies n + 1 < N. __stcg is an explicit
// 64-bit store (a plain float2 store was split into two scalar ones by the
// compiler on some paths); C is not re-read, so it need not stay in L1.
__device__ __forceinline__ void store_pair(float* C, std::int64_t M, std::int64_t N,
                                           std::int64_t m, std::int64_t n, float v0, float v1) {
  if (m < M && n < N) __stcg(reinterpret_cast<float2*>(C + m * N + n), make_float2(v0, v1));
}

constexpr std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

}  // namespace
