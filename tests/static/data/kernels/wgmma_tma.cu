// wgmma (HGMMA), TMA (UTMALDG), bulk copy (UBLKCP) and mbarrier (SYNCS): sm_90a only.
#include <cuda.h>
#include <cuda_runtime.h>
#include <cstdint>

__global__ void wgmma_tile(const __grid_constant__ CUtensorMap tmap, const uint4* src, float* c,
                           uint64_t desc_b) {
  __shared__ __align__(128) unsigned short a_tile[64 * 16];
  __shared__ __align__(128) unsigned short b_tile[64 * 16];
  __shared__ __align__(8) uint64_t bar;
  const uint32_t bar_addr = static_cast<uint32_t>(__cvta_generic_to_shared(&bar));
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(bar_addr), "r"(1));
    asm volatile("fence.proxy.async.shared::cta;\n" ::);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    const uint32_t a_addr = static_cast<uint32_t>(__cvta_generic_to_shared(a_tile));
    const uint32_t b_addr = static_cast<uint32_t>(__cvta_generic_to_shared(b_tile));
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(bar_addr), "r"(4096));
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];\n"
        ::"r"(a_addr), "l"(&tmap), "r"(0), "r"(0), "r"(bar_addr) : "memory");
    asm volatile(
        "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];\n"
        ::"r"(b_addr), "l"(src), "r"(2048), "r"(bar_addr) : "memory");
  }
  asm volatile(
      "{\n.reg .pred done;\nwait:\n"
      "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
      "@!done bra wait;\n}\n" ::"r"(bar_addr), "r"(0));
  const uint64_t desc_a = (static_cast<uint64_t>(__cvta_generic_to_shared(a_tile)) >> 4) & 0x3FFF;
  float d[32];
  for (int i = 0; i < 32; ++i) d[i] = 0.f;
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %34, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31}, %32, %33, p, 1, 1, 0, 0;\n}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
      : "l"(desc_a), "l"(desc_b), "r"(1));
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
  asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
  for (int i = 0; i < 32; ++i) c[threadIdx.x * 32 + i] = d[i];
}
