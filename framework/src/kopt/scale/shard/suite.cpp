#include "kopt/scale/shard/suite.hpp"

#include <algorithm>
#include <stdexcept>

#include "kopt/records/sha256.hpp"

namespace kopt::scale {

std::vector<std::string> suite::unit_names() const {
  std::vector<std::string> names;
  names.reserve(m_units.size());
  for (const suite_unit& unit : m_units) names.push_back(unit.m_name);
  return names;
}

std::vector<std::filesystem::path> find_manifests(const std::filesystem::path& build_dir) {
  if (!std::filesystem::is_directory(build_dir)) {
    throw std::runtime_error("--build-dir " + build_dir.string() + ": not a folder");
  }
  std::vector<std::filesystem::path> found;
  const auto options = std::filesystem::directory_options::skip_permission_denied;
  for (auto it = std::filesystem::recursive_directory_iterator(build_dir, options);
       it != std::filesystem::recursive_directory_iterator(); ++it) {
    const std::filesystem::path& path = it->path();
    // Not into the folders runs and shards write: they hold no manifests.
    if (it->is_directory() && (path.filename() == "runs" || path.filename() == "results" ||
                               path.filename() == "CMakeFiles")) {
      it.disable_recursion_pending();
      continue;
    }
    if (path.filename() == "manifest.json" && path.parent_path().parent_path().filename() == "kernelopt") {
      found.push_back(path);
    }
  }
  std::sort(found.begin(), found.end());
  return found;
}

std::vector<std::filesystem::path> manifests_of(const std::vector<std::string>& given,
                                                const std::optional<std::string>& build_dir) {
  std::vector<std::filesystem::path> manifests(given.begin(), given.end());
  if (build_dir) {
    const std::vector<std::filesystem::path> found = find_manifests(*build_dir);
    if (found.empty()) throw std::invalid_argument("--build-dir " + *build_dir + ": no kernelopt/<k>/manifest.json under it");
    manifests.insert(manifests.end(), found.begin(), found.end());
  }
  if (manifests.empty()) throw std::invalid_argument("give --manifest FILE (repeatable) or --build-dir DIR");
  return manifests;
}

suite load_suite(const std::vector<std::filesystem::path>& manifests) {
  if (manifests.empty()) throw std::runtime_error("no kernel manifest: nothing to split into shards");
  suite s;
  for (const std::filesystem::path& path : manifests) s.m_manifests.push_back(read_manifest(path));
  std::sort(s.m_manifests.begin(), s.m_manifests.end(),
            [](const manifest& a, const manifest& b) { return a.m_kernel < b.m_kernel; });
  kopt::sha256 hash;
  for (std::size_t i = 0; i < s.m_manifests.size(); ++i) {
    const manifest& m = s.m_manifests[i];
    if (i > 0 && s.m_manifests[i - 1].m_kernel == m.m_kernel) {
      throw std::runtime_error("two manifests declare the kernel " + m.m_kernel + ": " +
                               s.m_manifests[i - 1].m_path.string() + " and " + m.m_path.string());
    }
    std::vector<std::string> impls;
    for (const variant_decl& v : m.m_variants) {
      impls.push_back(v.m_name);
      s.m_units.push_back({m.m_kernel + "/" + v.m_name, m.m_kernel, v.m_name, i, ""});
      if (!v.m_family) continue;
      for (const point_decl& p : v.m_family->m_points) {
        impls.push_back(p.m_name);
        s.m_units.push_back({m.m_kernel + "/" + p.m_name, m.m_kernel, p.m_name, i, v.m_name});
      }
    }
    for (const impl_decl& b : m.m_baselines) {
      impls.push_back(b.m_name);
      s.m_units.push_back({m.m_kernel + "/" + b.m_name, m.m_kernel, b.m_name, i, ""});
    }
    const json identity = {{"kernel", m.m_kernel},   {"impls", impls},
                           {"shapes", m.m_shapes},   {"quick_shapes", m.m_quick_shapes},
                           {"seeds", m.m_seeds},     {"tolerance", to_json(m.m_tolerance)},
                           {"timing", to_json(m.m_timing)}};
    hash.update(identity.dump());
    hash.update("\n");
  }
  std::sort(s.m_units.begin(), s.m_units.end(),
            [](const suite_unit& a, const suite_unit& b) { return a.m_name < b.m_name; });
  s.m_sha256 = hash.hex_digest();
  return s;
}

}  // namespace kopt::scale
