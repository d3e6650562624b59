// The expression parser (FLOPS / BYTES work models, TARGET conditions),
// shape strings and dtype names. The input's first line is the expression
// or condition, the second a shape.
#include "core/dtype.hpp"
#include "fuzz_target.hpp"
#include "kopt/decide/targets.hpp"

KOPT_FUZZ_TARGET(expr) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const std::size_t newline = text.find('\n');
  const std::string expression = text.substr(0, newline);
  const std::string shape = newline == std::string::npos ? "M=64,N=32,K=16" : text.substr(newline + 1);
  std::map<std::string, double> values = kopt::shape::parse(shape).values();
  values["tflops"] = 1.5;
  values["peak.bf16_tensor"] = 989.0;
  kopt::fuzz::guarded([&] { (void)kopt::evaluate(expression, values); });
  kopt::fuzz::guarded([&] { (void)kopt::referenced_names(expression); });
  kopt::fuzz::guarded([&] { (void)kopt::split_comparison(expression); });
  kopt::dtype t{};
  (void)kopt::parse_dtype(expression, t);
  return 0;
}
