// One implementation's link unit. Every variant, baseline and the reference
// of a kernel is linked on its own into a shared module (its sources, the
// signature check, and a generated shim), loaded by <k>_kopt_test and
// <k>_kopt_bench with its symbols kept to itself: two variants may include
// the same header with external-linkage functions, globals or __device__
// code and still link, each with its own copy. Generated code only.
#pragma once

#include "kernelopt/detail/kernel_spec.hpp"

namespace kopt {

// Changes whenever module_info or the invoke convention does.
inline constexpr int k_module_abi = 1;

// What a module exports, through `extern "C" kopt_module_info()`.
struct module_info {
  int m_abi;             // k_module_abi of the KernelOpt that generated it
  const char* m_kernel;  // the kernel and implementation it holds
  const char* m_impl;
  invoke_fn m_invoke;
};

// Loads, from the executable's own directory, the module of every
// implementation of `spec` that names one (impl_spec::m_module) and is in
// this build: sets m_invoke, or m_load_error saying why it could not (the
// implementation's tests then fail with it). Modules stay loaded until the
// process ends.
void load_modules(kernel_spec& spec);

}  // namespace kopt

#if defined(_WIN32)
#define KOPT_MODULE_EXPORT extern "C" __declspec(dllexport)
#else
#define KOPT_MODULE_EXPORT extern "C" __attribute__((visibility("default")))
#endif
