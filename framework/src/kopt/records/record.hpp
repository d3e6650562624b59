// The iteration record (`kernelopt.record`): one per variant, written once by
// `kopt record`, changed afterwards only by `kopt mask`. Typed, with explicit
// to_json / from_json; docs/formats.md describes every field.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/json_io.hpp"
#include "core/shape.hpp"
#include "formats/ceilings.hpp"
#include "formats/clocks.hpp"
#include "formats/env.hpp"
#include "formats/field_doc.hpp"
#include "formats/gpu.hpp"
#include "formats/static_result.hpp"
#include "formats/timing_stats.hpp"
#include "formats/tolerance.hpp"
#include "kopt/inputs/correctness.hpp"
#include "kopt/inputs/manifest.hpp"
#include "kopt/profile/document.hpp"
#include "kopt/records/ablation.hpp"
#include "kopt/records/measured_inputs.hpp"
#include "kopt/records/source_hash.hpp"

namespace kopt {

// 2: per-shape output_check and paired (interleaved) speedup vs best; the
// gate rules bench_output and clock apply (docs/formats.md).
inline constexpr int k_record_schema_version = 2;
inline constexpr const char* k_record_kind = "kernelopt.record";

// A document a record embeds, or why there is none: written as the
// document, or as {"status": "unavailable", "reason": ...}.
template <class T>
struct embedded_document {
  std::optional<T> m_document;
  std::string m_reason;  // why m_document is nullopt

  [[nodiscard]] static embedded_document unavailable(std::string reason) { return {std::nullopt, std::move(reason)}; }
};

// Another implementation timed in the same benchmark file, same shape.
struct measured_impl {
  std::string m_impl;
  std::string m_role;  // parent | best_so_far | reference | baseline
  double m_median_ns = 0;
  std::optional<double> m_noise;
};

// The candidate and the best-so-far sampled in the same interleaved rounds
// (kopt/bench.hpp pair_rounds).
struct paired_timing {
  std::string m_impl;  // the best-so-far
  double m_speedup = 1;
  double m_noise = 0;
  std::int64_t m_rounds = 0;
};

struct shape_timing {
  shape m_shape;  // as declared; its dimensions parsed once, where read
  std::optional<std::string> m_error;  // the benchmark of this shape failed
  // The benchmark's own check of what it timed: pass | fail | unavailable;
  // nullopt when the bench file had none (schema 1 records).
  std::optional<std::string> m_output_check;
  std::optional<std::string> m_output_detail;
  std::optional<paired_timing> m_paired_vs_best;
  timing_stats m_stats;
  std::optional<double> m_tflops;
  std::optional<double> m_gbps;
  std::optional<ceiling_fractions> m_pct_of_ceiling;  // {"copy_bandwidth": 0.81}; nullopt: no ceilings
  std::optional<clock_window> m_clock;         // the bench's kopt.clock; nullopt (null) on the host
  std::optional<second_clock> m_second_clock;  // the bench's kopt.second_clock
  std::vector<std::string> m_flags;
  // Speedups: the other's median / this median (> 1: this one is faster);
  // nullopt when the other was not timed in the same benchmark file.
  std::optional<double> m_speedup_vs_parent;
  std::optional<double> m_speedup_vs_best;
  std::optional<double> m_speedup_vs_reference;
  std::vector<std::pair<std::string, std::optional<double>>> m_speedup_vs_baselines;
  std::vector<measured_impl> m_measured_with;

  [[nodiscard]] const measured_impl* measured(const std::string& impl) const;
};

struct timing_summary {
  std::string m_bench_file;  // base name
  std::string m_device;
  std::optional<gpu_info> m_gpu;             // which GPU timed it (bench's kopt.gpu), nullopt (null) if unknown
  bool m_quick = false;                      // timed on the quick shapes only
  std::optional<std::string> m_best_so_far;  // when the record was made
  std::vector<shape_timing> m_shapes;

