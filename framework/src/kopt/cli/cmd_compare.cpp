// kopt compare BASE NEW: noise-aware verdict per row (verdict.hpp has the rule).
#include <ostream>

#include "kopt/cli/commands.hpp"
#include "kopt/compare/compare_document.hpp"
#include "kopt/compare/verdict.hpp"

namespace kopt::cli {

int cmd_compare(const arguments& args, std::ostream& out, std::ostream& /*err*/) {
  const double threshold = threshold_option(args);
  const std::string format = args.optional_value("--format").value_or(args.has("--json") ? "json" : "md");
  if (args.has("--json") && format != "json") throw usage_error("--json contradicts --format " + format);
  if (format != "md" && format != "json")
    throw usage_error("--format must be md or json, got '" + format + "'");
  const std::string& base = args.positionals()[0];
  const std::string& next = args.positionals()[1];
  const compare_result result =
      compute_verdicts(load_timing_points(base), load_timing_points(next), threshold);
  if (result.m_rows.empty()) {
    throw std::runtime_error("no row of " + base + " matches a row of " + next +
                             " (rows match by impl and shape)");
  }
  if (format == "json") {
    out << to_json(compare_document{base, next, k_noise_sigmas, result}).dump(2) << "\n";
  } else {
    out << render_compare_markdown(result, base, next);
  }
  return result.any_slower() ? k_exit_fail : k_exit_ok;
}

}  // namespace kopt::cli
