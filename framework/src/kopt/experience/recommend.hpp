// `kopt recommend`: methods ranked from the experience store by the seed
// scoring (docs/agents.md, "How recommend scores"). Computation only.
//
// Each entry that used a method is scored against the query:
//   +50 same backend, +40 same kernel, +30 same bottleneck (the entry's
//   bottleneck before its change), +20 same GPU,
//   up to +10 by speedup: 10 * log2(speedup vs parent), clamped to [0, 10],
//   up to +5 by recency: 5 * (1 - days before the newest entry / 365), >= 0,
// and weighted by its outcome class: success 1, neutral 0.5, failure 0.
// A method's score is the best of its entries'. Root entries (nothing to
// compare with) and entries of unknown outcome are not evidence; an unknown
// bottleneck ("not profiled", "none (root)", "unknown") matches nothing.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "core/json_io.hpp"
#include "kopt/experience/entry.hpp"

namespace kopt {

inline constexpr int k_recommend_schema_version = 1;

struct recommend_query {
  std::string m_kernel;
  std::optional<std::string> m_backend;     // nullopt: the kernel's newest entry's
  std::optional<std::string> m_gpu;         // likewise
  std::optional<std::string> m_bottleneck;  // nullopt: the kernel's newest entry's bottleneck after
  std::size_t m_top = 5;
};

struct scored_entry {
  const experience_entry* m_entry = nullptr;
  double m_score = 0;  // weighted by outcome
  std::vector<std::string> m_matches;  // "backend", "kernel", "bottleneck", "gpu"
};

struct tried_here {
  std::string m_variant;
  std::string m_outcome;
  std::optional<double> m_speedup_vs_parent;
};

struct recommendation {
  std::string m_method;
  double m_score = 0;
  int m_successes = 0, m_neutral = 0, m_failures = 0;
  std::vector<scored_entry> m_evidence;  // best first
  std::vector<tried_here> m_tried;       // on the query's kernel, oldest first
};

struct recommend_result {
  recommend_query m_query;  // with the defaults filled in
  std::size_t m_entries = 0;
  std::vector<recommendation> m_ranked;  // the top ones, best first (ties by name)
};

// The seed scoring of one entry against a filled-in query, before the
// outcome weight; `newest_date` is the store's newest entry's date.
[[nodiscard]] double relevance(const experience_entry& e, const recommend_query& q, const std::string& newest_date,
                               std::vector<std::string>* matches = nullptr);

// NOTE: the result points into `store`, which must outlive it.
[[nodiscard]] recommend_result recommend(const std::vector<experience_entry>& store, recommend_query query);

[[nodiscard]] std::string render_recommend_text(const recommend_result& result);
// kind kernelopt.recommend, schema_version k_recommend_schema_version.
[[nodiscard]] json recommend_json(const recommend_result& result, const std::string& store);

}  // namespace kopt
