"""Tests of the waf-era build (the top-level wscript) and its list reader.

waf is not installed here, so the wscript is loaded the way waf loads it
(exec of its text into a fresh module, no __file__) and driven with recording
stand-ins for waf's configuration and build contexts, which give only what
ns-3's waf-era contrib/wscript gives a module's wscript.

Run: /usr/bin/python3 -m pytest test/python/test_wscript.py
"""

import os
import re
import shutil
import sys
import types

import pytest

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
LIST_FILE = os.path.join(TOP, 'ns3-module', 'module-files.txt')
READER_FILE = os.path.join(TOP, 'ns3-module', 'module_files.py')
WSCRIPT = os.path.join(TOP, 'wscript')


# --------------------------------------------------------------------------
# Stand-ins for waf


class FakeFatal(Exception):
    """What ctx.fatal raises (waf raises a ConfigurationError)."""


class FakeNode(object):
    def __init__(self, path):
        self._path = path

    def abspath(self):
        return self._path


class FakeEnv(dict):
    """waf's ConfigSet as a wscript sees it: a missing key reads as []."""

    def __getitem__(self, key):
        return self.get(key, [])

    def __getattr__(self, key):
        return self[key]

    def append_value(self, key, value):
        values = value if isinstance(value, list) else [value]
        self[key] = list(self.get(key, [])) + values

    def derive(self):
        return FakeEnv((k, list(v) if isinstance(v, list) else v) for k, v in self.items())


class FakeTaskGen(object):
    def __init__(self, env, **kw):
        self.env = env.derive()
        self.source = []
        self.use = []
        for key, value in kw.items():
            setattr(self, key, value)


class FakeBuild(object):
    """Records what ns-3's bld methods are asked to create."""

    def __init__(self, top, env):
        self.path = FakeNode(top)
        self.env = env
        self.modules = {}
        self.test_libraries = {}
        self.programs = {}
        self.generators = []

    def __call__(self, **kw):
        tgen = FakeTaskGen(self.env, **kw)
        self.generators.append(tgen)
        return tgen

    def create_ns3_module(self, name, dependencies=()):
        assert name not in self.modules, 'module %s declared twice' % name
        # As ns-3's create_ns3_module: "use" starts as the ns-3 dependencies.
        tgen = FakeTaskGen(self.env, name='ns3-' + name, dependencies=list(dependencies),
                           use=['ns3-' + dep for dep in dependencies])
        self.modules[name] = tgen
        return tgen

    def create_ns3_module_test_library(self, name):
        tgen = FakeTaskGen(self.env, name='ns3-%s-test' % name, use=['ns3-' + name])
        self.test_libraries[name] = tgen
        return tgen

    def create_ns3_program(self, name, dependencies=('core',)):
        assert name not in self.programs, 'program %s declared twice' % name
        tgen = FakeTaskGen(self.env, name=name, dependencies=list(dependencies),
                           use=['ns3-' + dep for dep in dependencies])
        self.programs[name] = tgen
        return tgen

    def fatal(self, message):
        raise FakeFatal(message)

    def headers_of(self, module):
        found = [g for g in self.generators
                 if getattr(g, 'features', '') == 'ns3header' and getattr(g, 'module', None) == module]
        assert len(found) == 1, 'expected one ns3header generator for %s, got %d' % (module, len(found))
        return found[0]


class FakeConfigure(object):
    """Answers check_cfg/check as told, and records the calls."""

    def __init__(self, top, pkg_config_has_zlib=True, compiler_has_zlib=True, has_boost=True,
                 has_metis=True, has_protobuf=True, has_protoc=True):
        self.path = FakeNode(top)
        self.env = FakeEnv(MODULES_NOT_BUILT=[])
        self.pkg_config_has_zlib = pkg_config_has_zlib
        self.compiler_has_zlib = compiler_has_zlib
        self.has_boost = has_boost
        self.has_metis = has_metis
        self.has_protobuf = has_protobuf
        self.has_protoc = has_protoc
        self.find_program_calls = []
        self.check_cfg_calls = []
        self.check_calls = []
        self.features = []

    def check_cfg(self, **kw):
        self.check_cfg_calls.append(kw)
        found = kw.get('package') == 'zlib' and self.pkg_config_has_zlib
        return self._answer(found, kw)

    def check(self, **kw):
        self.check_calls.append(kw)
        found = ((kw.get('lib') == 'z' and self.compiler_has_zlib) or
                 (kw.get('lib') == 'boost_program_options' and self.has_boost) or
                 (kw.get('lib') == 'metis' and self.has_metis) or
                 (kw.get('lib') == 'protobuf' and self.has_protobuf))
        return self._answer(found, kw)

    def find_program(self, name, var=None, mandatory=True):
        self.find_program_calls.append((name, var))
        if name == 'protoc' and self.has_protoc:
            self.env[var] = ['/usr/bin/protoc']
            return self.env[var]
        if mandatory:
            raise FakeFatal('program %s not found' % name)
        return False

    def _answer(self, found, kw):
        if found:
            self.env['LIB_' + kw['uselib_store']] = [kw.get('lib', 'z')]
            return True
        if kw.get('mandatory', True):
            raise FakeFatal('check failed: %r' % (kw,))
        return False

    def report_optional_feature(self, name, caption, enabled, reason):
        self.features.append((name, caption, enabled, reason))

    def msg(self, *args, **kw):
        pass

    def fatal(self, message):
        raise FakeFatal(message)


