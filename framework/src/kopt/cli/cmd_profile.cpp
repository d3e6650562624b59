// kopt profile: Nsight Compute on one launch per implementation x shape
// (profile/capture.hpp) into kernelopt.profile.
//
// kopt profile-import: the same document from CSV files already captured
// (`ncu --import R --csv --page raw --print-units base > F`).
//
// Without ncu, or when the counters cannot be read (ERR_NVGPUCTRPERM), the
// document says {"status": "unavailable", "reason": ...}: exit 77, or 0 with
// --allow-unavailable (the profile-<k> target: a machine that cannot
// profile is not a build failure).
#include <algorithm>
#include <fstream>
#include <ostream>
#include <sstream>

#include "kopt/cli/commands.hpp"
#include "kopt/inputs/manifest.hpp"
#include "kopt/profile/capture.hpp"

namespace kopt::cli {
namespace {

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Implementations to profile: those named, each a variant or a baseline;
// default all variants, then all baselines.
std::vector<std::string> implementations(const manifest& m, const std::vector<std::string>& named) {
  std::vector<std::string> known;
  for (const variant_decl& v : m.m_variants) known.push_back(v.m_name);
  for (const impl_decl& b : m.m_baselines) known.push_back(b.m_name);
  if (named.empty()) return known;
  for (const std::string& name : named) {
    if (std::find(known.begin(), known.end(), name) == known.end()) {
      std::string list;
      for (const std::string& k : known) list += (list.empty() ? "" : ", ") + k;
      throw usage_error("--variant " + name + ": kernel " + m.m_kernel + " has no variant or baseline of that name (" +
                        list + ")");
    }
  }
  return named;
}

profile::settings_request settings_request_from(const arguments& args) {
  return {args.optional_value("--ceilings"), args.optional_value("--specs-dir"), args.optional_value("--device"),
          args.optional_value("--compute-ceiling")};
}

}  // namespace

int cmd_profile(const arguments& args, std::ostream& out, std::ostream& /*err*/) {
  const manifest m = read_manifest(args.value("--manifest"));
  const std::filesystem::path out_file = args.value("--out");
  profile::capture_request request;
  if (m.m_backend == "cuda") request.m_impls = implementations(m, args.values("--variant"));
  request.m_quick = args.has("--quick");
  request.m_ncu = args.optional_value("--ncu");
  request.m_metrics = args.optional_value("--metrics").value_or("");
  request.m_work_dir = out_file.parent_path() / (out_file.stem().string() + ".ncu");
  const profile::profile_document doc =
      profile::capture(m, request, profile::settings_for(m, settings_request_from(args)), out);
  const std::string& status = doc.m_status;
  profile::print_summary(doc, out);
  profile::write_documents(out_file, doc, out);
  if (status == "unavailable") return args.has("--allow-unavailable") ? k_exit_ok : k_exit_skipped;
  return status == "ok" ? k_exit_ok : k_exit_fail;
}

int cmd_profile_import(const arguments& args, std::ostream& out, std::ostream& /*err*/) {
  const manifest m = read_manifest(args.value("--manifest"));
  profile::document_settings settings = profile::settings_for(m, settings_request_from(args));
  std::vector<profile::benchmark_input> inputs;
  for (const std::string& entry : args.values("--csv")) {
    // NAME=FILE, NAME "<k>/<impl>/<shape>" (the shape holds '=' too): split at the last '='.
    const std::size_t split = entry.rfind('=');
    if (split == std::string::npos) throw usage_error("--csv '" + entry + "': expected <k>/<impl>/<shape>=FILE");
    profile::benchmark_input in;
    in.m_name = entry.substr(0, split);
    const std::string file = entry.substr(split + 1);
    const std::size_t first = in.m_name.find('/');
    const std::size_t second = first == std::string::npos ? std::string::npos : in.m_name.find('/', first + 1);
    if (second == std::string::npos || in.m_name.substr(0, first) != m.m_kernel) {
      throw usage_error("--csv '" + entry + "': the benchmark name must be " + m.m_kernel + "/<impl>/<shape>");
    }
    in.m_impl = in.m_name.substr(first + 1, second - first - 1);
    in.m_shape = shape::parse(in.m_name.substr(second + 1));
    in.m_csv_file = file;
    in.m_csv = read_text(file);
    inputs.push_back(std::move(in));
  }
  settings.m_tool = {"imported", "unknown"};
  const profile::profile_document doc = profile::build_document(settings, inputs);
  profile::print_summary(doc, out);
  profile::write_documents(args.value("--out"), doc, out);
  return doc.m_status == "ok" ? k_exit_ok : k_exit_fail;
}

}  // namespace kopt::cli
