// Element types: names, sizes, and conversion of one element to and from
// double, including IEEE half and bfloat16 (round to nearest even).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "kernelopt/detail/kernel_spec.hpp"

namespace kopt {

[[nodiscard]] const char* to_string(dtype t);
[[nodiscard]] bool parse_dtype(const std::string& text, dtype& out);
[[nodiscard]] std::size_t size_of(dtype t);
[[nodiscard]] bool is_floating(dtype t);

[[nodiscard]] double load_element(dtype t, const void* base, std::size_t index);
void store_element(dtype t, void* base, std::size_t index, double value);

[[nodiscard]] float half_to_float(std::uint16_t bits);
[[nodiscard]] std::uint16_t float_to_half(float value);
[[nodiscard]] float bfloat16_to_float(std::uint16_t bits);
[[nodiscard]] std::uint16_t float_to_bfloat16(float value);

}  // namespace kopt
