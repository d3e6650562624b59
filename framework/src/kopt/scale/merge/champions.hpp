// kernelopt.champions: per kernel and shape, the fastest implementation
// that is correct on that shape (its correctness test passed there and its
// benchmark timed it without an error), and the implementations that
// failed, for one device model. A single-host run and a merged sharded run
// of one suite give the same map when the timings separate the
// implementations (docs/scale-out.md).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/json_io.hpp"
#include "kopt/scale/shard/shard_document.hpp"

namespace kopt::scale {

inline constexpr int k_champions_schema_version = 1;
inline constexpr const char* k_champions_kind = "kernelopt.champions";

struct shape_champion {
  std::string m_shape;
  std::optional<std::string> m_champion;  // nullopt: no correct, timed implementation
  std::optional<double> m_median_ns;
  std::size_t m_candidates = 0;  // correct and timed on this shape
};

struct failed_unit {
  std::string m_impl;
  std::string m_correctness;                // as in the shard
  std::vector<std::string> m_failed_shapes;  // correctness fail or incomplete there
  std::string m_bench;                      // failed | error when the benchmark failed
  std::string m_detail;
};

struct kernel_champions {
  std::string m_kernel;
  std::vector<shape_champion> m_shapes;  // declaration order
  std::vector<failed_unit> m_failed;     // by impl
};

struct champion_map {
  std::string m_device_model;
  std::vector<kernel_champions> m_kernels;  // by kernel
};

// From the outcomes of one device model's units (any order).
[[nodiscard]] champion_map champions_of(const std::string& device_model,
                                        const std::vector<const unit_outcome*>& units);

[[nodiscard]] json to_json(const champion_map& map);
// Throws format_error naming the file and the JSON path.
[[nodiscard]] champion_map champions_from_json(const json& doc, const std::string& file);

// What differs between two maps in champions and failures (timings and
// device models aside): one line each; empty when they agree.
[[nodiscard]] std::vector<std::string> champion_differences(const champion_map& a, const champion_map& b);

}  // namespace kopt::scale
