// kopt shard list|run: the units of shard I of N (docs/scale-out.md), and
// running them into a self-describing folder of their own.
#include <algorithm>
#include <cstdlib>
#include <ostream>

#include "core/format.hpp"
#include "core/version.hpp"
#include "kopt/cli/commands.hpp"
#include "kopt/cli/json_output.hpp"
#include "kopt/scale/shard/shard_plan.hpp"
#include "kopt/scale/shard/shard_run.hpp"
#include "kopt/scale/shard/suite.hpp"

namespace kopt::cli {
namespace {

scale::suite suite_of(const arguments& args) {
  try {
    return scale::load_suite(scale::manifests_of(args.values("--manifest"), args.optional_value("--build-dir")));
  } catch (const std::invalid_argument& e) {
    throw usage_error(e.what());
  }
}

scale::shard_spec shard_of_args(const arguments& args) {
  try {
    return scale::parse_shard_spec(args.value("--shard"), [](const char* name) { return std::getenv(name); });
  } catch (const std::invalid_argument& e) {
    throw usage_error(e.what());
  }
}

// ^(k\.(correct|bench|static)\.(a|b)|k\.sweep\.p|...)$: the generated CTest
// tests of the units (a family point's test is its <k>.sweep.<point>).
std::string ctest_regex(const scale::suite& s, const std::vector<std::string>& units) {
  std::vector<std::string> alternatives;
  for (const scale::suite_unit& unit : s.m_units) {
    if (std::find(units.begin(), units.end(), unit.m_name) == units.end()) continue;
    alternatives.push_back(unit.m_family.empty() ? unit.m_kernel + "\\.(correct|bench|static)\\." + unit.m_impl
                                                 : unit.m_kernel + "\\.sweep\\." + unit.m_impl);
  }
  // A shard without units selects no test.
  return alternatives.empty() ? "^$" : "^(" + join(alternatives, "|") + ")$";
}

int list(const arguments& args, std::ostream& out) {
  const scale::suite s = suite_of(args);
  const scale::shard_spec spec = shard_of_args(args);
  const std::vector<std::string> units = scale::units_of_shard(s.unit_names(), spec.m_index, spec.m_count);
  const std::string format = args.optional_value("--format").value_or("lines");
  if (format == "json") {
    out << to_json(shard_list_output{spec, s.m_sha256, s.m_units.size(), units, ctest_regex(s, units)}).dump(2)
        << "\n";
  } else if (format == "ctest-regex") {
    out << ctest_regex(s, units) << "\n";
  } else if (format == "lines") {
    for (const std::string& unit : units) out << unit << "\n";
  } else {
    throw usage_error("--format '" + shorten(format) + "': expected lines, json or ctest-regex");
  }
  return k_exit_ok;
}

int run(const arguments& args, std::ostream& out) {
  if (!args.has("--out")) throw usage_error("shard run needs --out DIR");
  const scale::suite s = suite_of(args);
  scale::shard_run_request request;
  request.m_shard = shard_of_args(args);
  request.m_out = std::filesystem::absolute(args.value("--out")).lexically_normal();
  request.m_quick = args.has("--quick");
  request.m_ceilings = args.optional_value("--ceilings");
  if (const auto budget = args.optional_value("--budget")) {
    request.m_budget_s = int_option("--budget", *budget, 1, 30 * 86400);
  }
  request.m_kernelopt_version = kernelopt_version();
  const scale::shard_run_result result = scale::run_shard(s, request, out);
  return result.m_document.m_status == "complete" ? k_exit_ok : k_exit_fail;
}

}  // namespace

int cmd_shard(const arguments& args, std::ostream& out, std::ostream& /*err*/) {
  if (args.positionals().size() != 1) throw usage_error("expected one action: list or run");
  const std::string& action = args.positionals().front();
  if (action == "list") return list(args, out);
  if (action == "run") return run(args, out);
  throw usage_error("unknown action '" + shorten(action) + "': expected list or run");
}

}  // namespace kopt::cli
