// kernelopt.static through its one type: what `kopt static` writes is what
// kopt record reads back and embeds; a value of the wrong type is an input
// error naming file and field; every static document stored in this
// repository (in tests/ and example_kernels/: records measured on GPU machines, older ones without
// ownership fields among them) reads and writes back unchanged.
#include <gtest/gtest.h>

#include <filesystem>
#include <functional>

#include "formats/static_result.hpp"

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

static_result checked_example() {
  static_result r;
  r.m_kernel = "softmax";
  r.m_variant = "v2";
  r.m_status = "fail";
  r.m_reason = "MAX_REGISTERS 64: softmax_kernel [sm_90a]: 80 registers";
  static_findings& f = r.m_findings.emplace();
  f.m_cuobjdump = "/usr/local/cuda/bin/cuobjdump";
  f.m_cuobjdump_version = "release 13.0, V13.0.88";
  f.m_objects = {"/b/v2.cu.o"};
  f.m_sources = std::vector<std::string>{"/s/v2.cu"};
  f.m_architectures = {"sm_90a"};
  static_function& fn = f.m_functions.emplace_back();
  fn.m_name = "softmax_kernel(float const*, float*)";
  fn.m_mangled = "_Z14softmax_kernelPKfPf";
  fn.m_own = true;
  fn.m_defined_in = "/s/v2.cu";
  fn.m_defined_by = "line info";
  fn.m_arch = "sm_90a";
  fn.m_object = "/b/v2.cu.o";
  fn.m_registers = 80;
  fn.m_stack_bytes = 0;
  fn.m_shared_bytes = 1024;  // local_bytes unknown
  fn.m_instructions = 300;
  fn.m_families = {{"FFMA", 40}, {"SHFL", 10}};
  static_claim& found = f.m_methods.emplace_back();
  found.m_name = "warp_shuffle";
  found.m_signature = "SHFL";
  found.m_status = "found";
  found.m_count = 10;
  found.m_functions = {{fn.m_name, "sm_90a", 10}};
  found.m_elsewhere = std::vector<static_site>{};
  static_claim& none = f.m_methods.emplace_back();
  none.m_name = "online_softmax";
  none.m_status = "no signature";
  static_claim& user = f.m_sass_signatures.emplace_back();
  user.m_name = "wide_load";
  user.m_signature = "LDG\\.E\\.128";
  user.m_status = "missing";
  user.m_elsewhere = std::vector<static_site>{{"helper(float*)", "sm_90a", 2}};
  user.m_archs_without = {"sm_80"};
  f.m_limits = {{"MAX_REGISTERS", "64", false, {"softmax_kernel [sm_90a]: 80 registers"}}};
  f.m_failures = {*r.m_reason};
  f.m_notes = {"a note"};
  f.m_definitions = {{"own", "defined in SOURCES"}, {"elsewhere", "not counted"}};
  return r;
}

json read_back(const json& doc) { return to_json(static_result_from_json(json_reader(doc, "static.v2.json"))); }

TEST(static_result, checked_document_round_trips) {
  const json doc = to_json(checked_example());
  EXPECT_EQ(doc["kind"], "kernelopt.static");
  EXPECT_EQ(doc["tool"]["version"], "release 13.0, V13.0.88");
  EXPECT_EQ(doc["functions"][0]["local_bytes"], "unknown");
  EXPECT_EQ(doc["methods"][1]["found"], "no signature");
  EXPECT_TRUE(doc["methods"][1]["signature"].is_null());
  EXPECT_EQ(doc["sass_signatures"][0]["archs_without"], json::array({"sm_80"}));
  EXPECT_EQ(doc["limits"][0]["status"], "fail");
  EXPECT_EQ(read_back(doc).dump(), doc.dump());
}

TEST(static_result, skipped_document_has_only_its_six_fields) {
  static_result r;
  r.m_kernel = "softmax";
  r.m_variant = "v2";
  r.m_status = "skipped";
  r.m_reason = "cuobjdump not found";
  const json doc = to_json(r);
  EXPECT_EQ(doc.size(), 6u) << doc.dump();
  EXPECT_EQ(read_back(doc).dump(), doc.dump());
  EXPECT_FALSE(static_result_from_json(json_reader(doc, "s.json")).m_findings);
}

