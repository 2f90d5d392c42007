# rdma-test-runner (main = ns3::TestRunner::Run) and one CTest per TestSuite.
# The suites are discovered whenever the runner is rebuilt (its --list output)
# so a new suite is registered without editing any list; CTest reads the
# generated file through TEST_INCLUDE_FILES, as gtest_discover_tests does.
set(_test_srcs ${RDMA_TEST_SOURCES})
list(TRANSFORM _test_srcs PREPEND ${PROJECT_SOURCE_DIR}/)
add_executable(rdma-test-runner ${PROJECT_SOURCE_DIR}/test/rdma-test-runner.cc ${_test_srcs})
target_link_libraries(rdma-test-runner PRIVATE ns3-rdma rdma-flags)
target_compile_definitions(rdma-test-runner PRIVATE
                           RDMA_TEST_DATA_DIR="${PROJECT_SOURCE_DIR}/test/data")
set_target_properties(rdma-test-runner PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/test)

set(_suites_file ${PROJECT_BINARY_DIR}/rdma-test-suites.cmake)
add_custom_command(
  OUTPUT ${_suites_file}
  COMMAND ${CMAKE_COMMAND} -D RUNNER=$<TARGET_FILE:rdma-test-runner>
          -D OUTPUT=${_suites_file} -P ${CMAKE_CURRENT_LIST_DIR}/discover-suites.cmake
  DEPENDS rdma-test-runner ${CMAKE_CURRENT_LIST_DIR}/discover-suites.cmake
  COMMENT "Discovering rdma TestSuites"
  VERBATIM)
add_custom_target(rdma-test-suites ALL DEPENDS ${_suites_file})
set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES ${_suites_file})

# Each example also runs as a test (it must exit 0); rdma-sim runs its
# embedded default experiment into the build folder, rdma-partition-report
# the HPCC paper's fat tree at 2, 4 and 8 ranks (doc/mpi.rst, "Partitioning").
foreach(_example IN LISTS RDMA_EXAMPLES)
  if(TARGET ${_example})
    set(_args "")
    if(_example STREQUAL "rdma-sim")
      set(_args --quiet --force --output.dir=${PROJECT_BINARY_DIR}/example-out/rdma-sim)
    elseif(_example STREQUAL "rdma-partition-report")
      set(_args ${PROJECT_SOURCE_DIR}/data/topology/fat.txt 2 4 8)
    endif()
    add_test(NAME example/${_example} COMMAND ${_example} ${_args}
             WORKING_DIRECTORY ${PROJECT_BINARY_DIR})
  endif()
endforeach()

# ns-3.37's runner prints its usage and exits 0 on an unknown flag; every
# suite's test fails on that text. This test proves the guard: a misspelt
# flag must be reported as a failure (WILL_FAIL inverts the result).
add_test(NAME runner-rejects-unknown-flag COMMAND rdma-test-runner --suiet=rdma-header)
set_tests_properties(runner-rejects-unknown-flag PROPERTIES
                     FAIL_REGULAR_EXPRESSION "Usage: " WILL_FAIL TRUE)
