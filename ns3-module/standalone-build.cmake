# Mode 1: the module built against an installed ns-3 (Debian 12: libns3-dev and
# ns3 3.37). Produces libns3-rdma, its headers under include/ns3/ (with the
# umbrella ns3/rdma-module.h), the examples and rdma-test-runner, with one
# CTest per TestSuite.
include(${CMAKE_CURRENT_LIST_DIR}/module-files.cmake)
rdma_read_module_files(${PROJECT_SOURCE_DIR}/ns3-module/module-files.txt)

option(RDMA_ENABLE_ASSERTS_AND_LOGS
       "Define NS3_ASSERT_ENABLE and NS3_LOG_ENABLE on the module's targets (off: faster runs)" ON)
option(RDMA_WARNINGS_AS_ERRORS "Treat warnings in the module's own code as errors" OFF)
option(RDMA_BUILD_TESTS "Build rdma-test-runner and register its suites with CTest" ON)
option(RDMA_BUILD_EXAMPLES "Build the example programs" ON)
option(RDMA_BUILD_PYTHON "Build the pybind11 module rdmasim (needs pybind11-dev, python3-dev)" ON)
option(RDMA_SANITIZE "Build every target with AddressSanitizer and UndefinedBehaviorSanitizer, \
the first report ending the program (-fno-sanitize-recover=all)" OFF)
option(RDMA_FUZZ "Build the libFuzzer harnesses of test/fuzz (clang; the library gets \
-fsanitize=fuzzer-no-link coverage)" OFF)

if(NOT CMAKE_BUILD_TYPE AND NOT CMAKE_CONFIGURATION_TYPES)
  set(CMAKE_BUILD_TYPE Release CACHE STRING "Build type" FORCE)
endif()
set(CMAKE_CXX_STANDARD 17)
set(CMAKE_CXX_STANDARD_REQUIRED ON)
set(CMAKE_CXX_EXTENSIONS OFF)

# Debian's ns3Config.cmake accepts only an exact version request, so find the
# package without one and check the version here.
find_package(ns3 CONFIG QUIET)
if(NOT ns3_FOUND)
  message(FATAL_ERROR "ns-3 was not found. On Debian 12: apt-get install libns3-dev ns3 "
                      "libgsl-dev libsqlite3-dev libxml2-dev (or run scripts/install-deps.sh).")
endif()
if(ns3_VERSION VERSION_LESS 3.36)
  message(FATAL_ERROR "ns-3 ${ns3_VERSION} found at ${ns3_DIR}; the standalone build needs "
                      ">= 3.36 (use wscript for waf-era trees).")
endif()
message(STATUS "rdma: building against ns-3 ${ns3_VERSION} (${ns3_DIR})")
find_package(ZLIB REQUIRED)
find_package(Boost REQUIRED COMPONENTS program_options)
include(${CMAKE_CURRENT_LIST_DIR}/find-metis.cmake)
rdma_find_metis()

set(_ns3_targets "")
foreach(_dep IN LISTS RDMA_DEPENDENCIES)
  if(NOT TARGET ns3::lib${_dep})
    message(FATAL_ERROR "ns3-module/module-files.txt names ns-3 module '${_dep}', "
                        "but the installed ns-3 has no target ns3::lib${_dep}")
  endif()
  list(APPEND _ns3_targets ns3::lib${_dep})
endforeach()

# Headers are laid out as ns-3 installs them: <build>/include/ns3/<name>.h.
set(RDMA_INCLUDE_DIR ${PROJECT_BINARY_DIR}/include)
set(_umbrella_includes "")
foreach(_hdr IN LISTS RDMA_HEADERS)
  get_filename_component(_name ${_hdr} NAME)
  configure_file(${PROJECT_SOURCE_DIR}/${_hdr} ${RDMA_INCLUDE_DIR}/ns3/${_name} COPYONLY)
  string(APPEND _umbrella_includes "#include \"ns3/${_name}\"\n")
