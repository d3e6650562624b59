// ncu raw CSV -> kernelopt.profile: parsing, Nsight Compute's SOL
// classification, findings, roofline, spec matching. The CSV files under
// data/ are SYNTHETIC (written by hand in ncu's raw-page layout; each says
// so in its first lines); real captures from the GPU go beside them.
#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <sstream>

#include "kopt/profile/document.hpp"

namespace kopt::profile {
namespace {

std::string read_data(const std::string& name) {
  std::ifstream in(std::string(KOPT_PROFILE_DATA_DIR) + "/" + name, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  EXPECT_FALSE(text.str().empty()) << "missing test data " << name;
  return text.str();
}

std::vector<kernel_profile> load(const std::string& name) {
  return kernels_from_table(parse_csv(read_data(name), name));
}

kernel_profile sol(double compute, double memory, std::optional<double> waves = 10) {
  kernel_profile k;
  k.m_sol_compute_pct = compute;
  k.m_sol_memory_pct = memory;
  k.m_waves_per_sm = waves;
  return k;
}

TEST(NcuCsv, HeaderUnitsRowsAndSkippedLines) {
  const csv_table t = parse_csv(read_data("gemm_cublas_two_kernels.csv"), "gemm");
  EXPECT_EQ(t.m_header.front(), "ID");
  EXPECT_EQ(t.m_header.size(), t.m_units.size());
  ASSERT_EQ(t.m_rows.size(), 2u);
  const int name = t.column("Kernel Name");
  ASSERT_GE(name, 0);
  // Quoted commas stay inside the cell.
  EXPECT_NE(t.m_rows[1][static_cast<std::size_t>(name)].find("globalKernel<8, 32, float"), std::string::npos);
  EXPECT_EQ(t.m_units[static_cast<std::size_t>(t.column("gpu__time_duration.sum"))], "nsecond");
  EXPECT_EQ(t.column("no_such_metric"), -1);
}

TEST(NcuCsv, NoHeaderIsAnError) {
  try {
    (void)parse_csv(read_data("ncu_permission_error.txt"), "ncu.log");
    FAIL() << "expected format_error";
  } catch (const format_error& e) {
    EXPECT_NE(std::string(e.what()).find("ncu.log: no ncu CSV header"), std::string::npos) << e.what();
  }
}

TEST(NcuCsv, Numbers) {
  EXPECT_EQ(parse_number("231424"), 231424.0);
  EXPECT_EQ(parse_number("1,234,567.5"), 1234567.5);
  EXPECT_EQ(parse_number("78.52"), 78.52);
  EXPECT_EQ(parse_number("1e3"), 1000.0);
  EXPECT_EQ(parse_number("-3"), -3.0);
  EXPECT_FALSE(parse_number(""));
  EXPECT_FALSE(parse_number("n/a"));
  EXPECT_FALSE(parse_number("(256, 1, 1)"));
  EXPECT_FALSE(parse_number("1,23"));  // not thousands grouping
  EXPECT_FALSE(parse_number("1234,567"));
  EXPECT_FALSE(parse_number("1,2345"));
  EXPECT_EQ(parse_number("-12,345.25"), -12345.25);
  EXPECT_EQ(parse_number(".5e-2"), 0.005);
  EXPECT_EQ(parse_number("7."), 7.0);
  EXPECT_FALSE(parse_number("."));
  EXPECT_FALSE(parse_number("1e"));
  EXPECT_FALSE(parse_number("-"));
}

// A cell of 30 000 digits crashed the import (std::regex recursed once per
// character); the hand-written check takes it in one pass.
TEST(NcuCsv, HugeNumericCellsAreHandled) {
  const std::string digits(30000, '7');
  EXPECT_FALSE(parse_number(digits));               // beyond double: not a value
  EXPECT_FALSE(parse_number("-" + digits + ".5"));  // likewise
  EXPECT_EQ(parse_number("0." + std::string(29998, '0') + "1"), 0.0);
  EXPECT_FALSE(parse_number(digits + "x"));
  const std::string csv = "\"ID\",\"Kernel Name\",\"gpu__time_duration.sum\",\"launch__occupancy_limit_" +
                          std::string(20000, 'r') + "\"\n\"\",\"\",\"nsecond\",\"block\"\n\"0\",\"k\",\"" +
                          digits + "\",\"" + digits + "\"\n";
  const std::vector<kernel_profile> kernels = kernels_from_table(parse_csv(csv, "huge.csv"));
  ASSERT_EQ(kernels.size(), 1u);
  EXPECT_FALSE(kernels[0].m_duration_ns);
  EXPECT_TRUE(kernels[0].m_occupancy_limits.empty());
}

TEST(NcuCsv, KernelMetrics) {
  const std::vector<kernel_profile> kernels = load("softmax_v1_memory_bound.csv");
  ASSERT_EQ(kernels.size(), 1u);
  const kernel_profile& k = kernels[0];
  EXPECT_EQ(k.m_name, "void (anonymous namespace)::softmax_online_kernel<float, 1024>(const float *, float *, long, int)");
  EXPECT_EQ(k.m_device, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(k.m_duration_ns, 231424.0);
  EXPECT_EQ(k.m_dram_bytes, 805306368.0);
  EXPECT_EQ(k.m_sol_memory_pct, 78.52);
  EXPECT_EQ(k.m_sol_compute_pct, 31.18);
  EXPECT_EQ(k.m_achieved_occupancy_pct, 87.9);
  EXPECT_EQ(k.m_theoretical_occupancy_pct, 100.0);
  EXPECT_EQ(k.m_grid_size, 8192.0);
  EXPECT_EQ(k.m_sm_count, 132.0);
  EXPECT_EQ(k.m_grid, "(8192, 1, 1)");
  EXPECT_EQ(k.m_static_smem_bytes, 256.0);  // unit byte/block
  EXPECT_EQ(k.m_occupancy_limits.at("registers"), 2.0);
  ASSERT_GE(k.m_stalls.size(), 3u);  // "selected" is not a stall
  EXPECT_EQ(k.m_stalls[0].m_reason, "long_scoreboard");
  EXPECT_EQ(k.m_stalls[1].m_reason, "barrier");
  for (const stall& s : k.m_stalls) EXPECT_NE(s.m_reason, "selected");
}

TEST(NcuCsv, AutoScaledUnitsAndGroupedThousands) {
  const std::vector<kernel_profile> kernels = load("auto_units.csv");
  ASSERT_EQ(kernels.size(), 1u);
  EXPECT_DOUBLE_EQ(*kernels[0].m_duration_ns, 231420.0);       // 231.42 usecond
  EXPECT_DOUBLE_EQ(*kernels[0].m_dram_bytes, 805310000.0);     // 805.31 Mbyte
  EXPECT_DOUBLE_EQ(*kernels[0].m_static_smem_bytes, 1090.0);   // 1.09 Kbyte/block
  EXPECT_EQ(kernels[0].m_grid_size, 8192.0);                   // "8,192"
}

TEST(Classify, NsightComputeSolThresholds) {
  EXPECT_EQ(classify(sol(31.18, 78.52)).m_bottleneck, "memory-bound");
  EXPECT_EQ(classify(sol(31.18, 78.52)).m_ncu_rule, "High Memory Throughput");
  EXPECT_EQ(classify(sol(75, 40)).m_bottleneck, "compute-bound");
  EXPECT_EQ(classify(sol(66.3, 71.9)).m_bottleneck, "balanced");
  EXPECT_EQ(classify(sol(38, 44.6)).m_bottleneck, "latency-bound");
  EXPECT_EQ(classify(sol(38, 44.6)).m_ncu_rule, "Latency Issue");
  EXPECT_EQ(classify(sol(4, 9.8, 0.06)).m_bottleneck, "small-grid");
  EXPECT_EQ(classify(sol(22.4, 91.7)).m_bottleneck, "high-throughput (memory)");
  EXPECT_EQ(classify(sol(86.5, 38.2)).m_bottleneck, "high-throughput (compute)");
  EXPECT_EQ(classify(kernel_profile{}).m_bottleneck, "unknown");
}

TEST(Classify, ThresholdEdgesAsTheRuleWritesThem) {
  // ncu: "< 80" for not high-throughput, "< 60" for latency, ">= 10" for imbalance, waves "< 1".
  EXPECT_EQ(classify(sol(80, 10)).m_bottleneck, "high-throughput (compute)");
  EXPECT_EQ(classify(sol(79.9, 10)).m_bottleneck, "compute-bound");
  EXPECT_EQ(classify(sol(60, 50)).m_bottleneck, "compute-bound");  // 60 is not < 60; 10 points apart
  EXPECT_EQ(classify(sol(59.9, 50)).m_bottleneck, "latency-bound");
  EXPECT_EQ(classify(sol(65, 74.9)).m_bottleneck, "balanced");     // 9.9 points
  EXPECT_EQ(classify(sol(10, 10, 1.0)).m_bottleneck, "latency-bound");
  EXPECT_EQ(classify(sol(10, 10, 0.99)).m_bottleneck, "small-grid");
}

TEST(Classify, SmallGridFromGridSizeWhenWavesAreMissing) {
  kernel_profile k = sol(5, 12, std::nullopt);
  k.m_grid_size = 64;
  k.m_sm_count = 132;
  EXPECT_EQ(classify(k).m_bottleneck, "small-grid");
  k.m_grid_size = 1024;
  EXPECT_EQ(classify(k).m_bottleneck, "latency-bound");
}

TEST(Findings, OccupancyStallsAndTensorPipe) {
  const std::vector<kernel_profile> v2 = load("softmax_v2_high_throughput.csv");
  const std::vector<std::string> f = findings(v2[0]);
  ASSERT_GE(f.size(), 3u);
  EXPECT_EQ(f[0], "theoretical occupancy 50.0%, limited by registers (1 blocks per SM)");
  bool stalls = false;
  for (const std::string& s : f) stalls = stalls || s.rfind("top warp stalls (cycles per issued instruction): long_scoreboard 30.1", 0) == 0;
  EXPECT_TRUE(stalls);
  const std::vector<kernel_profile> small = load("softmax_v0_small_grid.csv");
  const std::vector<std::string> g = findings(small[0]);
  EXPECT_NE(std::find(g.begin(), g.end(), "0.06 waves per SM: the grid does not fill the GPU"), g.end());
}

TEST(Summary, LongestKernelDecides) {
  const benchmark_summary s = summarize(load("gemm_cublas_two_kernels.csv"));
  EXPECT_DOUBLE_EQ(*s.m_duration_ns, 241760.0 + 48832.0);
  EXPECT_DOUBLE_EQ(*s.m_dram_bytes, 171966464.0 + 134217728.0);
  EXPECT_EQ(s.m_class.m_bottleneck, "high-throughput (compute)");
  EXPECT_NE(s.m_dominant_kernel.find("sm90_xmma_gemm_bf16bf16"), std::string::npos);
  EXPECT_NEAR(s.m_dominant_share, 241760.0 / 290592.0, 1e-12);
  EXPECT_EQ(s.m_findings.front(), "2 kernels; the bottleneck is the longest's (83.2% of the time)");
  EXPECT_EQ(overall_bottleneck({"memory-bound", "latency-bound", "memory-bound"}), "memory-bound");
  EXPECT_EQ(overall_bottleneck({"latency-bound", "memory-bound"}), "latency-bound");
  EXPECT_EQ(overall_bottleneck({}), "unknown");
}

TEST(Roofline, MemoryRoofAndGap) {
  // softmax f32 8192^2: FLOPS 5*N, BYTES 8*N.
  const double n = 8192.0 * 8192.0;
  const ceiling_value compute{"fp32_fma", 67e12, "FLOP/s", "spec"};
  const ceiling_value bw{"dram_bandwidth", 3.35e12, "B/s", "spec"};
  const roofline_point p = roofline(5 * n, 8 * n, 805306368.0, 231424, compute, bw);
  EXPECT_DOUBLE_EQ(p.m_intensity, 0.625);
  EXPECT_EQ(p.m_bound, "memory");
  EXPECT_DOUBLE_EQ(p.m_attainable_flops, 0.625 * 3.35e12);
  EXPECT_NEAR(p.m_achieved_bytes, 8 * n / 231424e-9, 1);
  EXPECT_NEAR(p.m_fraction, (8 * n / 231424e-9) / 3.35e12, 1e-12);
  EXPECT_NEAR(p.m_gap, 1 - p.m_fraction, 1e-15);
  EXPECT_NEAR(*p.m_dram_intensity, 5 * n / 805306368.0, 1e-12);
  // gemm 4096^3 bf16: compute roof.
  const double m = 4096;
  const ceiling_value tensor{"bf16_tensor", 989.5e12, "FLOP/s", "spec"};
  const roofline_point g = roofline(2 * m * m * m, 2 * m * m + 2 * m * m + 4 * m * m, std::nullopt, 290592, tensor, bw);
  EXPECT_EQ(g.m_bound, "compute");
  EXPECT_DOUBLE_EQ(g.m_attainable_flops, 989.5e12);
}

TEST(Roofline, ComputeCeilingChoice) {
  EXPECT_EQ(choose_compute_ceiling("", {"bf16", "bf16"}, {}).m_name, "bf16_tensor");
  EXPECT_EQ(choose_compute_ceiling("", {"f16"}, {}).m_name, "fp16_tensor");
  EXPECT_EQ(choose_compute_ceiling("", {"f32"}, {}).m_name, "fp32_fma");
  kernel_profile tensor;
  tensor.m_tensor_pipe_pct = 41;
  EXPECT_EQ(choose_compute_ceiling("", {"f32"}, {tensor}).m_name, "tf32_tensor");
  EXPECT_EQ(choose_compute_ceiling("fp8_tensor", {"f32"}, {}).m_name, "fp8_tensor");
}

TEST(Ceilings, MeasuredWinsOverSpec) {
  ceiling_set set;
  const json measured = json::parse(R"({"schema_version":1,"kind":"kernelopt.ceilings","device":"d","date":"t",
      "ceilings":{"copy_bandwidth":{"value":3.0e12,"unit":"B/s","source":"measured"},
                  "bf16_tensor":{"value":null,"reason":"cuBLAS failed"}}})");
  set.add_ceilings(ceilings_from_json(json_reader(measured, "ceilings.json")), "ceilings.json");
  const json spec_doc = json::parse(R"({"schema_version":1,"kind":"kernelopt.spec","device":"H","match":[],
      "values":{
      "dram_bandwidth":{"value":3.35e12,"unit":"B/s","source":"x"},
      "bf16_tensor":{"value":989.5e12,"unit":"FLOP/s","source":"y"},
      "fp64":{"value":"unknown","unit":"FLOP/s","reason":"r"},
      "memory_bytes":{"value":80e9,"unit":"B","source":"z"}}})");
  spec_file spec = spec_from_json(json_reader(spec_doc, "h.json"));
  spec.m_path = "h.json";
  set.add_spec(spec);
  EXPECT_EQ(set.bandwidth()->m_name, "copy_bandwidth");
  EXPECT_EQ(set.bandwidth()->m_value, 3.0e12);
  EXPECT_EQ(set.find("bf16_tensor")->m_value, 989.5e12);  // the measured one had no value
  EXPECT_NE(set.find("bf16_tensor")->m_source.find("spec H: y"), std::string::npos);
  EXPECT_FALSE(set.find("fp64"));
  EXPECT_FALSE(set.find("memory_bytes"));  // not a rate
}

TEST(NcuOutput, PermissionAndOtherProblems) {
  const std::string log = read_data("ncu_permission_error.txt");
  EXPECT_TRUE(is_permission_problem(log));
  const std::optional<std::string> why = ncu_problem(log);
  ASSERT_TRUE(why);
  EXPECT_EQ(why->rfind("performance counters not readable (ERR_NVGPUCTRPERM): ERR_NVGPUCTRPERM - The user does not have permission", 0), 0u) << *why;
  EXPECT_EQ(ncu_problem("==PROF== Disconnected\n==WARNING== No kernels were profiled.\n"),
            "ncu profiled no kernel (no launch between cudaProfilerStart and cudaProfilerStop?)");
  EXPECT_EQ(ncu_problem("==ERROR== Failed to find metric sm__nothing\n"), "ncu: Failed to find metric sm__nothing");
  EXPECT_FALSE(ncu_problem("==PROF== Connected\n"));
}

TEST(Specs, DeviceNameToSpecFile) {
  const std::filesystem::path dir = KOPT_SPECS_DIR;
  const auto file = [&](const std::string& device) {
    const auto spec = find_spec(dir, device);
    return spec ? spec->m_path.filename().string() : std::string("none");
  };
  EXPECT_EQ(file("NVIDIA H100 80GB HBM3"), "h100_sxm5.json");
  EXPECT_EQ(file("NVIDIA H100 PCIe"), "h100_pcie.json");
  EXPECT_EQ(file("NVIDIA H200"), "h200_sxm.json");
  EXPECT_EQ(file("NVIDIA H200 NVL"), "none");
  EXPECT_EQ(file("NVIDIA A100-SXM4-80GB"), "a100_sxm4_80gb.json");
  EXPECT_EQ(file("NVIDIA L40S"), "l40s.json");
  EXPECT_EQ(file("NVIDIA L40"), "none");
  EXPECT_EQ(file("NVIDIA GeForce RTX 4090"), "none");
  EXPECT_EQ(file(""), "none");
}

TEST(Specs, EveryValueIsSourcedOrUnknownWithAReason) {
  for (const auto& entry : std::filesystem::directory_iterator(KOPT_SPECS_DIR)) {
    if (entry.path().extension() != ".json") continue;
    const json doc = read_json_file(entry.path());
    check_kind(doc, entry.path(), "kernelopt.spec", 1);
    ASSERT_TRUE(doc["values"].is_object()) << entry.path();
    ASSERT_FALSE(doc["sources"].empty()) << entry.path();
    for (const auto& [name, value] : doc["values"].items()) {
      SCOPED_TRACE(entry.path().filename().string() + ": " + name);
      ASSERT_TRUE(value.contains("unit"));
      if (value["value"].is_number()) {
        EXPECT_TRUE(value.contains("source") && value["source"].is_string() && !value["source"].get<std::string>().empty());
        const std::string id = value["source"].get<std::string>().substr(0, value["source"].get<std::string>().find(','));
        bool known = false;
        for (const json& s : doc["sources"]) known = known || s.value("id", std::string()) == id;
        EXPECT_TRUE(known) << "source id '" << id << "' is not in \"sources\"";
      } else {
        EXPECT_EQ(value["value"], "unknown");
        EXPECT_TRUE(value.contains("reason") && !value["reason"].get<std::string>().empty());
      }
      if (name.find("_sparse") == std::string::npos && name.find("tensor") != std::string::npos && value["value"].is_number()) {
        const std::string sparse = name + "_sparse";
        if (doc["values"].contains(sparse) && doc["values"][sparse]["value"].is_number()) {
          EXPECT_LT(value["value"].get<double>(), doc["values"][sparse]["value"].get<double>());
        }
      }
    }
  }
}

document_settings softmax_settings() {
  document_settings s;
  s.m_kernel = "softmax";
  s.m_flops = "5*rows*cols";
  s.m_bytes = "8*rows*cols";
  s.m_input_dtypes = {"f32"};
  s.m_specs_dir = KOPT_SPECS_DIR;
  return s;
}

benchmark_input input(const std::string& impl, const std::string& shape, const std::string& file) {
  benchmark_input in;
  in.m_impl = impl;
  in.m_shape = shape::parse(shape);
  in.m_name = "softmax/" + impl + "/" + shape;
  in.m_csv = read_data(file);
  in.m_csv_file = file;
  return in;
}

// The roofline point is read through its type (roofline_point): each field
// checked, an error naming the file and the JSON pointer; what a record
// embeds is what the report and gate then read.
TEST(Document, RooflinePointIsTyped) {
  json doc = to_json(build_document(softmax_settings(), {input("v1", "rows=8192,cols=8192", "softmax_v1_memory_bound.csv")}));
  ASSERT_TRUE(doc["benchmarks"][0]["roofline"].is_object());
  const profile_document typed = profile_document_from_json(json_reader(doc, "profile.json"));
  ASSERT_TRUE(typed.m_run && typed.m_run->m_benchmarks[0].m_roofline);
  EXPECT_EQ(typed.m_run->m_benchmarks[0].m_roofline->m_gap, doc["benchmarks"][0]["roofline"]["gap"].get<double>());
  EXPECT_EQ(typed.m_run->m_benchmarks[0].m_compute_why.value_or(""),
            doc["benchmarks"][0]["roofline"]["compute_ceiling"]["why"].get<std::string>());
  doc["benchmarks"][0]["roofline"]["bound"] = "sideways";
  try {
    (void)profile_document_from_json(json_reader(doc, "profile.json"));
    ADD_FAILURE() << "no error";
  } catch (const format_error& e) {
    EXPECT_EQ(std::string(e.what()),
              "profile.json: /benchmarks/0/roofline/bound: expected \"memory\" or \"compute\", got \"sideways\"");
  }
  doc["benchmarks"][0]["roofline"].erase("bandwidth_ceiling");
  doc["benchmarks"][0]["roofline"]["bound"] = "memory";
  try {
    (void)profile_document_from_json(json_reader(doc, "profile.json"));
    ADD_FAILURE() << "no error";
  } catch (const format_error& e) {
    EXPECT_EQ(std::string(e.what()), "profile.json: /benchmarks/0/roofline/bandwidth_ceiling: missing");
  }
}

// tool, thresholds and ceilings through their types: read back as written
// (thresholds of an older document by their own names), and a member of
// the wrong type is an error naming the file and the field.
TEST(Document, ToolThresholdsAndCeilingsAreTyped) {
  const json doc =
      to_json(build_document(softmax_settings(), {input("v1", "rows=8192,cols=8192", "softmax_v1_memory_bound.csv")}));
  const profile_document typed = profile_document_from_json(json_reader(doc, "profile.json"));
  ASSERT_TRUE(typed.m_run);
  EXPECT_EQ(typed.m_run->m_thresholds.m_values.size(), 4u);
  EXPECT_EQ(typed.m_run->m_thresholds.m_values[0], (std::pair<std::string, double>{"latency_below_pct", 60}));
  ASSERT_TRUE(typed.m_run->m_ceilings.m_spec_file);
  EXPECT_FALSE(typed.m_run->m_ceilings.m_ceilings_file);
  json older = doc;
  older["thresholds"] = json::parse(R"({"low_pct": 60, "high_pct": 80, "margin_pct": 10})");
  EXPECT_EQ(to_json(profile_document_from_json(json_reader(older, "profile.json")))["thresholds"], older["thresholds"]);
  const auto error_of = [&](const std::function<void(json&)>& patch) {
    json bad = doc;
    patch(bad);
    try {
      (void)profile_document_from_json(json_reader(bad, "profile.json"));
    } catch (const format_error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(error_of([](json& d) { d["tool"].erase("version"); }), "profile.json: /tool/version: missing");
  EXPECT_EQ(error_of([](json& d) { d["tool"]["ncu"] = 1; }), "profile.json: /tool/ncu: expected a string, got a number");
  EXPECT_EQ(error_of([](json& d) { d["thresholds"]["latency_below_pct"] = "60"; }),
            "profile.json: /thresholds/latency_below_pct: expected a number, got a string");
  EXPECT_EQ(error_of([](json& d) { d["thresholds"] = json::array(); }),
            "profile.json: /thresholds: expected an object (source, then each threshold by name)");
  EXPECT_EQ(error_of([](json& d) { d["ceilings"]["spec_file"] = true; }),
            "profile.json: /ceilings/spec_file: expected a string, got a boolean");
  EXPECT_EQ(error_of([](json& d) { d["ceilings"] = "h100.json"; }), "profile.json: /ceilings: expected an object");
}

// Each profiled kernel through its type: read back as written; a field of
// the wrong type names the file and the JSON pointer.
TEST(Document, ProfiledKernelsAreTyped) {
  const json doc =
      to_json(build_document(softmax_settings(), {input("v1", "rows=8192,cols=8192", "softmax_v1_memory_bound.csv")}));
  const profile_document typed = profile_document_from_json(json_reader(doc, "profile.json"));
  ASSERT_TRUE(typed.m_run);
  ASSERT_FALSE(typed.m_run->m_benchmarks[0].m_kernels.empty());
  const profiled_kernel& k = typed.m_run->m_benchmarks[0].m_kernels[0];
  EXPECT_EQ(k.m_name, doc["benchmarks"][0]["kernels"][0]["name"].get<std::string>());
  EXPECT_EQ(k.m_bottleneck, "memory-bound");
  EXPECT_EQ(to_json(k), doc["benchmarks"][0]["kernels"][0]);
  const auto error_of = [&](const std::function<void(json&)>& patch) {
    json bad = doc;
    patch(bad["benchmarks"][0]["kernels"][0]);
    try {
      (void)profile_document_from_json(json_reader(bad, "profile.json"));
    } catch (const format_error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(error_of([](json& k) { k.erase("bottleneck"); }), "profile.json: /benchmarks/0/kernels/0/bottleneck: missing");
  EXPECT_EQ(error_of([](json& k) { k["sol_memory_pct"] = "91%"; }),
            "profile.json: /benchmarks/0/kernels/0/sol_memory_pct: expected a number, got a string");
  EXPECT_EQ(error_of([](json& k) { k["launch"]["grid"] = json::array({128, 1, 1}); }),
            "profile.json: /benchmarks/0/kernels/0/launch/grid: expected a string, got an array");
  EXPECT_EQ(error_of([](json& k) { k["launch"]["occupancy_limit_blocks"]["registers"] = nullptr; }),
            "profile.json: /benchmarks/0/kernels/0/launch/occupancy_limit_blocks/registers: expected a number, got null");
  EXPECT_EQ(error_of([](json& k) { k["top_stalls"] = json::array({json::object()}); }),
            "profile.json: /benchmarks/0/kernels/0/top_stalls/0/reason: missing");
}

TEST(Document, SingleImplementationCarriesBottleneckAndRoofline) {
  const json doc = to_json(build_document(softmax_settings(),
                                          {input("v1", "rows=8192,cols=8192", "softmax_v1_memory_bound.csv"),
                                           input("v1", "rows=1048576,cols=64", "softmax_v1_latency.csv")}));
  EXPECT_EQ(to_json(profile_document_from_json(json_reader(doc, "profile.json"))), doc);
  EXPECT_EQ(doc["schema_version"], 1);
  EXPECT_EQ(doc["kind"], "kernelopt.profile");
  EXPECT_EQ(doc["status"], "ok");
  EXPECT_TRUE(doc["reason"].is_null());
  EXPECT_EQ(doc["device"], "NVIDIA H100 80GB HBM3");
  EXPECT_NE(doc["ceilings"]["spec_file"].get<std::string>().find("h100_sxm5.json"), std::string::npos);
  EXPECT_EQ(doc["thresholds"]["latency_below_pct"], 60);
  EXPECT_EQ(doc["impl"], "v1");
  EXPECT_EQ(doc["bottleneck"], "memory-bound");  // a tie goes to the first shape
  ASSERT_EQ(doc["roofline"].size(), 2u);
  EXPECT_EQ(doc["roofline"][0]["shape"], "rows=8192,cols=8192");
  const json& b = doc["benchmarks"][0];
  EXPECT_EQ(b["status"], "ok");
  EXPECT_EQ(b["bottleneck"], "memory-bound");
  EXPECT_EQ(b["flops"], 5.0 * 8192 * 8192);
  EXPECT_NEAR(b["dram_bytes_over_model"].get<double>(), 1.5, 1e-9);
  EXPECT_EQ(b["roofline"]["bound"], "memory");
  EXPECT_EQ(b["roofline"]["compute_ceiling"]["name"], "fp32_fma");
  EXPECT_EQ(b["roofline"]["bandwidth_ceiling"]["name"], "dram_bandwidth");
  EXPECT_NEAR(b["roofline"]["gap"].get<double>(), doc["roofline"][0]["gap"].get<double>(), 1e-15);
  bool traffic = false;
  for (const json& f : b["findings"]) traffic = traffic || f.get<std::string>().rfind("DRAM traffic is 1.5x", 0) == 0;
  EXPECT_TRUE(traffic);
  EXPECT_EQ(doc["benchmarks"][1]["bottleneck"], "latency-bound");
}

TEST(Document, SeveralImplementationsAndFailures) {
  std::vector<benchmark_input> inputs = {input("v1", "rows=8192,cols=8192", "softmax_v1_memory_bound.csv"),
                                         input("v2", "rows=8192,cols=8192", "softmax_v2_high_throughput.csv")};
  benchmark_input failed;
  failed.m_impl = "v0";
  failed.m_shape = shape::parse("rows=8192,cols=8192");
  failed.m_name = "softmax/v0/rows=8192,cols=8192";
  failed.m_error = "ncu: the application crashed";
  inputs.push_back(failed);
  const profile_document typed = build_document(softmax_settings(), inputs);
  const json doc = to_json(typed);
  EXPECT_EQ(to_json(profile_document_from_json(json_reader(doc, "profile.json"))), doc);
  EXPECT_EQ(doc["status"], "partial");
  EXPECT_EQ(doc["reason"], "softmax/v0/rows=8192,cols=8192: ncu: the application crashed");
  EXPECT_FALSE(doc.contains("bottleneck"));
  EXPECT_EQ(doc["impls"]["v2"]["bottleneck"], "high-throughput (memory)");
  EXPECT_EQ(doc["impls"]["v0"]["bottleneck"], "not profiled");
  const json v2 = to_json(impl_document(typed, "v2"));
  EXPECT_EQ(v2["status"], "ok");
  EXPECT_EQ(v2["bottleneck"], "high-throughput (memory)");
  EXPECT_EQ(v2["benchmarks"].size(), 1u);
  const json v0 = to_json(impl_document(typed, "v0"));
  EXPECT_EQ(v0["status"], "unavailable");
  EXPECT_EQ(v0["bottleneck"], "not profiled");
}

TEST(Document, RooflineNeedsBothRoofs) {
  document_settings s = softmax_settings();
  s.m_specs_dir.clear();  // no spec, no ceilings file
  const json doc = to_json(build_document(s, {input("v1", "rows=8192,cols=8192", "softmax_v1_memory_bound.csv")}));
  EXPECT_TRUE(doc["benchmarks"][0]["roofline"].is_null());
  EXPECT_NE(doc["benchmarks"][0]["roofline_unavailable"].get<std::string>().find("no bandwidth ceiling"), std::string::npos);
  EXPECT_EQ(doc["roofline"], json::array());
  // A bf16 softmax on an H200 (tensor pipe idle, so the FP32 FMA rate bounds
  // it; no published rate in the spec file): says which ceiling is missing.
  document_settings h200 = softmax_settings();
  h200.m_device = "NVIDIA H200";
  h200.m_input_dtypes = {"bf16"};
  benchmark_input in = input("v1", "rows=8192,cols=8192", "softmax_v1_memory_bound.csv");
  std::string csv = *in.m_csv;
  for (std::size_t at = csv.find("NVIDIA H100 80GB HBM3"); at != std::string::npos; at = csv.find("NVIDIA H100 80GB HBM3")) {
    csv.replace(at, 21, "");
  }
  in.m_csv = csv;
  const json d2 = to_json(build_document(h200, {in}));
  EXPECT_EQ(d2["device"], "NVIDIA H200");
  EXPECT_NE(d2["benchmarks"][0]["roofline_unavailable"].get<std::string>().find("no \"fp32_fma\" ceiling"), std::string::npos)
      << d2["benchmarks"][0].dump();
}

TEST(Document, Unavailable) {
  const json doc = to_json(unavailable_document("softmax", "ncu not found"));
  EXPECT_EQ(to_json(profile_document_from_json(json_reader(doc, "profile.json"))), doc);
  EXPECT_EQ(doc["status"], "unavailable");
  EXPECT_EQ(doc["reason"], "ncu not found");
  EXPECT_EQ(doc["kind"], "kernelopt.profile");
}

}  // namespace
}  // namespace kopt::profile
