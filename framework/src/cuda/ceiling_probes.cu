#include "cuda/ceiling_probes.hpp"

#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>

#include "cuda/cuda_backend.hpp"
#include "cuda/nvml.hpp"
#include "cuda/owned.hpp"
#include "harness/backend.hpp"

// The kernels are named kopt_ceiling_* so that a trace shows what they are.
extern "C" __global__ void kopt_ceiling_copy(const int4* __restrict__ src, int4* __restrict__ dst, std::size_t count) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
#pragma unroll 4
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride) {
    dst[i] = src[i];
  }
}

namespace {

constexpr int k_fma_threads = 256;
constexpr int k_fma_chains = 8;  // independent FMA chains per thread: hides the FMA latency

}  // namespace

// x = x * a + b on k_fma_chains registers; nothing but FFMA in the loop
// (checked in the SASS: see docs/profiling.md, "Measured ceilings"). The
// store happens only if the sum equals a value the chains cannot reach, which
// the compiler cannot know, so no FMA is removed.
extern "C" __global__ void __launch_bounds__(k_fma_threads) kopt_ceiling_ffma(float* out, float a, float b,
                                                                              int iterations) {
  float x[k_fma_chains];
#pragma unroll
  for (int i = 0; i < k_fma_chains; ++i) x[i] = static_cast<float>(threadIdx.x + i) * 1e-3f;
#pragma unroll 16
  for (int n = 0; n < iterations; ++n) {
#pragma unroll
    for (int i = 0; i < k_fma_chains; ++i) x[i] = fmaf(x[i], a, b);
  }
  float sum = 0.f;
#pragma unroll
  for (int i = 0; i < k_fma_chains; ++i) sum += x[i];
  if (sum == -1.2345e-30f) out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// Uniform in +-[0.25, 1): random and never zero (a hash of the index).
template <typename T>
__global__ void kopt_ceiling_fill(T* data, std::size_t count, unsigned seed) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride) {
    unsigned h = static_cast<unsigned>(i) * 2654435761u ^ seed;
    h ^= h >> 16;
    h *= 2246822519u;
    h ^= h >> 13;
    const float magnitude = 0.25f + 0.75f * static_cast<float>(h & 0xffffu) / 65536.f;
    const float value = (h & 0x10000u) != 0 ? magnitude : -magnitude;
    data[i] = static_cast<T>(value);
  }
}

namespace kopt::cuda {
namespace {

// Device memory freed on scope exit (cuda/owned.hpp).
class device_buffer {
 public:
  explicit device_buffer(std::size_t bytes) : m_memory(allocate_device(bytes, "allocating")) {}
  [[nodiscard]] void* get() const { return m_memory.get(); }

 private:
  device_memory m_memory;
};

class event_pair {
 public:
  // Owned one by one: a failure creating the second destroys the first.
  event_pair() : m_start(create_event("timing")), m_stop(create_event("timing")) {}

  // Milliseconds of one call of `launch` on `stream`.
  double time(const std::function<void()>& launch, cudaStream_t stream, const std::string& what) {
    check(cudaEventRecord(m_start.get(), stream), "cudaEventRecord", what);
    launch();
    check(cudaGetLastError(), "launch", what);
    check(cudaEventRecord(m_stop.get(), stream), "cudaEventRecord", what);
    check(cudaEventSynchronize(m_stop.get()), "cudaEventSynchronize", what);
    float ms = 0;
    check(cudaEventElapsedTime(&ms, m_start.get(), m_stop.get()), "cudaEventElapsedTime", what);
    return ms;
  }

