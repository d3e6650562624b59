// The host memory a harness process frees stays in the process.
//
// A trial allocates its tensors, the reference's results and the images it
// loads and checks (for a 4096^3 gemm ~1 GB), and frees them when it ends;
// a benchmark does the same for every input set and fresh content. glibc
// returns each block over 32 MB to the kernel on free (mmap/munmap), so
// the next trial faults every page in again, and the kernel zeroes it: on
// an H200 machine that was 0.9 M page faults and 44 % of a gemm point's
// correctness test, 30 % of its benchmark, and the part of both that grew
// most when two points ran at once (docs/multi-gpu.md, "Host memory").
// Called first in the correctness and benchmark mains, it has glibc take
// every block from the heap and keep freed memory there (M_MMAP_MAX 0,
// M_TRIM_THRESHOLD -1: never trimmed): the process's peak stays what its
// largest trial needs, and later trials reuse pages already mapped.
// NOTE: it changes where memory comes from, never what a buffer holds: the
// harness initialises every buffer it hands a variant (guarded.cpp), so a
// block that once held another trial's results is overwritten first.
#pragma once

#include <cstddef>

namespace kopt {

// Whether the allocator took the settings: false where it is not glibc's
// (a sanitizer's allocator ignores mallopt), and then nothing changed.
bool keep_freed_host_memory();

// Whole-tensor buffers (tensor_memory.hpp, the host backend's "device"
// memory), aligned to 256 bytes. The heap above reuses what is freed, but
// not reliably at these sizes: a trial's GB-sized blocks, freed around the
// small ones that outlive it, left holes the next trial's blocks did not
// fit, and the heap grew by 1-2 GB of fresh pages per trial (2-core host,
// softmax at 4096 x 32000: 0.5 M page faults a trial). So a block of 16 MB
// or more comes from a pool of mappings that keeps what is released and
// hands it out again (the smallest kept block that holds the request, and
// at most twice its size); what it keeps and what is in use together stay
// within twice the most ever in use at once, so a process holds at most
// twice what its largest trial needs. When the system refuses a mapping
// (an address-space limit, strict overcommit), the kept blocks go back and
// the mapping is tried once more; a std::bad_alloc then says how many bytes
// were asked for and why. Under AddressSanitizer every block comes from
// operator new, so that a use after release is still caught.
[[nodiscard]] void* allocate_tensor_memory(std::size_t bytes);  // throws std::bad_alloc
void release_tensor_memory(void* pointer) noexcept;             // nullptr: nothing

}  // namespace kopt
