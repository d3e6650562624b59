#include "static/check.hpp"

#include <algorithm>
#include <cstdio>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>

namespace kopt::sass {
namespace {

std::string join(const std::vector<std::string>& parts, const std::string& separator) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) out += (i ? separator : "") + parts[i];
  return out;
}

std::string where(const function& f) { return f.name() + " [" + f.m_arch + "]"; }

std::vector<std::string> archs_of(const std::vector<function>& functions) {
  std::vector<std::string> archs;
  for (const function& f : functions) {
    if (std::find(archs.begin(), archs.end(), f.m_arch) == archs.end()) archs.push_back(f.m_arch);
  }
  return archs;
}

std::regex compile(const signature& s) {
  try {
    return std::regex(s.m_regex, std::regex::ECMAScript);
  } catch (const std::regex_error& e) {
    throw std::invalid_argument(s.m_source + " " + s.m_name + ": regex /" + s.m_regex + "/ does not compile: " + e.what());
  }
}

signature_result search(const signature& s, const std::vector<function>& functions) {
  signature_result result;
  result.m_signature = s;
  if (s.m_regex.empty()) {
    result.m_status = signature_result::status::no_signature;
    return result;
  }
  const std::regex pattern = compile(s);
  std::set<std::string> matched_archs;
  for (const function& f : functions) {
    long count = 0;
    for (const instruction& i : f.m_instructions) count += std::regex_search(i.m_text, pattern) ? 1 : 0;
    if (count == 0) continue;
    result.m_sites.push_back({f.name(), f.m_arch, count});
    result.m_count += count;
    matched_archs.insert(f.m_arch);
  }
  result.m_status = result.m_count > 0 ? signature_result::status::found : signature_result::status::missing;
  if (result.m_count > 0) {
    for (const std::string& arch : archs_of(functions)) {
      if (matched_archs.count(arch) == 0) result.m_archs_without.push_back(arch);
    }
  }
  return result;
}

std::string searched_list(const std::vector<function>& functions) {
  if (functions.empty()) return "no kernel functions";
  std::vector<std::string> names;
  for (const function& f : functions) names.push_back(where(f));
  return join(names, ", ");
}

limit_result check_registers(long limit, const std::vector<function>& functions) {
  limit_result r{"MAX_REGISTERS", std::to_string(limit), true, {}};
  for (const function& f : functions) {
    if (!f.m_usage.m_registers) {
      r.m_pass = false;
      r.m_violations.push_back(where(f) + ": register count unknown (not in cuobjdump -res-usage)");
    } else if (*f.m_usage.m_registers > limit) {
      r.m_pass = false;
      r.m_violations.push_back(where(f) + ": " + std::to_string(*f.m_usage.m_registers) + " registers");
    }
  }
  return r;
}

limit_result check_local(const std::string& name, bool frame_too, const std::vector<function>& functions) {
  limit_result r{name, frame_too ? "no STL/LDL, no stack frame, LOCAL 0" : "no STL/LDL", true, {}};
  for (const function& f : functions) {
    std::vector<std::string> what;
    if (f.local_stores() > 0) what.push_back(std::to_string(f.local_stores()) + " STL");
    if (f.local_loads() > 0) what.push_back(std::to_string(f.local_loads()) + " LDL");
    if (frame_too && f.m_usage.m_stack_bytes.value_or(0) > 0) {
      what.push_back("stack frame " + std::to_string(*f.m_usage.m_stack_bytes) + " bytes");
    }
    if (frame_too && f.m_usage.m_local_bytes.value_or(0) > 0) {
      what.push_back("LOCAL " + std::to_string(*f.m_usage.m_local_bytes) + " bytes");
    }
    if (!what.empty()) {
      r.m_pass = false;
      r.m_violations.push_back(where(f) + ": " + join(what, ", "));
    }
  }
  return r;
}

json optional_number(const std::optional<long>& value) { return value ? json(*value) : json("unknown"); }

const char* status_text(signature_result::status s) {
  switch (s) {
    case signature_result::status::found: return "found";
    case signature_result::status::missing: return "missing";
    case signature_result::status::no_signature: return "no signature";
  }
  return "missing";
}

std::string shorten(const std::string& text, std::size_t width) {
  return text.size() <= width ? text : text.substr(0, width - 3) + "...";
}

std::string pad(const std::string& text, std::size_t width) {
  return text.size() >= width ? text : text + std::string(width - text.size(), ' ');
}

std::string right(const std::string& text, std::size_t width) {
  return text.size() >= width ? text : std::string(width - text.size(), ' ') + text;
}

