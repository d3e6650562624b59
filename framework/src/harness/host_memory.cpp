#include "harness/host_memory.hpp"

#include <cstdlib>  // defines __GLIBC__ where the C library is glibc

#if defined(__GLIBC__)
#include <malloc.h>
#endif

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

}  // namespace kopt
