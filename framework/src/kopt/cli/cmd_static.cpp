// kopt static: the <k>.static.<variant> test (run/static_checks.hpp).
#include <ostream>

#include "kopt/cli/commands.hpp"
#include "kopt/cli/requests.hpp"
#include "kopt/inputs/manifest.hpp"

namespace kopt::cli {

static_request static_request_from(const arguments& args) {
  static_request request;
  request.m_objects = args.values("--objects");
  request.m_method_signatures = args.values("--method-signature");
  request.m_sass_signatures = args.values("--sass-signature");
  if (auto v = args.optional_value("--max-registers")) {
    request.m_limits.m_max_registers = int_option("--max-registers", *v, 1, 255);
  }
  request.m_limits.m_no_spills = args.has("--no-spills");
  request.m_limits.m_no_local_memory = args.has("--no-local-memory");
  request.m_cuobjdump = args.optional_value("--cuobjdump");
  request.m_out = args.value("--out");
  return request;
}

int cmd_static(const arguments& args, std::ostream& out, std::ostream& /*err*/) {
  const manifest m = read_manifest(args.value("--manifest"));
  const variant_decl& decl = m.variant(args.value("--variant"));
  switch (check_machine_code(m, decl, static_request_from(args), out)) {
    case static_outcome::passed: return k_exit_ok;
    case static_outcome::failed: return k_exit_fail;
    case static_outcome::skipped: return k_exit_skipped;
  }
  return k_exit_fail;
}

}  // namespace kopt::cli
