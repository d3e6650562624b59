# EXPECT: kernel_opt_add_kernel\(gemm\): INIT entry \"L=randint\(0,2\^62-1\)\": randint bound 4611686018427387903 is not below 2\^62 in magnitude as a double INIT: 'L=randint\(0,2\^62-1\)' Hint: randint draws int64 values from bounds the harness reads as doubles
kernel_opt_add_kernel(gemm BACKEND host
  ARGS "in A f32[M,K]" "in L i64[M]" "out C f32[M,N]"
  DIMS M N K
  SHAPES "M=64,N=64,K=64"
  REFERENCE gemm_reference REFERENCE_SOURCES kernels.cpp
  INIT "L=randint(0,2^62-1)")
