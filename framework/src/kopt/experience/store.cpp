#include "kopt/experience/store.hpp"

#include <algorithm>
#include <cstdlib>

namespace kopt {

std::optional<std::filesystem::path> experience_dir(const std::optional<std::string>& explicit_dir,
                                                    const manifest* m) {
  if (explicit_dir) {
    if (explicit_dir->empty()) throw usage_error("--store: the folder name is empty");
    return std::filesystem::absolute(*explicit_dir).lexically_normal();
  }
  if (const char* env = std::getenv("KOPT_EXPERIENCE_DIR"); env != nullptr && *env != '\0') {
    return std::filesystem::absolute(env).lexically_normal();
  }
  if (m != nullptr) return m->m_records_dir / "experience";
  return std::nullopt;
}

std::vector<experience_entry> read_experience(const std::filesystem::path& dir) {
  std::vector<experience_entry> entries;
  if (!std::filesystem::is_directory(dir)) return entries;
  for (const auto& file : std::filesystem::directory_iterator(dir)) {
    const std::filesystem::path& path = file.path();
    if (!file.is_regular_file() || path.extension() != ".json") continue;
    experience_entry e = experience_from_json(read_json_file(path), path.string());
    if (path.stem().string() != e.m_id) {
      throw format_error(path.string() + ": /id: '" + e.m_id + "' is not the file's name");
    }
    entries.push_back(std::move(e));
  }
  std::sort(entries.begin(), entries.end(), [](const experience_entry& a, const experience_entry& b) {
    return a.m_date != b.m_date ? a.m_date < b.m_date : a.m_id < b.m_id;
  });
  return entries;
}

bool add_experience(const std::filesystem::path& dir, const experience_entry& e) {
  const std::filesystem::path path = dir / (e.m_id + ".json");
  if (std::filesystem::exists(path)) return false;
  std::filesystem::create_directories(dir);
  try {
    write_json_new(path, to_json(e));
  } catch (const file_exists_error&) {
    return false;  // another kopt added it first
  }
  return true;
}

}  // namespace kopt
