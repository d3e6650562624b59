// temp_file / temp_dir for the fuzz targets (both builds).
#include <unistd.h>

#include <fstream>
#include <system_error>

#include "fuzz_target.hpp"

namespace kopt::fuzz {

std::filesystem::path temp_dir() {
  static const std::filesystem::path dir = [] {
    const std::filesystem::path d =
        std::filesystem::temp_directory_path() / ("kopt-fuzz-" + std::to_string(::getpid()));
    std::filesystem::create_directories(d);
    std::atexit([] {
      std::error_code ignored;
      std::filesystem::remove_all(std::filesystem::temp_directory_path() /
                                      ("kopt-fuzz-" + std::to_string(::getpid())),
                                  ignored);
    });
    return d;
  }();
  return dir;
}

std::filesystem::path temp_file(const std::uint8_t* data, std::size_t size, const std::string& name) {
  const std::filesystem::path path = temp_dir() / name;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  return path;
}

}  // namespace kopt::fuzz
