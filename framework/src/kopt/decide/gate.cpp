#include "kopt/decide/gate.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <set>

#include "core/format.hpp"
#include "kopt/decide/targets.hpp"
#include "core/utc.hpp"

namespace kopt {
namespace {

gate_check check(const std::string& rule, bool ok, const std::string& detail) { return {rule, ok, detail}; }

std::string quoted(const std::string& text) { return "\"" + text + "\""; }

gate_check check_parent(const manifest& m, const record& c, int index, bool root, const record_set& records) {
  if (root) return check("parent", true, "root variant: no parent needed");
  const variant_decl& decl = m.m_variants[static_cast<std::size_t>(index)];
  if (!decl.m_parent) {
    return check("parent", false,
                 "no parent: only the first variant (" + m.m_variants.front().m_name + ") may have none");
  }
  const std::string& parent = *decl.m_parent;
  if (c.m_parent != decl.m_parent) {
    return check("parent", false,
                 "parent changed since the record: the record says " + c.m_parent.value_or("none") +
                     ", the manifest says " + parent);
  }
  const int parent_index = m.variant_index(parent);
  if (parent_index < 0) return check("parent", false, "parent " + parent + " is not declared");
  if (parent_index >= index) {
    return check("parent", false, "parent " + parent + " is declared after " + c.m_variant);
  }
  const record* p = records.at(static_cast<std::size_t>(parent_index));
  if (p == nullptr) return check("parent", false, "parent " + parent + " has no record");
  // Ancestors that do not count, nearest first: shown, not held against the child.
  std::vector<std::string> ancestry;
  for (const record* a = p; a != nullptr;) {
    const record_status status = records.status_at(static_cast<std::size_t>(m.variant_index(a->m_variant)));
    if (!status.counts()) ancestry.push_back(a->m_variant + " " + status.describe(*a));
    if (!a->m_parent) break;
    const int next = m.variant_index(*a->m_parent);
    if (next < 0 || next >= m.variant_index(a->m_variant)) break;
    a = records.at(static_cast<std::size_t>(next));
  }
  if (ancestry.empty()) return check("parent", true, "parent " + parent + " is accepted");
  return check("parent", true,
               "lineage: " + join(ancestry, ", ") + "; judged on its own evidence against the best so far");
}

std::vector<std::string> setting_differences(const std::vector<std::string>& shapes,
                                             const std::vector<std::int64_t>& seeds,
                                             const std::optional<declared_tolerance>& tolerance,
                                             const timing_settings& timing, const record& c) {
  std::vector<std::string> diffs;
  if (c.m_shapes != shapes) diffs.push_back("shapes");
  if (c.m_seeds != seeds) diffs.push_back("seeds");
  if (c.m_tolerance != tolerance) diffs.push_back("tolerance");
  if (!c.m_timing_settings.same_as(timing)) diffs.push_back("timing settings");
  return diffs;
}

// The inputs two records were measured with, where both kept them (records
// made before kopt kept them are not compared on them).
std::vector<std::string> recorded_input_differences(const record& c, const record& other) {
  if (!c.m_inputs || !other.m_inputs) return {};
  return input_differences(*c.m_inputs, *other.m_inputs);
}

gate_check check_settings(const manifest& m, const record& c, const record* parent, const record* best) {
  std::vector<std::string> problems;
  auto now = setting_differences(m.m_shapes, m.m_seeds, m.m_tolerance, m.m_timing, c);
  if (c.m_inputs) {
    const current_inputs declared = inputs_now(m);
    if (!declared.m_inputs) {
      problems.push_back("the reference's sources cannot be read now (" + declared.m_error + ")");
    } else {
      for (std::string& d : input_differences(*c.m_inputs, *declared.m_inputs)) now.push_back(std::move(d));
    }
  }
  if (!now.empty()) problems.push_back(join(now, ", ") + " differ from the manifest now");
  if (parent != nullptr) {
    auto vs_parent = setting_differences(parent->m_shapes, parent->m_seeds, parent->m_tolerance,
                                         parent->m_timing_settings, c);
    for (std::string& d : recorded_input_differences(c, *parent)) vs_parent.push_back(std::move(d));
    if (!vs_parent.empty())
      problems.push_back(join(vs_parent, ", ") + " differ from parent " + parent->m_variant + "'s record");
  }
  // The speedup is over the best: both measured on the same inputs and
  // checked against the same reference. A best whose inputs differ from the
  // declaration is stale and never the best, so this names the best's when
  // the candidate's own differ (kopt gate on a record made earlier).
  const bool best_compared = best != nullptr && best != parent && c.m_inputs && best->m_inputs;
  if (best_compared) {
    const auto vs_best = recorded_input_differences(c, *best);
    if (!vs_best.empty())
      problems.push_back(join(vs_best, ", ") + " differ from best-so-far " + best->m_variant + "'s record");
  }
  if (!problems.empty()) return check("settings", false, join(problems, "; "));
  // What was compared with what: the inputs (ARGS, INIT, DIMS, the
  // reference) only where the records keep them.
  const bool inputs_vs_parent = parent != nullptr && c.m_inputs && parent->m_inputs;
  const std::string settings = c.m_inputs && (parent == nullptr || inputs_vs_parent)
                                   ? "shapes, seeds, tolerance, timing settings, inputs and reference"
                                   : "shapes, seeds, tolerance and timing settings";
  std::string detail = settings + (parent == nullptr ? " as declared" : " as in parent " + parent->m_variant + "'s record");
  if (parent != nullptr && c.m_inputs && !inputs_vs_parent) {
    detail += "; inputs and reference as declared (parent " + parent->m_variant + "'s record keeps none)";
  }
  if (best_compared) detail += "; inputs and reference as in best-so-far " + best->m_variant + "'s record";
  return check("settings", true, detail);
}

gate_check check_source(const record& c, const current_source& source) {
  if (!source.m_hash) return check("source", false, "cannot hash the current sources: " + source.m_error);
  const std::string recorded = c.m_source.m_sha256.substr(0, 12);
  const std::string now = source.m_hash->m_sha256.substr(0, 12);
  if (c.m_source.m_sha256 != source.m_hash->m_sha256) {
    const std::vector<std::string> changed = source_differences(c.m_source, *source.m_hash);
    return check("source", false,
                 "sources changed since the record (sha256 " + recorded + "... recorded, " + now + "... now" +
                     (changed.empty() ? std::string() : ": " + join(changed, ", ")) +
                     "): declare a new variant for new code");
  }
  return check("source", true, "sources match the record (sha256 " + recorded + "...)");
}

gate_check check_order(const manifest& m, const record& c, int index, const record_set& records) {
  std::vector<std::string> missing;
  for (int i = 0; i < index; ++i) {
    if (records.at(static_cast<std::size_t>(i)) == nullptr)
      missing.push_back(m.m_variants[static_cast<std::size_t>(i)].m_name);
  }
  if (!missing.empty()) {
    return check("order", false,
                 join(missing, ", ") + (missing.size() == 1 ? " has" : " have") + " no record, but " +
                     c.m_variant + " comes after in declaration order: record them first");
  }
  const std::vector<const record*> stale = stale_above_best(m, records, static_cast<std::size_t>(index));
  if (!stale.empty()) return check("order", false, describe_stale_bar(m, records, stale));
  return check("order", true, "every variant declared before " + c.m_variant + " has a record");
}

// Rejections in a row ending at the candidate (masked records skipped).
std::vector<std::string> rejection_run(const manifest& m, const record& c, int index,
                                       const record_set& records, bool accepted) {
  std::vector<std::string> run;
  if (accepted) return run;
  run.push_back(c.m_variant);
  for (int i = index; i-- > 0;) {
    const record* r = records.at(static_cast<std::size_t>(i));
    if (r == nullptr || r->m_masked) continue;
    if (r->m_gate.accepted()) break;
    run.insert(run.begin(), m.m_variants[static_cast<std::size_t>(i)].m_name);
  }
  return run;
}

}  // namespace

std::vector<std::string> flag_notices(const record& c) {
  std::map<std::string, std::vector<std::string>> shapes_by_flag;
  for (const shape_timing& s : c.m_timing.m_shapes) {
    for (const std::string& flag : s.m_flags) shapes_by_flag[flag].push_back(s.m_shape.text());
    if (!s.m_error && clock_problem(s).empty() &&
        std::find(s.m_flags.begin(), s.m_flags.end(), "clock_disagreement") != s.m_flags.end()) {
      shapes_by_flag["clock_disagreement (below the rejecting bound)"].push_back(s.m_shape.text());
    }
  }
  std::vector<std::string> notices;
  for (const auto& [flag, shapes] : shapes_by_flag) {
    if (flag == "clock_disagreement") continue;
    notices.push_back("benchmark flag " + flag + " on " + join(shapes, ", ") + " (docs/loop.md, \"Flags\")");
  }
  return notices;
}

gate_result evaluate_gate(const manifest& m, const record& c, const record_set& records,
                          const current_source& source) {
  const int index = m.variant_index(c.m_variant);
  if (index < 0) (void)m.variant(c.m_variant);  // throws, naming the declared variants
  const variant_decl& decl = m.m_variants[static_cast<std::size_t>(index)];
  const bool root = index == 0 && !decl.m_parent;
  const record* parent = decl.m_parent ? records.get(m, *decl.m_parent) : nullptr;
  const record* best = records.best_before(static_cast<std::size_t>(index));
  const std::optional<std::string> best_name =
      best != nullptr ? std::optional<std::string>(best->m_variant) : std::nullopt;

  gate_result g;
  g.m_evaluated_utc = utc_now_iso();
  g.m_best_so_far = best_name;
  std::vector<gate_check> evidence = evidence_checks(c, root, best_name);
  const auto take = [&](const std::string& rule) {
    for (gate_check& k : evidence) {
      if (k.m_rule == rule) g.m_checks.push_back(std::move(k));
    }
  };
  if (c.m_masked) g.m_checks.push_back(check("masked", false, "masked: " + c.m_masked->m_reason));
  take("run");
  take("correctness");
  g.m_checks.push_back(check_parent(m, c, index, root, records));
  take("hypothesis");
  g.m_checks.push_back(check_settings(m, c, root ? nullptr : parent, root ? nullptr : best));
  for (const char* rule : {"timing", "bench_output", "clock", "speedup", "per_shape"}) take(rule);
  g.m_checks.push_back(check_source(c, source));
  g.m_checks.push_back(check_order(m, c, index, records));

  const bool accepted =
      std::all_of(g.m_checks.begin(), g.m_checks.end(), [](const gate_check& k) { return k.m_ok; });
  g.m_decision = accepted ? "ACCEPT" : "REJECT";
  for (const gate_check& k : g.m_checks) {
    if (accepted || !k.m_ok) g.m_reasons.push_back(k.m_detail);
  }

  const std::vector<std::string> run = rejection_run(m, c, index, records, accepted);
  if (run.size() >= 2) {
    g.m_notices.push_back(std::to_string(run.size()) + " rejections in a row (" + join(run, ", ") +
                          "): re-profile, change direction");
  }
  const bool partial = c.m_timing.m_quick && declared_shapes_timed(m, c) < m.m_shapes.size();
  if (c.m_timing.m_quick) {
    g.m_notices.push_back(
        "timed on the quick shapes only (--quick): " + std::to_string(c.m_timing.m_shapes.size()) + " of " +
        std::to_string(m.m_shapes.size()) + " declared shapes compared" +
        (partial ? std::string("; an ACCEPT of a quick run does not count as best (run the next variant without --quick)")
                 : std::string()));
  }
  for (std::string& notice : flag_notices(c)) g.m_notices.push_back(std::move(notice));

  const record* best_after = accepted && !partial ? &c : best;
  if (best_after != nullptr) {
    g.m_best_after = best_after->m_variant;
    g.m_targets = evaluate_targets(m.m_targets, best_after->m_timing, best_after->m_ceilings);
    const auto gaps = roofline_gaps(best_after->m_profile);
    const bool roofline_close = gaps && std::all_of(gaps->begin(), gaps->end(), [](const auto& gap) {
                                  return gap.second < k_roofline_gap;
                                });
    if (all_met(g.m_targets)) {
      g.m_target_met = true;
      g.m_notices.push_back("target met: every TARGET holds on every shape (best: " + best_after->m_variant +
                            ")");
    } else if (roofline_close) {
      g.m_target_met = true;
      g.m_notices.push_back("target met: every roofline gap is below 15% (best: " + best_after->m_variant +
                            ")");
    }
  } else {
    for (const std::string& target : m.m_targets)
      g.m_targets.push_back({target, "unknown", {"no accepted variant yet"}});
  }
  return g;
}

std::string render_gate_text(const std::string& kernel, const std::string& variant, const gate_result& g) {
  std::string out = "gate " + kernel + "/" + variant + ": " + g.m_decision + "\n";
  for (const gate_check& k : g.m_checks) {
    std::string rule = k.m_rule;
    rule.resize(13, ' ');
    out += std::string(k.m_ok ? "  ok    " : "  FAIL  ") + rule + k.m_detail + "\n";
  }
  for (const std::string& notice : g.m_notices) out += "notice: " + notice + "\n";
  if (!g.m_targets.empty()) {
    out += "targets" + (g.m_best_after ? " (on best " + *g.m_best_after + ")" : std::string()) + ":\n";
    for (const target_result& t : g.m_targets) {
      std::string status = t.m_status;
      status.resize(8, ' ');
      out += "  " + status + t.m_target + "\n";
      for (const std::string& detail : t.m_details) out += "            " + detail + "\n";
    }
  }
  return out;
}

}  // namespace kopt
