# `cmake --install <build>` (make install) for the standalone build: what a
# user of the module installs under CMAKE_INSTALL_PREFIX (default /usr/local):
#   lib/libns3-rdma.so, include/ns3/*.h    the module, for C++ programs
#   bin/rdma-sim                           the experiment runner
#   <RDMA_PYTHON_INSTALL_DIR>/rdmasim*.so  the Python module (bindings/)
#   share/ns3-rdma/data, .../configs       flow-size CDFs, topologies, flow
#                                          files, and the shipped experiments
# Installed programs find the library through a $ORIGIN-relative RUNPATH, so
# `cmake --install build --prefix DIR` works for any DIR.
include(GNUInstallDirs)
set(RDMA_INSTALL_SHAREDIR ${CMAKE_INSTALL_DATADIR}/ns3-rdma)

install(TARGETS ns3-rdma LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY ${RDMA_INCLUDE_DIR}/ns3 DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/data/ DESTINATION ${RDMA_INSTALL_SHAREDIR}/data)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/examples/configs/ DESTINATION ${RDMA_INSTALL_SHAREDIR}/configs)
# The library's own fallback when neither $RDMA_DATA_DIR nor the source
# tree's data/ is there (RdmaDataDir).
target_compile_definitions(ns3-rdma PRIVATE
  RDMA_INSTALLED_DATA_DIR="${CMAKE_INSTALL_FULL_DATADIR}/ns3-rdma/data")

if(RDMA_BUILD_EXAMPLES)
  file(RELATIVE_PATH _bin_to_lib ${CMAKE_INSTALL_FULL_BINDIR} ${CMAKE_INSTALL_FULL_LIBDIR})
  set_target_properties(rdma-sim PROPERTIES INSTALL_RPATH "$ORIGIN/${_bin_to_lib}")
  install(TARGETS rdma-sim RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()

if(RDMA_BUILD_PYTHON)
  # Where Debian's /usr/bin/python3 looks for packages under the prefix:
  # /usr/local/lib/python3.X/dist-packages (and /usr/lib/python3/dist-packages
  # for the prefix /usr): Debian's site.py, not the upstream site-packages.
  execute_process(
    COMMAND ${PYTHON_EXECUTABLE} -c "import sys; print('%d.%d' % sys.version_info[:2])"
    OUTPUT_VARIABLE _py_version OUTPUT_STRIP_TRAILING_WHITESPACE COMMAND_ERROR_IS_FATAL ANY)
  if(CMAKE_INSTALL_PREFIX STREQUAL "/usr")
    set(_py_dir lib/python3/dist-packages)
  else()
    set(_py_dir lib/python${_py_version}/dist-packages)
  endif()
  set(RDMA_PYTHON_INSTALL_DIR ${_py_dir} CACHE PATH
      "Where make install puts rdmasim, relative to CMAKE_INSTALL_PREFIX")
  file(RELATIVE_PATH _py_to_lib ${CMAKE_INSTALL_PREFIX}/${RDMA_PYTHON_INSTALL_DIR}
       ${CMAKE_INSTALL_FULL_LIBDIR})
  set_target_properties(rdmasim PROPERTIES INSTALL_RPATH "$ORIGIN/${_py_to_lib}")
  install(TARGETS rdmasim LIBRARY DESTINATION ${RDMA_PYTHON_INSTALL_DIR})
endif()
