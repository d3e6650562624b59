// The generated `<k>_kopt_test` main: one GoogleTest test per variant ×
// shape × seed (suite = variant, so CTest runs `--gtest_filter=v1.*` as one
// process per variant), plus a results file that `kopt record` reads.
#include <gtest/gtest.h>

#include <CLI/CLI.hpp>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/dtype.hpp"
#include "core/json_io.hpp"
#include "core/option_values.hpp"
#include "core/version.hpp"
#include "formats/correctness_result.hpp"
#include "harness/backend.hpp"
#include "harness/host_memory.hpp"
#include "kernelopt/detail/mains.hpp"
#include "harness/trial.hpp"
#include "kernelopt/parallel.hpp"

namespace kopt {
namespace {

constexpr int k_skip_status = 77;
constexpr int k_usage_status = 2;

struct options {
  std::string m_results;
  bool m_quick = false;
  unsigned m_threads = 0;  // --kopt_threads; 0: every core
};

// A thread count: an integer from 1 to 4096.
unsigned thread_count(const std::string& text) {
  const bool digits = !text.empty() && text.size() <= 4 &&
                      text.find_first_not_of("0123456789") == std::string::npos;
  const unsigned value = digits ? static_cast<unsigned>(std::stoul(text)) : 0;
  if (value < 1 || value > 4096) {
    throw usage_error("--kopt_threads='" + text.substr(0, 40) + "': expected an integer from 1 to 4096");
  }
  return value;
}

struct command_line {
  options m_options;
  bool m_help = false;     // --help / -h: KernelOpt's flags, then GoogleTest's
  std::string m_version;   // --version: the line to print
};

// Takes KernelOpt's own flags out of argv (CLI11), leaving GoogleTest's in
// their order. An unknown --kopt_ flag or a bad value throws usage_error
// naming it: nothing is silently ignored.
command_line take_options(int& argc, char** argv) {
  const std::string program = std::filesystem::path(argc > 0 ? argv[0] : "kopt_test").filename().string();
  CLI::App app("A KernelOpt correctness test (GoogleTest with KernelOpt's flags).", program);
  app.set_version_flag("--version", program + " (KernelOpt) " + kernelopt_version());
  app.allow_extras();  // GoogleTest's flags, passed on
  app.footer("GoogleTest's flags (--gtest_filter=PATTERN, --gtest_list_tests, ...) are accepted too and passed on to "
             "it; its own help follows.");
  command_line line;
  std::string threads;
  app.add_option("--kopt_results", line.m_options.m_results, "write the kernelopt.correctness results to FILE")
      ->type_name("FILE");
  app.add_flag("--kopt_quick", line.m_options.m_quick, "check QUICK_SHAPES instead of SHAPES");
  app.add_option("--kopt_threads", threads, "host threads for trials, reference and host variants (default: every core)")
      ->type_name("N");
  const std::vector<std::string> args(argv + 1, argv + argc);
  if (const auto error = empty_value_error(args, "--kopt_")) throw usage_error(*error);
  std::vector<std::string> reversed(args.rbegin(), args.rend());
  try {
    app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    std::fputs(app.help().c_str(), stdout);
    line.m_help = true;
    return line;
  } catch (const CLI::CallForVersion& version) {
    line.m_version = version.what();
    return line;
  } catch (const CLI::ParseError& error) {
    throw usage_error(error.what());
  }
  const std::vector<std::string> rest = app.remaining();
  for (const std::string& arg : rest) {
    if (arg.rfind("--kopt_", 0) == 0) throw usage_error(arg + ": unknown KernelOpt flag (see --help)");
  }
  if (app.count("--kopt_threads") > 0) line.m_options.m_threads = thread_count(threads);
  int kept = 1;
  for (const std::string& arg : rest) {
    int at = kept;
    while (at < argc && arg != argv[at]) ++at;
    if (at == argc) throw usage_error(arg + ": not an argument as given (CLI11 split it); pass it as one");
    std::swap(argv[kept++], argv[at]);
  }
  argc = kept;
  argv[argc] = nullptr;
  return line;
}

// "rows=4096,cols=4096" -> "rows4096_cols4096": GoogleTest filter-safe.
std::string test_name(const std::string& shape, std::uint64_t seed) {
  std::string name;
  for (const char c : shape) {
    if (c == ',') {
      name += '_';
    } else if (c != '=' && c != ' ') {
      name += c;
    }
  }
  return name + "_seed" + std::to_string(seed);
}

// What one trial found, as kernelopt.correctness holds it (formats/correctness_result.hpp).
trial_record to_record(const trial_result& trial) {
  trial_record t;
  t.m_shape = trial.m_shape;
  t.m_seed = static_cast<std::int64_t>(trial.m_seed);
  t.m_status = trial.passed() ? "pass" : "fail";
  t.m_error = trial.m_error;
  t.m_modified_inputs = trial.m_modified_inputs;
  t.m_phases = trial.m_phases;
  for (const output_check& out : trial.m_outputs) {
    output_result o;
    o.m_arg = out.m_arg;
    o.m_dtype = to_string(out.m_dtype);
    o.m_elements = static_cast<std::int64_t>(out.m_elements);
    o.m_rtol = out.m_tolerance.m_rtol;
    o.m_atol = out.m_tolerance.m_atol;
    o.m_max_abs = out.m_max_abs;
    o.m_max_rel = out.m_max_rel;
    o.m_rel_l2 = out.m_rel_l2;
    o.m_mismatches = static_cast<std::int64_t>(out.m_mismatches);
    o.m_nonfinite = static_cast<std::int64_t>(out.m_nonfinite);
    o.m_unwritten = static_cast<std::int64_t>(out.m_unwritten);
    o.m_canary = out.m_canary;
    if (const std::optional<mismatch>& m = out.m_first_mismatch ? out.m_first_mismatch : out.m_first_unwritten) {
      o.m_first_mismatch = first_mismatch{static_cast<std::int64_t>(m->m_flat), m->m_index, m->m_got, m->m_expected};
    }
    o.m_passed = out.passed();
    t.m_outputs.push_back(std::move(o));
  }
  return t;
}

// The implementation named by --gtest_filter=NAME.* (CTest runs one per
// process), or "unknown".
std::string filtered_variant() {
  const std::string filter = ::testing::GTEST_FLAG(filter);
  const std::size_t dot = filter.find('.');
  return dot == std::string::npos ? std::string("unknown") : filter.substr(0, dot);
}

class run_state {
 public:
  run_state(const kernel_spec& spec, backend& device) : m_spec(spec), m_device(device) {}

