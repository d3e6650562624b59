// Machine code of compiled CUDA objects, as `cuobjdump -sass` and
// `cuobjdump -res-usage` print it: one entry per (architecture, function),
// with its instructions and its resource usage. Parsing only: what to check
// is in check.hpp, running cuobjdump in tool.hpp.
//
// The layout parsed (cuobjdump 12.x / 13.x; captured outputs under
// tests/static/data/):
//
//   Fatbin elf code:
//   ================
//   arch = sm_90a
//   ...
//           Function : _Z8warp_sumPKfPfi
//   .headerflags  @"EF_CUDA_..."
//           /*0000*/                   LDC R1, c[0x0][0x28] ;   /* 0x00000a00ff017b82 */
//                                                               /* 0x000fe20000000800 */
//           /*0070*/               @P0 EXIT ;                   /* 0x000000000000094d */
//
//   Resource usage:
//    Function _Z8warp_sumPKfPfi:
//     REG:12 STACK:0 SHARED:0 LOCAL:0 CONSTANT[0]:548 TEXTURE:0 SURFACE:0 SAMPLER:0
//
// "Fatbin ptx code:" sections carry no machine code and are skipped.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace kopt::sass {

struct instruction {
  std::string m_guard;   // "@P0", "@!P1" or ""
  std::string m_opcode;  // "LDG.E.128.CONSTANT"
  std::string m_text;    // opcode and operands without the guard: "LDG.E.128.CONSTANT R8, desc[UR4][R2.64]"

  // "LDG": the opcode up to its first '.'.
  [[nodiscard]] std::string family() const;
};

struct resource_usage {
  std::optional<long> m_registers;     // REG
  std::optional<long> m_stack_bytes;   // STACK: the per-thread stack frame
  std::optional<long> m_shared_bytes;  // SHARED: static shared memory per block
  std::optional<long> m_local_bytes;   // LOCAL
  std::optional<long> m_constant0_bytes;  // CONSTANT[0]: kernel parameters and driver constants
};

struct function {
  std::string m_mangled;  // as in the ELF: "_Z8warp_sumPKfPfi"
  std::string m_arch;     // "sm_90a"
  std::string m_object;   // the object file it came from
  std::vector<instruction> m_instructions;
  resource_usage m_usage;
  bool m_has_usage = false;  // -res-usage reported this function
  // Where the function is defined and whether that is one of the variant's
  // SOURCES (ownership.hpp): "" / "" / false until someone finds out.
  std::string m_defined_in;  // a file path; empty: unknown
  std::string m_defined_by;  // "line info", "source text" or ""
  bool m_own = false;

  // C++ name, demangled when the symbol is a mangled one.
  [[nodiscard]] std::string name() const;
  // STL / LDL: local-memory stores and loads (register spills, or a local
  // array: the machine code does not tell them apart).
  [[nodiscard]] long local_stores() const;
  [[nodiscard]] long local_loads() const;
  // Instruction count per opcode family ("FFMA": 12), NOPs included.
  [[nodiscard]] std::map<std::string, long> families() const;
};

// Functions with their instructions, in the order cuobjdump prints them.
// `object` is recorded on each. Lines that are not part of a machine-code
// section are ignored.
[[nodiscard]] std::vector<function> parse_sass(const std::string& text, const std::string& object);

// (arch, mangled name) -> usage, from `cuobjdump -res-usage`.
using usage_table = std::map<std::pair<std::string, std::string>, resource_usage>;
[[nodiscard]] usage_table parse_resource_usage(const std::string& text);

// Copies each function's usage from `table` (matched on arch and mangled name).
void attach_usage(std::vector<function>& functions, const usage_table& table);

// Symbols longer than this stay mangled (the demangler recurses).
inline constexpr std::size_t k_max_demangle = 4096;

// abi::__cxa_demangle, or `symbol` unchanged when it is not a mangled name.
// NOTE: names longer than k_max_demangle are returned unchanged.
[[nodiscard]] std::string demangle(const std::string& symbol);

}  // namespace kopt::sass
