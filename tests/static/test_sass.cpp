// Parsing of real cuobjdump output (tests/static/data, captured by
// data/capture.sh from the kernels in data/kernels/, nvcc 13.0, sm_90a).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "static/cuobjdump.hpp"
#include "static/sass.hpp"

namespace kopt::sass {
namespace {

std::string read_data(const std::string& name) {
  std::ifstream in(std::string(KOPT_STATIC_DATA_DIR) + "/" + name, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  EXPECT_FALSE(text.str().empty()) << "missing test data " << name;
  return text.str();
}

// The object as the static check sees it: SASS with resource usage attached.
std::vector<function> load(const std::string& base) {
  std::vector<function> functions = parse_sass(read_data(base + ".sass.txt"), base + ".o");
  attach_usage(functions, parse_resource_usage(read_data(base + ".res-usage.txt")));
  return functions;
}

const function& find(const std::vector<function>& functions, const std::string& mangled,
                     const std::string& arch = "sm_90a") {
  for (const function& f : functions) {
    if (f.m_mangled == mangled && f.m_arch == arch) return f;
  }
  ADD_FAILURE() << "no function " << mangled << " for " << arch;
  static const function none;
  return none;
}

long family_count(const function& f, const std::string& family) {
  const auto families = f.families();
  const auto it = families.find(family);
  return it == families.end() ? 0 : it->second;
}

TEST(SassParse, FunctionsInPrintOrderWithArchAndObject) {
  const std::vector<function> functions = load("shuffle_vector");
  ASSERT_EQ(functions.size(), 3u);
  EXPECT_EQ(functions[0].m_mangled, "_ZN9kopt_test9tiled_sumILi256EEEvPKfPf");
  EXPECT_EQ(functions[1].m_mangled, "_Z12scale_float4PK6float4PS_i");
  EXPECT_EQ(functions[2].m_mangled, "_Z8warp_sumPKfPfi");
  for (const function& f : functions) {
    EXPECT_EQ(f.m_arch, "sm_90a");
    EXPECT_EQ(f.m_object, "shuffle_vector.o");
    EXPECT_TRUE(f.m_has_usage);
  }
}

TEST(SassParse, DemanglesNamespacesAndTemplates) {
  const std::vector<function> functions = load("shuffle_vector");
  EXPECT_EQ(functions[0].name(), "void kopt_test::tiled_sum<256>(float const*, float*)");
  EXPECT_EQ(functions[2].name(), "warp_sum(float const*, float*, int)");
  EXPECT_EQ(demangle("not_mangled"), "not_mangled");
  EXPECT_EQ(demangle("_Zbroken"), "_Zbroken");
}

TEST(SassParse, InstructionsWithoutAddressEncodingOrGuard) {
  const std::vector<function> functions = load("shuffle_vector");
  const function& scale = find(functions, "_Z12scale_float4PK6float4PS_i");
  EXPECT_EQ(scale.m_instructions.size(), 48u);
  bool saw_vector_load = false;
  bool saw_guarded_exit = false;
  for (const instruction& i : scale.m_instructions) {
    if (i.m_opcode == "LDG.E.128.CONSTANT") {
      saw_vector_load = true;
      EXPECT_EQ(i.m_text.rfind("LDG.E.128.CONSTANT R", 0), 0u) << i.m_text;
      EXPECT_EQ(i.m_text.find("/*"), std::string::npos);
      EXPECT_NE(i.m_text.back(), ';');
      EXPECT_EQ(i.family(), "LDG");
    }
    if (i.m_opcode == "EXIT" && i.m_guard == "@P0") saw_guarded_exit = true;
  }
  EXPECT_TRUE(saw_vector_load);
  EXPECT_TRUE(saw_guarded_exit);
  EXPECT_EQ(family_count(scale, "MUFU"), 4);
  EXPECT_EQ(family_count(scale, "STG"), 1);
  EXPECT_EQ(family_count(find(functions, "_Z8warp_sumPKfPfi"), "SHFL"), 5);
}

TEST(SassParse, ResourceUsage) {
  const std::vector<function> functions = load("shuffle_vector");
  const function& tiled = find(functions, "_ZN9kopt_test9tiled_sumILi256EEEvPKfPf");
  EXPECT_EQ(tiled.m_usage.m_registers, 14);
  EXPECT_EQ(tiled.m_usage.m_stack_bytes, 0);
  // ptxas -v says 1024 bytes smem (data/ptxas-v.txt); cuobjdump's SHARED on
  // sm_90a is 1 KiB more, on sm_80 (multi_arch) equal.
  EXPECT_EQ(tiled.m_usage.m_shared_bytes, 2048);
  EXPECT_EQ(tiled.m_usage.m_local_bytes, 0);
  EXPECT_EQ(tiled.m_usage.m_constant0_bytes, 544);
  EXPECT_EQ(find(functions, "_Z8warp_sumPKfPfi").m_usage.m_registers, 12);
}

TEST(SassParse, TensorCoreAndAsyncCopyOpcodes) {
  const std::vector<function> mma_functions = load("mma_sync");
  ASSERT_EQ(mma_functions.size(), 1u);
  const function& mma = mma_functions[0];
  EXPECT_EQ(family_count(mma, "HMMA"), 1);
  EXPECT_EQ(family_count(mma, "LDSM"), 1);
  EXPECT_EQ(family_count(mma, "STSM"), 1);
  EXPECT_EQ(family_count(mma, "LDGSTS"), 1);
  EXPECT_EQ(mma.m_usage.m_registers, 20);

  const std::vector<function> wgmma_functions = load("wgmma_tma");
  ASSERT_EQ(wgmma_functions.size(), 1u);
  const function& wgmma = wgmma_functions[0];
  EXPECT_EQ(wgmma.name(), "wgmma_tile(CUtensorMap_st, uint4 const*, float*, unsigned long)");
  EXPECT_EQ(family_count(wgmma, "HGMMA"), 1);
  EXPECT_EQ(family_count(wgmma, "UTMALDG"), 1);
  EXPECT_EQ(family_count(wgmma, "UBLKCP"), 1);
  EXPECT_EQ(family_count(wgmma, "SYNCS"), 4);
  EXPECT_EQ(wgmma.m_usage.m_registers, 58);
  EXPECT_EQ(wgmma.m_usage.m_shared_bytes, 5128);
}

TEST(SassParse, SpillsAndLocalArraysBothUseLocalMemory) {
  const std::vector<function> functions = load("spill_local");
  ASSERT_EQ(functions.size(), 2u);
  // ptxas: 316 bytes of spill stores, 160-byte frame (data/ptxas-v.txt).
  const function& spill = find(functions, "_Z11spill_heavyPKfPfi");
  EXPECT_EQ(spill.m_usage.m_registers, 32);
  EXPECT_EQ(spill.m_usage.m_stack_bytes, 160);
  EXPECT_EQ(spill.local_stores(), 79);
  EXPECT_EQ(spill.local_loads(), 79);
  // ptxas: no spill, a 128-byte frame for the dynamically indexed array.
  const function& array = find(functions, "_Z11local_arrayPKfPKiPf");
  EXPECT_EQ(array.m_usage.m_stack_bytes, 128);
  EXPECT_EQ(array.local_stores(), 40);
  EXPECT_EQ(array.local_loads(), 33);
}

TEST(SassParse, SeveralArchitecturesInOneObject) {
  const std::vector<function> functions = load("multi_arch");
  ASSERT_EQ(functions.size(), 6u);
  EXPECT_EQ(find(functions, "_Z8warp_sumPKfPfi", "sm_80").m_usage.m_registers, 10);
  EXPECT_EQ(find(functions, "_Z8warp_sumPKfPfi", "sm_90a").m_usage.m_registers, 12);
  EXPECT_EQ(find(functions, "_ZN9kopt_test9tiled_sumILi256EEEvPKfPf", "sm_80").m_usage.m_shared_bytes, 1024);
  EXPECT_EQ(family_count(find(functions, "_Z8warp_sumPKfPfi", "sm_80"), "SHFL"), 5);
}

TEST(SassParse, PtxOnlyListingHasNoFunctions) {
  const std::string ptx_only =
      "\nFatbin ptx code:\n================\narch = sm_90\ncode version = [9,0]\nhost = linux\n"
      "compile_size = 64bit\ncompressed\nptxasOptions = \n";
  EXPECT_TRUE(parse_sass(ptx_only, "x.o").empty());
  EXPECT_TRUE(parse_resource_usage(ptx_only).empty());
}

TEST(CuobjdumpRun, Classification) {
  std::string message;
  EXPECT_EQ(classify_run(255, "cuobjdump info    : File '/b/host.o' does not contain device code\n", message),
            object_dump::status::no_device_code);
  EXPECT_EQ(classify_run(1,
                         "cuobjdump fatal   : Could not find executable file 'nvdisasm'; you can try adding path "
                         "to environment variables PATH or NVDISASM_PATH\n",
                         message),
            object_dump::status::tool_unusable);
  EXPECT_NE(message.find("nvidia-cuda-nvdisasm"), std::string::npos);
  EXPECT_EQ(classify_run(1, "cuobjdump fatal   : Could not open input file 'x.o'\n", message),
            object_dump::status::failed);
  EXPECT_NE(message.find("Could not open input file"), std::string::npos);
  EXPECT_EQ(classify_run(0, read_data("mma_sync.sass.txt"), message), object_dump::status::ok);
}

// Hostile cuobjdump output: lines of a megabyte took std::regex's
// per-character recursion past the stack; the hand-written matchers don't.
TEST(Sass, LongLinesAreHandled) {
  const std::string long_name(1 << 20, 'x');
  const std::string sass = "\tcode for sm_90a\n\t\tFunction : _Z" + long_name + "\n        /*0000*/ " +
                           std::string(1 << 20, 'A') + " ;\n        /*0010*/  EXIT ;  /* 0x000000000000794d */\n";
  const std::vector<function> functions = parse_sass(sass, "long.o");
  ASSERT_EQ(functions.size(), 1u);
  EXPECT_EQ(functions[0].m_arch, "sm_90a");
  EXPECT_EQ(functions[0].name(), "_Z" + long_name);  // too long to demangle: kept mangled
  ASSERT_EQ(functions[0].m_instructions.size(), 2u);
  EXPECT_EQ(functions[0].m_instructions[1].m_opcode, "EXIT");
  const usage_table usage = parse_resource_usage(" Function f:\n REG:" + std::string(100000, '9') + " " +
                                                 std::string(1 << 20, 'Q') + " SHARED:16 CONSTANT[0]:368\n");
  ASSERT_EQ(usage.size(), 1u);
  EXPECT_EQ(usage.begin()->second.m_shared_bytes, 16);
  EXPECT_EQ(usage.begin()->second.m_constant0_bytes, 368);
}

}  // namespace
}  // namespace kopt::sass
