// The static checks of one variant: its claimed METHODS and its own
// SASS_SIGNATURES searched in its kernels' SASS, and its resource limits
// (MAX_REGISTERS, NO_SPILLS, NO_LOCAL_MEMORY). Computation only:
// evaluate() returns findings; report_result() (the kernelopt.static
// document) and render_table() format them.
//
// Only the variant's own kernels are judged (ownership.hpp: defined in its
// SOURCES): a claim matched only in other kernels of its objects, e.g.
// ones a shared header defines, fails naming where it was found; limits
// apply to the own kernels. A variant with claims or limits but no own
// kernel fails.
//
// A signature is an ECMAScript regex searched (not anchored) in each
// instruction's text: the opcode with its modifiers and the operands,
// without the predicate guard, the address or the encoding
// ("LDG.E.128.CONSTANT R8, desc[UR4][R2.64]"). A claim is verified when it
// matches at least one instruction of at least one own function; an empty
// signature means the method has no machine-code signature: it is reported
// "no signature" (not machine-checkable), never "found".
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/json_io.hpp"
#include "formats/static_result.hpp"
#include "static/sass.hpp"

namespace kopt::sass {

struct signature {
  std::string m_name;   // a METHOD ("warp_shuffle") or a SASS_SIGNATURES name
  std::string m_regex;  // empty: no SASS signature
  std::string m_source; // "METHODS" or "SASS_SIGNATURES"
};

struct limits {
  std::optional<long> m_max_registers;  // MAX_REGISTERS
  bool m_no_spills = false;             // NO_SPILLS: no STL / LDL
  bool m_no_local_memory = false;       // NO_LOCAL_MEMORY: no STL / LDL, no stack frame, no LOCAL
};

struct match_site {
  std::string m_function;  // demangled
  std::string m_arch;
  long m_count = 0;
};

struct signature_result {
  signature m_signature;
  enum class status { found, missing, no_signature } m_status = status::missing;
  long m_count = 0;  // matching instructions over every own function
  std::vector<match_site> m_sites;
  std::vector<match_site> m_elsewhere;  // matches in functions that are not the variant's own
  std::vector<std::string> m_archs_without;  // architectures in which it matched nothing (when found in another)
};

struct limit_result {
  std::string m_name;    // "MAX_REGISTERS", "NO_SPILLS", "NO_LOCAL_MEMORY"
  std::string m_limit;   // "128", "0 STL/LDL"
  bool m_pass = true;
  std::vector<std::string> m_violations;  // "softmax_v2_kernel(...) [sm_90a]: 168 registers"
};

struct report {
  std::string m_kernel;
  std::string m_variant;
  std::vector<std::string> m_objects;
  std::vector<std::string> m_sources;  // the variant's SOURCES: what makes a kernel its own
  std::vector<function> m_functions;   // every function of the objects, own or not
  std::vector<signature_result> m_signatures;  // METHODS first, in claim order, then SASS_SIGNATURES
  std::vector<limit_result> m_limits;
  std::vector<std::string> m_failures;  // one line each; empty: pass
  std::vector<std::string> m_notes;

  [[nodiscard]] bool passed() const { return m_failures.empty(); }
};

// `functions` carry their ownership (assign_ownership). Throws
// std::invalid_argument naming the signature when a regex does not compile.
[[nodiscard]] report evaluate(const std::string& kernel, const std::string& variant,
                              const std::vector<std::string>& objects, const std::vector<std::string>& sources,
                              std::vector<function> functions,
                              const std::vector<signature>& signatures, const limits& limits);

// The kernelopt.static document of a check (formats/static_result.hpp;
// to_json writes it), with the cuobjdump that was run and its version.
[[nodiscard]] static_result report_result(const report& r, const std::string& cuobjdump, const std::string& version);

// The same document for a run that checked nothing (status "skipped").
[[nodiscard]] static_result skipped_result(const std::string& kernel, const std::string& variant,
                                           const std::string& reason);

// A human-readable summary: one line per function, one per claim and limit,
// then the failures.
[[nodiscard]] std::string render_table(const report& r);

}  // namespace kopt::sass
