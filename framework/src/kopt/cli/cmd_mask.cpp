// kopt mask: marks a record discarded. The record stays; only its `masked`
// field changes, and the file is rewritten atomically.
#include <ostream>

#include "kopt/cli/commands.hpp"
#include "kopt/cli/json_output.hpp"
#include "kopt/records/kernel_lock.hpp"
#include "kopt/records/record.hpp"
#include "core/utc.hpp"

namespace kopt::cli {

int cmd_mask(const arguments& args, std::ostream& out, std::ostream& err) {
  const manifest m = read_manifest(args.value("--manifest"));
  const file_lock lock = lock_kernel(m, lock_wait_option(args), "mask", err);
  const std::string& variant = args.value("--variant");
  (void)m.variant(variant);
  const std::filesystem::path path = m.record_path(variant);
  if (!std::filesystem::exists(path))
    throw std::runtime_error(path.string() + ": no record of " + variant + " to mask");
  json doc = read_json_file(path);
  check_kind(doc, path, "kernelopt.record", k_record_schema_version);
  const record r = record_from_json(doc, path.string());  // a valid record before we touch it
  if (r.m_masked) {
    throw std::runtime_error(path.string() + ": already masked (" + r.m_masked->m_reason + ")");
  }
  const mask_info masked{args.value("--reason"), utc_now_iso()};
  // Edit the document rather than re-serialize the record: every other byte stays.
  doc["masked"] = to_json(masked);
  write_json_atomic(path, doc);
  if (args.has("--json")) {
    out << to_json(mask_output{m.m_kernel, variant, path.string(), masked}).dump(2) << "\n";
    return k_exit_ok;
  }
  out << "masked " << path.string() << ": " << args.value("--reason") << "\n";
  return k_exit_ok;
}

}  // namespace kopt::cli
