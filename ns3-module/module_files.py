# -*- coding: utf-8 -*-
"""Reader of ns3-module/module-files.txt, the one list of the rdma module's files.

The waf-era build (the top-level wscript) and the Python tests read the list
through this file; the CMake builds read it through module-files.cmake.  Both
readers accept the same format (documented at the top of module-files.txt) and
refuse the same mistakes, naming the file and line:

- an unknown [section], or an entry before any [section],
- an [examples] line that is not "name: source [source ...]",
- a listed file that does not exist (paths are relative to the module's top
  folder, the parent of ns3-module/),
- the same entry listed twice (waf and CMake would both fail later, less
  clearly).

Only the standard library is used, and the syntax stays valid Python 2.7,
because waf-era ns-3 (<= 3.35) ran its wscripts under Python 2 or 3.

Command line: ``python3 module_files.py [LIST_FILE]`` prints what it read.
"""

from __future__ import print_function

import os
import re
import sys
from collections import OrderedDict

SECTIONS = ('dependencies', 'sources', 'headers', 'tests', 'examples', 'mpi')

# The same patterns module-files.cmake uses, so both readers agree on the
# format.
_SECTION_RE = re.compile(r'^\[([a-z]+)\]$')
_EXAMPLE_RE = re.compile(r'^([A-Za-z0-9_-]+):[ \t]*(.+)$')
# A dependency becomes "ns3-<name>" (waf) and "${lib<name>}" (CMake).
_DEPENDENCY_RE = re.compile(r'^[A-Za-z0-9_-]+$')


class ModuleFilesError(Exception):
    """A mistake in the list; the message starts with "path:line: "."""


class ModuleFiles(object):
    """What the list declares.

    dependencies: ns-3 module names (e.g. 'core'), in list order.
    sources, headers, tests: paths relative to ``root``, in list order.
    examples: OrderedDict {program name: [source paths]}.
    mpi: paths of the sources and headers built only with ns-3's mpi module.
    root: absolute path of the module's top folder.
    path: absolute path of the list file.
    """

    def __init__(self, path, root):
        self.path = path
        self.root = root
        self.dependencies = []
        self.sources = []
        self.headers = []
        self.tests = []
        self.examples = OrderedDict()
        self.mpi = []

    def as_dict(self):
        return {
            'dependencies': list(self.dependencies),
            'sources': list(self.sources),
            'headers': list(self.headers),
            'tests': list(self.tests),
            'examples': OrderedDict((k, list(v)) for k, v in self.examples.items()),
            'mpi': list(self.mpi),
        }


def default_list_path():
    """module-files.txt beside this file."""
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), 'module-files.txt')


def read_module_files(path=None, root=None, check_files=True):
    """Parse the list at ``path`` (default: module-files.txt beside this file).

    ``root`` is the folder the paths are relative to (default: the parent of
    the list's folder, i.e. the module's top folder).  With ``check_files``
    every listed source, header, test and example source must be a file.
    Raises ModuleFilesError (message "path:line: what") on any mistake, and
    IOError/OSError if the list itself cannot be read.
    """
    path = os.path.abspath(path or default_list_path())
    if root is None:
        root = os.path.dirname(os.path.dirname(path))
    root = os.path.abspath(root)
    result = ModuleFiles(path, root)
    targets = {
        'dependencies': result.dependencies,
        'sources': result.sources,
        'headers': result.headers,
        'tests': result.tests,
        'mpi': result.mpi,
    }

    def fail(lineno, message):
        raise ModuleFilesError('%s:%d: %s' % (path, lineno, message))

    def check_file(lineno, relpath):
        if check_files and not os.path.isfile(os.path.join(root, relpath)):
            fail(lineno, 'no such file: %s (relative to %s)' % (relpath, root))

    with open(path) as handle:
        lines = handle.read().splitlines()

    section = None
    seen = {}  # (section, entry) -> line number, to report duplicates
    for lineno, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line or line.startswith('#'):
            continue
        match = _SECTION_RE.match(line)
        if match:
            section = match.group(1)
            if section not in SECTIONS:
                fail(lineno, 'unknown section [%s] (known: %s)'
                     % (section, ', '.join('[%s]' % s for s in SECTIONS)))
            continue
        if section is None:
            fail(lineno, 'entry before any [section]: %s' % line)

        if section == 'examples':
            match = _EXAMPLE_RE.match(line)
            if not match:
                fail(lineno, "expected 'name: source [source ...]', got: %s" % line)
            name, sources = match.group(1), match.group(2).split()
            key = (section, name)
            if key in seen:
                fail(lineno, 'example %s already listed at line %d' % (name, seen[key]))
            seen[key] = lineno
            for source in sources:
                check_file(lineno, source)
            result.examples[name] = sources
            continue

        if section == 'dependencies' and not _DEPENDENCY_RE.match(line):
            fail(lineno, 'not an ns-3 module name: %s' % line)
        key = (section, line)
        if key in seen:
            fail(lineno, '%s already listed in [%s] at line %d' % (line, section, seen[key]))
        seen[key] = lineno
        if section != 'dependencies':
            check_file(lineno, line)
        targets[section].append(line)

    return result


def main(argv):
    try:
        files = read_module_files(argv[1] if len(argv) > 1 else None)
    except ModuleFilesError as err:
        print('error: %s' % err, file=sys.stderr)
        return 1
    for key in ('dependencies', 'sources', 'headers', 'tests', 'mpi'):
        print('[%s]' % key)
        for entry in getattr(files, key):
            print('  %s' % entry)
    print('[examples]')
    for name, sources in files.examples.items():
        print('  %s: %s' % (name, ' '.join(sources)))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
