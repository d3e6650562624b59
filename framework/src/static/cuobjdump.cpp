#include "static/cuobjdump.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <regex>
#include <stdexcept>

#include "core/process.hpp"
#include "static/line_info.hpp"
#include "static/tool.hpp"

namespace kopt::sass {
namespace {

// cuobjdump runs nvdisasm for -sass; the PyPI packages install both in one
// directory, which need not be on PATH.
std::vector<std::string> tool_environment(const std::string& cuobjdump) {
  const std::string dir = std::filesystem::path(cuobjdump).parent_path().string();
  const char* path = std::getenv("PATH");
  return {"PATH=" + dir + (path != nullptr && *path != '\0' ? ":" + std::string(path) : std::string())};
}

// cuobjdump with its output kept, within the tools' time limit.
process_result run_cuobjdump(const std::vector<std::string>& argv, const std::vector<std::string>& env = {}) {
  process_options options;
  options.m_capture = true;
  options.m_environment = env;
  options.m_limit_s = k_limit_tool_s;
  options.m_limit_source = "kopt's default for cuobjdump";
  return run_process(argv, options);
}

std::string last_lines(const std::string& text, std::size_t max_chars = 600) {
  return text.size() <= max_chars ? text : "..." + text.substr(text.size() - max_chars);
}

// A temporary directory, removed with what is in it when it goes out of scope.
class temp_directory {
 public:
  temp_directory() {
    std::string pattern = (std::filesystem::temp_directory_path() / "kopt-elf-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) {
      throw std::runtime_error("cannot create a temporary directory: " + std::string(std::strerror(errno)));
    }
    m_path = pattern;
  }
  ~temp_directory() {
    std::error_code ignored;
    std::filesystem::remove_all(m_path, ignored);
  }
  temp_directory(const temp_directory&) = delete;
  temp_directory& operator=(const temp_directory&) = delete;
  [[nodiscard]] const std::string& path() const { return m_path; }

 private:
  std::string m_path;
};

// nvdisasm beside cuobjdump (the toolkit and the PyPI packages put them in
// one directory), else the first in $PATH.
std::string find_nvdisasm(const std::string& cuobjdump) {
  const std::filesystem::path beside = std::filesystem::path(cuobjdump).parent_path() / "nvdisasm";
  if (tool::is_executable(beside)) return beside.string();
  return tool::find_in_path("nvdisasm");
}

// The line table of every cubin in `object`: cuobjdump -xelf all extracts
// them into a temporary directory, nvdisasm -gi prints each with its line
// information. Returns why it could not, or "".
std::string read_definitions(const std::string& cuobjdump, const std::string& object,
                             const std::vector<std::string>& env, definition_table& table) {
  const std::string nvdisasm = find_nvdisasm(cuobjdump);
  if (nvdisasm.empty()) return "nvdisasm not found";
  const temp_directory dir;
  const std::string absolute = std::filesystem::absolute(object).string();
  process_options extract_options;
  extract_options.m_capture = true;
  extract_options.m_environment = env;
  extract_options.m_limit_s = k_limit_tool_s;
  extract_options.m_limit_source = "kopt's default for cuobjdump";
  extract_options.m_working_directory = dir.path();
  const process_result extract = run_process({cuobjdump, "-xelf", "all", absolute}, extract_options);
  if (!extract.exited(0)) return "cuobjdump -xelf all: " + extract.describe() + ": " + last_lines(extract.m_out + extract.m_err);
  for (const auto& entry : std::filesystem::directory_iterator(dir.path())) {
    if (entry.path().extension() != ".cubin") continue;
    const process_result listing = run_cuobjdump({nvdisasm, "-gi", entry.path().string()}, env);
    if (!listing.exited(0)) {
      return "nvdisasm -gi " + entry.path().filename().string() + ": " + listing.describe() + ": " +
             last_lines(listing.m_out + listing.m_err);
    }
    for (auto& [key, file] : parse_line_info(listing.m_out)) table.emplace(key, file);
  }
  return {};
}

// "cuobjdump -sass v1.o timed out after 120 s (limit: ...)": what hung, on which object.
object_dump timed_out(object_dump& result, const std::string& what, const process_result& run) {
  result.m_status = object_dump::status::failed;
  result.m_message = what + " " + run.describe();
  return result;
}

}  // namespace

std::string find_cuobjdump(const std::string& given) {
  if (!given.empty() && tool::is_executable(given)) return given;
  return tool::find_in_path("cuobjdump");
}

std::string cuobjdump_version(const std::string& cuobjdump) {
  try {
    const process_result run = run_cuobjdump({cuobjdump, "--version"});
    static const std::regex release(R"((release [0-9.]+, V[0-9.]+))");
    std::smatch match;
    if (std::regex_search(run.m_out, match, release)) return match[1].str();
  } catch (const std::exception&) {
  }
  return "unknown";
}

object_dump::status classify_run(int exit_code, const std::string& output, std::string& message) {
  if (output.find("does not contain device code") != std::string::npos) return object_dump::status::no_device_code;
  if (output.find("nvdisasm") != std::string::npos &&
      (output.find("Could not find") != std::string::npos || output.find("not found") != std::string::npos)) {
    message = "cuobjdump cannot disassemble: nvdisasm not found (install nvidia-cuda-nvdisasm, or use the CUDA "
              "toolkit's cuobjdump)";
    return object_dump::status::tool_unusable;
  }
  if (exit_code != 0) {
    message = "cuobjdump exited with code " + std::to_string(exit_code) + ": " + last_lines(output);
    return object_dump::status::failed;
  }
  return object_dump::status::ok;
}

object_dump dump_object(const std::string& cuobjdump, const std::string& object) {
  object_dump result;
  const std::vector<std::string> env = tool_environment(cuobjdump);
  const process_result sass = run_cuobjdump({cuobjdump, "-sass", object}, env);
  if (sass.m_timed_out) return timed_out(result, "cuobjdump -sass " + object, sass);
  result.m_status = classify_run(sass.m_exit_code, sass.m_out + sass.m_err, result.m_message);
  if (result.m_status != object_dump::status::ok) return result;
  const process_result usage = run_cuobjdump({cuobjdump, "-res-usage", object}, env);
  if (usage.m_timed_out) return timed_out(result, "cuobjdump -res-usage " + object, usage);
  result.m_status = classify_run(usage.m_exit_code, usage.m_out + usage.m_err, result.m_message);
  if (result.m_status != object_dump::status::ok) return result;
  result.m_functions = parse_sass(sass.m_out, object);
  attach_usage(result.m_functions, parse_resource_usage(usage.m_out));
  definition_table definitions;
  try {
    result.m_line_info_note = read_definitions(cuobjdump, object, env, definitions);
  } catch (const std::exception& e) {
    result.m_line_info_note = e.what();
  }
  attach_definitions(result.m_functions, definitions);
  return result;
}

}  // namespace kopt::sass
