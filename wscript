# -*- Mode: python; py-indent-offset: 4; indent-tabs-mode: nil; coding: utf-8; -*-
#
# The rdma module for waf-era ns-3 source trees (<= 3.35), placed as
# contrib/rdma (ns3-module/install-into-ns3.sh does that).  ns-3's
# contrib/wscript recurses here for configure() and build().
#
# Every file name comes from ns3-module/module-files.txt, the list the CMake
# builds read too, through ns3-module/module_files.py.  Waf loads this file
# with exec() and no __file__, so paths are found from ctx.path, the node of
# the folder this wscript sits in.

import os

MODULE = 'rdma'
# Chakra's schema (MLCommons Chakra, schema/protobuf/et_def.proto) and the
# source protoc makes of it.
PROTO = 'helper/workload/chakra/et_def.proto'
PROTO_CC = 'helper/workload/chakra/et_def.pb.cc'


def _load_reader(top):
    """Import ns3-module/module_files.py from this module's tree by path.

    By path and under a private name, so another module's helper of the same
    name on sys.path can never be picked up instead.
    """
    path = os.path.join(top, 'ns3-module', 'module_files.py')
    try:
        from importlib.util import module_from_spec, spec_from_file_location
    except ImportError:  # Python 2 or < 3.5 (waf-era ns-3 ran waf under both)
        import imp
        return imp.load_source('ns3_rdma_module_files', path)
    spec = spec_from_file_location('ns3_rdma_module_files', path)
    reader = module_from_spec(spec)
    spec.loader.exec_module(reader)
    return reader


def _module_files(ctx):
    """The parsed list; a mistake in it stops waf with the file and line."""
    top = ctx.path.abspath()
    reader = _load_reader(top)
    try:
        return reader.read_module_files(os.path.join(top, 'ns3-module', 'module-files.txt'))
    except reader.ModuleFilesError as err:
        ctx.fatal('%s module: %s' % (MODULE, err))


def configure(conf):
    # Read the list now so a bad entry is reported at configure time.
    _module_files(conf)

    # zlib computes the RoCEv2 ICRC (crc32).  pkg-config first; without it,
    # a compile-and-link check of zlib.h / -lz fills the same ZLIB uselib.
    have_zlib = conf.check_cfg(package='zlib', uselib_store='ZLIB',
                               args=['--cflags', '--libs'], mandatory=False)
    if not have_zlib:
        have_zlib = conf.check(header_name='zlib.h', lib='z', uselib_store='ZLIB',
                               mandatory=False)
    # Boost.Program_options reads experiment configs (helper/config/rdma-config);
    # Boost ships no pkg-config file, so a compile-and-link check.
    have_boost = conf.check(header_name='boost/program_options.hpp',
                            lib='boost_program_options', features='cxx cxxprogram',
                            uselib_store='BOOST_PO', mandatory=False)
    # METIS 5.1 computes the rank map of distributed runs
    # (helper/parallel/rdma-partition-metis.cc); no pkg-config file either.
    have_metis = conf.check(header_name='metis.h', lib='metis', features='cxx cxxprogram',
                            uselib_store='METIS', mandatory=False)
    # Protocol Buffers read Chakra execution traces (helper/workload/
    # rdma-chakra-trace.cc); protoc compiles their schema at build time.
    have_protobuf = conf.check(header_name='google/protobuf/message_lite.h', lib='protobuf',
                               features='cxx cxxprogram', uselib_store='PROTOBUF',
                               mandatory=False)
    have_protoc = conf.find_program('protoc', var='PROTOC', mandatory=False)
    missing = []
    if not have_zlib:
        missing.append('zlib not found (Debian: apt-get install zlib1g-dev)')
    if not have_boost:
        missing.append('Boost.Program_options not found '
                       '(Debian: apt-get install libboost-program-options-dev)')
    if not have_metis:
        missing.append('METIS not found (Debian: apt-get install libmetis-dev)')
    if not have_protobuf or not have_protoc:
        missing.append('Protocol Buffers not found '
                       '(Debian: apt-get install libprotobuf-dev protobuf-compiler)')
    conf.env['ENABLE_RDMA'] = not missing
    conf.report_optional_feature('rdma', 'RDMA (RoCEv2) module', not missing,
                                 '; '.join(missing))
    if missing:
        # As other ns-3 modules with a missing library do: skip the module,
        # keep the rest of the tree buildable.
        conf.env.append_value('MODULES_NOT_BUILT', MODULE)


def build(bld):
    if MODULE in bld.env['MODULES_NOT_BUILT']:
        return

    files = _module_files(bld)
    deps = list(files.dependencies)

    # Chakra's execution-trace schema, compiled by protoc into the build
    # folder (helper/workload/chakra/et_def.pb.cc and .h).
    bld(rule='${PROTOC} --cpp_out=${TGT[0].parent.abspath()} '
             '-I${SRC[0].parent.abspath()} ${SRC[0].abspath()}',
        source=PROTO, target=[PROTO_CC, PROTO_CC[:-3] + '.h'])

    module = bld.create_ns3_module(MODULE, deps)
    module.source = list(files.sources) + [PROTO_CC]
    module.use += ['ZLIB', 'BOOST_PO', 'METIS', 'PROTOBUF']
    # Relative includes are looked up in the build folder too: et_def.pb.h.
    module.includes = [os.path.dirname(PROTO)]

    # Shipped data (flow-size CDFs) and the ns-3 version for summary.json.
    module.env.append_value('DEFINES', [
        'RDMA_DATA_DIR="%s"' % os.path.join(bld.path.abspath(), 'data'),
        'RDMA_NS3_VERSION="%s"' % bld.env['VERSION'] if bld.env['VERSION'] else
        'RDMA_NS3_VERSION="waf tree"'])

    module_test = bld.create_ns3_module_test_library(MODULE)
    module_test.source = list(files.tests)
    module_test.use += ['ZLIB', 'BOOST_PO', 'METIS', 'PROTOBUF']
    # The suites read their vectors from test/data (see "#ifdef
    # RDMA_TEST_DATA_DIR" in the tests); waf passes each define as one
    # argument, so the quotes reach the compiler and make a string literal.
    data_dir = os.path.join(bld.path.abspath(), 'test', 'data')
    module_test.env.append_value('DEFINES', 'RDMA_TEST_DATA_DIR="%s"' % data_dir)

    headers = bld(features='ns3header')
    headers.module = MODULE
    headers.source = list(files.headers)

    if bld.env['ENABLE_EXAMPLES']:
        for name, sources in files.examples.items():
            program = bld.create_ns3_program(name, [MODULE] + deps)
            program.source = list(sources)
            program.use.append('BOOST_PO')  # rdma-sim's command line

    # No bld.ns3_python_bindings(): waf-era bindings are pybindgen API scans
    # (bindings/modulegen__*.py) and this module's bindings/ is pybind11.
