// Nsight Compute's raw CSV page (ncu --csv --page raw): parsed, classified,
// and built into a kernelopt.profile document as kopt profile does.
#include "fuzz_target.hpp"
#include "kopt/profile/document.hpp"

KOPT_FUZZ_TARGET(ncu_csv) {
  return kopt::fuzz::guarded([&] {
    const std::string text(reinterpret_cast<const char*>(data), size);
    kopt::fuzz::guarded([&] {
      for (const kopt::profile::kernel_profile& k :
           kopt::profile::kernels_from_table(kopt::profile::parse_csv(text, "ncu.csv"))) {
        (void)kopt::profile::classify(k);
        (void)kopt::profile::findings(k);
        (void)kopt::profile::to_json(kopt::profile::profiled_kernel_of(k)).dump();
      }
    });
    kopt::profile::document_settings settings;
    settings.m_kernel = "softmax";
    settings.m_flops = "5*rows*cols";
    settings.m_bytes = "8*rows*cols";
    settings.m_input_dtypes = {"f32"};
    kopt::profile::benchmark_input in;
    in.m_name = "softmax/v1/rows=4096,cols=4096";
    in.m_impl = "v1";
    in.m_shape = kopt::shape::parse("rows=4096,cols=4096");
    in.m_csv = text;
    in.m_csv_file = "ncu.csv";
    (void)kopt::profile::to_json(kopt::profile::build_document(settings, {in})).dump();
  });
}