 private:
  owned_event m_start;
  owned_event m_stop;
};

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

// Median ms over `repeats` timed calls after `warmup` untimed ones; the
// samples are kept in `samples_ms`.
double median_ms(const std::function<void()>& launch, cudaStream_t stream, int warmup, int repeats,
                 const std::string& what, std::vector<double>& samples_ms) {
  for (int i = 0; i < warmup; ++i) launch();
  check(cudaStreamSynchronize(stream), "cudaStreamSynchronize", what);
  event_pair events;
  samples_ms.clear();
  for (int i = 0; i < repeats; ++i) samples_ms.push_back(events.time(launch, stream, what));
  return median(samples_ms);
}

// NVML's view of the clocks now; "unknown" with the reason when NVML cannot tell.
json read_clocks(int device) {
  const nvml::library& lib = nvml::library::get();
  std::string why;
  const std::optional<nvml::device_handle> handle = lib.device(device, why);
  if (!handle) return {{"unknown", why.empty() ? lib.error() : why}};
  json clocks = json::object();
  const auto put = [&](const char* key, nvml::clock which, bool max) {
    std::string reason;
    const std::optional<int> mhz = lib.clock_mhz(*handle, which, max, reason);
    clocks[key] = mhz ? json(*mhz) : json("unknown: " + reason);
  };
  put("sm_mhz", nvml::clock::sm, false);
  put("sm_max_mhz", nvml::clock::sm, true);
  put("memory_mhz", nvml::clock::memory, false);
  std::string reason;
  if (const std::optional<std::uint64_t> mask = lib.clock_event_reasons(*handle, reason)) {
    clocks["reasons"] = nvml::reason_names(*mask);
    clocks["held_down"] = nvml::holds_clock_down(*mask);
  } else {
    clocks["reasons"] = "unknown: " + reason;
  }
  return clocks;
}

// Runs `measure`, keeping a failure as a missing value with its reason; the
// clocks are read before and after.
ceiling attempt(int device, const std::string& name, const std::string& unit,
                         const std::function<void(ceiling&)>& measure) {
  ceiling c;
  c.m_name = name;
  c.m_unit = unit;
  c.m_source = "measured";
  c.m_details = json::object();
  c.m_details["clocks_before"] = read_clocks(device);
  try {
    measure(c);
    if (c.m_value && !(std::isfinite(*c.m_value) && *c.m_value > 0)) {
      c.m_reason = "the measurement gave " + std::to_string(*c.m_value) + ", not a finite rate > 0";
      c.m_value.reset();
    }
  } catch (const std::exception& e) {
    c.m_value.reset();
    c.m_reason = e.what();
    (void)cudaGetLastError();  // a launch error must not fail the next measurement
  }
  c.m_details["clocks_after"] = read_clocks(device);
  return c;
}

std::vector<std::size_t> copy_sizes(const ceiling_probe_options& o, std::size_t l2_bytes) {
  std::size_t free_bytes = 0;
  std::size_t total_bytes = 0;
  check(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo", "sizing the copy buffers");
  const std::size_t mib = std::size_t{1} << 20;
  const std::size_t base = std::max<std::size_t>(l2_bytes, 32 * mib);
  const std::vector<std::size_t> multiples = o.m_quick ? std::vector<std::size_t>{4} : std::vector<std::size_t>{4, 8, 16};
  std::vector<std::size_t> sizes;
  for (const std::size_t m : multiples) {
    const std::size_t bytes = (base * m + mib - 1) / mib * mib;
    if (2 * bytes < free_bytes / 2) sizes.push_back(bytes);  // two buffers, at most half of what is free
  }
  if (sizes.empty()) throw device_error("not enough free device memory for two buffers of 4x L2");
  return sizes;
}

void measure_copy(const ceiling_probe_options& o, const cudaDeviceProp& prop, cudaStream_t stream, ceiling& c) {
  int blocks_per_sm = 0;
  check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, kopt_ceiling_copy, 256, 0),
        "cudaOccupancyMaxActiveBlocksPerMultiprocessor", "sizing the copy kernel");
  const int grid = prop.multiProcessorCount * std::max(1, blocks_per_sm);
  const int repeats = o.m_quick ? 5 : o.m_repeats;
  double best = 0;
  std::string best_how;
  json sizes = json::array();
  std::size_t samples = 0;
  for (const std::size_t bytes : copy_sizes(o, static_cast<std::size_t>(prop.l2CacheSize))) {
    device_buffer src(bytes);
    device_buffer dst(bytes);
    check(cudaMemsetAsync(src.get(), 1, bytes, stream), "cudaMemsetAsync", "filling the copy source");
    const std::size_t count = bytes / sizeof(int4);
    std::vector<double> kernel_ms;
    std::vector<double> memcpy_ms;
    const double k = median_ms(
        [&] {
          kopt_ceiling_copy<<<grid, 256, 0, stream>>>(static_cast<const int4*>(src.get()), static_cast<int4*>(dst.get()),
                                                      count);
        },
        stream, 3, repeats, "copy kernel", kernel_ms);
    const double m = median_ms(
        [&] {
          check(cudaMemcpyAsync(dst.get(), src.get(), bytes, cudaMemcpyDeviceToDevice, stream), "cudaMemcpyAsync",
                "device-to-device copy");
        },
        stream, 3, repeats, "cudaMemcpyAsync", memcpy_ms);
    const double kernel_rate = 2.0 * static_cast<double>(bytes) / (k * 1e-3);
    const double memcpy_rate = 2.0 * static_cast<double>(bytes) / (m * 1e-3);
    samples += kernel_ms.size() + memcpy_ms.size();
    sizes.push_back({{"buffer_bytes", bytes},
                     {"kernel_median_ms", k},
                     {"kernel_bytes_per_s", kernel_rate},
                     {"memcpy_median_ms", m},
                     {"memcpy_bytes_per_s", memcpy_rate},
                     {"kernel_samples_ms", kernel_ms},
                     {"memcpy_samples_ms", memcpy_ms}});
    if (kernel_rate > best) {
      best = kernel_rate;
      best_how = "copy kernel, " + std::to_string(bytes) + "-byte buffers";
    }
    if (memcpy_rate > best) {
      best = memcpy_rate;
      best_how = "cudaMemcpyAsync, " + std::to_string(bytes) + "-byte buffers";
    }
  }
  c.m_value = best;
  c.m_method = "device-to-device copy, bytes read + written (2x the buffer) per median time; a 128-bit "
               "grid-stride copy kernel (" + std::to_string(grid) + " blocks of 256) and cudaMemcpyAsync, each on "
               "buffers of 4x, 8x and 16x L2 (at least 32 MiB), median of " + std::to_string(repeats) +
               " event-timed calls after 3 warm-up calls; the best median: " + best_how;
  c.m_details["sizes"] = sizes;
  c.m_details["samples"] = samples;
}

void measure_fma(const ceiling_probe_options& o, const cudaDeviceProp& prop, cudaStream_t stream, ceiling& c) {
  int blocks_per_sm = 0;
  check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, kopt_ceiling_ffma, k_fma_threads, 0),
        "cudaOccupancyMaxActiveBlocksPerMultiprocessor", "sizing the FMA kernel");
  const int waves = 4;
  const int grid = prop.multiProcessorCount * std::max(1, blocks_per_sm) * waves;
  const int iterations = o.m_quick ? 4096 : 32768;
  const int repeats = o.m_quick ? 5 : o.m_repeats;
  device_buffer out(static_cast<std::size_t>(grid) * k_fma_threads * sizeof(float));
  std::vector<double> samples;
  const double ms = median_ms(
      [&] {
        kopt_ceiling_ffma<<<grid, k_fma_threads, 0, stream>>>(static_cast<float*>(out.get()), 0.999999f, 1e-7f,
                                                              iterations);
      },
      stream, 3, repeats, "FMA kernel", samples);
  const double flops = 2.0 * k_fma_chains * static_cast<double>(iterations) * grid * k_fma_threads;
  c.m_value = flops / (ms * 1e-3);
  c.m_method = "register-resident FFMA loop: " + std::to_string(k_fma_chains) + " independent chains per thread, " +
               std::to_string(iterations) + " iterations, " + std::to_string(grid) + " blocks of " +
               std::to_string(k_fma_threads) + " (" + std::to_string(waves) + " full waves at " +
               std::to_string(blocks_per_sm) + " blocks per SM); 2 FLOP per FMA; median of " +
               std::to_string(repeats) + " event-timed launches after 3 warm-up launches";
  c.m_details["flop_per_launch"] = flops;
  c.m_details["median_ms"] = ms;
  c.m_details["samples_ms"] = samples;
}

