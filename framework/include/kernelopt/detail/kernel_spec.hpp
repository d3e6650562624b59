// What the generated code tells the harness about one declared kernel.
//
// The CMake functions generate, per kernel, one translation unit that fills a
// kernel_spec (arguments, dims, shapes, tolerance, work model) and one
// impl_spec per variant / reference / baseline, and per implementation a
// module whose `invoke` casts the type-erased buffers back to the entry
// point's typed signature (module.hpp). The test and benchmark mains hand
// the spec to the harness.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace kopt {

enum class dtype { f64, f32, f16, bf16, i32, i64, u8 };
enum class arg_dir { in, out, inout };
enum class backend_kind { host, cuda };
enum class impl_role { variant, reference, baseline };

// Random fill for one input. Bounds are expressions over the DIMS
// (e.g. randint(0,N) for an index array into a dimension of size N).
struct init_spec {
  enum class kind { uniform, normal, randint } m_kind = kind::uniform;
  std::string m_a = "-1";  // uniform: low, normal: mean, randint: low (inclusive)
  std::string m_b = "1";   // uniform: high, normal: stddev, randint: high (exclusive)
};

struct arg_spec {
  std::string m_name;
  arg_dir m_dir = arg_dir::in;
  dtype m_dtype = dtype::f32;
  std::vector<std::string> m_shape;  // one expression over DIMS per axis
  init_spec m_init;
};

struct tolerance_spec {
  double m_rtol = 0;
  double m_atol = 0;
  std::optional<double> m_max_rel_l2;  // optional bound on the relative L2 error
  std::string m_source;                // "TOLERANCE", "default for f32", ...
  bool m_max_rel_l2_default = false;   // m_max_rel_l2 is the dtype's default, not declared
};

struct timing_spec {
  int m_min_samples = 10;
  double m_min_time_s = 0.5;
  double m_max_noise = 0.005;
  double m_timeout_s = 15.0;
  int m_warmup_samples = 3;
};

// A shape is one assignment of every DIM, in DIMS order.
struct shape_spec {
  std::string m_text;               // "M=4096,N=4096,K=4096", as declared
  std::vector<std::int64_t> m_dims; // values in DIMS order
};

// Calls one implementation. `buffers[i]` points to argument i (device memory
// for the cuda backend, host memory for the host backend); `dims` holds the
// DIMS in order; `stream` is a cudaStream_t for the cuda backend, nullptr for
// the host backend.
using invoke_fn = void (*)(void* const* buffers, const std::int64_t* dims, void* stream);

struct impl_spec {
  std::string m_name;   // "v1", "reference", "cublas"
  std::string m_entry;  // the ENTRY function's name
  impl_role m_role = impl_role::variant;
  backend_kind m_backend = backend_kind::cuda;
  // Reference only: the harness upcasts every floating tensor to f64 before
  // calling it (REFERENCE_PRECISION f64).
  bool m_f64 = false;
  // The shared module that holds it, a file beside the executable
  // (kernelopt/detail/module.hpp); load_modules sets m_invoke from it.
  std::string m_module;
  invoke_fn m_invoke = nullptr;  // null when the implementation is not in this build
  // Set when its module could not be loaded: its tests fail with this.
  std::string m_load_error;
  // Why this build does not hold the implementation (its declared CUDA
  // architectures against the build's); its tests report SKIPPED with it.
  // Empty when it is built.
  std::string m_skip_reason;
  // The CUDA architectures its device code was built for, as CMake lists
  // them ("80;90a-real"); empty when unknown or not CUDA. The CUDA backend
  // skips it on a device these cannot run on.
  std::string m_cuda_archs;
};

struct kernel_spec {
  std::string m_name;
  backend_kind m_backend = backend_kind::cuda;
  std::vector<arg_spec> m_args;
  std::vector<std::string> m_dims;
  std::vector<shape_spec> m_shapes;
  std::vector<shape_spec> m_quick_shapes;
  std::vector<std::uint64_t> m_seeds;
  std::optional<tolerance_spec> m_tolerance;  // empty: per-dtype default
  std::string m_flops;  // expression over DIMS, empty when not declared
  std::string m_bytes;
  timing_spec m_timing;
  std::vector<impl_spec> m_variants;  // declaration order
  std::optional<impl_spec> m_reference;
  std::vector<impl_spec> m_baselines;
};

}  // namespace kopt
