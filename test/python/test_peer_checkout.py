"""scripts/peer_checkout.py: how bench_peers.py and bench_conweave.py take a
peer simulator's checkout (a work tree or a git directory), build it with
its waf and read its run.py, tested on small stand-ins (no peer is built)."""

import os
import subprocess
import sys

import pytest

from sweep_helpers import load_script

pc = load_script('peer_checkout')

FAKE_WAF = '''import os, sys
if sys.argv[1] == 'configure':
    os.makedirs('build/c4che', exist_ok=True)
    open('build/c4che/_cache.py', 'w').write("BUILD_PROFILE = 'optimized'\\n")
    open('configured', 'a').write(' '.join(sys.argv[2:]) + '\\n')
elif sys.argv[1] == 'build':
    sys.exit(int(os.environ.get('FAKE_WAF_FAIL', '0')))
'''


def make_checkout(root, sub):
    """A checkout whose `sub` folder ('' for itself) holds a wscript, a waf and a run.py."""
    tree = root / sub if sub else root
    tree.mkdir(parents=True)
    (tree / 'wscript').write_text('# wscript\n')
    (tree / 'waf').write_text(FAKE_WAF)
    (tree / 'run.py').write_text('x = 1\nconfig_template = """A {a}\nB {b}\n"""\n')
    return tree


@pytest.mark.parametrize('sub', ['simulation', ''])
def test_a_work_tree_is_copied_once(tmp_path, sub):
    src = tmp_path / 'src'
    make_checkout(src, sub)
    (src / '.git').mkdir()
    tree = tmp_path / 'peer' / (sub or 'conweave-ns3')
    pc.populate(str(src), str(tree), sub, log=lambda m: None)
    assert (tree / 'wscript').is_file() and not (tree / '.git').exists()
    (tree / 'wscript').write_text('# kept\n')
    pc.populate(str(src), str(tree), sub, log=lambda m: None)  # once: nothing copied again
    assert (tree / 'wscript').read_text() == '# kept\n'


@pytest.mark.parametrize('sub', ['simulation', ''])
def test_a_git_directory_is_extracted(tmp_path, sub):
    work = tmp_path / 'work'
    make_checkout(work, sub)
    git = ['git', '-c', 'user.name=t', '-c', 'user.email=t@t', '-C', str(work)]
    subprocess.run(git + ['init', '-q'], check=True)
    subprocess.run(git + ['add', '.'], check=True)
    subprocess.run(git + ['commit', '-qm', 'x'], check=True)
    tree = tmp_path / 'peer' / (sub or 'conweave-ns3')
    pc.populate(str(work / '.git'), str(tree), sub, log=lambda m: None)
    assert (tree / 'wscript').read_text() == '# wscript\n'
    assert pc.run_py_template(str(tree)) == 'A {a}\nB {b}\n'


def test_neither_is_refused(tmp_path):
    (tmp_path / 'empty').mkdir()
    with pytest.raises(pc.BenchError, match='neither a checkout with simulation/ nor a git'):
        pc.populate(str(tmp_path / 'empty'), str(tmp_path / 'peer' / 'simulation'), 'simulation')


def test_run_py_without_a_template_is_refused(tmp_path):
    (tmp_path / 'run.py').write_text('print(1)\n')
    with pytest.raises(pc.BenchError, match='no config_template'):
        pc.run_py_template(str(tmp_path))


def test_waf_configures_once_and_a_failed_build_names_its_log(tmp_path, monkeypatch):
    tree = make_checkout(tmp_path / 'tree', '')
    monkeypatch.setattr(pc, 'find_python2', lambda: sys.executable)
    pc.waf_build(str(tree), str(tmp_path), 2, ('internet', 'point-to-point'), 8, log=lambda m: None)
    pc.waf_build(str(tree), str(tmp_path), 2, ('internet', 'point-to-point'), 8, log=lambda m: None)
    assert (tree / 'configured').read_text().splitlines() == [
        '--build-profile=optimized --enable-modules=internet,point-to-point --disable-python '
        '--disable-tests --disable-examples']
    monkeypatch.setenv('FAKE_WAF_FAIL', '1')
    with pytest.raises(pc.BenchError, match='waf build failed: %s/build.log' % tmp_path):
        pc.waf_build(str(tree), str(tmp_path), 2, ('internet',), 8, log=lambda m: None)
