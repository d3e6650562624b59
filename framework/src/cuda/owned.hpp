// CUDA resources held by a unique_ptr: released on every way out of the
// scope that holds them, an exception included, so a failing benchmark row
// or ceiling measurement leaves no device memory behind. Harness buffers go
// through kopt::device_buffer (harness/backend.hpp) instead.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <memory>
#include <string>

namespace kopt::cuda {

struct device_free {
  void operator()(void* pointer) const noexcept { cudaFree(pointer); }
};
struct pinned_free {
  void operator()(void* pointer) const noexcept { cudaFreeHost(pointer); }
};
struct event_destroy {
  void operator()(cudaEvent_t event) const noexcept { cudaEventDestroy(event); }
};

using device_memory = std::unique_ptr<void, device_free>;
using pinned_memory = std::unique_ptr<void, pinned_free>;  // cudaHostAlloc
using owned_event = std::unique_ptr<CUevent_st, event_destroy>;

// Each throws kopt::device_error naming `what` (cuda/cuda_backend.hpp's check).
[[nodiscard]] device_memory allocate_device(std::size_t bytes, const std::string& what);
[[nodiscard]] pinned_memory allocate_pinned(std::size_t bytes, unsigned flags, const std::string& what);
[[nodiscard]] owned_event create_event(const std::string& what);

}  // namespace kopt::cuda
