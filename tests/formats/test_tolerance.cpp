// The declared tolerance (formats/tolerance.hpp) through its one type: the
// manifest CMake writes (`max_rel_l2: null`, keys sorted) and a hand-written
// one (no `max_rel_l2`) read the same; the written form is the record's;
// a malformed field is an input error naming the file and the JSON pointer.
#include <gtest/gtest.h>

#include <functional>

#include "formats/tolerance.hpp"

namespace kopt {
namespace {

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const format_error& e) {
    return e.what();
  }
  return "no error";
}

std::optional<declared_tolerance> read(const json& doc) {
  return tolerance_from_json(json_reader(doc, "manifest.json", "/tolerance"));
}

std::string error_of(const std::string& text) {
  const json doc = json::parse(text);
  return message_of([&] { (void)read(doc); });
}

TEST(tolerance, cmake_and_hand_written_forms_read_the_same) {
  const auto cmake = read(json::parse(R"({"atol": 1e-20, "max_rel_l2": null, "rtol": 0.0001, "source": "TOLERANCE"})"));
  const auto hand = read(json::parse(R"({"rtol": 0.0001, "atol": 1e-20, "source": "TOLERANCE"})"));
  ASSERT_TRUE(cmake);
  EXPECT_EQ(cmake->m_rtol, 0.0001);
  EXPECT_EQ(cmake->m_atol, 1e-20);
  EXPECT_FALSE(cmake->m_max_rel_l2);
  EXPECT_EQ(cmake->m_source, "TOLERANCE");
  EXPECT_TRUE(cmake == hand);
  EXPECT_EQ(to_json(cmake).dump(), R"({"rtol":0.0001,"atol":1e-20,"source":"TOLERANCE"})");
  const auto bounded = read(json::parse(R"({"atol": 0, "max_rel_l2": 1e-05, "rtol": 0.01, "source": "TOLERANCE"})"));
  ASSERT_TRUE(bounded && bounded->m_max_rel_l2);
  EXPECT_EQ(*bounded->m_max_rel_l2, 1e-05);
  EXPECT_FALSE(bounded == hand);
  EXPECT_EQ(to_json(bounded).dump(), R"({"rtol":0.01,"atol":0.0,"max_rel_l2":1e-05,"source":"TOLERANCE"})");
  EXPECT_EQ(read(to_json(bounded)), bounded);
}

TEST(tolerance, null_is_the_per_dtype_defaults) {
  EXPECT_FALSE(read(json(nullptr)));
  EXPECT_TRUE(to_json(std::optional<declared_tolerance>()).is_null());
}

TEST(tolerance, a_malformed_field_names_file_and_pointer) {
  EXPECT_EQ(error_of("[1e-4, 1e-4]"), "manifest.json: /tolerance: expected an object {rtol, atol, ...} or null");
  EXPECT_EQ(error_of(R"({"atol": 1e-4, "source": "TOLERANCE"})"), "manifest.json: /tolerance/rtol: missing");
  EXPECT_EQ(error_of(R"({"rtol": 1e-4, "atol": -1, "source": "TOLERANCE"})"),
            "manifest.json: /tolerance/atol: must be >= 0, got -1");
  EXPECT_EQ(error_of(R"({"rtol": 1e-4, "atol": 1e-4, "max_rel_l2": "small"})"),
            "manifest.json: /tolerance/max_rel_l2: expected a number, got a string");
  EXPECT_EQ(error_of(R"({"rtol": 1e-4, "atol": 1e-4, "source": 7})"),
            "manifest.json: /tolerance/source: expected a string, got a number");
}

}  // namespace
}  // namespace kopt
