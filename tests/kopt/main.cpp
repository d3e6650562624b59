#include <gtest/gtest.h>

#include "test_support.hpp"

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  ::testing::AddGlobalTestEnvironment(new kopt::test::fixed_time_environment);
  return RUN_ALL_TESTS();
}
