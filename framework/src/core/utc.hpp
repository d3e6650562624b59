// The current time, in UTC. Honours SOURCE_DATE_EPOCH (the reproducible-
// builds convention) so that golden tests and reproducible runs get a fixed
// time.
#pragma once

#include <string>

namespace kopt {

// "2025-11-21T05:16:00Z"
[[nodiscard]] std::string utc_now_iso();
// "20251121T051600Z": safe in file names, sorts by time.
[[nodiscard]] std::string utc_now_compact();

}  // namespace kopt
