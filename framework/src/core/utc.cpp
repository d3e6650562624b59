#include "core/utc.hpp"

#include <cstdlib>
#include <ctime>

namespace kopt {
namespace {

std::string format_now(const char* pattern) {
  std::time_t now = std::time(nullptr);
  if (const char* fixed = std::getenv("SOURCE_DATE_EPOCH"); fixed != nullptr && *fixed != '\0') {
    now = static_cast<std::time_t>(std::strtoll(fixed, nullptr, 10));
  }
  std::tm parts{};
  gmtime_r(&now, &parts);
  char text[32];
  std::strftime(text, sizeof text, pattern, &parts);
  return text;
}

}  // namespace

std::string utc_now_iso() { return format_now("%Y-%m-%dT%H:%M:%SZ"); }
std::string utc_now_compact() { return format_now("%Y%m%dT%H%M%SZ"); }

}  // namespace kopt
