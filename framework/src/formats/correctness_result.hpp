// The correctness result (`kernelopt.correctness`): what one `<k>_kopt_test`
// process found, every trial of its variant with every output checked.
// One type for the writer (harness/correctness_main.cpp) and the reader
// (kopt/inputs/correctness.hpp, which summarizes it for the record).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/json_io.hpp"
#include "formats/field_doc.hpp"
#include "formats/gpu.hpp"
#include "formats/tolerance.hpp"

namespace kopt {

inline constexpr const char* k_correctness_kind = "kernelopt.correctness";
inline constexpr int k_correctness_schema_version = 1;

// The first element that failed (a mismatch, else one left unwritten).
struct first_mismatch {
  std::int64_t m_flat = 0;
  std::vector<std::int64_t> m_index;  // per dimension
  std::optional<double> m_got;        // null: not finite (NaN, Inf, the poison pattern)
  std::optional<double> m_expected;
};
// got / expected written null when not finite. The reader requires an
// object; throws format_error naming the file and the JSON path. The
// record's per-shape summary (kopt/inputs/correctness.hpp) reads and writes
// the same fields.
[[nodiscard]] json to_json(const first_mismatch& mismatch);
[[nodiscard]] first_mismatch first_mismatch_from_json(const json_reader& node);

struct output_result {
  std::string m_arg;
  std::string m_dtype;  // "f32", "bf16", ...
  std::int64_t m_elements = 0;
  double m_rtol = 0;
  double m_atol = 0;
  // Worst over the elements; nullopt: not measured (or not finite).
  std::optional<double> m_max_abs;
  std::optional<double> m_max_rel;
  std::optional<double> m_rel_l2;
  std::int64_t m_mismatches = 0;
  std::int64_t m_nonfinite = 0;  // NaN/Inf where the reference is finite
  std::int64_t m_unwritten = 0;  // still holding the poison pattern
  std::string m_canary = "intact";  // intact | overwritten before output | overwritten after output
  std::optional<first_mismatch> m_first_mismatch;
  bool m_passed = true;  // this output's verdict (absent in a file: true)
};

// Where one trial spent its wall time, in seconds (docs/formats.md,
// `trials[].phases_s`): the host work around the run is most of a
// correctness test's time, and this says which part.
struct trial_phases {
  double m_inputs_s = 0;     // the inputs made for (shape, seed)
  double m_reference_s = 0;  // the reference's outputs (staging, upload, run, download)
  double m_load_s = 0;       // guarded images built and uploaded
  double m_run_s = 0;        // the launch and the wait for it
  double m_check_s = 0;      // outputs downloaded and compared, inputs and canaries checked
};

struct trial_record {
  std::string m_shape;
  std::int64_t m_seed = 0;
  std::string m_status;                 // pass | fail
  std::optional<std::string> m_error;   // the run itself failed (a CUDA error, an exception)
  std::vector<std::string> m_modified_inputs;  // `in` arguments the variant wrote to
  std::vector<output_result> m_outputs;
  std::optional<trial_phases> m_phases;  // none from a test older than the field
};

struct correctness_result {
  std::string m_kernel;
  std::string m_variant;
  std::string m_backend;  // cuda | host
  std::optional<std::string> m_device;  // null when skipped
  std::optional<gpu_info> m_gpu;          // which GPU ran the trials (formats/gpu.hpp); nullopt (null) for the host
  std::optional<gpu_claim_info> m_claim;  // the per-GPU lock held; nullopt (null) for the host
  std::string m_status;  // pass | fail | skipped
  std::optional<std::string> m_skip_reason;
  std::vector<std::int64_t> m_seeds;
  std::optional<declared_tolerance> m_tolerance;  // the kernel's TOLERANCE as the test ran it; nullopt: per-dtype defaults
  std::vector<trial_record> m_trials;
  std::optional<std::string> m_note;  // results of several variants in one process
};

[[nodiscard]] json to_json(const correctness_result& result);
// Kind and schema_version checked; statuses, counts and errors in range.
// Throws format_error naming the file and the JSON path.
[[nodiscard]] correctness_result correctness_result_from_json(const json_reader& root);

// Tables: the document, a trial, its phases, an output, first_mismatch.
[[nodiscard]] std::vector<format_table> correctness_tables();

}  // namespace kopt
