"""The shell examples of README.md and doc/*.rst, as a reader finds them.

An example is

* a line of a fenced ```sh block of README.md (backslash continuations
  joined, a trailing "# comment" dropped), or of an rst ``.. code-block:: sh``;
* an inline code span (`...` in Markdown, ``...`` in rst, which may wrap
  across lines) that starts with one of this tree's programs: build/examples/X,
  build/test/X, scripts/X, ns3-module/X, make, or a bare example program name
  (rdma-sim, rdma-fat-tree, ...; it stands for build/examples/NAME) and has
  at least one argument (a span that is only a path names a file, not an
  example).

A line "PROGRAM ... --more" in a block stands for the block's previous
command of the same program with "--more" appended (README's sweep.py
lines). Every example keeps the source file and line it was found at.
"""

import os
import re
import shlex

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))

#: the example programs of build/examples (examples/*.cc)
EXAMPLE_PROGRAMS = sorted(os.path.splitext(n)[0] for n in os.listdir(os.path.join(TOP, 'examples'))
                          if n.endswith('.cc'))
#: where a command of this tree starts
_PREFIXES = ('build/examples/', 'build/test/', 'scripts/', 'ns3-module/')
#: an rdma-sim configuration key as the text names one: --group.key[=value]
KEY_RE = re.compile(r'(?<![\w-])--([a-z]+(?:\.[A-Za-z][A-Za-z0-9]*)+)(?==|\s|$)')


class Example:
    """One command as written, where it was found, and how it was found."""

    def __init__(self, text, source, line, kind):
        self.text = text      #: the command, continuations joined
        self.source = source  #: path relative to the tree
        self.line = line      #: 1-based line of its first character
        self.kind = kind      #: 'block' or 'inline'

    @property
    def where(self):
        return '%s:%d' % (self.source, self.line)

    def argv(self):
        return shlex.split(self.text)

    def program(self):
        """The program as written (first word after VAR=value assignments)."""
        for word in self.argv():
            if not re.match(r'^[A-Za-z_][A-Za-z0-9_]*=', word):
                return word
        return ''

    def __repr__(self):
        return '%s: %s' % (self.where, self.text)


def is_command(text):
    """Whether an inline span is an example command (a program and arguments)."""
    words = text.split()
    while words and re.match(r'^[A-Za-z_][A-Za-z0-9_]*=', words[0]):
        words = words[1:]
    if len(words) < 2:
        return False
    first = words[0]
    return (first.startswith(_PREFIXES) or first == 'make' or first in EXAMPLE_PROGRAMS)


def _block_commands(lines, first_line, source, out):
    """The commands of one shell block: continuations joined, comments and
    prompts dropped, '...' expanded from the previous command of the program."""
    previous = {}
    pending, start = '', None
    for n, raw in enumerate(lines, start=first_line):
        line = raw.strip()
        if not pending:
            start = n
        if line.endswith('\\'):
            pending += line[:-1].strip() + ' '
            continue
        line = (pending + line).strip()
        pending = ''
        line = re.sub(r'(^|\s)#.*$', '', line).strip()
        if not line:
            continue
        words = line.split()
        if len(words) >= 2 and words[1] == '...':
            if words[0] not in previous:
                raise ValueError('%s:%d: "%s ..." has no earlier %s command in its block'
                                 % (source, start, words[0], words[0]))
            line = ' '.join([previous[words[0]]] + words[2:])
        else:
            previous[words[0]] = line
        out.append(Example(line, source, start, 'block'))


def _inline_spans(text, pattern):
    """(span text with whitespace runs as one space, line) for each match."""
    for m in pattern.finditer(text):
        span = ' '.join(m.group(1).split())
        yield span, text.count('\n', 0, m.start(1)) + 1


def _markdown_code(path):
    """([(block lines, first line)], [(span, line)]) of a Markdown file:
    its fenced shell blocks and the inline code of its prose."""
    with open(path) as f:
        lines = f.read().split('\n')
    blocks, prose = [], []
    i = 0
    while i < len(lines):
        fence = re.match(r'^```\s*(\w*)\s*$', lines[i])
        if fence:
            j = i + 1
            while j < len(lines) and not lines[j].startswith('```'):
                j += 1
            if fence.group(1) in ('sh', 'bash', 'shell'):
                blocks.append((lines[i + 1:j], i + 2))
            prose.extend([''] * (min(j, len(lines) - 1) + 1 - i))  # keep line numbers
            i = j + 1
            continue
        prose.append(lines[i])
        i += 1
    spans = list(_inline_spans('\n'.join(prose), re.compile(r'(?<!`)`([^`]+)`(?!`)')))
    return blocks, spans


def _rst_code(path):
    """([(block lines, first line)], [(span, line)]) of an rst file: its
    ``.. code-block:: sh`` blocks and its inline literals."""
    with open(path) as f:
        text = f.read()
    lines = text.split('\n')
    blocks = []
    i = 0
    while i < len(lines):
        if re.match(r'^\.\. code-block::\s*(sh|bash|shell|console)\s*$', lines[i]):
            j = i + 1
            while j < len(lines) and not lines[j].strip():
                j += 1
            k = j
            while k < len(lines) and (not lines[k].strip() or lines[k].startswith((' ', '\t'))):
                k += 1
            blocks.append((lines[j:k], j + 1))
            i = k
            continue
        i += 1
    return blocks, list(_inline_spans(text, re.compile(r'``(.+?)``', re.S)))


def _code(path):
    return _markdown_code(path) if path.endswith('.md') else _rst_code(path)


def documents():
    """README.md and every doc/*.rst, in that order."""
    docs = [os.path.join(TOP, 'README.md')]
    docs += sorted(os.path.join(TOP, 'doc', n) for n in os.listdir(os.path.join(TOP, 'doc'))
                   if n.endswith('.rst'))
    return docs


def examples_of(path):
    """The examples of one document, in the order they appear."""
    source = os.path.relpath(path, TOP)
    blocks, spans = _code(path)
    examples = []
    for lines, first in blocks:
        _block_commands(lines, first, source, examples)
    examples += [Example(span, source, line, 'inline') for span, line in spans if is_command(span)]
    examples.sort(key=lambda e: e.line)
    return examples


def all_examples():
    """Every example of the documents, in document order."""
    return [e for path in documents() for e in examples_of(path)]


def key_mentions():
    """(key, where) for every --group.key that the documents' code names."""
    found = []
    for path in documents():
        source = os.path.relpath(path, TOP)
        blocks, spans = _code(path)
        texts = [(line, first + n) for lines, first in blocks for n, line in enumerate(lines)]
        for text, line in texts + spans:
            for k in KEY_RE.finditer(text):
                found.append((k.group(1), '%s:%d' % (source, line)))
    return found


if __name__ == '__main__':
    for e in all_examples():
        print(e.kind, e)
    for key, where in key_mentions():
        print('key', where, key)
