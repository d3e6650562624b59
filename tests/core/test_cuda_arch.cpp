#include <gtest/gtest.h>

#include "core/cuda_arch.hpp"

namespace {

bool runs(const char* archs, int major, int minor) { return kopt::cuda_arch_mismatch(archs, major, minor).empty(); }

TEST(cuda_arch, sass_runs_on_its_major_at_a_later_minor) {
  EXPECT_TRUE(runs("86-real", 8, 6));
  EXPECT_TRUE(runs("86-real", 8, 9));
  EXPECT_FALSE(runs("86-real", 8, 0));
  EXPECT_FALSE(runs("80-real", 9, 0));
}

TEST(cuda_arch, ptx_is_compiled_for_later_devices) {
  EXPECT_TRUE(runs("80", 9, 0));
  EXPECT_TRUE(runs("80-virtual", 12, 0));
  EXPECT_FALSE(runs("90", 8, 9));
}

TEST(cuda_arch, arch_specific_code_runs_on_its_architecture_only) {
  EXPECT_TRUE(runs("90a", 9, 0));
  EXPECT_FALSE(runs("90a", 10, 0));
  EXPECT_FALSE(runs("90a-virtual", 10, 0));
  EXPECT_FALSE(runs("90a", 8, 0));
}

TEST(cuda_arch, family_code_runs_on_its_major) {
  EXPECT_TRUE(runs("100f", 10, 3));
  EXPECT_FALSE(runs("100f", 12, 0));
}

TEST(cuda_arch, any_entry_is_enough) {
  EXPECT_TRUE(runs("80-real;90a-real", 9, 0));
  EXPECT_TRUE(runs("80-real;90a-real", 8, 6));
  EXPECT_FALSE(runs("80-real;90a-real", 10, 0));
}

TEST(cuda_arch, unknown_runs_and_garbage_does_not) {
  EXPECT_TRUE(runs("", 7, 5));
  EXPECT_FALSE(runs("sm_90", 9, 0));
  EXPECT_FALSE(runs("90-fast", 9, 0));
}

TEST(cuda_arch, the_reason_names_architectures_and_device) {
  EXPECT_EQ(kopt::cuda_arch_mismatch("90a;100f", 8, 0),
            "built for CUDA architectures 90a 100f, which cannot run on this device (compute capability 8.0)");
}

}  // namespace
