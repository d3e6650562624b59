// A declared shape, parsed once: its text ("M=4096,N=1024", the form the
// manifest, benchmark names, records and reports carry) and its dimensions
// in declared order, for FLOPS / BYTES / TARGET expressions.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace kopt {

class shape {
 public:
  shape() = default;
  // Parts that are not "name=<finite number>" are left out of the
  // dimensions (the configure-time check in cmake/kernelopt/Parse.cmake
  // rejects them in declared shapes); the text is kept as given.
  [[nodiscard]] static shape parse(std::string text);

  [[nodiscard]] const std::string& text() const { return m_text; }
  [[nodiscard]] const std::vector<std::pair<std::string, double>>& dims() const { return m_dims; }
  // The dimensions by name: the variables of an expression.
  [[nodiscard]] std::map<std::string, double> values() const;

  // Shapes are identified by their text (as declared).
  friend bool operator==(const shape& a, const shape& b) { return a.m_text == b.m_text; }
  friend bool operator!=(const shape& a, const shape& b) { return !(a == b); }
  friend bool operator==(const shape& a, const std::string& text) { return a.m_text == text; }
  friend bool operator!=(const shape& a, const std::string& text) { return !(a == text); }
  friend bool operator==(const std::string& text, const shape& a) { return a == text; }
  friend bool operator!=(const std::string& text, const shape& a) { return !(a == text); }

 private:
  std::string m_text;
  std::vector<std::pair<std::string, double>> m_dims;
};

}  // namespace kopt
