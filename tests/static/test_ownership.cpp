// A variant's own kernels: the line table (nvdisasm -gi) and, without it,
// the text of its SOURCES; and the checks judging only those. Data: two
// variants of kernels/shared/ that include common.cuh, which defines
// helper_shuffle (shuffles) and helper_scale (does not); variant_a's own
// add_one does not shuffle, variant_b's own scaled_warp_sum<2> does.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "static/check.hpp"
#include "static/line_info.hpp"
#include "static/ownership.hpp"

namespace kopt::sass {
namespace {

const std::string k_data = KOPT_STATIC_DATA_DIR;

std::string read_data(const std::string& name) {
  std::ifstream in(k_data + "/" + name, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// capture.sh writes the data directory as @DATA@.
std::string line_info(const std::string& base) {
  std::string text = read_data(base + ".line-info.txt");
  for (std::size_t at = text.find("@DATA@"); at != std::string::npos; at = text.find("@DATA@", at)) {
    text.replace(at, 6, k_data);
  }
  return text;
}

std::string source(const std::string& name) { return k_data + "/kernels/shared/" + name; }

std::vector<function> load(const std::string& base, bool with_line_info) {
  std::vector<function> functions = parse_sass(read_data(base + ".sass.txt"), base + ".o");
  attach_usage(functions, parse_resource_usage(read_data(base + ".res-usage.txt")));
  if (with_line_info) attach_definitions(functions, parse_line_info(line_info(base)));
  return functions;
}

const function& named(const std::vector<function>& functions, const std::string& unqualified) {
  for (const function& f : functions) {
    if (unqualified_name(f.name()) == unqualified) return f;
  }
  ADD_FAILURE() << "no function " << unqualified;
  static const function none;
  return none;
}

const signature k_warp_shuffle{"warp_shuffle", "SHFL", "METHODS"};

TEST(StaticLineInfo, FirstEntryOfEachKernelNamesItsFile) {
  const definition_table table = parse_line_info(line_info("variant_a"));
  ASSERT_EQ(table.size(), 3u);
  EXPECT_EQ(table.at({"sm_90a", "_Z7add_onePKfPfi"}), source("variant_a.cu"));
  EXPECT_EQ(table.at({"sm_90a", "_Z12helper_scalePKfPfi"}), source("common.cuh"));
  EXPECT_EQ(table.at({"sm_90a", "_Z14helper_shufflePKfPfi"}), source("common.cuh"));
}

TEST(StaticLineInfo, InlinedFirstEntryCountsWhereItIsInlined) {
  const std::string text =
      "\t.target\tsm_90a\n"
      ".text._Z1kv:\n"
      "\t//## File \"/inc/a.cuh\", line 3 inlined at \"/inc/b.cuh\", line 9 inlined at \"/src/v.cu\", line 4\n"
      "        /*0000*/                   LDC R1, c[0x0][0x28] ;\n"
      "\t//## File \"/inc/a.cuh\", line 5\n"
      ".text._Z1jv:\n"
      "        /*0000*/                   EXIT ;\n";
  const definition_table table = parse_line_info(text);
  ASSERT_EQ(table.size(), 1u);  // _Z1jv has no entry: no line info
  EXPECT_EQ(table.at({"sm_90a", "_Z1kv"}), "/src/v.cu");
}

TEST(StaticLineInfo, NoLineTableNoDefinitions) {
  // The captured objects of the other tests were compiled without -lineinfo.
  std::vector<function> functions = load("variant_a", false);
  EXPECT_TRUE(parse_line_info("\t.target\tsm_90a\n.text._Z7add_onePKfPfi:\n  /*0000*/ EXIT ;\n").empty());
  for (const function& f : functions) EXPECT_TRUE(f.m_defined_in.empty());
}

TEST(StaticOwnership, GlobalFunctionNamesFromSourceText) {
  const std::string text = R"(
#define DECLARE(name) __global__ void name(float* p) { p[0] = 0; }
DECLARE(made_by_macro)
// __global__ void in_a_comment(float* p) {}
/* __global__ void in_a_block_comment(float* p) {} */
const char* s = "__global__ void in_a_string() {}";
__global__ void declared_only(float* p);
__global__ void plain(const float* in, float* out, int n) { out[0] = in[0]; }
template <typename T, int N = 4>
__global__ void __launch_bounds__(256, 2) templated(const T* in) {}
extern "C" __global__ void c_linkage(float* p) {}
namespace ns { __global__ static void in_namespace(float* p) { p[0] = 1; } }
__global__ void __cluster_dims__(2, 1, 1) ns::qualified(int n) {}
__global__ void plain(double* overload) {}
)";
  EXPECT_EQ(global_function_names(text),
            (std::vector<std::string>{"plain", "templated", "c_linkage", "in_namespace", "qualified"}));
}

TEST(StaticOwnership, UnqualifiedName) {
  EXPECT_EQ(unqualified_name("add_one(float const*, float*, int)"), "add_one");
  EXPECT_EQ(unqualified_name("void (anonymous namespace)::scaled_warp_sum<2>(float const*, float*, int)"),
            "scaled_warp_sum");
  EXPECT_EQ(unqualified_name("void ns::k<cute::tuple<int, int>, 8>(ns::params<float>)"), "k");
  EXPECT_EQ(unqualified_name("c_linkage"), "c_linkage");
}

TEST(StaticOwnership, LineInfoDecides) {
  std::vector<function> a = load("variant_a", true);
  const std::vector<std::string> notes = assign_ownership(a, {source("variant_a.cu")});
  EXPECT_TRUE(notes.empty()) << notes.front();
  EXPECT_TRUE(named(a, "add_one").m_own);
  EXPECT_FALSE(named(a, "helper_scale").m_own);
  EXPECT_FALSE(named(a, "helper_shuffle").m_own);
  EXPECT_EQ(named(a, "helper_shuffle").m_defined_in, source("common.cuh"));
  EXPECT_EQ(named(a, "add_one").m_defined_by, "line info");

  // Listing the header in SOURCES makes its kernels the variant's own.
  std::vector<function> listed = load("variant_a", true);
  (void)assign_ownership(listed, {source("variant_a.cu"), source("common.cuh")});
  EXPECT_TRUE(named(listed, "helper_shuffle").m_own);
}

TEST(StaticOwnership, SourceTextWithoutLineInfo) {
  std::vector<function> b = load("variant_b", false);
  const std::vector<std::string> notes = assign_ownership(b, {source("variant_b.cu")});
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("3 of 3 function(s) without line info"), std::string::npos) << notes[0];
  const function& own = named(b, "scaled_warp_sum");
  EXPECT_TRUE(own.m_own);
  EXPECT_EQ(own.m_defined_in, source("variant_b.cu"));
  EXPECT_EQ(own.m_defined_by, "source text");
  EXPECT_FALSE(named(b, "helper_shuffle").m_own);
  EXPECT_TRUE(named(b, "helper_shuffle").m_defined_in.empty());

  std::vector<function> unreadable = load("variant_b", false);
  const std::vector<std::string> missing = assign_ownership(unreadable, {source("nonexistent.cu")});
  EXPECT_NE(missing[0].find("cannot read source"), std::string::npos);
  for (const function& f : unreadable) EXPECT_FALSE(f.m_own);
}

report check_variant(const std::string& base, bool with_line_info, const std::vector<signature>& signatures,
                     const limits& l = {}) {
  const std::vector<std::string> sources = {source(base + ".cu")};
  std::vector<function> functions = load(base, with_line_info);
  (void)assign_ownership(functions, sources);
  return evaluate("k", base, {base + ".o"}, sources, std::move(functions), signatures, l);
}

TEST(StaticOwnership, ClaimFoundOnlyInAHeaderKernelFails) {
  for (const bool with_line_info : {true, false}) {
    const report a = check_variant("variant_a", with_line_info, {k_warp_shuffle});
    ASSERT_FALSE(a.passed()) << render_table(a);
    EXPECT_EQ(a.m_failures[0],
              "variant 'variant_a' of kernel 'k' claims METHOD warp_shuffle: /SHFL/ not found in its own kernels "
              "(add_one defined in variant_a.cu); found only in helper_shuffle (" +
                  std::string(with_line_info ? "defined in common.cuh" : "defined outside its SOURCES") + ")");
    EXPECT_EQ(a.m_signatures[0].m_count, 0);
    ASSERT_EQ(a.m_signatures[0].m_elsewhere.size(), 1u);
    const json doc = to_json(report_result(a, "", ""));
    EXPECT_EQ(doc["methods"][0]["status"], "missing");
    EXPECT_EQ(doc["methods"][0]["found"]["elsewhere"][0]["function"], "helper_shuffle(float const*, float*, int)");
    EXPECT_EQ(doc["sources"][0], source("variant_a.cu"));
    for (const json& f : doc["functions"]) {
      const bool own = f["name"] == "add_one(float const*, float*, int)";
      EXPECT_EQ(f["own"], own) << f["name"];
      EXPECT_EQ(f["defined_by"], with_line_info ? "line info" : "source text");
      if (own) EXPECT_EQ(f["defined_in"], source("variant_a.cu"));
    }

    const report b = check_variant("variant_b", with_line_info, {k_warp_shuffle});
    EXPECT_TRUE(b.passed()) << render_table(b);
    ASSERT_EQ(b.m_signatures[0].m_sites.size(), 1u);
    EXPECT_EQ(b.m_signatures[0].m_sites[0].m_function,
              "void (anonymous namespace)::scaled_warp_sum<2>(float const*, float*, int)");
    EXPECT_EQ(b.m_signatures[0].m_elsewhere.size(), 1u);  // helper_shuffle, not counted
  }
}

TEST(StaticOwnership, LimitsApplyToOwnKernelsOnly) {
  limits l;
  l.m_max_registers = 10;  // add_one: 10; helper_shuffle (common.cuh): 12
  const report a = check_variant("variant_a", true, {}, l);
  EXPECT_TRUE(a.passed()) << render_table(a);
  const std::string table = render_table(a);
  EXPECT_NE(table.find("not judged, not defined in its SOURCES: helper_scale (defined in common.cuh), "
                       "helper_shuffle (defined in common.cuh)"),
            std::string::npos)
      << table;
}

TEST(StaticOwnership, NoKernelOfItsOwnFailsWhenSomethingIsChecked) {
  std::vector<function> functions = load("variant_a", true);
  const std::vector<std::string> sources = {source("elsewhere.cu")};
  (void)assign_ownership(functions, sources);
  const report r = evaluate("k", "v", {"variant_a.o"}, sources, functions, {}, limits{{}, true, false});
  ASSERT_FALSE(r.passed());
  EXPECT_EQ(r.m_failures[0].rfind("variant 'v' of kernel 'k' has no kernel of its own to check: none of the 3 "
                                  "function(s) in its objects is defined in its SOURCES (elsewhere.cu): add_one "
                                  "(defined in variant_a.cu)",
                                  0),
            0u)
      << r.m_failures[0];
  const report unchecked = evaluate("k", "v", {"variant_a.o"}, sources, functions, {}, {});
  EXPECT_TRUE(unchecked.passed());
  EXPECT_NE(unchecked.m_notes[0].find("no kernel of its own"), std::string::npos);
}

// ccache with base_dir hands back an object compiled in another checkout:
// its line table names that checkout's files. Read as the SOURCES when the
// paths end alike (and the file there, if still present, is the same).
TEST(StaticOwnership, LineTableOfAnotherCheckout) {
  std::vector<function> a = load("variant_a", true);
  const std::string here = source("variant_a.cu");
  for (function& f : a) {
    if (f.m_defined_in == here) f.m_defined_in = "/gone/checkout/build/../kernels/shared/variant_a.cu";
  }
  const std::vector<std::string> notes = assign_ownership(a, {here});
  EXPECT_TRUE(named(a, "add_one").m_own);
  EXPECT_EQ(named(a, "add_one").m_defined_in, here);
  EXPECT_FALSE(named(a, "helper_shuffle").m_own);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("/gone/checkout/build/../kernels/shared/variant_a.cu as " + here), std::string::npos)
      << notes[0];

  EXPECT_FALSE(same_file_elsewhere("/gone/variant_a.cu", here));        // the file name alone
  EXPECT_FALSE(same_file_elsewhere("/gone/other/variant_a.cu", here));  // another directory
  EXPECT_TRUE(same_file_elsewhere("/gone/shared/variant_a.cu", here));
  // A file that exists under that path counts only with the same bytes.
  const std::filesystem::path copy = std::filesystem::path(testing::TempDir()) / "copy" / "shared";
  std::filesystem::create_directories(copy);
  std::filesystem::copy_file(here, copy / "variant_a.cu", std::filesystem::copy_options::overwrite_existing);
  EXPECT_TRUE(same_file_elsewhere((copy / "variant_a.cu").string(), here));
  std::ofstream(copy / "variant_a.cu", std::ios::app) << "// edited\n";
  EXPECT_FALSE(same_file_elsewhere((copy / "variant_a.cu").string(), here));
}

}  // namespace
}  // namespace kopt::sass
