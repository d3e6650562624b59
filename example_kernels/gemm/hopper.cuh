// Hopper (sm_90a) building blocks for the GEMM variants, as thin inline-PTX
// wrappers: mbarriers, bulk tensor copies (TMA), setmaxnreg, shared-memory
// matrix descriptors and the wgmma shapes v5 issues. Each wrapper is one PTX
// instruction (or a wait loop around one) so that the kernel reads as its
// protocol; the PTX ISA names them the same way ("mbarrier",
// "cp.async.bulk.tensor", "wgmma").
//
// NOTE: shared-memory arguments are 32-bit shared-window addresses
// (smem_u32), not generic pointers: mbarrier, TMA and descriptors all take
// those, and keeping them as integers lets the compiler fold stage offsets.
#pragma once

#include <cuda.h>  // CUtensorMap (a type only; nothing links against libcuda)

#include <cstdint>

namespace hopper {

__device__ __forceinline__ std::uint32_t smem_u32(const void* p) {
  return static_cast<std::uint32_t>(__cvta_generic_to_shared(p));
}

// ---- mbarrier -------------------------------------------------------------

__device__ __forceinline__ void mbar_init(std::uint32_t bar, std::uint32_t count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(count) : "memory");
}

// Makes initialised barriers visible to the async proxy (TMA's complete_tx)
// before anyone else touches them (PTX has only the .cluster form).
__device__ __forceinline__ void fence_barrier_init() {
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}

// One arrival that also raises the phase's expected transaction bytes; the
// phase completes once the TMA copies have delivered that many bytes.
__device__ __forceinline__ void mbar_arrive_expect_tx(std::uint32_t bar, std::uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(bytes)
               : "memory");
}

__device__ __forceinline__ void mbar_arrive(std::uint32_t bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(bar) : "memory");
}

// Spins until the phase of parity `parity` has completed. A freshly
// initialised barrier is in phase 0, and waiting on parity 1 returns at once
// (the phase "before" it counts as complete): producers start there.
__device__ __forceinline__ void mbar_wait(std::uint32_t bar, std::uint32_t parity) {
  std::uint32_t done;
  do {
    asm volatile(
        "{\n"
        "  .reg .pred p;\n"
        "  mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
        "  selp.u32 %0, 1, 0, p;\n"
        "}\n"
        : "=r"(done)
        : "r"(bar), "r"(parity)
        : "memory");
  } while (done == 0);
}

// ---- TMA (bulk tensor copy) -------------------------------------------------

__device__ __forceinline__ void prefetch_tensor_map(const CUtensorMap* map) {
  asm volatile("prefetch.tensormap [%0];" ::"l"(reinterpret_cast<std::uint64_t>(map)) : "memory");
}

// Copies the box at element coordinates (x, y) (x the contiguous dimension)
// into shared memory at `dst`; completes `bar`'s transaction bytes. Parts of
// the box outside the tensor arrive as zeros and still count as bytes.
__device__ __forceinline__ void tma_load_2d(std::uint32_t dst, const CUtensorMap* map,
                                            std::uint32_t bar, int x, int y) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
      " [%0], [%1, {%3, %4}], [%2];" ::"r"(dst),
      "l"(reinterpret_cast<std::uint64_t>(map)), "r"(bar), "r"(x), "r"(y)
      : "memory");
}

// ---- register reallocation between warpgroups -------------------------------

template <int kRegs>
__device__ __forceinline__ void setmaxnreg_inc() {
  asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" ::"n"(kRegs));
}

template <int kRegs>
__device__ __forceinline__ void setmaxnreg_dec() {
  asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" ::"n"(kRegs));
}

// ---- wgmma ------------------------------------------------------------------

// Shared-memory matrix descriptor with 128-byte swizzling (PTX ISA, "Matrix
// Descriptor Format"): start address, leading and stride byte offsets, each
// stored >> 4 in 14 bits; base offset 0 (every swizzle atom of 8 rows x 128
// bytes starts on a 1024-byte boundary); bits 62-63 = 1 selects SWIZZLE_128B.
__device__ __forceinline__ std::uint64_t make_desc_sw128(std::uint32_t addr,
                                                         std::uint32_t leading_bytes,
                                                         std::uint32_t stride_bytes) {
  return static_cast<std::uint64_t>((addr & 0x3FFFFu) >> 4) |
         (static_cast<std::uint64_t>((leading_bytes & 0x3FFFFu) >> 4) << 16) |
         (static_cast<std::uint64_t>((stride_bytes & 0x3FFFFu) >> 4) << 32) | (1ull << 62);
}

// Orders this thread's register accesses before the wgmma that follows.
__device__ __forceinline__ void wgmma_fence() {
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
}

__device__ __forceinline__ void wgmma_commit() {
  asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
}

// Waits until at most kPending committed wgmma groups are still running.
template <int kPending>
__device__ __forceinline__ void wgmma_wait() {
  asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(kPending) : "memory");
}

// The accumulators are written by the tensor cores behind the compiler's
// back: this ties a register to a point in the program (after wgmma_wait,
// before the epilogue reads it) so that no read is scheduled above the wait.
__device__ __forceinline__ void fence_operand(float& r) { asm volatile("" : "+f"(r)::"memory"); }