  void set_claim(std::optional<gpu_claim_info> claim) { m_claim = std::move(claim); }

  void add(const impl_spec& variant, trial_result trial) {
    m_results[variant.m_name].push_back(std::move(trial));
  }
  // A trial that did not run, and why (the first reason is the run's).
  void skip(const std::string& reason) {
    if (m_skip_reason.empty()) m_skip_reason = reason;
  }
  [[nodiscard]] const std::string& skip_reason() const { return m_skip_reason; }

  void write(const std::string& path, const std::string& skip_reason) const {
    if (path.empty()) return;
    // One file per process; CTest runs one variant per process, so the
    // variant is the one whose tests ran (or, when skipped, the filter's).
    std::string variant = m_results.empty() ? filtered_variant() : m_results.begin()->first;
    correctness_result result;
    bool all_pass = true;
    for (const auto& [name, list] : m_results) {
      for (const trial_result& t : list) {
        result.m_trials.push_back(to_record(t));
        all_pass = all_pass && t.passed();
      }
    }
    result.m_kernel = m_spec.m_name;
    result.m_variant = variant;
    result.m_backend = m_spec.m_backend == backend_kind::cuda ? "cuda" : "host";
    if (skip_reason.empty()) {
      result.m_device = m_device.device_name();
      result.m_gpu = m_device.identity();
    } else {
      result.m_skip_reason = skip_reason;
    }
    result.m_claim = m_claim;
    result.m_status =
        !skip_reason.empty() ? "skipped" : (result.m_trials.empty() ? "fail" : (all_pass ? "pass" : "fail"));
    for (const std::uint64_t seed : m_spec.m_seeds) result.m_seeds.push_back(static_cast<std::int64_t>(seed));
    if (m_spec.m_tolerance) {
      const tolerance_spec& tol = *m_spec.m_tolerance;
      result.m_tolerance = declared_tolerance{tol.m_rtol, tol.m_atol, tol.m_max_rel_l2, tol.m_source};
    }
    if (m_results.size() > 1) result.m_note = "results of several variants: run one variant per process";
    write_json_atomic(path, to_json(result));
  }

