#include "kopt/records/source_hash.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "kopt/records/sha256.hpp"

namespace kopt {

source_hash hash_sources(const std::vector<std::string>& paths) {
  source_hash result;
  sha256 all;
  for (const std::string& path : paths) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error(path + ": cannot read source file");
    std::ostringstream buffer;
    buffer << in.rdbuf();
    const std::string bytes = buffer.str();
    const std::string name = std::filesystem::path(path).filename().string();
    all.update(name);
    all.update("", 1);
    all.update(std::to_string(bytes.size()));
    all.update("", 1);
    all.update(bytes);
    result.m_files.push_back({name, sha256_hex(bytes)});
  }
  result.m_sha256 = all.hex_digest();
  return result;
}

json to_json(const source_hash& hash) {
  json files = json::array();
  for (const source_file& file : hash.m_files) {
    files.push_back({{"name", file.m_name}, {"sha256", file.m_sha256}});
  }
  return {{"sha256", hash.m_sha256}, {"files", files}};
}

source_hash source_hash_from_json(const json_reader& node) {
  source_hash hash;
  hash.m_sha256 = node.at("sha256").as_string();
  const json_reader files = node.at("files");
  for (std::size_t i = 0; i < files.size(); ++i) {
    hash.m_files.push_back({files.at(i).at("name").as_string(), files.at(i).at("sha256").as_string()});
  }
  return hash;
}

current_source hash_current_sources(const manifest& m, const std::string& variant) {
  current_source current;
  try {
    current.m_hash = hash_sources(m.variant(variant).m_sources);
  } catch (const std::exception& error) {
    current.m_error = error.what();
  }
  return current;
}

}  // namespace kopt
