# EXPECT: kernel_opt_add_kernel\(gemm\): TIMING keyword MIN_SAMPLES is given twice TIMING MIN_SAMPLES: .5. TIMING MIN_SAMPLES: .50.
kernel_opt_add_kernel(gemm BACKEND host
  ARGS "in A f32[M,K]" "in B f32[K,N]" "out C f32[M,N]"
  DIMS M N K
  SHAPES "M=64,N=64,K=64"
  REFERENCE gemm_reference REFERENCE_SOURCES kernels.cpp
  TIMING MIN_SAMPLES 5 MIN_SAMPLES 50)
kernel_opt_add_variant(gemm v0 SOURCES kernels.cpp ENTRY gemm_v0)
