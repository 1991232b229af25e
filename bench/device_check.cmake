# device_check (device_check.cpp): scripts/device-check's measuring program, linked with the reference
# tinytorch. Included by bench/ (build-bench/, where scripts/device-check builds it beside bench_opencl) and by
# tests/ (ctest's device_check_quick), whichever comes first; it lands in <build>/bench/ either way.
if(TARGET device_check)
  return()
endif()
find_package(nlohmann_json REQUIRED)  # the JSON it prints (bench/harness.h)
add_executable(device_check ${CMAKE_CURRENT_LIST_DIR}/device_check.cpp)
target_link_libraries(device_check PRIVATE tinytorch::tinytorch nlohmann_json::nlohmann_json)
set_target_properties(device_check PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/bench)
