#include "harness/compare.hpp"

#include <cmath>
#include <cstring>
#include <sstream>

#include "core/dtype.hpp"
#include "kernelopt/parallel.hpp"

namespace kopt {
namespace {

template <typename T>
void fill_pattern(void* data, std::size_t count, T pattern) {
  auto* out = static_cast<unsigned char*>(data);
  for (std::size_t i = 0; i < count; ++i) std::memcpy(out + i * sizeof(T), &pattern, sizeof(T));
}

template <typename T>
bool has_pattern(const void* data, std::size_t index, T pattern) {
  T value;
  std::memcpy(&value, static_cast<const unsigned char*>(data) + index * sizeof(T), sizeof(T));
  return value == pattern;
}

constexpr std::uint64_t k_poison_f64 = 0x7FF8DEADBEEFDEADull;
constexpr std::uint32_t k_poison_f32 = 0x7FCDEAD5u;
constexpr std::uint16_t k_poison_f16 = 0x7E5Au;
constexpr std::uint16_t k_poison_bf16 = 0x7FDAu;

std::string format_index(const std::vector<std::int64_t>& index) {
  std::ostringstream out;
  out << '[';
  for (std::size_t i = 0; i < index.size(); ++i) out << (i ? ", " : "") << index[i];
  out << ']';
  return out.str();
}

// Where the first changed guard byte is, or npos.
std::size_t first_changed(const unsigned char* guard, std::size_t bytes) {
  for (std::size_t i = 0; i < bytes; ++i) {
    if (guard[i] != k_canary_byte) return i;
  }
  return std::string::npos;
}

// One chunk's share of compare_output, merged in chunk order so that
// "first" means the lowest index whatever the thread count.
struct partial {
  double m_max_abs = 0, m_max_rel = 0, m_diff_sq = 0, m_ref_sq = 0;
  std::size_t m_mismatches = 0, m_nonfinite = 0, m_unwritten = 0;
  std::optional<mismatch> m_first_mismatch, m_first_unwritten;
};

// Elements [begin, end) of one output. `load(i)` is element i as double and
// `poisoned(i)` whether it still holds the poison pattern: passed in per
// element type so that both are inlined (a switch on the type per element
// took longer than the comparison itself).
template <typename Load, typename Poisoned>
void compare_range(partial& p, std::size_t begin, std::size_t end, const double* expected, bool floating,
                   const tolerance_spec& tolerance, const std::vector<std::int64_t>& extents, bool check_unwritten,
                   Load load, Poisoned poisoned) {
  for (std::size_t i = begin; i < end; ++i) {
    const double want = expected[i];
    const double got = load(i);
    if (check_unwritten && poisoned(i) && !(floating ? std::isnan(want) : got == want)) {
      if (!p.m_first_unwritten) p.m_first_unwritten = mismatch{i, unflatten(i, extents), got, want};
      ++p.m_unwritten;
      ++p.m_mismatches;
      continue;
    }
    bool bad = false;
    if (!std::isfinite(want)) {
      // A non-finite reference must be matched exactly (same inf, or NaN).
      bad = std::isnan(want) ? !std::isnan(got) : got != want;
    } else if (!std::isfinite(got)) {
      ++p.m_nonfinite;
      bad = true;
    } else {
      const double err = std::fabs(got - want);
      p.m_max_abs = std::max(p.m_max_abs, err);
      if (want != 0) p.m_max_rel = std::max(p.m_max_rel, err / std::fabs(want));
      p.m_diff_sq += err * err;
      p.m_ref_sq += want * want;
      bad = err > tolerance.m_atol + tolerance.m_rtol * std::fabs(want);
    }
    if (bad) {
      if (!p.m_first_mismatch) p.m_first_mismatch = mismatch{i, unflatten(i, extents), got, want};
      ++p.m_mismatches;
    }
  }
}

template <typename T>
T bits_at(const unsigned char* data, std::size_t index) {
  T value;
  std::memcpy(&value, data + index * sizeof(T), sizeof(T));
  return value;
}

// bf16 is a float's upper half (core/dtype.hpp's bfloat16_to_float, inlined).
double bf16_value(std::uint16_t bits) {
  const std::uint32_t word = static_cast<std::uint32_t>(bits) << 16;
  float value;
  std::memcpy(&value, &word, sizeof value);
  return value;
}

}  // namespace

void poison(dtype t, void* data, std::size_t count) {
  switch (t) {
    case dtype::f64: fill_pattern(data, count, k_poison_f64); return;
    case dtype::f32: fill_pattern(data, count, k_poison_f32); return;
    case dtype::f16: fill_pattern(data, count, k_poison_f16); return;
    case dtype::bf16: fill_pattern(data, count, k_poison_bf16); return;
    case dtype::i32:
    case dtype::i64:
    case dtype::u8: std::memset(data, 0xCD, count * size_of(t)); return;
  }
}

bool is_poison(dtype t, const void* data, std::size_t index) {
  switch (t) {
    case dtype::f64: return has_pattern(data, index, k_poison_f64);
    case dtype::f32: return has_pattern(data, index, k_poison_f32);
    case dtype::f16: return has_pattern(data, index, k_poison_f16);
    case dtype::bf16: return has_pattern(data, index, k_poison_bf16);
    case dtype::i32: return has_pattern(data, index, std::uint32_t{0xCDCDCDCDu});
    case dtype::i64: return has_pattern(data, index, std::uint64_t{0xCDCDCDCDCDCDCDCDull});
    case dtype::u8: return has_pattern(data, index, std::uint8_t{0xCD});
  }
  return false;
}

tolerance_spec default_tolerance(dtype t) {
  tolerance_spec tol;
  tol.m_source = std::string("default for ") + to_string(t);
  switch (t) {
    case dtype::f64: tol.m_rtol = tol.m_atol = 1e-10; break;
    case dtype::f32: tol.m_rtol = tol.m_atol = 1e-4; break;
    case dtype::f16:
    case dtype::bf16: tol.m_rtol = tol.m_atol = 1e-2; break;
    default: tol.m_rtol = tol.m_atol = 0; tol.m_source += " (exact)"; break;
  }
  return tol;
}

double default_max_rel_l2(dtype t) {
  switch (t) {
    case dtype::f64: return 1e-6;
    case dtype::f32: return 1e-2;
    default: return 1e-1;  // f16, bf16
  }
}

std::vector<std::int64_t> unflatten(std::size_t flat, const std::vector<std::int64_t>& extents) {
  std::vector<std::int64_t> index(extents.size(), 0);
  for (std::size_t axis = extents.size(); axis-- > 0;) {
    const auto extent = static_cast<std::size_t>(extents[axis] > 0 ? extents[axis] : 1);
    index[axis] = static_cast<std::int64_t>(flat % extent);
    flat /= extent;
  }
  return index;
}

output_check compare_output(const arg_spec& arg, const tolerance_spec& tolerance,
                            const unsigned char* guarded, std::size_t count,
                            const double* expected,
                            const std::vector<std::int64_t>& extents, bool check_unwritten) {
  output_check check;
  check.m_arg = arg.m_name;
  check.m_dtype = arg.m_dtype;
  check.m_elements = count;
  check.m_tolerance = tolerance;

  const std::size_t element_bytes = size_of(arg.m_dtype);
  const unsigned char* data = guarded + k_guard_bytes;
  const std::size_t before = first_changed(guarded, k_guard_bytes);
  const std::size_t after = first_changed(data + count * element_bytes, k_guard_bytes);
  if (before != std::string::npos) {
    check.m_canary = "overwritten before output (" + std::to_string(k_guard_bytes - before) +
                     " bytes before its start)";
  } else if (after != std::string::npos) {
    check.m_canary = "overwritten after output (" + std::to_string(after) + " bytes past its end)";
  }

  const std::size_t chunks = (count + k_parallel_chunk - 1) / k_parallel_chunk;
  std::vector<partial> parts(chunks);
  const dtype type = arg.m_dtype;
  const bool floating = is_floating(type);
  parallel_chunks(count, k_parallel_chunk, [&](std::size_t chunk, std::size_t begin, std::size_t end) {
    partial& p = parts[chunk];
    const auto range = [&](auto load, auto poisoned) {
      compare_range(p, begin, end, expected, floating, tolerance, extents, check_unwritten, load, poisoned);
    };
    switch (type) {
      case dtype::f64:
        range([&](std::size_t i) { return bits_at<double>(data, i); },
              [&](std::size_t i) { return bits_at<std::uint64_t>(data, i) == k_poison_f64; });
        break;
      case dtype::f32:
        range([&](std::size_t i) { return static_cast<double>(bits_at<float>(data, i)); },
              [&](std::size_t i) { return bits_at<std::uint32_t>(data, i) == k_poison_f32; });
        break;
      case dtype::bf16:
        range([&](std::size_t i) { return bf16_value(bits_at<std::uint16_t>(data, i)); },
              [&](std::size_t i) { return bits_at<std::uint16_t>(data, i) == k_poison_bf16; });
        break;
      default:
        range([&](std::size_t i) { return load_element(type, data, i); },
              [&](std::size_t i) { return is_poison(type, data, i); });
        break;
    }
  });
  double diff_sq = 0;
  double ref_sq = 0;
  for (const partial& p : parts) {
    check.m_max_abs = std::max(check.m_max_abs, p.m_max_abs);
    check.m_max_rel = std::max(check.m_max_rel, p.m_max_rel);
    diff_sq += p.m_diff_sq;
    ref_sq += p.m_ref_sq;
    check.m_mismatches += p.m_mismatches;
    check.m_nonfinite += p.m_nonfinite;
    check.m_unwritten += p.m_unwritten;
    if (!check.m_first_mismatch && p.m_first_mismatch) check.m_first_mismatch = p.m_first_mismatch;
    if (!check.m_first_unwritten && p.m_first_unwritten) check.m_first_unwritten = p.m_first_unwritten;
  }
  check.m_rel_l2 = ref_sq > 0 ? std::sqrt(diff_sq / ref_sq) : std::sqrt(diff_sq);
  check.m_reference_zero = !(ref_sq > 0);
  return check;
}

bool output_check::l2_exceeded() const {
  if (!m_tolerance.m_max_rel_l2) return false;
  // A default bound relates the error to the reference: none to relate to
  // when the reference is all zeros (ATOL alone decides there).
  if (m_tolerance.m_max_rel_l2_default && m_reference_zero) return false;
  return !(m_rel_l2 <= *m_tolerance.m_max_rel_l2);
}

bool output_check::passed() const { return m_mismatches == 0 && m_canary == "intact" && !l2_exceeded(); }

std::string output_check::diagnosis() const {
  if (passed()) return {};
  std::ostringstream out;
  out.precision(6);
  out << "output '" << m_arg << "' (" << to_string(m_dtype) << ", " << m_elements << " elements): ";
  if (m_canary != "intact") {
    out << "guard canary " << m_canary << ": the variant wrote out of the bounds of '" << m_arg
        << "'. ";
  }
  if (m_unwritten > 0) {
    out << m_unwritten << " element" << (m_unwritten == 1 ? "" : "s")
        << " never written (still hold the NaN poison), first at "
        << format_index(m_first_unwritten->m_index) << " (flat " << m_first_unwritten->m_flat
        << "). ";
  }
  const std::size_t wrong = m_mismatches - m_unwritten;
  if (wrong > 0) {
    out << wrong << " element" << (wrong == 1 ? "" : "s") << " mismatch";
    if (m_nonfinite > 0) out << " (" << m_nonfinite << " NaN/Inf where the reference is finite)";
    out << " beyond rtol " << m_tolerance.m_rtol << ", atol " << m_tolerance.m_atol
        << "; first at " << format_index(m_first_mismatch->m_index) << " (flat "
        << m_first_mismatch->m_flat << "): got " << m_first_mismatch->m_got << ", expected "
        << m_first_mismatch->m_expected << ". ";
  }
  if (l2_exceeded()) {
    out << "rel-L2 " << m_rel_l2 << " exceeds MAX_REL_L2 " << *m_tolerance.m_max_rel_l2;
    if (m_tolerance.m_max_rel_l2_default) {
      out << " (the default for " << to_string(m_dtype)
          << " where TOLERANCE sets none: the error's L2 norm must stay well below the reference's; "
             "TOLERANCE ... MAX_REL_L2 <x> sets another)";
    }
    out << ". ";
  }
  out << "max_abs=" << m_max_abs << " max_rel=" << m_max_rel << " rel_l2=" << m_rel_l2
      << " mismatches=" << m_mismatches << "/" << m_elements;
  return out.str();
}

}  // namespace kopt
