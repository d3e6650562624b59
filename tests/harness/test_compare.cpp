#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "core/dtype.hpp"
#include "harness/compare.hpp"
#include "harness/guarded.hpp"

namespace {

// A guarded f32 buffer as the harness lays it out on the device.
struct guarded {
  explicit guarded(std::size_t n) : m_bytes(n * 4 + 2 * kopt::k_guard_bytes, kopt::k_canary_byte) {}
  float* data() { return reinterpret_cast<float*>(m_bytes.data() + kopt::k_guard_bytes); }
  std::vector<unsigned char> m_bytes;
};

kopt::arg_spec out_f32() {
  kopt::arg_spec arg;
  arg.m_name = "y";
  arg.m_dir = kopt::arg_dir::out;
  arg.m_dtype = kopt::dtype::f32;
  return arg;
}

TEST(compare, allclose_semantics_and_rel_l2) {
  guarded g(4);
  const std::vector<double> expected{1.0, -2.0, 100.0, 0.0};
  for (int i = 0; i < 4; ++i) g.data()[i] = static_cast<float>(expected[static_cast<std::size_t>(i)]);
  g.data()[2] = 100.0f + 0.009f;  // within atol + rtol*|ref| = 1e-4 + 1e-2
  const kopt::tolerance_spec tol = kopt::default_tolerance(kopt::dtype::f32);
  const kopt::output_check c = kopt::compare_output(out_f32(), tol, g.m_bytes.data(), 4, expected.data(), {4}, true);
  EXPECT_TRUE(c.passed()) << c.diagnosis();
  EXPECT_NEAR(c.m_max_abs, 0.009, 1e-5);
  EXPECT_GT(c.m_rel_l2, 0.0);
}

TEST(compare, nan_never_passes_and_first_mismatch_is_reported) {
  guarded g(6);
  const std::vector<double> expected(6, 1.0);
  for (int i = 0; i < 6; ++i) g.data()[i] = 1.0f;
  g.data()[4] = std::nanf("");
  const kopt::output_check c = kopt::compare_output(out_f32(), kopt::default_tolerance(kopt::dtype::f32),
                                                    g.m_bytes.data(), 6, expected.data(), {2, 3}, true);
  EXPECT_FALSE(c.passed());
  EXPECT_EQ(c.m_nonfinite, 1u);
  ASSERT_TRUE(c.m_first_mismatch);
  EXPECT_EQ(c.m_first_mismatch->m_index, (std::vector<std::int64_t>{1, 1}));
}

TEST(compare, poison_left_behind_is_reported_as_unwritten) {
  guarded g(8);
  kopt::poison(kopt::dtype::f32, g.data(), 8);
  for (int i = 0; i < 5; ++i) g.data()[i] = 1.0f;
  const std::vector<double> expected(8, 1.0);
  const kopt::output_check c = kopt::compare_output(out_f32(), kopt::default_tolerance(kopt::dtype::f32),
                                                    g.m_bytes.data(), 8, expected.data(), {8}, true);
  EXPECT_EQ(c.m_unwritten, 3u);
  EXPECT_NE(c.diagnosis().find("3 elements never written"), std::string::npos) << c.diagnosis();
}

// Every element type through the same comparison (f64, f32 and bf16 have
// their own inlined loads; the others the generic one): one element left
// poisoned, one wrong by 3, the rest exact.
TEST(compare, every_dtype_finds_the_unwritten_and_the_wrong_element) {
  for (const kopt::dtype t : {kopt::dtype::f64, kopt::dtype::f32, kopt::dtype::f16, kopt::dtype::bf16,
                              kopt::dtype::i32, kopt::dtype::i64, kopt::dtype::u8}) {
    constexpr std::size_t n = 6;
    const std::size_t size = kopt::size_of(t);
    std::vector<unsigned char> bytes(n * size + 2 * kopt::k_guard_bytes, kopt::k_canary_byte);
    unsigned char* data = bytes.data() + kopt::k_guard_bytes;
    const std::vector<double> expected{1, 2, 4, 8, 16, 32};
    for (std::size_t i = 0; i < n; ++i) kopt::store_element(t, data, i, expected[i] + (i == 3 ? 3 : 0));
    kopt::poison(t, data + size, 1);
    kopt::arg_spec arg = out_f32();
    arg.m_dtype = t;
    const kopt::output_check c =
        kopt::compare_output(arg, kopt::default_tolerance(t), bytes.data(), n, expected.data(), {2, 3}, true);
    const std::string type = kopt::to_string(t);
    EXPECT_EQ(c.m_unwritten, 1u) << type;
    EXPECT_EQ(c.m_mismatches, 2u) << type;
    EXPECT_EQ(c.m_nonfinite, 0u) << type;
    ASSERT_TRUE(c.m_first_unwritten) << type;
    EXPECT_EQ(c.m_first_unwritten->m_flat, 1u) << type;
    ASSERT_TRUE(c.m_first_mismatch) << type;
    EXPECT_EQ(c.m_first_mismatch->m_index, (std::vector<std::int64_t>{1, 0})) << type;
    EXPECT_EQ(c.m_first_mismatch->m_got, 11.0) << type;
    EXPECT_EQ(c.m_max_abs, 3.0) << type;
    EXPECT_FALSE(c.passed()) << type;
  }
}

TEST(compare, guard_overwrites_are_caught_on_both_sides) {
  guarded after(4);
  const std::vector<double> expected(4, 2.0);
  for (int i = 0; i < 5; ++i) after.data()[i] = 2.0f;  // one past the end
  auto c = kopt::compare_output(out_f32(), kopt::default_tolerance(kopt::dtype::f32), after.m_bytes.data(), 4,
                                expected.data(), {4}, true);
  EXPECT_EQ(c.m_canary, "overwritten after output (0 bytes past its end)");
  EXPECT_FALSE(c.passed());

  guarded before(4);
  for (int i = -1; i < 4; ++i) before.data()[i] = 2.0f;  // one before the start
  c = kopt::compare_output(out_f32(), kopt::default_tolerance(kopt::dtype::f32), before.m_bytes.data(), 4,
                           expected.data(), {4}, true);
  EXPECT_EQ(c.m_canary, "overwritten before output (4 bytes before its start)");
}

TEST(compare, max_rel_l2_bound_fails_a_uniformly_degraded_result) {
  guarded g(100);
  std::vector<double> expected(100);
  for (int i = 0; i < 100; ++i) {
    expected[static_cast<std::size_t>(i)] = 1.0 + i;
    g.data()[i] = static_cast<float>((1.0 + i) * (1 + 5e-5));  // within rtol everywhere
  }
  kopt::tolerance_spec tol{1e-4, 0, 1e-5, "TOLERANCE"};
  const auto c = kopt::compare_output(out_f32(), tol, g.m_bytes.data(), 100, expected.data(), {100}, true);
  EXPECT_EQ(c.m_mismatches, 0u);
  EXPECT_FALSE(c.passed());
  EXPECT_NE(c.diagnosis().find("exceeds MAX_REL_L2"), std::string::npos);
}

}  // namespace

