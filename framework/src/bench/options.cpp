#include "bench/options.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>

namespace kopt::bench {
namespace {

struct flag_help {
  const char* m_name;
  const char* m_value;  // nullptr for a boolean flag
  const char* m_help;
};

// The one list of flags: parsing below and --help both read it.
constexpr flag_help k_flags[] = {
    {"kopt_quick", nullptr, "benchmark QUICK_SHAPES instead of SHAPES"},
    {"kopt_ceilings", "FILE", "kernelopt.ceilings file: adds the % of each measured ceiling reached"},
    {"kopt_profile", nullptr,
     "no timing: per selected benchmark, warm-up launches then exactly one launch between "
     "cudaProfilerStart/Stop (for ncu --profile-from-start off)"},
    {"kopt_no_cupti", nullptr, "skip the CUPTI second clock (second_clock.available = false)"},
    {"kopt_device", "N", "CUDA device ordinal (default: CTest's resource allocation, else 0)"},
    {"kopt_timeout", "SECONDS",
     "watchdog: after SECONDS, name the benchmark still running and exit 124 (default: none; kopt passes "
     "95% of its own limit on the process)"},
};

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

// Google Benchmark's IsTruthyFlagValue: "" is true; one character is true
// unless it is 0/f/F/n/N (or not alphanumeric); else anything but
// false/no/off.
bool truthy(const std::string& value) {
  if (value.empty()) return true;
  if (value.size() == 1) {
    const char c = value[0];
    return std::isalnum(static_cast<unsigned char>(c)) != 0 && c != '0' && c != 'f' && c != 'F' &&
           c != 'n' && c != 'N';
  }
  const std::string v = lower(value);
  return v != "false" && v != "no" && v != "off";
}

// "--NAME" -> "", "--NAME=V" -> "V"; std::nullopt when `arg` is another flag.
std::optional<std::string> flag_value(const std::string& arg, const std::string& name) {
  const std::string prefix = "--" + name;
  if (arg.compare(0, prefix.size(), prefix) != 0) return std::nullopt;
  if (arg.size() == prefix.size()) return std::string();
  if (arg[prefix.size()] != '=') return std::nullopt;
  return arg.substr(prefix.size() + 1);
}

bool parse_bool(const std::string& arg, const std::string& value) {
  const std::string v = lower(value);
  if (v.empty() || v == "true" || v == "1" || v == "yes" || v == "on") return true;
  if (v == "false" || v == "0" || v == "no" || v == "off") return false;
  throw options_error(arg + ": expected true or false");
}

int parse_device(const std::string& arg, const std::string& value) {
  char* end = nullptr;
  const long device = std::strtol(value.c_str(), &end, 10);
  if (value.empty() || *end != '\0' || device < 0 || device > 1024) {
    throw options_error(arg + ": expected a device ordinal (0, 1, ...)");
  }
  return static_cast<int>(device);
}

void apply(options& opts, const std::string& name, const std::string& arg, const std::string& value) {
  if (name == "kopt_quick") {
    opts.m_quick = parse_bool(arg, value);
  } else if (name == "kopt_profile") {
    opts.m_profile = parse_bool(arg, value);
  } else if (name == "kopt_no_cupti") {
    opts.m_no_cupti = parse_bool(arg, value);
  } else if (name == "kopt_ceilings") {
    if (value.empty()) throw options_error(arg + ": expected --kopt_ceilings=FILE");
    opts.m_ceilings = value;
  } else if (name == "kopt_device") {
    opts.m_device = parse_device(arg, value);
  } else if (name == "kopt_timeout") {
    char* end = nullptr;
    const double seconds = std::strtod(value.c_str(), &end);
    if (value.empty() || *end != '\0' || !(seconds > 0) || seconds > 1e7) {
      throw options_error(arg + ": expected a positive number of seconds");
    }
    opts.m_timeout_s = seconds;
  }
}

}  // namespace

options take_options(int& argc, char** argv) {
  options opts;
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("--kopt_", 0) != 0) {
      argv[kept++] = argv[i];
      continue;
    }
    bool known = false;
    for (const flag_help& flag : k_flags) {
      const std::optional<std::string> value = flag_value(arg, flag.m_name);
      if (!value) continue;
      apply(opts, flag.m_name, arg, *value);
      known = true;
      break;
    }
    if (!known) throw options_error(arg + ": unknown KernelOpt flag (see --help)");
  }
  argc = kept;
  argv[argc] = nullptr;
  return opts;
}

std::string options_help() {
  std::string text = "\nKernelOpt flags:\n";
  for (const flag_help& flag : k_flags) {
    std::string usage = std::string("  --") + flag.m_name + (flag.m_value ? std::string("=") + flag.m_value : "");
    usage.resize(std::max<std::size_t>(usage.size() + 2, 26), ' ');
    text += usage + flag.m_help + "\n";
  }
  return text;
}

benchmark_flags read_benchmark_flags(int argc, char** argv) {
  benchmark_flags flags;
  // Environment first (Google Benchmark's defaults), argv overrides.
  if (const char* env = std::getenv("BENCHMARK_LIST_TESTS")) flags.m_list_tests = truthy(env);
  if (const char* env = std::getenv("BENCHMARK_OUT")) flags.m_out = env;
  if (const char* env = std::getenv("BENCHMARK_OUT_FORMAT")) flags.m_out_format = env;
  if (const char* env = std::getenv("BENCHMARK_FILTER")) flags.m_filter = env;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (const auto v = flag_value(arg, "benchmark_list_tests")) {
      flags.m_list_tests = truthy(*v);
    } else if (const auto out = flag_value(arg, "benchmark_out"); out && !out->empty()) {
      flags.m_out = *out;
    } else if (const auto format = flag_value(arg, "benchmark_out_format"); format && !format->empty()) {
      flags.m_out_format = *format;
    } else if (const auto filter = flag_value(arg, "benchmark_filter")) {
      flags.m_filter = *filter;
    }
  }
  return flags;
}

}  // namespace kopt::bench
