# numbers_normalized: the spec and the manifest hold the same canonical numbers.
file(READ "${WORK_DIR}/kernelopt/gemm/kopt_gemm_spec.cpp" spec)
foreach(expected IN ITEMS
    "k.m_seeds.push_back(10u);\n    k.m_seeds.push_back(8u);\n    k.m_seeds.push_back(0u);"
    "kopt::tolerance_spec{8.0, 0.5e-3, 123456789012345678901.0, \"TOLERANCE\"}"
    "kopt::timing_spec{10, 9.0, 0.01, 1.0e2, 3}")
  string(FIND "${spec}" "${expected}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "kopt_gemm_spec.cpp lacks '${expected}':\n${spec}")
  endif()
endforeach()
file(READ "${WORK_DIR}/kernelopt/gemm/manifest.json" json)
foreach(check IN ITEMS "seeds;0=10" "seeds;1=8" "seeds;2=0" "tolerance;rtol=8.0" "tolerance;atol=0.5e-3"
                       "tolerance;max_rel_l2=123456789012345678901.0" "timing;min_samples=10"
                       "timing;min_time_s=9.0" "timing;max_noise=0.01" "timing;timeout_s=1.0e2"
                       "test_timeout_s=600.0")
  string(REGEX MATCH "^([^=]*)=(.*)$" _ "${check}")
  set(path "${CMAKE_MATCH_1}")
  set(expected "${CMAKE_MATCH_2}")
  string(JSON type TYPE "${json}" ${path})
  string(JSON value GET "${json}" ${path})
  # string(JSON GET) prints numbers in its own form: compare as numbers.
  if(NOT type STREQUAL "NUMBER" OR NOT value EQUAL expected)
    message(FATAL_ERROR "manifest ${path} is ${type} '${value}', expected the number ${expected}")
  endif()
endforeach()
message(STATUS "numbers reach the spec and the manifest in canonical form")
