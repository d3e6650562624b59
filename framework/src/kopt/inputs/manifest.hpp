// The manifest of one declared kernel (`kernelopt.manifest`, written by the
// CMake functions, cmake/kernelopt/Generate.cmake): everything kopt knows
// about the kernel's loop. Read here once, by every reader; to_json writes
// the same fields (the test formats.doc_tables checks both it and the
// manifests the build wrote against manifest_tables()).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/json_io.hpp"
#include "formats/field_doc.hpp"
#include "formats/timing_settings.hpp"
#include "formats/tolerance.hpp"

namespace kopt {

inline constexpr int k_manifest_schema_version = 1;

// A tensor argument as declared (ARGS): its direction (in | out | inout),
// dtype and shape axes.
struct arg_decl {
  std::string m_name;
  std::string m_dir;
  std::string m_dtype;
  std::vector<std::string> m_shape;
  // How the harness fills an input, "<kind>(<lo>,<hi>)": its INIT entry
  // (bounds stripped), else its dtype's default. nullopt for an output,
  // and in manifests written before it was recorded.
  std::optional<std::string> m_init;

  friend bool operator==(const arg_decl& a, const arg_decl& b) {
    return a.m_name == b.m_name && a.m_dir == b.m_dir && a.m_dtype == b.m_dtype && a.m_shape == b.m_shape &&
           a.m_init == b.m_init;
  }
  friend bool operator!=(const arg_decl& a, const arg_decl& b) { return !(a == b); }
};
// An args[] entry, as the manifest has it (a record's `inputs` keeps the same).
[[nodiscard]] json to_json(const arg_decl& a);
[[nodiscard]] arg_decl arg_decl_from_json(const json_reader& node);

struct impl_decl {
  std::string m_name;
  std::string m_entry;
  std::vector<std::string> m_sources;
  // EXPECT_FAILURE's regex: declared known to be incorrect (absent in
  // manifests written before it was recorded).
  std::optional<std::string> m_expect_failure;
  // The reference's own: its backend (host) and precision (f64 | native).
  std::optional<std::string> m_backend;
  std::optional<std::string> m_precision;
  std::vector<std::string> m_compile_options;  // baselines: COMPILE_OPTIONS (absent in older manifests: none)
};

// The static SASS check of a variant, as its <k>.static.<v> test runs it:
// `kopt static --manifest M --variant V --objects ... --out F <args>`.
struct static_check {
  std::vector<std::string> m_objects;
  std::vector<std::string> m_args;
};

// One point of a family: PARAMS fixed to one value each (docs/sweeps.md).
struct point_decl {
  std::string m_name;                 // "<variant>_p<index in the full space>"
  std::vector<std::string> m_params;  // "NAME=value", in PARAMS order
  std::string m_target;               // the CMake target that builds it ("" when skipped)
  std::string m_library;              // the shared library the target makes ("" when skipped)
  std::optional<std::string> m_skip;  // why this build does not compile it (its architectures)
};

// A variant declared with PARAMS: its points and how the sweep builds them.
struct family_decl {
  std::vector<std::string> m_params;       // "NAME=v1,v2", as declared
  std::vector<std::string> m_constraints;  // PARAM_CONSTRAINTS
  std::optional<std::int64_t> m_max_points;
  std::int64_t m_space = 0;  // combinations of the PARAMS values
  std::int64_t m_valid = 0;  // of those, the ones every constraint allows
  std::vector<point_decl> m_points;        // the points swept (sampled when MAX_POINTS < valid)
  std::vector<std::string> m_build_command;  // cmake --build <top> [--config C]; targets follow
  std::vector<std::string> m_keep_going;     // "--" and the native tool's keep-going flag
  std::string m_selection;                   // <records>/<k>/<variant>.selection.json
  std::string m_sweep_dir;                   // <build>/kernelopt/<k>/sweep/<variant>
  std::optional<std::string> m_dispatch;     // the generated dispatch function, once selected
  // With a dispatch: the point it calls on each declared shape, in SHAPES order.
  std::optional<std::vector<std::string>> m_champions;

