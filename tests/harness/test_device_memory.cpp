// Every device allocation of a trial or a benchmark row is owned (RAII):
// whatever fails — the variant throws, its output check fails, the reference
// throws, an allocation itself fails — the memory is released before the
// next trial or shape starts. Counted on the host backend behind a wrapper
// that sees every allocate and release.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/session.hpp"
#include "harness/backend.hpp"
#include "harness/trial.hpp"

namespace kopt {
namespace {

// The host backend, with a count of live allocations and, optionally, the
// n-th allocation failing as cudaMalloc does when memory runs out.
class counting_backend final : public backend {
 public:
  [[nodiscard]] backend_kind kind() const override { return backend_kind::host; }
  [[nodiscard]] std::string unavailable_reason() override { return {}; }
  [[nodiscard]] std::string device_name() override { return "counting host"; }
  [[nodiscard]] int device_index() const override { return -1; }
  [[nodiscard]] std::optional<gpu_info> identity() override { return std::nullopt; }
  std::optional<gpu_claim_info> claim(bool) override { return std::nullopt; }

  [[nodiscard]] void* allocate(std::size_t bytes) override {
    ++m_allocations;
    if (m_allocations == m_fail_at) throw device_error("allocating " + std::to_string(bytes) + " bytes: out of memory");
    void* pointer = m_host->allocate(bytes);
    m_live.insert(pointer);
    m_peak = std::max(m_peak, m_live.size());
    return pointer;
  }
  void release(void* pointer) noexcept override {
    if (m_live.erase(pointer) == 0) ++m_unknown_releases;
    m_host->release(pointer);
  }
  void copy_to_device(void* dst, const void* src, std::size_t bytes) override { m_host->copy_to_device(dst, src, bytes); }
  void copy_to_host(void* dst, const void* src, std::size_t bytes) override { m_host->copy_to_host(dst, src, bytes); }
  [[nodiscard]] void* stream() override { return nullptr; }
  void synchronize(const std::string&) override {}

  [[nodiscard]] std::size_t live() const { return m_live.size(); }
  [[nodiscard]] std::size_t peak() const { return m_peak; }
  [[nodiscard]] std::size_t allocations() const { return m_allocations; }
  [[nodiscard]] std::size_t unknown_releases() const { return m_unknown_releases; }
  void fail_at(std::size_t n) { m_fail_at = n; }  // 0: never

