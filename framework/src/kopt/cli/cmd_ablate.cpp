// kopt ablate: each switchable METHOD of a variant (METHODS <method>=<MACRO>)
// switched off: run/ablation_run.hpp builds, checks and times the ablated
// builds, compare/attribution.hpp turns the times into each method's
// attribution and class, written into the variant's record (docs/ablation.md).
#include <ostream>

#include "core/utc.hpp"
#include "kopt/cli/commands.hpp"
#include "kopt/cli/json_output.hpp"
#include "kopt/cli/requests.hpp"
#include "kopt/compare/attribution.hpp"
#include "kopt/records/kernel_lock.hpp"
#include "kopt/records/record_store.hpp"
#include "kopt/report/report_model.hpp"
#include "kopt/run/ablation_run.hpp"
#include "kopt/run/harness_run.hpp"

namespace kopt::cli {
namespace {

// The variant: --variant, else the accepted best.
const record* choose_record(const arguments& args, const manifest& m, const record_set& records) {
  if (const auto v = args.optional_value("--variant")) {
    (void)m.variant(*v);
    const record* r = records.get(m, *v);
    if (r == nullptr) {
      throw usage_error("variant '" + *v + "' has no record: kopt ablate writes into it, record it first (kopt optimize)");
    }
    return r;
  }
  return records.best();
}

}  // namespace

std::optional<ablation_result> ablate_recorded(const manifest& m, const record& r, const ablation_request& request,
                                               double threshold, std::ostream& out) {
  const variant_decl& decl = m.variant(r.m_variant);
  if (decl.m_switches.empty()) {
    throw usage_error("variant '" + r.m_variant + "' declares no switchable METHOD (METHODS <method>=<MACRO>)");
  }
  if (!m.m_ablate_test_executable || !m.m_ablate_bench_executable) {
    throw usage_error("the manifest names no ablation executables: reconfigure the build");
  }
  if (request.m_build && !m.m_cmake_executable) {
    throw usage_error("the manifest names no cmake: reconfigure the build, or --no-build");
  }
  const std::filesystem::path run = new_run_dir(m) / "ablate";
  std::filesystem::create_directories(run);
  out << "ablate " << m.m_kernel << "/" << r.m_variant << ": " << decl.m_switches.size() << " switchable method"
      << (decl.m_switches.size() == 1 ? "" : "s") << ", run directory " << run.string() << "\n";
  const ablation_measurement measured = measure_ablation(m, decl, request, run, out);
  if (!measured.m_skipped.empty()) {
    out << "SKIPPED: " << measured.m_skipped << "; nothing measured, nothing written\n";
    return std::nullopt;
  }
  ablation_result result;
  result.m_utc = utc_now_iso();
  result.m_source_sha256 = r.m_source.m_sha256;
  result.m_threshold = threshold;
  result.m_repetitions = request.m_repetitions;
  result.m_quick = request.m_quick;
  const std::vector<timing_point> points =
      measured.m_bench_dir.empty() ? std::vector<timing_point>{} : load_timing_points(measured.m_bench_dir);
  result.m_methods = compute_attribution(r.m_variant, points, measured.m_outcomes, threshold);
  if (r.m_dispatch) {
    // A family: each shape's time is its champion's, with and without the method.
    for (ablation_method& method : result.m_methods) {
      for (ablation_shape& shape : method.m_shapes) {
        for (const served_shape& served : r.m_dispatch->m_served) {
          if (served.m_shape == shape.m_shape) shape.m_point = served.m_point;
        }
      }
    }
  }
  const std::filesystem::path path = m.record_path(r.m_variant);
  write_record_ablation(path, result);
  out << "\n" << render_ablation_markdown(result) << "\nwritten into " << path.string() << "\n";
  return result;
}

int run_ablate(const arguments& args, std::ostream& out, std::ostream& err, ablate_output& doc) {
  const manifest m = read_manifest_of(args);
  const file_lock lock = lock_kernel(m, lock_wait_option(args), "ablate", err);
  const record_set records = load_records(m);
  const record* chosen = choose_record(args, m, records);
  const int skipped = args.has("--build-target") ? k_exit_ok : k_exit_skipped;
  if (chosen == nullptr) {
    out << "SKIPPED: no accepted record of " << m.m_kernel << " yet: nothing to ablate (or name one with --variant)\n";
    return skipped;
  }
  doc.m_variant = chosen->m_variant;
  if (const record_status* status = records.status(m, chosen->m_variant); status != nullptr && !status->current()) {
    throw usage_error("the record of " + chosen->m_variant + " is not current (" + status->describe(*chosen) +
                      "): the ablation would measure other code than the record's");
  }
  ablation_request request;
  if (const auto n = args.optional_value("--repetitions")) request.m_repetitions = int_option("--repetitions", *n, 1, 100);
  request.m_quick = args.has("--quick");
  request.m_build = !args.has("--no-build");
  const std::optional<ablation_result> result = ablate_recorded(m, *chosen, request, threshold_option(args), out);
  if (!result) return skipped;
  doc.m_record = m.record_path(chosen->m_variant).string();
  doc.m_ablation = result;
  return k_exit_ok;
}

int cmd_ablate(const arguments& args, std::ostream& out, std::ostream& err) {
  ablate_output doc;
  if (!args.has("--json")) return run_ablate(args, out, err, doc);
  const int code = run_ablate(args, err, err, doc);  // progress on stderr, the document on stdout
  doc.m_exit_code = code;
  out << to_json(doc).dump(2) << "\n";
  return code;
}

}  // namespace kopt::cli
