#include "harness/inputs.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <stdexcept>
#include <utility>

#include "core/dtype.hpp"
#include "core/expr.hpp"
#include "kernelopt/parallel.hpp"

namespace kopt {

std::map<std::string, double> dim_values(const kernel_spec& spec, const shape_spec& shape) {
  std::map<std::string, double> values;
  for (std::size_t i = 0; i < spec.m_dims.size() && i < shape.m_dims.size(); ++i) {
    values[spec.m_dims[i]] = static_cast<double>(shape.m_dims[i]);
  }
  return values;
}

std::vector<std::int64_t> extents(const kernel_spec& spec, const arg_spec& arg,
                                  const shape_spec& shape) {
  const std::map<std::string, double> dims = dim_values(spec, shape);
  std::vector<std::int64_t> result;
  for (const std::string& axis : arg.m_shape) {
    const double value = evaluate(axis, dims);
    // 2^63 is the first double that does not fit an int64_t: casting it (or
    // NaN, or infinity) is undefined behaviour, so it is refused first.
    if (!(value >= 0) || value >= 0x1.0p63 || value != std::floor(value)) {
      throw std::runtime_error("argument '" + arg.m_name + "': axis \"" + axis + "\" is " +
                               std::to_string(value) + " at " + shape.m_text +
                               " (must be a non-negative integer below 2^63)");
    }
    result.push_back(static_cast<std::int64_t>(value));
  }
  return result;
}

std::size_t element_count(const kernel_spec& spec, const arg_spec& arg, const shape_spec& shape) {
  std::int64_t count = 1;
  for (const std::int64_t e : extents(spec, arg, shape)) {
    if (__builtin_mul_overflow(count, e, &count)) {
      throw std::runtime_error("argument '" + arg.m_name + "': its element count overflows int64 at " +
                               shape.m_text);
    }
  }
  std::int64_t bytes = 0;
  if (__builtin_mul_overflow(count, static_cast<std::int64_t>(size_of(arg.m_dtype)), &bytes) ||
      bytes > k_max_tensor_bytes) {
    throw std::runtime_error("argument '" + arg.m_name + "': " + std::to_string(count) +
                             " elements at " + shape.m_text + " exceed the limit of " +
                             std::to_string(k_max_tensor_bytes) + " bytes (2^48) per tensor");
  }
  return static_cast<std::size_t>(count);
}

double work(const kernel_spec& spec, const std::string& expression, const shape_spec& shape) {
  if (expression.empty()) return 0;
  return evaluate(expression, dim_values(spec, shape));
}

namespace {

// Distributions written out rather than std::uniform_real_distribution & co.,
// whose output differs between standard libraries: a seed must mean the same
// data on every machine that records it.
class generator {
 public:
  // One stream per (seed, argument, chunk of k_parallel_chunk elements), so
  // the data do not depend on how many threads fill it.
  generator(std::uint64_t seed, std::size_t arg_index, std::size_t chunk) {
    std::seed_seq seq{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32),
                      static_cast<std::uint32_t>(arg_index), static_cast<std::uint32_t>(chunk),
                      static_cast<std::uint32_t>(chunk >> 32), 0x6b6f7074u};
    m_engine.seed(seq);
  }
  double unit() { return static_cast<double>(m_engine() >> 11) * 0x1.0p-53; }  // [0, 1)
  double normal() {
    if (m_have_spare) {
      m_have_spare = false;
      return m_spare;
    }
    double u1 = unit();
    while (u1 <= 0) u1 = unit();
    const double u2 = unit();
    const double r = std::sqrt(-2.0 * std::log(u1));
    m_spare = r * std::sin(2.0 * M_PI * u2);
    m_have_spare = true;
    return r * std::cos(2.0 * M_PI * u2);
  }
  std::uint64_t next() { return m_engine(); }

