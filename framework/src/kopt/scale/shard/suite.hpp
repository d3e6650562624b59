// The work a suite splits into (docs/scale-out.md): one unit per
// implementation of a kernel, named "<kernel>/<impl>": each variant and
// baseline, and each point of a family (PARAMS, docs/sweeps.md), which a
// shard runs as `kopt sweep` does. A unit name is only a string to the shard
// assignment and the merge.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "kopt/inputs/manifest.hpp"

namespace kopt::scale {

struct suite_unit {
  std::string m_name;  // "<kernel>/<impl>"
  std::string m_kernel;
  std::string m_impl;
  std::size_t m_manifest = 0;  // index in suite::m_manifests
  std::string m_family;        // a point: the family variant it belongs to; "" otherwise
};

struct suite {
  std::vector<manifest> m_manifests;  // sorted by kernel
  std::vector<suite_unit> m_units;    // sorted by name
  // What every shard of one run must agree on: the unit names, and each
  // kernel's shapes, seeds, tolerance and timing settings (sha256, hex).
  std::string m_sha256;

  [[nodiscard]] const manifest& manifest_of(const suite_unit& unit) const { return m_manifests[unit.m_manifest]; }
  [[nodiscard]] std::vector<std::string> unit_names() const;
};

// Every kernelopt manifest (<dir>/**/kernelopt/<k>/manifest.json) under a build folder, sorted.
[[nodiscard]] std::vector<std::filesystem::path> find_manifests(const std::filesystem::path& build_dir);

// The manifests given (--manifest) and every one found under `build_dir`
// (--build-dir), for kopt shard and kopt merge. Throws std::invalid_argument
// naming what is missing when there is none.
[[nodiscard]] std::vector<std::filesystem::path> manifests_of(const std::vector<std::string>& given,
                                                              const std::optional<std::string>& build_dir);

// The suite of these manifests: the variants, baselines and family points
// of each kernel (a family variant is a unit too: its dispatch).
// Throws std::runtime_error when two manifests declare one kernel, or none is given.
[[nodiscard]] suite load_suite(const std::vector<std::filesystem::path>& manifests);

}  // namespace kopt::scale
