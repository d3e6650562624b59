#include "kopt/records/source_hash.hpp"

#include <algorithm>
#include <deque>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>
#include <system_error>

#include "kopt/records/sha256.hpp"

namespace kopt {
namespace {

// A bound on the headers one variant may pull in (a include cycle is cut by
// the seen set; this bounds a pathological tree).
constexpr std::size_t k_max_headers = 4096;

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": cannot read source file");
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

void add_file(sha256& all, source_hash& result, const std::string& path) {
  const std::string bytes = read_file(path);
  const std::string name = std::filesystem::path(path).filename().string();
  all.update(name);
  all.update("", 1);
  all.update(std::to_string(bytes.size()));
  all.update("", 1);
  all.update(bytes);
  result.m_files.push_back({name, sha256_hex(bytes)});
}

struct include_line {
  std::string m_name;
  bool m_angle = false;
};

// The name in `#include "name"` (or `#include <name>`) on this line, or "".
include_line included_name(const std::string& line) {
  std::size_t i = line.find_first_not_of(" \t");
  if (i == std::string::npos || line[i] != '#') return {};
  i = line.find_first_not_of(" \t", i + 1);
  if (i == std::string::npos || line.compare(i, 7, "include") != 0) return {};
  i = line.find_first_not_of(" \t", i + 7);
  if (i == std::string::npos || (line[i] != '"' && line[i] != '<')) return {};
  const bool angle = line[i] == '<';
  const std::size_t end = line.find(angle ? '>' : '"', i + 1);
  if (end == std::string::npos) return {};
  return {line.substr(i + 1, end - i - 1), angle};
}

// The absolute include directories of COMPILE_OPTIONS: -I<dir>, -I <dir>,
// --include-path=<dir>, --include-path <dir> (nvcc).
std::vector<std::filesystem::path> include_dirs(const std::vector<std::string>& options) {
  std::vector<std::filesystem::path> dirs;
  for (std::size_t i = 0; i < options.size(); ++i) {
    std::string dir;
    const std::string& o = options[i];
    if (o == "-I" || o == "--include-path") {
      if (i + 1 < options.size()) dir = options[++i];
    } else if (o.rfind("-I", 0) == 0) {
      dir = o.substr(2);
    } else if (o.rfind("--include-path=", 0) == 0) {
      dir = o.substr(15);
    }
    if (!dir.empty() && std::filesystem::path(dir).is_absolute()) dirs.emplace_back(dir);
  }
  return dirs;
}

bool regular_file(const std::filesystem::path& p) {
  std::error_code error;
  return std::filesystem::is_regular_file(p, error);
}

std::filesystem::path normal(const std::filesystem::path& p) {
  std::error_code error;
  const std::filesystem::path canonical = std::filesystem::weakly_canonical(p, error);
  return error ? p.lexically_normal() : canonical;
}

}  // namespace

source_hash hash_sources(const std::vector<std::string>& paths) {
  source_hash result;
  sha256 all;
  for (const std::string& path : paths) add_file(all, result, path);
  result.m_sha256 = all.hex_digest();
  return result;
}

std::vector<std::filesystem::path> included_headers(const std::vector<std::string>& sources,
                                                    const std::vector<std::string>& compile_options) {
  return included_headers(sources, compile_options, {}, false);
}

std::vector<std::filesystem::path> included_headers(const std::vector<std::string>& sources,
                                                    const std::vector<std::string>& compile_options,
                                                    const std::vector<std::string>& context_dirs, bool angle_includes) {
  std::vector<std::filesystem::path> dirs = include_dirs(compile_options);
  for (const std::string& dir : context_dirs) dirs.emplace_back(dir);
  std::set<std::filesystem::path> seen;
  for (const std::string& s : sources) seen.insert(normal(s));
  std::deque<std::filesystem::path> queue(sources.begin(), sources.end());
  std::vector<std::filesystem::path> headers;
  while (!queue.empty() && headers.size() < k_max_headers) {
    const std::filesystem::path file = queue.front();
    queue.pop_front();
    std::ifstream in(file, std::ios::binary);
    std::string line;
    while (std::getline(in, line)) {
      const include_line include = included_name(line);
      const std::string& name = include.m_name;
      if (name.empty() || (include.m_angle && !angle_includes)) continue;
      std::vector<std::filesystem::path> candidates;
      if (!include.m_angle) candidates.push_back(file.parent_path() / name);
      for (const std::filesystem::path& dir : dirs) candidates.push_back(dir / name);
      for (const std::filesystem::path& candidate : candidates) {
        if (!regular_file(candidate)) continue;
        const std::filesystem::path found = normal(candidate);
        if (seen.insert(found).second) {
          headers.push_back(found);
          queue.push_back(found);
        }
        break;
      }
    }
  }
  return headers;
}

source_hash hash_build(const std::vector<std::string>& sources, const std::vector<std::string>& compile_options) {
  source_hash result;
  result.m_scope = k_scope_build;
  result.m_compile_options = compile_options;
  sha256 all;
  for (const std::string& path : sources) add_file(all, result, path);
  for (const std::filesystem::path& header : included_headers(sources, compile_options)) {
    add_file(all, result, header.string());
  }
  all.update("compile_options");
  all.update("", 1);
  for (const std::string& option : compile_options) {
    all.update(option);
    all.update("", 1);
  }
  result.m_sha256 = all.hex_digest();
  return result;
}

