#include "static/tool.hpp"

#include <unistd.h>

#include <cstdlib>
#include <sstream>

namespace kopt::tool {

bool is_executable(const std::filesystem::path& path) {
  std::error_code error;
  return std::filesystem::is_regular_file(path, error) && ::access(path.c_str(), X_OK) == 0;
}

std::string find_in_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  if (path == nullptr) return {};
  std::istringstream dirs(path);
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    if (dir.empty()) dir = ".";
    const std::filesystem::path candidate = std::filesystem::path(dir) / name;
    if (is_executable(candidate)) return candidate.string();
  }
  return {};
}

}  // namespace kopt::tool
