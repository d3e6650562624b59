// An exclusive lock on a file (flock), held as long as the object lives and
// released by the kernel if the holder dies: no stale lock to clean up. The
// file names its holder (pid and what it runs) so that a refused waiter can
// say who holds it, and is removed on release (a file left by a killed
// holder is simply taken over).
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>

namespace kopt {

// The lock stayed busy for the whole wait.
class lock_busy_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class file_lock {
 public:
  file_lock(int fd, std::filesystem::path path) : m_fd(fd), m_path(std::move(path)) {}
  file_lock(file_lock&& other) noexcept : m_fd(other.m_fd), m_path(std::move(other.m_path)) { other.m_fd = -1; }
  file_lock& operator=(file_lock&&) = delete;
  file_lock(const file_lock&) = delete;
  file_lock& operator=(const file_lock&) = delete;
  ~file_lock();

  [[nodiscard]] const std::filesystem::path& path() const { return m_path; }

 private:
  int m_fd = -1;
  std::filesystem::path m_path;
};

// Takes the lock on `path` (created, with its directory, if missing),
// waiting up to `wait_s` seconds (0: not at all), and writes
// "pid <pid>\n<holder>\n" into it. Throws lock_busy_error
// "<path>: held by pid 1234 (kopt optimize softmax); gave up after 300 s"
// when it stays busy, std::runtime_error when the file cannot be opened.
[[nodiscard]] file_lock acquire_file_lock(const std::filesystem::path& path, double wait_s,
                                          const std::string& holder);

}  // namespace kopt
