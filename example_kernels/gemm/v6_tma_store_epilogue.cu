// gemm v6: v5 (TMA + wgmma, warp-specialised, persistent) with the epilogue
// moved off the consumers' critical path: C goes through shared memory and
// out by TMA stores, so a consumer warpgroup starts the next tile's wgmmas
// while the copy engine drains the last one.
//
// What is v5's and unchanged: 128xN x 64 CTA tiles (N = 256, or 192 where
// 256-wide tiles fill the last round badly), 128-byte-swizzled A (K-major)
// and B (MN-major, imm-trans-b) stages filled by one producer thread through
// full/empty mbarriers, two consumer warpgroups of 64xN with one wgmma
// m64nNk16 per 16 of K, setmaxnreg 40 / 232, persistent grid in 2048-row
// raster groups. See v5_wgmma_tma.cu for why.
//
// What changes, and why:
// - v5 stores the f32 accumulators from registers (64 STG.64 per thread per
//   tile); ncu puts `barrier` on top at 4096^3 and the consumers, one CTA
//   per SM, cannot start the next tile's math until the stores have issued
//   against a memory system that backs up (128 KB per tile per SM). Here each
//   consumer warpgroup writes its 64xN sub-tile into shared memory 16 columns
//   at a time, fences the writes to the async proxy, and one thread issues
//   TMA stores; the warpgroup only waits for a buffer's earlier store to have
//   *read* shared memory (cp.async.bulk.wait_group.read), never for the
//   global writes.
// - Shared memory: a 64x256 f32 sub-tile is 64 KB, two of them would leave
//   room for only two stages. Instead each consumer warpgroup owns 16 KB:
//   four 4 KB buffers of 64 rows x 16 columns, used round-robin, so up to
//   two stores may still be reading while the third is written (wait_group
//   .read 2 before each hand-off). 4 stages x 48 KB + 32 KB staging + barriers
//   fits in 227 KB at N = 256 (4 stages, as v5); at N = 192 the ring drops
//   from 5 to 4 stages of 40 KB.
// - Layout of a buffer: two TMA boxes of 64 rows x 8 columns (32 bytes per
//   row, no swizzle), one after the other. A warp's float2 store of one
//   8-column group covers 8 rows x 32 bytes; each half-warp (4 rows) writes
//   128 contiguous bytes, so the stores are free of bank conflicts. (A 128B-
//   swizzled 32-column box would take one TMA instruction instead of four but
//   conflicts two ways: four rows of one 8-column group land in only four of
//   its eight 16-byte chunks.) Rows are 32-byte sectors in global memory too.
// - TMA clips the box at M and N, so the predicates of v5's epilogue go away;
//   boxes wholly past N or M are skipped.
// - One named barrier per 16-column chunk per warpgroup (16 per 256-wide
//   tile); the producer warpgroup never joins them.
// - Added after the first measurement (the staged epilogue alone matched v5
//   on every shape, ncu showing the consumers of the 2000x3000x1000 shape
//   waiting on operands with the L2 at 72 % of peak and 1.55 sectors per
//   request): A or B whose row pitch is not a multiple of 128 bytes is first
//   copied to a 128-byte pitch, so that each 128-byte box row the copy engine
//   loads is one L2 line. Shapes with aligned pitches (4096^3, 8192x1024x4096)
//   are unaffected.
#include <cuda.h>
#include <cudaTypedefs.h>  // PFN_cuTensorMapEncodeTiled
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "hopper.cuh"
#include "hopper_epilogue.cuh"

