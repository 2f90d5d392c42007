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

if(NS3_STATIC)
  # ns-3's static build links its programs with -static: archives only
  # (ZLIB_USE_STATIC_LIBS needs CMake >= 3.24).
  set(ZLIB_USE_STATIC_LIBS ON)
  set(Boost_USE_STATIC_LIBS ON)
endif()
find_package(ZLIB REQUIRED)
find_package(Boost REQUIRED COMPONENTS program_options)
# Chakra's et_def.proto, compiled here (RDMA_CHAKRA_GEN_DIR).
include(${CMAKE_CURRENT_LIST_DIR}/chakra-proto.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/find-metis.cmake)
if(NS3_STATIC)
  rdma_find_metis(STATIC_OPTIONAL)
else()
  rdma_find_metis()
endif()
# With NS3_STATIC or NS3_MONOLIB, ns-3 links every module's libraries into
# one library made in its src/ folder, where targets imported here are not
# visible: make them global (CMake >= 3.11).
foreach(_imported ZLIB::ZLIB Boost::program_options)
  get_target_property(_is_global ${_imported} IMPORTED_GLOBAL)
  if(NOT _is_global)
    set_target_properties(${_imported} PROPERTIES IMPORTED_GLOBAL TRUE)
  endif()
endforeach()

# ns-3 configured with MPI (./ns3 configure --enable-mpi: NS3_MPI, and
# ENABLE_MPI once MPI was found) builds its mpi module: the [mpi] sources
# (distributed runs, doc/mpi.rst) join the library and link it. Its library
# variable is named through a variable: ns-3's text scan of CMakeLists files
# must not make mpi a dependency of builds without MPI.
set(_rdma_mpi_libs "")
if(ENABLE_MPI)
  set(_rdma_mpi_module mpi)
  list(APPEND RDMA_SOURCES ${RDMA_MPI_SOURCES})
  list(APPEND RDMA_HEADERS ${RDMA_MPI_HEADERS})
  set(_rdma_mpi_libs "${lib${_rdma_mpi_module}}" ${MPI_CXX_LIBRARIES})
endif()

# build_lib writes a stub per header (build/include/ns3/NAME: #include of
# the header's absolute path) only where none is: a header that moved (the
# model's layer folders) would still include its old path. Remove the stubs
# that name another path, so build_lib writes them again.
foreach(_hdr IN LISTS RDMA_HEADERS)
  get_filename_component(_name "${_hdr}" NAME)
  get_filename_component(_abs "${CMAKE_CURRENT_SOURCE_DIR}/${_hdr}" ABSOLUTE)
  set(_stub "${CMAKE_HEADER_OUTPUT_DIRECTORY}/${_name}")
  if(EXISTS "${_stub}")
    file(READ "${_stub}" _text)
    if(NOT _text STREQUAL "#include \"${_abs}\"\n")
      file(REMOVE "${_stub}")
    endif()
  endif()
endforeach()

build_lib(
  LIBNAME rdma
  SOURCE_FILES ${RDMA_SOURCES} ${RDMA_CHAKRA_GEN_DIR}/et_def.pb.cc
  HEADER_FILES ${RDMA_HEADERS}
  LIBRARIES_TO_LINK ${_rdma_libs} ${_rdma_mpi_libs} ZLIB::ZLIB Boost::program_options rdma-metis
                    ${Protobuf_LIBRARIES}
  TEST_SOURCES ${RDMA_TEST_SOURCES}
)
# Shipped data (flow-size CDFs) and the ns-3 version for summary.json.
if(DEFINED NS3_VER)
  set(_rdma_ns3_version "${NS3_VER}")
else()
  set(_rdma_ns3_version "source tree")
endif()
foreach(_t ${librdma} ${librdma}-obj)
  if(TARGET ${_t})
    target_compile_definitions(${_t} PRIVATE RDMA_DATA_DIR="${CMAKE_CURRENT_SOURCE_DIR}/data"
                               RDMA_NS3_VERSION="${_rdma_ns3_version}")
    target_include_directories(${_t} SYSTEM PRIVATE ${RDMA_CHAKRA_GEN_DIR} ${Protobuf_INCLUDE_DIRS})
    if(RDMA_METIS_MISSING)
      target_compile_definitions(${_t} PRIVATE RDMA_NO_METIS)
    endif()
    if(ENABLE_MPI)
      # ns-3.37 does not install its MPI simulators' headers;
      # model/core/rdma-mpi-simulator-impl.h derives from them.
      target_include_directories(${_t} PRIVATE "${PROJECT_SOURCE_DIR}/src/mpi/model")
    endif()
  endif()
endforeach()
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
      LIBRARIES_TO_LINK ${librdma} ${_rdma_libs} ${_rdma_mpi_libs}
    )
  endforeach()
endif()
