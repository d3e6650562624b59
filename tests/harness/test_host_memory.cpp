// A harness process keeps the host memory it frees (harness/host_memory.hpp):
// a trial's tensors are allocated and freed trial after trial, and a block
// allocated again must reuse pages already mapped instead of faulting each
// one in (and having the kernel zero it) again.
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdlib>  // __GLIBC__
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "harness/host_memory.hpp"
#include "harness/tensor_memory.hpp"

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

// One trial's tensors through tensor_memory: three blocks written whole and
// released, with small allocations made in between that outlive the trial
// (results, messages), as a correctness test's trials do. Returns the page
// faults and the blocks' addresses.
struct trial_memory {
  long m_faults = 0;
  std::vector<std::uintptr_t> m_blocks;
};

trial_memory one_trial(std::vector<std::unique_ptr<std::string>>& outlive) {
  trial_memory result;
  const long before = minor_faults();
  {
    std::vector<tensor_bytes> tensors;
    for (const std::size_t mb : {64, 128, 64}) {
      tensors.emplace_back(std::size_t{mb} << 20);
      std::memset(tensors.back().data(), 3, tensors.back().size());
      result.m_blocks.push_back(reinterpret_cast<std::uintptr_t>(tensors.back().data()));
      outlive.push_back(std::make_unique<std::string>(200, 'x'));
    }
  }
  result.m_faults = minor_faults() - before;
  return result;
}

TEST(TensorMemory, EveryBlockIsAlignedAsDeviceMemory) {
  for (const std::size_t bytes : {std::size_t{1}, std::size_t{4096} + 3, std::size_t{40} << 20}) {
    void* block = allocate_tensor_memory(bytes);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(block) % k_device_alignment, 0u) << bytes << " bytes";
    std::memset(block, 1, bytes);
    release_tensor_memory(block);
  }
  release_tensor_memory(nullptr);
}

TEST(TensorMemory, ATrialsBlocksAreHandedOutAgainWhateverOutlivesThem) {
#if defined(KOPT_TEST_UNDER_ASAN)
  GTEST_SKIP() << "under AddressSanitizer every block comes from operator new (a use after release is caught)";
#else
  std::vector<std::unique_ptr<std::string>> outlive;
  const trial_memory first = one_trial(outlive);
  const trial_memory second = one_trial(outlive);
  const long pages = static_cast<long>((std::size_t{256} << 20) / 4096);
  EXPECT_LT(second.m_faults, pages / 8) << "the first trial faulted " << first.m_faults << " pages in, the second "
                                        << second.m_faults;
  std::vector<std::uintptr_t> a = first.m_blocks;
  std::vector<std::uintptr_t> b = second.m_blocks;
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  EXPECT_EQ(a, b) << "the second trial's blocks are the first's";
#endif
}

TEST(TensorMemory, ASmallRequestDoesNotTakeAKeptBlockMoreThanTwiceItsSize) {
#if defined(KOPT_TEST_UNDER_ASAN)
  GTEST_SKIP() << "under AddressSanitizer every block comes from operator new";
#else
  void* large = allocate_tensor_memory(std::size_t{256} << 20);
  release_tensor_memory(large);
  void* small = allocate_tensor_memory(std::size_t{32} << 20);
  EXPECT_NE(small, large);
  void* fits = allocate_tensor_memory(std::size_t{200} << 20);
  EXPECT_EQ(fits, large) << "a request the kept block holds, within twice, takes it";
  release_tensor_memory(small);
  release_tensor_memory(fits);
#endif
}

// The process's mapped address space in bytes (/proc/self/statm, in pages).
std::size_t address_space_bytes() {
  std::ifstream statm("/proc/self/statm");
  std::size_t pages = 0;
  statm >> pages;
  return pages * static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
}

// In a child process under an address-space limit (RLIMIT_AS) that leaves
// room for a 1 GB block only once the pool's kept 256 MB block goes back.
// Exits 0 when it does, and when a request beyond the limit then fails with
// a std::bad_alloc that names its size.
[[noreturn]] void kept_blocks_go_back_under_a_limit() {
  void* kept = allocate_tensor_memory(std::size_t{256} << 20);
  release_tensor_memory(kept);
  rlimit limit{};
  getrlimit(RLIMIT_AS, &limit);
  limit.rlim_cur = address_space_bytes() + (std::size_t{1} << 30) - (std::size_t{128} << 20);
  if (setrlimit(RLIMIT_AS, &limit) != 0) {
    std::cerr << "setrlimit failed\n";
    _exit(3);
  }
  try {
    void* large = allocate_tensor_memory(std::size_t{1} << 30);
    release_tensor_memory(large);
  } catch (const std::bad_alloc& e) {
    std::cerr << "1 GB refused although the kept 256 MB would make room: " << e.what() << "\n";
    _exit(1);
  }
  try {
    (void)allocate_tensor_memory(std::size_t{64} << 30);
    std::cerr << "64 GB mapped under a limit of about 1 GB\n";
    _exit(1);
  } catch (const std::bad_alloc& e) {
    const std::string what = e.what();
    if (what.find("68.7 GB") == std::string::npos) {
      std::cerr << "the error does not name the 68.7 GB asked for: " << what << "\n";
      _exit(2);
    }
  }
  _exit(0);
}

TEST(TensorMemory, KeptBlocksGoBackWhenTheSystemRefusesAMapping) {
#if defined(KOPT_TEST_UNDER_ASAN)
  GTEST_SKIP() << "under AddressSanitizer every block comes from operator new (and its shadow memory needs an "
                  "unlimited address space)";
#else
  rlimit limit{};
  ASSERT_EQ(getrlimit(RLIMIT_AS, &limit), 0);
  if (limit.rlim_max != RLIM_INFINITY && limit.rlim_max < address_space_bytes() + (std::size_t{2} << 30)) {
    GTEST_SKIP() << "the address-space hard limit here (" << limit.rlim_max << " bytes) leaves no room for the test";
  }
  // Where the system refuses 2 GB of address space already (strict
  // overcommit), the limit set in the child is not what refuses the block.
  void* probe = mmap(nullptr, std::size_t{2} << 30, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (probe == MAP_FAILED) GTEST_SKIP() << "this system refuses a 2 GB mapping without a limit";
  munmap(probe, std::size_t{2} << 30);
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(kept_blocks_go_back_under_a_limit(), ::testing::ExitedWithCode(0), "");
#endif
}

}  // namespace
}  // namespace kopt
