// Where each kernel is defined, from the line table of its machine code:
// `nvdisasm --print-line-info-inline` (-gi) on the cubins that
// `cuobjdump -xelf all` extracts from an object. Present when the object
// was compiled with -lineinfo (or -G), which the generated variant targets
// are (cmake/kernelopt/Static.cmake); -lineinfo adds a line table and does
// not change the machine code.
//
// The layout parsed (nvdisasm 13.x; captured output under tests/static/data/):
//
//   	.target	sm_90a
//   ...
//   .text._Z7add_onePKfPfi:
//   	//## File "/src/variant_a.cu", line 6
//           /*0000*/                   LDC R1, c[0x0][0x28] ;
//   ...
//   	//## File "/cuda/include/sm_30_intrinsics.hpp", line 449 inlined at "/src/common.cuh", line 9
//
// A kernel's first line-table entry is its opening line (the prologue);
// when that entry is inlined code, its outermost "inlined at" location is
// the kernel's. That file is where the kernel is defined.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "static/sass.hpp"

namespace kopt::sass {

// (arch, mangled name) -> the file that defines the function. Functions
// without a line-table entry are absent.
using definition_table = std::map<std::pair<std::string, std::string>, std::string>;

[[nodiscard]] definition_table parse_line_info(const std::string& nvdisasm_text);

// Sets m_defined_in (and m_defined_by "line info") of each function found
// in `table`; the others are left as they are.
void attach_definitions(std::vector<function>& functions, const definition_table& table);

}  // namespace kopt::sass