namespace {

constexpr int kBlockM = 128;
constexpr int kBlockK = 64;    // 128 bytes of bf16: one swizzle row
constexpr int kConsumers = 2;  // warpgroups, 64 rows of the tile each
constexpr int kWarpgroup = 128;
constexpr int kThreads = kWarpgroup * (1 + kConsumers);
constexpr int kWgmmaK = 16;
constexpr int kBoxN = 64;                           // N columns per TMA box of B: 128 bytes
constexpr int kGroupRows = 2048;                    // rows of C per raster group (L2 reuse)
constexpr int kATileBytes = kBlockM * kBlockK * 2;  // 16 KB
constexpr int kBBoxBytes = kBlockK * kBoxN * 2;     // 8 KB
constexpr int kSwizzleAtomBytes = 1024;             // 8 rows x 128 B
constexpr int kSmemLimit = 227 * 1024;              // per block on sm_90

// C staging per consumer warpgroup: kCBuffers buffers of 64 rows x
// kChunkCols f32, each made of TMA boxes of 64 rows x kCBoxCols (32 bytes).
constexpr int kCBoxCols = 8;
constexpr int kCBoxBytes = 64 * kCBoxCols * 4;  // 2 KB
constexpr int kChunkCols = 16;
constexpr int kBoxesPerChunk = kChunkCols / kCBoxCols;
constexpr int kChunkBytes = kBoxesPerChunk * kCBoxBytes;  // 4 KB
constexpr int kCBuffers = 4;
constexpr int kCStagingBytes = kCBuffers * kChunkBytes;  // 16 KB per warpgroup

// Register budget after setmaxnreg: 128 x 40 + 256 x 232 = 64512 <= 65536.
constexpr int kProducerRegs = 40;
constexpr int kConsumerRegs = 232;

static_assert(kBlockM == kConsumers * 64, "one m64 wgmma row block per consumer warpgroup");
static_assert(kBlockK * 2 == 128, "a K row of A must be one 128-byte swizzle row");
static_assert(kBoxN * 2 == 128, "a row of a B box must be one 128-byte swizzle row");

// What follows from the tile width: 256 (the default) or 192 (fewer idle SMs
// on shapes whose 256-wide tiles fill the last wave badly).
template <int kBlockN_>
struct Tile {
  static constexpr int kBlockN = kBlockN_;
  static constexpr int kBoxes = kBlockN / kBoxN;
  static constexpr int kBTileBytes = kBBoxBytes * kBoxes;
  static constexpr int kStageBytes = kATileBytes + kBTileBytes;
  static constexpr int kCStaging = kConsumers * kCStagingBytes;
  // As many stages as fit beside the C staging: 4 x 48 KB at 256, 4 x 40 KB
  // at 192 (v5 had 5 there).
  static constexpr int kStages =
      (kSmemLimit - kCStaging - kSwizzleAtomBytes - 2 * 8 * 8) / kStageBytes;
  static constexpr int kSmemBytes =
      kStages * kStageBytes + kCStaging + 2 * kStages * 8 + kSwizzleAtomBytes;
  static constexpr int kAcc = kBlockN / 2;  // f32 accumulators per consumer thread
  static constexpr int kChunks = kBlockN / kChunkCols;
  static_assert(kBlockN % kBoxN == 0 && kStages >= 3 && kSmemBytes <= kSmemLimit);
  // Every tile starts on buffer 0, so buffer indices are compile-time.
  static_assert(kChunks % kCBuffers == 0);
};

// Tile order shared by producer and consumers: groups of kGroupRows rows of
// C, down the rows of a group first, then across its columns.
struct TileOrder {
  int m_tiles;
  int n_tiles;

  static constexpr int kGroupM = kGroupRows / kBlockM;

  [[nodiscard]] __device__ int count() const { return m_tiles * n_tiles; }

