#include "kopt/records/evidence.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <set>

#include "core/format.hpp"

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

gate_check check_timing(const record& c) {
  std::vector<std::string> problems;
  for (const shape_timing& s : c.m_timing.m_shapes) {
    if (s.m_error) problems.push_back(s.m_shape.text() + ": " + *s.m_error);
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
      problems.push_back(s.m_shape.text() + ": the benchmark did not check what it timed (no output_check)");
    } else if (*s.m_output_check != "pass") {
      problems.push_back(s.m_shape.text() + ": " + *s.m_output_check +
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
      v.m_unmeasured.push_back(s.m_shape.text());
      continue;
    }
    // Interleaved rounds: the round-by-round ratio, and the spread between
    // rounds counts as noise too. Else (older records) the two medians.
    const bool paired = s.m_paired_vs_best && s.m_paired_vs_best->m_impl == best;
    const double speedup = paired ? s.m_paired_vs_best->m_speedup : b->m_median_ns / s.m_stats.m_median_ns;
    v.m_speedups.push_back(speedup);
    if (paired) ++v.m_paired;
    // Paired rounds: the spread between rounds is the noise of the ratio
    // itself (within-round noise, drift and order effects together); the
    // two medians' own noise would count drift that the pairing cancels.
    if (paired) {
      v.m_noise = std::max(v.m_noise, s.m_paired_vs_best->m_noise);
    } else if (s.m_stats.m_noise && b->m_noise) {
      v.m_noise = std::max(v.m_noise, std::hypot(*s.m_stats.m_noise, *b->m_noise));
    } else {
      v.m_noise_known = false;
    }
    const double slowdown = 1 / speedup - 1;
    if (slowdown > v.m_worst_slowdown) {
      v.m_worst_slowdown = slowdown;
      v.m_worst_shape = s.m_shape.text();
    }
    if (slowdown > k_max_shape_slowdown) {
      v.m_slower.push_back(s.m_shape.text() + " " + format_percent(slowdown, true));
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
  if (v.m_noise > k_max_decision_noise) {
    checks.push_back(check("speedup", false,
                           "too noisy to decide: noise " + noise_text + " > " + format_percent(k_max_decision_noise) +
                               " (the machine was busy while timing; measure again on a quieter one): " + detail));
  } else {
    checks.push_back(check("speedup", geomean - 1 > required, detail));
  }
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

}  // namespace

std::string clock_problem(const shape_timing& s) {
  if (std::find(s.m_flags.begin(), s.m_flags.end(), "clock_disagreement") == s.m_flags.end()) return {};
  if (!s.m_second_clock) return s.m_shape.text() + ": clocks disagree (no second-clock details)";
  const second_clock& second = *s.m_second_clock;
  const double difference = second.m_difference.value_or(0.0);
  std::set<std::int64_t> streams;
  for (const clock_kernel& k : second.m_kernels) streams.insert(k.m_stream);
  const bool more = difference > k_clock_reject;
  if (!more && streams.size() <= 1) return {};
  return s.m_shape.text() + ": events " + format_time_ns(s.m_stats.m_median_ns) + ", CUPTI " +
         format_time_ns(second.m_median_ns) + " (" +
         format_percent(difference, true) + ")" +
         (streams.size() > 1 ? ", kernels on " + std::to_string(streams.size()) + " streams" : std::string());
}

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

}  // namespace kopt
