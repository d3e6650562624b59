// A harness process keeps the host memory it frees (harness/host_memory.hpp):
// a trial's tensors are allocated and freed trial after trial, and a block
// allocated again must reuse pages already mapped instead of faulting each
// one in (and having the kernel zero it) again.
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <cstddef>
#include <cstdlib>  // __GLIBC__
#include <memory>
#include <vector>

#include "harness/host_memory.hpp"

#if defined(__SANITIZE_ADDRESS__)
#define KOPT_TEST_UNDER_ASAN
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define KOPT_TEST_UNDER_ASAN
#endif
#endif

namespace kopt {
namespace {

constexpr std::size_t k_bytes = std::size_t{256} << 20;  // far above glibc's mmap threshold (32 MB at most)

long minor_faults() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_minflt;
}

// The page faults of allocating, writing and freeing a block as large as
// the one freed just before, as one trial after another does.
long faults_of_a_second_block() {
  std::make_unique<std::vector<unsigned char>>(k_bytes, 1).reset();
  const long before = minor_faults();
  {
    const std::vector<unsigned char> again(k_bytes, 2);
    EXPECT_EQ(again[k_bytes / 2], 2);
  }
  return minor_faults() - before;
}

TEST(HostMemory, AFreedBlockIsReusedWithoutFaultingItsPagesAgain) {
  const long pages = static_cast<long>(k_bytes / 4096);
  // First as every process starts: the block is mapped afresh.
  const long fresh = faults_of_a_second_block();
  if (fresh < pages / 8) {
    GTEST_SKIP() << "a fresh 256 MB block faulted only " << fresh << " times here (huge pages?), so reuse cannot be "
                 << "told from a fresh mapping by its page faults";
  }
#if defined(KOPT_TEST_UNDER_ASAN)
  GTEST_SKIP() << "AddressSanitizer's allocator serves malloc here; glibc's settings do not reach it";
#elif defined(__GLIBC__)
  ASSERT_TRUE(keep_freed_host_memory()) << "glibc's allocator refused the settings";
#else
  GTEST_SKIP() << "not glibc: keep_freed_host_memory() changes nothing here";
#endif
  const long kept = faults_of_a_second_block();
  EXPECT_LT(kept, fresh / 8) << "a fresh block faulted " << fresh << " pages in; after keep_freed_host_memory() the "
                             << "same block faulted " << kept;
}

}  // namespace
}  // namespace kopt
