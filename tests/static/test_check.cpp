// The checks on real machine code: claimed METHODS (regexes as in
// cmake/kernelopt/Methods.cmake), SASS_SIGNATURES and limits.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "static/check.hpp"
#include "static/line_info.hpp"
#include "static/ownership.hpp"

namespace kopt::sass {
namespace {

std::string read_data(const std::string& name) {
  std::ifstream in(std::string(KOPT_STATIC_DATA_DIR) + "/" + name, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The source each captured object was compiled from (data/capture.sh).
std::string source_of(const std::string& base) {
  const std::string kernel = base == "multi_arch" ? "shuffle_vector" : base;
  return std::string(KOPT_STATIC_DATA_DIR) + "/kernels/" + kernel + ".cu";
}

// Parsed, with ownership: the captures have no line info, so the fallback
// (the source's text) decides.
std::vector<function> load(const std::string& base) {
  std::vector<function> functions = parse_sass(read_data(base + ".sass.txt"), base + ".o");
  attach_usage(functions, parse_resource_usage(read_data(base + ".res-usage.txt")));
  (void)assign_ownership(functions, {source_of(base)});
  return functions;
}

// Methods.cmake's regexes, as the generated test passes them.
signature method(const std::string& name) {
  static const std::vector<std::pair<std::string, std::string>> table = {
      {"tensor_cores", "HMMA|HGMMA|QGMMA|IMMA"},
      {"mma_sync", "HMMA"},
      {"wgmma", "HGMMA|QGMMA"},
      {"cp_async", "LDGSTS"},
      {"tma", "UTMALDG|UTMASTG|UBLKCP"},
      {"mbarrier", "SYNCS"},
      {"vector_load_128", R"(LDG\.E[.A-Z0-9_]*\.128)"},
      {"vector_store_128", R"(STG\.E[.A-Z0-9_]*\.128)"},
      {"ldmatrix", "LDSM"},
      {"stmatrix", "STSM"},
      {"warp_shuffle", "SHFL"},
      {"smem_tiling", "LDS|STS"},
      {"fast_math", "MUFU"},
      {"online_softmax", ""}};
  for (const auto& [n, regex] : table) {
    if (n == name) return {n, regex, "METHODS"};
  }
  ADD_FAILURE() << "unknown method " << name;
  return {};
}

report check(const std::string& base, const std::vector<std::string>& methods, const limits& l = {},
             std::vector<signature> extra = {}) {
  std::vector<signature> signatures;
  for (const std::string& m : methods) signatures.push_back(method(m));
  signatures.insert(signatures.end(), extra.begin(), extra.end());
  return evaluate("k", "v1", {base + ".o"}, {source_of(base)}, load(base), signatures, l);
}

TEST(StaticCheck, EveryMethodFoundWhereItsKernelUsesIt) {
  const report shuffle = check("shuffle_vector", {"warp_shuffle", "vector_load_128", "vector_store_128",
                                                  "fast_math", "smem_tiling"});
  EXPECT_TRUE(shuffle.passed()) << render_table(shuffle);
  const report mma = check("mma_sync", {"tensor_cores", "mma_sync", "cp_async", "ldmatrix", "stmatrix"});
  EXPECT_TRUE(mma.passed()) << render_table(mma);
  const report wgmma = check("wgmma_tma", {"tensor_cores", "wgmma", "tma", "mbarrier"});
  EXPECT_TRUE(wgmma.passed()) << render_table(wgmma);
}

TEST(StaticCheck, FoundCountsNameTheFunctions) {
  const report r = check("shuffle_vector", {"warp_shuffle", "vector_load_128"});
  ASSERT_EQ(r.m_signatures.size(), 2u);
  const signature_result& shfl = r.m_signatures[0];
  EXPECT_EQ(shfl.m_status, signature_result::status::found);
  EXPECT_EQ(shfl.m_count, 5);
  ASSERT_EQ(shfl.m_sites.size(), 1u);
  EXPECT_EQ(shfl.m_sites[0].m_function, "warp_sum(float const*, float*, int)");
  EXPECT_EQ(shfl.m_sites[0].m_arch, "sm_90a");
  EXPECT_EQ(r.m_signatures[1].m_count, 1);  // LDG.E.128.CONSTANT in scale_float4
}

TEST(StaticCheck, MissingClaimFailsNamingVariantMethodRegexAndKernels) {
  const report r = check("shuffle_vector", {"warp_shuffle", "wgmma"});
  ASSERT_FALSE(r.passed());
  ASSERT_EQ(r.m_failures.size(), 1u);
  const std::string& failure = r.m_failures[0];
  EXPECT_NE(failure.find("variant 'v1' of kernel 'k' claims METHOD wgmma"), std::string::npos) << failure;
  EXPECT_NE(failure.find("/HGMMA|QGMMA/"), std::string::npos) << failure;
  EXPECT_NE(failure.find("warp_sum(float const*, float*, int) [sm_90a]"), std::string::npos) << failure;
  EXPECT_NE(failure.find("void kopt_test::tiled_sum<256>(float const*, float*) [sm_90a]"), std::string::npos);
  EXPECT_EQ(r.m_signatures[1].m_status, signature_result::status::missing);
}

TEST(StaticCheck, EmptySignatureIsNotMachineCheckableNeverVerified) {
  const report r = check("shuffle_vector", {"online_softmax"});
  EXPECT_TRUE(r.passed());
  ASSERT_EQ(r.m_signatures.size(), 1u);
  EXPECT_EQ(r.m_signatures[0].m_status, signature_result::status::no_signature);
  const json doc = to_json(report_result(r, "", ""));
  EXPECT_EQ(doc["methods"][0]["found"], "no signature");
  EXPECT_EQ(doc["methods"][0]["status"], "no signature");
  EXPECT_TRUE(doc["methods"][0]["signature"].is_null());
  ASSERT_FALSE(r.m_notes.empty());
  EXPECT_NE(r.m_notes[0].find("not machine-checkable"), std::string::npos);
}

TEST(StaticCheck, NoMachineCodeFailsEveryCheckableClaim) {
  const report r = evaluate("k", "v1", {"ptx_only.o"}, {"ptx_only.cu"}, {}, {method("warp_shuffle")}, {});
  ASSERT_FALSE(r.passed());
  EXPECT_NE(r.m_failures[0].find("searched: no kernel functions"), std::string::npos) << r.m_failures[0];
  EXPECT_NE(r.m_notes[0].find("PTX only"), std::string::npos);
}

TEST(StaticCheck, UserSignatures) {
  const report found = check("mma_sync", {}, {}, {{"bf16_hmma", R"(^HMMA\.16816\.F32\.BF16)", "SASS_SIGNATURES"}});
  EXPECT_TRUE(found.passed()) << render_table(found);
  const report missing = check("mma_sync", {}, {}, {{"fp16_hmma", R"(HMMA\.16816\.F32 )", "SASS_SIGNATURES"}});
  ASSERT_FALSE(missing.passed());
  EXPECT_NE(missing.m_failures[0].find("requires SASS_SIGNATURES fp16_hmma"), std::string::npos);
  EXPECT_THROW((void)check("mma_sync", {}, {}, {{"bad", "HMMA(", "SASS_SIGNATURES"}}), std::invalid_argument);
}

TEST(StaticCheck, RegisterLimit) {
  limits l;
  l.m_max_registers = 31;
  const report r = check("spill_local", {}, l);
  ASSERT_FALSE(r.passed());
  ASSERT_EQ(r.m_limits.size(), 1u);
  ASSERT_EQ(r.m_limits[0].m_violations.size(), 1u);  // spill_heavy: 32; local_array: 31
  EXPECT_EQ(r.m_limits[0].m_violations[0], "spill_heavy(float const*, float*, int) [sm_90a]: 32 registers");
  l.m_max_registers = 32;
  EXPECT_TRUE(check("spill_local", {}, l).passed());
}

TEST(StaticCheck, NoSpillsAndNoLocalMemory) {
  limits spills;
  spills.m_no_spills = true;
  EXPECT_TRUE(check("shuffle_vector", {}, spills).passed());
  const report r = check("spill_local", {}, spills);
  ASSERT_FALSE(r.passed());
  EXPECT_EQ(r.m_limits[0].m_violations.size(), 2u);
  EXPECT_NE(r.m_failures[0].find("breaks NO_SPILLS"), std::string::npos);
  EXPECT_NE(r.m_failures[0].find("79 STL, 79 LDL"), std::string::npos) << r.m_failures[0];

  limits local;
  local.m_no_local_memory = true;
  EXPECT_TRUE(check("wgmma_tma", {}, local).passed());
  const report l = check("spill_local", {}, local);
  ASSERT_FALSE(l.passed());
  EXPECT_NE(l.m_failures[0].find("stack frame 160 bytes"), std::string::npos) << l.m_failures[0];
}

TEST(StaticCheck, FoundInOneArchitectureOnlyIsNoted) {
  std::vector<function> functions = load("multi_arch");
  // A regex only the sm_90a code matches: sm_80 addresses global memory as
  // [R2.64], sm_90a as desc[UR4][R2.64].
  const report r = evaluate("k", "v1", {"multi_arch.o"}, {source_of("multi_arch")}, functions,
                            {{"desc128", R"(LDG\.E\.128\S* R[0-9]+, desc\[)", "SASS_SIGNATURES"}}, {});
  EXPECT_TRUE(r.passed());
  ASSERT_EQ(r.m_signatures[0].m_archs_without, std::vector<std::string>{"sm_80"});
}

TEST(StaticCheck, JsonDocument) {
  limits l;
  l.m_max_registers = 64;
  const report r = check("mma_sync", {"mma_sync", "online_softmax"}, l);
  const json doc = to_json(report_result(r, "/x/cuobjdump", "release 13.5, V13.5.37"));
  EXPECT_EQ(doc["schema_version"], 1);
  EXPECT_EQ(doc["kind"], "kernelopt.static");
  EXPECT_EQ(doc["status"], "pass");
  EXPECT_TRUE(doc["reason"].is_null());
  EXPECT_EQ(doc["architectures"], json::array({"sm_90a"}));
  const json& f = doc["functions"][0];
  EXPECT_EQ(f["name"], "mma_tile(uint4 const*, unsigned int const*, float*)");
  EXPECT_EQ(f["registers"], 20);
  EXPECT_EQ(f["stack_bytes"], 0);
  EXPECT_EQ(f["spill_stores"], 0);
  EXPECT_EQ(f["spill_loads"], 0);
  EXPECT_EQ(f["local_bytes"], 0);
  EXPECT_EQ(f["shared_bytes"], 2048);
  EXPECT_EQ(f["instructions"], 56);
  EXPECT_EQ(f["families"]["HMMA"], 1);
  const json& m = doc["methods"][0];
  EXPECT_EQ(m["name"], "mma_sync");
  EXPECT_EQ(m["claimed"], true);
  EXPECT_EQ(m["signature"], "HMMA");
  EXPECT_EQ(m["found"]["count"], 1);
  EXPECT_EQ(m["found"]["functions"][0]["function"], "mma_tile(uint4 const*, unsigned int const*, float*)");
  EXPECT_EQ(doc["limits"][0]["status"], "pass");

  const json skipped = to_json(skipped_result("k", "v1", "cuobjdump not found"));
  EXPECT_EQ(skipped["status"], "skipped");
  EXPECT_EQ(skipped["reason"], "cuobjdump not found");
}

TEST(StaticCheck, TableNamesEveryFunctionClaimAndVerdict) {
  const report r = check("spill_local", {"warp_shuffle"});
  const std::string table = render_table(r);
  EXPECT_NE(table.find("spill_heavy(float const*, float*, int)"), std::string::npos) << table;
  EXPECT_NE(table.find("MISSING"), std::string::npos) << table;
  EXPECT_NE(table.find("result: FAIL"), std::string::npos) << table;
}

}  // namespace
}  // namespace kopt::sass
