#include "kopt/decide/stop.hpp"

#include <sstream>

#include "core/format.hpp"
#include "kopt/decide/gate.hpp"
#include "kopt/decide/targets.hpp"

namespace kopt {
namespace {

std::string bottleneck_of(const record* r) {
  return r != nullptr ? profiled_bottleneck(*r).value_or("not profiled") : "not profiled";
}

stop_condition target_condition(const manifest& m, const record* best) {
  stop_condition c{"target_met", false, true, ""};
  if (m.m_targets.empty()) {
    c.m_applies = false;
    c.m_detail = "no TARGET declared";
  } else if (best == nullptr) {
    c.m_detail = "no best variant yet";
  } else {
    const std::vector<target_result> results = evaluate_targets(m.m_targets, best->m_timing, best->m_ceilings);
    c.m_holds = all_met(results);
    std::vector<std::string> parts;
    for (const target_result& t : results) parts.push_back(t.m_target + ": " + t.m_status);
    c.m_detail = join(parts, "; ") + " (best: " + best->m_variant + ")";
  }
  return c;
}

stop_condition near_peak_condition(const record* best) {
  stop_condition c{"near_peak", false, true, ""};
  const auto gaps = best != nullptr ? roofline_gaps(best->m_profile) : std::nullopt;
  if (!gaps) {
    c.m_applies = false;
    c.m_detail = best == nullptr ? "no best variant yet" : "the best (" + best->m_variant + ") has no roofline in its profile";
    return c;
  }
  c.m_holds = true;
  std::vector<std::string> parts;
  for (const auto& [shape, gap] : *gaps) {
    if (!(gap < k_roofline_gap)) c.m_holds = false;
    parts.push_back(shape + " gap " + format_percent(gap));
  }
  c.m_detail = join(parts, ", ") + (c.m_holds ? " (every gap below " : " (not every gap below ") +
               format_percent(k_roofline_gap) + "; best: " + best->m_variant + ")";
  return c;
}

}  // namespace

std::string stop_status::summary() const {
  const std::string best = " (best: " + m_best.value_or("none") + ")";
  if (m_reason == std::optional<std::string>("target_met")) return "target met" + best;
  if (m_reason == std::optional<std::string>("near_peak")) {
    return "near peak: every roofline gap is below " + format_percent(k_roofline_gap) + best;
  }
  if (m_reason == std::optional<std::string>("max_iterations")) {
    return "iteration budget spent: " + std::to_string(m_recorded) + " variants recorded (MAX_ITERATIONS)" + best;
  }
  if (m_reason == std::optional<std::string>("stagnation")) {
    return "stagnation: " + std::to_string(m_rejections.size()) + " rejections in a row (" + join(m_rejections, ", ") +
           "): re-profile, change direction";
  }
  if (m_recorded == 0) return "not started: no variant recorded yet";
  if (m_next_variant) return "in progress: next is " + *m_next_variant;
  return "in progress: every declared variant is recorded; declare the next one";
}

stop_status evaluate_stop(const manifest& m, const record_set& records, int stagnation) {
  stop_status s;
  s.m_kernel = m.m_kernel;
  s.m_declared = m.m_variants.size();
  const record* best = records.best();
  const record* newest = records.newest();
  if (best != nullptr) s.m_best = best->m_variant;
  if (newest != nullptr) s.m_newest = newest->m_variant;
  s.m_uncounted = uncounted_notes(m, records);
  std::vector<std::string> run;  // rejections in a row, oldest first
  for (std::size_t i = 0; i < records.size(); ++i) {
    const record* r = records.at(i);
    if (r == nullptr) continue;
    ++s.m_recorded;
    if (r->m_masked) continue;
    if (records.status_at(i).counts()) {
      run.clear();
    } else {
      run.push_back(r->m_variant);
    }
  }
  s.m_conditions.push_back(target_condition(m, best));
  s.m_conditions.push_back(near_peak_condition(best));
  stop_condition budget{"max_iterations", false, true, ""};
  if (!m.m_max_iterations) {
    budget.m_applies = false;
    budget.m_detail = "no MAX_ITERATIONS declared";
  } else {
    budget.m_holds = static_cast<std::int64_t>(s.m_recorded) >= *m.m_max_iterations;
    budget.m_detail = std::to_string(s.m_recorded) + " of MAX_ITERATIONS " + std::to_string(*m.m_max_iterations) +
                      " variants recorded";
  }
  s.m_conditions.push_back(budget);
  stop_condition stuck{"stagnation", false, true, ""};
  stuck.m_holds = static_cast<int>(run.size()) >= stagnation;
  stuck.m_detail = std::to_string(run.size()) + " rejections in a row" +
                   (run.empty() ? std::string() : " (" + join(run, ", ") + ")") + "; stops at " +
                   std::to_string(stagnation);
  s.m_conditions.push_back(stuck);
  s.m_rejections = run;
  for (const stop_condition& c : s.m_conditions) {
    if (c.m_holds) {
      s.m_stop = true;
      s.m_reason = c.m_name;
      break;
    }
  }
  s.m_bottleneck = bottleneck_of(best != nullptr ? best : newest);
  const int next = records.first_unrecorded();
  if (next >= 0) s.m_next_variant = m.m_variants[static_cast<std::size_t>(next)].m_name;
  if (s.m_stop) {
    s.m_next_step = "stop: " + *s.m_reason + "; declare no further variant";
  } else if (s.m_next_variant) {
    s.m_next_step = "run optimize-" + m.m_kernel + " (next: " + *s.m_next_variant + ")";
  } else {
    s.m_next_step = "declare the next variant with PARENT " + s.m_best.value_or(m.m_variants.front().m_name) +
                    " (the best) and one change against the bottleneck (" + s.m_bottleneck +
                    "), then run optimize-" + m.m_kernel;
    if (!run.empty()) s.m_next_step += "; " + run.back() + " was rejected: change direction";
  }
  return s;
}

std::string render_status_text(const stop_status& s) {
  std::ostringstream out;
  out << "status " << s.m_kernel << ": " << (s.m_stop ? "STOP" : "CONTINUE") << "\n";
  out << "  best: " << s.m_best.value_or("none yet") << "   recorded " << s.m_recorded << " of " << s.m_declared
      << " declared variants\n";
  out << "  bottleneck: " << s.m_bottleneck << "\n";
  for (const std::string& note : s.m_uncounted) out << "  " << note << "\n";
  for (const stop_condition& c : s.m_conditions) {
    out << "  " << (c.m_holds ? "HOLDS " : c.m_applies ? "no    " : "n/a   ") << c.m_name << ": " << c.m_detail
        << "\n";
  }
  if (s.m_reason) out << "  stop reason: " << *s.m_reason << "\n";
  out << "  next: " << s.m_next_step << "\n";
  return out.str();
}

json status_json(const stop_status& s, const json& recommendations) {
  auto opt = [](const std::optional<std::string>& v) { return v ? json(*v) : json(nullptr); };
  json conditions = json::array();
  for (const stop_condition& c : s.m_conditions) {
    conditions.push_back({{"name", c.m_name}, {"holds", c.m_holds}, {"applies", c.m_applies}, {"detail", c.m_detail}});
  }
  return {{"schema_version", k_status_schema_version},
          {"kind", "kernelopt.status"},
          {"kernel", s.m_kernel},
          {"decision", s.m_stop ? "stop" : "continue"},
          {"stop_reason", opt(s.m_reason)},
          {"summary", s.summary()},
          {"best", opt(s.m_best)},
          {"newest", opt(s.m_newest)},
          {"recorded", s.m_recorded},
          {"declared", s.m_declared},
          {"bottleneck", s.m_bottleneck},
          {"conditions", conditions},
          {"next_variant", opt(s.m_next_variant)},
          {"next_step", s.m_next_step},
          {"uncounted", s.m_uncounted},
          {"recommendations", recommendations}};
}

}  // namespace kopt
