// A shape parsed once (core/shape.hpp): its text kept as declared, its
// dimensions in order for expressions.
#include <gtest/gtest.h>

#include "core/shape.hpp"

namespace kopt {
namespace {

TEST(shape, parsed_once_into_text_and_ordered_dims) {
  const shape s = shape::parse("M=4096,N=1024,K=64");
  EXPECT_EQ(s.text(), "M=4096,N=1024,K=64");
  ASSERT_EQ(s.dims().size(), 3u);
  EXPECT_EQ(s.dims()[0], (std::pair<std::string, double>("M", 4096)));
  EXPECT_EQ(s.dims()[2].first, "K");
  EXPECT_EQ(s.values(), (std::map<std::string, double>{{"K", 64}, {"M", 4096}, {"N", 1024}}));
  EXPECT_TRUE(s == std::string("M=4096,N=1024,K=64"));
  EXPECT_TRUE(s != shape::parse("M=4096,N=1024"));
}

TEST(shape, parts_that_are_not_name_equals_number_are_left_out) {
  const shape s = shape::parse("rows=8,cols=x,=3,depth,width=inf,n=2.5");
  EXPECT_EQ(s.values(), (std::map<std::string, double>{{"", 3}, {"n", 2.5}, {"rows", 8}}));
  EXPECT_EQ(s.text(), "rows=8,cols=x,=3,depth,width=inf,n=2.5");
}

}  // namespace
}  // namespace kopt
