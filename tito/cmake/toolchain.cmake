# Writes <build>/tito/toolchain.json: everything tito needs to compile a learner's files and a
# module's tests against this build of the framework without running CMake again (read by
# load_toolchain, tito/src/build/toolchain.cpp). Building `tito` builds the libraries it names.
# The compiler is the one this build was configured with (CXX=clang++ scripts/setup picks Clang):
# learner code must be compiled by the compiler that built the given libraries it links with.
find_package(Catch2 REQUIRED)

find_program(TITO_NINJA NAMES ninja ninja-build)
if(NOT TITO_NINJA)
  message(WARNING "ninja was not found: `tito module test` needs it. Install it (sudo apt-get install ninja-build) and re-run the set-up.")
  set(TITO_NINJA ninja)
endif()

# Learners get an optimised build with their asserts kept (no -DNDEBUG), and the warnings we hold
# the framework to, minus the one that starter stubs trigger by design.
set(tito_cxx_flags -std=c++17)
if(CMAKE_BUILD_TYPE STREQUAL "Debug")
  list(APPEND tito_cxx_flags -O0 -g)
else()
  # -g1: line tables only (cheap), so tito can name the learner's file and line where a test hung
  # or crashed (tito/src/run/stack_location.h).
  list(APPEND tito_cxx_flags -O2 -g1)
  # GCC's -O2 vectorises only loops whose trip count and operands it knows at compile time; a
  # learner's loop over n elements of two pointers stays scalar (module 01's mm: 4x slower). -O3's
  # cost model lets it vectorise them, with a run-time overlap check. Clang's -O2 already does.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    list(APPEND tito_cxx_flags -fvect-cost-model=dynamic)
  endif()
endif()
list(APPEND tito_cxx_flags -Wall -Wextra -Wno-unused-parameter)
set(tito_link_flags -pthread -lz -lOpenCL)  # -lz: the MNIST reader in tinytorch_given uses zlib; OpenCL: module 22
# Link flags that belong to one module: keep the objects nothing names (module 06's engine
# registration; framework/CMakeLists.txt). tito adds them only when the module is part of the build.
get_property(tito_module_keep_symbols GLOBAL PROPERTY TINYTORCH_MODULE_KEEP_SYMBOLS)
# A module may have several entries; each module is one JSON key with all its flags.
set(tito_module_link_entries "")
set(tito_keep_modules "")
foreach(entry ${tito_module_keep_symbols})
  string(REGEX MATCH "^[0-9]+" module "${entry}")
  string(REGEX REPLACE "^[0-9]+=" "" symbol "${entry}")
  list(APPEND tito_keep_modules ${module})
  list(APPEND tito_keep_flags_${module} "\"-Wl,-u,${symbol}\"")
endforeach()
list(REMOVE_DUPLICATES tito_keep_modules)
foreach(module ${tito_keep_modules})
  string(JOIN ", " flags ${tito_keep_flags_${module}})
  list(APPEND tito_module_link_entries "\"${module}\": [${flags}]")
endforeach()
string(JOIN ",\n    " tito_module_link_json ${tito_module_link_entries})
if(TINYTORCH_SANITIZE)
  list(APPEND tito_cxx_flags ${TINYTORCH_SANITIZE_FLAGS})  # -g1 above names file and line
  list(APPEND tito_link_flags ${TINYTORCH_SANITIZE_FLAGS})
  set(tito_sanitized true)
else()
  set(tito_sanitized false)
endif()

# Every module with learner files has a reference solution library (framework/CMakeLists.txt).
get_property(tito_solution_modules GLOBAL PROPERTY TINYTORCH_SOLUTION_MODULES)
set(tito_libraries tito_catch_main tinytorch_given)
set(tito_solution_entries "")
foreach(number ${tito_solution_modules})
  list(APPEND tito_solution_entries "\"${number}\": \"$<TARGET_FILE:tinytorch_solution_${number}>\"")
  list(APPEND tito_libraries tinytorch_solution_${number})
endforeach()
string(JOIN ",\n    " tito_solution_json ${tito_solution_entries})

set(tito_given_lib "$<TARGET_FILE:tinytorch_given>")
# The include directories and definitions the framework's own sources compile with.
set(tito_framework_includes "$<JOIN:$<TARGET_PROPERTY:tinytorch_given,INCLUDE_DIRECTORIES>,\"$<COMMA> \">")
set(tito_given_defines "$<TARGET_PROPERTY:tinytorch_given,INTERFACE_COMPILE_DEFINITIONS>")
set(tito_framework_defines
  "$<$<BOOL:${tito_given_defines}>:$<COMMA> \"-D$<JOIN:${tito_given_defines},\"$<COMMA> \"-D>\">")