 private:
  const kernel_spec& m_spec;
  backend& m_device;
  std::optional<gpu_claim_info> m_claim;  // what claim() took; nullopt until then
  std::string m_skip_reason;
  std::map<std::string, std::vector<trial_result>> m_results;
};

class trial_test : public ::testing::Test {
 public:
  trial_test(const kernel_spec& spec, const impl_spec& variant, const shape_spec& shape,
             std::uint64_t seed, backend& device, backend& host, run_state& state)
      : m_spec(spec), m_variant(variant), m_shape(shape), m_seed(seed), m_device(device),
        m_host(host), m_state(state) {}

  void TestBody() override {
    std::string skip = skip_reason(m_variant, m_device);
    if (skip.empty() && m_spec.m_reference) {
      const std::string reference = skip_reason(*m_spec.m_reference, m_device);
      if (!reference.empty()) skip = "the reference " + reference;
    }
    if (!skip.empty()) {
      m_state.skip(skip);
      GTEST_SKIP() << skip;
    }
    trial_result trial = run_trial(m_spec, m_variant, m_shape, m_seed, m_device, m_host);
    const bool passed = trial.passed();
    const std::string diagnosis = trial.diagnosis();
    for (const output_check& out : trial.m_outputs) {
      std::printf("  %s %s seed %llu: '%s' max_abs=%.3g max_rel=%.3g rel_l2=%.3g mismatches=%zu\n",
                  m_variant.m_name.c_str(), m_shape.m_text.c_str(),
                  static_cast<unsigned long long>(m_seed), out.m_arg.c_str(), out.m_max_abs,
                  out.m_max_rel, out.m_rel_l2, out.m_mismatches);
    }
    const trial_phases& p = trial.m_phases;
    std::printf("  %s %s seed %llu: phases_s inputs %.3f, reference %.3f, load %.3f, run %.3f, check %.3f\n",
                m_variant.m_name.c_str(), m_shape.m_text.c_str(), static_cast<unsigned long long>(m_seed),
                p.m_inputs_s, p.m_reference_s, p.m_load_s, p.m_run_s, p.m_check_s);
    m_state.add(m_variant, std::move(trial));
    EXPECT_TRUE(passed) << m_spec.m_name << "/" << m_variant.m_name << " on " << m_shape.m_text
                        << ", seed " << m_seed << ":\n"
                        << diagnosis;
  }

 private:
  const kernel_spec& m_spec;
  const impl_spec& m_variant;
  const shape_spec& m_shape;
  std::uint64_t m_seed;
  backend& m_device;
  backend& m_host;
  run_state& m_state;
};

bool listing_only(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--gtest_list_tests") == 0) return true;
  }
  return false;
}

}  // namespace

