// kopt recommend: methods ranked from the experience store (the scoring is
// in kopt/experience/recommend.hpp).
#include <ostream>

#include "kopt/cli/commands.hpp"
#include "kopt/experience/recommend.hpp"
#include "kopt/experience/store.hpp"

namespace kopt::cli {

int cmd_recommend(const arguments& args, std::ostream& out, std::ostream& /*err*/) {
  std::optional<manifest> m;
  if (args.has("--manifest")) m = read_manifest_of(args);
  const auto store = experience_dir(args.optional_value("--store"), m ? &*m : nullptr);
  if (!store) throw usage_error("no store: give --store DIR, --manifest FILE or set KOPT_EXPERIENCE_DIR");
  recommend_query query;
  query.m_kernel = args.value("--kernel");
  query.m_bottleneck = args.optional_value("--bottleneck");
  query.m_gpu = args.optional_value("--gpu");
  query.m_backend = args.optional_value("--backend");
  if (!query.m_backend && m) query.m_backend = m->m_backend;
  if (const auto top = args.optional_value("--top")) query.m_top = static_cast<std::size_t>(int_option("--top", *top, 1, 1000));
  const std::vector<experience_entry> entries = read_experience(*store);  // the result points into it
  const recommend_result result = recommend(entries, query);
  if (args.has("--json")) {
    out << recommend_json(result, store->string()).dump(2) << "\n";
  } else {
    out << render_recommend_text(result);
  }
  return k_exit_ok;
}

}  // namespace kopt::cli
