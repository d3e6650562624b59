// A CUPTI injection library that prints every tensor map a process encodes
// (cuTensorMapEncodeTiled: data type, rank, dimensions, strides, box,
// interleave, swizzle, L2 promotion, out-of-bounds fill) and the name of
// every kernel it launches, one line each on stderr. It shows how a library
// whose kernels are closed (cuBLAS's nvjet kernels, which are not in
// libcublasLt's cubins where cuobjdump looks) lays out its TMA loads.
//
//   g++ -std=c++17 -shared -fPIC -I<cuda>/include -I<cupti include>
//       docs/results/2026-12-03-h200-session25/tensormap_spy.cpp -L<cupti lib> -lcupti -o libtensormap_spy.so
//   CUDA_INJECTION64_PATH=$PWD/libtensormap_spy.so <program>
//
// The CUDA driver calls InitializeInjection() when the process first
// initialises it (CUPTI's injection mechanism). One CUPTI subscriber per
// process: a program that subscribes itself (gemm_kopt_bench --kopt_profile)
// cannot run under it.
#include <cuda.h>
#include <cupti.h>  // with generated_cuda_meta.h: the driver calls' parameter structs

#include <cstdio>

namespace {

const char* swizzle_name(CUtensorMapSwizzle s) {
  switch (s) {
    case CU_TENSOR_MAP_SWIZZLE_NONE: return "none";
    case CU_TENSOR_MAP_SWIZZLE_32B: return "32B";
    case CU_TENSOR_MAP_SWIZZLE_64B: return "64B";
    case CU_TENSOR_MAP_SWIZZLE_128B: return "128B";
    default: return "other";
  }
}

const char* promotion_name(CUtensorMapL2promotion p) {
  switch (p) {
    case CU_TENSOR_MAP_L2_PROMOTION_NONE: return "none";
    case CU_TENSOR_MAP_L2_PROMOTION_L2_64B: return "64B";
    case CU_TENSOR_MAP_L2_PROMOTION_L2_128B: return "128B";
    case CU_TENSOR_MAP_L2_PROMOTION_L2_256B: return "256B";
    default: return "other";
  }
}

void print_tiled(const cuTensorMapEncodeTiled_params& p) {
  std::fprintf(stderr, "[tensormap] tiled type=%d rank=%u address=%p", static_cast<int>(p.tensorDataType),
               p.tensorRank, p.globalAddress);
  std::fprintf(stderr, " dims=");
  for (cuuint32_t i = 0; i < p.tensorRank; ++i)
    std::fprintf(stderr, "%s%llu", i ? "x" : "", static_cast<unsigned long long>(p.globalDim[i]));
  std::fprintf(stderr, " strides_bytes=");
  for (cuuint32_t i = 0; i + 1 < p.tensorRank; ++i)
    std::fprintf(stderr, "%s%llu", i ? "," : "", static_cast<unsigned long long>(p.globalStrides[i]));
  std::fprintf(stderr, " box=");
  for (cuuint32_t i = 0; i < p.tensorRank; ++i) std::fprintf(stderr, "%s%u", i ? "x" : "", p.boxDim[i]);
  std::fprintf(stderr, " element_strides=");
  for (cuuint32_t i = 0; i < p.tensorRank; ++i)
    std::fprintf(stderr, "%s%u", i ? "x" : "", p.elementStrides[i]);
  std::fprintf(stderr, " interleave=%d swizzle=%s l2_promotion=%s oob_fill=%d\n", static_cast<int>(p.interleave),
               swizzle_name(p.swizzle), promotion_name(p.l2Promotion), static_cast<int>(p.oobFill));
}

void CUPTIAPI on_driver_call(void*, CUpti_CallbackDomain domain, CUpti_CallbackId id, const void* data) {
  if (domain != CUPTI_CB_DOMAIN_DRIVER_API) return;
  const auto* info = static_cast<const CUpti_CallbackData*>(data);
  if (info->callbackSite != CUPTI_API_ENTER) return;
  switch (id) {
    case CUPTI_DRIVER_TRACE_CBID_cuTensorMapEncodeTiled:
      print_tiled(*static_cast<const cuTensorMapEncodeTiled_params*>(info->functionParams));
      break;
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz:
      std::fprintf(stderr, "[tensormap] launch %s\n", info->symbolName ? info->symbolName : "(unnamed)");
      break;
    default:
      break;
  }
}

}  // namespace

extern "C" int InitializeInjection() {
  CUpti_SubscriberHandle subscriber;
  if (cuptiSubscribe(&subscriber, on_driver_call, nullptr) != CUPTI_SUCCESS) {
    std::fprintf(stderr, "[tensormap] cuptiSubscribe failed (another subscriber?)\n");
    return 0;
  }
  const CUpti_CallbackId ids[] = {CUPTI_DRIVER_TRACE_CBID_cuTensorMapEncodeTiled,
                                  CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
                                  CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx,
                                  CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz};
  for (CUpti_CallbackId id : ids) cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API, id);
  return 1;
}
