#include "kopt/sweep/selection.hpp"

#include <algorithm>
#include <stdexcept>

#include "core/utc.hpp"
#include "kopt/inputs/names.hpp"

namespace kopt {
namespace {

const std::vector<field_doc> k_selection_fields = {
    {"schema_version", "integer", "1"},
    {"kind", "string", "`kernelopt.selection`"},
    {"kernel", "string", "the kernel"},
    {"variant", "string", "the family variant"},
    {"margin", "number", "a point within this fraction of a shape's champion is on its frontier"},
    {"points", "array", "every point swept, in enumeration order"},
    {"shapes", "array", "per declared shape, in SHAPES order: its champion and frontier"},
    {"failed", "array", "the points that did not build, were incorrect or failed to time: `point`, `reason`"},
    {"source", "object", "the family's source hash when selected (as a record's `source`); the configure checks each "
                         "file's sha256 and generates no dispatch from a selection whose sources changed"},
    {"utc", "string", "when `kopt select` wrote it"},
};

const std::vector<field_doc> k_shape_fields = {
    {"shape", "string", "the declared shape"},
    {"champion", "string", "the fastest usable point: the one the dispatch calls"},
    {"median_ns", "number", "the champion's median"},
    {"frontier", "array", "the usable points within the margin, by time: `point`, `median_ns`, `ratio` to the champion"},
};

}  // namespace

std::vector<std::string> selection::served_by(const std::string& point) const {
  std::vector<std::string> shapes;
  for (const shape_selection& s : m_shapes) {
    if (s.m_champion == point) shapes.push_back(s.m_shape);
  }
  return shapes;
}

selection compute_selection(const manifest& m, const variant_decl& family, const std::vector<point_result>& results,
                            double margin) {
  if (!family.m_family) throw std::runtime_error("variant " + family.m_name + " is not a family (no PARAMS)");
  selection s;
  s.m_kernel = m.m_kernel;
  s.m_variant = family.m_name;
  s.m_margin = margin;
  s.m_source = hash_sources(family.m_sources);
  s.m_utc = utc_now_iso();
  std::vector<const point_result*> usable;
  for (const point_decl& p : family.m_family->m_points) {
    s.m_points.push_back(p.m_name);
    const auto it = std::find_if(results.begin(), results.end(),
                                 [&](const point_result& r) { return r.m_point == p.m_name; });
    if (it == results.end()) throw std::runtime_error("point " + p.m_name + " has no result: run the sweep to the end");
    if (it->usable()) {
      usable.push_back(&*it);
    } else {
      s.m_failed.push_back({p.m_name, it->failure()});
    }
  }
  for (const std::string& shape : m.m_shapes) {
    std::vector<frontier_entry> timed;
    for (const point_result* r : usable) {
      const point_time* t = r->time_of(shape);
      if (t == nullptr) throw std::runtime_error("point " + r->m_point + " has no time for shape " + shape);
      timed.push_back({r->m_point, t->m_median_ns, 1});
    }
    if (timed.empty()) {
      throw std::runtime_error("no point of " + family.m_name + " is usable on shape " + shape + " (" +
                               std::to_string(s.m_failed.size()) + " failed)");
    }
    // Stable: on equal times the earlier point (enumeration order) wins.
    std::stable_sort(timed.begin(), timed.end(),
                     [](const frontier_entry& a, const frontier_entry& b) { return a.m_median_ns < b.m_median_ns; });
    shape_selection sel{shape, timed.front().m_point, timed.front().m_median_ns, {}};
    for (frontier_entry& e : timed) {
      e.m_ratio = e.m_median_ns / sel.m_median_ns;
      if (e.m_ratio <= 1 + margin) sel.m_frontier.push_back(e);
    }
    s.m_shapes.push_back(sel);
  }
  return s;
}

std::vector<point_result> load_point_results(const variant_decl& family, const std::filesystem::path& dir) {
  if (!family.m_family) throw std::runtime_error("variant " + family.m_name + " is not a family (no PARAMS)");
  std::vector<point_result> results;
  std::vector<std::string> missing;
  for (const point_decl& p : family.m_family->m_points) {
    const std::filesystem::path path = point_result_path(dir, p.m_name);
    if (!std::filesystem::exists(path)) {
      missing.push_back(p.m_name + " (no result)");
      continue;
    }
    point_result r = read_point_result(path);
    if (r.m_point != p.m_name) throw format_error(path.string() + ": /point: '" + r.m_point + "', expected " + p.m_name);
    if (r.m_source_hash != point_source_hash(family, p)) {
      missing.push_back(p.m_name + " (result is stale: its sources or params changed)");
    } else if (!r.finished()) {
      missing.push_back(p.m_name + " (unfinished)");
    } else {
      results.push_back(std::move(r));
    }
  }
  if (!missing.empty()) {
    std::string text;
    for (const std::string& m : missing) text += (text.empty() ? "" : ", ") + m;
    throw std::runtime_error(std::to_string(missing.size()) + " of " + std::to_string(family.m_family->m_points.size()) +
                             " points of " + family.m_name + " in " + dir.string() +
                             " have no current result: " + text + "; run kopt sweep again");
  }
  return results;
}

json to_json(const selection& s) {
  json shapes = json::array();
  for (const shape_selection& sel : s.m_shapes) {
    json frontier = json::array();
    for (const frontier_entry& e : sel.m_frontier) {
      frontier.push_back({{"point", e.m_point}, {"median_ns", e.m_median_ns}, {"ratio", e.m_ratio}});
    }
    shapes.push_back(
        {{"shape", sel.m_shape}, {"champion", sel.m_champion}, {"median_ns", sel.m_median_ns}, {"frontier", frontier}});
  }
  json failed = json::array();
  for (const failed_point& f : s.m_failed) failed.push_back({{"point", f.m_point}, {"reason", f.m_reason}});
  return {{"schema_version", k_selection_schema_version},
          {"kind", k_selection_kind},
          {"kernel", s.m_kernel},
          {"variant", s.m_variant},
          {"margin", s.m_margin},
          {"points", s.m_points},
          {"shapes", shapes},
          {"failed", failed},
          {"source", to_json(s.m_source)},
          {"utc", s.m_utc}};
}

selection selection_from_json(const json_reader& root) {
  (void)check_kind(root, k_selection_kind, k_selection_schema_version);
  selection s;
  s.m_kernel = read_name(root.at("kernel"));
  s.m_variant = read_name(root.at("variant"));
  s.m_margin = root.at("margin").as_number();
  const json_reader points = root.at("points");
  for (std::size_t i = 0; i < points.size(); ++i) s.m_points.push_back(read_name(points.at(i)));
  const json_reader shapes = root.at("shapes");
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    const json_reader n = shapes.at(i);
    shape_selection sel{n.at("shape").as_string(), read_name(n.at("champion")), n.at("median_ns").as_positive(), {}};
    const json_reader frontier = n.at("frontier");
    for (std::size_t j = 0; j < frontier.size(); ++j) {
      const json_reader e = frontier.at(j);
      sel.m_frontier.push_back({read_name(e.at("point")), e.at("median_ns").as_positive(), e.at("ratio").as_positive()});
    }
    s.m_shapes.push_back(sel);
  }
  const json_reader failed = root.at("failed");
  for (std::size_t i = 0; i < failed.size(); ++i) {
    s.m_failed.push_back({read_name(failed.at(i).at("point")), failed.at(i).at("reason").as_string()});
  }
  s.m_source = source_hash_from_json(root.at("source"));
  s.m_utc = root.at("utc").as_string();
  return s;
}

selection read_selection(const std::filesystem::path& path) {
  const json doc = read_json_file(path);
  return selection_from_json(json_reader(doc, path.string()));
}

std::vector<format_table> selection_tables() {
  return {{"kernelopt.selection", k_selection_fields}, {"kernelopt.selection: shapes[]", k_shape_fields}};
}

}  // namespace kopt
