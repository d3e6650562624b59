#include "kopt/run/static_checks.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <ostream>

#include "kopt/records/record.hpp"
#include "kopt/records/source_hash.hpp"
#include "static/cuobjdump.hpp"
#include "static/ownership.hpp"

namespace kopt {
namespace {

// "NAME=REGEX" -> {NAME, REGEX}; REGEX may be empty (no SASS signature).
std::pair<std::string, std::string> split_signature(const std::string& option, const std::string& text) {
  const std::size_t equals = text.find('=');
  const std::string name = text.substr(0, equals);
  const bool identifier = !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
  });
  if (equals == std::string::npos || !identifier) {
    throw usage_error(option + " '" + text + "': expected NAME=REGEX");
  }
  return {name, text.substr(equals + 1)};
}

// The claims in manifest order, then the variant's own signatures.
std::vector<sass::signature> collect_signatures(const static_request& request, const variant_decl& decl) {
  std::map<std::string, std::string> method_regex;
  for (const std::string& text : request.m_method_signatures) {
    const auto [name, regex] = split_signature("--method-signature", text);
    if (std::find(decl.m_methods.begin(), decl.m_methods.end(), name) == decl.m_methods.end()) {
      throw usage_error("--method-signature " + name + ": variant '" + decl.m_name +
                        "' does not claim METHOD " + name + " in the manifest");
    }
    method_regex[name] = regex;
  }
  std::vector<sass::signature> signatures;
  for (const std::string& method : decl.m_methods) {
    const auto it = method_regex.find(method);
    if (it == method_regex.end()) {
      throw usage_error("variant '" + decl.m_name + "' claims METHOD " + method +
                        " but no --method-signature " + method + "=REGEX was given (the generated test passes "
                        "the regexes of cmake/kernelopt/Methods.cmake)");
    }
    signatures.push_back({method, it->second, "METHODS"});
  }
  for (const std::string& text : request.m_sass_signatures) {
    const auto [name, regex] = split_signature("--sass-signature", text);
    if (regex.empty()) throw usage_error("--sass-signature " + name + ": the regex is empty");
    signatures.push_back({name, regex, "SASS_SIGNATURES"});
  }
  return signatures;
}

static_outcome skip(const manifest& m, const std::string& variant, const std::string& reason, const std::filesystem::path& out_file,
         std::ostream& out) {
  write_json_atomic(out_file, to_json(sass::skipped_result(m.m_kernel, variant, reason)));
  out << "SKIPPED: " << reason << "\n";
  return static_outcome::skipped;
}

// The variant's record's ablation, when it measured the variant's current
// sources; else notes saying why it is not used.
std::vector<std::string> notes_from_record(const manifest& m, const variant_decl& decl, const sass::report& report) {
  const std::filesystem::path path = m.record_path(decl.m_name);
  if (!std::filesystem::exists(path)) return {};
  record r;
  try {
    r = read_record(path);
  } catch (const std::exception& e) {
    return {std::string("ablation: the record cannot be read: ") + e.what()};
  }
  if (!r.m_ablation) return {};
  const current_source now = hash_current_sources(m, decl.m_name, r.m_source.m_scope);
  if (!now.m_hash || now.m_hash->m_sha256 != r.m_ablation->m_source_sha256) {
    return {"ablation: measured on other sources than the variant's current ones; not used"};
  }
  return ablation_notes(*r.m_ablation, report.m_signatures);
}

}  // namespace

std::vector<std::string> ablation_notes(const ablation_result& ablation,
                                        const std::vector<sass::signature_result>& signatures) {
  std::vector<std::string> notes;
  for (const sass::signature_result& s : signatures) {
    if (s.m_signature.m_source != "METHODS") continue;
    const ablation_method* a = ablation.find(s.m_signature.m_name);
    if (a == nullptr) continue;
    std::string note = "ablation: " + a->m_method + " " + a->m_class;
    if (a->m_class == k_ablation_effective) {
      const bool found = s.m_status == sass::signature_result::status::found;
      if (found && a->m_sass_without == "absent") {
        note += "; its signature is in the variant and absent without it: confirmed";
      } else if (found && a->m_sass_without == "present") {
        note += "; its signature remains without it: the time it saves is not shown by that signature";
      } else {
        note += " (attributed; signature without it: " + a->m_sass_without + ")";
      }
    }
    notes.push_back(note);
  }
  return notes;
}

