#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "core/expr.hpp"

namespace {

// The verdicts of tests/core/data/expr_corpus.txt, which the configure's
// check (cmake/kernelopt/Expr.cmake) is held to by cmake_api.expr_corpus:
// what configures, evaluates.
TEST(expr, corpus_verdicts) {
  std::ifstream corpus(KOPT_EXPR_CORPUS);
  ASSERT_TRUE(corpus) << KOPT_EXPR_CORPUS;
  std::string line;
  int checked = 0;
  while (std::getline(corpus, line)) {
    if (line.empty() || line[0] == '#') continue;
    const std::size_t space = line.find(' ');
    const std::string verdict = line.substr(0, space);
    const std::string text = space == std::string::npos ? std::string() : line.substr(space + 1);
    bool accepted = true;
    try {
      (void)kopt::referenced_names(text);
    } catch (const kopt::expr_error&) {
      accepted = false;
    }
    EXPECT_EQ(accepted, verdict == "OK") << text;
    ++checked;
  }
  EXPECT_GT(checked, 40);
}

TEST(expr, arithmetic_and_precedence) {
  const std::map<std::string, double> dims{{"M", 4096}, {"N", 1024}, {"K", 512}};
  EXPECT_DOUBLE_EQ(kopt::evaluate("2*M*N*K", dims), 2.0 * 4096 * 1024 * 512);
  EXPECT_DOUBLE_EQ(kopt::evaluate("2*M*K + 2*K*N + 4*M*N", dims), 2.0 * 4096 * 512 + 2.0 * 512 * 1024 + 4.0 * 4096 * 1024);
  EXPECT_DOUBLE_EQ(kopt::evaluate("-M + 2^3", dims), -4096 + 8);
  EXPECT_DOUBLE_EQ(kopt::evaluate("ceil_div(N, 128) * (K % 7)", dims), 8 * (512 % 7));
  EXPECT_DOUBLE_EQ(kopt::evaluate("max(M, N, K) / min(M, K)", dims), 4096.0 / 512);
}

TEST(expr, dotted_names_and_comparisons) {
  const std::map<std::string, double> values{{"tflops", 700}, {"peak.bf16_tensor", 800}};
  EXPECT_EQ(kopt::evaluate("tflops >= 0.9*peak.bf16_tensor", values), 0.0);
  EXPECT_EQ(kopt::evaluate("tflops >= 0.85*peak.bf16_tensor", values), 1.0);
  const kopt::comparison c = kopt::split_comparison("tflops >= 0.9*peak.bf16_tensor");
  EXPECT_EQ(c.m_op, ">=");
  EXPECT_EQ(kopt::referenced_names(c.m_rhs), std::vector<std::string>{"peak.bf16_tensor"});
}

TEST(expr, errors_name_expression_and_position) {
  const std::map<std::string, double> dims{{"M", 1}};
  try {
    (void)kopt::evaluate("2*M**3", dims);
    FAIL() << "no error";
  } catch (const kopt::expr_error& e) {
    EXPECT_STREQ(e.what(), "expression \"2*M**3\": unexpected '*' at position 5");
  }
  EXPECT_THROW((void)kopt::evaluate("2*Q", dims), kopt::expr_error);
  EXPECT_THROW((void)kopt::evaluate("(M", dims), kopt::expr_error);
  EXPECT_THROW((void)kopt::evaluate("M/0", dims), kopt::expr_error);
  EXPECT_THROW((void)kopt::evaluate("foo(M)", dims), kopt::expr_error);
  EXPECT_THROW((void)kopt::split_comparison("tflops"), kopt::expr_error);
  EXPECT_THROW((void)kopt::split_comparison("a < b < c"), kopt::expr_error);
}

}  // namespace
