// Which functions in a variant's objects are the variant's own. The static
// checks judge those only (DESIGN.md, evidence rules: static claims are
// about the variant's own kernels, not kernels that came in with a shared
// header). The rule, per function:
//
//   1. Line info (line_info.hpp): own when the file that defines the kernel
//      is one of the variant's SOURCES.
//   2. Fallback, for a function without line info (an object compiled
//      without -lineinfo): own when one of the SOURCES defines a
//      __global__ function of that unqualified name (global_function_names,
//      a rough tokenizer: namespaces, overloads and template arguments are
//      not told apart, and a kernel a macro defines is not seen).
//
// A kernel defined in a header is not own, even when only this variant
// includes that header: list the header in SOURCES to make it own.
//
// NOTE: not "the kernels the entry can launch": the host object does not
// say so reliably. At -O3 nvcc's launch stubs are inlined into the entry,
// which then names the kernel only through section-relative references to
// the stub's static handle (".bss+0x4"), and GCC shares the stubs' .cold
// blocks, so a call graph of the host code links the entry to kernels it
// never launches (seen with nvcc 13.0 / GCC 12 on tests/static/data/kernels/shared).
#pragma once

#include <string>
#include <vector>

#include "static/sass.hpp"

namespace kopt::sass {

// The names of the __global__ functions `text` defines (declarations
// without a body are left out), in order, each once.
[[nodiscard]] std::vector<std::string> global_function_names(const std::string& text);

// "void (anonymous namespace)::k<float, 8>(float const*, long)" -> "k".
[[nodiscard]] std::string unqualified_name(const std::string& demangled);

// Whether two paths name one file (symbolic links and ".." resolved).
[[nodiscard]] bool same_file(const std::string& a, const std::string& b);

// Whether `recorded`, a path in a line table, names `source` as seen from
// another checkout: the two paths end in the same two or more components
// (directory and file name), and `recorded` is gone or has the same bytes. A compiler cache
// that rewrites paths under its base directory (ccache base_dir) returns
// objects compiled in another checkout, whose line tables name its files.
[[nodiscard]] bool same_file_elsewhere(const std::string& recorded, const std::string& source);

// Sets m_own of every function, and m_defined_in / m_defined_by of those
// the fallback decides. `sources` (the variant's SOURCES) are read only
// for the fallback. Returns notes: which rule decided how many functions,
// sources that could not be read.
[[nodiscard]] std::vector<std::string> assign_ownership(std::vector<function>& functions,
                                                        const std::vector<std::string>& sources);

}  // namespace kopt::sass
