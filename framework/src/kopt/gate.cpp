#include "kopt/gate.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <set>

#include "kopt/format.hpp"
#include "kopt/targets.hpp"
#include "kopt/utc.hpp"

namespace kopt {
namespace {

// Words that say which way something should move (docs/loop.md lists them).
// Not "reduction" or "double": in kernels those name a pattern and a type.
const std::set<std::string>& direction_words() {
  static const std::set<std::string> words = {
      "faster",     "slower",     "quicker",     "fewer",    "more",      "less",      "lower",
      "higher",     "smaller",    "larger",      "reduce",   "reduces",   "reduced",   "reducing",
      "increase",   "increases",  "increased",   "decrease", "decreases", "decreased", "improve",
      "improves",   "improved",   "improvement", "speedup",  "speedups",  "cut",       "cuts",
      "halve",      "halves",     "halved",      "doubled",  "doubling",  "tripled",   "eliminate",
      "eliminates", "eliminated", "remove",      "removes",  "removed",   "avoid",     "avoids",
      "save",       "saves",      "drop",        "drops",    "raise",     "raises",    "boost",
      "boosts",     "shrink",     "shrinks",     "minimize", "minimizes", "maximize",  "maximizes"};
  return words;
}

gate_check check(const std::string& rule, bool ok, const std::string& detail) { return {rule, ok, detail}; }

std::string quoted(const std::string& text) { return "\"" + text + "\""; }

gate_check check_correctness(const record& c) {
  const std::string problem = c.m_correctness.problem();
  if (!problem.empty()) return check("correctness", false, problem);
  double worst_l2 = 0;
  for (const shape_correctness& s : c.m_correctness.m_shapes)
    worst_l2 = std::max(worst_l2, s.m_rel_l2.value_or(0));
  return check("correctness", true,
               "correct on " + std::to_string(c.m_correctness.m_shapes.size()) + " shapes x " +
                   std::to_string(c.m_seeds.size()) + " seeds (worst rel_l2 " + format_number(worst_l2, 3) +
                   ")");
}

// The parent's own decision never vetoes the child (docs/loop.md, "Lineage
// is not a veto"): a child is judged on its evidence against the best so
// far. The rule checks lineage is well-formed; the rejected ancestry is
// shown in its detail.
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

gate_check check_hypothesis(const record& c, bool root) {
  if (root) return check("hypothesis", true, "root variant: no hypothesis needed");
  if (!c.m_hypothesis || c.m_hypothesis->find_first_not_of(" \t\n") == std::string::npos) {
    return check("hypothesis", false, "no hypothesis: say what should move and by how much");
  }
  if (!hypothesis_states_movement(*c.m_hypothesis)) {
    return check("hypothesis", false,
                 "hypothesis states no expected movement (no number, no direction word such as "
                 "faster / fewer / less): " +
                     quoted(*c.m_hypothesis));
  }
  return check("hypothesis", true, "hypothesis: " + quoted(*c.m_hypothesis));
}

std::vector<std::string> setting_differences(const std::vector<std::string>& shapes,
                                             const std::vector<std::int64_t>& seeds, const json& tolerance,
                                             const timing_settings& timing, const record& c) {
  std::vector<std::string> diffs;
  if (c.m_shapes != shapes) diffs.push_back("shapes");
  if (c.m_seeds != seeds) diffs.push_back("seeds");
  if (c.m_tolerance != tolerance) diffs.push_back("tolerance");
  if (!c.m_timing_settings.same_as(timing)) diffs.push_back("timing settings");
  return diffs;
}

gate_check check_settings(const manifest& m, const record& c, const record* parent) {
  std::vector<std::string> problems;
  const auto now = setting_differences(m.m_shapes, m.m_seeds, m.m_tolerance, m.m_timing, c);
  if (!now.empty()) problems.push_back(join(now, ", ") + " differ from the manifest now");
  if (parent != nullptr) {
    const auto vs_parent = setting_differences(parent->m_shapes, parent->m_seeds, parent->m_tolerance,
                                               parent->m_timing_settings, c);
    if (!vs_parent.empty())
      problems.push_back(join(vs_parent, ", ") + " differ from parent " + parent->m_variant + "'s record");
  }
  if (!problems.empty()) return check("settings", false, join(problems, "; "));
  return check("settings", true,
               parent == nullptr ? "shapes, seeds, tolerance and timing settings as declared"
                                 : "shapes, seeds, tolerance and timing settings as in parent " +
                                       parent->m_variant + "'s record");
}

gate_check check_timing(const record& c) {
  std::vector<std::string> problems;
  for (const shape_timing& s : c.m_timing.m_shapes) {
    if (s.m_error) problems.push_back(s.m_shape + ": " + *s.m_error);
  }
  if (!c.m_timing.m_quick) {
    for (const std::string& shape : c.m_shapes) {
      if (c.m_timing.find(shape) == nullptr) problems.push_back(shape + ": not timed");
    }
  }
  if (c.m_timing.m_shapes.empty()) problems.push_back("no shape timed");
  if (!problems.empty()) return check("timing", false, "timing incomplete: " + join(problems, "; "));
  return check("timing", true,
               "timed on " + std::to_string(c.m_timing.m_shapes.size()) + " shapes" +
                   (c.m_timing.m_quick ? " (quick shapes only)" : ""));
}

// The benchmark's own check of what it timed (bench/session.hpp): every
// timed shape's outputs were compared with the reference, before, during and
// after sampling, and on fresh inputs.
gate_check check_bench_output(const record& c) {
  std::vector<std::string> problems;
  for (const shape_timing& s : c.m_timing.m_shapes) {
    if (!s.m_output_check) {
      problems.push_back(s.m_shape + ": the benchmark did not check what it timed (no output_check)");
    } else if (*s.m_output_check != "pass") {
      problems.push_back(s.m_shape + ": " + *s.m_output_check +
                         (s.m_output_detail ? ": " + shorten(*s.m_output_detail, 400) : std::string()));
    }
  }
  if (c.m_timing.m_shapes.empty()) problems.push_back("no shape timed");
  if (!problems.empty()) return check("bench_output", false, join(problems, " | "));
  return check("bench_output", true,
               "the benchmark checked its outputs on every timed shape (poisoned, two input sets, fresh inputs)");
}

// Work the timed stream did not see: the CUPTI clock covers every stream.
// A disagreement rejects when CUPTI saw more device time than the events by
// more than k_clock_reject, or saw kernels on more than one stream; smaller
// disagreements (a multi-kernel launch under CUPTI's own overhead: +3.4 %
// on an H200, docs/loop.md) are notices.
std::string clock_problem(const shape_timing& s) {
  if (std::find(s.m_flags.begin(), s.m_flags.end(), "clock_disagreement") == s.m_flags.end()) return {};
  const json& second = s.m_second_clock;
  if (!second.is_object()) return s.m_shape + ": clocks disagree (no second-clock details)";
  const double difference = second.value("difference", json(0.0)).is_number() ? second["difference"].get<double>() : 0.0;
  std::set<std::string> streams;
  if (second.contains("kernels") && second["kernels"].is_array()) {
    for (const json& k : second["kernels"]) {
      if (k.is_object() && k.contains("stream")) streams.insert(k["stream"].dump());
    }
  }
  const bool more = difference > k_clock_reject;
  if (!more && streams.size() <= 1) return {};
  const json cupti = second.value("median_ns", json(nullptr));
  return s.m_shape + ": events " + format_time_ns(s.m_median_ns) + ", CUPTI " +
         format_time_ns(cupti.is_number() ? std::optional<double>(cupti.get<double>()) : std::nullopt) + " (" +
         format_percent(difference, true) + ")" +
         (streams.size() > 1 ? ", kernels on " + std::to_string(streams.size()) + " streams" : std::string());
}

gate_check check_clock(const record& c) {
  std::vector<std::string> problems;
  for (const shape_timing& s : c.m_timing.m_shapes) {
    if (s.m_error) continue;
    const std::string problem = clock_problem(s);
    if (!problem.empty()) problems.push_back(problem);
  }
  if (!problems.empty()) {
    return check("clock", false,
                 "the timed stream missed work the CUPTI clock saw: " + join(problems, "; "));
  }
  return check("clock", true, "the event clock saw the work the CUPTI clock saw (or no CUPTI clock: host backend)");
}

struct versus_best {
  std::vector<double> m_speedups;  // best / candidate per shape
  double m_noise = 0;              // largest combined relative noise over shapes
  bool m_noise_known = true;
  std::string m_worst_shape;
  double m_worst_slowdown = -1e300;
  std::vector<std::string> m_slower;  // shapes slower by more than 3%
  std::vector<std::string> m_unmeasured;
  std::size_t m_paired = 0;  // shapes compared round by round
};

versus_best compare_with_best(const record& c, const std::string& best) {
  versus_best v;
  for (const shape_timing& s : c.m_timing.m_shapes) {
    if (s.m_error) continue;
    const measured_impl* b = s.measured(best);
    if (b == nullptr) {
      v.m_unmeasured.push_back(s.m_shape);
      continue;
    }
    // Interleaved rounds: the round-by-round ratio, and the spread between
    // rounds counts as noise too. Else (older records) the two medians.
    const bool paired = s.m_paired_vs_best && s.m_paired_vs_best->m_impl == best;
    const double speedup = paired ? s.m_paired_vs_best->m_speedup : b->m_median_ns / s.m_median_ns;
    v.m_speedups.push_back(speedup);
    if (paired) ++v.m_paired;
    // Paired rounds: the spread between rounds is the noise of the ratio
    // itself (within-round noise, drift and order effects together); the
    // two medians' own noise would count drift that the pairing cancels.
    if (paired) {
      v.m_noise = std::max(v.m_noise, s.m_paired_vs_best->m_noise);
    } else if (s.m_noise && b->m_noise) {
      v.m_noise = std::max(v.m_noise, std::hypot(*s.m_noise, *b->m_noise));
    } else {
      v.m_noise_known = false;
    }
    const double slowdown = 1 / speedup - 1;
    if (slowdown > v.m_worst_slowdown) {
      v.m_worst_slowdown = slowdown;
      v.m_worst_shape = s.m_shape;
    }
    if (slowdown > k_max_shape_slowdown) {
      v.m_slower.push_back(s.m_shape + " " + format_percent(slowdown, true));
    }
  }
  return v;
}

std::vector<gate_check> check_speed(const record& c, const std::optional<std::string>& best, bool root) {
  if (root) {
    return {check("speedup", true, "root variant: becomes the first best"),
            check("per_shape", true, "root variant: nothing to be slower than")};
  }
  if (!best) {
    const std::string why = "no accepted record before " + c.m_variant + " to compare with";
    return {check("speedup", false, why), check("per_shape", false, why)};
  }
  const std::string& name = *best;
  const versus_best v = compare_with_best(c, name);
  if (!v.m_unmeasured.empty() || v.m_speedups.empty()) {
    const std::string why =
        "best-so-far " + name + " was not timed in the same benchmark file" +
        (v.m_unmeasured.empty() ? std::string() : " (" + join(v.m_unmeasured, ", ") + ")") +
        ": benchmark it together with " + c.m_variant;
    return {check("speedup", false, why), check("per_shape", false, why)};
  }
  const double geomean = geometric_mean(v.m_speedups).value_or(0);
  const double required = std::max(k_min_improvement, k_noise_factor * v.m_noise);
  const std::string noise_text = v.m_noise_known ? format_percent(v.m_noise) : std::string("unknown");
  const std::string detail = "geomean " + format_speedup(geomean) + " vs best-so-far " + name + " over " +
                             std::to_string(v.m_speedups.size()) +
                             " shapes: " + format_percent(geomean - 1, true) +
                             (geomean - 1 > required ? " > " : " <= ") + "required " +
                             format_percent(required, true) + " (max(2%, 2 x noise " + noise_text + "))" +
                             (v.m_paired > 0 ? "; interleaved rounds on " + std::to_string(v.m_paired) + " of " +
                                                   std::to_string(v.m_speedups.size()) + " shapes"
                                             : std::string());
  std::vector<gate_check> checks;
  checks.push_back(check("speedup", geomean - 1 > required, detail));
  if (!v.m_slower.empty()) {
    checks.push_back(
        check("per_shape", false,
              "slower than best-so-far " + name + " by more than 3%: " + join(v.m_slower, ", ")));
  } else {
    checks.push_back(check("per_shape", true,
                           "no shape slower than best-so-far " + name + " by more than 3% (worst: " +
                               v.m_worst_shape + " " + format_percent(v.m_worst_slowdown, true) + ")"));
  }
  return checks;
}

gate_check check_source(const record& c, const current_source& source) {
  if (!source.m_hash) return check("source", false, "cannot hash the current sources: " + source.m_error);
  const std::string recorded = c.m_source.m_sha256.substr(0, 12);
  const std::string now = source.m_hash->m_sha256.substr(0, 12);
  if (c.m_source.m_sha256 != source.m_hash->m_sha256) {
    return check("source", false,
                 "sources changed since the record (sha256 " + recorded + "... recorded, " + now +
                     "... now): declare a new variant for new code");
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

bool hypothesis_states_movement(const std::string& hypothesis) {
  std::string word;
  char previous = ' ';
  for (const char raw : hypothesis + " ") {
    const auto ch = static_cast<unsigned char>(raw);
    if (std::isdigit(ch) && !std::isalpha(static_cast<unsigned char>(previous)) && previous != '_')
      return true;
    if (std::isalpha(ch)) {
      word += static_cast<char>(std::tolower(ch));
    } else if (!std::isdigit(ch) && raw != '_') {
      if (direction_words().count(word) != 0) return true;
      word.clear();
    }
    if (!std::isdigit(ch)) previous = raw;
  }
  return false;
}

current_source hash_current_sources(const manifest& m, const std::string& variant) {
  current_source current;
  try {
    current.m_hash = hash_sources(m.variant(variant).m_sources);
  } catch (const std::exception& error) {
    current.m_error = error.what();
  }
  return current;
}

bool is_root(const manifest& m, const std::string& variant) {
  const int index = m.variant_index(variant);
  return index == 0 && !m.m_variants.front().m_parent;
}

std::vector<gate_check> evidence_checks(const record& c, bool root, const std::optional<std::string>& best) {
  std::vector<gate_check> checks;
  // A failure is a verdict: the record exists so that the loop can move on.
  if (c.m_failure) {
    checks.push_back(check("run", false, "the " + c.m_failure->m_step + " ended with " + c.m_failure->m_cause));
  }
  checks.push_back(check_correctness(c));
  checks.push_back(check_hypothesis(c, root));
  checks.push_back(check_timing(c));
  if (c.m_schema_version >= 2) {
    checks.push_back(check_bench_output(c));
    checks.push_back(check_clock(c));
  }
  for (gate_check& speed : check_speed(c, best, root)) checks.push_back(std::move(speed));
  return checks;
}

std::vector<std::string> flag_notices(const record& c) {
  std::map<std::string, std::vector<std::string>> shapes_by_flag;
  for (const shape_timing& s : c.m_timing.m_shapes) {
    for (const std::string& flag : s.m_flags) shapes_by_flag[flag].push_back(s.m_shape);
    if (!s.m_error && clock_problem(s).empty() &&
        std::find(s.m_flags.begin(), s.m_flags.end(), "clock_disagreement") != s.m_flags.end()) {
      shapes_by_flag["clock_disagreement (below the rejecting bound)"].push_back(s.m_shape);
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
  g.m_checks.push_back(check_settings(m, c, root ? nullptr : parent));
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
  if (c.m_timing.m_quick) {
    g.m_notices.push_back(
        "timed on the quick shapes only (--quick): " + std::to_string(c.m_timing.m_shapes.size()) + " of " +
        std::to_string(m.m_shapes.size()) + " declared shapes compared");
  }
  for (std::string& notice : flag_notices(c)) g.m_notices.push_back(std::move(notice));

  const record* best_after = accepted ? &c : best;
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
