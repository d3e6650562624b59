#include "kopt/experience/recommend.hpp"

#include <algorithm>
#include <cmath>
#include <ctime>
#include <map>
#include <sstream>

#include "core/format.hpp"

namespace kopt {
namespace {

// Days since 1970 of "YYYY-MM-DD..." (UTC), or nullopt.
std::optional<double> days_of(const std::string& date) {
  int y = 0, mo = 0, d = 0;
  if (std::sscanf(date.c_str(), "%4d-%2d-%2d", &y, &mo, &d) != 3) return std::nullopt;
  // Howard Hinnant's days_from_civil.
  y -= mo <= 2;
  const int era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (mo + (mo > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097.0 + doe - 719468.0;
}

double outcome_weight(const std::string& outcome) {
  if (outcome == "success") return 1;
  if (outcome == "neutral") return 0.5;
  return 0;
}

// "not profiled", "none (root)", "unknown" say nothing about the kernel:
// two of them never match.
bool known_bottleneck(const std::string& b) {
  return !b.empty() && b != "not profiled" && b != "none (root)" && b != "unknown";
}

bool is_evidence(const experience_entry& e) {
  return e.m_outcome == "success" || e.m_outcome == "neutral" || e.m_outcome == "failure";
}

}  // namespace

double relevance(const experience_entry& e, const recommend_query& q, const std::string& newest_date,
                 std::vector<std::string>* matches) {
  double score = 0;
  auto match = [&](bool same, double points, const char* name) {
    if (!same) return;
    score += points;
    if (matches != nullptr) matches->push_back(name);
  };
  match(q.m_backend && e.m_backend == *q.m_backend, 50, "backend");
  match(e.m_kernel == q.m_kernel, 40, "kernel");
  match(q.m_bottleneck && known_bottleneck(*q.m_bottleneck) && e.m_bottleneck_before == *q.m_bottleneck, 30,
        "bottleneck");
  match(q.m_gpu && e.m_gpu == *q.m_gpu, 20, "gpu");
  if (e.m_speedup_vs_parent && *e.m_speedup_vs_parent > 1) {
    score += std::min(10.0, 10.0 * std::log2(*e.m_speedup_vs_parent));
  }
  const auto newest = days_of(newest_date);
  const auto when = days_of(e.m_date);
  if (newest && when) score += std::max(0.0, 5.0 * (1.0 - (*newest - *when) / 365.0));
  return score;
}

recommend_result recommend(const std::vector<experience_entry>& store, recommend_query query) {
  // Defaults from the kernel's newest entry (the store is oldest first).
  for (auto it = store.rbegin(); it != store.rend(); ++it) {
    if (it->m_kernel != query.m_kernel) continue;
    if (!query.m_backend) query.m_backend = it->m_backend;
    if (!query.m_gpu) query.m_gpu = it->m_gpu;
    if (!query.m_bottleneck && known_bottleneck(it->m_bottleneck_after)) query.m_bottleneck = it->m_bottleneck_after;
    break;
  }
  std::string newest_date;
  for (const experience_entry& e : store) newest_date = std::max(newest_date, e.m_date);

  std::map<std::string, recommendation> by_method;
  for (const experience_entry& e : store) {
    if (!is_evidence(e)) continue;
    for (const std::string& method : e.m_methods) {
      recommendation& r = by_method[method];
      r.m_method = method;
      scored_entry s;
      s.m_entry = &e;
      s.m_score = outcome_weight(e.m_outcome) * relevance(e, query, newest_date, &s.m_matches);
      r.m_score = std::max(r.m_score, s.m_score);
      (e.m_outcome == "success" ? r.m_successes : e.m_outcome == "neutral" ? r.m_neutral : r.m_failures)++;
      r.m_evidence.push_back(std::move(s));
      if (e.m_kernel == query.m_kernel) r.m_tried.push_back({e.m_variant, e.m_outcome, e.m_speedup_vs_parent});
    }
  }
  recommend_result result;
  result.m_query = query;
  result.m_entries = store.size();
  for (auto& [method, r] : by_method) {
    std::stable_sort(r.m_evidence.begin(), r.m_evidence.end(),
                     [](const scored_entry& a, const scored_entry& b) { return a.m_score > b.m_score; });
    result.m_ranked.push_back(std::move(r));
  }
  std::stable_sort(result.m_ranked.begin(), result.m_ranked.end(),
                   [](const recommendation& a, const recommendation& b) { return a.m_score > b.m_score; });
  if (result.m_ranked.size() > query.m_top) result.m_ranked.resize(query.m_top);
  return result;
}

std::string render_recommend_text(const recommend_result& result) {
  const recommend_query& q = result.m_query;
  std::ostringstream out;
  out << "recommend " << q.m_kernel << " (backend " << q.m_backend.value_or("any") << ", gpu "
      << q.m_gpu.value_or("any") << ", bottleneck " << q.m_bottleneck.value_or("any") << "; " << result.m_entries
      << " entries)\n";
  if (result.m_ranked.empty()) out << "  no method in the store yet: nothing to recommend\n";
  int rank = 0;
  for (const recommendation& r : result.m_ranked) {
    out << "  " << ++rank << ". " << r.m_method << "  score " << format_number(r.m_score, 3) << "  ("
        << r.m_successes << " success, " << r.m_neutral << " neutral, " << r.m_failures << " failure)";
    if (!r.m_tried.empty()) {
      std::vector<std::string> tried;
      for (const tried_here& t : r.m_tried) tried.push_back(t.m_variant + " " + t.m_outcome);
      out << "  tried here: " << join(tried, ", ");
    }
    out << "\n";
    for (const scored_entry& s : r.m_evidence) {
      const experience_entry& e = *s.m_entry;
      out << "       " << e.m_source.m_record << " " << e.m_outcome << " " << format_speedup(e.m_speedup_vs_parent)
          << " vs parent, score " << format_number(s.m_score, 3) << " [" << join(s.m_matches, ",") << "] ("
          << e.m_source.m_repository << ")\n";
    }
  }
  return out.str();
}

json recommend_json(const recommend_result& result, const std::string& store) {
  const recommend_query& q = result.m_query;
  auto opt = [](const std::optional<std::string>& s) { return s ? json(*s) : json(nullptr); };
  json ranked = json::array();
  for (const recommendation& r : result.m_ranked) {
    json evidence = json::array();
    for (const scored_entry& s : r.m_evidence) {
      const experience_entry& e = *s.m_entry;
      evidence.push_back({{"id", e.m_id},
                          {"kernel", e.m_kernel},
                          {"variant", e.m_variant},
                          {"record", e.m_source.m_record},
                          {"repository", e.m_source.m_repository},
                          {"outcome", e.m_outcome},
                          {"speedup_vs_parent", number_or_null(e.m_speedup_vs_parent)},
                          {"matches", s.m_matches},
                          {"score", s.m_score}});
    }
    json tried = json::array();
    for (const tried_here& t : r.m_tried) {
      tried.push_back({{"variant", t.m_variant},
                       {"outcome", t.m_outcome},
                       {"speedup_vs_parent", number_or_null(t.m_speedup_vs_parent)}});
    }
    ranked.push_back({{"method", r.m_method},
                      {"score", r.m_score},
                      {"successes", r.m_successes},
                      {"neutral", r.m_neutral},
                      {"failures", r.m_failures},
                      {"tried_on_kernel", tried},
                      {"evidence", evidence}});
  }
  return {{"schema_version", k_recommend_schema_version},
          {"kind", "kernelopt.recommend"},
          {"kernel", q.m_kernel},
          {"store", store},
          {"entries", result.m_entries},
          {"query", {{"backend", opt(q.m_backend)}, {"gpu", opt(q.m_gpu)}, {"bottleneck", opt(q.m_bottleneck)}, {"top", q.m_top}}},
          {"recommendations", ranked}};
}

}  // namespace kopt
