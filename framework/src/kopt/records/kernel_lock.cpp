#include "kopt/records/kernel_lock.hpp"

#include <optional>
#include <ostream>

#include "core/json_io.hpp"

namespace kopt {

file_lock lock_kernel(const manifest& m, double wait_s, const std::string& command, std::ostream& err) {
  const std::string holder = "kopt " + command + " " + m.m_kernel;
  std::optional<file_lock> lock;
  try {
    lock.emplace(acquire_file_lock(m.kernel_records_dir() / ".lock", wait_s, holder));
  } catch (const lock_busy_error& busy) {
    throw lock_busy_error(std::string(busy.what()) + ": another kopt is writing " + m.m_kernel +
                          "'s records (--lock-wait SECONDS sets how long to wait)");
  }
  // Holding the lock, no other kopt writes here: a temp file is a dead writer's.
  for (const auto& removed :
       remove_stale_temp_files(m.kernel_records_dir(), std::chrono::seconds(k_stale_temp_age_s))) {
    err << "kopt " << command << ": removed " << removed.string() << " (left by a writer that was killed)\n";
  }
  return std::move(*lock);
}

}  // namespace kopt