function(tito_json_array out)
  set(items "")
  foreach(item ${ARGN})
    string(REPLACE "\\" "\\\\" item "${item}")
    string(REPLACE "\"" "\\\"" item "${item}")
    list(APPEND items "\"${item}\"")
  endforeach()
  string(JOIN ", " joined ${items})
  set(${out} "[${joined}]" PARENT_SCOPE)
endfunction()

tito_json_array(tito_cxx_flags_json ${tito_cxx_flags})
tito_json_array(tito_link_flags_json ${tito_link_flags})
tito_json_array(tito_include_json ${PROJECT_SOURCE_DIR}/framework/include ${PROJECT_SOURCE_DIR}/curriculum/common/include)
# Splice the generator-expression parts into the JSON arrays.
string(REGEX REPLACE "\\]$" "${tito_framework_defines}]" tito_cxx_flags_json "${tito_cxx_flags_json}")
string(REGEX REPLACE "\\]$"
  ", \"${tito_framework_includes}\", \"$<JOIN:$<TARGET_PROPERTY:Catch2::Catch2,INTERFACE_INCLUDE_DIRECTORIES>,\"$<COMMA> \">\"]"
  tito_include_json "${tito_include_json}")

# Milestone programs and module tests are given code: compiled here once, with exactly the learner
# builds' flags, so that a milestone's first run, and every `tito module test`, validation and grading
# run, only links them to the learner's objects. tito uses such an object while it is newer than its
# source and the learner build's compiler is this one (prebuilt_object, tito/src/build/ninja_file.cpp).
set(tito_program_objects "")
set(tito_program_entries "")
function(tito_compile_given_program source object_relative)
  set(object ${PROJECT_BINARY_DIR}/tito/given_objects/${object_relative})
  get_filename_component(object_dir ${object} DIRECTORY)
  file(MAKE_DIRECTORY ${object_dir})
  file(RELATIVE_PATH label ${PROJECT_SOURCE_DIR} ${source})
  add_custom_command(OUTPUT ${object}
    COMMAND ${CMAKE_CXX_COMPILER} ${tito_cxx_flags} -I${PROJECT_SOURCE_DIR}/framework/include
            -I${PROJECT_SOURCE_DIR}/curriculum/common/include -MD -MF ${object}.d -c ${source} -o ${object}
    DEPENDS ${source} DEPFILE ${object}.d
    COMMENT "Compiling ${label} for tito's learner builds" VERBATIM)
  set(tito_program_objects ${tito_program_objects} ${object} PARENT_SCOPE)
  set(tito_program_entries ${tito_program_entries} "\"${source}\": \"${object}\"" PARENT_SCOPE)
endfunction()

