#include "kopt/decide/assemble.hpp"

#include <algorithm>
#include <filesystem>
#include <stdexcept>

#include "kopt/profile/document.hpp"
#include "kopt/records/measured_inputs.hpp"
#include "kopt/records/source_hash.hpp"
#include "kopt/sweep/selection.hpp"
#include "core/utc.hpp"
#include "core/version.hpp"

namespace kopt {

namespace {
// `peak.*` resolves against measured ceilings first, then the device's spec
// file: every rate of the spec (FLOP/s, B/s) that the ceilings lack is added
// with the spec's cited source, so `ceiling.*` (measured only) still refuses
// it. No spec for the device, or no specs directory: nothing is added.
void add_spec_ceilings(const manifest& m, const std::string& device, std::optional<ceilings_file>& ceilings) {
  if (!m.m_tools.m_specs_dir || device.empty()) return;
  const std::optional<spec_file> spec = profile::find_spec(*m.m_tools.m_specs_dir, device);
  if (!spec) return;
  std::vector<ceiling> rates = spec->rates();
  if (rates.empty() && !ceilings) return;
  if (!ceilings) {
    ceilings = ceilings_file{};
    ceilings->m_device = device;
    ceilings->m_date = "unknown";
  }
  for (ceiling& c : rates) {
    if (ceilings->find(c.m_name) != nullptr) continue;
    c.m_source = spec->m_path.filename().string() + ": " + c.m_source;
    ceilings->m_ceilings.push_back(std::move(c));
  }
}
}  // namespace

namespace {

bool contains(const std::vector<std::string>& list, const std::string& item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

// The variant's shapes in the bench file: declared shapes first, then quick
// shapes, then any other, each once.
std::vector<std::string> timed_shapes(const manifest& m, const bench_set& bench, const std::string& variant) {
  std::vector<std::string> order = m.m_shapes;
  for (const std::string& s : m.m_quick_shapes) {
    if (!contains(order, s)) order.push_back(s);
  }
  for (const bench_row& row : bench.m_rows) {
    if (row.m_impl == variant && !contains(order, row.m_shape)) order.push_back(row.m_shape);
  }
  std::vector<std::string> timed;
  for (const std::string& s : order) {
    if (bench.find(variant, s) != nullptr) timed.push_back(s);
  }
  return timed;
}

std::optional<double> speedup(const bench_row* other, const bench_row& self) {
  if (other == nullptr || other->m_error || self.m_stats.m_median_ns <= 0) return std::nullopt;
  return other->m_stats.m_median_ns / self.m_stats.m_median_ns;
}

void add_measured(shape_timing& t, const bench_row* row, const std::string& role) {
  if (row == nullptr || row->m_error || t.measured(row->m_impl) != nullptr) return;
  t.m_measured_with.push_back({row->m_impl, role, row->m_stats.m_median_ns, row->m_stats.m_noise});
}

embedded_document<profile::profile_document> optional_profile(const std::optional<std::filesystem::path>& path) {
  if (!path) return embedded_document<profile::profile_document>::unavailable("not run");
  return {profile::read_profile_document(*path), ""};
}

}  // namespace

timing_summary build_timing(const manifest& m, const bench_set& bench, const std::string& variant,
                            const std::optional<std::string>& parent, const std::optional<std::string>& best,
                            const ceilings_file* ceilings) {
  if (!bench.m_kernel.empty() && bench.m_kernel != m.m_kernel) {
    throw format_error(bench.m_file + ": /kopt/kernel: expected \"" + m.m_kernel + "\", got \"" +
                       bench.m_kernel + "\"");
  }
  const std::vector<std::string> shapes = timed_shapes(m, bench, variant);
  if (shapes.empty()) {
    throw format_error(bench.m_file + ": /benchmarks: no benchmark for variant " + variant + " (named " +
                       m.m_kernel + "/" + variant + "/<shape>)");
  }
  timing_summary timing;
  timing.m_bench_file = std::filesystem::path(bench.m_file).filename().string();
  timing.m_device = bench.m_device;
  timing.m_gpu = bench.m_gpu;
  timing.m_best_so_far = best;
  timing.m_quick = bench.m_quick ? *bench.m_quick
                                 : std::any_of(m.m_shapes.begin(), m.m_shapes.end(),
                                               [&](const std::string& s) { return !contains(shapes, s); }) &&
                                       std::all_of(shapes.begin(), shapes.end(), [&](const std::string& s) {
                                         return contains(m.m_quick_shapes, s);
                                       });
  for (const std::string& shape : shapes) {
    const bench_row& row = *bench.find(variant, shape);
    shape_timing t;
    t.m_shape = kopt::shape::parse(shape);
    if (row.m_output_check) {
      t.m_output_check = row.m_output_check->m_status;
      const std::string detail = row.m_output_check->explanation();
      if (!detail.empty()) t.m_output_detail = detail;
    }
    if (row.m_error) {
      t.m_error = row.m_error;
      timing.m_shapes.push_back(std::move(t));
      continue;
    }
    t.m_stats = row.m_stats;
    t.m_tflops = row.m_tflops;
    t.m_gbps = row.m_gbps;
    t.m_pct_of_ceiling = row.m_pct_of_ceiling;
    if (!t.m_pct_of_ceiling && ceilings != nullptr) {
      const auto scaled = [](std::optional<double> rate, double unit) {
        return rate ? std::optional<double>(*rate * unit) : std::nullopt;
      };
      ceiling_fractions fractions =
          fractions_of_ceilings(*ceilings, scaled(row.m_tflops, 1e12), scaled(row.m_gbps, 1e9));
      if (!fractions.empty()) t.m_pct_of_ceiling = std::move(fractions);
    }
    t.m_clock = row.m_clock;
    t.m_second_clock = row.m_second_clock;
    t.m_flags = row.m_flags;

    const bench_row* parent_row = parent ? bench.find(*parent, shape) : nullptr;
    const bench_row* best_row = best ? bench.find(*best, shape) : nullptr;
    const bench_row* reference_row = m.m_reference ? bench.find(m.m_reference->m_name, shape) : nullptr;
    t.m_speedup_vs_parent = speedup(parent_row, row);
    t.m_speedup_vs_best = speedup(best_row, row);
    if (best_row != nullptr && !best_row->m_error) {
      if (const std::optional<paired_speedup> p = pair_rounds(row, *best_row)) {
        t.m_paired_vs_best = paired_timing{*best, p->m_speedup, p->m_noise, static_cast<std::int64_t>(p->m_rounds)};
      }
    }
    t.m_speedup_vs_reference = speedup(reference_row, row);
    add_measured(t, parent_row, "parent");
    add_measured(t, best_row, "best_so_far");
    add_measured(t, reference_row, "reference");
    for (const impl_decl& baseline : m.m_baselines) {
      const bench_row* baseline_row = bench.find(baseline.m_name, shape);
      t.m_speedup_vs_baselines.emplace_back(baseline.m_name, speedup(baseline_row, row));
      add_measured(t, baseline_row, "baseline");
    }
    timing.m_shapes.push_back(std::move(t));
  }
  return timing;
}

record assemble_record(const manifest& m, const record_set& records, const record_inputs& in) {
  const variant_decl& decl = m.variant(in.m_variant);
  const int index = m.variant_index(in.m_variant);
  const record* best = records.best_before(static_cast<std::size_t>(index));

