// Arithmetic expressions over named values: shape axes ("M*K"), work models
// ("2*M*N*K") and stop conditions ("tflops >= 0.9*peak.bf16_tensor").
//
// Grammar (same as the configure-time check in cmake/kernelopt/Expr.cmake):
//   condition := sum (('<' | '<=' | '>' | '>=' | '==' | '!=') sum)?
//   sum       := product (('+' | '-') product)*
//   product   := unary (('*' | '/' | '%') unary)*
//   unary     := '-' unary | power
//   power     := atom ('^' unary)?
//   atom      := number | name | name '(' args ')' | '(' sum ')'
//   name      := [A-Za-z_][A-Za-z0-9_.]*      (dots allowed: peak.bf16_tensor)
// Functions: min, max, ceil, floor, sqrt, log2, ceil_div.
// Nesting ('(', unary '-', '^') deeper than k_max_expr_depth is an error;
// messages quote at most 80 characters of the expression.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace kopt {

inline constexpr std::size_t k_max_expr_depth = 100;

class expr_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Returns the value of `name`, or std::nullopt when it is unknown.
using name_lookup = std::function<std::optional<double>(const std::string& name)>;

// Throws expr_error (naming the expression and the position) on bad syntax
// or an unknown name.
[[nodiscard]] double evaluate(const std::string& text, const name_lookup& lookup);
[[nodiscard]] double evaluate(const std::string& text, const std::map<std::string, double>& values);

// The names an expression refers to (function names excluded), in order of
// first use. Throws expr_error on bad syntax.
[[nodiscard]] std::vector<std::string> referenced_names(const std::string& text);

// A stop condition "lhs OP rhs", split; throws expr_error if `text` has no
// single comparison at its top level.
struct comparison {
  std::string m_lhs;
  std::string m_op;
  std::string m_rhs;
};
[[nodiscard]] comparison split_comparison(const std::string& text);

}  // namespace kopt
