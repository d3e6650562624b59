// gemm v2: register blocking on top of shared-memory tiling. A block of 256
// threads owns a 128 x 128 tile of C and walks K in chunks of 16; each
// thread accumulates an 8 x 8 block of outputs in registers as a sum of
// outer products: per k it loads 8 values of A and 8 of B from shared
// memory (four 128-bit loads) and issues 64 FFMAs. v1 spent 1.25 shared
// loads per FMA; this spends 1/16 of a 128-bit load per FMA, so the FMA
// pipe, not shared memory, becomes the limit.
//
// Layout choices:
// - A is stored transposed in shared memory (As[k][m]) so that a thread's
//   rows of A for one k are contiguous (float4 loads).
// - A thread's 8 rows are 4 + 4 split 64 apart (likewise its columns), so
//   that the 16 threads along n read 16 consecutive float4 of a row of Bs
//   (conflict-free) and write C in 256-byte coalesced runs.
// - Operands are converted to f32 once when written to shared memory.
// - Global loads are 128-bit (8 bf16; K and N are multiples of 8, so each
//   8-element chunk is wholly in or out of range: out of range loads zeros).
//   The next chunk is loaded into registers while the current one is
//   computed, and shared memory is double-buffered: one barrier per chunk.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdint>

namespace {

constexpr int kBlockM = 128;
constexpr int kBlockN = 128;
constexpr int kBlockK = 16;
constexpr int kThreads = 256;
constexpr int kThreadM = 8;  // outputs per thread along m (two groups of 4)
constexpr int kThreadN = 8;  // outputs per thread along n (two groups of 4)
constexpr int kHalfM = kBlockM / 2;
constexpr int kHalfN = kBlockN / 2;
constexpr int kThreadsN = kBlockN / kThreadN;  // 16 threads along n

static_assert(kBlockM * kBlockK / 8 == kThreads, "one 8-element A chunk per thread");
static_assert(kBlockK * kBlockN / 8 == kThreads, "one 8-element B chunk per thread");
static_assert((kBlockM / kThreadM) * kThreadsN == kThreads, "8x8 outputs per thread");

// 8 bf16 (one 16-byte chunk) to 8 f32.
__device__ __forceinline__ void unpack8(const uint4& v, float (&f)[8]) {
  const std::uint32_t w[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    // bf16 is the top half of an f32: widening is a shift or a mask.
    f[2 * i] = __uint_as_float(w[i] << 16);
    f[2 * i + 1] = __uint_as_float(w[i] & 0xffff0000u);
  }
}

__global__ void __launch_bounds__(kThreads, 2)
    gemm_register_blocking_kernel(const __nv_bfloat16* __restrict__ A,
                                  const __nv_bfloat16* __restrict__ B, float* __restrict__ C,
                                  std::int64_t M, std::int64_t N, std::int64_t K,
                                  std::int64_t tiles_n) {
  __shared__ __align__(16) float As[2][kBlockK][kBlockM];
  __shared__ __align__(16) float Bs[2][kBlockK][kBlockN];

  const int tid = threadIdx.x;
  const std::int64_t m0 = (blockIdx.x / tiles_n) * kBlockM;
  const std::int64_t n0 = (blockIdx.x % tiles_n) * kBlockN;

  // Loader roles: A chunk = row a_row, k columns a_col..a_col+7 (two threads
  // per 32-byte row segment: coalesced); B chunk = row b_row, n columns
  // b_col..b_col+7 (16 threads per 256-byte row segment).
  const int a_row = tid / (kBlockK / 8);
  const int a_col = (tid % (kBlockK / 8)) * 8;
  const int b_row = tid / (kBlockN / 8);
  const int b_col = (tid % (kBlockN / 8)) * 8;
  // Sources advance by one chunk per iteration; a row of A or a column of B
  // outside the matrix reads nothing at all (its pointer stays in range).
  const bool a_row_ok = m0 + a_row < M;
  const bool b_col_ok = n0 + b_col < N;
  const __nv_bfloat16* a_src = A + (a_row_ok ? (m0 + a_row) * K : 0) + a_col;
  const __nv_bfloat16* b_src = B + (b_col_ok ? b_row * N + n0 + b_col : 0);
  const std::int64_t b_step = kBlockK * N;

  // k_left = K - k0: the chunk of A is in range when a_col < k_left, the row
  // of B when b_row < k_left.
  auto load = [&](std::int64_t k_left, uint4& a, uint4& b) {
    a = a_row_ok && a_col < k_left ? __ldg(reinterpret_cast<const uint4*>(a_src))
                                   : make_uint4(0, 0, 0, 0);
    b = b_col_ok && b_row < k_left ? __ldg(reinterpret_cast<const uint4*>(b_src))
                                   : make_uint4(0, 0, 0, 0);
    a_src += kBlockK;
    b_src += b_step;
  };
  auto store = [&](int buf, const uint4& a, const uint4& b) {
    float f[8];
    unpack8(a, f);
#pragma unroll
    for (int i = 0; i < 8; ++i) As[buf][a_col + i][a_row] = f[i];
    unpack8(b, f);
    *reinterpret_cast<float4*>(&Bs[buf][b_row][b_col]) = make_float4(f[0], f[1], f[2], f[3]);
    *reinterpret_cast<float4*>(&Bs[buf][b_row][b_col + 4]) = make_float4(f[4], f[5], f[6], f[7]);
  };

  // Compute roles: rows ty*4 + {0..3} and 64 + ty*4 + {0..3}; columns
  // tx*4 + {0..3} and 64 + tx*4 + {0..3}.
  const int tx = tid % kThreadsN;
  const int ty = tid / kThreadsN;
  float acc[kThreadM][kThreadN] = {};

  uint4 a_next, b_next;
  load(K, a_next, b_next);
  store(0, a_next, b_next);
  __syncthreads();

  int buf = 0;
  for (std::int64_t k_left = K; k_left > 0; k_left -= kBlockK) {
    const bool more = k_left > kBlockK;
    if (more) load(k_left - kBlockK, a_next, b_next);  // in flight during the FMAs below
#pragma unroll
    for (int k = 0; k < kBlockK; ++k) {
      float a[kThreadM], b[kThreadN];
      *reinterpret_cast<float4*>(&a[0]) = *reinterpret_cast<const float4*>(&As[buf][k][ty * 4]);
      *reinterpret_cast<float4*>(&a[4]) =
          *reinterpret_cast<const float4*>(&As[buf][k][kHalfM + ty * 4]);
      *reinterpret_cast<float4*>(&b[0]) = *reinterpret_cast<const float4*>(&Bs[buf][k][tx * 4]);
      *reinterpret_cast<float4*>(&b[4]) =
          *reinterpret_cast<const float4*>(&Bs[buf][k][kHalfN + tx * 4]);
#pragma unroll
      for (int i = 0; i < kThreadM; ++i)
#pragma unroll
        for (int j = 0; j < kThreadN; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
    }
    if (more) {
      // The other buffer was last read before the previous barrier: safe.
      store(buf ^ 1, a_next, b_next);
      __syncthreads();
      buf ^= 1;
    }
  }

  // N is a multiple of 8 and columns start at multiples of 4, so a group of
  // 4 columns is wholly in or out of range, and 16-byte aligned.
#pragma unroll
  for (int i = 0; i < kThreadM; ++i) {
    const std::int64_t m = m0 + (i < 4 ? ty * 4 + i : kHalfM + ty * 4 + i - 4);
    if (m >= M) continue;
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const std::int64_t n = n0 + h * kHalfN + tx * 4;
      // __stcg: an explicit 128-bit store (a plain float4 store was split
      // into 4 scalar ones by the compiler on some paths); C is not re-read.
      if (n < N)
        __stcg(reinterpret_cast<float4*>(C + m * N + n),
               make_float4(acc[i][4 * h], acc[i][4 * h + 1], acc[i][4 * h + 2], acc[i][4 * h + 3]));
    }
  }
}

}  // namespace

void gemm_v2(const __nv_bfloat16* A, const __nv_bfloat16* B, float* C, std::int64_t M,
             std::int64_t N, std::int64_t K, cudaStream_t stream) {
  if (M <= 0 || N <= 0) return;  // empty C; a 0-block grid is a launch error
  const std::int64_t tiles_m = (M + kBlockM - 1) / kBlockM;
  const std::int64_t tiles_n = (N + kBlockN - 1) / kBlockN;
  gemm_register_blocking_kernel<<<static_cast<unsigned>(tiles_m * tiles_n), kThreads, 0,
                                  stream>>>(A, B, C, M, N, K, tiles_n);
}