def load_wscript(path):
    """Load a wscript as waf's Context.load_module does: exec, no __file__,
    its folder on sys.path only while the text runs."""
    module = types.ModuleType('wscript')
    with open(path) as handle:
        code = compile(handle.read(), path, 'exec')
    folder = os.path.dirname(path)
    sys.path.insert(0, folder)
    try:
        exec(code, module.__dict__)
    finally:
        sys.path.remove(folder)
    assert not hasattr(module, '__file__')
    return module


def run_build(top, **env):
    wscript = load_wscript(os.path.join(top, 'wscript'))
    bld = FakeBuild(top, FakeEnv(env))
    wscript.build(bld)
    return bld


def load_reader():
    """module_files.py, imported by path as the wscript does."""
    import importlib.util
    spec = importlib.util.spec_from_file_location('module_files_under_test', READER_FILE)
    reader = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(reader)
    return reader


# --------------------------------------------------------------------------
# An independent parse of the list, deliberately simpler than the reader:
# section -> entries, nothing checked.

def parse_list_independently(path):
    sections = {}
    current = None
    with open(path) as handle:
        for raw in handle:
            line = raw.strip()
            if not line or line.startswith('#'):
                continue
            if line.startswith('[') and line.endswith(']'):
                current = line[1:-1]
                sections.setdefault(current, [])
                continue
            sections[current].append(line)
    examples = {}
    for line in sections.get('examples', []):
        name, _, rest = line.partition(':')
        examples[name.strip()] = rest.split()
    return {
        'dependencies': sections.get('dependencies', []),
        'sources': sections.get('sources', []),
        'headers': sections.get('headers', []),
        'tests': sections.get('tests', []),
        'examples': examples,
        'mpi': sections.get('mpi', []),
    }


@pytest.fixture(scope='module')
def expected():
    return parse_list_independently(LIST_FILE)


@pytest.fixture(scope='module')
def real_build():
    return run_build(TOP, ENABLE_EXAMPLES=True, MODULES_NOT_BUILT=[])


# --------------------------------------------------------------------------
# The real tree's wscript against the real list


def test_independent_parse_sees_known_entries(expected):
    # Literal anchors, so that the comparisons below cannot pass on two
    # equally wrong parses.
    assert 'model/wire/bth-header.cc' in expected['sources']
    assert 'model/wire/bth-header.h' in expected['headers']
    assert 'core' in expected['dependencies']
    assert 'network' in expected['dependencies']
    assert any(t.startswith('test/') and t.endswith('-test-suite.cc') for t in expected['tests'])
    assert 'rdma-wire-example' in expected['examples']


def test_declares_module_rdma_with_listed_dependencies(real_build, expected):
    assert list(real_build.modules) == ['rdma']
    module = real_build.modules['rdma']
    assert module.dependencies == expected['dependencies']
    # ns-3 modules first (as create_ns3_module set them), then zlib.
    assert module.use[:len(expected['dependencies'])] == ['ns3-' + d for d in expected['dependencies']]


def test_module_sources_are_exactly_the_list(real_build, expected):
    # The list, and the source protoc makes of Chakra's schema.
    assert real_build.modules['rdma'].source == expected['sources'] + [
        'helper/workload/chakra/et_def.pb.cc']
    (gen,) = [g for g in real_build.generators if getattr(g, 'rule', None)]
    assert gen.source == 'helper/workload/chakra/et_def.proto'
    assert gen.target == ['helper/workload/chakra/et_def.pb.cc',
                          'helper/workload/chakra/et_def.pb.h']
    assert '${PROTOC} --cpp_out=' in gen.rule
    assert real_build.modules['rdma'].includes == ['helper/workload/chakra']
    assert 'model/wire/bth-header.cc' in real_build.modules['rdma'].source


