#include "core/expr.hpp"

#include <cctype>
#include <cmath>
#include <algorithm>
#include <cstdlib>

namespace kopt {
namespace {

// At most k_max_quote characters of the expression in a message.
std::string shorten_expr(const std::string& text) {
  constexpr std::size_t k_max_quote = 80;
  if (text.size() <= k_max_quote) return text;
  return text.substr(0, k_max_quote) + "...(" + std::to_string(text.size() - k_max_quote) + " more)";
}

// Recursive descent over the grammar in expr.hpp. With a null lookup the
// parser only checks syntax and collects names (referenced_names).
class parser {
 public:
  parser(const std::string& text, const name_lookup* lookup, std::vector<std::string>* names)
      : m_text(text), m_lookup(lookup), m_names(names) {}

  double parse_condition() {
    double lhs = parse_sum();
    skip_space();
    for (const char* op : {"<=", ">=", "==", "!=", "<", ">"}) {
      if (m_text.compare(m_pos, std::char_traits<char>::length(op), op) == 0) {
        m_pos += std::char_traits<char>::length(op);
        const std::string o = op;
        const double rhs = parse_sum();
        if (o == "<=") return lhs <= rhs;
        if (o == ">=") return lhs >= rhs;
        if (o == "==") return lhs == rhs;
        if (o == "!=") return lhs != rhs;
        if (o == "<") return lhs < rhs;
        return lhs > rhs;
      }
    }
    return lhs;
  }

  void expect_end() {
    skip_space();
    if (m_pos != m_text.size()) fail("unexpected '" + std::string(1, m_text[m_pos]) + "'");
  }

 private:
  double parse_sum() {
    double value = parse_product();
    for (;;) {
      skip_space();
      if (accept('+')) {
        value += parse_product();
      } else if (accept('-')) {
        value -= parse_product();
      } else {
        return value;
      }
    }
  }

  double parse_product() {
    double value = parse_unary();
    for (;;) {
      skip_space();
      if (accept('*')) {
        value *= parse_unary();
      } else if (accept('/')) {
        const double d = parse_unary();
        value = (d == 0 && m_lookup != nullptr) ? fail_value("division by zero") : value / d;
      } else if (accept('%')) {
        const double d = parse_unary();
        value = (d == 0 && m_lookup != nullptr) ? fail_value("modulo by zero") : std::fmod(value, d);
      } else {
        return value;
      }
    }
  }

  // Every level of nesting ('(', unary '-', '^') passes here once: the
  // recursion is bounded by k_max_expr_depth, not by the stack.
  double parse_unary() {
    if (++m_depth > k_max_expr_depth) {
      fail("nested deeper than " + std::to_string(k_max_expr_depth) + " levels");
    }
    skip_space();
    const double value = accept('-') ? -parse_unary() : parse_power();
    --m_depth;
    return value;
  }

  double parse_power() {
    const double base = parse_atom();
    skip_space();
    if (accept('^')) return std::pow(base, parse_unary());
    return base;
  }

