// Tensor sizes computed from the DIMS never overflow: a size the harness
// cannot hold is an error naming the argument and the shape, raised before
// anything is allocated. Likewise an input fill whose values the tensor's
// dtype cannot hold.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <utility>

#include "harness/inputs.hpp"

namespace kopt {
namespace {

kernel_spec one_tensor(dtype type, std::vector<std::string> axes, std::int64_t n) {
  kernel_spec spec;
  spec.m_name = "k";
  spec.m_dims = {"n"};
  spec.m_args.push_back({"A", arg_dir::in, type, std::move(axes), {}});
  spec.m_shapes.push_back({"n=" + std::to_string(n), {n}});
  return spec;
}

void expect_refused(const kernel_spec& spec, const std::string& message) {
  try {
    (void)element_count(spec, spec.m_args[0], spec.m_shapes[0]);
    FAIL() << "no error; expected: " << message;
  } catch (const std::runtime_error& error) {
    const std::string what = error.what();
    EXPECT_NE(what.find("argument 'A'"), std::string::npos) << what;
    EXPECT_NE(what.find(message), std::string::npos) << what;
  }
}

TEST(inputs, element_count_is_the_product_of_the_axes) {
  const kernel_spec spec = one_tensor(dtype::f32, {"n", "2*n", "ceil_div(n,3)"}, 10);
  EXPECT_EQ(element_count(spec, spec.m_args[0], spec.m_shapes[0]), 10u * 20u * 4u);
}

TEST(inputs, an_axis_beyond_int64_is_refused) {
  expect_refused(one_tensor(dtype::f32, {"n*99999999999999999"}, 1000), "below 2^63");
}

TEST(inputs, a_product_overflowing_int64_is_refused) {
  expect_refused(one_tensor(dtype::u8, {"n", "n", "n"}, std::int64_t{1} << 22), "overflows int64");
}

TEST(inputs, a_tensor_above_2_to_the_48_bytes_is_refused) {
  expect_refused(one_tensor(dtype::f64, {"n", "n"}, std::int64_t{1} << 23), "2^48");
  const kernel_spec fits = one_tensor(dtype::u8, {"n", "n"}, std::int64_t{1} << 24);
  EXPECT_EQ(element_count(fits, fits.m_args[0], fits.m_shapes[0]), std::size_t{1} << 48);
}

TEST(inputs, negative_fractional_and_infinite_axes_are_refused) {
  expect_refused(one_tensor(dtype::f32, {"n-20"}, 10), "non-negative integer");
  expect_refused(one_tensor(dtype::f32, {"n/3"}, 10), "non-negative integer");
  expect_refused(one_tensor(dtype::f32, {"10^400*n"}, 10), "non-negative integer");
}

// An INIT whose values the dtype cannot hold (bounds the configure could
// not evaluate exactly, e.g. with sqrt) is refused before anything is drawn.
void expect_fill(dtype type, init_spec init, std::int64_t n, const std::string& refusal) {
  kernel_spec spec = one_tensor(type, {"n"}, n);
  spec.m_args[0].m_init = std::move(init);
  if (refusal.empty()) {
    EXPECT_NO_THROW((void)make_inputs(spec, spec.m_shapes[0], 1));
    return;
  }
  try {
    (void)make_inputs(spec, spec.m_shapes[0], 1);
    FAIL() << "no error; expected: " << refusal;
  } catch (const std::runtime_error& error) {
    const std::string what = error.what();
    EXPECT_NE(what.find("argument 'A'"), std::string::npos) << what;
    EXPECT_NE(what.find(refusal), std::string::npos) << what;
  }
}

TEST(inputs, fills_beyond_the_dtype_are_refused) {
  using kind = init_spec::kind;
  expect_fill(dtype::u8, {kind::randint, "0", "n"}, 1000, "beyond u8");
  expect_fill(dtype::u8, {kind::randint, "-1", "2"}, 10, "beyond u8");
  expect_fill(dtype::i32, {kind::randint, "0", "2^31+1"}, 10, "beyond i32");
  expect_fill(dtype::f16, {kind::uniform, "0", "sqrt(n)*1000"}, 10000, "beyond f16");
  expect_fill(dtype::f16, {kind::normal, "0", "8000"}, 10, "beyond f16");
  expect_fill(dtype::f32, {kind::uniform, "-1e39", "1"}, 10, "beyond f32");
}

TEST(inputs, fills_within_the_dtype_are_drawn) {
  using kind = init_spec::kind;
  expect_fill(dtype::u8, {kind::randint, "0", "256"}, 1000, "");
  expect_fill(dtype::i32, {kind::randint, "-2^31", "2^31"}, 10, "");
  expect_fill(dtype::f16, {kind::uniform, "-65504", "65504"}, 10, "");
  expect_fill(dtype::f16, {kind::normal, "0", "sqrt(n)*10"}, 10000, "");
  expect_fill(dtype::f32, {kind::normal, "0", "1e30"}, 10, "");
}

}  // namespace
}  // namespace kopt
