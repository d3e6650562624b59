// kernelopt.static: the one reader (formats/static_result.hpp) that kopt
// record uses before it embeds the document, and its round trip through
// to_json.
#include "formats/static_result.hpp"
#include "fuzz_target.hpp"

KOPT_FUZZ_TARGET(static) {
  return kopt::fuzz::guarded([&] {
    const kopt::static_result r = kopt::read_static_result(kopt::fuzz::temp_file(data, size, "static.json"));
    const kopt::json doc = kopt::to_json(r);
    (void)kopt::static_result_from_json(kopt::json_reader(doc, "round trip"));
    (void)doc.dump(2);
  });
}
