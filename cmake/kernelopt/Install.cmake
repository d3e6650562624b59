# Install rules and the package config, so that a project can use
#   find_package(KernelOpt CONFIG REQUIRED)
#   include(KernelOpt)
include(CMakePackageConfigHelpers)

set(KernelOpt_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/KernelOpt"
    CACHE STRING "Where KernelOpt's CMake package files are installed")

install(EXPORT KernelOptTargets
  NAMESPACE KernelOpt::
  DESTINATION "${KernelOpt_INSTALL_CMAKEDIR}")

configure_package_config_file(
  "${PROJECT_SOURCE_DIR}/cmake/KernelOptConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/KernelOptConfig.cmake"
  INSTALL_DESTINATION "${KernelOpt_INSTALL_CMAKEDIR}")
# SameMinorVersion while KernelOpt is 0.x: before 1.0 a minor release may
# change the CMake API or the file formats (semver item 4), so
# find_package(KernelOpt 0.2) accepts any 0.2.z and refuses 0.1 and 0.3.
# From 1.0 on this becomes SameMajorVersion. add_subdirectory/FetchContent
# check no version: the consumer pins the source (GIT_TAG) instead.
write_basic_package_version_file(
  "${PROJECT_BINARY_DIR}/KernelOptConfigVersion.cmake"
  COMPATIBILITY SameMinorVersion)

install(FILES
    "${PROJECT_BINARY_DIR}/KernelOptConfig.cmake"
    "${PROJECT_BINARY_DIR}/KernelOptConfigVersion.cmake"
    "${PROJECT_SOURCE_DIR}/cmake/KernelOpt.cmake"
  DESTINATION "${KernelOpt_INSTALL_CMAKEDIR}")
install(DIRECTORY "${PROJECT_SOURCE_DIR}/cmake/kernelopt"
  DESTINATION "${KernelOpt_INSTALL_CMAKEDIR}")
install(FILES "${PROJECT_SOURCE_DIR}/LICENSE" "${PROJECT_SOURCE_DIR}/CHANGELOG.md"
  DESTINATION "${CMAKE_INSTALL_DOCDIR}")
install(DIRECTORY "${PROJECT_SOURCE_DIR}/framework/specs/"
  DESTINATION "${CMAKE_INSTALL_DATADIR}/kernelopt/specs"
  OPTIONAL)
# The skill file for agents that load skills from a folder (docs/agents.md).
install(FILES "${PROJECT_SOURCE_DIR}/framework/agent/SKILL.md"
  DESTINATION "${CMAKE_INSTALL_DATADIR}/kernelopt/agent")
