// The outputs of a static check: kernelopt.static JSON and the table.
#include <sstream>

#include "static/check.hpp"
#include "static/check_text.hpp"

namespace kopt::sass {
namespace {

using detail::archs_of;
using detail::display_name;
using detail::file_name;
using detail::join;

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

std::string number_or_unknown(const std::optional<long>& value) { return value ? std::to_string(*value) : "?"; }

}  // namespace

static_result report_result(const report& r, const std::string& cuobjdump, const std::string& version) {
  static_result out;
  out.m_kernel = r.m_kernel;
  out.m_variant = r.m_variant;
  out.m_status = r.passed() ? "pass" : "fail";
  if (!r.passed()) out.m_reason = r.m_failures.front();
  static_findings& f = out.m_findings.emplace();
  f.m_cuobjdump = cuobjdump;
  f.m_cuobjdump_version = version;
  f.m_objects = r.m_objects;
  f.m_sources = r.m_sources;
  f.m_architectures = archs_of(r.m_functions);
  for (const function& fn : r.m_functions) {
    static_function sf;
    sf.m_name = fn.name();
    sf.m_mangled = fn.m_mangled;
    sf.m_own = fn.m_own;
    sf.m_defined_in = fn.m_defined_in.empty() ? std::string("unknown") : fn.m_defined_in;
    sf.m_defined_by = fn.m_defined_by.empty() ? std::string("unknown") : fn.m_defined_by;
    sf.m_arch = fn.m_arch;
    sf.m_object = fn.m_object;
    sf.m_registers = fn.m_usage.m_registers;
    sf.m_stack_bytes = fn.m_usage.m_stack_bytes;
    sf.m_spill_stores = fn.local_stores();
    sf.m_spill_loads = fn.local_loads();
    sf.m_local_bytes = fn.m_usage.m_local_bytes;
    sf.m_shared_bytes = fn.m_usage.m_shared_bytes;
    sf.m_instructions = static_cast<std::int64_t>(fn.m_instructions.size());
    for (const auto& [family, count] : fn.families()) sf.m_families[family] = count;
    f.m_functions.push_back(std::move(sf));
  }
  const auto sites = [](const std::vector<match_site>& in) {
    std::vector<static_site> out_sites;
    for (const match_site& site : in) out_sites.push_back({site.m_function, site.m_arch, site.m_count});
    return out_sites;
  };
  for (const signature_result& s : r.m_signatures) {
    static_claim c;
    c.m_name = s.m_signature.m_name;
    if (!s.m_signature.m_regex.empty()) c.m_signature = s.m_signature.m_regex;
    c.m_status = status_text(s.m_status);
    c.m_count = s.m_count;
    c.m_functions = sites(s.m_sites);
    c.m_elsewhere = sites(s.m_elsewhere);
    c.m_archs_without = s.m_archs_without;
    (s.m_signature.m_source == "METHODS" ? f.m_methods : f.m_sass_signatures).push_back(std::move(c));
  }
  for (const limit_result& l : r.m_limits) f.m_limits.push_back({l.m_name, l.m_limit, l.m_pass, l.m_violations});
  f.m_failures = r.m_failures;
  f.m_notes = r.m_notes;
  f.m_definitions = {
      {"own", "the function is defined in one of the variant's SOURCES (defined_in: from the line table "
              "when defined_by is \"line info\", else a __global__ function of that name in a source's text); "
              "methods, signatures and limits are checked over own functions only"},
      {"elsewhere", "matches in functions that are not the variant's own: they do not verify a claim"},
      {"spill_stores", "STL instructions (local-memory stores): register spills or a local array; "
                       "machine code does not tell them apart"},
      {"spill_loads", "LDL instructions (local-memory loads), as spill_stores"},
      {"stack_bytes", "STACK of cuobjdump -res-usage: the per-thread stack frame"},
      {"shared_bytes", "SHARED of cuobjdump -res-usage: static shared memory per block"},
      {"local_bytes", "LOCAL of cuobjdump -res-usage"}};
  return out;
}

static_result skipped_result(const std::string& kernel, const std::string& variant, const std::string& reason) {
  static_result out;
  out.m_kernel = kernel;
  out.m_variant = variant;
  out.m_status = "skipped";
  out.m_reason = reason;
  return out;
}

std::string render_table(const report& r) {
  std::ostringstream out;
  const std::vector<std::string> archs = archs_of(r.m_functions);
  out << "static checks: " << r.m_kernel << " " << r.m_variant << " (" << r.m_objects.size() << " object(s), "
      << r.m_functions.size() << " function(s)" << (archs.empty() ? "" : ", " + join(archs, " ")) << ")\n";
  if (!r.m_functions.empty()) {
    out << "  " << pad("function", 40) << pad("own", 5) << pad("defined in", 20) << pad("arch", 8) << right("regs", 5)
        << right("stack", 7) << right("STL", 5) << right("LDL", 5) << right("local", 7) << right("shared", 8)
        << right("instrs", 8) << "\n";
    for (const function& f : r.m_functions) {
      out << "  " << pad(shorten(display_name(f.name()), 38), 40) << pad(f.m_own ? "yes" : "no", 5)
          << pad(shorten(f.m_defined_in.empty() ? "?" : file_name(f.m_defined_in), 18), 20) << pad(f.m_arch, 8)
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
      case signature_result::status::missing: {
        detail = "MISSING";
        if (!s.m_elsewhere.empty()) {
          long count = 0;
          for (const match_site& site : s.m_elsewhere) count += site.m_count;
          detail += " in its own kernels (" + std::to_string(count) + " in " + std::to_string(s.m_elsewhere.size()) +
                    " other function(s), not counted)";
        }
        break;
      }
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
