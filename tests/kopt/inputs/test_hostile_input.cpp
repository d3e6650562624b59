// Hostile input: limits on nesting and size, numbers beyond double, and
// values out of their valid range are input errors naming file and field,
// never crashes and never silently taken (docs/formats.md, "Limits").
#include <gtest/gtest.h>

#include "core/expr.hpp"
#include "core/json_io.hpp"
#include "kopt/inputs/bench.hpp"
#include "kopt/inputs/correctness.hpp"
#include "formats/ceilings.hpp"
#include "kopt/inputs/manifest.hpp"
#include "test_support.hpp"

namespace kopt::test {
namespace {

std::string message_of(const std::function<void()>& action) {
  try {
    action();
  } catch (const std::exception& error) {
    return error.what();
  }
  return "(no exception)";
}

std::string nested_objects(std::size_t depth) {
  std::string text;
  for (std::size_t i = 0; i < depth; ++i) text += "{\"a\":";
  text += "1";
  text += std::string(depth, '}');
  return text;
}

// The golden bench JSON with `edit` applied to its first row's kopt block.
fs::path edited_bench(const scratch_case& c, const std::function<void(json&)>& edit) {
  json doc = read_json_file(c.path("bench/bench.v1.json"));
  edit(doc["benchmarks"][0]["kopt"]);
  const fs::path path = c.path("bench/edited.json");
  write_text(path, doc.dump(2));
  return path;
}

TEST(hostile_input, deep_nesting_is_an_error_naming_file_and_pointer) {
  scratch_case c;
  // ~600 KB of nested objects: the document that crashed every reader.
  write_text(c.path("deep.json"), nested_objects(100000));
  const std::string message = message_of([&] { (void)read_json_file(c.path("deep.json")); });
  EXPECT_EQ(message.rfind(c.path("deep.json").string() + ": /a/a/a/", 0), 0u) << message;
  EXPECT_NE(message.find("nested deeper than 128 levels"), std::string::npos) << message;
  EXPECT_LT(message.size(), 400u) << message;
  // kopt itself: an input error (exit 2), not a crash.
  const run_result r = run_kopt({"compare", c.path("deep.json").string(), c.path("deep.json").string()});
  EXPECT_EQ(r.m_code, 2) << r.m_err;
  EXPECT_NE(r.m_err.find("nested deeper than 128 levels"), std::string::npos) << r.m_err;
}

TEST(hostile_input, nesting_at_the_limit_is_read) {
  const json doc = parse_json_text(nested_objects(k_max_json_depth), "ok.json");
  EXPECT_TRUE(doc.is_object());
  EXPECT_EQ(message_of([] { (void)parse_json_text("[" + nested_objects(k_max_json_depth), "x.json"); }),
            "x.json: " + [] {
              std::string p = "/0";
              for (std::size_t i = 0; i + 1 < k_max_json_depth; ++i) p += "/a";
              return shorten(p);
            }() + ": nested deeper than 128 levels (the limit on JSON kopt reads)");
}

TEST(hostile_input, number_beyond_double_names_the_field) {
  EXPECT_EQ(message_of([] { (void)parse_json_text(R"({"ceilings": {"fp32_fma": {"value": 1e999}}})", "c.json"); }),
            "c.json: /ceilings/fp32_fma/value: number beyond the range of a double (number overflow parsing "
            "'1e999')");
  EXPECT_EQ(message_of([] { (void)parse_json_text(R"({"seeds": [1, 2, -1e400]})", "m.json"); }),
            "m.json: /seeds/2: number beyond the range of a double (number overflow parsing '-1e400')");
  // 30 000 digits: quoted shortened.
  const std::string message =
      message_of([] { (void)parse_json_text("{\"median_ns\": " + std::string(30000, '9') + "}", "b.json"); });
  EXPECT_EQ(message.rfind("b.json: /median_ns: number beyond the range of a double", 0), 0u) << message;
  EXPECT_LT(message.size(), 300u) << message;
}

TEST(hostile_input, integers_out_of_range_are_errors_not_undefined) {
  const json doc = json::parse(R"({"a": 1e300, "b": 18446744073709551615, "c": -3, "d": 0, "e": 2.5})");
  const json_reader root(doc, "f.json");
  EXPECT_EQ(message_of([&] { (void)root.at("a").as_integer(); }), "f.json: /a: expected an integer, got 1e+300");
  EXPECT_EQ(message_of([&] { (void)root.at("b").as_integer(); }),
            "f.json: /b: integer out of range (beyond 2^63-1), got 18446744073709551615");
  EXPECT_EQ(message_of([&] { (void)root.at("c").as_non_negative_integer(); }),
            "f.json: /c: must be an integer >= 0, got -3");
  EXPECT_EQ(message_of([&] { (void)root.at("d").as_count(); }), "f.json: /d: must be an integer >= 1, got 0");
  EXPECT_EQ(message_of([&] { (void)root.at("e").as_count(); }), "f.json: /e: expected an integer, got 2.5");
  EXPECT_EQ(message_of([&] { (void)root.at("c").as_positive(); }), "f.json: /c: must be > 0, got -3");
  EXPECT_EQ(message_of([&] { (void)root.at("c").as_non_negative(); }), "f.json: /c: must be >= 0, got -3");
}

TEST(hostile_input, bench_times_noise_and_samples_are_checked) {
  scratch_case c;
  const std::string row = "/benchmarks/0/kopt/";
  struct bad_case {
    const char* key;
    json value;
    const char* what;
  };
  for (const bad_case& bad : {bad_case{"median_ns", -5, "must be > 0, got -5"},
                              bad_case{"median_ns", 0, "must be > 0, got 0"},
                              bad_case{"min_ns", 0.0, "must be > 0, got 0.0"},
                              bad_case{"mean_ns", -1.5, "must be > 0, got -1.5"},
                              bad_case{"noise", -0.01, "must be >= 0, got -0.01"},
                              bad_case{"samples", 0, "must be an integer >= 1, got 0"},
                              bad_case{"samples", -4, "must be an integer >= 1, got -4"},
                              bad_case{"samples", 2.5, "expected an integer, got 2.5"}}) {
    const fs::path file = edited_bench(c, [&](json& k) { k[bad.key] = bad.value; });
    EXPECT_EQ(message_of([&] { (void)read_bench(file); }), file.string() + ": " + row + bad.key + ": " + bad.what)
        << bad.key;
  }
  // Where a shape's benchmark spent its time: each phase's seconds >= 0.
  const fs::path phases = edited_bench(c, [](json& k) {
    k["phases_s"] = {{"inputs", 0.5}, {"checks", -1}, {"timing", 1.0}, {"fresh_inputs", 0.0}};
  });
  EXPECT_EQ(message_of([&] { (void)read_bench(phases); }),
            phases.string() + ": " + row + "phases_s/checks: must be >= 0, got -1");
  const fs::path no_timing = edited_bench(c, [](json& k) {
    k["phases_s"] = {{"inputs", 0.5}, {"checks", 1}, {"fresh_inputs", 0.0}};
  });
  EXPECT_EQ(message_of([&] { (void)read_bench(no_timing); }).rfind(no_timing.string() + ": " + row + "phases_s", 0), 0u);
  // 1e999 in the file: rejected at the field by the parser.
  write_text(c.path("overflow.json"),
             replace_all(read_text(c.path("bench/bench.v1.json")), "\"median_ns\": 43700.0", "\"median_ns\": 1e999"));
  EXPECT_EQ(message_of([&] { (void)read_bench(c.path("overflow.json")); }),
            c.path("overflow.json").string() + ": " + row +
                "median_ns: number beyond the range of a double (number overflow parsing '1e999')");
}

TEST(hostile_input, ceilings_must_be_finite_and_positive) {
  scratch_case c;
  json doc = read_json_file(c.path("ceilings.json"));
  doc["ceilings"]["copy_bandwidth"]["value"] = 0;
  write_text(c.path("zero.json"), doc.dump());
  EXPECT_EQ(message_of([&] { (void)read_ceilings(c.path("zero.json")); }),
            c.path("zero.json").string() + ": /ceilings/copy_bandwidth/value: must be > 0, got 0");
  doc["ceilings"]["copy_bandwidth"]["value"] = -4e12;
  write_text(c.path("negative.json"), doc.dump());
  EXPECT_EQ(message_of([&] { (void)read_ceilings(c.path("negative.json")); }),
            c.path("negative.json").string() + ": /ceilings/copy_bandwidth/value: must be > 0, got -4000000000000.0");
  write_text(c.path("inf.json"), replace_all(doc.dump(), "-4000000000000.0", "1e999"));
  EXPECT_EQ(message_of([&] { (void)read_ceilings(c.path("inf.json")); }),
            c.path("inf.json").string() +
                ": /ceilings/copy_bandwidth/value: number beyond the range of a double (number overflow parsing "
                "'1e999')");
}

TEST(hostile_input, manifest_tolerance_seeds_and_timing_are_checked) {
  scratch_case c;
  const std::string golden = read_text(c.manifest());
  json doc = json::parse(golden);
  doc["tolerance"]["rtol"] = -1e-4;
  write_text(c.manifest(), doc.dump());
  EXPECT_EQ(message_of([&] { (void)read_manifest(c.manifest()); }),
            c.manifest() + ": /tolerance/rtol: must be >= 0, got -0.0001");
  doc = json::parse(golden);
  doc["seeds"][1] = -2;
  write_text(c.manifest(), doc.dump());
  EXPECT_EQ(message_of([&] { (void)read_manifest(c.manifest()); }),
            c.manifest() + ": /seeds/1: must be an integer >= 0, got -2");
  doc = json::parse(golden);
  doc["timing"]["min_samples"] = 0;
  write_text(c.manifest(), doc.dump());
  EXPECT_EQ(message_of([&] { (void)read_manifest(c.manifest()); }),
            c.manifest() + ": /timing/min_samples: must be an integer >= 1, got 0");
}

// A record's per-shape first_mismatch (kopt/inputs/correctness.hpp): the
// correctness result's fields, then seed and arg, each checked on read.
TEST(hostile_input, record_first_mismatch_fields_are_checked) {
  correctness_summary summary;
  summary.m_status = "fail";
  shape_correctness shape;
  shape.m_shape = "n=8";
  shape.m_status = "fail";
  shape.m_seeds_failed = {2};
  shape.m_first_mismatch = shape_first_mismatch{first_mismatch{5, {0, 5}, 1.5, 0.25}, 2, "y"};
  summary.m_shapes.push_back(shape);
  const json good = to_json(summary);
  EXPECT_EQ(good["shapes"][0]["first_mismatch"].dump(),
            R"({"flat":5,"index":[0,5],"got":1.5,"expected":0.25,"seed":2,"arg":"y"})");
  const correctness_summary back = correctness_from_json(json_reader(good, "v1.json", "/correctness"));
  ASSERT_TRUE(back.m_shapes[0].m_first_mismatch);
  EXPECT_EQ(back.m_shapes[0].m_first_mismatch->m_element.m_index, (std::vector<std::int64_t>{0, 5}));
  EXPECT_EQ(back.m_shapes[0].m_first_mismatch->m_seed, 2);
  EXPECT_EQ(back.m_shapes[0].m_first_mismatch->m_arg, "y");
  const auto error_with = [&](const std::function<void(json&)>& patch) {
    json doc = good;
    patch(doc["shapes"][0]["first_mismatch"]);
    return message_of([&] { (void)correctness_from_json(json_reader(doc, "v1.json", "/correctness")); });
  };
  EXPECT_EQ(error_with([](json& m) { m = 3; }),
            "v1.json: /correctness/shapes/0/first_mismatch: expected an object, got a number");
  EXPECT_EQ(error_with([](json& m) { m["seed"] = -1; }),
            "v1.json: /correctness/shapes/0/first_mismatch/seed: must be an integer >= 0, got -1");
  EXPECT_EQ(error_with([](json& m) { m.erase("arg"); }), "v1.json: /correctness/shapes/0/first_mismatch/arg: missing");
  EXPECT_EQ(error_with([](json& m) { m["index"] = "0,5"; }),
            "v1.json: /correctness/shapes/0/first_mismatch/index: expected an array, got a string");
  EXPECT_EQ(error_with([](json& m) { m["got"] = "x"; }),
            "v1.json: /correctness/shapes/0/first_mismatch/got: expected a number, got a string");
}

TEST(hostile_input, error_messages_shorten_what_they_quote) {
  const json doc = json::parse("{\"kind\": \"" + std::string(5000, 'x') + "\", \"schema_version\": 1}");
  const std::string message = message_of([&] { check_kind(doc, "e.json", "kernelopt.env", 1); });
  EXPECT_EQ(message.rfind("e.json: /kind: expected \"kernelopt.env\", got \"xxxx", 0), 0u) << message;
  EXPECT_NE(message.find("...(4920 more)"), std::string::npos) << message;
  EXPECT_LT(message.size(), 200u);
}

TEST(hostile_input, expression_nesting_is_limited) {
  const std::string deep = std::string(20000, '(') + "1" + std::string(20000, ')');
  const std::string message = message_of([&] { (void)evaluate(deep, std::map<std::string, double>{}); });
  EXPECT_NE(message.find("nested deeper than 100 levels"), std::string::npos) << message;
  EXPECT_LT(message.size(), 300u) << message;
  EXPECT_NE(message_of([] { (void)evaluate(std::string(5000, '-') + "1", std::map<std::string, double>{}); })
                .find("nested deeper than 100 levels"),
            std::string::npos);
  EXPECT_EQ(evaluate(std::string(50, '(') + "2*3" + std::string(50, ')'), std::map<std::string, double>{}), 6.0);
}

}  // namespace
}  // namespace kopt::test
