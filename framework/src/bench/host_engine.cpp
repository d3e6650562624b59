#include "bench/host_engine.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

namespace kopt::bench {
namespace {

using steady = std::chrono::steady_clock;

constexpr std::size_t k_min_flush_bytes = std::size_t{8} << 20;
constexpr std::size_t k_unknown_flush_bytes = std::size_t{64} << 20;

// "32768K" / "8M" (sysfs cache size) -> bytes; 0 if unreadable.
std::size_t sysfs_size(const std::string& path) {
  std::ifstream file(path);
  std::string text;
  if (!(file >> text) || text.empty()) return 0;
  std::size_t scale = 1;
  const char unit = text.back();
  if (unit == 'K') scale = std::size_t{1} << 10;
  if (unit == 'M') scale = std::size_t{1} << 20;
  if (unit == 'G') scale = std::size_t{1} << 30;
  try {
    return static_cast<std::size_t>(std::stoull(text)) * scale;
  } catch (const std::exception&) {
    return 0;
  }
}

// The largest cache of the CPU this runs on. sysfs first: it describes
// cpu0's own caches, while glibc's sysconf may report a whole package's L3
// (every CCX of an AMD EPYC summed), which one core cannot fill.
std::size_t largest_cache_bytes() {
  std::size_t largest = 0;
  for (int index = 0; index < 16; ++index) {
    largest = std::max(largest, sysfs_size("/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index) + "/size"));
  }
#ifdef _SC_LEVEL3_CACHE_SIZE
  if (largest == 0) {
    for (const int name : {_SC_LEVEL2_CACHE_SIZE, _SC_LEVEL3_CACHE_SIZE, _SC_LEVEL4_CACHE_SIZE}) {
      const long size = sysconf(name);
      if (size > 0) largest = std::max(largest, static_cast<std::size_t>(size));
    }
  }
#endif
  return largest;
}

// Smallest positive step of the steady clock, in ns.
double clock_resolution_ns() {
  double smallest = 1e9;
  for (int i = 0; i < 1000; ++i) {
    const steady::time_point a = steady::now();
    steady::time_point b = steady::now();
    while (b == a) b = steady::now();
    smallest = std::min(smallest, std::chrono::duration<double, std::nano>(b - a).count());
  }
  return smallest;
}

class host_engine final : public timing_engine {
 public:
  host_engine() : m_flush(host_flush_bytes()), m_resolution_ns(clock_resolution_ns()) {}

  [[nodiscard]] engine_timing timing_fields() const override {
    engine_timing t;
    t.m_cache_flush_bytes = static_cast<std::int64_t>(m_flush.size());
    t.m_clock = "steady_clock";
    t.m_clock_resolution_ns = m_resolution_ns;
    return t;
  }

  [[nodiscard]] double resolution_ns() const override { return m_resolution_ns; }

  void warm(const launch_fn& launch) override { launch(); }  // page faults, lazy initialization

  [[nodiscard]] double sample_ns(const launch_fn& launch) override {
    flush_caches();
    const steady::time_point start = steady::now();
    launch();
    return std::chrono::duration<double, std::nano>(steady::now() - start).count();
  }

  void second_clock(const launch_fn&, const sampler_settings&, measurement& m) override {
    m.m_second_clock = kopt::second_clock::unavailable("", "host backend");
    m.m_clock = std::nullopt;
  }

  void profile(const launch_fn& launch, std::size_t warmup) override {
    for (std::size_t i = 0; i < warmup; ++i) launch();
    launch();
  }

 private:
  // Writes every byte of a buffer larger than the caches, with a value that
  // changes per sample so the stores cannot be skipped.
  void flush_caches() {
    std::memset(m_flush.data(), static_cast<int>(++m_generation & 0xff), m_flush.size());
#if defined(__GNUC__)
    asm volatile("" : : "r"(m_flush.data()) : "memory");
#endif
  }

  std::vector<unsigned char> m_flush;
  double m_resolution_ns;
  unsigned m_generation = 0;
};

}  // namespace

std::size_t host_flush_bytes() {
  const std::size_t largest = largest_cache_bytes();
  if (largest == 0) return k_unknown_flush_bytes;
  return std::max(2 * largest, k_min_flush_bytes);
}

std::unique_ptr<timing_engine> make_host_engine() { return std::make_unique<host_engine>(); }

}  // namespace kopt::bench
