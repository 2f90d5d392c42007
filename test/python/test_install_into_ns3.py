"""Tests of ns3-module/install-into-ns3.sh on stand-in ns-3 trees.

Run: /usr/bin/python3 -m pytest test/python/test_install_into_ns3.py
"""

import os
import subprocess

import pytest

TOP = os.path.realpath(os.path.join(os.path.dirname(__file__), '..', '..'))
SCRIPT = os.path.join(TOP, 'ns3-module', 'install-into-ns3.sh')


def run(*args):
    proc = subprocess.run([SCRIPT] + [str(a) for a in args],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    return proc.returncode, proc.stdout + proc.stderr


def fake_ns3(root, driver='ns3', version=True, contrib=True):
    os.makedirs(str(root))
    if driver:
        open(os.path.join(str(root), driver), 'w').close()
    if version:
        with open(os.path.join(str(root), 'VERSION'), 'w') as handle:
            handle.write('3.37\n')
    if contrib:
        os.makedirs(os.path.join(str(root), 'contrib'))
    return str(root)


def test_links_the_tree_and_is_idempotent(tmp_path):
    ns3 = fake_ns3(tmp_path / 'ns-3.37')
    target = os.path.join(ns3, 'contrib', 'rdma')
    assert run(ns3)[0] == 0
    assert os.path.islink(target)
    assert os.path.realpath(target) == TOP
    rc, out = run(ns3)
    assert rc == 0 and 'already links' in out


def test_waf_era_tree_is_accepted(tmp_path):
    ns3 = fake_ns3(tmp_path / 'ns-3.35', driver='waf')
    assert run(ns3)[0] == 0


@pytest.mark.parametrize('kw,message', [
    (dict(driver=None), 'no ns3 or waf script'),
    (dict(version=False), 'no VERSION'),
    (dict(contrib=False), 'no contrib/'),
])
def test_refuses_what_is_not_an_ns3_tree(tmp_path, kw, message):
    ns3 = fake_ns3(tmp_path / 'not-ns3', **kw)
    rc, out = run(ns3)
    assert rc != 0
    assert 'not an ns-3 source tree' in out and message in out
    assert not os.path.lexists(os.path.join(ns3, 'contrib', 'rdma'))


def test_refuses_missing_dir_and_bad_usage(tmp_path):
    assert run(tmp_path / 'nowhere')[0] != 0
    assert run()[0] != 0
    assert run(fake_ns3(tmp_path / 'ns3'), '--bogus')[0] != 0


def test_refuses_a_foreign_contrib_rdma(tmp_path):
    ns3 = fake_ns3(tmp_path / 'ns3')
    target = os.path.join(ns3, 'contrib', 'rdma')
    os.makedirs(target)
    open(os.path.join(target, 'mine.cc'), 'w').close()
    rc, out = run(ns3)
    assert rc != 0 and 'exists' in out
    assert os.path.exists(os.path.join(target, 'mine.cc'))
    assert run(ns3, '--copy')[0] != 0
    assert os.path.exists(os.path.join(target, 'mine.cc'))


def test_refuses_a_symlink_elsewhere(tmp_path):
    ns3 = fake_ns3(tmp_path / 'ns3')
    other = tmp_path / 'other'
    other.mkdir()
    target = os.path.join(ns3, 'contrib', 'rdma')
    os.symlink(str(other), target)
    rc, out = run(ns3)
    assert rc != 0 and 'symlink' in out
    assert os.readlink(target) == str(other)


def test_copy_mode_copies_without_git_and_can_be_redone(tmp_path):
    ns3 = fake_ns3(tmp_path / 'ns3')
    target = os.path.join(ns3, 'contrib', 'rdma')
    assert run(ns3, '--copy')[0] == 0
    assert not os.path.islink(target)
    assert os.path.isfile(os.path.join(target, 'CMakeLists.txt'))
    assert os.path.isfile(os.path.join(target, 'ns3-module', 'module-files.txt'))
    assert not os.path.exists(os.path.join(target, '.git'))
    # A copy this script made may be replaced, by a copy or by a link.
    assert run(ns3, '--copy')[0] == 0
    assert run(ns3)[0] == 0
    assert os.path.realpath(target) == TOP