  record r;
  r.m_kernel = m.m_kernel;
  r.m_variant = decl.m_name;
  r.m_parent = decl.m_parent;
  r.m_hypothesis = decl.m_hypothesis;
  r.m_methods = decl.m_methods;
  r.m_source = hash_variant(decl);
  r.m_created_utc = in.m_results_utc.value_or(utc_now_iso());
  r.m_kernelopt_version = kernelopt_version();
  r.m_shapes = m.m_shapes;
  r.m_seeds = m.m_seeds;
  r.m_tolerance = m.m_tolerance;
  // What the run was tested and timed on and checked against: a later
  // declaration of other inputs or another reference makes the record stale.
  current_inputs inputs = inputs_now(m);
  if (!inputs.m_inputs) throw std::runtime_error("the reference's sources: " + inputs.m_error);
  r.m_inputs = std::move(inputs.m_inputs);
  r.m_failure = in.m_failure;
  if (decl.m_family && std::filesystem::exists(decl.m_family->m_selection)) {
    // The dispatch this run timed was generated from this selection.
    const selection s = read_selection(decl.m_family->m_selection);
    dispatch_info info;
    info.m_selection_utc = s.m_utc;
    for (const shape_selection& shape : s.m_shapes) {
      const point_decl* p = decl.m_family->point(shape.m_champion);
      info.m_served.push_back({shape.m_shape, shape.m_champion, p != nullptr ? p->m_params : std::vector<std::string>{}});
    }
    r.m_dispatch = info;
  }
  if (!in.m_failure) {
    r.m_correctness = summarize_correctness(m, in.m_variant, in.m_correctness);
  } else {
    // Whatever a failed run left: results that exist and read; else none
    // (every seed then counts as missing).
    std::vector<std::filesystem::path> readable;
    for (const std::filesystem::path& file : in.m_correctness) {
      if (std::filesystem::exists(file)) readable.push_back(file);
    }
    try {
      r.m_correctness = summarize_correctness(m, in.m_variant, readable);
    } catch (const std::exception& e) {
      r.m_correctness = summarize_correctness(m, in.m_variant, {});
      r.m_failure->m_cause += "; its results are unreadable (" + shorten(e.what(), 200) + ")";
    }
  }

