#include "bench/session.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <random>
#include <stdexcept>

#include "bench/interleave.hpp"
#include "bench/process_hooks.hpp"
#include "harness/guarded.hpp"
#include "harness/inputs.hpp"
#include "harness/lap_clock.hpp"

namespace kopt::bench {
namespace {

// Runs `f`; the text of anything it throws, whatever its type.
template <class F>
std::optional<std::string> failure_of(F&& f) {
  try {
    f();
    return std::nullopt;
  } catch (const std::exception& e) {
    return std::string(e.what());
  } catch (...) {
    return std::string("an exception of a type not derived from std::exception");
  }
}

// Seeds of the benchmark's input sets and fresh contents: distinct from each
// other and from the correctness seeds' first use.
std::uint64_t bench_seed(const kernel_spec& spec, std::uint64_t k) {
  const std::uint64_t base = spec.m_seeds.empty() ? 1 : spec.m_seeds.front();
  return base * 1000003ULL + 7919ULL * (k + 1);
}

// Fresh contents come from seeds no variant can know in advance: outputs
// computed ahead for predictable inputs (at load time, or in the untimed
// first call) would pass their checks and their timing.
std::uint64_t unpredictable_seed() {
  std::random_device device;
  return (static_cast<std::uint64_t>(device()) << 32) ^ device() ^
         static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
}

std::string number_text(double value) {
  char text[64];
  std::snprintf(text, sizeof text, "%.4g", value);
  return text;
}

// Content and expected outputs of one input set.
struct content {
  host_tensors m_tensors;
  expected_outputs m_expected;
};

class shape_run {
 public:
  shape_run(const kernel_spec& spec, const shape_spec& shape, const std::vector<const impl_spec*>& impls,
            backend& device, backend& host, timing_engine& engine)
      : m_spec(spec), m_shape(shape), m_impls(impls), m_device(device), m_host(host), m_engine(engine),
        m_out(impls.size()), m_calls(impls.size(), 0), m_checks(impls.size(), 0) {}

  std::vector<impl_outcome> run();

 private:
  [[nodiscard]] bool alive(std::size_t i) const { return !m_out[i].m_error; }
  void fail(std::size_t i, const std::string& why) {
    if (!m_out[i].m_error) m_out[i].m_error = why;
  }
  void fail_all(const std::string& why) {
    for (std::size_t i = 0; i < m_impls.size(); ++i) fail(i, why);
  }
  [[nodiscard]] backend& reference_backend() {
    return m_spec.m_reference->m_backend == backend_kind::host ? m_host : m_device;
  }
  content make_content(std::uint64_t seed) {
    content c;
    c.m_tensors = make_inputs(m_spec, m_shape, seed);
    if (m_spec.m_reference) {
      c.m_expected = run_reference(m_spec, *m_spec.m_reference, m_shape, c.m_tensors, reference_backend());
    }
    return c;
  }
  void invoke(std::size_t i, std::size_t set) {
    if (m_impls[i]->m_invoke == nullptr) throw std::runtime_error(not_loaded(*m_impls[i]));
    m_impls[i]->m_invoke(m_sets[set]->pointers(), m_shape.m_dims.data(), m_device.stream());
  }
  // Host backend: throws when implementation i's calls since the last look
  // left a signal handler or a timer in the process (process_hooks.hpp).
  // Looked at after every checked launch, warm-up, fresh-content sample
  // and block of the interleaved window, so the one whose calls did it is
  // named; the others are not blamed for what stays behind.
  void look_for_hooks(std::size_t i) {
    if (!m_hooks) return;
    process_hooks now = snapshot_hooks();
    const std::vector<std::string> added = hook_changes(*m_hooks, now);
    m_hooks = std::move(now);
    if (added.empty()) return;
    std::string list;
    for (const std::string& a : added) list += (list.empty() ? "" : ", ") + a;
    throw std::runtime_error(m_impls[i]->m_name + "'s calls left " + list +
                             " in the benchmark's process: code that runs between calls can slow the "
                             "implementations it is compared with, and is not timed (docs/benchmarking.md)");
  }
  // Poisoned outputs, one launch on `set` holding `c`, every output checked.
  void checked_launch(std::size_t i, std::size_t set, const content& c, const std::string& when);
  // Set 0, holding `c`, checked as implementation i's timed call left it.
  void check_timed_call(std::size_t i, const content& c);
  void check_all(const std::string& when);
  void sample_all();
  // After the timed window: the shared `in` tensors as loaded, else the
  // implementation that writes them fails (each called alone to find it).
  void inputs_after_window();
  // One round of k_fresh_samples fresh contents for the implementations in
  // `which`. In round 0 every timed sample's outputs are checked as it left
  // them, and a checked launch follows the last content.
  void fresh_content(std::size_t round, const std::vector<bool>& which);
  // The fresh-content timing check, a second round for those the first
  // round suspects (k_fresh_rounds); fails those both rounds convict.
  void fresh_content_check();
  // Scales the samples and round medians of the implementations that run
  // slower on new inputs (fresh_content_scale) and flags their rows.
  void time_as_on_fresh_inputs();