// D[64xN] (+)= A[64x16] * B[16xN], bf16 in, f32 accumulate, both operands
// from shared memory: A K-major (imm-trans-a = 0), B MN-major (imm-trans-b =
// 1, the layout of a row-major K x N matrix). `accumulate` = 0 overwrites D.
// d[] is the m64nN f32 fragment: N/2 registers per thread of the warpgroup.
__device__ __forceinline__ void wgmma_m64n256k16_bf16_tnspb(float (&d)[128], std::uint64_t desc_a,
                                                            std::uint64_t desc_b,
                                                            std::uint32_t accumulate) {
  asm volatile(
      "{\n"
      "  .reg .pred p;\n"
      "  setp.ne.b32 p, %130, 0;\n"
      "  wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16\n"
      "  {"
      "  %0, %1, %2, %3, %4, %5, %6, %7,\n"
      "  %8, %9, %10, %11, %12, %13, %14, %15,\n"
      "  %16, %17, %18, %19, %20, %21, %22, %23,\n"
      "  %24, %25, %26, %27, %28, %29, %30, %31,\n"
      "  %32, %33, %34, %35, %36, %37, %38, %39,\n"
      "  %40, %41, %42, %43, %44, %45, %46, %47,\n"
      "  %48, %49, %50, %51, %52, %53, %54, %55,\n"
      "  %56, %57, %58, %59, %60, %61, %62, %63,\n"
      "  %64, %65, %66, %67, %68, %69, %70, %71,\n"
      "  %72, %73, %74, %75, %76, %77, %78, %79,\n"
      "  %80, %81, %82, %83, %84, %85, %86, %87,\n"
      "  %88, %89, %90, %91, %92, %93, %94, %95,\n"
      "  %96, %97, %98, %99, %100, %101, %102, %103,\n"
      "  %104, %105, %106, %107, %108, %109, %110, %111,\n"
      "  %112, %113, %114, %115, %116, %117, %118, %119,\n"
      "  %120, %121, %122, %123, %124, %125, %126, %127},\n"
      "  %128, %129, p, 1, 1, 0, 1;\n"
      "}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]),
        "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]),
        "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]),
        "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]),
        "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]),
        "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]),
        "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]),
        "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
        "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]),
        "+f"(d[63]), "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]),
        "+f"(d[70]), "+f"(d[71]), "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]),
        "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]),
        "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]), "+f"(d[90]),
        "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]), "+f"(d[96]), "+f"(d[97]),
        "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]),
        "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]),
        "+f"(d[110]), "+f"(d[111]), "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]),
        "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]), "+f"(d[120]), "+f"(d[121]),
        "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
      : "l"(desc_a), "l"(desc_b), "r"(accumulate));
}

__device__ __forceinline__ void wgmma_m64n192k16_bf16_tnspb(float (&d)[96], std::uint64_t desc_a,
                                                            std::uint64_t desc_b,
                                                            std::uint32_t accumulate) {
  asm volatile(
      "{\n"
      "  .reg .pred p;\n"
      "  setp.ne.b32 p, %98, 0;\n"
      "  wgmma.mma_async.sync.aligned.m64n192k16.f32.bf16.bf16\n"
      "  {"
      "  %0, %1, %2, %3, %4, %5, %6, %7,\n"
      "  %8, %9, %10, %11, %12, %13, %14, %15,\n"
      "  %16, %17, %18, %19, %20, %21, %22, %23,\n"
      "  %24, %25, %26, %27, %28, %29, %30, %31,\n"
      "  %32, %33, %34, %35, %36, %37, %38, %39,\n"
      "  %40, %41, %42, %43, %44, %45, %46, %47,\n"
      "  %48, %49, %50, %51, %52, %53, %54, %55,\n"
      "  %56, %57, %58, %59, %60, %61, %62, %63,\n"
      "  %64, %65, %66, %67, %68, %69, %70, %71,\n"
      "  %72, %73, %74, %75, %76, %77, %78, %79,\n"
      "  %80, %81, %82, %83, %84, %85, %86, %87,\n"
      "  %88, %89, %90, %91, %92, %93, %94, %95},\n"
      "  %96, %97, p, 1, 1, 0, 1;\n"
      "}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]),
        "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]),
        "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]),
        "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]),
        "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]),
        "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]),
        "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]),
        "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
        "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]),
        "+f"(d[63]), "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]),
        "+f"(d[70]), "+f"(d[71]), "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]),
        "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]),
        "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]), "+f"(d[90]),
        "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95])
      : "l"(desc_a), "l"(desc_b), "r"(accumulate));
}

template <int kN>
__device__ __forceinline__ void wgmma_m64k16_bf16_tnspb(float (&d)[kN / 2], std::uint64_t desc_a,
                                                        std::uint64_t desc_b,
                                                        std::uint32_t accumulate) {
  static_assert(kN == 256 || kN == 192, "wgmma widths wrapped here");
  if constexpr (kN == 256)
    wgmma_m64n256k16_bf16_tnspb(d, desc_a, desc_b, accumulate);
  else
    wgmma_m64n192k16_bf16_tnspb(d, desc_a, desc_b, accumulate);
}

}  // namespace hopper
