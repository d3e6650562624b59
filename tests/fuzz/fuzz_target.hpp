// One fuzz target per reader of outside input. Each target file defines its
// entry with KOPT_FUZZ_TARGET(name): built with clang's -fsanitize=fuzzer it
// is libFuzzer's LLVMFuzzerTestOneInput (tests/fuzz/project); built into
// kopt_fuzz_replay (any compiler, KOPT_FUZZ_REPLAY) it is registered by name
// so that ctest replays the seeds and the committed regression inputs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <string>

#include "core/expr.hpp"
#include "core/json_io.hpp"
#include "kopt/cli/cli_args.hpp"

namespace kopt::fuzz {

using target_fn = int (*)(const std::uint8_t* data, std::size_t size);

// Replay build only: the table kopt_fuzz_replay looks targets up in.
bool register_target(const char* name, target_fn fn);

// The longest error message a reader may give: every message names a file
// and a field and quotes at most k_max_quote characters of the input, so a
// longer one quotes input unshortened (a finding).
inline constexpr std::size_t k_max_message = 2048;

// `data` written to `name` in a directory of this process (readers that
// take a path read it there).
std::filesystem::path temp_file(const std::uint8_t* data, std::size_t size, const std::string& name);

// The directory temp_file writes into.
std::filesystem::path temp_dir();

[[noreturn]] inline void finding(const char* what, const char* detail) {
  std::fprintf(stderr, "kopt fuzz finding: %s: %.4000s\n", what, detail);
  std::abort();
}

inline void check_message(const char* message) {
  if (std::string(message).size() > k_max_message) finding("error message too long (unshortened quote)", message);
}

// Runs `body`. The errors a reader throws on bad input (format_error,
// expr_error, usage_error) are expected outcomes; any other exception is a
// finding: a bare library message naming no file or field.
template <class Body>
int guarded(Body&& body) {
  try {
    body();
  } catch (const format_error& e) {
    check_message(e.what());
  } catch (const expr_error& e) {
    check_message(e.what());
  } catch (const usage_error& e) {
    check_message(e.what());
  } catch (const std::exception& e) {
    finding("unexpected exception", e.what());
  }
  return 0;
}

}  // namespace kopt::fuzz

#ifdef KOPT_FUZZ_REPLAY
#define KOPT_FUZZ_TARGET(name)                                                                  \
  static int kopt_fuzz_##name(const std::uint8_t* data, std::size_t size);                     \
  [[maybe_unused]] static const bool kopt_fuzz_registered_##name =                              \
      kopt::fuzz::register_target(#name, kopt_fuzz_##name);                                     \
  static int kopt_fuzz_##name(const std::uint8_t* data, std::size_t size)
#else
#define KOPT_FUZZ_TARGET(name) extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
#endif
