# METIS 5.1 (Debian 12: libmetis-dev), the graph partitioner behind the rank
# map of distributed runs (helper/parallel/rdma-partition-metis.cc; doc/mpi.rst,
# "Partitioning"). rdma_find_metis() defines the imported target rdma-metis
# (global: ns-3's NS3_STATIC/NS3_MONOLIB builds link the module's libraries
# from another folder), or stops the configuration naming the package.
#
# ns-3's static build (NS3_STATIC, make bench) links its programs with
# -static: archives only, and Debian ships libmetis as a shared library
# only. Without a libmetis.a, rdma_find_metis(STATIC_OPTIONAL) leaves
# rdma-metis an empty target and sets RDMA_METIS_MISSING: the module is
# then compiled with RDMA_NO_METIS, where RdmaPartition::Metis refuses
# with the reason. That build has no MPI (one rank: the partition is never
# computed), so nothing it runs needs METIS.
function(rdma_find_metis)
  cmake_parse_arguments(_arg "STATIC_OPTIONAL" "" "" ${ARGN})
  find_path(RDMA_METIS_INCLUDE_DIR metis.h)
  if(_arg_STATIC_OPTIONAL)
    find_library(RDMA_METIS_LIBRARY NAMES libmetis.a)
  else()
    find_library(RDMA_METIS_LIBRARY metis)
  endif()
  if(RDMA_METIS_INCLUDE_DIR AND RDMA_METIS_LIBRARY)
    add_library(rdma-metis UNKNOWN IMPORTED GLOBAL)
    set_target_properties(rdma-metis PROPERTIES IMPORTED_LOCATION "${RDMA_METIS_LIBRARY}"
                          INTERFACE_INCLUDE_DIRECTORIES "${RDMA_METIS_INCLUDE_DIR}")
    message(STATUS "rdma: METIS ${RDMA_METIS_LIBRARY}")
    set(RDMA_METIS_MISSING OFF PARENT_SCOPE)
  elseif(_arg_STATIC_OPTIONAL)
    add_library(rdma-metis INTERFACE IMPORTED GLOBAL)
    # One string: ns-3's message() wrapper joins several arguments with ";".
    string(CONCAT _text "rdma: no static libmetis.a (Debian's libmetis-dev is shared only): "
                        "this static build refuses sim.partitionRule = metis (it has one rank)")
    message(STATUS "${_text}")
    set(RDMA_METIS_MISSING ON PARENT_SCOPE)
  else()
    string(CONCAT _text "METIS (metis.h and libmetis) was not found; the rank map of "
                        "distributed runs needs it. On Debian 12: apt-get install libmetis-dev "
                        "(or run scripts/install-deps.sh).")
    message(FATAL_ERROR "${_text}")
  endif()
endfunction()
