// ldmatrix + mma.sync (HMMA) + stmatrix, and cp.async (LDGSTS).
#include <cuda_runtime.h>
#include <cstdint>

__global__ void mma_tile(const uint4* __restrict__ a, const uint32_t* __restrict__ b, float* c) {
  __shared__ __align__(16) unsigned short tile[16 * 16];
  __shared__ __align__(16) unsigned short out[16 * 16];
  // cp.async: 16 bytes per thread, 32 threads = one 16x16 bf16 tile.
  const uint32_t dst = static_cast<uint32_t>(__cvta_generic_to_shared(tile + threadIdx.x * 8));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst), "l"(a + threadIdx.x));
  asm volatile("cp.async.commit_group;\n" ::);
  asm volatile("cp.async.wait_group 0;\n" ::);
  __syncwarp();
  uint32_t a0, a1, a2, a3;
  const uint32_t row = static_cast<uint32_t>(__cvta_generic_to_shared(tile + (threadIdx.x % 16) * 16 + (threadIdx.x / 16) * 8));
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(a0), "=r"(a1), "=r"(a2), "=r"(a3)
               : "r"(row));
  const uint32_t b0 = b[threadIdx.x * 2], b1 = b[threadIdx.x * 2 + 1];
  float d0 = 0.f, d1 = 0.f, d2 = 0.f, d3 = 0.f;
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
      "{%0,%1,%2,%3};\n"
      : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3)
      : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
  const uint32_t orow = static_cast<uint32_t>(__cvta_generic_to_shared(out + (threadIdx.x % 16) * 16 + (threadIdx.x / 16) * 8));
  asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1,%2,%3,%4};\n" ::"r"(orow), "r"(a0), "r"(a1),
               "r"(a2), "r"(a3));
  __syncwarp();
  c[threadIdx.x * 4 + 0] = d0 + out[threadIdx.x];
  c[threadIdx.x * 4 + 1] = d1;
  c[threadIdx.x * 4 + 2] = d2;
  c[threadIdx.x * 4 + 3] = d3;
}