def test_headers_are_exactly_the_list(real_build, expected):
    headers = real_build.headers_of('rdma')
    assert headers.source == expected['headers']
    assert 'model/wire/bth-header.h' in headers.source


def test_test_library_has_exactly_the_listed_tests(real_build, expected):
    assert list(real_build.test_libraries) == ['rdma']
    assert real_build.test_libraries['rdma'].source == expected['tests']


def test_test_library_gets_the_data_dir_define(real_build):
    test_lib = real_build.test_libraries['rdma']
    defines = [d for d in test_lib.env['DEFINES'] if d.startswith('RDMA_TEST_DATA_DIR=')]
    assert defines == ['RDMA_TEST_DATA_DIR="%s"' % os.path.join(TOP, 'test', 'data')]
    # The define is the test library's own, not leaked into the build env.
    assert not [d for d in real_build.env['DEFINES'] if 'RDMA_TEST_DATA_DIR' in d]
    assert not [d for d in real_build.modules['rdma'].env['DEFINES'] if 'RDMA_TEST_DATA_DIR' in d]


def test_zlib_boost_metis_and_protobuf_are_used(real_build):
    for lib in ('ZLIB', 'BOOST_PO', 'METIS', 'PROTOBUF'):
        assert lib in real_build.modules['rdma'].use
        assert lib in real_build.test_libraries['rdma'].use


def test_examples_are_exactly_the_list(real_build, expected):
    assert set(real_build.programs) == set(expected['examples'])
    for name, sources in expected['examples'].items():
        program = real_build.programs[name]
        assert program.source == sources
        assert program.dependencies == ['rdma'] + expected['dependencies']


def test_examples_skipped_without_enable_examples():
    bld = run_build(TOP, MODULES_NOT_BUILT=[])
    assert bld.programs == {}
    assert list(bld.modules) == ['rdma']


def test_nothing_built_when_configure_dropped_the_module():
    bld = run_build(TOP, ENABLE_EXAMPLES=True, MODULES_NOT_BUILT=['rdma'])
    assert bld.modules == {} and bld.programs == {} and bld.generators == []


def test_all_listed_files_exist_in_the_tree(expected):
    listed = expected['sources'] + expected['headers'] + expected['tests']
    listed += [s for sources in expected['examples'].values() for s in sources]
    missing = [p for p in listed if not os.path.isfile(os.path.join(TOP, p))]
    assert missing == []


# --------------------------------------------------------------------------
# configure(): zlib (on a synthetic tree, defined below, so only the zlib
# logic is under test here)


def configure_synthetic(tmp_path, **answers):
    top = make_tree(str(tmp_path / 'rdma'), GOOD_LIST)
    conf = FakeConfigure(top, **answers)
    load_wscript(os.path.join(top, 'wscript')).configure(conf)
    return conf


def test_configure_finds_zlib_through_pkg_config(tmp_path):
    conf = configure_synthetic(tmp_path)
    assert len(conf.check_cfg_calls) == 1
    call = conf.check_cfg_calls[0]
    assert call['package'] == 'zlib'
    assert call['uselib_store'] == 'ZLIB'
    assert '--libs' in call['args'] and '--cflags' in call['args']
    assert [c for c in conf.check_calls if c.get('uselib_store') == 'ZLIB'] == []
    assert conf.env['LIB_ZLIB'] == ['z']
    assert 'rdma' not in conf.env['MODULES_NOT_BUILT']
    assert [f[2] for f in conf.features if f[0] == 'rdma'] == [True]


def test_configure_falls_back_to_a_compiler_check(tmp_path):
    conf = configure_synthetic(tmp_path, pkg_config_has_zlib=False)
    zlib_calls = [c for c in conf.check_calls if c.get('uselib_store') == 'ZLIB']
    assert len(zlib_calls) == 1
    assert zlib_calls[0]['lib'] == 'z'
    assert conf.env['LIB_ZLIB'] == ['z']
    assert 'rdma' not in conf.env['MODULES_NOT_BUILT']


def test_configure_without_zlib_drops_the_module(tmp_path):
    conf = configure_synthetic(tmp_path, pkg_config_has_zlib=False, compiler_has_zlib=False)
    assert conf.env['MODULES_NOT_BUILT'] == ['rdma']
    assert [f[2] for f in conf.features if f[0] == 'rdma'] == [False]
    assert 'zlib' in [f[3] for f in conf.features if f[0] == 'rdma'][0]


