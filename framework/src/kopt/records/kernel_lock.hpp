// One writer of a kernel's records at a time: `kopt optimize`, `record` and
// `mask` hold <RECORDS>/<k>/.lock (flock) for their whole run, so that two
// of them on one kernel run one after the other instead of both deciding
// "v5 has no record yet". Taking it also removes temp files that killed
// writers left there (docs/reliability.md, "Time limits and concurrency").
#pragma once

#include <iosfwd>
#include <string>

#include "core/file_lock.hpp"
#include "kopt/inputs/manifest.hpp"

namespace kopt {

inline constexpr double k_default_lock_wait_s = 600;
inline constexpr int k_stale_temp_age_s = 600;

// Waits up to `wait_s` for the kernel's lock (0: refuse at once if busy;
// `kopt --lock-wait`, default k_default_lock_wait_s). `command` names the holder in the lock file ("optimize"); each
// stale temp file removed is noted on `err`. Throws lock_busy_error naming
// the holder's pid when the wait runs out.
[[nodiscard]] file_lock lock_kernel(const manifest& m, double wait_s, const std::string& command, std::ostream& err);

}  // namespace kopt
