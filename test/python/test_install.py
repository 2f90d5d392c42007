"""`make install` (cmake --install): rdma-sim, the library and the Python
module rdmasim land under the prefix and run from any folder, with the
shipped data and configs beside them; by default the module goes where
Debian's /usr/bin/python3 looks (bindings/README.md)."""

import json
import os
import re
import shutil
import subprocess

import pytest

from conftest import TOP

PYTHON = '/usr/bin/python3'


def cache_value(build_dir, key):
    with open(os.path.join(build_dir, 'CMakeCache.txt')) as f:
        for line in f:
            m = re.match(r'%s:[A-Z]+=(.*)$' % re.escape(key), line)
            if m:
                return m.group(1)
    pytest.fail('%s is not in %s/CMakeCache.txt' % (key, build_dir))


@pytest.fixture(scope='module')
def prefix(build_dir, tmp_path_factory):
    """The build installed under a temporary prefix."""
    if shutil.which('cmake') is None:
        pytest.fail('cmake is not on PATH')
    dest = tmp_path_factory.mktemp('prefix')
    r = subprocess.run(['cmake', '--install', build_dir, '--prefix', str(dest)],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    return dest


def test_default_python_dir_is_on_debians_path(build_dir):
    """With the default prefix, rdmasim goes to a folder /usr/bin/python3
    imports from (Debian's dist-packages, not upstream's site-packages)."""
    assert cache_value(build_dir, 'CMAKE_INSTALL_PREFIX') == '/usr/local'
    where = os.path.join('/usr/local', cache_value(build_dir, 'RDMA_PYTHON_INSTALL_DIR'))
    path = subprocess.run([PYTHON, '-c', 'import sys; print("\\n".join(sys.path))'],
                          capture_output=True, text=True, check=True).stdout.split('\n')
    assert where in path


def test_installed_rdma_sim_runs_from_any_folder(prefix, tmp_path):
    """bin/rdma-sim finds the installed library (its RUNPATH is relative to
    itself) and runs the installed tiny.ini into a folder of its own."""
    sim = prefix / 'bin' / 'rdma-sim'
    ini = prefix / 'share' / 'ns3-rdma' / 'configs' / 'tiny.ini'
    assert ini.exists()
    assert (prefix / 'share' / 'ns3-rdma' / 'data' / 'cdf').is_dir()
    assert (prefix / 'include' / 'ns3' / 'rdma-module.h').exists()
    env = {k: v for k, v in os.environ.items() if k not in ('LD_LIBRARY_PATH', 'RDMA_DATA_DIR')}
    r = subprocess.run([str(sim), '-c', str(ini), '--output.dir=%s' % (tmp_path / 'out')],
                       cwd=tmp_path, capture_output=True, text=True, timeout=300, env=env)
    assert r.returncode == 0, r.stderr
    with open(tmp_path / 'out' / 'summary.json') as f:
        summary = json.load(f)
    assert summary['flows']['completed'] == summary['flows']['total'] > 0


def test_bindings_readme_runs_with_the_installed_module(build_dir, prefix, tmp_path):
    """bindings/README.md's Python as written (a plain `import rdmasim`),
    from a folder holding only examples/, against the installed module: it
    writes only into its temporary folder."""
    with open(os.path.join(TOP, 'bindings', 'README.md')) as f:
        blocks = re.findall(r'^```python\n(.*?)^```', f.read(), re.S | re.M)
    assert blocks and 'sys.path' not in blocks[0]
    work, tmp = tmp_path / 'work', tmp_path / 'tmp'
    work.mkdir()
    tmp.mkdir()
    os.symlink(os.path.join(TOP, 'examples'), work / 'examples')
    site = prefix / cache_value(build_dir, 'RDMA_PYTHON_INSTALL_DIR')
    env = dict(os.environ, TMPDIR=str(tmp), PYTHONPATH=str(site))
    env.pop('LD_LIBRARY_PATH', None)
    code = 'import rdmasim, sys; assert rdmasim.__file__.startswith(%r), rdmasim.__file__\n' % str(site)
    r = subprocess.run([PYTHON, '-c', code + '\n'.join(blocks)], cwd=work, capture_output=True,
                       text=True, timeout=300, env=env)
    assert r.returncode == 0, r.stderr
    assert sorted(os.listdir(work)) == ['examples']
    (written,) = os.listdir(tmp)
    with open(tmp / written / 'summary.json') as f:
        assert json.load(f)['config']['traffic.load'] == '0.7'  # the second run, forced
