// kernelopt.experience: one store entry read as `kopt experience` reads it
// (experience_from_json checks the id against the content), written back,
// and ranked by recommend's scoring as the only entry of a store.
#include "fuzz_target.hpp"
#include "kopt/experience/entry.hpp"
#include "kopt/experience/recommend.hpp"

KOPT_FUZZ_TARGET(experience) {
  return kopt::fuzz::guarded([&] {
    const std::filesystem::path path = kopt::fuzz::temp_file(data, size, "entry.json");
    const kopt::experience_entry e = kopt::experience_from_json(kopt::read_json_file(path), path.string());
    (void)kopt::to_json(e).dump(2);
    const std::vector<kopt::experience_entry> store = {e};
    kopt::recommend_query query;
    query.m_kernel = e.m_kernel;
    const kopt::recommend_result result = kopt::recommend(store, query);
    (void)kopt::recommend_json(result, "store").dump(2);
    (void)kopt::render_recommend_text(result);
  });
}
