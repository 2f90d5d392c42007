# Mode 2: the module inside an ns-3 (>= 3.36) source tree, as contrib/rdma.
# Declares the library, its tests and examples through ns-3's own build_lib /
# build_lib_example, from the shared file list. Never calls project().
include(${CMAKE_CURRENT_LIST_DIR}/module-files.cmake)
rdma_read_module_files(${CMAKE_CURRENT_LIST_DIR}/module-files.txt)

set(_rdma_libs "")
foreach(_dep IN LISTS RDMA_DEPENDENCIES)
  if(NOT "${lib${_dep}}" IN_LIST RDMA_NS3_LIBRARIES)
    message(FATAL_ERROR "contrib/rdma/CMakeLists.txt: RDMA_NS3_LIBRARIES lacks \${lib${_dep}}, "
                        "listed in ns3-module/module-files.txt [dependencies]")
  endif()
  list(APPEND _rdma_libs "${lib${_dep}}")
endforeach()
list(LENGTH _rdma_libs _n_listed)
list(LENGTH RDMA_NS3_LIBRARIES _n_literal)
if(NOT _n_listed EQUAL _n_literal)
  message(FATAL_ERROR "contrib/rdma/CMakeLists.txt: RDMA_NS3_LIBRARIES (${RDMA_NS3_LIBRARIES}) "
                      "differs from ns3-module/module-files.txt [dependencies] (${RDMA_DEPENDENCIES})")
endif()

find_package(ZLIB REQUIRED)
find_package(Boost REQUIRED COMPONENTS program_options)

build_lib(
  LIBNAME rdma
  SOURCE_FILES ${RDMA_SOURCES}
  HEADER_FILES ${RDMA_HEADERS}
  LIBRARIES_TO_LINK ${_rdma_libs} ZLIB::ZLIB Boost::program_options
  TEST_SOURCES ${RDMA_TEST_SOURCES}
)
# Test data lives beside the sources; the suites find it through this path.
if(TARGET ${testrdma})
  target_compile_definitions(${testrdma} PRIVATE RDMA_TEST_DATA_DIR="${CMAKE_CURRENT_SOURCE_DIR}/test/data")
endif()

if(ENABLE_EXAMPLES)
  # build_lib_example files each example under BLIB_LIBNAME's module, which is
  # what ns3's --filter-module-examples-and-tests=rdma selects on.
  set(BLIB_LIBNAME rdma)
  foreach(_example IN LISTS RDMA_EXAMPLES)
    build_lib_example(
      NAME ${_example}
      SOURCE_FILES ${RDMA_EXAMPLE_${_example}_SOURCES}
      LIBRARIES_TO_LINK ${librdma} ${_rdma_libs}
    )
  endforeach()
endif()