namespace {

// The tolerance tolerance_for gives an f32 output without a declared
// MAX_REL_L2: the default per dtype, marked as such.
kopt::tolerance_spec f32_with_default_l2() {
  kopt::tolerance_spec tol = kopt::default_tolerance(kopt::dtype::f32);
  tol.m_max_rel_l2 = kopt::default_max_rel_l2(kopt::dtype::f32);
  tol.m_max_rel_l2_default = true;
  return tol;
}

// Softmax over 32000 columns: every value ~3e-5, below the f32 ATOL of 1e-4.
std::vector<double> small_outputs(std::size_t n) {
  std::vector<double> expected(n);
  for (std::size_t i = 0; i < n; ++i) expected[i] = (1.0 + 0.5 * std::sin(static_cast<double>(i))) / 32000.0;
  return expected;
}

}  // namespace

// Zeros where every reference value is below ATOL pass elementwise; the
// default bound on the relative L2 error fails them and says why.
TEST(compare, zeros_below_atol_fail_the_default_rel_l2_bound) {
  const std::size_t n = 256;
  guarded g(n);
  const std::vector<double> expected = small_outputs(n);
  for (std::size_t i = 0; i < n; ++i) g.data()[i] = 0.0f;
  const kopt::output_check c =
      kopt::compare_output(out_f32(), f32_with_default_l2(), g.m_bytes.data(), n, expected.data(), {256}, true);
  EXPECT_EQ(c.m_mismatches, 0u);
  EXPECT_FALSE(c.passed());
  EXPECT_NE(c.diagnosis().find("rel-L2 1 exceeds MAX_REL_L2 0.01 (the default for f32 where TOLERANCE sets none"),
            std::string::npos)
      << c.diagnosis();
  // The same output close to the reference passes.
  for (std::size_t i = 0; i < n; ++i) g.data()[i] = static_cast<float>(expected[i]);
  EXPECT_TRUE(kopt::compare_output(out_f32(), f32_with_default_l2(), g.m_bytes.data(), n, expected.data(), {256}, true)
                  .passed());
}

