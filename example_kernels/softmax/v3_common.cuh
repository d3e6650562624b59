// v3 device helpers shared by its three row kernels (f32 and bf16 storage).
//
// Everything has internal linkage (anonymous namespace); the v3 headers do
// not include common.cuh, so v3's source hash follows only its own code.
//
// NOTE: arithmetic is in f32 whatever the storage type; bf16 is converted on
// load and rounded to nearest even on store.
#pragma once

#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstring>

namespace {
namespace v3 {

// 128-bit accesses: one vector is 16 bytes of T (4 f32 or 8 bf16), moved by
// one LDG.E.128 / STG.E.128, unpacked to f32 in registers. Through __ldg and
// __stwb (ld.global.nc.v4 / st.global.wb.v4): a plain float4 or uint4
// assignment is split into four 32-bit accesses where the compiler cannot
// see the row's head offset makes the address 16-byte aligned.
template <typename T>
struct vec_io;

template <>
struct vec_io<float> {
  static constexpr int kVec = 4;
  static __device__ __forceinline__ void load(const float* p, float (&v)[kVec]) {
    const float4 q = __ldg(reinterpret_cast<const float4*>(p));
    v[0] = q.x;
    v[1] = q.y;
    v[2] = q.z;
    v[3] = q.w;
  }
  static __device__ __forceinline__ void store(float* p, const float (&v)[kVec]) {
    __stwb(reinterpret_cast<float4*>(p), make_float4(v[0], v[1], v[2], v[3]));
  }
  static __device__ __forceinline__ float load1(const float* p) { return *p; }
  static __device__ __forceinline__ void store1(float* p, float v) { *p = v; }
};

template <>
struct vec_io<__nv_bfloat16> {
  static constexpr int kVec = 8;
  // Moved as uint4, unpacked from / packed into 32-bit words (one PRMT or
  // shift per element in, one F2FP.BF16.F32.PACK_AB per pair out).
  static __device__ __forceinline__ void unpack2(unsigned word, float& lo, float& hi) {
    __nv_bfloat162 h;
    memcpy(&h, &word, sizeof(h));
    const float2 f = __bfloat1622float2(h);
    lo = f.x;
    hi = f.y;
  }
  static __device__ __forceinline__ unsigned pack2(float lo, float hi) {
    const __nv_bfloat162 h = __floats2bfloat162_rn(lo, hi);
    unsigned word;
    memcpy(&word, &h, sizeof(word));
    return word;
  }
  static __device__ __forceinline__ void load(const __nv_bfloat16* p, float (&v)[kVec]) {
    const uint4 raw = __ldg(reinterpret_cast<const uint4*>(p));
    unpack2(raw.x, v[0], v[1]);
    unpack2(raw.y, v[2], v[3]);
    unpack2(raw.z, v[4], v[5]);
    unpack2(raw.w, v[6], v[7]);
  }
  static __device__ __forceinline__ void store(__nv_bfloat16* p, const float (&v)[kVec]) {
    __stwb(reinterpret_cast<uint4*>(p),
           make_uint4(pack2(v[0], v[1]), pack2(v[2], v[3]), pack2(v[4], v[5]), pack2(v[6], v[7])));
  }
  static __device__ __forceinline__ float load1(const __nv_bfloat16* p) { return __bfloat162float(*p); }
  static __device__ __forceinline__ void store1(__nv_bfloat16* p, float v) { *p = __float2bfloat16_rn(v); }
};

// Row values a thread holds in registers, as f32: the budget that keeps the
// kernels at <= 64 registers (1024 threads per SM), as v2 (8 f32 or 4 bf16
// vectors).
constexpr int kValuesPerThread = 32;

// How rows are accessed, fixed per launch by the planner (v3_plan.cuh):
//   aligned: every row starts 16-byte aligned and cols % kVec == 0: rows are
//            whole vectors, no head or tail;
//   shifted: x and y are equally misaligned (odd cols): per row, a scalar
//            head up to the first 16-byte boundary, 128-bit vectors, a
//            scalar tail (each < kVec elements);
//   scalar:  x and y misaligned relative to each other: vectors of kVec
//            consecutive elements moved one element at a time.
enum class access { aligned, shifted, scalar };

// One row: `head` elements, then `body` vectors from element `head` on,
// then `tail` elements. Index: int, or std::int64_t for the streaming
// kernel, whose rows may be longer than 2^31 elements.
template <typename Index>
struct row_split {
  Index head;
  Index body;
  Index tail;
};

template <typename T, access kAccess, typename Index>
__device__ __forceinline__ row_split<Index> split_row(const T* row, Index cols) {
  constexpr int kVec = vec_io<T>::kVec;
  if constexpr (kAccess == access::aligned) {
    return {0, cols / kVec, 0};
  } else if constexpr (kAccess == access::scalar) {
    return {0, cols / kVec, cols % kVec};
  } else {
    // Elements up to the next 16-byte boundary (rows start T-aligned).
    const Index to_boundary = static_cast<Index>(
        (kVec - (reinterpret_cast<std::uintptr_t>(row) / sizeof(T))) & (kVec - 1));
    const Index head = to_boundary < cols ? to_boundary : cols;
    const Index body = (cols - head) / kVec;
    return {head, body, cols - head - body * kVec};
  }
}

template <typename T, access kAccess>
__device__ __forceinline__ void load_vec(const T* p, float (&v)[vec_io<T>::kVec]) {
  if constexpr (kAccess == access::scalar) {
#pragma unroll
    for (int j = 0; j < vec_io<T>::kVec; ++j) v[j] = vec_io<T>::load1(p + j);
  } else {
    vec_io<T>::load(p, v);
  }
}

template <typename T, access kAccess>
__device__ __forceinline__ void store_vec(T* p, const float (&v)[vec_io<T>::kVec]) {
  if constexpr (kAccess == access::scalar) {
#pragma unroll
    for (int j = 0; j < vec_io<T>::kVec; ++j) vec_io<T>::store1(p + j, v[j]);
  } else {
    vec_io<T>::store(p, v);
  }
}

// exp(x - max) as 2^(x*log2e - max*log2e): one FFMA and one MUFU.EX2 per
// element. The rounding of max*log2e is common to the whole row and cancels
// in the normalization; the FFMA's rounding of an exponent |t| < 64 is
// <= 2^-19 absolute, ~1.3e-6 relative after ex2 (expf(x - max) has the same
// order); ex2.approx adds ~2^-22. ftz: results below 2^-126 become 0, within
// any ATOL; -inf (a masked logit) gives exactly 0.
constexpr float kLog2e = 1.4426950408889634f;

__device__ __forceinline__ float exp2_approx(float t) {
#ifdef __CUDA_ARCH__
  float r;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(t));
  return r;
#else
  return std::exp2(t);
#endif
}

// Butterfly over aligned groups of kWidth lanes (a power of 2 <= 32): every
// lane ends with its group's result. REQUIRES: all 32 lanes of the warp
// active.
template <int kWidth>
__device__ __forceinline__ float group_max(float v) {
#pragma unroll
  for (int offset = kWidth / 2; offset > 0; offset >>= 1)
    v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, offset));
  return v;
}

template <int kWidth>
__device__ __forceinline__ float group_sum(float v) {
#pragma unroll
  for (int offset = kWidth / 2; offset > 0; offset >>= 1) v += __shfl_xor_sync(0xffffffffu, v, offset);
  return v;
}

}  // namespace v3
}  // namespace
