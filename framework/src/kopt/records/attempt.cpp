#include "kopt/records/attempt.hpp"

#include <unistd.h>

#include <fstream>
#include <sstream>
#include <system_error>

#include "core/json_io.hpp"
#include "core/process.hpp"
#include "core/utc.hpp"

namespace kopt {

std::filesystem::path attempt_path(const manifest& m, const std::string& variant) {
  return m.kernel_records_dir() / (variant + ".attempt");
}

attempt_marker::attempt_marker(const manifest& m, const std::string& variant) : m_path(attempt_path(m, variant)) {
  std::filesystem::create_directories(m_path.parent_path());
  write_file_atomic(m_path, "kopt optimize " + m.m_kernel + "/" + variant + ", pid " + std::to_string(::getpid()) +
                                ", started " + utc_now_iso() + "\n");
  set_interrupt_cleanup(m_path.string());
}

attempt_marker::~attempt_marker() {
  set_interrupt_cleanup("");
  std::error_code ignored;
  std::filesystem::remove(m_path, ignored);
}

std::vector<unfinished_attempt> unfinished_attempts(const manifest& m) {
  std::vector<unfinished_attempt> found;
  for (const variant_decl& v : m.m_variants) {
    const std::filesystem::path marker = attempt_path(m, v.m_name);
    if (!std::filesystem::exists(marker) || std::filesystem::exists(m.record_path(v.m_name))) continue;
    std::ifstream in(marker);
    std::string line;
    std::getline(in, line);
    found.push_back({v.m_name, shorten(line, 200)});
  }
  return found;
}

}  // namespace kopt