file(GLOB tito_milestone_programs CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/milestones/[0-9][0-9]_*/*.cpp)
foreach(program ${tito_milestone_programs})
  file(RELATIVE_PATH relative ${PROJECT_SOURCE_DIR} ${program})
  string(REGEX REPLACE "[.]cpp$" ".o" object_relative "${relative}")
  tito_compile_given_program(${program} ${object_relative})
endforeach()

# Each module's tests (curriculum.json), and the reference test executable curriculum_NN_reference
# built from the same objects: the module's tests against the reference framework, which must pass
# them (ctest curriculum_NN_reference).
file(READ ${TINYTORCH_CURRICULUM_JSON} tito_curriculum_json)
string(JSON tito_module_count LENGTH "${tito_curriculum_json}" modules)
math(EXPR tito_last_module "${tito_module_count} - 1")
foreach(index RANGE ${tito_last_module})
  string(JSON number GET "${tito_curriculum_json}" modules ${index} number)
  string(JSON tests ERROR_VARIABLE no_tests GET "${tito_curriculum_json}" modules ${index} tests)
  if(no_tests)
    continue()
  endif()
  string(JSON test_count LENGTH "${tito_curriculum_json}" modules ${index} tests)
  set(test_objects "")
  set(module_tests "")
  math(EXPR last_test "${test_count} - 1")
  foreach(test_index RANGE ${last_test})
    string(JSON test GET "${tito_curriculum_json}" modules ${index} tests ${test_index})
    list(APPEND module_tests ${test})
    if(NOT EXISTS ${PROJECT_SOURCE_DIR}/${test})
      message(FATAL_ERROR "curriculum.json: module ${number} lists the test file ${test}, which does not exist")
    endif()
    string(REGEX REPLACE "[.]cpp$" ".o" object_relative "${test}")
    tito_compile_given_program(${PROJECT_SOURCE_DIR}/${test} ${object_relative})
    list(APPEND test_objects ${PROJECT_BINARY_DIR}/tito/given_objects/${object_relative})
  endforeach()
  if(NOT test_objects)
    continue()
  endif()
  add_executable(curriculum_${number}_reference ${test_objects})
  target_link_libraries(curriculum_${number}_reference PRIVATE tito_catch_main tinytorch::tinytorch)
  set_target_properties(curriculum_${number}_reference PROPERTIES
    RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/curriculum LINKER_LANGUAGE CXX)
  set_property(GLOBAL APPEND PROPERTY TINYTORCH_CURRICULUM_REFERENCE_PROGRAMS curriculum_${number}_reference)
  if(TINYTORCH_BUILD_TESTS)
    # A module whose tests need an OpenCL device (module 22) runs only where one exists, and is reported
    # skipped elsewhere (label needs_opencl: scripts/test --require needs_opencl insists that it ran).
    set(needs_opencl FALSE)
    foreach(test ${module_tests})
      file(STRINGS ${PROJECT_SOURCE_DIR}/${test} opencl_cases REGEX "REQUIRE_OPENCL_DEVICE\\(\\)")
      if(opencl_cases)
        set(needs_opencl TRUE)
      endif()
    endforeach()
    set(labels sanitize)
    if(needs_opencl)
      set_property(GLOBAL APPEND PROPERTY TINYTORCH_OPENCL_MODULES ${number})  # tests/CMakeLists.txt reads it
      add_test(NAME curriculum_${number}_reference
               COMMAND ${PROJECT_SOURCE_DIR}/tests/run_if_opencl.sh $<TARGET_FILE:curriculum_${number}_reference>)
      set_tests_properties(curriculum_${number}_reference PROPERTIES SKIP_RETURN_CODE 77)
      list(APPEND labels needs_opencl)
    else()
      add_test(NAME curriculum_${number}_reference COMMAND curriculum_${number}_reference)
    endif()
    # Modules with cases tagged [threads] (module 17's threaded GEMM) run under the ThreadSanitizer leg too.
    foreach(test ${module_tests})
      file(STRINGS ${PROJECT_SOURCE_DIR}/${test} threaded_cases REGEX "\\[threads\\]")
      if(threaded_cases)
        list(APPEND labels threads)
        set_property(GLOBAL APPEND PROPERTY TINYTORCH_THREADED_REFERENCE_PROGRAMS curriculum_${number}_reference)
      endif()
    endforeach()
    set_tests_properties(curriculum_${number}_reference PROPERTIES LABELS "${labels}")
  endif()
endforeach()

add_custom_target(tito_given_program_objects ALL DEPENDS ${tito_program_objects})
string(JOIN ",\n    " tito_program_json ${tito_program_entries})

file(GENERATE OUTPUT ${PROJECT_BINARY_DIR}/tito/toolchain.json CONTENT "{
  \"cxx\": \"${CMAKE_CXX_COMPILER}\",
  \"cxx_id\": \"${CMAKE_CXX_COMPILER_ID}\",
  \"cxx_version\": \"${CMAKE_CXX_COMPILER_VERSION}\",
  \"cxx_flags\": ${tito_cxx_flags_json},
  \"link_flags\": ${tito_link_flags_json},
  \"module_link_flags\": {
    ${tito_module_link_json}
  },
  \"include_dirs\": ${tito_include_json},
  \"given_lib\": \"${tito_given_lib}\",
  \"solution_libs\": {
    ${tito_solution_json}
  },
  \"catch_main_lib\": \"$<TARGET_FILE:tito_catch_main>\",
  \"program_objects\": {
    ${tito_program_json}
  },
  \"program_objects_cxx\": \"${CMAKE_CXX_COMPILER}\",
  \"ninja\": \"${TITO_NINJA}\",
  \"sanitized\": ${tito_sanitized}
}
")

add_dependencies(tito ${tito_libraries} tito_given_program_objects)