  if (in.m_env) {
    r.m_env.m_document = read_env(*in.m_env);
  } else {
    r.m_env = embedded_document<env_file>::unavailable("no --env given");
  }
  std::optional<bench_set> failed_bench;
  if (in.m_failure) {
    try {
      if (!in.m_bench.empty() && std::filesystem::exists(in.m_bench)) failed_bench = read_bench(in.m_bench);
    } catch (const std::exception&) {
      // a benchmark killed mid-write leaves a cut file: no timing then
    }
    if (failed_bench && !failed_bench->has_impl(in.m_variant)) failed_bench.reset();
  }
  if (in.m_failure && !failed_bench) {
    r.m_timing_settings = m.m_timing;
    r.m_timing.m_bench_file = "";
    for (const std::string& shape : m.m_shapes) {
      shape_timing t;
      t.m_shape = kopt::shape::parse(shape);
      t.m_error = "not timed: the " + in.m_failure->m_step + " ended with " + in.m_failure->m_cause;
      r.m_timing.m_shapes.push_back(std::move(t));
    }
    r.m_profile =
        embedded_document<profile::profile_document>::unavailable("not run (" + in.m_failure->m_step + " failed)");
    r.m_static = embedded_document<static_result>::unavailable("not run (" + in.m_failure->m_step + " failed)");
    return r;
  }
  const bench_set bench = failed_bench ? *failed_bench : read_bench(in.m_bench);
  if (in.m_ceilings) r.m_ceilings = read_ceilings(*in.m_ceilings);
  add_spec_ceilings(m, bench.m_device, r.m_ceilings);
  r.m_profile = optional_profile(in.m_profile);
  if (in.m_static) {
    const static_result& checked = r.m_static.m_document.emplace(read_static_result(*in.m_static));
    const std::string file = in.m_static->string();
    if (checked.m_kernel != m.m_kernel) {
      throw format_error(file + ": /kernel: expected \"" + m.m_kernel + "\", got \"" + shorten(checked.m_kernel) + "\"");
    }
    if (checked.m_variant != in.m_variant) {
      throw format_error(file + ": /variant: expected \"" + in.m_variant + "\", got \"" + shorten(checked.m_variant) +
                         "\"");
    }
  } else {
    r.m_static = embedded_document<static_result>::unavailable("not run");
  }

  r.m_timing_settings = bench.m_timing.value_or(m.m_timing);
  r.m_timing = build_timing(m, bench, in.m_variant, decl.m_parent,
                            best ? std::optional<std::string>(best->m_variant) : std::nullopt,
                            r.m_ceilings ? &*r.m_ceilings : nullptr);
  return r;
}

}  // namespace kopt
