// v2: the whole row is held in registers, so x is read from memory once.
// Each thread owns kVecs 128-bit chunks of the row (chunk k of thread t is
// chunk t + k * blockDim.x, so a warp's loads are contiguous 512 bytes), loads
// them with 128-bit loads, and keeps them as f32. Then: block max, exp in
// place, block sum, scale, 128-bit stores. Traffic per element: 1 read +
// 1 write.
//
// Limit: kMaxRowElements = 1024 threads x 32 f32 values per thread = 32768
// columns (f32 and bf16 alike: 8 float4 or 4 x 8 bf16 per thread). Longer
// rows take v1's path (online.cuh).
//
// 128-bit accesses need every row to start 16-byte aligned: the buffers
// aligned and cols a multiple of the vector width (4 f32, 8 bf16). Otherwise
// the same kernel loads element by element into the same register layout:
// still one read, just more load instructions.
#pragma once

#include "common.cuh"
#include "online.cuh"

namespace {

constexpr int kMaxValuesPerThread = 32;
constexpr std::int64_t kMaxRowElements = 1024 * kMaxValuesPerThread;

// Lets one 128-bit load/store move a whole chunk of T (an LDG.E.128 /
// STG.E.128 in SASS), which plain T accesses cannot promise.
template <typename T>
struct alignas(16) chunk {
  static constexpr int kCount = 16 / static_cast<int>(sizeof(T));
  T v[kCount];
};

template <typename T, int kVecs, int kMaxThreads, bool kVectorized>
__global__ void __launch_bounds__(kMaxThreads)
    softmax_row_in_registers_kernel(const T* __restrict__ x, T* __restrict__ y,
                                    std::int64_t rows, int cols) {
  constexpr int kPerChunk = chunk<T>::kCount;
  constexpr int kValues = kVecs * kPerChunk;
  static_assert(kValues <= kMaxValuesPerThread, "register budget per thread");
  // Two arrays so that consecutive reductions need no extra barrier.
  __shared__ float partial_max[32];
  __shared__ float partial_sum[32];
  const int threads = static_cast<int>(blockDim.x);

  for (std::int64_t row = blockIdx.x; row < rows; row += gridDim.x) {
    const T* xr = x + row * cols;
    T* yr = y + row * cols;

    // Padding past the end of the row is -inf: it never wins the max and
    // its exponential is exactly 0.
    float v[kValues];
#pragma unroll
    for (int k = 0; k < kVecs; ++k) {
      const int first = (static_cast<int>(threadIdx.x) + k * threads) * kPerChunk;
      if constexpr (kVectorized) {
        // cols % kPerChunk == 0 here, so a chunk is all in or all out.
        if (first < cols) {
          const chunk<T> c = *reinterpret_cast<const chunk<T>*>(xr + first);
#pragma unroll
          for (int j = 0; j < kPerChunk; ++j) v[k * kPerChunk + j] = to_float(c.v[j]);
        } else {
#pragma unroll
          for (int j = 0; j < kPerChunk; ++j) v[k * kPerChunk + j] = -INFINITY;
        }
      } else if (first + kPerChunk <= cols) {
        // Whole chunk in the row: unpredicated loads at immediate offsets
        // (per-element bounds checks here cost enough registers to spill
        // at 1024 threads).
#pragma unroll
        for (int j = 0; j < kPerChunk; ++j) v[k * kPerChunk + j] = to_float(xr[first + j]);
      } else {
#pragma unroll
        for (int j = 0; j < kPerChunk; ++j)
          v[k * kPerChunk + j] = first + j < cols ? to_float(xr[first + j]) : -INFINITY;
      }
    }

    float row_max = -INFINITY;
#pragma unroll
    for (int i = 0; i < kValues; ++i) row_max = fmaxf(row_max, v[i]);
    row_max = block_max(row_max, partial_max);

    // One exponential per element, kept in place for the store.
    float row_sum = 0.0f;
#pragma unroll
    for (int i = 0; i < kValues; ++i) {
      v[i] = expf(v[i] - row_max);
      row_sum += v[i];
    }
    row_sum = block_sum(row_sum, partial_sum);
    const float inv_sum = 1.0f / row_sum;

#pragma unroll
    for (int k = 0; k < kVecs; ++k) {
      const int first = (static_cast<int>(threadIdx.x) + k * threads) * kPerChunk;
      if constexpr (kVectorized) {
        if (first < cols) {
          chunk<T> c;
#pragma unroll
          for (int j = 0; j < kPerChunk; ++j) c.v[j] = from_float<T>(v[k * kPerChunk + j] * inv_sum);
          *reinterpret_cast<chunk<T>*>(yr + first) = c;
        }
      } else {
#pragma unroll
        for (int j = 0; j < kPerChunk; ++j)
          if (first + j < cols) yr[first + j] = from_float<T>(v[k * kPerChunk + j] * inv_sum);
      }
    }
    // No barrier needed before the next row: partial_max is rewritten only
    // after block_sum's barrier, partial_sum only after the next block_max's.
  }
}

template <typename T, int kVecs, int kMaxThreads>
void launch_row_in_registers_config(const T* x, T* y, std::int64_t rows, int cols,
                                    bool vectorized, cudaStream_t stream) {
  constexpr int kPerChunk = chunk<T>::kCount;
  const int chunks = (cols + kPerChunk - 1) / kPerChunk;
  const int per_thread_chunks = (chunks + kVecs - 1) / kVecs;
  const int threads = (per_thread_chunks + 31) / 32 * 32;  // whole warps for the shuffles
  if (vectorized) {
    softmax_row_in_registers_kernel<T, kVecs, kMaxThreads, true>
        <<<grid_for_rows(rows), threads, 0, stream>>>(x, y, rows, cols);
  } else {
    softmax_row_in_registers_kernel<T, kVecs, kMaxThreads, false>
        <<<grid_for_rows(rows), threads, 0, stream>>>(x, y, rows, cols);
  }
}

template <typename T>
void launch_row_in_registers(const T* x, T* y, std::int64_t rows, std::int64_t cols,
                             cudaStream_t stream) {
  if (rows <= 0 || cols <= 0) return;  // nothing to write; a 0-block grid is a launch error
  if (cols > kMaxRowElements) {
    launch_online(x, y, rows, cols, stream);
    return;
  }
  constexpr int kPerChunk = chunk<T>::kCount;
  constexpr int kMaxVecs = kMaxValuesPerThread / kPerChunk;  // 8 for f32, 4 for bf16
  const int n = static_cast<int>(cols);
  const bool vectorized = n % kPerChunk == 0 && aligned_16(x) && aligned_16(y);
  const std::int64_t chunks = (cols + kPerChunk - 1) / kPerChunk;
  // The fewest chunks per thread that keep the block at <= 256 threads:
  // short rows get few registers and several blocks per SM. Rows too long
  // for that take the full register budget and up to 1024 threads.
  if (chunks <= 256) {
    launch_row_in_registers_config<T, 1, 256>(x, y, rows, n, vectorized, stream);
  } else if (chunks <= 2 * 256) {
    launch_row_in_registers_config<T, 2, 256>(x, y, rows, n, vectorized, stream);
  } else if (chunks <= 4 * 256) {
    launch_row_in_registers_config<T, 4, 256>(x, y, rows, n, vectorized, stream);
  } else {
    launch_row_in_registers_config<T, kMaxVecs, 1024>(x, y, rows, n, vectorized, stream);
  }
}

}  // namespace