  __device__ void coords(int tile, int& m_tile, int& n_tile) const {
    const int per_group = kGroupM * n_tiles;
    const int group = tile / per_group;
    const int first_m = group * kGroupM;
    const int rows = min(kGroupM, m_tiles - first_m);
    const int in_group = tile - group * per_group;
    m_tile = first_m + in_group % rows;
    n_tile = in_group / rows;
  }
};

template <int kBlockN>
__global__ void __launch_bounds__(kThreads, 1)
    gemm_wgmma_tma_kernel(const __grid_constant__ CUtensorMap map_a,
                          const __grid_constant__ CUtensorMap map_b,
                          const __grid_constant__ CUtensorMap map_c, int M, int N, int K) {
  using namespace hopper;
  using T = Tile<kBlockN>;
  extern __shared__ std::uint8_t smem_raw[];
  // Swizzle atoms must start on 1024-byte boundaries (descriptor base offset 0).
  const std::uint32_t smem = (smem_u32(smem_raw) + kSwizzleAtomBytes - 1) &
                             ~static_cast<std::uint32_t>(kSwizzleAtomBytes - 1);
  const std::uint32_t a_ring = smem;
  const std::uint32_t b_ring = a_ring + T::kStages * kATileBytes;
  const std::uint32_t c_staging = b_ring + T::kStages * T::kBTileBytes;  // 1024-aligned
  const std::uint32_t full_bar = c_staging + T::kCStaging;                // + 8 * stage
  const std::uint32_t empty_bar = full_bar + T::kStages * 8;

  // The warpgroup index, read from lane 0 so the compiler knows it is uniform.
  const int warpgroup = __shfl_sync(0xffffffffu, static_cast<int>(threadIdx.x) / kWarpgroup, 0);
  const int tid = static_cast<int>(threadIdx.x) % kWarpgroup;

  if (threadIdx.x == 0) {
    prefetch_tensor_map(&map_a);
    prefetch_tensor_map(&map_b);
    prefetch_tensor_map(&map_c);
    for (int s = 0; s < T::kStages; ++s) {
      mbar_init(full_bar + 8 * s, 1);
      mbar_init(empty_bar + 8 * s, kConsumers);
    }
    fence_barrier_init();
  }
  __syncthreads();

  const TileOrder order{(M + kBlockM - 1) / kBlockM, (N + kBlockN - 1) / kBlockN};
  const int first_tile = static_cast<int>(blockIdx.x);
  const int tile_step = static_cast<int>(gridDim.x);
  const int k_tiles = (K + kBlockK - 1) / kBlockK;

  if (warpgroup == 0) {
    // ---- producer ----
    setmaxnreg_dec<kProducerRegs>();
    if (tid == 0) {
      int stage = 0;
      std::uint32_t phase = 0;
      for (int tile = first_tile; tile < order.count(); tile += tile_step) {
        int m_tile, n_tile;
        order.coords(tile, m_tile, n_tile);
        const int m0 = m_tile * kBlockM;
        const int n0 = n_tile * kBlockN;
        for (int kt = 0; kt < k_tiles; ++kt) {
          mbar_wait(empty_bar + 8 * stage, phase ^ 1);
          const std::uint32_t full = full_bar + 8 * stage;
          mbar_arrive_expect_tx(full, T::kStageBytes);
          const int k0 = kt * kBlockK;
          tma_load_2d(a_ring + stage * kATileBytes, &map_a, full, k0, m0);
          const std::uint32_t b_stage = b_ring + stage * T::kBTileBytes;
#pragma unroll
          for (int box = 0; box < T::kBoxes; ++box)
            tma_load_2d(b_stage + box * kBBoxBytes, &map_b, full, n0 + box * kBoxN, k0);
          if (++stage == T::kStages) {
            stage = 0;
            phase ^= 1;
          }
        }
      }
    }
  } else {
    // ---- consumers ----
    setmaxnreg_inc<kConsumerRegs>();
    const int half = warpgroup - 1;  // which 64 rows of the tile
    const std::uint32_t a_half = a_ring + half * 64 * (kBlockK * 2);
    // Frees a stage: one arrival per consumer warpgroup.
    auto release = [&](int s) {
      if (tid == 0) mbar_arrive(empty_bar + 8 * s);
    };

    float acc[T::kAcc];
    int stage = 0;
    std::uint32_t phase = 0;
    for (int tile = first_tile; tile < order.count(); tile += tile_step) {
      int m_tile, n_tile;
      order.coords(tile, m_tile, n_tile);
      const int m0 = m_tile * kBlockM;
      const int n0 = n_tile * kBlockN;

      int prev_stage = 0;
      for (int kt = 0; kt < k_tiles; ++kt) {
        mbar_wait(full_bar + 8 * stage, phase);
        const std::uint32_t a_addr = a_half + stage * kATileBytes;
        const std::uint32_t b_addr = b_ring + stage * T::kBTileBytes;
        wgmma_fence();
#pragma unroll
        for (int kk = 0; kk < kBlockK / kWgmmaK; ++kk) {
          // A K-major: LBO unused (16), SBO 1024; next 16 of K is 32 bytes on.
          // B MN-major: LBO 8192 (next 64 columns), SBO 1024 (next 8 K-rows);
          // next 16 of K is 16 rows of 128 bytes on.
          const std::uint64_t desc_a = make_desc_sw128(a_addr + kk * kWgmmaK * 2, 16, 1024);
          const std::uint64_t desc_b =
              make_desc_sw128(b_addr + kk * kWgmmaK * kBoxN * 2, kBBoxBytes, 1024);
          wgmma_m64k16_bf16_tnspb<kBlockN>(acc, desc_a, desc_b, (kt > 0 || kk > 0) ? 1u : 0u);
        }
        wgmma_commit();
        if (kt > 0) {
          wgmma_wait<1>();  // the previous stage's wgmmas have read their operands
          release(prev_stage);
        }
        prev_stage = stage;
        if (++stage == T::kStages) {
          stage = 0;
          phase ^= 1;
        }
      }
      wgmma_wait<0>();
      release(prev_stage);
#pragma unroll
      for (int i = 0; i < T::kAcc; ++i) fence_operand(acc[i]);

      // Fragment of m64nNk16: warp w owns rows 16w..16w+15; per 8 columns j a
      // thread holds (row lane/4, cols 2*(lane%4)+{0,1}) in acc[4j], acc[4j+1]
      // and the same columns of row lane/4+8 in acc[4j+2], acc[4j+3]. In a
      // 64x8 box (32-byte rows) that is byte (16w + lane/4) * 32 + 8*(lane%4).
      const int warp = tid / 32;
      const int lane = tid % 32;
      const std::uint32_t thread_off = (warp * 16 + lane / 4) * (kCBoxCols * 4) + 8 * (lane % 4);
      const std::uint32_t my_staging = c_staging + half * kCStagingBytes;
      const int y = m0 + half * 64;
#pragma unroll
      for (int q = 0; q < T::kChunks; ++q) {
        const std::uint32_t buf = my_staging + (q % kCBuffers) * kChunkBytes;
#pragma unroll
        for (int b = 0; b < kBoxesPerChunk; ++b) {
          const int j = q * kBoxesPerChunk + b;
          const std::uint32_t p = buf + b * kCBoxBytes + thread_off;
          st_shared_v2(p, acc[4 * j], acc[4 * j + 1]);
          st_shared_v2(p + 8 * kCBoxCols * 4, acc[4 * j + 2], acc[4 * j + 3]);
        }
        fence_proxy_async_shared();
        // After this, at most kCBuffers - 2 stores are still reading: the
        // buffer chunk q + 1 will write has been read by its last store.
        if (tid == 0) bulk_wait_group_read<kCBuffers - 2>();
        named_barrier_sync(1 + half, kWarpgroup);
        if (tid == 0) {
          if (y < M) {
#pragma unroll
            for (int b = 0; b < kBoxesPerChunk; ++b) {
              const int x = n0 + (q * kBoxesPerChunk + b) * kCBoxCols;
              if (x < N) tma_store_2d(&map_c, buf + b * kCBoxBytes, x, y);
            }
          }
          bulk_commit_group();
        }
      }
    }
    // Shared memory must outlive the reads of the last stores.
    if (tid == 0) bulk_wait_group<0>();
  }
}

void check(cudaError_t status, const char* call) {
  if (status != cudaSuccess)
    throw std::runtime_error(std::string("gemm_v6: ") + call + " failed: " +
                             cudaGetErrorName(status) + " (" + cudaGetErrorString(status) + ")");
}

PFN_cuTensorMapEncodeTiled_v12000 encode_tiled() {
  static const PFN_cuTensorMapEncodeTiled_v12000 fn = [] {
    void* p = nullptr;
    cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
    check(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000, cudaEnableDefault,
                                           &found),
          "cudaGetDriverEntryPointByVersion(cuTensorMapEncodeTiled)");
    if (found != cudaDriverEntryPointSuccess || p == nullptr)
      throw std::runtime_error("gemm_v6: the driver has no cuTensorMapEncodeTiled");
    return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(p);
  }();
  return fn;
}

