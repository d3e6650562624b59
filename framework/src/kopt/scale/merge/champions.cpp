#include "kopt/scale/merge/champions.hpp"

#include <algorithm>
#include <map>

namespace kopt::scale {

champion_map champions_of(const std::string& device_model, const std::vector<const unit_outcome*>& units) {
  std::map<std::string, std::vector<const unit_outcome*>> by_kernel;
  for (const unit_outcome* u : units) by_kernel[u->m_kernel].push_back(u);
  champion_map map;
  map.m_device_model = device_model;
  for (auto& [kernel, list] : by_kernel) {
    std::sort(list.begin(), list.end(), [](const unit_outcome* a, const unit_outcome* b) { return a->m_impl < b->m_impl; });
    kernel_champions k;
    k.m_kernel = kernel;
    for (const unit_outcome* u : list) {
      failed_unit f;
      f.m_impl = u->m_impl;
      f.m_correctness = u->m_correctness;
      for (const shape_outcome& s : u->m_shapes) {
        if (s.m_correctness == "fail" || s.m_correctness == "incomplete") f.m_failed_shapes.push_back(s.m_shape);
        auto it = std::find_if(k.m_shapes.begin(), k.m_shapes.end(),
                               [&](const shape_champion& c) { return c.m_shape == s.m_shape; });
        if (it == k.m_shapes.end()) {
          k.m_shapes.push_back({s.m_shape, std::nullopt, std::nullopt, 0});
          it = k.m_shapes.end() - 1;
        }
        if (s.m_correctness != "pass" || !s.m_median_ns || s.m_bench_error) continue;
        ++it->m_candidates;
        if (!it->m_median_ns || *s.m_median_ns < *it->m_median_ns) {
          it->m_champion = u->m_impl;
          it->m_median_ns = s.m_median_ns;
        }
      }
      if (u->m_bench == "failed" || u->m_bench == "error") f.m_bench = u->m_bench;
      if (u->m_correctness != "pass" || !f.m_bench.empty()) {
        f.m_detail = !u->m_correctness_detail.empty() ? u->m_correctness_detail : u->m_bench_detail;
        k.m_failed.push_back(std::move(f));
      }
    }
    map.m_kernels.push_back(std::move(k));
  }
  return map;
}

json to_json(const champion_map& map) {
  json kernels = json::array();
  for (const kernel_champions& k : map.m_kernels) {
    json shapes = json::array();
    for (const shape_champion& s : k.m_shapes) {
      shapes.push_back({{"shape", s.m_shape},
                        {"champion", s.m_champion ? json(*s.m_champion) : json(nullptr)},
                        {"median_ns", number_or_null(s.m_median_ns)},
                        {"candidates", s.m_candidates}});
    }
    json failed = json::array();
    for (const failed_unit& f : k.m_failed) {
      failed.push_back({{"impl", f.m_impl},
                        {"correctness", f.m_correctness},
                        {"failed_shapes", f.m_failed_shapes},
                        {"bench", f.m_bench.empty() ? json(nullptr) : json(f.m_bench)},
                        {"detail", f.m_detail}});
    }
    kernels.push_back({{"kernel", k.m_kernel}, {"shapes", shapes}, {"failed", failed}});
  }
  return {{"schema_version", k_champions_schema_version},
          {"kind", k_champions_kind},
          {"device_model", map.m_device_model},
          {"kernels", kernels}};
}

champion_map champions_from_json(const json& doc, const std::string& file) {
  const json_reader root(doc, file);
  (void)check_kind(root, k_champions_kind, k_champions_schema_version);
  champion_map map;
  map.m_device_model = root.at("device_model").as_string();
  const json_reader kernels = root.at("kernels");
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    const json_reader kn = kernels.at(i);
    kernel_champions k;
    k.m_kernel = kn.at("kernel").as_string();
    const json_reader shapes = kn.at("shapes");
    for (std::size_t j = 0; j < shapes.size(); ++j) {
      const json_reader sn = shapes.at(j);
      shape_champion s;
      s.m_shape = sn.at("shape").as_string();
      if (sn.has("champion")) s.m_champion = sn.at("champion").as_string();
      if (sn.has("median_ns")) s.m_median_ns = sn.at("median_ns").as_positive();
      s.m_candidates = static_cast<std::size_t>(sn.at("candidates").as_non_negative_integer());
      k.m_shapes.push_back(s);
    }
    const json_reader failed = kn.at("failed");
    for (std::size_t j = 0; j < failed.size(); ++j) {
      const json_reader fn = failed.at(j);
      failed_unit f;
      f.m_impl = fn.at("impl").as_string();
      f.m_correctness = fn.at("correctness").as_string();
      const json_reader fs = fn.at("failed_shapes");
      for (std::size_t n = 0; n < fs.size(); ++n) f.m_failed_shapes.push_back(fs.at(n).as_string());
      if (fn.has("bench")) f.m_bench = fn.at("bench").as_string();
      f.m_detail = fn.at("detail").as_string();
      k.m_failed.push_back(f);
    }
    map.m_kernels.push_back(k);
  }
  return map;
}

std::vector<std::string> champion_differences(const champion_map& a, const champion_map& b) {
  std::vector<std::string> lines;
  std::map<std::string, const kernel_champions*> kb;
  for (const kernel_champions& k : b.m_kernels) kb[k.m_kernel] = &k;
  std::map<std::string, const kernel_champions*> ka;
  for (const kernel_champions& k : a.m_kernels) ka[k.m_kernel] = &k;
  for (const auto& [name, k] : kb) {
    if (ka.count(name) == 0) lines.push_back(name + ": only in the second");
  }
  for (const auto& [name, k] : ka) {
    const auto other = kb.find(name);
    if (other == kb.end()) {
      lines.push_back(name + ": only in the first");
      continue;
    }
    const auto text = [](const std::optional<std::string>& c) { return c ? *c : std::string("(none)"); };
    for (const shape_champion& s : k->m_shapes) {
      const auto it = std::find_if(other->second->m_shapes.begin(), other->second->m_shapes.end(),
                                   [&](const shape_champion& o) { return o.m_shape == s.m_shape; });
      if (it == other->second->m_shapes.end()) {
        lines.push_back(name + " " + s.m_shape + ": only in the first");
      } else if (it->m_champion != s.m_champion) {
        lines.push_back(name + " " + s.m_shape + ": champion " + text(s.m_champion) + " vs " + text(it->m_champion));
      }
    }
    if (other->second->m_shapes.size() != k->m_shapes.size()) lines.push_back(name + ": different shapes");
    const auto failures = [](const kernel_champions& kc) {
      std::vector<std::string> out;
      for (const failed_unit& f : kc.m_failed) {
        std::string line = f.m_impl + " " + f.m_correctness;
        for (const std::string& s : f.m_failed_shapes) line += " " + s;
        if (!f.m_bench.empty()) line += " bench " + f.m_bench;
        out.push_back(line);
      }
      return out;
    };
    const std::vector<std::string> fa = failures(*k), fb = failures(*other->second);
    for (const std::string& f : fa) {
      if (std::find(fb.begin(), fb.end(), f) == fb.end()) lines.push_back(name + ": failed " + f + " only in the first");
    }
    for (const std::string& f : fb) {
      if (std::find(fa.begin(), fa.end(), f) == fa.end()) lines.push_back(name + ": failed " + f + " only in the second");
    }
  }
  return lines;
}

}  // namespace kopt::scale
