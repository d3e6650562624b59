# CHECK: ../checks/family_dispatch_generated.cmake
# A family with a selection in its RECORDS: the dispatch library, its
# headers and the family variant's module are generated; a selection whose
# champion is not a point of the family (v1), or whose family's sources
# changed since (v2), is stale: a warning, no dispatch.
enable_language(CXX)
enable_testing()
foreach(name IN ITEMS headers harness bench)
  add_library(KernelOpt::${name} INTERFACE IMPORTED)
endforeach()
set(records "${CMAKE_CURRENT_BINARY_DIR}/records")
file(SHA256 "${CMAKE_CURRENT_SOURCE_DIR}/kernels.cpp" sha)
set(source "{\"sha256\":\"x\",\"files\":[{\"name\":\"kernels.cpp\",\"sha256\":\"${sha}\"}]}")
set(changed "{\"sha256\":\"x\",\"files\":[{\"name\":\"kernels.cpp\",\"sha256\":\"0000\"}]}")
file(WRITE "${records}/gemm/v0.selection.json" [=[
{"schema_version":1,"kind":"kernelopt.selection","kernel":"gemm","variant":"v0","margin":0.03,
 "points":["v0_p0","v0_p1"],
 "shapes":[{"shape":"M=64,N=64,K=64","champion":"v0_p1","median_ns":1,"frontier":[]},
           {"shape":"M=128,N=64,K=64","champion":"v0_p0","median_ns":2,"frontier":[]}],
 "failed":[],"source":]=] "${source}" [=[,"utc":"2026-11-24T15:00:00Z"}
]=])
file(WRITE "${records}/gemm/v1.selection.json" [=[
{"schema_version":1,"kind":"kernelopt.selection","kernel":"gemm","variant":"v1","margin":0.03,
 "points":["v1_p0"],
 "shapes":[{"shape":"M=64,N=64,K=64","champion":"v1_p7","median_ns":1,"frontier":[]},
           {"shape":"M=128,N=64,K=64","champion":"v1_p0","median_ns":2,"frontier":[]}],
 "failed":[],"source":]=] "${source}" [=[,"utc":"2026-11-24T15:00:00Z"}
]=])
file(WRITE "${records}/gemm/v2.selection.json" [=[
{"schema_version":1,"kind":"kernelopt.selection","kernel":"gemm","variant":"v2","margin":0.03,
 "points":["v2_p0"],
 "shapes":[{"shape":"M=64,N=64,K=64","champion":"v2_p0","median_ns":1,"frontier":[]},
           {"shape":"M=128,N=64,K=64","champion":"v2_p0","median_ns":2,"frontier":[]}],
 "failed":[],"source":]=] "${changed}" [=[,"utc":"2026-11-24T15:00:00Z"}
]=])
kernel_opt_add_kernel(gemm BACKEND host
  ARGS "in A f32[M,K]" "in B f32[K,N]" "out C f32[M,N]"
  DIMS M N K
  SHAPES "M=64,N=64,K=64" "M=128,N=64,K=64"
  REFERENCE gemm_reference REFERENCE_SOURCES kernels.cpp
  RECORDS ${records})
kernel_opt_add_variant(gemm v0 SOURCES kernels.cpp ENTRY gemm_v0 PARAMS "BM=16,32")
kernel_opt_add_variant(gemm v1 SOURCES kernels.cpp ENTRY gemm_v1 PARENT v0 PARAMS "BN=1,2")
kernel_opt_add_variant(gemm v2 SOURCES kernels.cpp ENTRY gemm_v1 PARENT v0 PARAMS "BK=1,2")