// "void (anonymous namespace)::k<float, 8>(float const*, long)" -> "k<float, 8>":
// for the table only (the JSON keeps the full name).
std::string display_name(const std::string& full) {
  std::string name = full;
  if (name.rfind("void ", 0) == 0) name = name.substr(5);
  if (!name.empty() && name.back() == ')') {
    int depth = 0;
    for (std::size_t i = name.size(); i-- > 0;) {
      if (name[i] == ')') ++depth;
      if (name[i] == '(' && --depth == 0) {
        name = name.substr(0, i);
        break;
      }
    }
  }
  const std::string anonymous = "(anonymous namespace)::";
  for (std::size_t at = name.find(anonymous); at != std::string::npos; at = name.find(anonymous)) {
    name.erase(at, anonymous.size());
  }
  return name;
}

std::string number_or_unknown(const std::optional<long>& value) { return value ? std::to_string(*value) : "?"; }

}  // namespace

report evaluate(const std::string& kernel, const std::string& variant, const std::vector<std::string>& objects,
                std::vector<function> functions, const std::vector<signature>& signatures, const limits& limits) {
  report r;
  r.m_kernel = kernel;
  r.m_variant = variant;
  r.m_objects = objects;
  r.m_functions = std::move(functions);
  const std::string who = "variant '" + variant + "' of kernel '" + kernel + "'";

  if (r.m_functions.empty()) {
    r.m_notes.push_back("no machine code in the objects (" + join(objects, ", ") +
                        "): no kernel, or compiled for PTX only (add a real architecture, e.g. 90a, to "
                        "CUDA_ARCHITECTURES)");
  }
  for (const signature& s : signatures) {
    signature_result found = search(s, r.m_functions);
    const std::string claim = s.m_source == "METHODS" ? "claims METHOD " + s.m_name
                                                      : "requires SASS_SIGNATURES " + s.m_name;
    switch (found.m_status) {
      case signature_result::status::missing:
        r.m_failures.push_back(who + " " + claim + ", but no instruction matches /" + s.m_regex + "/ (searched: " +
                               searched_list(r.m_functions) + ")");
        break;
      case signature_result::status::no_signature:
        r.m_notes.push_back(s.m_name + " has no SASS signature: claimed, not machine-checkable");
        break;
      case signature_result::status::found:
        if (!found.m_archs_without.empty()) {
          r.m_notes.push_back(s.m_name + " matches nothing in the " + join(found.m_archs_without, ", ") +
                              " code (found in another architecture)");
        }
        break;
    }
    r.m_signatures.push_back(std::move(found));
  }
  if (limits.m_max_registers) r.m_limits.push_back(check_registers(*limits.m_max_registers, r.m_functions));
  if (limits.m_no_spills) r.m_limits.push_back(check_local("NO_SPILLS", false, r.m_functions));
  if (limits.m_no_local_memory) r.m_limits.push_back(check_local("NO_LOCAL_MEMORY", true, r.m_functions));
  for (const limit_result& l : r.m_limits) {
    if (l.m_pass) continue;
    r.m_failures.push_back(who + " breaks " + l.m_name + " " + l.m_limit + ": " + join(l.m_violations, "; "));
  }
  for (const function& f : r.m_functions) {
    if (!f.m_has_usage) r.m_notes.push_back(where(f) + ": cuobjdump -res-usage did not report this function");
  }
  return r;
}

json report_json(const report& r, const json& tool) {
  json functions = json::array();
  for (const function& f : r.m_functions) {
    json families = json::object();
    for (const auto& [family, count] : f.families()) families[family] = count;
    functions.push_back({{"name", f.name()},
                         {"mangled", f.m_mangled},
                         {"arch", f.m_arch},
                         {"object", f.m_object},
                         {"registers", optional_number(f.m_usage.m_registers)},
                         {"stack_bytes", optional_number(f.m_usage.m_stack_bytes)},
                         {"spill_stores", f.local_stores()},
                         {"spill_loads", f.local_loads()},
                         {"local_bytes", optional_number(f.m_usage.m_local_bytes)},
                         {"shared_bytes", optional_number(f.m_usage.m_shared_bytes)},
                         {"instructions", static_cast<long>(f.m_instructions.size())},
                         {"families", families}});
  }
  json methods = json::array();
  json user = json::array();
  for (const signature_result& s : r.m_signatures) {
    json found;
    if (s.m_status == signature_result::status::no_signature) {
      found = "no signature";
    } else {
      json sites = json::array();
      for (const match_site& site : s.m_sites) {
        sites.push_back({{"function", site.m_function}, {"arch", site.m_arch}, {"count", site.m_count}});
      }
      found = {{"count", s.m_count}, {"functions", sites}};
    }
    json entry = {{"name", s.m_signature.m_name},
                  {"claimed", true},
                  {"signature", s.m_signature.m_regex.empty() ? json(nullptr) : json(s.m_signature.m_regex)},
                  {"status", status_text(s.m_status)},
                  {"found", found}};
    if (!s.m_archs_without.empty()) entry["archs_without"] = s.m_archs_without;
    (s.m_signature.m_source == "METHODS" ? methods : user).push_back(entry);
  }
  json limits = json::array();
  for (const limit_result& l : r.m_limits) {
    limits.push_back({{"name", l.m_name}, {"limit", l.m_limit}, {"status", l.m_pass ? "pass" : "fail"},
                      {"violations", l.m_violations}});
  }
  std::vector<std::string> archs = archs_of(r.m_functions);
  return {{"schema_version", 1},
          {"kind", "kernelopt.static"},
          {"kernel", r.m_kernel},
          {"variant", r.m_variant},
          {"status", r.passed() ? "pass" : "fail"},
          {"reason", r.passed() ? json(nullptr) : json(r.m_failures.front())},
          {"tool", tool},
          {"objects", r.m_objects},
          {"architectures", archs},
          {"functions", functions},
          {"methods", methods},
          {"sass_signatures", user},
          {"limits", limits},
          {"failures", r.m_failures},
          {"notes", r.m_notes},
          {"definitions",
           {{"spill_stores", "STL instructions (local-memory stores): register spills or a local array; "
                             "machine code does not tell them apart"},
            {"spill_loads", "LDL instructions (local-memory loads), as spill_stores"},
            {"stack_bytes", "STACK of cuobjdump -res-usage: the per-thread stack frame"},
            {"shared_bytes", "SHARED of cuobjdump -res-usage: static shared memory per block"},
            {"local_bytes", "LOCAL of cuobjdump -res-usage"}}}};
}

