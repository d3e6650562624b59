// kopt record: one run's results -> <records_dir>/<kernel>/<variant>.json,
// gated, written once.
#include <ostream>

#include "kopt/decide/assemble.hpp"
#include "kopt/cli/commands.hpp"
#include "kopt/cli/json_output.hpp"
#include "kopt/decide/gate.hpp"
#include "kopt/records/kernel_lock.hpp"
#include "kopt/records/record_store.hpp"
#include "kopt/decide/gated_record.hpp"

namespace kopt::cli {

int cmd_record(const arguments& args, std::ostream& out, std::ostream& err) {
  const manifest m = read_manifest(args.value("--manifest"));
  const file_lock lock = lock_kernel(m, lock_wait_option(args), "record", err);
  record_inputs inputs;
  inputs.m_variant = args.value("--variant");
  (void)m.variant(inputs.m_variant);  // declared?
  require_no_record(m, inputs.m_variant);
  for (const std::string& file : args.values("--correctness")) inputs.m_correctness.emplace_back(file);
  inputs.m_bench = args.value("--bench");
  if (auto v = args.optional_value("--env")) inputs.m_env = *v;
  if (auto v = args.optional_value("--ceilings")) inputs.m_ceilings = *v;
  if (auto v = args.optional_value("--profile")) inputs.m_profile = *v;
  if (auto v = args.optional_value("--static")) inputs.m_static = *v;

  const record r = build_gated_record(m, inputs);
  const bool as_json = args.has("--json");
  record_output doc;  // kernelopt.record_written: what was written, the decision
  doc.m_kernel = m.m_kernel;
  doc.m_variant = r.m_variant;
  if (r.m_correctness.m_status == "skipped") {
    err << "kopt record: not recording " << m.m_kernel << "/" << r.m_variant << ": correctness skipped ("
        << r.m_correctness.m_skip_reason << "); a record without measurements is worthless\n";
    doc.m_reason = "correctness skipped (" + r.m_correctness.m_skip_reason + ")";
    if (as_json) out << to_json(doc).dump(2) << "\n";
    return k_exit_skipped;
  }
  const std::filesystem::path path = m.record_path(r.m_variant);
  write_json_new(path, to_json(r));
  if (as_json) {
    record_experience(m, r.m_variant, err);
    doc.m_outcome = r.m_gate.m_decision;
    doc.m_record = path.string();
    doc.m_decision = r.m_gate.m_decision;
    doc.m_gate = r.m_gate;
    out << to_json(doc).dump(2) << "\n";
  } else {
    out << "recorded " << path.string() << "\n" << render_gate_text(m.m_kernel, r.m_variant, r.m_gate);
    record_experience(m, r.m_variant, out);
  }
  return r.m_gate.accepted() ? k_exit_ok : k_exit_fail;
}

}  // namespace kopt::cli
