// The per-GPU claim (cuda/gpu_claim.hpp): exclusive for timing, shared for
// correctness. flock(2) locks belong to open file descriptions, so two
// claims in one process contend exactly as two processes would.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>

#include "cuda/gpu_claim.hpp"

namespace kopt::cuda {
namespace {

class gpu_claim_test : public ::testing::Test {
 protected:
  void SetUp() override {
    m_dir = std::filesystem::temp_directory_path() / ("kopt_claim_" + std::to_string(::getpid()));
    std::filesystem::create_directories(m_dir);
    ::setenv("KOPT_GPU_LOCK_DIR", m_dir.c_str(), 1);
    m_gpu.m_index = 0;
    m_gpu.m_uuid = "GPU-00000000-test";
  }
  void TearDown() override {
    ::unsetenv("KOPT_GPU_LOCK_DIR");
    std::filesystem::remove_all(m_dir);
  }
  std::filesystem::path m_dir;
  gpu_identity m_gpu;
};

TEST_F(gpu_claim_test, lock_file_is_named_by_uuid_in_the_lock_dir) {
  EXPECT_EQ(lock_path(m_gpu), m_dir / "kernelopt-gpu-GPU-00000000-test.lock");
  gpu_identity no_uuid;
  no_uuid.m_pci_bus_id = "0000:1B:00.0";
  EXPECT_EQ(lock_path(no_uuid).filename(), "kernelopt-gpu-pci-0000_1B_00.0.lock");
}

TEST_F(gpu_claim_test, exclusive_excludes_everything) {
  std::optional<gpu_claim> timing = gpu_claim::try_claim(m_gpu, claim_mode::exclusive);
  ASSERT_TRUE(timing.has_value());
  EXPECT_FALSE(gpu_claim::try_claim(m_gpu, claim_mode::exclusive).has_value());
  EXPECT_FALSE(gpu_claim::try_claim(m_gpu, claim_mode::shared).has_value());
  gpu_identity other = m_gpu;
  other.m_uuid = "GPU-11111111-test";
  EXPECT_TRUE(gpu_claim::try_claim(other, claim_mode::exclusive).has_value());  // another GPU is free
  timing.reset();  // released with the claim
  EXPECT_TRUE(gpu_claim::try_claim(m_gpu, claim_mode::exclusive).has_value());
}

TEST_F(gpu_claim_test, shared_claims_coexist_and_keep_timing_out) {
  std::optional<gpu_claim> a = gpu_claim::try_claim(m_gpu, claim_mode::shared);
  std::optional<gpu_claim> b = gpu_claim::try_claim(m_gpu, claim_mode::shared);
  ASSERT_TRUE(a.has_value());
  ASSERT_TRUE(b.has_value());
  EXPECT_FALSE(gpu_claim::try_claim(m_gpu, claim_mode::exclusive).has_value());
  a.reset();
  b.reset();
  const gpu_claim blocking(m_gpu, claim_mode::exclusive);  // free now: returns at once
  EXPECT_LT(blocking.waited_s(), 1.0);
  EXPECT_EQ(blocking.info().m_mode, "exclusive");
  EXPECT_GT(blocking.granted_unix_ns(), 0);
}

TEST_F(gpu_claim_test, an_unwritable_lock_dir_is_an_error_naming_it) {
  ::setenv("KOPT_GPU_LOCK_DIR", "/nonexistent/kopt-locks", 1);
  try {
    const gpu_claim claim(m_gpu, claim_mode::shared);
    FAIL() << "claimed without a lock file";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/kopt-locks"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace kopt::cuda