struct gemm_kind {
  const char* m_name;
  cudaDataType_t m_type;        // A, B and C
  cublasComputeType_t m_compute;
  std::size_t m_element_bytes;
  const char* m_text;
};

void check_cublas(cublasStatus_t status, const char* call, const std::string& what) {
  if (status == CUBLAS_STATUS_SUCCESS) return;
  throw device_error(what + ": " + call + ": " + cublasGetStatusName(status) + ": " + cublasGetStatusString(status));
}

template <typename T>
void fill(void* data, std::size_t count, unsigned seed, int sm_count, cudaStream_t stream) {
  kopt_ceiling_fill<T><<<sm_count * 8, 256, 0, stream>>>(static_cast<T*>(data), count, seed);
  check(cudaGetLastError(), "kopt_ceiling_fill", "filling GEMM operands");
}

void measure_gemm(const ceiling_probe_options& o, const cudaDeviceProp& prop, cudaStream_t stream, cublasHandle_t handle,
                  const gemm_kind& kind, ceiling& c) {
  const int n = o.m_quick ? 2048 : 8192;
  const int repeats = o.m_quick ? 5 : std::max(10, o.m_repeats / 2);
  const std::size_t count = static_cast<std::size_t>(n) * n;
  device_buffer a(count * kind.m_element_bytes);
  device_buffer b(count * kind.m_element_bytes);
  device_buffer d(count * kind.m_element_bytes);
  for (const auto& [buffer, seed] : {std::pair<void*, unsigned>{a.get(), 1u}, {b.get(), 2u}}) {
    if (kind.m_type == CUDA_R_16BF) fill<__nv_bfloat16>(buffer, count, seed, prop.multiProcessorCount, stream);
    if (kind.m_type == CUDA_R_16F) fill<__half>(buffer, count, seed, prop.multiProcessorCount, stream);
    if (kind.m_type == CUDA_R_32F) fill<float>(buffer, count, seed, prop.multiProcessorCount, stream);
  }
  check_cublas(cublasSetStream(handle, stream), "cublasSetStream", kind.m_name);
  const float alpha = 1.0f;
  const float beta = 0.0f;
  std::vector<double> samples;
  const double ms = median_ms(
      [&] {
        check_cublas(cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, a.get(), kind.m_type, n, b.get(),
                                  kind.m_type, n, &beta, d.get(), kind.m_type, n, kind.m_compute, CUBLAS_GEMM_DEFAULT),
                     "cublasGemmEx", kind.m_name);
      },
      stream, 3, repeats, kind.m_name, samples);
  const double flops = 2.0 * n * static_cast<double>(n) * n;
  c.m_value = flops / (ms * 1e-3);
  c.m_method = std::string("cuBLAS cublasGemmEx, ") + kind.m_text + ", M = N = K = " + std::to_string(n) +
               ", column-major, no transpose, alpha 1, beta 0, CUBLAS_GEMM_DEFAULT, operands uniform in "
               "+-[0.25, 1); 2*M*N*K FLOP per call; median of " + std::to_string(repeats) +
               " event-timed calls after 3 warm-up calls";
  c.m_details["m_n_k"] = n;
  c.m_details["median_ms"] = ms;
  c.m_details["samples_ms"] = samples;
}