  [[nodiscard]] const shape_timing* find(const std::string& shape) const;
};

struct gate_check {
  std::string m_rule;  // correctness | parent | hypothesis | settings | speedup | per_shape | source | order
  bool m_ok = false;
  std::string m_detail;
};

struct target_result {
  std::string m_target;
  std::string m_status;  // met | unmet | unknown
  std::vector<std::string> m_details;
};

struct gate_result {
  std::string m_decision;  // ACCEPT | REJECT
  // REJECT: the detail of every failed check. ACCEPT: of every check.
  std::vector<std::string> m_reasons;
  std::vector<std::string> m_notices;  // stagnation, target met, quick shapes
  std::vector<gate_check> m_checks;
  std::optional<std::string> m_best_so_far;  // compared against
  std::optional<std::string> m_best_after;   // the best once this decision stands
  std::vector<target_result> m_targets;      // evaluated on m_best_after
  bool m_target_met = false;
  std::string m_evaluated_utc;

  [[nodiscard]] bool accepted() const { return m_decision == "ACCEPT"; }
};

struct mask_info {
  std::string m_reason;
  std::string m_utc;
};
// `{reason, utc}`: a record's `masked`, and kopt mask's output.
[[nodiscard]] json to_json(const mask_info& masked);

// A step that crashed, aborted or timed out: the record is made anyway,
// with whatever evidence there was, and the gate's `run` rule rejects it.
struct run_failure {
  std::string m_step;   // "correctness test" | "benchmark"
  std::string m_cause;  // "signal 11 (Segmentation fault)", "timed out after 600 s (limit: ...)"
};

// The record of a family variant (docs/sweeps.md): the selection its
// dispatch was generated from, and which point served which shape.
struct served_shape {
  std::string m_shape;
  std::string m_point;
  std::vector<std::string> m_params;  // NAME=value
};
struct dispatch_info {
  std::string m_selection_utc;  // the selection's own utc
  std::vector<served_shape> m_served;  // in SHAPES order
};

struct record {
  int m_schema_version = k_record_schema_version;  // as read: the rules of that version apply
  std::string m_kernel;
  std::string m_variant;
  std::optional<std::string> m_parent;
  std::optional<std::string> m_hypothesis;
  std::vector<std::string> m_methods;
  source_hash m_source;
  std::string m_created_utc;
  std::optional<std::string> m_kernelopt_version;  // the KernelOpt that wrote it (none in older records)
  std::optional<mask_info> m_masked;
  embedded_document<env_file> m_env;  // as given by --env
  std::vector<std::string> m_shapes;
  std::vector<std::int64_t> m_seeds;
  std::optional<declared_tolerance> m_tolerance;  // as declared (nullopt: per-dtype defaults)
  timing_settings m_timing_settings;
  // What it was tested and timed on, and checked against (ARGS with their
  // fills, DIMS, the reference); nullopt in records made before kopt kept
  // them, which are not compared on them.
  std::optional<measured_inputs> m_inputs;
  correctness_summary m_correctness;
  timing_summary m_timing;
  std::optional<ceilings_file> m_ceilings;  // as given with --ceilings (and spec values); null without
  embedded_document<profile::profile_document> m_profile;  // as given by --profile
  embedded_document<static_result> m_static;  // as given by --static
  std::optional<run_failure> m_failure;  // a step that failed to finish (schema 2)
  std::optional<dispatch_info> m_dispatch;  // family variants only; absent otherwise
  gate_result m_gate;
  // Written by `kopt ablate` after the record was made (docs/ablation.md):
  // the only field a later command adds besides `masked`.
  std::optional<ablation_result> m_ablation;

  // Accepted at record time and not masked since: counts for best-so-far.
  [[nodiscard]] bool counts_as_accepted() const { return !m_masked && m_gate.accepted(); }
};

// The bottleneck its embedded profile gives the variant (a single
// implementation's document); nullopt when there is none.
[[nodiscard]] std::optional<std::string> profiled_bottleneck(const record& r);

[[nodiscard]] json to_json(const record& r);
[[nodiscard]] json to_json(const gate_result& gate);
[[nodiscard]] record record_from_json(const json& doc, const std::string& file);
// Reads, checks kind and schema_version, converts. Throws format_error.
[[nodiscard]] record read_record(const std::filesystem::path& path);

// Adds (or replaces) the record's `ablation` (kopt ablate), rewriting the
// file atomically with every other byte of the document unchanged, as kopt
// mask edits `masked`. REQUIRES: the caller holds the kernel's lock.
void write_record_ablation(const std::filesystem::path& path, const ablation_result& ablation);

// Tables (docs/formats.md): the record, its timing, a timed shape (with the
// timing statistics' own table), the gate, the ablation, the inputs.
[[nodiscard]] std::vector<format_table> record_tables();

}  // namespace kopt
