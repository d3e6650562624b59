// The CUDA backend: device memory, one non-blocking stream, errors checked
// after every call with the error's name and text.
#pragma once

#include <memory>
#include <string>

#include "harness/backend.hpp"

namespace kopt::cuda {

// `device` is a CUDA device ordinal as this process sees it.
[[nodiscard]] std::unique_ptr<backend> make_backend(int device);

// The device CTest assigned this test through its resource allocation
// (CTEST_RESOURCE_GROUP_0_GPUS="id:N,slots:1"), else 0.
[[nodiscard]] int assigned_device();

// Throws kopt::device_error "<what>: <call>: cudaErrorX: text" on failure.
void check(int status, const char* call, const std::string& what);

}  // namespace kopt::cuda
