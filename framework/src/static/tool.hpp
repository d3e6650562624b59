// Finding the tools kopt runs (cuobjdump, ncu). Running them is
// core/process.hpp's run_process with m_capture.
#pragma once

#include <filesystem>
#include <string>

namespace kopt::tool {

// The first executable file `name` in $PATH; empty when there is none.
[[nodiscard]] std::string find_in_path(const std::string& name);

[[nodiscard]] bool is_executable(const std::filesystem::path& path);

}  // namespace kopt::tool