 private:
  std::mt19937_64 m_engine;
  bool m_have_spare = false;
  double m_spare = 0;
};

// The most standard deviations a normal draw of `generator` reaches:
// r = sqrt(-2 ln u1) with u1 >= 2^-53 is at most sqrt(106 ln 2) = 8.5717.
// The configure uses the same bound (cmake/kernelopt/Parse.cmake).
constexpr double k_normal_reach = 8.58;

// The finite values a dtype holds, [lowest, highest].
std::pair<double, double> dtype_range(dtype t) {
  switch (t) {
    case dtype::u8: return {0.0, 255.0};
    case dtype::i32: return {-2147483648.0, 2147483647.0};
    case dtype::i64: return {-0x1.0p63, 0x1.0p63};
    case dtype::f16: return {-65504.0, 65504.0};
    case dtype::bf16: return {-0x1.fep127, 0x1.fep127};
    case dtype::f32: return {-0x1.fffffep127, 0x1.fffffep127};
    case dtype::f64: break;
  }
  return {-std::numeric_limits<double>::max(), std::numeric_limits<double>::max()};
}

// Every value the fill can draw, [lo, hi], must be a finite value of the
// argument's dtype: beyond it a store wraps (integers) or becomes infinite.
// The configure refuses what it can evaluate exactly; this catches the
// rest (bounds with sqrt, log2).
void check_fill_range(const arg_spec& arg, const shape_spec& shape, double lo, double hi) {
  const auto [lowest, highest] = dtype_range(arg.m_dtype);
  if (lo >= lowest && hi <= highest) return;
  throw std::runtime_error("argument '" + arg.m_name + "': INIT draws values from " + std::to_string(lo) + " to " +
                           std::to_string(hi) + " at " + shape.m_text + ", beyond " + to_string(arg.m_dtype) +
                           " (" + std::to_string(lowest) + " to " + std::to_string(highest) + ")");
}

void fill(const kernel_spec& spec, const arg_spec& arg, const shape_spec& shape,
          std::uint64_t seed, std::size_t arg_index, tensor_bytes& data) {
  const std::map<std::string, double> dims = dim_values(spec, shape);
  const double a = evaluate(arg.m_init.m_a, dims);
  const double b = evaluate(arg.m_init.m_b, dims);
  const std::size_t count = data.size() / size_of(arg.m_dtype);
  std::int64_t low = 0;
  std::uint64_t span = 1;
  if (arg.m_init.m_kind == init_spec::kind::randint) {
    // Bounds beyond +-2^62 cannot be cast (or subtracted) in int64.
    for (const double bound : {a, b}) {
      if (!(std::fabs(bound) < 0x1.0p62)) {
        throw std::runtime_error("argument '" + arg.m_name + "': randint bound " + std::to_string(bound) +
                                 " at " + shape.m_text + " is not a number below 2^62 in magnitude");
      }
    }
    low = static_cast<std::int64_t>(std::ceil(a));
    const auto high = static_cast<std::int64_t>(std::ceil(b));
    if (high <= low) {
      throw std::runtime_error("argument '" + arg.m_name + "': randint range [" + std::to_string(low) + ", " +
                               std::to_string(high) + ") is empty at " + shape.m_text);
    }
    span = static_cast<std::uint64_t>(high - low);
    check_fill_range(arg, shape, static_cast<double>(low), static_cast<double>(high - 1));
  } else if (arg.m_init.m_kind == init_spec::kind::uniform) {
    check_fill_range(arg, shape, std::min(a, b), std::max(a, b));
  } else {
    check_fill_range(arg, shape, a - k_normal_reach * std::fabs(b), a + k_normal_reach * std::fabs(b));
  }
  unsigned char* out = data.data();
  parallel_chunks(count, k_parallel_chunk, [&](std::size_t chunk, std::size_t begin, std::size_t end) {
    generator gen(seed, arg_index, chunk);
    for (std::size_t i = begin; i < end; ++i) {
      double value = 0;
      switch (arg.m_init.m_kind) {
        case init_spec::kind::uniform: value = a + (b - a) * gen.unit(); break;
        case init_spec::kind::normal: value = a + b * gen.normal(); break;
        case init_spec::kind::randint:
          value = static_cast<double>(low + static_cast<std::int64_t>(gen.next() % span));
          break;
      }
      store_element(arg.m_dtype, out, i, value);
    }
  });
}

}  // namespace

host_tensors make_inputs(const kernel_spec& spec, const shape_spec& shape, std::uint64_t seed) {
  host_tensors tensors;
  tensors.m_data.resize(spec.m_args.size());
  for (std::size_t i = 0; i < spec.m_args.size(); ++i) {
    const arg_spec& arg = spec.m_args[i];
    tensor_bytes& data = tensors.m_data[i];
    data.resize(element_count(spec, arg, shape) * size_of(arg.m_dtype));  // not zeroed (tensor_memory.hpp)
    if (arg.m_dir != arg_dir::out) {
      fill(spec, arg, shape, seed, i, data);
    } else {
      unsigned char* out = data.data();
      parallel_chunks(data.size(), k_parallel_chunk, [&](std::size_t, std::size_t begin, std::size_t end) {
        std::memset(out + begin, 0, end - begin);
      });
    }
  }
  return tensors;
}

}  // namespace kopt