endforeach()
configure_file(${CMAKE_CURRENT_LIST_DIR}/rdma-module.h.in ${RDMA_INCLUDE_DIR}/ns3/rdma-module.h @ONLY)

# Flags for the module's own targets only (ns-3's headers are SYSTEM includes).
add_library(rdma-flags INTERFACE)
target_compile_options(rdma-flags INTERFACE -Wall -Wextra
                       $<$<BOOL:${RDMA_WARNINGS_AS_ERRORS}>:-Werror>)
if(RDMA_ENABLE_ASSERTS_AND_LOGS)
  target_compile_definitions(rdma-flags INTERFACE NS3_LOG_ENABLE NS3_ASSERT_ENABLE)
endif()
if(RDMA_SANITIZE)
  target_compile_options(rdma-flags INTERFACE -fsanitize=address,undefined
                         -fno-sanitize-recover=all -fno-omit-frame-pointer)
  target_link_options(rdma-flags INTERFACE -fsanitize=address,undefined)
endif()
if(RDMA_FUZZ)
  target_compile_options(rdma-flags INTERFACE -fsanitize=fuzzer-no-link)
endif()

list(TRANSFORM RDMA_SOURCES PREPEND ${PROJECT_SOURCE_DIR}/)
add_library(ns3-rdma SHARED ${RDMA_SOURCES})
target_include_directories(ns3-rdma PUBLIC $<BUILD_INTERFACE:${RDMA_INCLUDE_DIR}>)
# Boost.Program_options is public: rdma-sim parses its command line with it too.
target_link_libraries(ns3-rdma PUBLIC ${_ns3_targets} Boost::program_options PRIVATE ZLIB::ZLIB rdma-metis rdma-flags)
include(${CMAKE_CURRENT_LIST_DIR}/chakra-proto.cmake)
rdma_chakra_proto(ns3-rdma)
target_compile_definitions(ns3-rdma PRIVATE RDMA_DATA_DIR="${PROJECT_SOURCE_DIR}/data"
                           RDMA_NS3_VERSION="${ns3_VERSION}")
set_target_properties(ns3-rdma PROPERTIES LIBRARY_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/lib)

if(RDMA_BUILD_EXAMPLES)
  foreach(_example IN LISTS RDMA_EXAMPLES)
    set(_srcs ${RDMA_EXAMPLE_${_example}_SOURCES})
    list(TRANSFORM _srcs PREPEND ${PROJECT_SOURCE_DIR}/)
    add_executable(${_example} ${_srcs})
    target_link_libraries(${_example} PRIVATE ns3-rdma rdma-flags)
    set_target_properties(${_example} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/examples)
  endforeach()
endif()

# The pybind11 module rdmasim (bindings/), for Debian's /usr/bin/python3.
if(RDMA_BUILD_PYTHON)
  set(PYTHON_EXECUTABLE /usr/bin/python3 CACHE FILEPATH "Python the bindings are built for")
  find_package(pybind11 CONFIG REQUIRED)
  # NO_EXTRAS: no LTO, no stripping (the build stays quiet and debuggable).
  pybind11_add_module(rdmasim NO_EXTRAS ${PROJECT_SOURCE_DIR}/bindings/rdmasim.cc)
  target_link_libraries(rdmasim PRIVATE ns3-rdma rdma-flags)
  # Default visibility: ns-3 keeps state (the time resolution) in statics of
  # inline functions, which must be the one copy libns3-core has.
  set_target_properties(rdmasim PROPERTIES LIBRARY_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/python
                                           CXX_VISIBILITY_PRESET default)
endif()

include(${CMAKE_CURRENT_LIST_DIR}/standalone-install.cmake)

if(RDMA_BUILD_TESTS)
  enable_testing()
  include(${CMAKE_CURRENT_LIST_DIR}/standalone-tests.cmake)
endif()

if(RDMA_FUZZ)
  include(${CMAKE_CURRENT_LIST_DIR}/fuzz-targets.cmake)
endif()