  const kernel_spec& m_spec;
  const shape_spec& m_shape;
  const std::vector<const impl_spec*>& m_impls;
  backend& m_device;
  backend& m_host;
  timing_engine& m_engine;
  std::vector<impl_outcome> m_out;
  std::vector<std::size_t> m_calls;   // launches per implementation, for the rotation
  std::vector<std::size_t> m_checks;  // checked launches per implementation
  std::vector<std::unique_ptr<guarded_tensors>> m_sets;
  std::vector<content> m_contents;
  std::vector<std::vector<double>> m_fresh_ns;  // every round's, in order
  std::vector<std::vector<double>> m_seen_ns;   // each taken before a fresh one
  std::vector<std::optional<double>> m_fresh_scale;  // fresh_content_scale, per implementation
  std::optional<process_hooks> m_hooks;  // host backend: as the last look found them
  window_state m_window;
  interleaved_result m_sampled;
  std::vector<std::size_t> m_sampled_index;  // implementation -> index in m_sampled, or npos
};

void shape_run::checked_launch(std::size_t i, std::size_t set, const content& c, const std::string& when) {
  if (!alive(i)) return;
  const impl_spec& impl = *m_impls[i];
  const std::optional<std::string> error = failure_of([&] {
    m_sets[set]->load(c.m_tensors);
    invoke(i, set);
    m_device.synchronize("the checked launch of " + impl.m_name + " on " + m_shape.m_text);
    look_for_hooks(i);
    const run_check check = m_sets[set]->check(c.m_tensors, c.m_expected);
    ++m_checks[i];
    if (!check.passed()) {
      throw std::runtime_error("output check failed " + when + " (input set " + std::to_string(set) +
                               "): " + check.diagnosis());
    }
  });
  if (error) fail(i, *error);
}

void shape_run::check_all(const std::string& when) {
  if (!m_spec.m_reference) return;
  for (std::size_t i = 0; i < m_impls.size(); ++i) {
    for (std::size_t set = 0; set < m_sets.size(); ++set) checked_launch(i, set, m_contents[set], when);
  }
}

void shape_run::sample_all() {
  const sampler_settings settings = [&] {
    sampler_settings s = settings_from(m_spec.m_timing);
    s.m_resolution_ns = m_engine.resolution_ns();
    return s;
  }();
  // A fault of one implementation during sampling drops it and the window
  // is measured again without it: the others' rows never carry its fault.
  for (;;) {
    std::vector<std::size_t> live;
    for (std::size_t i = 0; i < m_impls.size(); ++i) {
      if (alive(i)) live.push_back(i);
    }
    m_sampled_index.assign(m_impls.size(), static_cast<std::size_t>(-1));
    if (live.empty()) return;
    std::size_t current = live.front();
    const std::optional<std::string> error = failure_of([&] {
      for (const std::size_t i : live) {
        current = i;
        m_engine.warm([&] { invoke(i, m_calls[i]++ % m_sets.size()); });
        look_for_hooks(i);
      }
      m_engine.begin_window();
      // Looked for hooks at each change of implementation: after every block.
      std::size_t previous = live.size();
      m_sampled = run_interleaved(
          settings, live.size(),
          [&](std::size_t k) {
            if (previous != live.size() && previous != k) {
              current = live[previous];
              look_for_hooks(current);
            }
            previous = k;
            current = live[k];
            return m_engine.sample_ns([&, i = live[k]] { invoke(i, m_calls[i]++ % m_sets.size()); });
          },
          steady_now_s, [&] { m_engine.poll(); });
      if (previous != live.size()) look_for_hooks(current);
      m_window = m_engine.end_window();
      for (std::size_t k = 0; k < live.size(); ++k) m_sampled_index[live[k]] = k;
      for (const std::size_t i : live) {
        current = i;
        measurement& m = m_out[i].m_measurement;
        m.m_primary = m_sampled.m_impls[m_sampled_index[i]];
        m_engine.second_clock([&] { invoke(i, m_calls[i]++ % m_sets.size()); }, settings, m);
        m.m_clock = m_window.m_clock;
        if (m_window.m_throttled) m.m_flags.emplace_back("throttled");
        if (m_window.m_launch_not_hidden) m.m_flags.emplace_back("launch_not_hidden");
        const sample_stats& s = m.m_primary.m_stats;
        if (s.m_count > 0) {
          m.m_harness_ns_per_sample = m.m_primary.m_wall_s * 1e9 / static_cast<double>(s.m_count) - s.m_mean;
        }
      }
    });
    if (!error) {
      inputs_after_window();
      return;
    }
    fail(current, "while timing " + m_impls[current]->m_name + ": " + *error);
    // A device error may leave the device unusable; the retry shows it.
    if (const auto sync = failure_of([&] { m_device.synchronize("after a failed benchmark"); })) {
      fail_all("the device failed while timing " + m_impls[current]->m_name + ": " + *sync);
      return;
    }
  }
}

void shape_run::inputs_after_window() {
  std::vector<std::string> modified;
  const std::optional<std::string> read = failure_of([&] {
    for (std::size_t set = 0; set < m_sets.size(); ++set) {
      for (const std::string& name : m_sets[set]->modified_inputs(m_contents[set].m_tensors)) {
        modified.push_back("'" + name + "' of input set " + std::to_string(set));
      }
    }
  });
  if (read) {
    fail_all("reading the inputs back after timing: " + *read);
    return;
  }
  if (modified.empty()) return;
  // Every implementation shares the input sets: find the one that writes
  // them, each alone on reloaded inputs, outputs as timed calls find them.
  bool found = false;
  for (std::size_t i = 0; i < m_impls.size(); ++i) {
    if (!alive(i)) continue;
    const std::optional<std::string> wrote = failure_of([&] {
      for (std::size_t set = 0; set < m_sets.size(); ++set) {
        m_sets[set]->load_inputs(m_contents[set].m_tensors);
        for (int call = 0; call < 2; ++call) {
          invoke(i, set);
          m_device.synchronize("a call of " + m_impls[i]->m_name + " alone");
          const std::vector<std::string> names = m_sets[set]->modified_inputs(m_contents[set].m_tensors);
          if (!names.empty()) {
            std::string list;
            for (const std::string& n : names) list += (list.empty() ? "'" : ", '") + n + "'";
            throw std::runtime_error("it modifies its `in` tensor " + list +
                                     " (declared `in`: the implementations timed after it ran on what it left there; "
                                     "use `inout` if it must write it)");
          }
        }
      }
    });
    if (wrote) {
      fail(i, *wrote);
      found = true;
    }
  }
  if (!found) {
    std::string list;
    for (const std::string& m : modified) list += (list.empty() ? "" : ", ") + m;
    fail_all("the `in` tensor " + list +
             " changed while the implementations were timed, and none changes it when called alone: the timings of " +
             m_shape.m_text + " cannot be trusted");
  }
  const std::optional<std::string> reloaded = failure_of([&] {
    for (std::size_t set = 0; set < m_sets.size(); ++set) m_sets[set]->load_inputs(m_contents[set].m_tensors);
    m_device.synchronize("reloading the inputs of " + m_shape.m_text);
  });
  if (reloaded) fail_all("reloading the inputs: " + *reloaded);
}

void shape_run::fresh_content(std::size_t round, const std::vector<bool>& which) {
  for (std::size_t f = 0; f < k_fresh_samples; ++f) {
    // Round 0's timed samples are each checked as they left their outputs:
    // a variant that knew which one is checked could skip the others.
    const bool checked = round == 0 && m_spec.m_reference;
    const bool last = round == 0 && f + 1 == k_fresh_samples;
    // A sample on a seen input set first (set 1 keeps its content), then
    // the fresh content is loaded: the fresh sample finds its inputs where
    // the load left them, as before.
    for (std::size_t i = 0; i < m_impls.size(); ++i) {
      if (!alive(i) || !which[i]) continue;
      const std::optional<std::string> sampled = failure_of([&] {
        m_seen_ns[i].push_back(m_engine.sample_ns([&] { invoke(i, m_sets.size() - 1); }));
        m_device.synchronize("a sample on seen inputs");
        look_for_hooks(i);
      });
      if (sampled) fail(i, "while timing on seen inputs: " + *sampled);
    }
    content c;
    const std::optional<std::string> error = failure_of([&] {
      c.m_tensors = make_inputs(m_spec, m_shape, unpredictable_seed());
      m_sets[0]->load_inputs(c.m_tensors);
      m_device.synchronize("loading fresh inputs on " + m_shape.m_text);
    });
    if (error) {
      fail_all("loading fresh inputs: " + *error);
      return;
    }
    // Set 0's outputs hold the previous content's results, as at every
    // timed call; restored before each implementation's sample, so that none
    // finds this content's results left by the implementation before it.
    std::vector<std::vector<unsigned char>> earlier;
    if (checked) {
      const std::optional<std::string> prepared = failure_of([&] {
        c.m_expected = run_reference(m_spec, *m_spec.m_reference, m_shape, c.m_tensors, reference_backend());
        earlier = m_sets[0]->download_outputs();
      });
      if (prepared) {
        fail_all("the reference failed on fresh inputs: " + *prepared);
        return;
      }
    }
    for (std::size_t i = 0; i < m_impls.size(); ++i) {
      if (!alive(i) || !which[i]) continue;
      const std::optional<std::string> sampled = failure_of([&] {
        if (checked) {
          m_sets[0]->load_inputs(c.m_tensors);  // an inout the one before changed
          m_sets[0]->upload_outputs(earlier);
        }
        m_fresh_ns[i].push_back(m_engine.sample_ns([&] { invoke(i, 0); }));
        m_device.synchronize("a sample on fresh inputs");
        look_for_hooks(i);
      });
      if (sampled) {
        fail(i, "while timing on fresh inputs: " + *sampled);
      } else if (checked) {
        check_timed_call(i, c);
      }
    }
    // New content under the pointers the implementation has seen, outputs
    // poisoned: a result cached by pointer is stale, an unwritten element NaN.
    if (checked && last) {
      for (std::size_t i = 0; i < m_impls.size(); ++i) checked_launch(i, 0, c, "on fresh inputs under the same pointers");
    }
  }
}

void shape_run::check_timed_call(std::size_t i, const content& c) {
  const std::optional<std::string> error = failure_of([&] {
    const run_check check = m_sets[0]->check(c.m_tensors, c.m_expected);
    ++m_checks[i];
    if (!check.passed()) {
      throw std::runtime_error(
          "output check failed on fresh inputs, on a timed call (its outputs held the previous content's results, "
          "not poison, as timed calls find them): " +
          check.diagnosis());
    }
  });
  if (error) fail(i, *error);
}

void shape_run::fresh_content_check() {
  m_fresh_ns.assign(m_impls.size(), {});
  m_seen_ns.assign(m_impls.size(), {});
  // Suspected of cached results (convicted when every round says so), or
  // slower on new inputs (m_fresh_scale set: timed as on them when every
  // sample so far says so after each round): both take the next round.
  std::vector<bool> suspect(m_impls.size(), true);
  std::vector<std::string> verdict(m_impls.size());
  m_fresh_scale.assign(m_impls.size(), std::nullopt);
  std::vector<bool> which(m_impls.size());
  for (std::size_t round = 0; round < k_fresh_rounds; ++round) {
    for (std::size_t i = 0; i < m_impls.size(); ++i) which[i] = suspect[i] || m_fresh_scale[i].has_value();
    if (std::none_of(which.begin(), which.end(), [](bool b) { return b; })) break;
    std::vector<std::size_t> before(m_impls.size());
    for (std::size_t i = 0; i < m_impls.size(); ++i) before[i] = m_fresh_ns[i].size();
    fresh_content(round, which);
    for (std::size_t i = 0; i < m_impls.size(); ++i) {
      if (!which[i]) continue;
      if (!alive(i)) {
        suspect[i] = false;
        m_fresh_scale[i].reset();
        continue;
      }
      const sample_stats& repeated = m_out[i].m_measurement.m_primary.m_stats;
      if (suspect[i]) {
        const std::vector<double> fresh(m_fresh_ns[i].begin() + static_cast<std::ptrdiff_t>(before[i]),
                                        m_fresh_ns[i].end());
        const std::vector<double> seen(m_seen_ns[i].begin() + static_cast<std::ptrdiff_t>(before[i]),
                                       m_seen_ns[i].end());
        verdict[i] = fresh_content_verdict(fresh, repeated, seen);
        suspect[i] = !verdict[i].empty();
      }
      // On every sample so far: a round whose seen samples all met load
      // does not hide a cache the round before showed.
      if (round == 0 || m_fresh_scale[i]) {
        m_fresh_scale[i] = fresh_content_scale(m_fresh_ns[i], repeated, m_seen_ns[i]);
      }
    }
  }
  for (std::size_t i = 0; i < m_impls.size(); ++i) {
    if (suspect[i] && alive(i)) {
      fail(i, verdict[i] + " (in each of " + std::to_string(k_fresh_rounds) + " rounds of fresh inputs)");
      m_fresh_scale[i].reset();
    }
  }
}

void shape_run::time_as_on_fresh_inputs() {
  for (std::size_t i = 0; i < m_impls.size() && i < m_fresh_scale.size(); ++i) {
    if (!m_fresh_scale[i] || !alive(i)) continue;
    const double f = *m_fresh_scale[i];
    sampling_result& primary = m_out[i].m_measurement.m_primary;
    for (double& sample : primary.m_samples) sample *= f;
    primary.m_stats = compute_stats(primary.m_samples, m_engine.resolution_ns());
    // The scale rests on a few fresh samples: their uncertainty is the
    // row's too, and its rounds (scaled by one factor, they would pair as
    // if it were exact) are not written, so kopt compares it by its median
    // with this noise.
    primary.m_stats.m_noise =
        std::hypot(primary.m_stats.m_noise, compute_stats(m_fresh_ns[i], m_engine.resolution_ns()).m_noise);
    m_out[i].m_measurement.m_flags.emplace_back("timed_on_fresh_inputs");
  }
}

std::vector<impl_outcome> shape_run::run() {
  shape_phases phases;
  // Adds the wall time since the last call to `phase`.
  lap_clock clock;
  const auto lap = [&](double& phase) { phase += clock.lap(); };
  const std::optional<std::string> prepared = failure_of([&] {
    for (std::size_t k = 0; k < k_input_sets; ++k) {
      m_contents.push_back(make_content(bench_seed(m_spec, k)));
      m_sets.push_back(std::make_unique<guarded_tensors>(m_spec, m_shape, m_device));
      m_sets.back()->load(m_contents.back().m_tensors);
    }
    m_device.synchronize("uploading the inputs of " + m_shape.m_text);
  });
  lap(phases.m_inputs_s);
  if (prepared) {
    fail_all("preparing inputs: " + *prepared);
    for (impl_outcome& o : m_out) {
      output_check_summary& check = o.m_output_check.emplace();
      check.m_status = "fail";
      check.m_detail = *o.m_error;
      o.m_phases = phases;
    }
    return m_out;
  }
  if (m_spec.m_backend == backend_kind::host) m_hooks = snapshot_hooks();
  check_all("before timing");
  lap(phases.m_checks_s);
  sample_all();
  lap(phases.m_timing_s);
  check_all("after the timed calls");
  lap(phases.m_checks_s);
  fresh_content_check();
  time_as_on_fresh_inputs();
  lap(phases.m_fresh_inputs_s);

  for (std::size_t i = 0; i < m_impls.size(); ++i) {
    impl_outcome& o = m_out[i];
    o.m_phases = phases;
    output_check_summary& check = o.m_output_check.emplace();
    if (!m_spec.m_reference) {
      check.m_status = "unavailable";
      check.m_reason = "the kernel declares no REFERENCE";
    } else {
      check.m_status = o.m_error ? "fail" : "pass";
      check.m_checked_launches = static_cast<std::int64_t>(m_checks[i]);
      check.m_input_sets = static_cast<std::int64_t>(k_input_sets);
      if (i < m_fresh_ns.size()) check.m_fresh_samples_ns = m_fresh_ns[i];
      check.m_detail = o.m_error;
    }
    const bool scaled = i < m_fresh_scale.size() && m_fresh_scale[i];
    if (!o.m_error && !scaled && m_sampled_index[i] != static_cast<std::size_t>(-1)) {
      std::vector<std::string> names;
      for (std::size_t k = 0; k < m_impls.size(); ++k) {
        if (m_sampled_index[k] != static_cast<std::size_t>(-1)) names.push_back(m_impls[k]->m_name);
      }
      interleaved_rounds& rounds = o.m_rounds.emplace();
      rounds.m_block = static_cast<std::int64_t>(m_sampled.m_blocks[m_sampled_index[i]]);
      rounds.m_count = static_cast<std::int64_t>(m_sampled.m_rounds);
      rounds.m_window = names;
      rounds.m_medians_ns = m_sampled.m_round_medians[m_sampled_index[i]];
    }
  }
  return m_out;
}

}  // namespace

std::string fresh_content_verdict(const std::vector<double>& fresh_ns, const sample_stats& repeated,
                                  const std::vector<double>& seen_ns) {
  if (fresh_ns.empty() || !(repeated.m_median > 0)) return {};
  const double fastest = *std::min_element(fresh_ns.begin(), fresh_ns.end());
  double allowed = std::max(repeated.m_median * k_fresh_median_factor, repeated.m_p90 * k_fresh_p90_factor);
  std::string seen_text;
  if (!seen_ns.empty()) {
    std::vector<double> seen = seen_ns;
    std::nth_element(seen.begin(), seen.begin() + static_cast<std::ptrdiff_t>(seen.size() / 2), seen.end());
    const double seen_median = seen[seen.size() / 2];
    allowed = std::max(allowed, seen_median * k_fresh_median_factor);
    seen_text = ", " + number_text(k_fresh_median_factor) + "x the median of " + number_text(seen_median * 1e-3) +
                " us on a seen input set just before";
  }
  if (fastest <= allowed) return {};
  return "content_cached: on inputs it had not seen, every sample took at least " + number_text(fastest * 1e-3) +
         " us, " + number_text(fastest / repeated.m_median) + "x the median of " +
         number_text(repeated.m_median * 1e-3) + " us on the repeated input sets (allowed: " +
         number_text(allowed * 1e-3) + " us, max(" + number_text(k_fresh_median_factor) + "x the median, " +
         number_text(k_fresh_p90_factor) + "x p90" + seen_text + ")): results are being reused instead of computed";
}

std::optional<double> fresh_content_scale(const std::vector<double>& fresh_ns, const sample_stats& repeated,
                                         const std::vector<double>& seen_ns) {
  if (fresh_ns.empty() || !(repeated.m_median > 0) || !(repeated.m_min > 0)) return std::nullopt;
  const double fastest = *std::min_element(fresh_ns.begin(), fresh_ns.end());
  const double seen = seen_ns.empty() ? 0.0 : *std::min_element(seen_ns.begin(), seen_ns.end());
  if (!(fastest > k_fresh_median_factor * std::max(repeated.m_median, seen))) return std::nullopt;
  return fastest / repeated.m_min;
}

std::vector<impl_outcome> measure_shape(const kernel_spec& spec, const shape_spec& shape,
                                        const std::vector<const impl_spec*>& impls, backend& device, backend& host,
                                        timing_engine& engine) {
  shape_run run(spec, shape, impls, device, host, engine);
  return run.run();
}

}  // namespace kopt::bench