// A row-major bf16 matrix of `rows` x `cols` with rows `pitch` elements
// apart, read in boxes of box_rows x box_cols (box_cols * 2 = 128 bytes),
// 128-byte swizzled, zeros outside (also in the padding past `cols`).
CUtensorMap make_map(const __nv_bfloat16* base, std::int64_t rows, std::int64_t cols,
                     std::int64_t pitch, std::uint32_t box_rows, std::uint32_t box_cols) {
  CUtensorMap map;
  const cuuint64_t dims[2] = {static_cast<cuuint64_t>(cols), static_cast<cuuint64_t>(rows)};
  const cuuint64_t strides[1] = {static_cast<cuuint64_t>(pitch) * sizeof(__nv_bfloat16)};
  const cuuint32_t box[2] = {box_cols, box_rows};
  const cuuint32_t element_strides[2] = {1, 1};
  const CUresult r = encode_tiled()(
      &map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, const_cast<__nv_bfloat16*>(base), dims, strides,
      box, element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
      CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS)
    throw std::runtime_error("gemm_v6: cuTensorMapEncodeTiled failed (CUresult " +
                             std::to_string(static_cast<int>(r)) + ")");
  return map;
}

// C (row-major f32, M x N) written in boxes of 64 rows x kCBoxCols columns,
// unswizzled; TMA clips boxes at the edges. N * 4 bytes is a multiple of 16
// because N is a multiple of 8.
CUtensorMap make_map_c(float* base, std::int64_t rows, std::int64_t cols) {
  CUtensorMap map;
  const cuuint64_t dims[2] = {static_cast<cuuint64_t>(cols), static_cast<cuuint64_t>(rows)};
  const cuuint64_t strides[1] = {static_cast<cuuint64_t>(cols) * sizeof(float)};
  const cuuint32_t box[2] = {kCBoxCols, 64};
  const cuuint32_t element_strides[2] = {1, 1};
  const CUresult r = encode_tiled()(
      &map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, base, dims, strides, box, element_strides,
      CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE,
      CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS)
    throw std::runtime_error("gemm_v6: cuTensorMapEncodeTiled (C) failed (CUresult " +
                             std::to_string(static_cast<int>(r)) + ")");
  return map;
}

