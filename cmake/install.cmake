# `cmake --install build [--prefix DIR]`: the static libraries (pipesim::engine, ::io, ::course and
# pipesim::core linking the three), its public headers (pipesim/*.h), the
# pipesim command when built, and a CMake package, so that another project writes
#   find_package(pipesim 0.1 REQUIRED)
#   target_link_libraries(app PRIVATE pipesim::core)
# (tests/consumer/ is such a project, built against an installed copy by the test suite).
include(CMakePackageConfigHelpers)
set(PIPESIM_CMAKE_DIR "${CMAKE_INSTALL_LIBDIR}/cmake/pipesim")

install(TARGETS pipesim_engine pipesim_io pipesim_course pipesim_core EXPORT pipesimTargets
        ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}"
        INCLUDES DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}")
# The three parts' headers share one include root once installed: "pipesim/run.h", "pipesim/report.h", ...
foreach(part engine io course)
  install(DIRECTORY "${PROJECT_SOURCE_DIR}/core/${part}/include/pipesim" DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}")
endforeach()
if(TARGET pipesim)
  install(TARGETS pipesim RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}")
endif()
install(FILES "${PROJECT_SOURCE_DIR}/LICENSE" DESTINATION "${CMAKE_INSTALL_DATADIR}/doc/pipesim")

install(EXPORT pipesimTargets NAMESPACE pipesim:: FILE pipesimTargets.cmake DESTINATION "${PIPESIM_CMAKE_DIR}")
configure_package_config_file("${PROJECT_SOURCE_DIR}/cmake/pipesimConfig.cmake.in"
                              "${PROJECT_BINARY_DIR}/pipesimConfig.cmake" INSTALL_DESTINATION "${PIPESIM_CMAKE_DIR}")
# 0.x releases promise nothing across minor versions: 0.1 accepts 0.1.z only.
write_basic_package_version_file("${PROJECT_BINARY_DIR}/pipesimConfigVersion.cmake" COMPATIBILITY SameMinorVersion)
install(FILES "${PROJECT_BINARY_DIR}/pipesimConfig.cmake" "${PROJECT_BINARY_DIR}/pipesimConfigVersion.cmake"
        DESTINATION "${PIPESIM_CMAKE_DIR}")
