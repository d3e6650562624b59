// The kernelopt.compare document (`kopt compare --format json`): the two
// sets compared and compute_verdicts' result, with to_json / from_json and
// its field tables (docs/formats.md).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "core/json_io.hpp"
#include "formats/field_doc.hpp"
#include "kopt/compare/verdict.hpp"

namespace kopt {

// 2: repetitions, the U test and each row's band (1 had none of them).
inline constexpr int k_compare_schema_version = 2;

struct compare_document {
  std::string m_base;  // the base set as named on the command line
  std::string m_new;
  double m_noise_sigmas = k_noise_sigmas;
  compare_result m_result;
  double m_utest_alpha = k_utest_alpha;
  std::size_t m_utest_min_repetitions = k_utest_min_repetitions;
};

[[nodiscard]] json to_json(const compare_document& doc);
// Checks kind, schema_version, every row's verdict and that `slower`
// agrees with the rows. Throws format_error naming the file and field.
[[nodiscard]] compare_document compare_document_from_json(const json_reader& root);

[[nodiscard]] std::vector<format_table> compare_tables();

}  // namespace kopt