  [[nodiscard]] const point_decl* point(const std::string& name) const;
};

// A METHODS entry <method>=<MACRO> (docs/ablation.md): the variant is
// compiled with MACRO=1; its ablation `impl` (<variant>__no_<method>),
// module target `target`, with MACRO=0.
struct method_switch {
  std::string m_method;
  std::string m_macro;
  std::string m_impl;
  std::string m_target;
  std::vector<std::string> m_objects;  // CUDA variants with a static check: the ablated build's objects
};

// What the variant's compiler gets besides SOURCES and COMPILE_OPTIONS
// (manifest `build_context`, cmake/kernelopt/Manifest.cmake): definitions
// and options as text, the include directories in the project's source tree.
struct build_context {
  std::vector<std::string> m_compile_definitions;
  std::vector<std::string> m_compile_options;
  std::vector<std::string> m_include_directories;
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
  std::optional<family_decl> m_family;          // declared with PARAMS
  std::vector<method_switch> m_switches;  // the switchable METHODS, in claim order
  std::vector<std::string> m_compile_options;  // COMPILE_OPTIONS (absent in older manifests: none)
  std::optional<build_context> m_build_context;  // absent in older manifests

  [[nodiscard]] const method_switch* find_switch(const std::string& method) const;
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
  std::vector<arg_decl> m_args;
  std::vector<std::string> m_dims;
  std::vector<std::string> m_shapes;
  std::vector<std::string> m_quick_shapes;
  std::vector<std::int64_t> m_seeds;
  std::optional<declared_tolerance> m_tolerance;  // as declared (nullopt: per-dtype defaults)
  std::string m_flops;
  std::string m_bytes;
  std::vector<std::string> m_targets;
  // MAX_ITERATIONS: how many variants the loop may record before it stops
  // (kopt status); absent when not declared.
  std::optional<std::int64_t> m_max_iterations;
  std::filesystem::path m_records_dir;
  std::optional<impl_decl> m_reference;
  std::vector<variant_decl> m_variants;  // declaration order = the loop's order
  std::vector<impl_decl> m_baselines;
  timing_settings m_timing;
  // The kernel's TIMEOUT (CTest's limit per test process); absent in
  // manifests written before it was recorded.
  std::optional<double> m_test_timeout_s;
  std::string m_test_executable;
  std::string m_bench_executable;  // empty when the kernel has no benchmark target
  std::optional<std::string> m_kopt_executable;  // nullopt when kopt is not built
  // The ablation's test and benchmark (docs/ablation.md); nullopt when no
  // variant has a switchable METHOD (or in manifests written before them).
  std::optional<std::string> m_ablate_test_executable;
  std::optional<std::string> m_ablate_bench_executable;
  std::optional<std::string> m_cmake_executable;  // the cmake that configured the build
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
  // <build>/kernelopt/<kernel>: the directory holding the manifest (its
  // "build_dir" names the same; it is checked, not kept).
  [[nodiscard]] std::filesystem::path build_dir() const { return m_path.parent_path(); }
  // The dtypes of the in and inout arguments, in declaration order.
  [[nodiscard]] std::vector<std::string> input_dtypes() const;
};

// The manifest as Generate.cmake writes it (build_dir: build_dir()).
[[nodiscard]] json to_json(const manifest& m);
// Checks kind and schema_version, names and directories (kopt writes under
// them). `path` is where the document was read from. Throws format_error
// naming the file and the JSON path.
[[nodiscard]] manifest manifest_from_json(const json_reader& root, const std::filesystem::path& path);
[[nodiscard]] manifest read_manifest(const std::filesystem::path& path);

// Tables (docs/formats.md): the manifest, its args, implementations (the
// reference, each variant and baseline), a variant's static check,
// a variant's switches, executables and tools.
[[nodiscard]] std::vector<format_table> manifest_tables();

}  // namespace kopt
