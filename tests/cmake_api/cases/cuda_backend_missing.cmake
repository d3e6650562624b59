# EXPECT: kernel_opt_add_kernel\(gemm\): BACKEND cuda needs KernelOpt's CUDA backend, which this KernelOpt was built without KernelOpt_ENABLE_CUDA: 'OFF' Hint: build \(and install\) KernelOpt with -DKernelOpt_ENABLE_CUDA=ON
# The CUDA language as enable_language(CUDA) leaves it (no compiler needed to
# reach the check), and no KernelOpt::cuda: a KernelOpt built without CUDA.
set(CMAKE_CUDA_COMPILER_LOADED 1)
kernel_opt_add_kernel(gemm
  ARGS "in A f32[M,K]" "in B f32[K,N]" "out C f32[M,N]"
  DIMS M N K
  SHAPES "M=64,N=64,K=64"
  REFERENCE gemm_reference REFERENCE_SOURCES kernels.cpp REFERENCE_BACKEND host)
