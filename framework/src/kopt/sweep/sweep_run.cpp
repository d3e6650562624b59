#include "kopt/sweep/sweep_run.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ostream>
#include <sstream>

#include "core/file_lock.hpp"
#include "core/format.hpp"
#include "core/process.hpp"
#include "core/utc.hpp"
#include "kopt/inputs/bench.hpp"
#include "kopt/inputs/correctness.hpp"
#include "kopt/run/harness_run.hpp"
#include "kopt/sweep/point_result.hpp"

namespace kopt {
namespace {

using clock_type = std::chrono::steady_clock;

double seconds_since(clock_type::time_point start) {
  return std::chrono::duration<double>(clock_type::now() - start).count();
}

std::string last_lines(const std::string& text, std::size_t count) {
  std::size_t at = text.size();
  for (std::size_t n = 0; n <= count && at > 0; ++n) {
    const std::size_t nl = text.rfind('\n', at - 1);
    if (nl == std::string::npos) return text;
    at = nl;
  }
  return text.substr(at + 1);
}

std::string library_name(const point_decl& p) {
  return std::filesystem::path(p.m_library).filename().string();
}

// One build in a build tree at a time: the shards of a sweep (kopt shard
// run, docs/scale-out.md) may share one tree, and two build tools writing
// its logs and dependency files at once would corrupt them. Only the build
// is serialized; tests and benchmarks run in parallel.
std::filesystem::path build_lock_path(const manifest& m, const family_decl& f) {
  const std::vector<std::string>& c = f.m_build_command;
  if (c.size() >= 3 && c[1] == "--build") return std::filesystem::path(c[2]) / "kernelopt" / "sweep-build.lock";
  return m.build_dir() / "sweep-build.lock";
}

// Builds `batch` in one process; sets each one's build stage.
// The harness executables come first: a sweep may start in a tree that was
// configured but not built (they are in ALL; the points are not).
void build_batch(const manifest& m, const family_decl& f, const std::vector<const point_decl*>& batch,
                 std::vector<point_result*>& results, int jobs, const std::filesystem::path& dir) {
  std::vector<std::string> argv = f.m_build_command;
  argv.push_back("--target");
  argv.push_back(m.m_kernel + "_kopt_test");
  if (!m.m_bench_executable.empty()) argv.push_back(m.m_kernel + "_kopt_bench");
  for (const point_decl* p : batch) {
    if (!p->m_skip) argv.push_back(p->m_target);
  }
  argv.push_back("-j");
  argv.push_back(std::to_string(std::max(jobs, 1)));
  for (const std::string& a : f.m_keep_going) argv.push_back(a);
  process_options options;
  options.m_capture = true;
  options.m_limit_s = 3600;
  options.m_limit_source = "kopt sweep's limit on one build batch";
  const auto start = clock_type::now();
  process_result run;
  {
    const file_lock lock = acquire_file_lock(build_lock_path(m, f), options.m_limit_s, "kopt sweep (build)");
    run = run_process(argv, options);
  }
  const double elapsed = seconds_since(start) / static_cast<double>(batch.size());
  const std::string output = run.m_out + run.m_err;
  for (std::size_t i = 0; i < batch.size(); ++i) {
    point_result& r = *results[i];
    if (batch[i]->m_skip) {
      r.m_build = {"skipped", "not built: " + *batch[i]->m_skip, 0};
      continue;
    }
    r.m_build.m_elapsed_s = elapsed;
    const std::string failure = point_build_failure(output, *batch[i]);
    write_file_atomic(dir / (batch[i]->m_name + ".build.log"), describe_command(argv) + "\n" + output);
    if (!failure.empty()) {
      r.m_build = {"failed", shorten(failure, 2000), elapsed};
    } else if (!run.exited(0) && !std::filesystem::exists(batch[i]->m_library)) {
      r.m_build = {"failed", run.describe() + ": " + shorten(last_lines(output, 12), 2000), elapsed};
    } else if (!std::filesystem::exists(batch[i]->m_library)) {
      r.m_build = {"failed", "no " + batch[i]->m_library + " after the build", elapsed};
    } else {
      r.m_build = {"ok", "", elapsed};
    }
  }
}

void run_correctness(const manifest& m, const point_decl& p, point_result& r, const std::filesystem::path& dir) {
  const std::filesystem::path file = dir / (p.m_name + ".correct.json");
  std::filesystem::remove(file);
  process_options options = harness_limits(m);
  options.m_capture = true;
  const auto start = clock_type::now();
  if (!std::filesystem::exists(m.m_test_executable)) {
    r.m_correctness = {"fail", "no " + m.m_test_executable + " (did the build of " + m.m_kernel + "_kopt_test fail?)", 0};
    return;
  }
  const process_result run = run_process(test_command(m, p.m_name, file), options);
  r.m_correctness.m_elapsed_s = seconds_since(start);
  if (run.exited(77)) {
    r.m_correctness.m_status = "skipped";
    r.m_correctness.m_detail = shorten(last_lines(run.m_out + run.m_err, 3), 500);
    return;
  }
  if (!std::filesystem::exists(file)) {
    r.m_correctness.m_status = "fail";
    r.m_correctness.m_detail = run.describe() + ", no results: " + shorten(last_lines(run.m_out + run.m_err, 6), 1000);
    return;
  }
  try {
    const correctness_summary summary = summarize_correctness(m, p.m_name, {file});
    r.m_correctness.m_status = summary.m_status == "pass" && run.exited(0) ? "pass" : "fail";
    r.m_correctness.m_detail = r.m_correctness.m_status == "pass" ? "" : shorten(summary.problem().empty() ? run.describe() : summary.problem(), 1000);
  } catch (const std::exception& error) {
    r.m_correctness.m_status = "fail";
    r.m_correctness.m_detail = shorten(error.what(), 1000);
  }
}

void run_bench(const manifest& m, const point_decl& p, point_result& r, const std::filesystem::path& dir) {
  r.m_times.clear();
  const std::string unavailable = bench_unavailable(m);
  if (!unavailable.empty()) {
    r.m_bench = {"skipped", unavailable, 0};
    return;
  }
  const std::filesystem::path file = dir / (p.m_name + ".bench.json");
  std::filesystem::remove(file);
  process_options options = harness_limits(m);
  options.m_capture = true;
  const std::string ceilings = m.m_tools.m_ceilings.value_or("");
  const auto start = clock_type::now();
  const process_result run =
      run_process(bench_command(m, {p.m_name}, file, false, ceilings, options.m_limit_s), options);
  r.m_bench.m_elapsed_s = seconds_since(start);
  if (run.exited(77)) {
    r.m_bench.m_status = "skipped";
    r.m_bench.m_detail = shorten(last_lines(run.m_out + run.m_err, 3), 500);
    return;
  }
  try {
    const bench_set set = read_bench(file);
    std::string problem;
    for (const std::string& shape : m.m_shapes) {
      const bench_row* row = set.find(p.m_name, shape);
      if (row == nullptr) {
        problem = "no benchmark of shape " + shape;
      } else if (!row->timed()) {
        problem = shape + ": " + row->m_error.value_or("not timed");
      } else {
        r.m_times.push_back({shape, row->m_stats.m_median_ns, row->m_stats.m_noise});
      }
      if (!problem.empty()) break;
    }
    if (problem.empty() && !run.exited(0)) problem = run.describe();
    r.m_bench.m_status = problem.empty() ? "ok" : "failed";
    r.m_bench.m_detail = shorten(problem, 1000);
    if (!problem.empty()) r.m_times.clear();
  } catch (const std::exception& error) {
    r.m_bench.m_status = "failed";
    r.m_bench.m_detail = shorten(run.describe() + ": " + error.what(), 1000);
    r.m_times.clear();
  }
}

void save(const point_result& r, const std::filesystem::path& dir) {
  point_result copy = r;
  copy.m_utc = utc_now_iso();
  write_json_atomic(point_result_path(dir, r.m_point), to_json(copy));
}

std::string fastest(const point_result& r) {
  if (r.m_times.empty()) return {};
  const auto best = std::min_element(r.m_times.begin(), r.m_times.end(), [](const point_time& a, const point_time& b) {
    return a.m_median_ns < b.m_median_ns;
  });
  char text[64];
  std::snprintf(text, sizeof text, "%.3g us", best->m_median_ns / 1e3);
  return std::string(text) + " on " + best->m_shape;
}

}  // namespace

std::string point_build_failure(const std::string& build_output, const point_decl& point) {
  const std::string target_dir = point.m_target + ".dir/";
  const std::string library = library_name(point);
  std::istringstream lines(build_output);
  std::string line;
  std::string found;
  bool inside = false;
  while (std::getline(lines, line)) {
    const bool failure_line = line.rfind("FAILED: ", 0) == 0 || line.find("*** [") != std::string::npos;
    if (failure_line) {
      inside = line.find(target_dir) != std::string::npos || (!library.empty() && line.find(library) != std::string::npos);
    } else if (line.rfind("ninja: build stopped", 0) == 0 || line.rfind("[", 0) == 0) {
      inside = false;
    }
    if (inside) found += line + "\n";
  }
  return found;
}

sweep_summary run_sweep(const manifest& m, const variant_decl& family, const sweep_options& options, std::ostream& out) {
  const family_decl& f = *family.m_family;
  const std::filesystem::path dir = options.m_dir.empty() ? std::filesystem::path(f.m_sweep_dir) : options.m_dir;
  std::filesystem::create_directories(dir);
  std::vector<const point_decl*> asked;
  for (const std::string& name : options.m_points) {
    const point_decl* p = f.point(name);
    if (p == nullptr) {
      std::string known;
      for (const point_decl& q : f.m_points) known += (known.empty() ? "" : ", ") + q.m_name;
      throw usage_error("--point " + shorten(name) + " is not a point of " + family.m_name + " (points: " +
                        shorten(known, 400) + ")");
    }
    if (std::find(asked.begin(), asked.end(), p) == asked.end()) asked.push_back(p);
  }
  if (asked.empty()) {
    for (const point_decl& p : f.m_points) asked.push_back(&p);
  }
  sweep_summary summary;
  summary.m_total = static_cast<int>(asked.size());
  const auto start = clock_type::now();
  int position = 0;
  std::vector<const point_decl*> todo;
  std::vector<point_result> results(asked.size());
  std::vector<std::string> hashes;
  for (std::size_t i = 0; i < asked.size(); ++i) {
    const point_decl& p = *asked[i];
    point_result& r = results[i];
    r.m_kernel = m.m_kernel;
    r.m_variant = family.m_name;
    r.m_point = p.m_name;
    r.m_params = p.m_params;
    r.m_source_hash = point_source_hash(family, p);
    const std::filesystem::path path = point_result_path(dir, p.m_name);
    if (!options.m_force && std::filesystem::exists(path)) {
      try {
        const point_result stored = read_point_result(path);
        if (stored.m_source_hash == r.m_source_hash && stored.finished()) {
          ++summary.m_current;
          if (stored.usable()) ++summary.m_usable;
          out << "[" << ++position << "/" << summary.m_total << "] " << p.m_name << " (" << join(p.m_params, ",")
              << "): up to date, " << (stored.usable() ? "usable" : stored.failure()) << "\n";
          continue;
        }
      } catch (const std::exception& error) {
        out << "  " << path.string() << ": " << error.what() << "; running the point again\n";
      }
    }
    todo.push_back(&p);
  }
  double measured_s = 0;
  int measured = 0;
  const std::size_t batch_size = static_cast<std::size_t>(std::max(options.m_jobs, 1));
  for (std::size_t begin = 0; begin < todo.size(); begin += batch_size) {
    const double elapsed = seconds_since(start);
    if (options.m_budget_s > 0 && elapsed >= options.m_budget_s) {
      summary.m_not_started = static_cast<int>(todo.size() - begin);
      out << "budget: " << format_seconds(options.m_budget_s) << " spent (" << format_seconds(elapsed) << "); "
          << summary.m_not_started << " of " << summary.m_total
          << " points not started; run kopt sweep again to resume\n";
      break;
    }
    const std::vector<const point_decl*> batch(todo.begin() + static_cast<std::ptrdiff_t>(begin),
                                               todo.begin() + static_cast<std::ptrdiff_t>(std::min(begin + batch_size, todo.size())));
    std::vector<point_result*> batch_results;
    for (const point_decl* p : batch) {
      batch_results.push_back(&results[static_cast<std::size_t>(std::find(asked.begin(), asked.end(), p) - asked.begin())]);
    }
    const auto batch_start = clock_type::now();
    build_batch(m, f, batch, batch_results, options.m_jobs, dir);
    for (std::size_t i = 0; i < batch.size(); ++i) {
      const point_decl& p = *batch[i];
      point_result& r = *batch_results[i];
      r.m_correctness = {};
      r.m_bench = {};
      r.m_times.clear();
      save(r, dir);
      if (options.m_build_only) continue;
      if (r.m_build.m_status == "ok") {
        run_correctness(m, p, r, dir);
        save(r, dir);
        if (r.m_correctness.m_status == "pass") {
          run_bench(m, p, r, dir);
          save(r, dir);
        }
      }
      ++summary.m_run;
      if (r.usable()) ++summary.m_usable;
      if (r.skipped()) ++summary.m_skipped;
    }
    measured_s += seconds_since(batch_start);
    measured += static_cast<int>(batch.size());
    for (std::size_t i = 0; i < batch.size(); ++i) {
      const point_result& r = *batch_results[i];
      const double per_point = measured_s / measured;
      const int left = static_cast<int>(todo.size()) - measured;
      out << "[" << ++position << "/" << summary.m_total << "] " << r.m_point << " (" << join(r.m_params, ",")
          << "): build " << r.m_build.m_status;
      if (!options.m_build_only) {
        out << ", correctness " << r.m_correctness.m_status << ", bench " << r.m_bench.m_status;
      }
      const std::string best = fastest(r);
      if (!best.empty()) out << " (" << best << ")";
      out << "; elapsed " << format_seconds(seconds_since(start)) << ", about "
          << format_seconds(per_point * left) << " left\n";
      if (options.m_build_only ? r.m_build.m_status == "failed" : !r.usable()) {
        out << "  " << shorten(r.failure(), 300) << "\n";
      }
    }
  }
  if (options.m_build_only) {
    const auto count = [&](const char* status) {
      return std::count_if(results.begin(), results.end(), [&](const point_result& r) { return r.m_build.m_status == status; });
    };
    out << "sweep " << m.m_kernel << "/" << family.m_name << " (build only): " << count("ok") << " built, "
        << count("failed") << " failed, " << count("skipped") << " not for this build's architectures, "
        << summary.m_current << " up to date, " << summary.m_not_started << " not started; "
        << format_seconds(seconds_since(start)) << "; results in " << dir.string() << "\n";
    return summary;
  }
  out << "sweep " << m.m_kernel << "/" << family.m_name << ": " << summary.m_run << " run, " << summary.m_current
      << " up to date, " << summary.m_not_started << " not started, " << summary.m_skipped << " skipped; "
      << summary.m_usable << " of " << summary.m_total
      << " usable; results in " << dir.string() << "\n";
  return summary;
}

}  // namespace kopt
