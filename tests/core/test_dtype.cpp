#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/dtype.hpp"

namespace {

TEST(dtype, names_round_trip) {
  for (const kopt::dtype t : {kopt::dtype::f64, kopt::dtype::f32, kopt::dtype::f16, kopt::dtype::bf16,
                              kopt::dtype::i32, kopt::dtype::i64, kopt::dtype::u8}) {
    kopt::dtype parsed{};
    ASSERT_TRUE(kopt::parse_dtype(kopt::to_string(t), parsed));
    EXPECT_EQ(parsed, t);
  }
  kopt::dtype unused{};
  EXPECT_FALSE(kopt::parse_dtype("fp8", unused));
}

TEST(dtype, bfloat16_rounds_to_nearest_even) {
  EXPECT_EQ(kopt::float_to_bfloat16(1.0f), 0x3F80);
  // 1 + 2^-8 is exactly between two bf16 values: ties go to even (1.0).
  EXPECT_EQ(kopt::float_to_bfloat16(1.0f + 0x1.0p-8f), 0x3F80);
  // 1 + 3*2^-8 ties to the even neighbour above.
  EXPECT_EQ(kopt::float_to_bfloat16(1.0f + 3 * 0x1.0p-8f), 0x3F82);
  EXPECT_TRUE(std::isnan(kopt::bfloat16_to_float(kopt::float_to_bfloat16(std::nanf("")))));
  EXPECT_EQ(kopt::bfloat16_to_float(0xC040), -3.0f);
}

TEST(dtype, half_conversions_cover_normals_subnormals_and_overflow) {
  EXPECT_EQ(kopt::float_to_half(1.0f), 0x3C00);
  EXPECT_EQ(kopt::float_to_half(-2.0f), 0xC000);
  EXPECT_EQ(kopt::float_to_half(65504.0f), 0x7BFF);
  EXPECT_EQ(kopt::float_to_half(70000.0f), 0x7C00);
  EXPECT_EQ(kopt::float_to_half(0x1.0p-24f), 0x0001);  // smallest subnormal
  EXPECT_EQ(kopt::half_to_float(0x0001), 0x1.0p-24f);
  EXPECT_EQ(kopt::half_to_float(0x3555), 0x1.554p-2f);
  for (std::uint32_t bits = 0; bits < 0x7C00; ++bits) {  // every finite positive half
    ASSERT_EQ(kopt::float_to_half(kopt::half_to_float(static_cast<std::uint16_t>(bits))), bits);
  }
}

TEST(dtype, load_and_store_elements) {
  unsigned char buffer[16] = {};
  kopt::store_element(kopt::dtype::i32, buffer, 1, -7.0);
  EXPECT_EQ(kopt::load_element(kopt::dtype::i32, buffer, 1), -7.0);
  kopt::store_element(kopt::dtype::u8, buffer, 3, 200.0);
  EXPECT_EQ(kopt::load_element(kopt::dtype::u8, buffer, 3), 200.0);
  kopt::store_element(kopt::dtype::bf16, buffer, 0, 0.5);
  EXPECT_EQ(kopt::load_element(kopt::dtype::bf16, buffer, 0), 0.5);
}

}  // namespace
