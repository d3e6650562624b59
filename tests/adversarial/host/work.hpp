// The adversarial suite's host kernel: y[i] = f(x[i]) with f a fixed chain
// of multiply-adds, heavy enough per element that doing the work costs far
// more than skipping or copying it. Every variant below computes it (or
// pretends to); the reference computes it in f64.
#pragma once

#include <cstdint>

namespace adv {

inline constexpr int k_steps = 64;

// One element's work.
inline float f(float x) {
  float a = x;
  for (int s = 0; s < k_steps; ++s) a = a * 0.99f + 0.01f * x;
  return a;
}

// noinline and 64-byte aligned: each variant's module has its own copy of
// this function (variants do not share a link namespace), and every copy is
// the same machine code at the same alignment, so an identical variant runs
// identical code. Inlined into each entry, the same source measured 10 %
// apart between two variants on an x86-64 host, from where the loop landed
// (code layout), which no benchmark can tell from a real change
// (docs/loop.md, "What the gate cannot see").
__attribute__((noinline, aligned(64))) inline void compute(const float* x, float* y, std::int64_t begin,
                                                          std::int64_t end) {
  for (std::int64_t i = begin; i < end; ++i) y[i] = f(x[i]);
}

// Keeps the loop around it scalar: the compiler cannot vectorize through it.
inline void keep_scalar(float& a) {
#if defined(__x86_64__)
  asm volatile("" : "+x"(a));
#elif defined(__aarch64__)
  asm volatile("" : "+w"(a));
#else
  asm volatile("" : "+m"(a));
#endif
}

// Keeps the compiler from proving work redundant.
inline void opaque(void* p) { asm volatile("" : : "r"(p) : "memory"); }

}  // namespace adv
