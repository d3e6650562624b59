// Host memory for whole tensors. A trial makes several GB-sized buffers
// (inputs, an f64 reference's copies, images, downloads); each is written
// whole before it is read, so none is zeroed when allocated or resized: a
// zeroing pass over a tensor costs as much as the pass that fills it, and
// on memory fresh from the system it is where the page faults land.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

#include "harness/host_memory.hpp"

namespace kopt {

// The alignment of every buffer a backend allocates, as cudaMalloc gives
// (at least 256 bytes), so vectorized code behaves alike on both backends
// and on the host copies the harness hands a reference.
inline constexpr std::size_t k_device_alignment = 256;

// An allocator whose blocks come from allocate_tensor_memory (aligned to
// k_device_alignment; host_memory.hpp) and that default-initializes (no value
// written) what resize() adds.
template <typename T>
class tensor_allocator {
 public:
  using value_type = T;
  tensor_allocator() = default;
  template <typename U>
  tensor_allocator(const tensor_allocator<U>&) noexcept {}  // NOLINT(google-explicit-constructor): rebind

  [[nodiscard]] T* allocate(std::size_t n) { return static_cast<T*>(allocate_tensor_memory(n * sizeof(T))); }
  void deallocate(T* p, std::size_t) noexcept { release_tensor_memory(p); }
  template <typename U>
  void construct(U* p) noexcept {
    ::new (static_cast<void*>(p)) U;  // default-initialized
  }
  template <typename U, typename... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
  template <typename U>
  bool operator==(const tensor_allocator<U>&) const noexcept {
    return true;
  }
  template <typename U>
  bool operator!=(const tensor_allocator<U>&) const noexcept {
    return false;
  }
};

// One tensor as stored (its dtype's bytes).
using tensor_bytes = std::vector<unsigned char, tensor_allocator<unsigned char>>;
// One tensor's values as double.
using tensor_values = std::vector<double, tensor_allocator<double>>;

}  // namespace kopt