source_hash hash_compile(const std::vector<std::string>& sources, const std::vector<std::string>& compile_options,
                         const build_context& context) {
  source_hash result;
  result.m_scope = k_scope_compile;
  result.m_compile_options = compile_options;
  result.m_compile_definitions = context.m_compile_definitions;
  result.m_context_options = context.m_compile_options;
  sha256 all;
  for (const std::string& path : sources) add_file(all, result, path);
  for (const std::filesystem::path& header :
       included_headers(sources, compile_options, context.m_include_directories, true)) {
    add_file(all, result, header.string());
  }
  // Each list under its own label, each entry NUL-terminated: an entry can
  // move from one list to another without the hash staying the same.
  const auto add_list = [&](const char* label, const std::vector<std::string>& entries) {
    all.update(label);
    all.update("", 1);
    all.update(std::to_string(entries.size()));
    all.update("", 1);
    for (const std::string& entry : entries) {
      all.update(entry);
      all.update("", 1);
    }
  };
  add_list("compile_options", compile_options);
  add_list("compile_definitions", context.m_compile_definitions);
  add_list("context_options", context.m_compile_options);
  result.m_sha256 = all.hex_digest();
  return result;
}

source_hash hash_variant(const variant_decl& decl) {
  return decl.m_build_context ? hash_compile(decl.m_sources, decl.m_compile_options, *decl.m_build_context)
                              : hash_build(decl.m_sources, decl.m_compile_options);
}

json to_json(const source_hash& hash) {
  json files = json::array();
  for (const source_file& file : hash.m_files) {
    files.push_back({{"name", file.m_name}, {"sha256", file.m_sha256}});
  }
  json out = {{"sha256", hash.m_sha256}, {"files", files}};
  if (hash.m_scope != k_scope_sources) {
    out["scope"] = hash.m_scope;
    out["compile_options"] = hash.m_compile_options;
  }
  if (hash.m_scope == k_scope_compile) {
    out["compile_definitions"] = hash.m_compile_definitions;
    out["context_options"] = hash.m_context_options;
  }
  return out;
}

source_hash source_hash_from_json(const json_reader& node) {
  source_hash hash;
  hash.m_sha256 = node.at("sha256").as_string();
  const json_reader files = node.at("files");
  for (std::size_t i = 0; i < files.size(); ++i) {
    hash.m_files.push_back({files.at(i).at("name").as_string(), files.at(i).at("sha256").as_string()});
  }
  if (node.has("scope")) {
    const json_reader scope = node.at("scope");
    hash.m_scope = scope.as_string();
    if (hash.m_scope != k_scope_sources && hash.m_scope != k_scope_build && hash.m_scope != k_scope_compile) {
      scope.fail("is '" + shorten(hash.m_scope) + "'; expected \"sources\", \"build\" or \"compile\"");
    }
  }
  const auto strings_of = [&](const char* key, std::vector<std::string>& into) {
    if (!node.has(key)) return;
    const json_reader list = node.at(key);
    for (std::size_t i = 0; i < list.size(); ++i) into.push_back(list.at(i).as_string());
  };
  strings_of("compile_definitions", hash.m_compile_definitions);
  strings_of("context_options", hash.m_context_options);
  if (node.has("compile_options")) {
    const json_reader options = node.at("compile_options");
    for (std::size_t i = 0; i < options.size(); ++i) hash.m_compile_options.push_back(options.at(i).as_string());
  }
  return hash;
}

current_source hash_current_sources(const manifest& m, const std::string& variant, const std::string& scope) {
  current_source current;
  try {
    const variant_decl& decl = m.variant(variant);
    if (scope == k_scope_compile) {
      if (!decl.m_build_context) {
        throw std::runtime_error("the manifest has no build context for " + variant +
                                 " (written by an older KernelOpt): configure again");
      }
      current.m_hash = hash_compile(decl.m_sources, decl.m_compile_options, *decl.m_build_context);
    } else {
      current.m_hash = scope == k_scope_build ? hash_build(decl.m_sources, decl.m_compile_options)
                                              : hash_sources(decl.m_sources);
    }
  } catch (const std::exception& error) {
    current.m_error = error.what();
  }
  return current;
}

std::vector<std::string> source_differences(const source_hash& recorded, const source_hash& now) {
  std::vector<std::string> differences;
  for (const source_file& r : recorded.m_files) {
    const auto at = std::find_if(now.m_files.begin(), now.m_files.end(),
                                 [&](const source_file& n) { return n.m_name == r.m_name; });
    if (at == now.m_files.end()) {
      differences.push_back(r.m_name + " no longer included");
    } else if (at->m_sha256 != r.m_sha256) {
      differences.push_back(r.m_name + " changed");
    }
  }
  for (const source_file& n : now.m_files) {
    const bool known = std::any_of(recorded.m_files.begin(), recorded.m_files.end(),
                                   [&](const source_file& r) { return r.m_name == n.m_name; });
    if (!known) differences.push_back(n.m_name + " added");
  }
  if (recorded.m_compile_options != now.m_compile_options) differences.push_back("compile options changed");
  if (recorded.m_compile_definitions != now.m_compile_definitions) differences.push_back("compile definitions changed");
  if (recorded.m_context_options != now.m_context_options) {
    differences.push_back("the options of its target, directory or libraries changed");
  }
  return differences;
}

}  // namespace kopt
