// core/option_values.hpp: `--name=` with nothing after the '=' is refused
// before CLI11 could take the next argument as its value.
#include <gtest/gtest.h>

#include "core/option_values.hpp"

namespace kopt {
namespace {

TEST(option_values, an_empty_assignment_is_named) {
  EXPECT_EQ(empty_value_error({"--kopt_results=", "--gtest_list_tests"}, "--kopt_"),
            "--kopt_results needs a non-empty value");
  EXPECT_EQ(empty_value_error({"record", "--json", "--manifest=", "--json"}, "--"),
            "--manifest needs a non-empty value");
  // The first one, when there are several.
  EXPECT_EQ(empty_value_error({"--kopt_a=1", "--kopt_b=", "--kopt_c="}, "--kopt_"), "--kopt_b needs a non-empty value");
}

TEST(option_values, values_and_other_options_pass) {
  EXPECT_EQ(empty_value_error({"--kopt_results=r.json", "--kopt_quick", "--kopt_x=a=b"}, "--kopt_"), std::nullopt);
  // Another tool's options are that tool's business.
  EXPECT_EQ(empty_value_error({"--benchmark_out=", "--gtest_filter="}, "--kopt_"), std::nullopt);
  // A value that ends in '=' is a value; a bare prefix or "--=" names nothing.
  EXPECT_EQ(empty_value_error({"--kopt_x=a=", "--kopt_", "--="}, "--"), std::nullopt);
  EXPECT_EQ(empty_value_error({}, "--"), std::nullopt);
}

}  // namespace
}  // namespace kopt
