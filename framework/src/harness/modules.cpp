#include <dlfcn.h>

#include <filesystem>
#include <string>
#include <system_error>

#include "kernelopt/detail/module.hpp"

namespace kopt {
namespace {

// The generated modules sit beside the executable that loads them.
std::filesystem::path executable_dir() {
  std::error_code error;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
  if (!error) return self.parent_path();
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&load_modules), &info) != 0 && info.dli_fname != nullptr) {
    return std::filesystem::absolute(info.dli_fname, error).parent_path();
  }
  return std::filesystem::current_path(error);
}

void load(impl_spec& impl, const std::string& kernel, const std::filesystem::path& dir) {
  if (impl.m_module.empty() || impl.m_invoke != nullptr || !impl.m_skip_reason.empty()) return;
  const std::filesystem::path path = dir / impl.m_module;
  // RTLD_LOCAL: what one module defines never resolves another's references.
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* why = dlerror();
    impl.m_load_error = "cannot load " + path.string() + ": " + (why != nullptr ? why : "unknown error");
    return;
  }
  using info_fn = const module_info* (*)();
  const auto get = reinterpret_cast<info_fn>(dlsym(handle, "kopt_module_info"));
  const module_info* info = get != nullptr ? get() : nullptr;
  if (info == nullptr || info->m_abi != k_module_abi || info->m_invoke == nullptr || info->m_kernel == nullptr ||
      info->m_impl == nullptr || kernel != info->m_kernel || impl.m_name != info->m_impl) {
    impl.m_load_error = path.string() + " is not the module of " + kernel + "/" + impl.m_name +
                        " this executable was built with (rebuild both)";
    return;
  }
  impl.m_invoke = info->m_invoke;
}

}  // namespace

void load_modules(kernel_spec& spec) {
  const std::filesystem::path dir = executable_dir();
  for (impl_spec& v : spec.m_variants) load(v, spec.m_name, dir);
  for (impl_spec& b : spec.m_baselines) load(b, spec.m_name, dir);
  if (spec.m_reference) load(*spec.m_reference, spec.m_name, dir);
}

}  // namespace kopt
