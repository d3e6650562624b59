// The manifest of one declared kernel (`kernelopt.manifest`, written by the
// CMake functions): everything kopt knows about the kernel's loop.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/json_io.hpp"

namespace kopt {

struct timing_settings {
  std::int64_t m_min_samples = 0;
  double m_min_time_s = 0;
  double m_max_noise = 0;
  double m_timeout_s = 0;
  std::int64_t m_warmup_samples = 0;
  std::optional<std::int64_t> m_l2_flush_bytes;  // known once a benchmark ran

  // NOTE: l2_flush_bytes is compared only when both sides know it.
  [[nodiscard]] bool same_as(const timing_settings& other) const;
};
[[nodiscard]] json to_json(const timing_settings& settings);
[[nodiscard]] timing_settings timing_settings_from_json(const json_reader& node);
// A declared tolerance: null, or an object whose rtol / atol / max_rel_l2
// (when present) are finite and >= 0; throws format_error naming the field.
[[nodiscard]] json tolerance_from_json(const json_reader& node);

struct impl_decl {
  std::string m_name;
  std::string m_entry;
  std::vector<std::string> m_sources;
  // EXPECT_FAILURE's regex: declared known to be incorrect (absent in
  // manifests written before it was recorded).
  std::optional<std::string> m_expect_failure;
};

// The static SASS check of a variant, as its <k>.static.<v> test runs it:
// `kopt static --manifest M --variant V --objects ... --out F <args>`.
struct static_check {
  std::vector<std::string> m_objects;
  std::vector<std::string> m_args;
};

struct variant_decl {
  std::string m_name;
  std::string m_entry;
  std::vector<std::string> m_sources;
  std::optional<std::string> m_parent;
  std::optional<std::string> m_hypothesis;
  std::vector<std::string> m_methods;
  std::optional<static_check> m_static;  // CUDA variants, when kopt is built
  std::optional<std::string> m_expect_failure;  // as impl_decl's
};

// Tools found at configure time (manifest "tools"; each may be absent).
struct manifest_tools {
  std::optional<std::string> m_ncu;
  std::optional<std::string> m_specs_dir;
  std::optional<std::string> m_ceilings;  // KernelOpt_CEILINGS
};

struct manifest {
  std::filesystem::path m_path;
  std::string m_kernel;
  std::string m_backend;
  std::vector<std::string> m_shapes;
  std::vector<std::string> m_quick_shapes;
  std::vector<std::int64_t> m_seeds;
  json m_tolerance;  // as declared (null: per-dtype defaults)
  std::string m_flops;
  std::string m_bytes;
  std::vector<std::string> m_targets;
  // MAX_ITERATIONS: how many variants the loop may record before it stops
  // (kopt status); absent when not declared.
  std::optional<std::int64_t> m_max_iterations;
  // The dtypes of the in / inout tensors, in ARGS order (the experience
  // store's dtype).
  std::vector<std::string> m_input_dtypes;
  std::filesystem::path m_records_dir;
  std::optional<impl_decl> m_reference;
  std::vector<variant_decl> m_variants;  // declaration order = the loop's order
  std::vector<impl_decl> m_baselines;
  timing_settings m_timing;
  // The kernel's TIMEOUT (CTest's limit per test process); absent in
  // manifests written before it was recorded.
  std::optional<double> m_test_timeout_s;
  std::string m_test_executable;
  std::string m_bench_executable;     // empty when the kernel has no benchmark target
  std::filesystem::path m_build_dir;  // <build>/kernelopt/<kernel>
  manifest_tools m_tools;

  // Index in declaration order, or -1.
  [[nodiscard]] int variant_index(const std::string& name) const;
  // REQUIRES: the variant is declared (throws std::runtime_error otherwise).
  [[nodiscard]] const variant_decl& variant(const std::string& name) const;
  // Whether the variant or baseline `name` is declared EXPECT_FAILURE.
  [[nodiscard]] bool expects_failure(const std::string& name) const;
  // <records_dir>/<kernel>/<variant>.json
  [[nodiscard]] std::filesystem::path record_path(const std::string& variant) const;
  // <records_dir>/<kernel>
  [[nodiscard]] std::filesystem::path kernel_records_dir() const;
  // <build>/kernelopt/<kernel>: the directory holding the manifest.
  [[nodiscard]] std::filesystem::path build_dir() const { return m_path.parent_path(); }
};

// Throws format_error naming the file and the JSON path.
[[nodiscard]] manifest read_manifest(const std::filesystem::path& path);

}  // namespace kopt
