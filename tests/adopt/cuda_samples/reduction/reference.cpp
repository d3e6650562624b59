// The sum in double (REFERENCE_PRECISION f64: x upcast exactly), chunks on
// all cores, added in chunk order so the result does not depend on them.
#include <kernelopt/parallel.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

void reduction_reference(const double* x, double* sum, std::int64_t n) {
  const auto count = static_cast<std::size_t>(n);
  std::vector<double> partial((count + kopt::k_parallel_chunk - 1) / kopt::k_parallel_chunk, 0.0);
  kopt::parallel_chunks(count, kopt::k_parallel_chunk, [&](std::size_t chunk, std::size_t begin, std::size_t end) {
    double s = 0.0;
    for (std::size_t i = begin; i < end; ++i) s += x[i];
    partial[chunk] = s;
  });
  double total = 0.0;
  for (const double s : partial) total += s;
  sum[0] = total;
}
