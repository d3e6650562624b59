#include "harness/host_memory.hpp"

#include <limits>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace kopt {

bool keep_freed_host_memory() {
#if defined(__GLIBC__)
  // mallopt returns 1 where it took the value. Both are set either way: a
  // heap without mmap but trimmed would still give pages back.
  const bool heap_only = mallopt(M_MMAP_MAX, 0) == 1;
  const bool kept = mallopt(M_TRIM_THRESHOLD, std::numeric_limits<int>::max()) == 1;
  return heap_only && kept;
#else
  return false;
#endif
}

}  // namespace kopt
