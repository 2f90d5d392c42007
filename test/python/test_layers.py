"""The folders of model/ and helper/ and what each may include.

doc/rdma.rst, "Layer folders", gives one row per folder of model/ with the
folders it may include; doc/tree.rst, "helper/", one row per folder of
helper/. These tests read both tables and every #include of model/ and
helper/, so the tree and its documentation cannot drift apart: a header that
reaches up a layer (the transport into the switch, a switch into the NIC),
a model into helper/, or a stage of helper/ into a later one (the
configuration into the experiment) fails here with the file and line named.

Run: /usr/bin/python3 -m pytest test/python/test_layers.py
"""

import os
import re

import pytest

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
MODEL = os.path.join(TOP, 'model')
DOC = os.path.join(TOP, 'doc', 'rdma.rst')
HELPER = os.path.join(TOP, 'helper')
TREE_DOC = os.path.join(TOP, 'doc', 'tree.rst')

INCLUDE_RE = re.compile(r'^[ \t]*#[ \t]*include[ \t]+"(?:ns3/)?([A-Za-z0-9_.-]+)\.h"', re.M)


def table_rows(table):
    """{folder: set of folders it may include} of a folder table's rows."""
    rows = re.findall(r'   \* - ``(\w+)``\n     - .*?\n     - (.*?)(?=\n   \* -|\n\n|\n?\Z)',
                      table, re.S)
    return {folder: set(re.findall(r'``(\w+)``', may)) for folder, may in rows}


def documented_folders():
    """{folder: set of folders it may include} from the doc's table."""
    text = open(DOC).read()
    start = text.index('Layer folders\n=============')
    return table_rows(text[start:text.index('\nParts and files', start)])


def documented_helper_folders():
    """{folder: set of folders it may include} from doc/tree.rst's helper/ table
    ('helper' is helper/ itself)."""
    text = open(TREE_DOC).read()
    start = text.index('helper/\n=======')
    return table_rows(text[start:text.index('\nInside a folder', start)])


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


def helper_files():
    """[(folder, path)] of every source and header under helper/ ('helper' for
    helper/ itself)."""
    out = []
    for root, dirs, names in os.walk(HELPER):
        dirs.sort()
        folder = os.path.relpath(root, HELPER)
        folder = 'helper' if folder == '.' else folder
        for name in sorted(names):
            if name.endswith(('.h', '.cc')):
                out.append((folder, os.path.join(root, name)))
    return out


def helper_stems():
    return {os.path.basename(p).rsplit('.', 1)[0] for _, p in helper_files() if p.endswith('.h')}


def includes(files):
    """Yield (folder, 'path:line', header name, the include's text) of each
    #include of a header by name in files ([(folder, path)])."""
    for folder, path in files:
        text = open(path).read()
        for mo in INCLUDE_RE.finditer(text):
            line = text.count('\n', 0, mo.start()) + 1
            yield (folder, '%s:%d' % (os.path.relpath(path, TOP), line), mo.group(1),
                   mo.group(0).rstrip())


def include_violations(files, allowed, helpers):
    """Lines 'model/F/x.h:N: includes ...' for each include the table forbids."""
    owner = stems(files)
    bad = []
    for folder, where, name, _ in includes(files):
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


def assert_no_cycle(allowed):
    """Fails naming the cycle if a folder table's 'may include' loops."""
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


def test_the_table_has_no_cycle():
    assert_no_cycle(documented_folders())


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


def helper_violations(files, allowed):
    """Lines 'helper/F/x.h:N: ...' for each include of helper/ that doc/tree.rst's
    table forbids, or that names a header of another folder without ns3/ (or
    one of its own folder with it)."""
    owner = stems(files)
    bad = []
    for folder, where, name, text in includes(files):
        if name not in owner:
            continue
        if owner[name] != folder and owner[name] not in allowed[folder]:
            bad.append('%s: includes %s/%s.h, and %s may include only %s'
                       % (where, owner[name], name, folder,
                          ', '.join(sorted(allowed[folder])) or 'model'))
        elif (owner[name] == folder) == text.endswith('"ns3/%s.h"' % name):
            bad.append('%s: includes %s.h of %s as %s' % (where, name, owner[name],
                                                            'ns3/%s.h' % name
                                                            if owner[name] == folder
                                                            else 'a local file'))
    return bad


