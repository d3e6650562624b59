// Text helpers shared by check.cpp (the messages) and check_render.cpp
// (the JSON and the table). Internal to kernelopt_static.
#pragma once

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "static/sass.hpp"

namespace kopt::sass::detail {

inline std::string join(const std::vector<std::string>& parts, const std::string& separator) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) out += (i ? separator : "") + parts[i];
  return out;
}

// The architectures in `functions`, in order of appearance.
inline std::vector<std::string> archs_of(const std::vector<function>& functions, bool own_only = false) {
  std::vector<std::string> archs;
  for (const function& f : functions) {
    if (own_only && !f.m_own) continue;
    if (std::find(archs.begin(), archs.end(), f.m_arch) == archs.end()) archs.push_back(f.m_arch);
  }
  return archs;
}

inline std::string file_name(const std::string& path) {
  return path.empty() ? std::string("an unknown file") : std::filesystem::path(path).filename().string();
}


// "void (anonymous namespace)::k<float, 8>(float const*, long)" -> "k<float, 8>":
// for the table only (the JSON keeps the full name).
inline std::string display_name(const std::string& full) {
  std::string name = full;
  if (name.rfind("void ", 0) == 0) name = name.substr(5);
  if (!name.empty() && name.back() == ')') {
    int depth = 0;
    for (std::size_t i = name.size(); i-- > 0;) {
      if (name[i] == ')') ++depth;
      if (name[i] == '(' && --depth == 0) {
        name = name.substr(0, i);
        break;
      }
    }
  }
  const std::string anonymous = "(anonymous namespace)::";
  for (std::size_t at = name.find(anonymous); at != std::string::npos; at = name.find(anonymous)) {
    name.erase(at, anonymous.size());
  }
  return name;
}


}  // namespace kopt::sass::detail
