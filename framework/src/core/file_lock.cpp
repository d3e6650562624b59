#include "core/file_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

#include "core/process.hpp"

namespace kopt {
namespace {

// What the holder wrote: "pid 1234 (kopt optimize softmax)", or why not known.
std::string holder_of(int fd) {
  char buffer[512];
  const ssize_t n = ::pread(fd, buffer, sizeof buffer - 1, 0);
  if (n <= 0) return "a process that has not named itself yet";
  std::string text(buffer, static_cast<std::size_t>(n));
  const std::size_t newline = text.find('\n');
  std::string who = text.substr(0, newline);
  if (newline != std::string::npos) {
    std::string what = text.substr(newline + 1);
    while (!what.empty() && what.back() == '\n') what.pop_back();
    if (!what.empty()) who += " (" + what + ")";
  }
  return who;
}

}  // namespace

file_lock::~file_lock() {
  if (m_fd < 0) return;
  // Removed while still held, so that the directory keeps no lock file; a
  // waiter that opened it meanwhile finds it unlinked and opens a new one.
  ::unlink(m_path.c_str());
  ::close(m_fd);
}

file_lock acquire_file_lock(const std::filesystem::path& path, double wait_s, const std::string& holder) {
  std::error_code ec;
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), ec);
  const auto start = std::chrono::steady_clock::now();
  for (;;) {
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) throw std::runtime_error(path.string() + ": cannot open the lock file: " + std::strerror(errno));
    while (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      if (errno == EINTR) continue;
      if (errno != EWOULDBLOCK) {
        const int saved = errno;
        ::close(fd);
        throw std::runtime_error(path.string() + ": cannot lock: " + std::strerror(saved));
      }
      const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (waited >= wait_s) {
        const std::string who = holder_of(fd);
        ::close(fd);
        throw lock_busy_error(path.string() + ": held by " + who + "; " +
                              (wait_s > 0 ? "gave up after " + format_seconds(wait_s) : std::string("not waiting")));
      }
      timespec pause{0, 50 * 1000 * 1000};
      ::nanosleep(&pause, nullptr);
    }
    // Locked; but is it still the file at `path`, or one its holder unlinked?
    struct stat held {};
    struct stat named {};
    if (::fstat(fd, &held) == 0 && ::stat(path.c_str(), &named) == 0 && held.st_dev == named.st_dev &&
        held.st_ino == named.st_ino) {
      const std::string text = "pid " + std::to_string(::getpid()) + "\n" + holder + "\n";
      if (::ftruncate(fd, 0) != 0 || ::pwrite(fd, text.data(), text.size(), 0) < 0) {
        // The lock holds without the note; a waiter just cannot name us.
      }
      return file_lock(fd, path);
    }
    ::close(fd);
  }
}

}  // namespace kopt
