#include "harness/host_memory.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>  // defines __GLIBC__ where the C library is glibc
#include <cstring>
#include <map>
#include <mutex>
#include <new>
#include <unordered_map>

#include <sys/mman.h>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "harness/tensor_memory.hpp"  // k_device_alignment

namespace kopt {

bool keep_freed_host_memory() {
#if defined(__GLIBC__)
  // mallopt returns 1 where it took the value. Both are set either way: a
  // heap without mmap but trimmed would still give pages back. A trim
  // threshold of -1 disables trimming (mallopt(3)); INT_MAX would still
  // trim a softmax test's 3.4 GB of expected values when they are freed.
  const bool heap_only = mallopt(M_MMAP_MAX, 0) == 1;
  const bool kept = mallopt(M_TRIM_THRESHOLD, -1) == 1;
  return heap_only && kept;
#else
  return false;
#endif
}

namespace {

constexpr std::size_t k_pooled_bytes = std::size_t{16} << 20;
constexpr std::size_t k_block_granule = std::size_t{2} << 20;  // a huge page

#if defined(__SANITIZE_ADDRESS__)
constexpr bool k_pooled = false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool k_pooled = false;
#else
constexpr bool k_pooled = true;
#endif
#else
constexpr bool k_pooled = true;
#endif

// The pool's std::bad_alloc: how much was asked for, how much the harness
// already held and what the system said (a fixed buffer: copying it cannot
// throw).
class tensor_allocation_error : public std::bad_alloc {
 public:
  tensor_allocation_error(std::size_t bytes, std::size_t live_bytes, int error) noexcept {
    std::snprintf(m_what, sizeof m_what,
                  "cannot map %.3g GB of host memory for a tensor (%.3g GB of tensors already held): %s",
                  static_cast<double>(bytes) / 1e9, static_cast<double>(live_bytes) / 1e9, std::strerror(error));
  }
  [[nodiscard]] const char* what() const noexcept override { return m_what; }

 private:
  char m_what[192] = {};
};

class block_pool {
 public:
  void* take(std::size_t bytes) {
    const std::size_t size = (bytes + k_block_granule - 1) / k_block_granule * k_block_granule;
    std::lock_guard<std::mutex> lock(m_mutex);
    void* block = nullptr;
    std::size_t block_size = size;
    const auto kept = m_kept.lower_bound(size);
    if (kept != m_kept.end() && kept->first <= 2 * size) {
      block = kept->second;
      block_size = kept->first;
      m_kept_bytes -= block_size;
      m_kept.erase(kept);
    } else {
      // Kept and live blocks together stay within twice the most ever live
      // at once (counting this one): the smallest kept blocks, an earlier
      // and smaller shape's, go back first.
      const std::size_t limit = 2 * std::max(m_peak_bytes, m_live_bytes + size);
      while (!m_kept.empty() && m_live_bytes + m_kept_bytes + size > limit) unmap_smallest_kept();
      block = map(size);
      if (block == MAP_FAILED && !m_kept.empty()) {
        // Refused (an address-space limit, strict overcommit): what is kept
        // goes back before the request fails.
        release_kept();
        block = map(size);
      }
      if (block == MAP_FAILED) throw tensor_allocation_error(bytes, m_live_bytes, errno);
#if defined(MADV_HUGEPAGE)
      (void)madvise(block, size, MADV_HUGEPAGE);  // fewer faults where THP is "madvise"; a hint only
#endif
    }
    m_live.emplace(block, block_size);
    m_live_bytes += block_size;
    if (m_live_bytes > m_peak_bytes) m_peak_bytes = m_live_bytes;
    return block;
  }

  // False when `pointer` is not one of the pool's blocks.
  bool give(void* pointer) noexcept {
    std::lock_guard<std::mutex> lock(m_mutex);
    const auto live = m_live.find(pointer);
    if (live == m_live.end()) return false;
    const std::size_t size = live->second;
    m_live.erase(live);
    m_live_bytes -= size;
    m_kept.emplace(size, pointer);
    m_kept_bytes += size;
    return true;
  }

 private:
  static void* map(std::size_t size) noexcept {
    return mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  }

  void unmap_smallest_kept() noexcept {
    const auto smallest = m_kept.begin();
    (void)munmap(smallest->second, smallest->first);
    m_kept_bytes -= smallest->first;
    m_kept.erase(smallest);
  }

  void release_kept() noexcept {
    while (!m_kept.empty()) unmap_smallest_kept();
  }

  std::mutex m_mutex;
  std::multimap<std::size_t, void*> m_kept;       // released, by size
  std::unordered_map<void*, std::size_t> m_live;  // handed out, their mapped size
  std::size_t m_kept_bytes = 0;
  std::size_t m_live_bytes = 0;
  std::size_t m_peak_bytes = 0;
};

block_pool& pool() {
  static auto* const instance = new block_pool;  // never destroyed: blocks may be released at exit
  return *instance;
}

}  // namespace

void* allocate_tensor_memory(std::size_t bytes) {
  if (k_pooled && bytes >= k_pooled_bytes) return pool().take(bytes);
  return ::operator new(bytes == 0 ? 1 : bytes, std::align_val_t{k_device_alignment});
}

void release_tensor_memory(void* pointer) noexcept {
  if (pointer == nullptr) return;
  if (k_pooled && pool().give(pointer)) return;
  ::operator delete(pointer, std::align_val_t{k_device_alignment});
}

}  // namespace kopt
