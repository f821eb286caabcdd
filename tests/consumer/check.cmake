# cmake -DBUILD=<pipesim build dir> -DSOURCE=<pipesim source> -DWORK=<scratch dir> -DVERSION=<x.y.z> -P check.cmake
# Installs the built pipesim into WORK/prefix, builds tests/consumer against it with find_package and
# runs it; then configures tests/consumer with pipesim as a subproject, which must define no target
# but the library (tests/consumer/CMakeLists.txt fails the configure otherwise).
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "failed (${status}): ${ARGN}\n${out}\n${err}")
  endif()
  set(out "${out}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE "${WORK}")
run("${CMAKE_COMMAND}" --install "${BUILD}" --prefix "${WORK}/prefix")
foreach(installed include/pipesim/run.h include/pipesim/version.h lib/cmake/pipesim/pipesimConfig.cmake
                  lib/cmake/pipesim/pipesimConfigVersion.cmake bin/pipesim share/doc/pipesim/LICENSE)
  if(NOT EXISTS "${WORK}/prefix/${installed}")
    message(FATAL_ERROR "cmake --install did not write ${installed}")
  endif()
endforeach()

run("${CMAKE_COMMAND}" -S "${SOURCE}/tests/consumer" -B "${WORK}/package" -DPIPESIM_AS=package
    "-DCMAKE_PREFIX_PATH=${WORK}/prefix" -DCMAKE_BUILD_TYPE=Release)
run("${CMAKE_COMMAND}" --build "${WORK}/package")
run("${WORK}/package/consumer")
if(NOT out STREQUAL "pipesim ${VERSION} makespan 66\n")
  message(FATAL_ERROR "the consumer printed '${out}', not 'pipesim ${VERSION} makespan 66'")
endif()

run("${CMAKE_COMMAND}" -S "${SOURCE}/tests/consumer" -B "${WORK}/subproject" -DPIPESIM_AS=subproject
    "-DPIPESIM_SOURCE=${SOURCE}")
message(STATUS "find_package(pipesim) consumer printed: ${out}")
