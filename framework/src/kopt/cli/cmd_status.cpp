// kopt status: stop or continue, by the stop conditions of decide/stop.hpp,
// with the next step and (when a store exists) the top recommendations.
#include <ostream>

#include "kopt/cli/commands.hpp"
#include "kopt/decide/stop.hpp"
#include "kopt/experience/recommend.hpp"
#include "kopt/experience/store.hpp"
#include "kopt/records/record_store.hpp"

namespace kopt::cli {

inline constexpr int k_exit_stop = 1;

int cmd_status(const arguments& args, std::ostream& out, std::ostream& /*err*/) {
  const manifest m = read_manifest_of(args);
  if (const auto kernel = args.optional_value("--kernel"); kernel && *kernel != m.m_kernel) {
    throw usage_error("--kernel " + shorten(*kernel) + ": the manifest declares " + m.m_kernel);
  }
  const int stagnation =
      args.has("--stagnation") ? int_option("--stagnation", args.value("--stagnation"), 1, 1000) : k_default_stagnation;
  const record_set records = load_records(m);
  const stop_status status = evaluate_stop(m, records, stagnation);
  const std::filesystem::path store = *experience_dir(args.optional_value("--store"), &m);
  recommend_query query;
  query.m_kernel = m.m_kernel;
  query.m_backend = m.m_backend;
  if (status.m_bottleneck != "not profiled") query.m_bottleneck = status.m_bottleneck;
  query.m_top = 3;
  const std::vector<experience_entry> entries = read_experience(store);  // the result points into it
  const recommend_result advice = recommend(entries, query);
  if (args.has("--json")) {
    out << status_json(status, recommend_json(advice, store.string())).dump(2) << "\n";
  } else {
    out << render_status_text(status);
    if (!status.m_stop && !advice.m_ranked.empty()) {
      out << "  methods to consider (kopt recommend --kernel " << m.m_kernel << "):";
      for (const recommendation& r : advice.m_ranked) out << " " << r.m_method;
      out << "\n";
    }
  }
  return status.m_stop ? k_exit_stop : k_exit_ok;
}

}  // namespace kopt::cli
