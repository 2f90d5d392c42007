"""The layer folders of model/ and what each may include.

doc/rdma.rst, "Layer folders", gives one row per folder of model/ with the
folders it may include. These tests read that table and every #include of
model/, so the tree and its documentation cannot drift apart: a header that
reaches up a layer (the transport into the switch, a switch into the NIC) or
into helper/ fails here with the file and line named.

Run: /usr/bin/python3 -m pytest test/python/test_layers.py
"""

import os
import re

import pytest

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
MODEL = os.path.join(TOP, 'model')
DOC = os.path.join(TOP, 'doc', 'rdma.rst')

INCLUDE_RE = re.compile(r'^[ \t]*#[ \t]*include[ \t]+"(?:ns3/)?([A-Za-z0-9_.-]+)\.h"', re.M)


def documented_folders():
    """{folder: set of folders it may include} from the doc's table."""
    text = open(DOC).read()
    start = text.index('Layer folders\n=============')
    table = text[start:text.index('\nParts and files', start)]
    rows = re.findall(r'   \* - ``(\w+)``\n     - .*?\n     - (.*?)(?=\n   \* -|\n\n|\n?\Z)',
                      table, re.S)
    allowed = {}
    for folder, may in rows:
        allowed[folder] = set(re.findall(r'``(\w+)``', may))
    return allowed


def model_files():
    """[(folder, path)] of every source and header under model/."""
    out = []
    for folder in sorted(os.listdir(MODEL)):
        path = os.path.join(MODEL, folder)
        assert os.path.isdir(path), 'model/%s: model/ holds only layer folders' % folder
        for name in sorted(os.listdir(path)):
            if name.endswith(('.h', '.cc')):
                out.append((folder, os.path.join(path, name)))
    return out


def stems(folder_files):
    return {os.path.basename(p).rsplit('.', 1)[0]: folder for folder, p in folder_files}


def helper_stems():
    return {n.rsplit('.', 1)[0] for n in os.listdir(os.path.join(TOP, 'helper'))
            if n.endswith('.h')}


def include_violations(files, allowed, helpers):
    """Lines 'model/F/x.h:N: includes ...' for each include the table forbids."""
    owner = stems(files)
    bad = []
    for folder, path in files:
        text = open(path).read()
        for mo in INCLUDE_RE.finditer(text):
            name = mo.group(1)
            line = text.count('\n', 0, mo.start()) + 1
            where = '%s:%d' % (os.path.relpath(path, TOP), line)
            if name in helpers and name not in owner:
                bad.append('%s: includes helper/%s.h' % (where, name))
            elif name in owner and owner[name] != folder and owner[name] not in allowed[folder]:
                bad.append('%s: includes %s/%s.h, and %s may include only %s'
                           % (where, owner[name], name, folder,
                              ', '.join(sorted(allowed[folder])) or 'its own folder'))
    return bad


def test_every_folder_is_in_the_table_and_every_row_is_a_folder():
    allowed = documented_folders()
    folders = {f for f in os.listdir(MODEL) if os.path.isdir(os.path.join(MODEL, f))}
    assert set(allowed) == folders
    for folder, may in allowed.items():
        assert may <= folders, (folder, may - folders)
        assert folder not in may


def test_the_table_has_no_cycle():
    allowed = documented_folders()
    done, active = set(), []

    def visit(f):
        assert f not in active, 'cycle: %s' % ' -> '.join(active + [f])
        if f in done:
            return
        active.append(f)
        for g in allowed[f]:
            visit(g)
        active.pop()
        done.add(f)

    for f in allowed:
        visit(f)


def test_every_include_of_model_follows_the_table():
    files = model_files()
    assert len(files) > 100
    assert include_violations(files, documented_folders(), helper_stems()) == []


def test_a_header_that_reaches_up_a_layer_is_named(tmp_path):
    """The check itself: a transport header including the switch fails."""
    files = model_files()
    bad_file = tmp_path / 'rdma-bad.h'
    bad_file.write_text('#pragma once\n\n#include "ns3/rdma-switch.h"\n#include "rdma-experiment.h"\n')
    found = include_violations(files + [('transport', str(bad_file))],
                               documented_folders(), helper_stems())
    assert len(found) == 2
    assert re.search(r'rdma-bad\.h:3: includes fabric/rdma-switch\.h, and transport may include '
                     r'only core, wire$', found[0])
    assert found[1].endswith('rdma-bad.h:4: includes helper/rdma-experiment.h')


@pytest.mark.parametrize('folder', ['core', 'wire'])
def test_the_lowest_layers_include_nothing_of_the_module(folder):
    assert documented_folders()[folder] == set()
