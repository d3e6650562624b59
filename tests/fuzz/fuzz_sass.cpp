// cuobjdump output: -sass listings and -res-usage tables, the input of
// kopt static's METHOD and limit checks.
#include "fuzz_target.hpp"
#include "static/sass.hpp"

KOPT_FUZZ_TARGET(sass) {
  return kopt::fuzz::guarded([&] {
    const std::string text(reinterpret_cast<const char*>(data), size);
    std::vector<kopt::sass::function> functions = kopt::sass::parse_sass(text, "object.o");
    kopt::sass::attach_usage(functions, kopt::sass::parse_resource_usage(text));
    kopt::json names = kopt::json::array();
    for (const kopt::sass::function& f : functions) {
      names.push_back(f.name());
      for (const kopt::sass::instruction& i : f.m_instructions) names.push_back(i.m_text);
      (void)f.families();
      (void)f.local_stores();
      (void)f.local_loads();
    }
    (void)names.dump();  // kopt static writes them to JSON: valid UTF-8
  });
}
