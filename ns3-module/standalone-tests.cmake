# rdma-test-runner (main = ns3::TestRunner::Run) and one CTest per TestSuite.
# The suites are discovered after each build of the runner (its --list output)
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
  TARGET rdma-test-runner POST_BUILD
  COMMAND ${CMAKE_COMMAND} -D RUNNER=$<TARGET_FILE:rdma-test-runner>
          -D OUTPUT=${_suites_file} -P ${CMAKE_CURRENT_LIST_DIR}/discover-suites.cmake
  COMMENT "Discovering rdma TestSuites"
  VERBATIM)
set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES ${_suites_file})

# Each example also runs as a test (it must exit 0).
foreach(_example IN LISTS RDMA_EXAMPLES)
  if(TARGET ${_example})
    add_test(NAME example/${_example} COMMAND ${_example}
             WORKING_DIRECTORY ${PROJECT_BINARY_DIR})
  endif()
endforeach()