json skipped_json(const std::string& kernel, const std::string& variant, const std::string& reason) {
  return {{"schema_version", 1}, {"kind", "kernelopt.static"}, {"kernel", kernel},
          {"variant", variant},  {"status", "skipped"},         {"reason", reason}};
}

std::string render_table(const report& r) {
  std::ostringstream out;
  const std::vector<std::string> archs = archs_of(r.m_functions);
  out << "static checks: " << r.m_kernel << " " << r.m_variant << " (" << r.m_objects.size() << " object(s), "
      << r.m_functions.size() << " function(s)" << (archs.empty() ? "" : ", " + join(archs, " ")) << ")\n";
  if (!r.m_functions.empty()) {
    out << "  " << pad("function", 56) << pad("arch", 8) << right("regs", 5) << right("stack", 7) << right("STL", 5)
        << right("LDL", 5) << right("local", 7) << right("shared", 8) << right("instrs", 8) << "\n";
    for (const function& f : r.m_functions) {
      out << "  " << pad(shorten(display_name(f.name()), 54), 56) << pad(f.m_arch, 8)
          << right(number_or_unknown(f.m_usage.m_registers), 5)
          << right(number_or_unknown(f.m_usage.m_stack_bytes), 7) << right(std::to_string(f.local_stores()), 5)
          << right(std::to_string(f.local_loads()), 5) << right(number_or_unknown(f.m_usage.m_local_bytes), 7)
          << right(number_or_unknown(f.m_usage.m_shared_bytes), 8)
          << right(std::to_string(f.m_instructions.size()), 8) << "\n";
    }
  }
  if (!r.m_signatures.empty()) out << "claims\n";
  for (const signature_result& s : r.m_signatures) {
    std::string detail;
    switch (s.m_status) {
      case signature_result::status::found: {
        std::vector<std::string> sites;
        for (std::size_t i = 0; i < s.m_sites.size() && i < 3; ++i) {
          sites.push_back(display_name(s.m_sites[i].m_function) + ": " + std::to_string(s.m_sites[i].m_count));
        }
        if (s.m_sites.size() > 3) sites.push_back("+" + std::to_string(s.m_sites.size() - 3) + " more");
        detail = "found " + std::to_string(s.m_count) + " in " + std::to_string(s.m_sites.size()) + " function(s) (" +
                 join(sites, ", ") + ")";
        break;
      }
      case signature_result::status::missing: detail = "MISSING"; break;
      case signature_result::status::no_signature: detail = "no signature (not machine-checkable)"; break;
    }
    out << "  " << pad(s.m_signature.m_name, 20) << pad(s.m_signature.m_source, 17)
        << (s.m_signature.m_regex.empty() ? std::string() : pad("/" + s.m_signature.m_regex + "/", 28) + " ") << detail
        << "\n";
  }
  if (!r.m_limits.empty()) out << "limits\n";
  for (const limit_result& l : r.m_limits) {
    out << "  " << pad(l.m_name, 20) << pad(l.m_limit, 37) << (l.m_pass ? "pass" : "FAIL") << "\n";
    for (const std::string& v : l.m_violations) out << "      " << v << "\n";
  }
  for (const std::string& note : r.m_notes) out << "note: " << note << "\n";
  if (r.passed()) {
    out << "result: PASS\n";
  } else {
    out << "result: FAIL\n";
    for (const std::string& failure : r.m_failures) out << "  - " << failure << "\n";
  }
  return out.str();
}

}  // namespace kopt::sass