// ---- re-pitching A and B ----------------------------------------------------
// A TMA box row is 128 bytes; when a matrix's row pitch is not a multiple of
// 128 bytes (K = 1000: 2000 bytes; N = 3000: 6000 bytes) every box row
// straddles two L2 lines and the copy engine splits it further: ncu on the
// 2000x3000x1000 shape counted 1.55 sectors per L2 request (3.5 at 4096^3)
// with the L2 at 72 % of its peak and the consumers waiting on data. Such a
// matrix is first copied to a 128-byte pitch (10 MB read + 10 MB written at
// that shape, a few microseconds; the copy stays in L2 for the GEMM).

constexpr int kPitchAlign = 128 / sizeof(__nv_bfloat16);  // elements

struct RepackJob {
  const uint4* src;  // rows x chunks 16-byte chunks, densely packed
  uint4* dst;        // rows of dst_chunks 16-byte chunks
  std::int64_t rows;
  std::int64_t chunks;
  std::int64_t dst_chunks;
};

__global__ void repack_kernel(RepackJob a, RepackJob b) {
  const std::int64_t total_a = a.rows * a.chunks;
  const std::int64_t total = total_a + b.rows * b.chunks;
  const std::int64_t step = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
       i < total; i += step) {
    const bool in_a = i < total_a;
    const std::int64_t j = in_a ? i : i - total_a;
    const std::int64_t chunks = in_a ? a.chunks : b.chunks;
    const std::int64_t row = j / chunks;
    const std::int64_t col = j - row * chunks;
    const uint4 v = __ldcs((in_a ? a.src : b.src) + j);
    (in_a ? a.dst : b.dst)[row * (in_a ? a.dst_chunks : b.dst_chunks) + col] = v;
  }
}

// A device buffer kept across calls, grown on demand.
// NOTE: one buffer per process, so calls on different streams must not
// overlap (the harness uses one stream).
__nv_bfloat16* scratch(std::size_t elems) {
  static __nv_bfloat16* ptr = nullptr;
  static std::size_t capacity = 0;
  if (elems > capacity) {
    if (ptr != nullptr) check(cudaFree(ptr), "cudaFree");
    ptr = nullptr;
    check(cudaMalloc(&ptr, elems * sizeof(__nv_bfloat16)), "cudaMalloc");
    capacity = elems;
  }
  return ptr;
}

int round_up(int v, int to) { return (v + to - 1) / to * to; }

int sm_count() {
  int device = 0;
  check(cudaGetDevice(&device), "cudaGetDevice");
  int sms = 0;
  check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device),
        "cudaDeviceGetAttribute");
  return sms;
}

// Raises the kernel's shared-memory limit once per process.
template <int kBlockN>
void allow_smem() {
  static const bool done = [] {
    check(cudaFuncSetAttribute(gemm_wgmma_tma_kernel<kBlockN>,
                               cudaFuncAttributeMaxDynamicSharedMemorySize,
                               Tile<kBlockN>::kSmemBytes),
          "cudaFuncSetAttribute");
    return true;
  }();
  (void)done;
}

