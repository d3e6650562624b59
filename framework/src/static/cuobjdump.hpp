// Finding and running cuobjdump on compiled objects: the SASS and the
// resource usage of every function, per architecture, and where each is
// defined (the line table, through `cuobjdump -xelf all` and
// `nvdisasm -gi`: line_info.hpp).
#pragma once

#include <string>
#include <vector>

#include "static/sass.hpp"

namespace kopt::sass {

inline constexpr const char* k_cuobjdump_missing =
    "cuobjdump not found (install nvidia-cuda-cuobjdump or the CUDA toolkit's cuobjdump)";

// `given` when it is an executable file, else the first cuobjdump in $PATH;
// empty when neither exists.
[[nodiscard]] std::string find_cuobjdump(const std::string& given);

// "release 13.5, V13.5.37" from `cuobjdump --version`, or "unknown".
[[nodiscard]] std::string cuobjdump_version(const std::string& cuobjdump);

struct object_dump {
  enum class status {
    ok,              // parsed (m_functions may still be empty: PTX only)
    no_device_code,  // a host-only object
    tool_unusable,   // cuobjdump ran but cannot disassemble (nvdisasm missing): m_message says why
    failed           // cuobjdump failed on this file: m_message has its output
  } m_status = status::ok;
  std::vector<function> m_functions;
  std::string m_message;
  std::string m_line_info_note;  // why the line table could not be read; empty when it was (or has no entries)
};

// Runs `cuobjdump -sass` and `cuobjdump -res-usage` on `object`, then reads
// its line table (m_defined_in of the functions it covers).
// Throws std::runtime_error when cuobjdump cannot be started.
[[nodiscard]] object_dump dump_object(const std::string& cuobjdump, const std::string& object);

// Classifies one cuobjdump run (exposed for the unit tests).
[[nodiscard]] object_dump::status classify_run(int exit_code, const std::string& output, std::string& message);

}  // namespace kopt::sass
