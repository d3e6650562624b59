// kopt record: one run's results -> <records_dir>/<kernel>/<variant>.json,
// gated, written once.
#include <ostream>

#include "kopt/assemble.hpp"
#include "kopt/commands.hpp"
#include "kopt/gate.hpp"
#include "kopt/kernel_lock.hpp"
#include "kopt/record_store.hpp"
#include "kopt/steps.hpp"

namespace kopt::cli {

void require_no_record(const manifest& m, const std::string& variant) {
  const std::filesystem::path path = m.record_path(variant);
  if (std::filesystem::exists(path)) {
    throw std::runtime_error(path.string() + ": the record of " + variant +
                             " exists; records are never rewritten: declare a new variant "
                             "(or `kopt mask` this one)");
  }
}

record build_gated_record(const manifest& m, const record_inputs& inputs) {
  const record_set records = load_records(m);
  record r = assemble_record(m, records, inputs);
  current_source now;
  now.m_hash = r.m_source;  // hashed a moment ago from the same files
  r.m_gate = evaluate_gate(m, r, records, now);
  return r;
}

int cmd_record(const arguments& args, std::ostream& out, std::ostream& err) {
  const manifest m = read_manifest(args.value("--manifest"));
  const file_lock lock = lock_kernel(m, args, "record", err);
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
  if (r.m_correctness.m_status == "skipped") {
    err << "kopt record: not recording " << m.m_kernel << "/" << r.m_variant << ": correctness skipped ("
        << r.m_correctness.m_skip_reason << "); a record without measurements is worthless\n";
    return k_exit_skipped;
  }
  const std::filesystem::path path = m.record_path(r.m_variant);
  write_json_new(path, to_json(r));
  out << "recorded " << path.string() << "\n" << render_gate_text(m.m_kernel, r.m_variant, r.m_gate);
  return r.m_gate.accepted() ? k_exit_ok : k_exit_fail;
}

}  // namespace kopt::cli