def test_configure_checks_boost_program_options(tmp_path):
    conf = configure_synthetic(tmp_path)
    boost = [c for c in conf.check_calls if c.get('uselib_store') == 'BOOST_PO']
    assert len(boost) == 1 and boost[0]['lib'] == 'boost_program_options'
    assert boost[0]['header_name'] == 'boost/program_options.hpp'
    assert conf.env['LIB_BOOST_PO'] == ['boost_program_options']


def test_configure_without_boost_drops_the_module(tmp_path):
    conf = configure_synthetic(tmp_path, has_boost=False)
    assert conf.env['MODULES_NOT_BUILT'] == ['rdma']
    reason = [f[3] for f in conf.features if f[0] == 'rdma'][0]
    assert 'Boost.Program_options' in reason and 'zlib' not in reason


def test_configure_checks_metis(tmp_path):
    conf = configure_synthetic(tmp_path)
    metis = [c for c in conf.check_calls if c.get('uselib_store') == 'METIS']
    assert len(metis) == 1 and metis[0]['lib'] == 'metis'
    assert metis[0]['header_name'] == 'metis.h'
    assert conf.env['LIB_METIS'] == ['metis']


def test_configure_without_metis_drops_the_module(tmp_path):
    conf = configure_synthetic(tmp_path, has_metis=False)
    assert conf.env['MODULES_NOT_BUILT'] == ['rdma']
    reason = [f[3] for f in conf.features if f[0] == 'rdma'][0]
    assert 'libmetis-dev' in reason and 'Boost' not in reason


def test_configure_without_protobuf_or_protoc_drops_the_module(tmp_path):
    for k, missing in enumerate(({'has_protobuf': False}, {'has_protoc': False})):
        conf = configure_synthetic(tmp_path / str(k), **missing)
        assert conf.env['MODULES_NOT_BUILT'] == ['rdma']
        reason = [f[3] for f in conf.features if f[0] == 'rdma'][0]
        assert 'libprotobuf-dev protobuf-compiler' in reason and 'METIS' not in reason
    conf = configure_synthetic(tmp_path / 'all')
    assert ('protoc', 'PROTOC') in conf.find_program_calls
    assert conf.env['LIB_PROTOBUF'] == ['protobuf']


def test_configure_checks_the_real_list():
    # The real tree's list is valid and zlib is taken as found.
    conf = FakeConfigure(TOP)
    load_wscript(WSCRIPT).configure(conf)
    assert conf.env['LIB_ZLIB'] == ['z']


# --------------------------------------------------------------------------
# A small synthetic tree: bad lists must stop the build, naming file and line

GOOD_LIST = """\
# comment
[dependencies]
core
network

[sources]
model/a.cc
model/b.cc

[headers]
model/a.h

[tests]
test/a-test-suite.cc

[examples]
a-example: examples/a-example.cc examples/a-util.cc
"""


def make_tree(root, list_text, files=('model/a.cc', 'model/b.cc', 'model/a.h',
                                      'test/a-test-suite.cc', 'examples/a-example.cc',
                                      'examples/a-util.cc')):
    os.makedirs(os.path.join(root, 'ns3-module'))
    shutil.copy(WSCRIPT, os.path.join(root, 'wscript'))
    shutil.copy(READER_FILE, os.path.join(root, 'ns3-module', 'module_files.py'))
    with open(os.path.join(root, 'ns3-module', 'module-files.txt'), 'w') as handle:
        handle.write(list_text)
    for name in files:
        path = os.path.join(root, name)
        if not os.path.isdir(os.path.dirname(path)):
            os.makedirs(os.path.dirname(path))
        open(path, 'w').close()
    return str(root)


def line_of(text, needle):
    for number, line in enumerate(text.splitlines(), 1):
        if needle in line:
            return number
    raise AssertionError('%r not in text' % needle)


def test_synthetic_tree_builds(tmp_path):
    top = make_tree(str(tmp_path / 'rdma'), GOOD_LIST)
    bld = run_build(top, ENABLE_EXAMPLES=True)
    assert bld.modules['rdma'].source == ['model/a.cc', 'model/b.cc',
                                          'helper/workload/chakra/et_def.pb.cc']
    assert bld.modules['rdma'].dependencies == ['core', 'network']
    assert bld.headers_of('rdma').source == ['model/a.h']
    assert bld.test_libraries['rdma'].source == ['test/a-test-suite.cc']
    assert bld.programs['a-example'].source == ['examples/a-example.cc', 'examples/a-util.cc']
    assert bld.programs['a-example'].dependencies == ['rdma', 'core', 'network']


