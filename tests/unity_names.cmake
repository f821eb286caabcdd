# The Catch2 suite builds as a unity build (tests/CMakeLists.txt): files of one batch share a translation
# unit, so two files' file-local helpers of one name would clash, or, with different parameters, quietly
# become overloads of each other. This check (a CTest) fails when two test files define a function of the
# same name at file level, naming the files. Usage: cmake -DDIR=<tests folder> -P unity_names.cmake
file(GLOB files "${DIR}/test_*.cpp" "${DIR}/main.cpp")
set(clashes "")
foreach(file IN LISTS files)
  get_filename_component(base "${file}" NAME)
  # A definition at the start of a line: a return type (or auto), the name, its parameters.
  file(STRINGS "${file}" lines REGEX "^(template *<.*> *)?(static |inline |constexpr |\\[\\[nodiscard\\]\\] )*[A-Za-z_][A-Za-z0-9_:<>, ]*[ *&]+[A-Za-z_][A-Za-z0-9_]* *\\(")
  foreach(line IN LISTS lines)
    string(REGEX MATCH "[A-Za-z_][A-Za-z0-9_]* *\\(" name "${line}")
    string(REGEX REPLACE " *\\($" "" name "${name}")
    if(name MATCHES "^(TEST_CASE|SCENARIO|TEMPLATE_TEST_CASE|main|if|for|while|switch|return)$")
      continue()
    endif()
    if(DEFINED seen_${name} AND NOT seen_${name} STREQUAL base)
      string(APPEND clashes "\n  ${name}: ${seen_${name}} and ${base}")
    endif()
    set(seen_${name} "${base}")
  endforeach()
endforeach()
if(clashes)
  message(FATAL_ERROR "test files define helpers of the same name, which a unity build puts side by side; give each its own name, or define a shared one once in tests/helpers.h or tests/cli_run.h:${clashes}")
endif()
list(LENGTH files count)
message(STATUS "${count} test files, no helper name defined in two of them")
