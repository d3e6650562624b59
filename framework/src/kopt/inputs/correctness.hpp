// Correctness of one variant, read from its `kernelopt.correctness` results
// and summarized per shape. Pass or fail is read from the data (every trial
// of every declared shape × seed), never from a file's presence.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/json_io.hpp"
#include "formats/correctness_result.hpp"
#include "kopt/inputs/manifest.hpp"

namespace kopt {

// The first failing trial's first_mismatch (formats/correctness_result.hpp),
// with that trial's seed and the output it is in: in a record,
// {flat, index, got, expected, seed, arg}.
struct shape_first_mismatch {
  first_mismatch m_element;
  std::int64_t m_seed = 0;
  std::string m_arg;
};

struct shape_correctness {
  std::string m_shape;
  std::string m_status;  // pass | fail | incomplete (a declared seed has no trial)
  std::vector<std::int64_t> m_seeds_passed;
  std::vector<std::int64_t> m_seeds_failed;
  std::vector<std::int64_t> m_seeds_missing;
  // Worst over the shape's trials and outputs; nullopt when no output was checked.
  std::optional<double> m_max_abs;
  std::optional<double> m_max_rel;
  std::optional<double> m_rel_l2;
  std::int64_t m_mismatches = 0;
  std::int64_t m_nonfinite = 0;
  std::int64_t m_unwritten = 0;
  std::vector<std::string> m_errors;  // one line per failing trial: "seed 2: ..."
  std::optional<shape_first_mismatch> m_first_mismatch;  // nullopt: no failing trial has one
};

struct correctness_summary {
  std::string m_status;  // pass | fail | incomplete | skipped
  std::string m_skip_reason;
  std::string m_device;
  std::vector<std::string> m_files;  // base names of the results read
  std::vector<shape_correctness> m_shapes;

  // Empty when every declared shape × seed passed; otherwise why not, in the
  // gate's words ("correctness not established: skipped (no CUDA device)").
  [[nodiscard]] std::string problem() const;
};

// Reads each results file; each must be `kernelopt.correctness` for the
// manifest's kernel and `variant`. Throws format_error naming file and key.
[[nodiscard]] correctness_summary summarize_correctness(const manifest& m, const std::string& variant,
                                                        const std::vector<std::filesystem::path>& files);

[[nodiscard]] json to_json(const correctness_summary& summary);
[[nodiscard]] correctness_summary correctness_from_json(const json_reader& node);

}  // namespace kopt
