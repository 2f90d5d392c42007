# libFuzzer harnesses (test/fuzz/fuzz-<name>.cc, one program each, in
# <build>/fuzz/), built when RDMA_FUZZ is on with clang's -fsanitize=fuzzer
# over the sanitized library; scripts/run-fuzz.sh runs them on their seed
# corpora (test/fuzz/corpus/<name>/).
if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  message(FATAL_ERROR "RDMA_FUZZ needs clang (libFuzzer): configure with CXX=clang++")
endif()
file(GLOB _fuzz_srcs ${PROJECT_SOURCE_DIR}/test/fuzz/fuzz-*.cc)
foreach(_src IN LISTS _fuzz_srcs)
  get_filename_component(_name ${_src} NAME_WE)
  add_executable(${_name} ${_src})
  target_link_libraries(${_name} PRIVATE ns3-rdma rdma-flags)
  target_link_options(${_name} PRIVATE -fsanitize=fuzzer)
  set_target_properties(${_name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/fuzz)
endforeach()
