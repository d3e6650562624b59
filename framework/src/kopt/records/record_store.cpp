#include "kopt/records/record_store.hpp"

#include <algorithm>

#include "core/format.hpp"
#include "kopt/records/evidence.hpp"

namespace kopt {
namespace {

record_status plain_status(const record& r) {
  record_status s;
  s.m_state = r.m_masked ? record_state::masked : record_state::current;
  s.m_counts = r.counts_as_accepted();
  return s;
}

const gate_check* stored_check(const record& r, const std::string& rule) {
  for (const gate_check& k : r.m_gate.m_checks) {
    if (k.m_rule == rule) return &k;
  }
  return nullptr;
}

}  // namespace

std::string record_status::describe(const record& r) const {
  switch (m_state) {
    case record_state::masked: return "masked (" + (r.m_masked ? r.m_masked->m_reason : std::string()) + ")";
    case record_state::stale: return "stale (" + join(m_problems, "; ") + ")";
    case record_state::inconsistent: return "inconsistent (" + join(m_problems, "; ") + ")";
    case record_state::current: break;
  }
  return r.m_gate.accepted() ? "accepted" : "rejected";
}

std::string record_status::label(const record& r) const {
  switch (m_state) {
    case record_state::masked: return "masked";
    case record_state::stale: return r.m_gate.m_decision + " (stale)";
    case record_state::inconsistent: return r.m_gate.m_decision + " (inconsistent)";
    case record_state::current: break;
  }
  return r.m_gate.m_decision;
}

std::size_t declared_shapes_timed(const manifest& m, const record& r) {
  std::size_t timed = 0;
  for (const std::string& declared : m.m_shapes) {
    const bool found = std::any_of(r.m_timing.m_shapes.begin(), r.m_timing.m_shapes.end(),
                                   [&](const shape_timing& t) { return t.m_shape.text() == declared; });
    timed += found ? 1 : 0;
  }
  return timed;
}

std::vector<std::string> staleness(const manifest& m, const record& r, const current_source& now) {
  std::vector<std::string> problems;
  if (!now.m_hash) {
    problems.push_back("its sources cannot be read now");
  } else if (now.m_hash->m_sha256 != r.m_source.m_sha256) {
    const std::vector<std::string> changed = source_differences(r.m_source, *now.m_hash);
    problems.push_back("sources changed since the record (sha256 " + r.m_source.m_sha256.substr(0, 12) +
                       "... recorded, " + now.m_hash->m_sha256.substr(0, 12) + "... now" +
                       (changed.empty() ? std::string() : ": " + join(changed, ", ")) + ")");
  }
  // A quick run timed a subset: its speedup says nothing of the other
  // shapes, and the record can never be completed (records are not
  // rewritten), so an ACCEPT of it never counts as best.
  if (const std::size_t timed = declared_shapes_timed(m, r); r.m_timing.m_quick && timed < m.m_shapes.size()) {
    problems.push_back("timed on the quick shapes only (--quick: " + std::to_string(timed) + " of " +
                       std::to_string(m.m_shapes.size()) + " declared shapes): a quick run does not count as best");
  }
  std::vector<std::string> settings;
  if (r.m_shapes != m.m_shapes) settings.push_back("shapes");
  if (r.m_seeds != m.m_seeds) settings.push_back("seeds");
  if (r.m_tolerance != m.m_tolerance) settings.push_back("tolerance");
  if (!r.m_timing_settings.same_as(m.m_timing)) settings.push_back("timing settings");
  if (!settings.empty()) problems.push_back(join(settings, ", ") + " differ from the declaration now");
  // A family's record timed the dispatch of one selection; a build whose
  // dispatch calls other points (selected again) runs other code. A build
  // without the dispatch (other architectures) says nothing either way.
  const int index = m.variant_index(r.m_variant);
  if (r.m_dispatch && index >= 0) {
    const variant_decl& decl = m.m_variants[static_cast<std::size_t>(index)];
    if (decl.m_family && decl.m_family->m_champions) {
      std::vector<std::string> changed;
      for (const served_shape& served : r.m_dispatch->m_served) {
        const auto at = std::find(m.m_shapes.begin(), m.m_shapes.end(), served.m_shape);
        if (at == m.m_shapes.end()) continue;  // the shapes differ: said above
        const std::string& built = (*decl.m_family->m_champions)[static_cast<std::size_t>(at - m.m_shapes.begin())];
        if (built != served.m_point) changed.push_back(served.m_shape + ": " + served.m_point + " recorded, " + built + " built");
      }
      if (!changed.empty()) {
        problems.push_back("the family's dispatch calls other points now (" + join(changed, "; ") +
                           "): selected again since the record");
      }
    }
  }
  return problems;
}

std::vector<std::string> input_staleness(const record& r, const current_inputs& now) {
  if (!r.m_inputs) return {};
  if (!now.m_inputs) return {"the reference's sources cannot be read now (" + now.m_error + ")"};
  const std::vector<std::string> differ = input_differences(*r.m_inputs, *now.m_inputs);
  if (differ.empty()) return {};
  return {join(differ, ", ") + " differ from the declaration now"};
}

std::vector<std::string> inconsistencies(const manifest& m, const record& r) {
  std::vector<std::string> problems;
  const bool all_ok = std::all_of(r.m_gate.m_checks.begin(), r.m_gate.m_checks.end(),
                                  [](const gate_check& k) { return k.m_ok; });
  if (r.m_gate.m_checks.empty()) problems.push_back("the stored gate has no checks");
  if (r.m_gate.accepted() && !all_ok) problems.push_back("decision ACCEPT although a stored check failed");
  if (!r.m_gate.accepted() && all_ok && !r.m_gate.m_checks.empty()) {
    problems.push_back("decision REJECT although every stored check passed");
  }
  for (const gate_check& derived : evidence_checks(r, is_root(m, r.m_variant), r.m_gate.m_best_so_far)) {
    const gate_check* stored = stored_check(r, derived.m_rule);
    if (stored == nullptr) {
      problems.push_back("rule " + derived.m_rule + " is missing from the stored gate");
    } else if (stored->m_ok != derived.m_ok) {
      problems.push_back("rule " + derived.m_rule + " is stored as " + (stored->m_ok ? "ok" : "FAIL") +
                         " but the record's evidence says " + (derived.m_ok ? "ok" : "FAIL: " + shorten(derived.m_detail, 200)));
    }
  }
  return problems;
}

record_set::record_set(std::vector<std::optional<record>> by_variant) : m_records(std::move(by_variant)) {
  for (const std::optional<record>& r : m_records) m_statuses.push_back(r ? plain_status(*r) : record_status{});
}

const record_status* record_set::status(const manifest& m, const std::string& variant) const {
  const int index = m.variant_index(variant);
  return index < 0 || static_cast<std::size_t>(index) >= m_statuses.size() ? nullptr
                                                                            : &m_statuses[static_cast<std::size_t>(index)];
}

const record* record_set::get(const manifest& m, const std::string& variant) const {
  const int index = m.variant_index(variant);
  return index < 0 ? nullptr : at(static_cast<std::size_t>(index));
}

const record* record_set::at(std::size_t index) const {
  if (index >= m_records.size() || !m_records[index]) return nullptr;
  return &*m_records[index];
}

const record* record_set::best_before(std::size_t before) const {
  for (std::size_t i = std::min(before, m_records.size()); i-- > 0;) {
    if (m_records[i] && m_statuses[i].counts()) return &*m_records[i];
  }
  return nullptr;
}

const record* record_set::newest() const {
  for (std::size_t i = m_records.size(); i-- > 0;) {
    if (m_records[i]) return &*m_records[i];
  }
  return nullptr;
}

int record_set::first_unrecorded() const {
  for (std::size_t i = 0; i < m_records.size(); ++i) {
    if (!m_records[i]) return static_cast<int>(i);
  }
  return -1;
}

record_status check_record(const manifest& m, const record& r) {
  record_status s;
  std::vector<std::string> inconsistent = inconsistencies(m, r);
  if (!inconsistent.empty()) {
    s.m_state = record_state::inconsistent;
    s.m_problems = std::move(inconsistent);
    return s;
  }
  if (r.m_masked) {
    s.m_state = record_state::masked;
    return s;
  }
  const current_source now = hash_current_sources(m, r.m_variant, r.m_source.m_scope);
  std::vector<std::string> stale = staleness(m, r, now);
  if (r.m_inputs) {
    for (std::string& problem : input_staleness(r, inputs_now(m))) stale.push_back(std::move(problem));
  }
  if (!stale.empty()) {
    s.m_state = record_state::stale;
    s.m_problems = std::move(stale);
    return s;
  }
  s.m_counts = r.m_gate.accepted();
  return s;
}

std::vector<std::string> uncounted_notes(const manifest& m, const record_set& records) {
  std::vector<std::string> notes;
  for (std::size_t i = 0; i < records.size(); ++i) {
    const record* r = records.at(i);
    if (r == nullptr) continue;
    const record_status& s = records.status_at(i);
    const bool shown = s.m_state == record_state::inconsistent ||
                       (s.m_state == record_state::stale && r->m_gate.accepted());
    if (shown) {
      notes.push_back("note: " + m.m_kernel + "/" + r->m_variant + " " + s.label(*r) + ": " + s.describe(*r) +
                      "; it does not count as best");
    }
  }
  return notes;
}

std::vector<const record*> stale_above_best(const manifest& m, const record_set& records, std::size_t before) {
  std::vector<const record*> stale;
  for (std::size_t i = std::min(before, records.size()); i-- > 0;) {
    const record* r = records.at(i);
    if (r == nullptr) continue;
    const record_status& s = records.status_at(i);
    if (s.counts()) break;  // the best so far: older records are below the bar anyway
    if (s.m_state != record_state::stale || !r->m_gate.accepted()) continue;
    const bool quick_partial = r->m_timing.m_quick && declared_shapes_timed(m, *r) < m.m_shapes.size();
    if (!quick_partial) stale.insert(stale.begin(), r);
  }
  return stale;
}

std::string describe_stale_bar(const manifest& m, const record_set& records, const std::vector<const record*>& stale) {
  std::vector<std::string> parts;
  for (const record* r : stale) {
    const record_status* s = records.status(m, r->m_variant);
    parts.push_back(r->m_variant + " (" + (s != nullptr ? join(s->m_problems, "; ") : std::string()) + ")");
  }
  const bool one = stale.size() == 1;
  return "accepted " + join(parts, "; ") + (one ? " is" : " are") + " stale, so the best so far would fall back to " +
         "an older record unnoticed: restore what changed, or mask " + (one ? "it" : "each") +
         " (kopt mask --variant " + stale.front()->m_variant + " --reason ...) to lower the bar explicitly";
}

record_set load_records(const manifest& m) {
  std::vector<std::optional<record>> records(m.m_variants.size());
  std::vector<record_status> statuses(m.m_variants.size());
  for (std::size_t i = 0; i < m.m_variants.size(); ++i) {
    const std::filesystem::path path = m.record_path(m.m_variants[i].m_name);
    if (!std::filesystem::exists(path)) continue;
    record r = read_record(path);
    if (r.m_kernel != m.m_kernel || r.m_variant != m.m_variants[i].m_name) {
      throw format_error(path.string() + ": /variant: the record is for " + r.m_kernel + "/" + r.m_variant +
                         ", its file name says " + m.m_kernel + "/" + m.m_variants[i].m_name);
    }
    statuses[i] = check_record(m, r);
    records[i] = std::move(r);
  }
  return record_set(std::move(records), std::move(statuses));
}

void require_no_record(const manifest& m, const std::string& variant) {
  const std::filesystem::path path = m.record_path(variant);
  if (std::filesystem::exists(path)) {
    throw std::runtime_error(path.string() + ": the record of " + variant +
                             " exists; records are never rewritten: declare a new variant "
                             "(or `kopt mask` this one)");
  }
}

}  // namespace kopt