@pytest.mark.parametrize('section,entry', [
    ('[sources]', 'model/missing.cc'),
    ('[headers]', 'model/missing.h'),
    ('[tests]', 'test/missing-test-suite.cc'),
    ('[examples]', 'b-example: examples/missing.cc'),
])
def test_missing_listed_file_stops_build_and_configure(tmp_path, section, entry):
    text = GOOD_LIST.replace(section + '\n', section + '\n' + entry + '\n')
    assert text != GOOD_LIST
    top = make_tree(str(tmp_path / 'rdma'), text)
    expected_location = 'module-files.txt:%d:' % line_of(text, entry)
    with pytest.raises(FakeFatal) as info:
        run_build(top, ENABLE_EXAMPLES=True)
    assert expected_location in str(info.value)
    assert entry.split()[-1] in str(info.value)
    with pytest.raises(FakeFatal) as info:
        load_wscript(os.path.join(top, 'wscript')).configure(FakeConfigure(top))
    assert expected_location in str(info.value)


@pytest.mark.parametrize('text,needle,message', [
    ('[sources]\nmodel/a.cc\n[extras]\nmodel/b.cc\n', '[extras]', 'unknown section [extras]'),
    ('model/a.cc\n[sources]\nmodel/b.cc\n', 'model/a.cc', 'entry before any [section]'),
    ('[examples]\nnot an example line\n', 'not an example', "expected 'name: source"),
    ('[examples]\n: examples/a-example.cc\n', ': examples', "expected 'name: source"),
    ('[sources]\nmodel/a.cc\nmodel/a.cc\n', None, 'already listed'),
    ('[dependencies]\ncore network\n', 'core network', 'not an ns-3 module name'),
])
def test_bad_list_lines_name_file_and_line(tmp_path, text, needle, message):
    top = make_tree(str(tmp_path / 'rdma'), text)
    with pytest.raises(FakeFatal) as info:
        run_build(top)
    error = str(info.value)
    lineno = len(text.splitlines()) if needle is None else line_of(text, needle)
    assert 'module-files.txt:%d:' % lineno in error
    assert message in error


# --------------------------------------------------------------------------
# module_files.py on its own


def test_reader_returns_every_section(tmp_path):
    top = make_tree(str(tmp_path / 'rdma'), GOOD_LIST)
    reader = load_reader()
    files = reader.read_module_files(os.path.join(top, 'ns3-module', 'module-files.txt'))
    assert files.dependencies == ['core', 'network']
    assert files.sources == ['model/a.cc', 'model/b.cc']
    assert files.headers == ['model/a.h']
    assert files.tests == ['test/a-test-suite.cc']
    assert dict(files.examples) == {'a-example': ['examples/a-example.cc', 'examples/a-util.cc']}
    assert files.root == os.path.abspath(top)
    assert files.as_dict()['examples'] == {'a-example': ['examples/a-example.cc', 'examples/a-util.cc']}


def test_reader_agrees_with_the_independent_parse_on_the_real_list(expected):
    files = load_reader().read_module_files(LIST_FILE)
    assert files.as_dict() == expected


def test_reader_can_skip_the_file_check(tmp_path):
    top = make_tree(str(tmp_path / 'rdma'), '[sources]\nmodel/nowhere.cc\n', files=())
    reader = load_reader()
    path = os.path.join(top, 'ns3-module', 'module-files.txt')
    assert reader.read_module_files(path, check_files=False).sources == ['model/nowhere.cc']
    with pytest.raises(reader.ModuleFilesError) as info:
        reader.read_module_files(path)
    assert re.search(r'module-files\.txt:2: no such file: model/nowhere\.cc', str(info.value))


def test_reader_command_line(tmp_path, capsys):
    top = make_tree(str(tmp_path / 'rdma'), GOOD_LIST)
    reader = load_reader()
    assert reader.main(['module_files.py', os.path.join(top, 'ns3-module', 'module-files.txt')]) == 0
    assert 'a-example: examples/a-example.cc examples/a-util.cc' in capsys.readouterr().out
    bad = make_tree(str(tmp_path / 'bad'), '[nope]\n')
    assert reader.main(['module_files.py', os.path.join(bad, 'ns3-module', 'module-files.txt')]) == 1
    assert 'module-files.txt:1: unknown section [nope]' in capsys.readouterr().err
