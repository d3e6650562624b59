#include "core/dtype.hpp"

#include <cmath>
#include <cstring>

namespace kopt {

const char* to_string(dtype t) {
  switch (t) {
    case dtype::f64: return "f64";
    case dtype::f32: return "f32";
    case dtype::f16: return "f16";
    case dtype::bf16: return "bf16";
    case dtype::i32: return "i32";
    case dtype::i64: return "i64";
    case dtype::u8: return "u8";
  }
  return "unknown";
}

bool parse_dtype(const std::string& text, dtype& out) {
  for (const dtype t : {dtype::f64, dtype::f32, dtype::f16, dtype::bf16, dtype::i32, dtype::i64,
                        dtype::u8}) {
    if (text == to_string(t)) {
      out = t;
      return true;
    }
  }
  return false;
}

std::size_t size_of(dtype t) {
  switch (t) {
    case dtype::f64:
    case dtype::i64: return 8;
    case dtype::f32:
    case dtype::i32: return 4;
    case dtype::f16:
    case dtype::bf16: return 2;
    case dtype::u8: return 1;
  }
  return 0;
}

bool is_floating(dtype t) {
  return t == dtype::f64 || t == dtype::f32 || t == dtype::f16 || t == dtype::bf16;
}

namespace {
template <typename T>
T load(const void* base, std::size_t index) {
  T value;
  std::memcpy(&value, static_cast<const unsigned char*>(base) + index * sizeof(T), sizeof(T));
  return value;
}
template <typename T>
void store(void* base, std::size_t index, T value) {
  std::memcpy(static_cast<unsigned char*>(base) + index * sizeof(T), &value, sizeof(T));
}
std::uint32_t bits_of(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}
float float_of(std::uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}
}  // namespace

double load_element(dtype t, const void* base, std::size_t index) {
  switch (t) {
    case dtype::f64: return load<double>(base, index);
    case dtype::f32: return load<float>(base, index);
    case dtype::f16: return half_to_float(load<std::uint16_t>(base, index));
    case dtype::bf16: return bfloat16_to_float(load<std::uint16_t>(base, index));
    case dtype::i32: return load<std::int32_t>(base, index);
    case dtype::i64: return static_cast<double>(load<std::int64_t>(base, index));
    case dtype::u8: return load<std::uint8_t>(base, index);
  }
  return 0;
}

void store_element(dtype t, void* base, std::size_t index, double value) {
  switch (t) {
    case dtype::f64: store<double>(base, index, value); return;
    case dtype::f32: store<float>(base, index, static_cast<float>(value)); return;
    case dtype::f16: store<std::uint16_t>(base, index, float_to_half(static_cast<float>(value))); return;
    case dtype::bf16:
      store<std::uint16_t>(base, index, float_to_bfloat16(static_cast<float>(value)));
      return;
    case dtype::i32: store<std::int32_t>(base, index, static_cast<std::int32_t>(std::llround(value))); return;
    case dtype::i64: store<std::int64_t>(base, index, static_cast<std::int64_t>(std::llround(value))); return;
    case dtype::u8: store<std::uint8_t>(base, index, static_cast<std::uint8_t>(std::llround(value))); return;
  }
}

float bfloat16_to_float(std::uint16_t bits) { return float_of(static_cast<std::uint32_t>(bits) << 16); }

std::uint16_t float_to_bfloat16(float value) {
  const std::uint32_t u = bits_of(value);
  if (std::isnan(value)) return static_cast<std::uint16_t>((u >> 16) | 0x0040u);  // stay NaN
  const std::uint32_t rounding = 0x7FFFu + ((u >> 16) & 1u);                       // to nearest even
  return static_cast<std::uint16_t>((u + rounding) >> 16);
}

float half_to_float(std::uint16_t h) {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
  const std::uint32_t exponent = (h >> 10) & 0x1Fu;
  std::uint32_t mantissa = h & 0x3FFu;
  if (exponent == 0x1F) return float_of(sign | 0x7F800000u | (mantissa << 13));  // inf / NaN
  if (exponent != 0) return float_of(sign | ((exponent + 112) << 23) | (mantissa << 13));
  if (mantissa == 0) return float_of(sign);
  // Subnormal half: value = mantissa * 2^-24.
  const float magnitude = static_cast<float>(mantissa) * 5.9604644775390625e-8f;
  return sign != 0 ? -magnitude : magnitude;
}

std::uint16_t float_to_half(float value) {
  const std::uint32_t u = bits_of(value);
  const std::uint16_t sign = static_cast<std::uint16_t>((u >> 16) & 0x8000u);
  const float magnitude = std::fabs(value);
  if (std::isnan(value)) return static_cast<std::uint16_t>(sign | 0x7E00u);
  if (magnitude >= 65520.0f) return static_cast<std::uint16_t>(sign | 0x7C00u);  // rounds to inf
  if (magnitude < 6.103515625e-05f) {
    // Subnormal or zero: round magnitude / 2^-24 to nearest even integer.
    const float scaled = magnitude * 16777216.0f;
    const auto m = static_cast<std::uint16_t>(std::nearbyint(scaled));
    return static_cast<std::uint16_t>(sign | m);
  }
  const std::uint32_t exponent = ((u >> 23) & 0xFFu) - 112u;
  std::uint32_t mantissa = u & 0x7FFFFFu;
  std::uint32_t half = (exponent << 10) | (mantissa >> 13);
  const std::uint32_t rest = mantissa & 0x1FFFu;
  if (rest > 0x1000u || (rest == 0x1000u && (half & 1u))) ++half;  // nearest even; may carry into exp
  return static_cast<std::uint16_t>(sign | half);
}

}  // namespace kopt