template <int kBlockN>
void launch(const __nv_bfloat16* A, int lda, const __nv_bfloat16* B, int ldb, float* C, int M,
            int N, int K, int sms, cudaStream_t stream) {
  allow_smem<kBlockN>();
  const CUtensorMap map_a = make_map(A, M, K, lda, kBlockM, kBlockK);
  const CUtensorMap map_b = make_map(B, K, N, ldb, kBlockK, kBoxN);
  const CUtensorMap map_c = make_map_c(C, M, N);
  const int tiles = ((M + kBlockM - 1) / kBlockM) * ((N + kBlockN - 1) / kBlockN);
  const dim3 grid(static_cast<unsigned>(std::min(tiles, sms)));  // persistent: <= 1 CTA per SM
  gemm_wgmma_tma_kernel<kBlockN>
      <<<grid, kThreads, Tile<kBlockN>::kSmemBytes, stream>>>(map_a, map_b, map_c, M, N, K);
  check(cudaGetLastError(), "gemm_wgmma_tma_kernel launch");
}

// Tile width for a shape: the persistent grid runs ceil(tiles / SMs) rounds,
// each as long as one tile, so the cost is rounds x tile width; 192 wins
// where 256-wide tiles leave much of the last round idle (2000 x 3000: 192
// tiles of 256 = 2 rounds of 256, 256 tiles of 192 = 2 rounds of 192). Ties
// go to 256, whose tiles reuse more per byte loaded.
int pick_block_n(int M, int N, int sms) {
  const auto cost = [&](int block_n) {
    const std::int64_t tiles =
        static_cast<std::int64_t>((M + kBlockM - 1) / kBlockM) * ((N + block_n - 1) / block_n);
    return (tiles + sms - 1) / sms * block_n;
  };
  return cost(192) < cost(256) ? 192 : 256;
}

int to_int(std::int64_t v, const char* name) {
  if (v > INT_MAX)
    throw std::invalid_argument(std::string("gemm_v6: ") + name + " exceeds INT_MAX");
  return static_cast<int>(v);
}

}  // namespace

void gemm_v6(const __nv_bfloat16* A, const __nv_bfloat16* B, float* C, std::int64_t M,
             std::int64_t N, std::int64_t K, cudaStream_t stream) {
  if (M <= 0 || N <= 0) return;  // empty C; a 0-block grid is a launch error
  if (K <= 0) {                  // C = 0; a tensor map cannot describe an empty A or B
    check(cudaMemsetAsync(C, 0, static_cast<std::size_t>(M * N) * sizeof(float), stream),
          "cudaMemsetAsync");
    return;
  }
  const int m = to_int(M, "M"), n = to_int(N, "N"), k = to_int(K, "K");
  // The SM count of the device current at the first call (the harness uses
  // one device per process).
  static const int sms = sm_count();
  // Re-pitch A (rows of K) and B (rows of N) where they are not 128-byte aligned.
  const int lda = (k % kPitchAlign == 0) ? k : round_up(k, kPitchAlign);
  const int ldb = (n % kPitchAlign == 0) ? n : round_up(n, kPitchAlign);
  const __nv_bfloat16* a_use = A;
  const __nv_bfloat16* b_use = B;
  if (lda != k || ldb != n) {
    const std::size_t a_elems = lda != k ? static_cast<std::size_t>(m) * lda : 0;
    const std::size_t b_elems = ldb != n ? static_cast<std::size_t>(k) * ldb : 0;
    __nv_bfloat16* buf = scratch(a_elems + b_elems);
    constexpr int kVec = 16 / sizeof(__nv_bfloat16);  // rows are multiples of 8 elements
    RepackJob job_a{reinterpret_cast<const uint4*>(A), reinterpret_cast<uint4*>(buf), 0, 1, 1};
    RepackJob job_b{reinterpret_cast<const uint4*>(B), reinterpret_cast<uint4*>(buf + a_elems),
                    0, 1, 1};
    if (a_elems != 0) {
      job_a = {job_a.src, job_a.dst, m, k / kVec, lda / kVec};
      a_use = buf;
    }
    if (b_elems != 0) {
      job_b = {job_b.src, job_b.dst, k, n / kVec, ldb / kVec};
      b_use = buf + a_elems;
    }
    repack_kernel<<<8 * sms, 256, 0, stream>>>(job_a, job_b);
    check(cudaGetLastError(), "repack_kernel launch");
  }
  if (pick_block_n(m, n, sms) == 192)
    launch<192>(a_use, lda, b_use, ldb, C, m, n, k, sms, stream);
  else
    launch<256>(a_use, lda, b_use, ldb, C, m, n, k, sms, stream);
}
