# EXPECT: kernel_opt_add_kernel\(gemm\): ARGS entry "in A fp8\[M,K\]": unknown dtype .fp8. Known dtypes: .f64, f32, f16, bf16, i32, i64, u8.
kernel_opt_add_kernel(gemm BACKEND host
  ARGS "in A fp8[M,K]" "in B f32[K,N]" "out C f32[M,N]"
  DIMS M N K
  SHAPES "M=64,N=64,K=64"
  REFERENCE gemm_reference REFERENCE_SOURCES kernels.cpp)
