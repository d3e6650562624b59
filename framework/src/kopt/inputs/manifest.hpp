// The manifest of one declared kernel (`kernelopt.manifest`, written by the
// CMake functions): everything kopt knows about the kernel's loop.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/json_io.hpp"
#include "formats/timing_settings.hpp"

namespace kopt {

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
