#include "core/cuda_arch.hpp"

#include <cctype>
#include <sstream>

namespace kopt {
namespace {

// One entry: <number>[a|f][-real|-virtual].
bool runs_on(const std::string& entry, int device) {
  std::size_t i = 0;
  int number = 0;
  while (i < entry.size() && std::isdigit(static_cast<unsigned char>(entry[i])) != 0 && number < 10000) {
    number = number * 10 + (entry[i] - '0');
    ++i;
  }
  if (i == 0) return false;
  char suffix = 0;
  if (i < entry.size() && (entry[i] == 'a' || entry[i] == 'f')) suffix = entry[i++];
  const std::string kind = entry.substr(i);
  bool sass = true;
  bool ptx = true;
  if (kind == "-real") {
    ptx = false;
  } else if (kind == "-virtual") {
    sass = false;
  } else if (!kind.empty()) {
    return false;
  }
  const bool same_major = number / 10 == device / 10;
  if (suffix == 'a') return number == device;
  if (suffix == 'f') return same_major && device >= number;
  return (sass && same_major && device >= number) || (ptx && device >= number);
}

}  // namespace

std::string cuda_arch_mismatch(const std::string& archs, int major, int minor) {
  if (archs.empty()) return {};
  const int device = major * 10 + minor;
  std::string entry;
  std::istringstream in(archs);
  while (std::getline(in, entry, ';')) {
    if (runs_on(entry, device)) return {};
  }
  std::string listed = archs;
  for (char& c : listed) {
    if (c == ';') c = ' ';
  }
  return "built for CUDA architectures " + listed + ", which cannot run on this device (compute capability " +
         std::to_string(major) + "." + std::to_string(minor) + ")";
}

}  // namespace kopt