std::string cublas_version(cublasHandle_t handle) {
  int version = 0;
  if (handle == nullptr || cublasGetVersion(handle, &version) != CUBLAS_STATUS_SUCCESS) return "unknown";
  return std::to_string(version / 10000) + "." + std::to_string(version / 100 % 100) + "." + std::to_string(version % 100);
}

}  // namespace

std::optional<std::string> device_unavailable_reason(int device) {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) {
    return std::string("no CUDA device visible: cudaGetDeviceCount: ") + cudaGetErrorName(status) + ": " +
           cudaGetErrorString(status);
  }
  if (count == 0) return std::string("no CUDA device visible");
  if (device < 0 || device >= count) {
    return "device " + std::to_string(device) + " does not exist (" + std::to_string(count) + " visible)";
  }
  return std::nullopt;
}

ceilings_file measure_ceilings(const ceiling_probe_options& options) {
  check(cudaSetDevice(options.m_device), "cudaSetDevice", "selecting the GPU");
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, options.m_device), "cudaGetDeviceProperties", "reading the device");
  ceilings_file r;
  r.m_device = prop.name;
  ceilings_measurement& facts = r.m_measurement.emplace();
  facts.m_device_uuid = nvml::uuid_text(prop.uuid.bytes);
  facts.m_device_index = options.m_device;
  facts.m_compute_capability = std::to_string(prop.major) + "." + std::to_string(prop.minor);
  facts.m_sm_count = prop.multiProcessorCount;
  facts.m_l2_bytes = prop.l2CacheSize;
  facts.m_memory_bytes = static_cast<std::int64_t>(prop.totalGlobalMem);
  facts.m_mode = options.m_quick ? "quick (a smoke test with small sizes: not a ceiling)" : "full";

  cudaStream_t stream = nullptr;
  check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreateWithFlags", "creating a stream");
  const std::unique_ptr<CUstream_st, void (*)(cudaStream_t)> stream_owner(stream, [](cudaStream_t s) { cudaStreamDestroy(s); });
  cublasHandle_t handle = nullptr;
  const cublasStatus_t created = cublasCreate(&handle);
  const std::unique_ptr<cublasContext, void (*)(cublasHandle_t)> handle_owner(
      created == CUBLAS_STATUS_SUCCESS ? handle : nullptr, [](cublasHandle_t h) {
        if (h != nullptr) cublasDestroy(h);
      });
  facts.m_cublas = cublas_version(handle_owner.get());

  const int device = options.m_device;
  const json clocks_before = read_clocks(device);
  r.m_ceilings.push_back(attempt(device, "copy_bandwidth", "B/s", [&](ceiling& c) {
    measure_copy(options, prop, stream, c);
  }));
  r.m_ceilings.push_back(attempt(device, "fp32_fma", "FLOP/s", [&](ceiling& c) {
    measure_fma(options, prop, stream, c);
  }));
  const gemm_kind kinds[] = {
      {"bf16_tensor", CUDA_R_16BF, CUBLAS_COMPUTE_32F, 2, "bf16 A, B and C, FP32 accumulation (CUBLAS_COMPUTE_32F)"},
      {"fp16_tensor", CUDA_R_16F, CUBLAS_COMPUTE_32F, 2, "fp16 A, B and C, FP32 accumulation (CUBLAS_COMPUTE_32F)"},
      {"tf32_tensor", CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32, 4,
       "fp32 A, B and C, TF32 tensor cores (CUBLAS_COMPUTE_32F_FAST_TF32)"}};
  for (const gemm_kind& kind : kinds) {
    r.m_ceilings.push_back(attempt(device, kind.m_name, "FLOP/s", [&](ceiling& c) {
      if (handle_owner.get() == nullptr) {
        throw device_error(std::string("cublasCreate: ") + cublasGetStatusName(created) + ": " +
                           cublasGetStatusString(created));
      }
      measure_gemm(options, prop, stream, handle_owner.get(), kind, c);
    }));
  }
  facts.m_clocks = {{"before", clocks_before}, {"after", read_clocks(device)}};
  return r;
}

}  // namespace kopt::cuda
