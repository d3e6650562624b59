// parallel_chunks honours the process's thread limit (--kopt_threads, which
// CTest gives every generated correctness test): under ctest -j, tests run
// beside each other and each may use only the processors CTest counts for it.
#include <gtest/gtest.h>

#include <chrono>
#include <mutex>
#include <set>
#include <thread>

#include "kernelopt/parallel.hpp"

namespace kopt {
namespace {

// The threads that ran 64 chunks, each long enough for every worker to start.
std::set<std::thread::id> threads_used() {
  std::mutex mutex;
  std::set<std::thread::id> ids;
  parallel_chunks(64, 1, [&](std::size_t, std::size_t, std::size_t) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    const std::lock_guard<std::mutex> lock(mutex);
    ids.insert(std::this_thread::get_id());
  });
  return ids;
}

class parallel : public ::testing::Test {
 protected:
  void TearDown() override { set_parallel_threads(0); }
};

TEST_F(parallel, a_limit_of_one_runs_every_chunk_on_the_calling_thread) {
  set_parallel_threads(1);
  EXPECT_EQ(parallel_threads(), 1u);
  const std::set<std::thread::id> ids = threads_used();
  ASSERT_EQ(ids.size(), 1u);
  EXPECT_EQ(*ids.begin(), std::this_thread::get_id());
}

TEST_F(parallel, the_limit_caps_the_workers_and_the_cores_cap_the_limit) {
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  set_parallel_threads(2);
  EXPECT_EQ(parallel_threads(), std::min(2u, cores));
  EXPECT_LE(threads_used().size(), 2u);
  set_parallel_threads(cores + 7);
  EXPECT_EQ(parallel_threads(), cores);
  set_parallel_threads(0);
  EXPECT_EQ(parallel_threads(), cores);
  EXPECT_LE(threads_used().size(), cores);
}

}  // namespace
}  // namespace kopt