int run_correctness_main(const kernel_spec& spec, backend_factory make_device, int argc, char** argv) {
  keep_freed_host_memory();  // before the first tensor (host_memory.hpp)
  options opts;
  try {
    const command_line line = take_options(argc, argv);
    if (!line.m_version.empty()) {
      std::printf("%s\n", line.m_version.c_str());
      return 0;
    }
    if (line.m_help) {
      char help[] = "--help";
      char* gtest_argv[] = {argv[0], help, nullptr};
      int gtest_argc = 2;
      std::fputs("\n", stdout);
      ::testing::InitGoogleTest(&gtest_argc, gtest_argv);  // prints GoogleTest's help
      return 0;
    }
    opts = line.m_options;
  } catch (const usage_error& error) {
    std::fprintf(stderr, "%s: %s\n", argv[0], error.what());
    return k_usage_status;
  }
  // The trials' host work, the host reference and host variants (parallel.hpp).
  set_parallel_threads(opts.m_threads);
  ::testing::InitGoogleTest(&argc, argv);

  std::unique_ptr<backend> device = make_device();
  std::unique_ptr<backend> host = make_host_backend();
  run_state state(spec, *device);

  const std::vector<shape_spec>& shapes = opts.m_quick ? spec.m_quick_shapes : spec.m_shapes;
  // Baselines are checked like variants: a speedup table that rests on a
  // wrong vendor baseline is wrong everywhere.
  std::vector<const impl_spec*> checked;
  for (const impl_spec& variant : spec.m_variants) checked.push_back(&variant);
  for (const impl_spec& baseline : spec.m_baselines) checked.push_back(&baseline);
  for (const impl_spec* checked_impl : checked) {
    const impl_spec& variant = *checked_impl;
    for (const shape_spec& shape : shapes) {
      for (const std::uint64_t seed : spec.m_seeds) {
        backend& dev = *device;
        backend& hst = *host;
        ::testing::RegisterTest(variant.m_name.c_str(), test_name(shape.m_text, seed).c_str(),
                                nullptr, shape.m_text.c_str(), __FILE__, __LINE__,
                                [&spec, &variant, &shape, seed, &dev, &hst, &state]() -> ::testing::Test* {
                                  return new trial_test(spec, variant, shape, seed, dev, hst, state);
                                });
      }
    }
  }

  if (!listing_only(argc, argv)) {
    // An implementation this build does not hold skips with its own reason,
    // GPU or not; one whose module (or the reference's) does not load fails,
    // GPU or not: that is a build problem.
    for (const impl_spec* impl : checked) {
      if (impl->m_name != filtered_variant()) continue;
      if (!impl->m_skip_reason.empty()) {
        const std::string reason = "not built: " + impl->m_skip_reason;
        std::printf("SKIPPED: %s\n", reason.c_str());
        state.write(opts.m_results, reason);
        return k_skip_status;
      }
      for (const impl_spec* loaded : {impl, spec.m_reference ? &*spec.m_reference : nullptr}) {
        if (loaded != nullptr && !loaded->m_load_error.empty()) {
          std::fprintf(stderr, "error: %s: %s\n", loaded->m_name.c_str(), loaded->m_load_error.c_str());
          return 1;
        }
      }
    }
    const std::string reason = device->unavailable_reason();
    if (!reason.empty()) {
      std::printf("SKIPPED: %s\n", reason.c_str());
      state.write(opts.m_results, reason);
      return k_skip_status;
    }
    try {
      state.set_claim(device->claim(false));
    } catch (const std::exception& error) {
      std::fprintf(stderr, "error: %s\n", error.what());
      return 1;
    }
    const std::string limit =
        opts.m_threads == 0 ? "every core" : "--kopt_threads=" + std::to_string(opts.m_threads);
    std::printf("[kernelopt] %s on %s; host threads: %u (%s)\n", spec.m_name.c_str(),
                device->device_name().c_str(), parallel_threads(), limit.c_str());
  }
  const int run_status = RUN_ALL_TESTS();
  const ::testing::UnitTest& unit = *::testing::UnitTest::GetInstance();
  // A filter that selects nothing is a mistake, not a pass ("0 tests").
  const bool ran_nothing = unit.test_to_run_count() == 0;
  // Every trial skipped (its variant cannot run on this device): the
  // process reports a skip, not a pass.
  const bool all_skipped = !ran_nothing && unit.skipped_test_count() == unit.test_to_run_count();
  if (all_skipped && !listing_only(argc, argv)) {
    std::printf("SKIPPED: %s\n", state.skip_reason().c_str());
    try {
      state.write(opts.m_results, state.skip_reason());
    } catch (const std::exception& error) {
      std::fprintf(stderr, "error: writing %s: %s\n", opts.m_results.c_str(), error.what());
      return 1;
    }
    return k_skip_status;
  }
  const int status = ran_nothing && !listing_only(argc, argv) ? 1 : run_status;
  if (ran_nothing && !listing_only(argc, argv)) {
    std::fprintf(stderr, "error: no correctness trial matches --gtest_filter=%s: nothing was checked\n",
                 ::testing::GTEST_FLAG(filter).c_str());
  }
  if (!listing_only(argc, argv)) {
    try {
      state.write(opts.m_results, "");
    } catch (const std::exception& error) {
      std::fprintf(stderr, "error: writing %s: %s\n", opts.m_results.c_str(), error.what());
      return 1;
    }
  }
  return status;
}

}  // namespace kopt
