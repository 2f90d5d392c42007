"""The shell examples of README.md and doc/*.rst, as a reader finds them.

An example is

* a line of a fenced ```sh block of README.md, or of an rst
  ``.. code-block:: sh``;
* a line of an rst literal block (a paragraph ending in "::", then an
  indented block) that starts with one of this tree's programs and has at
  least one argument; the other lines of such a block are what a program
  prints, a formula or code, and are not examples;
* an inline code span (`...` in Markdown, ``...`` in rst, which may wrap
  across lines) that starts with one of this tree's programs and has at
  least one argument (a span that is only a path names a file, not an
  example).

This tree's programs: build/examples/X, build/test/X, scripts/X,
ns3-module/X, make, or a bare example program name (rdma-sim,
rdma-fat-tree, ...; it stands for build/examples/NAME). In both kinds of
block, backslash continuations are joined, a trailing "# comment" and a
leading "$ " prompt are dropped, and a line "PROGRAM ... --more" stands for
the block's previous command of the same program with "--more" appended
(README's sweep.py lines). Every example keeps the source file and line it
was found at.
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
#: the languages of a shell block
_SHELLS = ('sh', 'bash', 'shell', 'console')
#: an rdma-sim configuration key as the text names one: --group.key[=value]
KEY_RE = re.compile(r'(?<![\w-])--([a-z]+(?:\.[A-Za-z][A-Za-z0-9]*)+)(?==|\s|$)')


class Example:
    """One command as written, where it was found, and how it was found."""

    def __init__(self, text, source, line, kind):
        self.text = text      #: the command, continuations joined
        self.source = source  #: path relative to the tree
        self.line = line      #: 1-based line of its first character
        self.kind = kind      #: 'block', 'literal' or 'inline'

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


def _logical_lines(lines, first_line):
    """(first line, text) of each line of a block as the shell reads it:
    backslash continuations joined, a trailing "# comment" and a leading
    "$ " prompt dropped, empty lines left out."""
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
        line = re.sub(r'^\$\s+', '', line)
        if line:
            yield start, line


def _block_commands(lines, first_line, source, kind, out):
    """The commands of one block ('block': every line; 'literal': the lines
    is_command accepts), '...' expanded from the previous command of the
    program."""
    previous = {}
    for start, line in _logical_lines(lines, first_line):
        if kind == 'literal' and not is_command(line):
            continue
        words = line.split()
        if len(words) >= 2 and words[1] == '...':
            if words[0] not in previous:
                raise ValueError('%s:%d: "%s ..." has no earlier %s command in its block'
                                 % (source, start, words[0], words[0]))
            line = ' '.join([previous[words[0]]] + words[2:])
        else:
            previous[words[0]] = line
        out.append(Example(line, source, start, kind))


def _inline_spans(text, pattern):
    """(span text with whitespace runs as one space, line) for each match."""
    for m in pattern.finditer(text):
        span = ' '.join(m.group(1).split())
        yield span, text.count('\n', 0, m.start(1)) + 1


def _markdown_code(path):
    """([(block lines, first line, 'block')], [(span, line)]) of a Markdown
    file: its fenced shell blocks and the inline code of its prose."""
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
            if fence.group(1) in _SHELLS:
                blocks.append((lines[i + 1:j], i + 2, 'block'))
            prose.extend([''] * (min(j, len(lines) - 1) + 1 - i))  # keep line numbers
            i = j + 1
            continue
        prose.append(lines[i])
        i += 1
    spans = list(_inline_spans('\n'.join(prose), re.compile(r'(?<!`)`([^`]+)`(?!`)')))
    return blocks, spans


def _indent(line):
    return len(line) - len(line.lstrip())


def _indented_body(lines, i):
    """(first, end): the block that line i introduces, the lines after it
    indented deeper than it (blank lines inside), from its first non-blank
    line; lines[first:end] with trailing blank lines left out."""
    j = i + 1
    while j < len(lines) and not lines[j].strip():
        j += 1
    k = j
    while k < len(lines) and (not lines[k].strip() or _indent(lines[k]) > _indent(lines[i])):
        k += 1
    while k > j and not lines[k - 1].strip():
        k -= 1
    return j, k


#: directives whose body is not reStructuredText (and so holds no literal block)
_VERBATIM = ('code-block', 'code', 'sourcecode', 'math', 'raw', 'parsed-literal')


def rst_blocks(path):
    """[(block lines, first line, kind)] of an rst file, in order: its
    ``.. code-block:: sh`` blocks ('block') and its literal blocks
    ('literal': the indented block after a line ending in "::" that is not a
    directive; reStructuredText's "Literal Blocks"). The bodies of comments
    and of verbatim directives (other code blocks, math) are skipped; those
    of other directives (note, ...) are read as text."""
    with open(path) as f:
        lines = f.read().split('\n')
    blocks = []
    i = 0
    while i < len(lines):
        explicit = re.match(r'^\s*\.\.(?=\s|$)(?:\s+([\w-]+)::\s*(\S*))?', lines[i])
        if explicit and explicit.group(1) and explicit.group(1) not in _VERBATIM:
            i += 1  # a directive whose body is text
            continue
        if explicit or lines[i].rstrip().endswith('::'):
            j, k = _indented_body(lines, i)
            if not explicit:
                blocks.append((lines[j:k], j + 1, 'literal'))
            elif explicit.group(1) == 'code-block' and explicit.group(2) in _SHELLS:
                blocks.append((lines[j:k], j + 1, 'block'))
            i = max(k, i + 1)
            continue
        i += 1
    return blocks


def _rst_code(path):
    """([(block lines, first line, kind)], [(span, line)]) of an rst file:
    its shell and literal blocks and its inline literals."""
    with open(path) as f:
        text = f.read()
    return rst_blocks(path), list(_inline_spans(text, re.compile(r'``(.+?)``', re.S)))


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
    for lines, first, kind in blocks:
        _block_commands(lines, first, source, kind, examples)
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
        texts = [(line, first + n) for lines, first, _ in blocks for n, line in enumerate(lines)]
        for text, line in texts + spans:
            for k in KEY_RE.finditer(text):
                found.append((k.group(1), '%s:%d' % (source, line)))
    return found


if __name__ == '__main__':
    for e in all_examples():
        print(e.kind, e)
    for key, where in key_mentions():
        print('key', where, key)
