#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "kopt/scale/shard/shard_run.hpp"

namespace kopt::scale {
namespace {

// A shard on a GPU machine: its device is the GPU.
const std::pair<std::string, std::string> k_gpu_shard = {"NVIDIA H200", "GPU-3b827bd6"};

TEST(UnitDevice, AHostKernelRunsOnTheHostCpuEvenOnAGpuMachine) {
  // A host-backend unit without results (a point that did not compile)
  // must fall in the same device group as its kernel's other units.
  const auto [model, uuid] = unit_device("host", k_gpu_shard);
  EXPECT_EQ(model, host_cpu_model());
  EXPECT_EQ(model.rfind("host CPU: ", 0), 0U) << model;
  EXPECT_EQ(uuid, "none");
}

TEST(UnitDevice, ACudaKernelRunsOnTheShardsDevice) {
  EXPECT_EQ(unit_device("cuda", k_gpu_shard), k_gpu_shard);
}

TEST(UnitDevice, AHostKernelOnACpuMachineIsTheShardsDevice) {
  const std::pair<std::string, std::string> cpu_shard = {host_cpu_model(), "none"};
  EXPECT_EQ(unit_device("host", cpu_shard), cpu_shard);
}

}  // namespace
}  // namespace kopt::scale
