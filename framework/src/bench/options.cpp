#include "bench/options.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <utility>
#include <vector>

#include "core/option_values.hpp"
#include "core/version.hpp"

namespace kopt::bench {
namespace {

struct flag_help {
  const char* m_name;
  const char* m_value;        // nullptr for a switch
  bool options::*m_switch;    // the switch's member; nullptr for a flag with a value
  const char* m_help;
};

// The one list of flags: CLI11 reads them, and --help shows them.
constexpr flag_help k_flags[] = {
    {"kopt_quick", nullptr, &options::m_quick, "benchmark QUICK_SHAPES instead of SHAPES"},
    {"kopt_ceilings", "FILE", nullptr, "kernelopt.ceilings file: adds the % of each measured ceiling reached"},
    {"kopt_profile", nullptr, &options::m_profile,
     "no timing: per selected benchmark, warm-up launches then exactly one launch between "
     "cudaProfilerStart/Stop (for ncu --profile-from-start off)"},
    {"kopt_no_cupti", nullptr, &options::m_no_cupti, "skip the CUPTI second clock (second_clock.available = false)"},
    {"kopt_device", "N", nullptr, "CUDA device ordinal (default: CTest's resource allocation, else 0)"},
    {"kopt_timeout", "SECONDS", nullptr,
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

int parse_device(const std::string& value) {
  char* end = nullptr;
  const long device = std::strtol(value.c_str(), &end, 10);
  if (value.empty() || *end != '\0' || device < 0 || device > 1024) {
    throw options_error("--kopt_device=" + value + ": expected a device ordinal (0, 1, ...)");
  }
  return static_cast<int>(device);
}

double parse_timeout(const std::string& value) {
  char* end = nullptr;
  const double seconds = std::strtod(value.c_str(), &end);
  if (value.empty() || *end != '\0' || !(seconds > 0) || seconds > 1e7) {
    throw options_error("--kopt_timeout=" + value + ": expected a positive number of seconds");
  }
  return seconds;
}

}  // namespace

command_line take_options(int& argc, char** argv) {
  const std::string program = std::filesystem::path(argc > 0 ? argv[0] : "kopt_bench").filename().string();
  CLI::App app("A KernelOpt benchmark (Google Benchmark with KernelOpt's flags).", program);
  app.set_version_flag("--version", program + " (KernelOpt) " + kernelopt_version());
  app.allow_extras();  // Google Benchmark's flags, passed on
  app.footer(
      "Google Benchmark's flags (--benchmark_filter=REGEX, --benchmark_out=FILE, --benchmark_list_tests, ...) are "
      "accepted too and passed on to it; its own help follows.");
  command_line line;
  options& opts = line.m_options;
  std::map<std::string, std::string> values;
  for (const flag_help& flag : k_flags) {
    const std::string name = std::string("--") + flag.m_name;
    if (flag.m_switch != nullptr) {
      app.add_flag(name, opts.*flag.m_switch, flag.m_help)->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
    } else {
      // The last one given wins, as with Google Benchmark's own flags.
      app.add_option(name, values[name], flag.m_help)
          ->type_name(flag.m_value)
          ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
    }
  }
  const std::vector<std::string> args(argv + 1, argv + argc);
  if (const auto error = empty_value_error(args, "--kopt_")) throw options_error(*error);
  std::vector<std::string> reversed(args.rbegin(), args.rend());
  try {
    app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    line.m_request = request::help;
    line.m_text = app.help();
    return line;
  } catch (const CLI::CallForVersion& version) {
    line.m_request = request::version;
    line.m_text = std::string(version.what()) + "\n";
    return line;
  } catch (const CLI::ParseError& error) {
    throw options_error(error.what());
  }
  // What CLI11 left is Google Benchmark's, unless it looks like ours.
  const std::vector<std::string> rest = app.remaining();
  for (const std::string& arg : rest) {
    if (arg.rfind("--kopt_", 0) == 0) throw options_error(arg + ": unknown KernelOpt flag (see --help)");
  }
  if (app.count("--kopt_ceilings") > 0) {
    if (values["--kopt_ceilings"].empty()) throw options_error("--kopt_ceilings: expected --kopt_ceilings=FILE");
    opts.m_ceilings = values["--kopt_ceilings"];
  }
  if (app.count("--kopt_device") > 0) opts.m_device = parse_device(values["--kopt_device"]);
  if (app.count("--kopt_timeout") > 0) opts.m_timeout_s = parse_timeout(values["--kopt_timeout"]);
  // argv keeps the program and, in their order, the arguments CLI11 left
  // (pointers into the original argv: the strings outlive main's use).
  int kept = 1;
  for (const std::string& arg : rest) {
    int at = kept;
    while (at < argc && arg != argv[at]) ++at;
    if (at == argc) throw options_error(arg + ": not an argument as given (CLI11 split it); pass it as one");
    std::swap(argv[kept++], argv[at]);
  }
  argc = kept;
  argv[argc] = nullptr;
  return line;
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