// An all-zero reference has no norm to relate the error to: ATOL alone
// decides, as before (the default bound does not apply; a declared one does).
TEST(compare, the_default_rel_l2_bound_does_not_apply_to_an_all_zero_reference) {
  const std::size_t n = 100000;
  guarded g(n);
  const std::vector<double> expected(n, 0.0);
  for (std::size_t i = 0; i < n; ++i) g.data()[i] = 5e-5f;  // within ATOL; absolute L2 ~0.016
  EXPECT_TRUE(kopt::compare_output(out_f32(), f32_with_default_l2(), g.m_bytes.data(), n, expected.data(), {100000}, true)
                  .passed());
  kopt::tolerance_spec declared = kopt::default_tolerance(kopt::dtype::f32);
  declared.m_max_rel_l2 = 1e-2;
  EXPECT_FALSE(kopt::compare_output(out_f32(), declared, g.m_bytes.data(), n, expected.data(), {100000}, true).passed());
}

// tolerance_for: the default bound per floating dtype unless TOLERANCE
// declares MAX_REL_L2; none for integers (exact anyway).
TEST(compare, tolerance_for_adds_the_default_rel_l2_bound_unless_declared) {
  kopt::kernel_spec spec;
  kopt::arg_spec y = out_f32();
  const kopt::tolerance_spec f32 = kopt::tolerance_for(spec, y);
  ASSERT_TRUE(f32.m_max_rel_l2);
  EXPECT_EQ(*f32.m_max_rel_l2, 1e-2);
  EXPECT_TRUE(f32.m_max_rel_l2_default);
  y.m_dtype = kopt::dtype::bf16;
  EXPECT_EQ(*kopt::tolerance_for(spec, y).m_max_rel_l2, 1e-1);
  y.m_dtype = kopt::dtype::i32;
  EXPECT_FALSE(kopt::tolerance_for(spec, y).m_max_rel_l2);
  kopt::tolerance_spec declared;
  declared.m_rtol = 1e-3;
  declared.m_atol = 1e-2;
  spec.m_tolerance = declared;
  y.m_dtype = kopt::dtype::f32;
  EXPECT_EQ(*kopt::tolerance_for(spec, y).m_max_rel_l2, 1e-2);  // declared without MAX_REL_L2
  declared.m_max_rel_l2 = 0.5;
  spec.m_tolerance = declared;
  const kopt::tolerance_spec chosen = kopt::tolerance_for(spec, y);
  EXPECT_EQ(*chosen.m_max_rel_l2, 0.5);
  EXPECT_FALSE(chosen.m_max_rel_l2_default);
}
