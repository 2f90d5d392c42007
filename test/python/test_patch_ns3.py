"""ns3-module/patch-ns3.sh: make run's and make mpi's ns-3 carry the patches
of ns3-module/patches once, and a cached tree that carries another set is
extracted again instead of patched over.

Regression: a tree patched with an earlier version of a patch (an earlier
checkout's make mpi) took the new version as not in yet, and patch failed
on its hunks (exit 1, "1 out of 8 hunks FAILED"), so make mpi failed until
the cache was deleted by hand."""

import os
import subprocess

from conftest import TOP

SCRIPT = os.path.join(TOP, 'ns3-module', 'patch-ns3.sh')
ORIGINAL = 'one\ntwo\nthree\n'


def tree(tmp_path, name='ns3'):
    """A stand-in ns-3 tree: one source file."""
    root = tmp_path / name
    (root / 'src').mkdir(parents=True)
    (root / 'src' / 'a.txt').write_text(ORIGINAL)
    return root


def write_patch(patches, name, new_two):
    """patches/NAME: src/a.txt's second line becomes new_two."""
    patches.mkdir(exist_ok=True)
    (patches / name).write_text(
        'Description: a stand-in\n---\n'
        '--- a/src/a.txt\n+++ b/src/a.txt\n'
        '@@ -1,3 +1,3 @@\n one\n-two\n+%s\n three\n' % new_two)


def run(patches, root):
    return subprocess.run(['bash', SCRIPT, str(patches), str(root)],
                          capture_output=True, text=True, timeout=60)


def text(root):
    return (root / 'src' / 'a.txt').read_text()


def test_patches_once_then_finds_them_in_already(tmp_path):
    root, patches = tree(tmp_path), tmp_path / 'patches'
    write_patch(patches, 'p1.patch', 'TWO')
    r = run(patches, root)
    assert r.returncode == 0, r.stdout + r.stderr
    assert text(root) == 'one\nTWO\nthree\n'
    assert (root / '.rdma-patches').read_text().split()[1] == 'p1.patch'
    r = run(patches, root)
    assert r.returncode == 0
    assert 'in already: every patch' in r.stdout
    assert text(root) == 'one\nTWO\nthree\n'


def test_another_version_of_a_patch_asks_for_a_fresh_tree(tmp_path):
    root, patches = tree(tmp_path), tmp_path / 'patches'
    write_patch(patches, 'p1.patch', 'TWO')
    assert run(patches, root).returncode == 0
    write_patch(patches, 'p1.patch', '2')
    r = run(patches, root)
    assert r.returncode == 3, r.stdout + r.stderr
    assert 'another set' in r.stdout
    assert text(root) == 'one\nTWO\nthree\n'  # left as it was


def test_a_removed_patch_asks_for_a_fresh_tree(tmp_path):
    root, patches = tree(tmp_path), tmp_path / 'patches'
    write_patch(patches, 'p1.patch', 'TWO')
    assert run(patches, root).returncode == 0
    (patches / 'p1.patch').unlink()
    assert run(patches, root).returncode == 3


def test_tree_from_before_the_record(tmp_path):
    """No .rdma-patches: a patch that reverses cleanly is in already; one
    that neither reverses nor applies (another version) asks for a fresh
    tree, and the tree records no set."""
    root, patches = tree(tmp_path), tmp_path / 'patches'
    write_patch(patches, 'p1.patch', 'TWO')
    subprocess.run(['patch', '-d', str(root), '-p1', '-s'],
                   input=(patches / 'p1.patch').read_text(), text=True, check=True)
    r = run(patches, root)
    assert r.returncode == 0, r.stdout + r.stderr
    assert 'in already: p1.patch' in r.stdout
    assert (root / '.rdma-patches').exists()

    old = tree(tmp_path, 'old')
    subprocess.run(['patch', '-d', str(old), '-p1', '-s'],
                   input=(patches / 'p1.patch').read_text(), text=True, check=True)
    write_patch(patches, 'p1.patch', '2')
    r = run(patches, old)
    assert r.returncode == 3, r.stdout + r.stderr
    assert 'p1.patch is neither in the tree nor applies' in r.stdout
    assert not (old / '.rdma-patches').exists()


def test_bad_arguments_exit_2(tmp_path):
    r = subprocess.run(['bash', SCRIPT, str(tmp_path / 'none'), str(tmp_path)],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2
    assert 'usage' in r.stderr


def test_a_patch_over_an_earlier_ones_change_applies_on_a_fresh_tree(tmp_path):
    """Patches go in in order: the second changes the line the first wrote
    (as typeid-registration-at-first-use.patch changes lines of
    type-registry-no-copies.patch)."""
    root, patches = tree(tmp_path), tmp_path / 'patches'
    write_patch(patches, 'p1.patch', 'TWO')
    (patches / 'p2.patch').write_text(
        '--- a/src/a.txt\n+++ b/src/a.txt\n'
        '@@ -1,3 +1,3 @@\n one\n-TWO\n+two, twice\n three\n')
    r = run(patches, root)
    assert r.returncode == 0, r.stdout + r.stderr
    assert text(root) == 'one\ntwo, twice\nthree\n'
    assert run(patches, root).returncode == 0
