"""The documentation builds as ns-3's own module documentation does, with
Sphinx (Debian's python3-sphinx) and warnings as errors, as `make doc`
builds it; and the README's links lead to files of the tree.

The build goes to a temporary folder (nothing is written in the tree) and
takes a few seconds. Without sphinx-build the build test is skipped, saying
so; scripts/install-deps.sh installs it.
"""

import os
import re
import shutil
import subprocess

import pytest

from conftest import TOP

DOC = os.path.join(TOP, 'doc')
#: the pages of doc/index.rst's table of contents
PAGES = ('rdma', 'nic-measurements', 'benchmarks', 'large-fabrics', 'switch-port', 'mpi',
         'fast-forward', 'trimming', 'planes', 'tree')


def sphinx_build():
    return shutil.which('sphinx-build')


def test_make_doc_runs_sphinx_with_warnings_as_errors():
    r = subprocess.run(['make', '-n', '-C', TOP, 'doc'], capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 0, r.stderr
    command = [line for line in r.stdout.splitlines() if line.startswith('sphinx-build')]
    assert command and ' -W ' in command[0] and ' doc ' in command[0], r.stdout


def test_every_page_is_in_the_table_of_contents():
    with open(os.path.join(DOC, 'index.rst')) as f:
        toc = f.read().split('.. toctree::', 1)[1]
    listed = set(re.findall(r'^   ([\w-]+)\s*$', toc, re.M))
    pages = {os.path.splitext(n)[0] for n in os.listdir(DOC)
             if n.endswith(('.rst', '.md')) and n != 'index.rst'}
    assert listed == pages == set(PAGES), (listed, pages)


@pytest.mark.skipif(sphinx_build() is None,
                    reason='no sphinx-build: install python3-sphinx (scripts/install-deps.sh)')
def test_docs_build_without_warnings(tmp_path):
    html = tmp_path / 'html'
    r = subprocess.run([sphinx_build(), '-b', 'html', '-W', '--keep-going', '-q',
                        '-d', str(tmp_path / 'doctrees'), DOC, str(html)],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, 'sphinx-build -W failed:\n%s%s' % (r.stdout, r.stderr)
    assert (html / 'index.html').is_file()
    for page in PAGES:
        assert (html / (page + '.html')).is_file(), page
    # The figures the pages show are copied with them.
    with open(html / 'rdma.html') as f:
        images = re.findall(r'<img [^>]*src="([^"]+)"', f.read())
    assert images and all((html / src).is_file() for src in images), images


def test_readme_links_lead_to_files_of_the_tree():
    """Every relative link and image of README.md names a file or folder of
    the tree (the docs it points to, the figures it shows)."""
    with open(os.path.join(TOP, 'README.md')) as f:
        text = f.read()
    targets = re.findall(r'\]\(([^)#\s]+)(?:#[^)]*)?\)', text)
    local = [t for t in targets if not re.match(r'^[a-z]+://', t)]
    assert any(t.startswith('doc/figures/') for t in local)
    assert {'doc/rdma.rst', 'doc/benchmarks.rst'} <= set(local)
    missing = [t for t in local if not os.path.exists(os.path.join(TOP, t))]
    assert not missing, 'README.md links to files the tree does not hold: %s' % missing
