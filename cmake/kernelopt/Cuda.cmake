# What a CUDA kernel needs in the directory that declares it, checked when
# it is declared: the CUDA language, KernelOpt's CUDA backend, and the CUDA
# Toolkit's imported targets (CUDA::cudart), found here when the consumer has
# not found them itself.
#
# Why here and not only in the package config: imported targets are visible
# in the directory that found them and below. The package config's
# find_dependency(CUDAToolkit) serves find_package(KernelOpt); after
# add_subdirectory() or FetchContent the find_package(CUDAToolkit) in
# KernelOpt's own CMakeLists.txt is invisible to the consumer's directories.
function(_kernel_opt_require_cuda function kernel)
  # The directory's own view: a CUDA language enabled only inside
  # KernelOpt's subdirectory cannot compile the consumer's .cu files.
  if(NOT CMAKE_CUDA_COMPILER_LOADED)
    _kernel_opt_fail(${function} ${kernel} "BACKEND cuda needs the CUDA language"
      HINT "call enable_language(CUDA) (or project(... LANGUAGES CXX CUDA)) before declaring CUDA kernels")
  endif()
  if(NOT TARGET KernelOpt::cuda)
    _kernel_opt_fail(${function} ${kernel} "BACKEND cuda needs KernelOpt's CUDA backend, which this KernelOpt was built without"
      KEY KernelOpt_ENABLE_CUDA "OFF"
      HINT "build (and install) KernelOpt with -DKernelOpt_ENABLE_CUDA=ON, or declare the kernel with BACKEND host")
  endif()
  if(NOT TARGET CUDA::cudart)
    # Inside a function: the imported targets land in the calling directory,
    # the result variables stay here.
    find_package(CUDAToolkit QUIET)
    if(NOT TARGET CUDA::cudart)
      _kernel_opt_fail(${function} ${kernel} "BACKEND cuda needs the CUDA Toolkit, which was not found"
        KEY CMAKE_CUDA_COMPILER "${CMAKE_CUDA_COMPILER}"
        HINT "install the CUDA Toolkit (with CUPTI), or point CUDAToolkit_ROOT at it")
    endif()
  endif()
endfunction()
