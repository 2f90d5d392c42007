# Chakra's execution-trace schema (helper/workload/chakra/et_def.proto, read
# by helper/workload/rdma-chakra-trace.cc) compiled by protoc at build time,
# with Debian's protobuf-compiler and libprotobuf-dev, into
# RDMA_CHAKRA_GEN_DIR (et_def.pb.cc and .h). Both builds that use CMake
# include this file: standalone-build.cmake calls
#   rdma_chakra_proto(TARGET)  the generated source added to TARGET, its
#                              folder to TARGET's includes (a system folder:
#                              generated code is not held to the module's
#                              warnings) and libprotobuf to its libraries;
# contrib-build.cmake passes the same to ns-3's build_lib.
if(NS3_STATIC)
  set(Protobuf_USE_STATIC_LIBS ON)
endif()
find_package(Protobuf REQUIRED)
if(NOT Protobuf_PROTOC_EXECUTABLE)
  message(FATAL_ERROR "protoc was not found. On Debian 12: apt-get install protobuf-compiler "
                      "libprotobuf-dev (or run scripts/install-deps.sh).")
endif()
set(RDMA_CHAKRA_PROTO_DIR ${CMAKE_CURRENT_LIST_DIR}/../helper/workload/chakra)
set(RDMA_CHAKRA_GEN_DIR ${CMAKE_CURRENT_BINARY_DIR}/rdma-chakra-gen)
file(MAKE_DIRECTORY ${RDMA_CHAKRA_GEN_DIR}/proto)
# Compiled for protobuf's lite runtime: the reader only parses, and the full
# runtime's descriptors and reflection ran at every start of a program that
# links it (a million instructions of static initialization, Chakra
# workload or not) and made the static benchmark build 2 MB larger. The
# option goes into a copy of the schema, so the published file stays as it
# is; the copy is rewritten only when it changes (no protoc run otherwise).
file(READ ${RDMA_CHAKRA_PROTO_DIR}/et_def.proto _rdma_et_def)
file(WRITE ${RDMA_CHAKRA_GEN_DIR}/et_def.proto.new
     "${_rdma_et_def}\n// Added at build time (ns3-module/chakra-proto.cmake).\n"
     "option optimize_for = LITE_RUNTIME;\n")
configure_file(${RDMA_CHAKRA_GEN_DIR}/et_def.proto.new ${RDMA_CHAKRA_GEN_DIR}/proto/et_def.proto
               COPYONLY)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
                                       ${RDMA_CHAKRA_PROTO_DIR}/et_def.proto)
add_custom_command(
  OUTPUT ${RDMA_CHAKRA_GEN_DIR}/et_def.pb.cc ${RDMA_CHAKRA_GEN_DIR}/et_def.pb.h
  COMMAND ${Protobuf_PROTOC_EXECUTABLE} --cpp_out=${RDMA_CHAKRA_GEN_DIR}
          -I${RDMA_CHAKRA_GEN_DIR}/proto ${RDMA_CHAKRA_GEN_DIR}/proto/et_def.proto
  DEPENDS ${RDMA_CHAKRA_GEN_DIR}/proto/et_def.proto
  COMMENT "protoc: Chakra's et_def.proto (lite runtime)")
set_source_files_properties(${RDMA_CHAKRA_GEN_DIR}/et_def.pb.cc PROPERTIES GENERATED TRUE
                            COMPILE_OPTIONS "-w")

function(rdma_chakra_proto target)
  target_sources(${target} PRIVATE ${RDMA_CHAKRA_GEN_DIR}/et_def.pb.cc)
  target_include_directories(${target} SYSTEM PRIVATE ${RDMA_CHAKRA_GEN_DIR}
                             ${Protobuf_INCLUDE_DIRS})
  target_link_libraries(${target} PRIVATE ${Protobuf_LIBRARIES})
endfunction()