def test_every_helper_folder_is_in_the_table_and_every_row_is_a_folder():
    allowed = documented_helper_folders()
    folders = {f for f, _ in helper_files()}
    assert set(allowed) == folders
    for folder, may in allowed.items():
        assert may <= folders, (folder, may - folders)
        assert folder not in may


def test_the_helper_table_has_no_cycle_and_helper_itself_includes_only_model():
    allowed = documented_helper_folders()
    assert allowed['helper'] == set()
    assert_no_cycle(allowed)


def test_every_include_of_helper_follows_the_table():
    files = helper_files()
    assert len(files) > 90
    assert helper_violations(files, documented_helper_folders()) == []


def test_a_helper_file_that_reaches_a_later_stage_is_named(tmp_path):
    """The check itself: the configuration including the experiment, and a
    file of another folder included by its bare name."""
    files = helper_files()
    bad_file = tmp_path / 'rdma-bad.h'
    bad_file.write_text('#pragma once\n\n#include "ns3/rdma-experiment.h"\n'
                        '#include "rdma-helper.h"\n#include "ns3/rdma-config.h"\n')
    found = helper_violations(files + [('config', str(bad_file))],
                              documented_helper_folders())
    assert len(found) == 3
    assert re.search(r'rdma-bad\.h:3: includes experiment/rdma-experiment\.h, and config may '
                     r'include only helper$', found[0])
    assert found[1].endswith('rdma-bad.h:4: includes rdma-helper.h of helper as a local file')
    assert found[2].endswith('rdma-bad.h:5: includes rdma-config.h of config as ns3/rdma-config.h')


#: The only include loops between files: an owner and its parts, each
#: including the other's header from its .cc (the headers alone form no loop).
OWNERS_AND_PARTS = [
    # the device and its channel, as ns-3's point-to-point device and channel
    {'qbb-net-device', 'qbb-channel', 'qbb-wire'},
    # the queue pair and its requester, completer and responder
    {'rdma-queue-pair', 'rdma-qp-requester', 'rdma-qp-completer', 'rdma-qp-responder'},
]


def include_graph(files, headers_only=False):
    """{stem: stems it includes} over model/ and helper/ (a stem is a .h and its .cc)."""
    names = stems(files)
    graph = {s: set() for s in names}
    for _, path in files:
        if headers_only and not path.endswith('.h'):
            continue
        me = os.path.basename(path).rsplit('.', 1)[0]
        for name in INCLUDE_RE.findall(open(path).read()):
            if name in names and name != me:
                graph[me].add(name)
    return graph


def include_loops(graph):
    """The strongly connected groups of more than one file (Tarjan)."""
    index, low, stack, on, loops = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = set()
            while True:
                w = stack.pop()
                on.discard(w)
                group.add(w)
                if w == v:
                    break
            if len(group) > 1:
                loops.append(group)

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return loops


def test_files_include_each_other_only_as_an_owner_and_its_parts():
    files = model_files() + helper_files()
    loops = include_loops(include_graph(files))
    assert sorted(map(sorted, loops)) == sorted(map(sorted, OWNERS_AND_PARTS))
    assert include_loops(include_graph(files, headers_only=True)) == []


def test_a_loop_between_two_files_is_found():
    graph = {'rdma-value-text': {'rdma-value-check'}, 'rdma-value-check': {'rdma-value-text'},
             'rdma-config': {'rdma-value-check'}}
    assert include_loops(graph) == [{'rdma-value-text', 'rdma-value-check'}]