  double parse_atom() {
    skip_space();
    if (m_pos >= m_text.size()) fail("expression ends early");
    const char c = m_text[m_pos];
    if (accept('(')) {
      const double value = parse_sum();
      skip_space();
      if (!accept(')')) fail("missing ')'");
      return value;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') return parse_number();
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') return parse_name();
    fail("unexpected '" + std::string(1, c) + "'");
  }

  double parse_number() {
    const char* begin = m_text.c_str() + m_pos;
    char* end = nullptr;
    const double value = std::strtod(begin, &end);
    if (end == begin) fail("bad number");
    m_pos += static_cast<std::size_t>(end - begin);
    return value;
  }

  double parse_name() {
    const std::size_t start = m_pos;
    while (m_pos < m_text.size() &&
           (std::isalnum(static_cast<unsigned char>(m_text[m_pos])) || m_text[m_pos] == '_' ||
            m_text[m_pos] == '.')) {
      ++m_pos;
    }
    const std::string name = m_text.substr(start, m_pos - start);
    skip_space();
    if (accept('(')) return parse_call(shorten_expr(name));
    if (m_names != nullptr && std::find(m_names->begin(), m_names->end(), name) == m_names->end()) {
      m_names->push_back(name);
    }
    if (m_lookup == nullptr) return 1.0;
    const std::optional<double> value = (*m_lookup)(name);
    if (!value) fail("unknown name '" + shorten_expr(name) + "'");
    return *value;
  }

  double parse_call(const std::string& name) {
    std::vector<double> args;
    skip_space();
    if (!accept(')')) {
      for (;;) {
        args.push_back(parse_sum());
        skip_space();
        if (accept(')')) break;
        if (!accept(',')) fail("expected ',' or ')' in call of " + name);
      }
    }
    auto arity = [&](std::size_t n) {
      if (args.size() != n) {
        fail(name + "() takes " + std::to_string(n) + " argument" + (n == 1 ? "" : "s"));
      }
    };
    if (name == "min" || name == "max") {
      if (args.empty()) fail(name + "() needs arguments");
      double r = args[0];
      for (const double a : args) r = name == "min" ? std::min(r, a) : std::max(r, a);
      return r;
    }
    if (name == "ceil") return arity(1), std::ceil(args[0]);
    if (name == "floor") return arity(1), std::floor(args[0]);
    if (name == "sqrt") return arity(1), std::sqrt(args[0]);
    if (name == "log2") return arity(1), std::log2(args[0]);
    if (name == "ceil_div") {
      arity(2);
      if (args[1] == 0) return m_lookup != nullptr ? fail_value("ceil_div by zero") : 1.0;
      return std::ceil(args[0] / args[1]);
    }
    fail("unknown function '" + name + "'");
  }

  void skip_space() {
    while (m_pos < m_text.size() && std::isspace(static_cast<unsigned char>(m_text[m_pos]))) ++m_pos;
  }
  bool accept(char c) {
    if (m_pos < m_text.size() && m_text[m_pos] == c) {
      ++m_pos;
      return true;
    }
    return false;
  }
  [[noreturn]] void fail(const std::string& what) const {
    throw expr_error("expression \"" + shorten_expr(m_text) + "\": " + what + " at position " +
                     std::to_string(m_pos + 1));
  }
  double fail_value(const std::string& what) const { fail(what); }

  const std::string& m_text;
  const name_lookup* m_lookup;
  std::vector<std::string>* m_names;
  std::size_t m_pos = 0;
  std::size_t m_depth = 0;
};

}  // namespace

double evaluate(const std::string& text, const name_lookup& lookup) {
  parser p(text, &lookup, nullptr);
  const double value = p.parse_condition();
  p.expect_end();
  return value;
}

double evaluate(const std::string& text, const std::map<std::string, double>& values) {
  return evaluate(text, [&](const std::string& name) -> std::optional<double> {
    const auto it = values.find(name);
    if (it == values.end()) return std::nullopt;
    return it->second;
  });
}

std::vector<std::string> referenced_names(const std::string& text) {
  std::vector<std::string> names;
  parser p(text, nullptr, &names);
  (void)p.parse_condition();
  p.expect_end();
  return names;
}

comparison split_comparison(const std::string& text) {
  int depth = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '(') ++depth;
    if (c == ')') --depth;
    if (depth != 0 || (c != '<' && c != '>' && c != '=' && c != '!')) continue;
    const bool two = i + 1 < text.size() && text[i + 1] == '=';
    if ((c == '=' || c == '!') && !two) continue;
    comparison result{text.substr(0, i), text.substr(i, two ? 2 : 1), text.substr(i + (two ? 2 : 1))};
    (void)referenced_names(result.m_lhs);  // both sides must parse on their own
    (void)referenced_names(result.m_rhs);
    if (result.m_rhs.find_first_of("<>=!") != std::string::npos) {
      throw expr_error("condition \"" + shorten_expr(text) + "\": more than one comparison");
    }
    return result;
  }
  throw expr_error("condition \"" + shorten_expr(text) + "\": no comparison (<, <=, >, >=, ==, !=)");
}

}  // namespace kopt