std::vector<std::string> family_claim_notes(const variant_decl& decl,
                                            const std::vector<sass::signature_result>& signatures) {
  if (!decl.m_family || !decl.m_family->m_champions) return {};
  std::vector<std::string> points;
  for (const std::string& point : *decl.m_family->m_champions) {
    if (std::find(points.begin(), points.end(), point) == points.end()) points.push_back(point);
  }
  std::string searched;
  for (const std::string& point : points) searched += (searched.empty() ? "" : ", ") + point;
  std::vector<std::string> notes;
  for (const sass::signature_result& s : signatures) {
    if (s.m_signature.m_source != "METHODS" || s.m_status != sass::signature_result::status::missing) continue;
    notes.push_back(decl.m_name + " is a family: its METHODS are checked in the code its dispatch runs, the selected " +
                    "point(s) " + searched + "; none of them has " + s.m_signature.m_name +
                    ": the selection serves only points without it (drop the claim, or select points that use it)");
  }
  return notes;
}

static_outcome check_machine_code(const manifest& m, const variant_decl& decl, const static_request& request,
                                  std::ostream& out) {
  if (m.m_backend != "cuda") {
    throw usage_error("kernel '" + m.m_kernel + "' has backend " + m.m_backend + ": no machine code to check");
  }
  const std::vector<sass::signature> signatures = collect_signatures(request, decl);
  const std::vector<std::string> objects = request.m_objects;
  for (const std::string& object : objects) {
    if (!std::filesystem::exists(object)) {
      throw std::runtime_error("object file " + object + " does not exist: build the variant first (target " +
                               m.m_kernel + "_kopt_" + decl.m_name + ")");
    }
  }

  const std::string cuobjdump = sass::find_cuobjdump(request.m_cuobjdump.value_or(""));
  if (cuobjdump.empty()) return skip(m, decl.m_name, sass::k_cuobjdump_missing, request.m_out, out);

  std::vector<sass::function> functions;
  std::vector<std::string> host_only;
  std::vector<std::string> line_info_notes;
  for (const std::string& object : objects) {
    sass::object_dump dump = sass::dump_object(cuobjdump, object);
    switch (dump.m_status) {
      case sass::object_dump::status::tool_unusable:
        return skip(m, decl.m_name, dump.m_message, request.m_out, out);
      case sass::object_dump::status::failed:
        throw std::runtime_error(object + ": " + dump.m_message);
      case sass::object_dump::status::no_device_code:
        host_only.push_back(std::filesystem::path(object).filename().string());
        break;
      case sass::object_dump::status::ok:
        if (!dump.m_line_info_note.empty() && !dump.m_functions.empty()) {
          line_info_notes.push_back("no line info from " + std::filesystem::path(object).filename().string() + ": " +
                                    dump.m_line_info_note);
        }
        for (sass::function& f : dump.m_functions) functions.push_back(std::move(f));
        break;
    }
  }

  std::vector<std::string> notes = sass::assign_ownership(functions, decl.m_sources);
  notes.insert(notes.begin(), line_info_notes.begin(), line_info_notes.end());
  sass::report report =
      sass::evaluate(m.m_kernel, decl.m_name, objects, decl.m_sources, std::move(functions), signatures, request.m_limits);
  report.m_notes.insert(report.m_notes.begin(), notes.begin(), notes.end());
  for (const std::string& note : notes_from_record(m, decl, report)) report.m_notes.push_back(note);
  for (const std::string& note : family_claim_notes(decl, report.m_signatures)) report.m_notes.push_back(note);
  if (!host_only.empty()) {
    std::string names;
    for (const std::string& name : host_only) names += (names.empty() ? "" : ", ") + name;
    report.m_notes.push_back("host code only (no device code): " + names);
  }
  const std::string version = sass::cuobjdump_version(cuobjdump);
  write_json_atomic(request.m_out, to_json(sass::report_result(report, cuobjdump, version)));
  out << sass::render_table(report) << "-> " << request.m_out.string() << "\n";
  return report.passed() ? static_outcome::passed : static_outcome::failed;
}

}  // namespace kopt
