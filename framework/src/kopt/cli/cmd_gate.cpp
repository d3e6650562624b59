// kopt gate: re-evaluates a record against the current state (other records,
// sources, manifest) and prints the decision with every reason.
#include <ostream>

#include "kopt/cli/commands.hpp"
#include "kopt/cli/json_output.hpp"
#include "kopt/decide/gate.hpp"
#include "kopt/records/record_store.hpp"

namespace kopt::cli {

int cmd_gate(const arguments& args, std::ostream& out, std::ostream& /*err*/) {
  const manifest m = read_manifest(args.value("--manifest"));
  const record_set records = load_records(m);
  const record* candidate = nullptr;
  if (const auto variant = args.optional_value("--variant")) {
    (void)m.variant(*variant);
    candidate = records.get(m, *variant);
    if (candidate == nullptr) {
      throw std::runtime_error(m.record_path(*variant).string() + ": no record of " + *variant +
                               " (run `kopt record` or `kopt optimize` first)");
    }
  } else {
    candidate = records.newest();
    if (candidate == nullptr) {
      throw std::runtime_error(m.kernel_records_dir().string() + ": no record of any variant of " +
                               m.m_kernel + " yet");
    }
  }
  const gate_result gate =
      evaluate_gate(m, *candidate, records, hash_current_sources(m, candidate->m_variant, candidate->m_source.m_scope));
  if (args.has("--json")) {
    const gate_output output{m.m_kernel,           candidate->m_variant, gate.m_decision, candidate->m_gate.m_decision,
                             uncounted_notes(m, records), gate};
    out << to_json(output).dump(2) << "\n";
    return gate.accepted() ? k_exit_ok : k_exit_fail;
  }
  out << render_gate_text(m.m_kernel, candidate->m_variant, gate);
  for (const std::string& note : uncounted_notes(m, records)) out << note << "\n";
  if (gate.m_decision != candidate->m_gate.m_decision) {
    out << "note: the record says " << candidate->m_gate.m_decision << " (at "
        << candidate->m_gate.m_evaluated_utc << "); the state has changed since\n";
  }
  return gate.accepted() ? k_exit_ok : k_exit_fail;
}

}  // namespace kopt::cli