TEST(static_result, a_field_of_the_wrong_type_names_file_and_field) {
  json doc = to_json(checked_example());
  doc["functions"][0]["registers"] = true;
  EXPECT_NE(message_of([&] {
              (void)read_back(doc);
            }).find("static.v2.json: /functions/0/registers: expected an integer or \"unknown\""),
            std::string::npos)
      << message_of([&] { (void)read_back(doc); });

  doc = to_json(checked_example());
  doc["methods"][0]["found"]["functions"][0]["count"] = "ten";
  EXPECT_EQ(message_of([&] { (void)read_back(doc); }).rfind("static.v2.json: /methods/0/found/functions/0/count: ", 0),
            0u)
      << message_of([&] { (void)read_back(doc); });

  doc = to_json(checked_example());
  doc["limits"][0]["status"] = "ok";
  EXPECT_NE(
      message_of([&] { (void)read_back(doc); }).find("static.v2.json: /limits/0/status: expected \"pass\" or \"fail\""),
      std::string::npos);

  doc = to_json(checked_example());
  doc["status"] = "passed";
  EXPECT_NE(message_of([&] { (void)read_back(doc); }).find("static.v2.json: /status: expected \"pass\", \"fail\""),
            std::string::npos);

  doc = to_json(checked_example());
  doc["methods"][0]["status"] = "no signature";
  EXPECT_NE(message_of([&] { (void)read_back(doc); }).find("static.v2.json: /methods/0/found: "), std::string::npos);

  doc = to_json(checked_example());
  doc["tool"] = "cuobjdump";
  EXPECT_NE(message_of([&] { (void)read_back(doc); }).find("static.v2.json: /tool: expected an object"),
            std::string::npos);

  doc = to_json(checked_example());
  doc.erase("functions");
  EXPECT_NE(message_of([&] { (void)read_back(doc); }).find("static.v2.json: /functions: missing"), std::string::npos);

  doc = to_json(checked_example());
  doc["reason"] = nullptr;  // a failure says why
  EXPECT_NE(message_of([&] { (void)read_back(doc); }).find("static.v2.json: /reason: "), std::string::npos);
}

TEST(static_result, kind_and_schema_version_are_checked) {
  json doc = to_json(checked_example());
  doc["kind"] = "kernelopt.env";
  EXPECT_NE(message_of([&] { (void)read_back(doc); }).find("/kind: expected \"kernelopt.static\""), std::string::npos);
  doc["kind"] = "kernelopt.static";
  doc["schema_version"] = 2;
  EXPECT_NE(message_of([&] { (void)read_back(doc); }).find("/schema_version: 2 is newer"), std::string::npos);
}

TEST(static_result, every_stored_document_reads_and_writes_back_unchanged) {
  int seen = 0;
  for (const char* dir : {"/tests", "/example_kernels"}) {
    for (const auto& entry : std::filesystem::recursive_directory_iterator(std::string(KOPT_SOURCE_DIR) + dir)) {
      if (!entry.is_regular_file() || entry.path().extension() != ".json") continue;
      json doc;
      try {
        doc = read_json_file(entry.path());
      } catch (const format_error&) {
        continue;
      }
      if (!doc.is_object()) continue;
      const json* result = nullptr;
      if (doc.value("kind", "") == "kernelopt.static") result = &doc;
      if (doc.value("kind", "") == "kernelopt.record" && doc["static"].contains("kind")) result = &doc["static"];
      if (result == nullptr) continue;
      ++seen;
      SCOPED_TRACE(entry.path().string());
      EXPECT_EQ(to_json(static_result_from_json(json_reader(*result, entry.path().string()))).dump(), result->dump());
    }
  }
  EXPECT_GT(seen, 10);
}

}  // namespace
}  // namespace kopt