 private:
  std::unique_ptr<backend> m_host = make_host_backend();
  std::set<void*> m_live;
  std::size_t m_peak = 0;
  std::size_t m_allocations = 0;
  std::size_t m_fail_at = 0;
  std::size_t m_unknown_releases = 0;
};

// y = 2x, and ways to get it wrong.
template <typename F>
void scale(void* const* buffers, const std::int64_t* dims, F&& f) {
  const auto* x = static_cast<const float*>(buffers[0]);
  auto* y = static_cast<float*>(buffers[1]);
  for (std::int64_t i = 0; i < dims[0]; ++i) y[i] = f(i, x[i]);
}
void good(void* const* b, const std::int64_t* d, void*) {
  scale(b, d, [](std::int64_t, float x) { return 2 * x; });
}
void wrong(void* const* b, const std::int64_t* d, void*) {
  scale(b, d, [](std::int64_t i, float x) { return i == 7 ? 2 * x + 1 : 2 * x; });
}
void throws(void* const*, const std::int64_t*, void*) { throw 42; }
void reference(void* const* b, const std::int64_t* d, void*) {
  const auto* x = static_cast<const double*>(b[0]);
  auto* y = static_cast<double*>(b[1]);
  for (std::int64_t i = 0; i < d[0]; ++i) y[i] = 2 * x[i];
}
void reference_throws(void* const*, const std::int64_t*, void*) { throw std::runtime_error("reference broke"); }

// An implementation called in this process (no module to load).
impl_spec host_impl(const char* name, impl_role role, bool f64, invoke_fn invoke) {
  impl_spec impl;
  impl.m_name = name;
  impl.m_entry = name;
  impl.m_role = role;
  impl.m_backend = backend_kind::host;
  impl.m_f64 = f64;
  impl.m_invoke = invoke;
  return impl;
}

kernel_spec scale_spec(invoke_fn reference_fn = &reference) {
  kernel_spec spec;
  spec.m_name = "scale";
  spec.m_backend = backend_kind::host;
  spec.m_dims = {"n"};
  spec.m_args.push_back({"x", arg_dir::in, dtype::f32, {"n"}, {}});
  spec.m_args.push_back({"y", arg_dir::out, dtype::f32, {"n"}, {}});
  spec.m_shapes = {{"n=1000", {1000}}, {"n=333", {333}}};
  spec.m_seeds = {1};
  spec.m_timing = timing_spec{3, 0.0, 1.0, 1.0, 1};
  spec.m_variants = {host_impl("good", impl_role::variant, false, &good),
                     host_impl("wrong", impl_role::variant, false, &wrong),
                     host_impl("throws", impl_role::variant, false, &throws)};
  spec.m_reference = host_impl("reference", impl_role::reference, true, reference_fn);
  return spec;
}

// Samples without a clock: a constant time per call.
class fake_engine final : public bench::timing_engine {
 public:
  [[nodiscard]] engine_timing timing_fields() const override { return {}; }
  [[nodiscard]] double resolution_ns() const override { return 1.0; }
  void warm(const bench::launch_fn& launch) override { launch(); }
  [[nodiscard]] double sample_ns(const bench::launch_fn& launch) override {
    launch();
    return 1000.0;
  }
  void second_clock(const bench::launch_fn&, const bench::sampler_settings&, bench::measurement&) override {}
  void profile(const bench::launch_fn& launch, std::size_t) override { launch(); }
};

TEST(device_memory, a_failing_trial_releases_every_buffer_before_the_next) {
  const kernel_spec spec = scale_spec();
  counting_backend device;
  counting_backend host;
  for (const impl_spec& variant : spec.m_variants) {
    for (const shape_spec& shape : spec.m_shapes) {
      const trial_result trial = run_trial(spec, variant, shape, 1, device, host);
      EXPECT_EQ(trial.passed(), variant.m_name == "good") << variant.m_name << ": " << trial.diagnosis();
      EXPECT_EQ(device.live(), 0u) << variant.m_name << " on " << shape.m_text;
      EXPECT_EQ(host.live(), 0u) << variant.m_name << " on " << shape.m_text;
    }
  }
  EXPECT_GT(device.allocations(), 0u);
  // An f64 host reference works on the harness's own staging (guarded.hpp):
  // no buffer of the host backend, no upload, no download.
  EXPECT_EQ(host.allocations(), 0u);
  EXPECT_EQ(device.unknown_releases() + host.unknown_releases(), 0u);
}

TEST(device_memory, a_trial_whose_reference_throws_releases_its_buffers) {
  const kernel_spec spec = scale_spec(&reference_throws);
  counting_backend device;
  counting_backend host;
  const trial_result trial = run_trial(spec, spec.m_variants[0], spec.m_shapes[0], 1, device, host);
  ASSERT_TRUE(trial.m_error.has_value());
  EXPECT_NE(trial.m_error->find("reference broke"), std::string::npos) << *trial.m_error;
  EXPECT_EQ(host.live(), 0u);
  EXPECT_EQ(device.live(), 0u);
}

// Each allocation of a trial in turn fails: the trial reports it and
// releases what was already allocated.
TEST(device_memory, a_failed_allocation_releases_the_ones_before_it) {
  const kernel_spec spec = scale_spec();
  counting_backend probe_device;
  counting_backend probe_host;
  (void)run_trial(spec, spec.m_variants[0], spec.m_shapes[0], 1, probe_device, probe_host);
  for (std::size_t n = 1; n <= probe_device.allocations(); ++n) {
    counting_backend device;
    counting_backend host;
    device.fail_at(n);
    const trial_result trial = run_trial(spec, spec.m_variants[0], spec.m_shapes[0], 1, device, host);
    ASSERT_TRUE(trial.m_error.has_value()) << "allocation " << n;
    EXPECT_NE(trial.m_error->find("out of memory"), std::string::npos) << *trial.m_error;
    EXPECT_EQ(device.live(), 0u) << "allocation " << n;
    EXPECT_EQ(host.live(), 0u) << "allocation " << n;
  }
  for (std::size_t n = 1; n <= probe_host.allocations(); ++n) {
    counting_backend device;
    counting_backend host;
    host.fail_at(n);
    const trial_result trial = run_trial(spec, spec.m_variants[0], spec.m_shapes[0], 1, device, host);
    ASSERT_TRUE(trial.m_error.has_value()) << "host allocation " << n;
    EXPECT_EQ(device.live(), 0u) << "host allocation " << n;
    EXPECT_EQ(host.live(), 0u) << "host allocation " << n;
  }
}

// One shape's rows: the failing rows (wrong values, a throw) do not keep
// their buffers, and the next shape starts from nothing.
TEST(device_memory, failing_benchmark_rows_release_their_buffers_before_the_next_shape) {
  const kernel_spec spec = scale_spec();
  std::vector<const impl_spec*> impls;
  for (const impl_spec& v : spec.m_variants) impls.push_back(&v);
  counting_backend device;
  counting_backend host;
  fake_engine engine;
  std::size_t first_peak = 0;
  for (const shape_spec& shape : spec.m_shapes) {
    const std::vector<bench::impl_outcome> rows = bench::measure_shape(spec, shape, impls, device, host, engine);
    ASSERT_EQ(rows.size(), 3u);
    EXPECT_FALSE(rows[0].m_error.has_value()) << *rows[0].m_error;
    ASSERT_TRUE(rows[1].m_error.has_value());
    EXPECT_NE(rows[1].m_error->find("mismatch"), std::string::npos) << *rows[1].m_error;
    ASSERT_TRUE(rows[2].m_error.has_value());
    EXPECT_NE(rows[2].m_error->find("not derived from std::exception"), std::string::npos) << *rows[2].m_error;
    EXPECT_EQ(device.live(), 0u) << shape.m_text;
    EXPECT_EQ(host.live(), 0u) << shape.m_text;
    if (first_peak == 0) first_peak = device.peak();
  }
  EXPECT_EQ(device.peak(), first_peak);  // the second shape (smaller) never held more
  EXPECT_EQ(device.unknown_releases() + host.unknown_releases(), 0u);
}

TEST(device_memory, a_failed_allocation_while_preparing_a_shape_fails_its_rows_and_releases_the_rest) {
  const kernel_spec spec = scale_spec();
  std::vector<const impl_spec*> impls = {&spec.m_variants[0]};
  counting_backend probe;
  counting_backend probe_host;
  fake_engine engine;
  (void)bench::measure_shape(spec, spec.m_shapes[0], impls, probe, probe_host, engine);
  for (std::size_t n = 1; n <= probe.allocations(); ++n) {
    counting_backend device;
    counting_backend host;
    device.fail_at(n);
    const std::vector<bench::impl_outcome> rows =
        bench::measure_shape(spec, spec.m_shapes[0], impls, device, host, engine);
    ASSERT_TRUE(rows[0].m_error.has_value()) << "allocation " << n;
    EXPECT_NE(rows[0].m_error->find("out of memory"), std::string::npos) << *rows[0].m_error;
    EXPECT_EQ(device.live(), 0u) << "allocation " << n;
    EXPECT_EQ(host.live(), 0u) << "allocation " << n;
  }
}

}  // namespace
}  // namespace kopt
