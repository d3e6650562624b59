#include "static/check.hpp"

#include <algorithm>
#include <map>
#include <regex>
#include <set>
#include <stdexcept>

#include "static/check_text.hpp"

namespace kopt::sass {
namespace {

using detail::archs_of;
using detail::display_name;
using detail::file_name;
using detail::join;

std::string where(const function& f) { return f.name() + " [" + f.m_arch + "]"; }

// "defined in common.cuh"; a function the fallback found in no source is
// "defined outside its SOURCES".
std::string defined_text(const function& f) {
  if (!f.m_defined_in.empty()) return "defined in " + file_name(f.m_defined_in);
  return f.m_own ? "defined in an unknown file" : "defined outside its SOURCES";
}

void add_once(std::vector<std::string>& list, const std::string& item) {
  if (std::find(list.begin(), list.end(), item) == list.end()) list.push_back(item);
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
    if (!f.m_own) {
      result.m_elsewhere.push_back({f.name(), f.m_arch, count});
      continue;
    }
    result.m_sites.push_back({f.name(), f.m_arch, count});
    result.m_count += count;
    matched_archs.insert(f.m_arch);
  }
  result.m_status = result.m_count > 0 ? signature_result::status::found : signature_result::status::missing;
  if (result.m_count > 0) {
    for (const std::string& arch : archs_of(functions, true)) {
      if (matched_archs.count(arch) == 0) result.m_archs_without.push_back(arch);
    }
  }
  return result;
}

std::string searched_list(const std::vector<function>& functions) {
  std::vector<std::string> names;
  for (const function& f : functions) {
    if (f.m_own) names.push_back(where(f));
  }
  if (names.empty()) return "no kernel functions of its own";
  return join(names, ", ");
}

limit_result check_registers(long limit, const std::vector<function>& functions) {
  limit_result r{"MAX_REGISTERS", std::to_string(limit), true, {}};
  for (const function& f : functions) {
    if (!f.m_own) continue;
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
    if (!f.m_own) continue;
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

std::string source_names(const std::vector<std::string>& sources) {
  std::vector<std::string> names;
  for (const std::string& source : sources) names.push_back(file_name(source));
  return names.empty() ? std::string("none listed") : join(names, ", ");
}

// "add_one, add_two defined in v2.cu; k defined in v2b.cu": the own kernels, by file.
std::string own_kernels(const std::vector<function>& functions, const std::vector<std::string>& sources) {
  std::vector<std::string> files;
  std::map<std::string, std::vector<std::string>> names;
  for (const function& f : functions) {
    if (!f.m_own) continue;
    add_once(files, f.m_defined_in);
    add_once(names[f.m_defined_in], display_name(f.name()));
  }
  if (files.empty()) return "none: no kernel in its objects is defined in its SOURCES (" + source_names(sources) + ")";
  std::vector<std::string> parts;
  for (const std::string& file : files) parts.push_back(join(names[file], ", ") + " defined in " + file_name(file));
  return join(parts, "; ");
}

// "helper_shuffle (defined in common.cuh)", once per function over the architectures.
std::string elsewhere_list(const std::vector<match_site>& sites, const std::vector<function>& functions) {
  std::vector<std::string> parts;
  for (const match_site& site : sites) {
    std::string defined = "defined in an unknown file";
    for (const function& f : functions) {
      if (f.name() == site.m_function && f.m_arch == site.m_arch) defined = defined_text(f);
    }
    add_once(parts, display_name(site.m_function) + " (" + defined + ")");
  }
  return join(parts, ", ");
}

std::string others_list(const std::vector<function>& functions) {
  std::vector<std::string> parts;
  for (const function& f : functions) {
    if (!f.m_own) add_once(parts, display_name(f.name()) + " (" + defined_text(f) + ")");
  }
  return join(parts, ", ");
}

}  // namespace

report evaluate(const std::string& kernel, const std::string& variant, const std::vector<std::string>& objects,
                const std::vector<std::string>& sources, std::vector<function> functions,
                const std::vector<signature>& signatures, const limits& limits) {
  report r;
  r.m_kernel = kernel;
  r.m_variant = variant;
  r.m_objects = objects;
  r.m_sources = sources;
  r.m_functions = std::move(functions);
  const std::string who = "variant '" + variant + "' of kernel '" + kernel + "'";
  const bool any_own = std::any_of(r.m_functions.begin(), r.m_functions.end(), [](const function& f) { return f.m_own; });
  const bool checks_something =
      limits.m_max_registers || limits.m_no_spills || limits.m_no_local_memory ||
      std::any_of(signatures.begin(), signatures.end(), [](const signature& s) { return !s.m_regex.empty(); });

  if (r.m_functions.empty()) {
    r.m_notes.push_back("no machine code in the objects (" + join(objects, ", ") +
                        "): no kernel, or compiled for PTX only (add a real architecture, e.g. 90a, to "
                        "CUDA_ARCHITECTURES)");
  }
  if (!r.m_functions.empty() && !any_own) {
    const std::string what = "none of the " + std::to_string(r.m_functions.size()) +
                             " function(s) in its objects is defined in its SOURCES (" + source_names(sources) +
                             "): " + others_list(r.m_functions);
    if (checks_something) {
      r.m_failures.push_back(who + " has no kernel of its own to check: " + what +
                             " (list the file that defines its kernels in SOURCES)");
    } else {
      r.m_notes.push_back("no kernel of its own: " + what);
    }
  } else if (any_own && std::any_of(r.m_functions.begin(), r.m_functions.end(),
                                    [](const function& f) { return !f.m_own; })) {
    r.m_notes.push_back("not judged, not defined in its SOURCES: " + others_list(r.m_functions));
  }
  for (const signature& s : signatures) {
    signature_result found = search(s, r.m_functions);
    const std::string claim = s.m_source == "METHODS" ? "claims METHOD " + s.m_name
                                                      : "requires SASS_SIGNATURES " + s.m_name;
    switch (found.m_status) {
      case signature_result::status::missing:
        if (!found.m_elsewhere.empty()) {
          r.m_failures.push_back(who + " " + claim + ": /" + s.m_regex + "/ not found in its own kernels (" +
                                 own_kernels(r.m_functions, sources) + "); found only in " +
                                 elsewhere_list(found.m_elsewhere, r.m_functions));
        } else {
          r.m_failures.push_back(who + " " + claim + ", but no instruction matches /" + s.m_regex + "/ (searched: " +
                                 searched_list(r.m_functions) + ")");
        }
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
    if (f.m_own && !f.m_has_usage) r.m_notes.push_back(where(f) + ": cuobjdump -res-usage did not report this function");
  }
  return r;
}

}  // namespace kopt::sass
