#include "kopt/decide/gated_record.hpp"

#include "kopt/decide/gate.hpp"
#include "kopt/records/record_store.hpp"

namespace kopt {

record build_gated_record(const manifest& m, const record_inputs& inputs) {
  const record_set records = load_records(m);
  record r = assemble_record(m, records, inputs);
  current_source now;
  now.m_hash = r.m_source;  // hashed a moment ago from the same files
  r.m_gate = evaluate_gate(m, r, records, now);
  if (inputs.m_results_utc) r.m_gate.m_evaluated_utc = *inputs.m_results_utc;
  return r;
}

}  // namespace kopt
