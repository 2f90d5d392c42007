"""Every table of README.md and doc/ that names its command holds the
figures that command prints today.

A table names the command(s) that print its figures in comment lines
just above it (after the paragraph that introduces it):

* rst: ``.. table-command: COMMAND`` (a long command may go on in lines
  indented under it);
* Markdown: ``<!-- table-command: COMMAND -->``.

Several such lines run in order, in one fresh folder set up as
test_doc_examples.py's (the tree's folders, build -> $RDMA_BUILD_DIR;
commands as that file runs them), and their standard outputs together are
the printout. A command that takes half a minute or more is marked
``table-command-slow:`` instead; a table with such a command is run only
when RDMA_SLOW_DOC_TABLES=1 is set (and skipped, saying so, otherwise), so
the default run stays within a few seconds.

The comparison: a table's figures are the numbers of its data cells past
the first column (the row's name; a rst row's continuation lines count).
Each figure must be a number of the printout, rounded half up to the
figure's decimals (a table may show fewer decimals than the command
prints), and each printed number stands for one figure at most. The runs
are deterministic (same config and seed, same outputs), so the match is
exact, not within a tolerance. Which column a figure stands in is not
checked: tables and printouts are laid out differently (the loss sweep
prints a line per run, its table has a row per loss rate).

A new table is tested by adding its command line above it. Default run:
a few seconds; with RDMA_SLOW_DOC_TABLES=1 every table, about 13 minutes
(2026-11-26, Debian's build, on a shared two-core machine; the loss sweep's
two tables, 5e-2 and ten seeds included, take 8 of them).
"""

import collections
import csv
import decimal
import math
import os
import re
import subprocess

import pytest

from conftest import TOP
import doc_examples as de
from test_doc_examples import env_and_argv, workspace  # noqa: F401 (a fixture)

SLOW = os.environ.get('RDMA_SLOW_DOC_TABLES') == '1'
TIMEOUT = 60          #: seconds for a command of a table that is not slow
SLOW_TIMEOUT = 1800   #: and for one of a slow table

_RST_MARK = re.compile(r'^(\s*)\.\. table-command(-slow)?:\s*(.*)$')
_MD_MARK = re.compile(r'^\s*<!--\s*table-command(-slow)?:\s*(.*?)\s*-->\s*$')
_RST_BORDER = re.compile(r'^\s*=+( +=+)*\s*$')
_NUMBER = re.compile(r'\d+(?:\.\d+)?')


class Table:
    """A table, where it is, the commands that print it and its rows."""

    def __init__(self, source, line, commands, slow, rows):
        self.source = source      #: path relative to the tree
        self.line = line          #: 1-based line of the table's first line
        self.commands = commands  #: the commands, in order
        self.slow = slow          #: whether a command is marked slow
        self.rows = rows          #: [(line, name, [figure, ...])] of the data rows

    @property
    def where(self):
        return '%s:%d' % (self.source, self.line)


def _rst_columns(border):
    """(start, end) of each column of a simple table's border line."""
    return [m.span() for m in re.finditer(r'=+', border)]


def _rst_rows(lines, start):
    """(data rows, end) of the simple table whose top border is lines[start]."""
    columns = _rst_columns(lines[start])
    borders = [i for i in range(start, len(lines)) if _RST_BORDER.match(lines[i])][:3]
    if len(borders) < 3:
        raise ValueError('line %d: a table with no bottom border' % (start + 1))
    rows = []
    for i in range(borders[1] + 1, borders[2]):
        text = lines[i].rstrip()
        if not text.strip():
            continue
        name = text[columns[0][0]:columns[0][1]].strip()
        rest = text[columns[1][0]:] if len(columns) > 1 else ''
        if name or not rows:
            rows.append((i + 1, name, []))
        rows[-1][2].extend(_NUMBER.findall(rest))
    return rows, borders[2] + 1


def _md_rows(lines, start):
    """(data rows, end) of the Markdown table whose header row is lines[start]."""
    end = start
    while end < len(lines) and lines[end].strip().startswith('|'):
        end += 1
    if end - start < 3 or not re.match(r'^\s*\|[-:| ]+\|\s*$', lines[start + 1]):
        raise ValueError('line %d: no Markdown table' % (start + 1))
    rows = []
    for i in range(start + 2, end):
        cells = lines[i].strip().strip('|').split('|')
        rows.append((i + 1, cells[0].strip(), _NUMBER.findall(' '.join(cells[1:]))))
    return rows, end


def tables_of(path):
    """The tables of one document that name their commands, in order."""
    with open(path) as f:
        lines = f.read().split('\n')
    markdown = path.endswith('.md')
    source = os.path.relpath(path, TOP)
    found, commands, slow = [], [], False
    i = 0
    while i < len(lines):
        mark = (_MD_MARK if markdown else _RST_MARK).match(lines[i])
        if mark:
            if markdown:
                command, slow_mark = mark.group(2), mark.group(1)
            else:
                command, slow_mark = mark.group(3), mark.group(2)
                while (i + 1 < len(lines) and lines[i + 1].strip()
                       and len(lines[i + 1]) - len(lines[i + 1].lstrip()) > len(mark.group(1))):
                    i += 1
                    command += ' ' + lines[i].strip()
            commands.append(command)
            slow = slow or bool(slow_mark)
        elif commands and lines[i].strip():
            starts = (lines[i].strip().startswith('|') if markdown
                      else _RST_BORDER.match(lines[i]))
            if not starts:
                raise ValueError('%s:%d: no table right below its table-command lines'
                                 % (source, i + 1))
            rows, end = (_md_rows if markdown else _rst_rows)(lines, i)
            found.append(Table(source, i + 1, commands, slow, rows))
            commands, slow = [], False
            i = end
            continue
        i += 1
    if commands:
        raise ValueError('%s: table-command lines at the end, with no table' % source)
    return found


def all_tables():
    """The tables of README.md, doc/*.rst and doc/*.md."""
    docs = de.documents() + sorted(os.path.join(TOP, 'doc', n)
                                   for n in os.listdir(os.path.join(TOP, 'doc'))
                                   if n.endswith('.md'))
    return [t for path in docs for t in tables_of(path)]


def _rounded(printed, figure):
    """Whether a printed number, rounded half up to the figure's decimals, is the figure."""
    places = decimal.Decimal(1).scaleb(-len(figure.partition('.')[2]))
    return (decimal.Decimal(printed).quantize(places, rounding=decimal.ROUND_HALF_UP)
            == decimal.Decimal(figure))


def missing_figures(rows, printout):
    """[(line, row name, [figures not printed])]: the figures of the rows
    that the printout does not hold (exact text first, then rounded), each
    printed number standing for one figure."""
    unused = collections.Counter(_NUMBER.findall(printout))
    wanted = [(line, name, list(figures)) for line, name, figures in rows]
    for exact in (True, False):
        for _, _, figures in wanted:
            for figure in list(figures):
                match = figure if exact and unused[figure] else next(
                    (p for p in unused if unused[p] and not exact and _rounded(p, figure)), None)
                if match:
                    unused[match] -= 1
                    figures.remove(figure)
    return [row for row in wanted if row[2]]


def run_table(table, cwd):
    """The printout of a table's commands run in order in cwd."""
    printout = []
    for text in table.commands:
        env, argv = env_and_argv(text)
        r = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True,
                           stdin=subprocess.DEVNULL,
                           timeout=SLOW_TIMEOUT if table.slow else TIMEOUT)
        assert r.returncode == 0, '%s: %s\n  -> exit %d: %s' % (
            table.where, text, r.returncode, (r.stderr or r.stdout)[-800:])
        printout.append(r.stdout)
    return '\n'.join(printout)


TABLES = all_tables()


@pytest.mark.parametrize('table', TABLES, ids=[t.where for t in TABLES])
def test_table_holds_what_its_commands_print(table, workspace):  # noqa: F811
    if table.slow and not SLOW:
        pytest.skip('its commands take half a minute or more: set RDMA_SLOW_DOC_TABLES=1')
    printout = run_table(table, str(workspace))
    missing = missing_figures(table.rows, printout)
    assert not missing, '%s: figures the commands do not print:\n%s\ncommands:\n  %s' % (
        table.where, '\n'.join('  line %d, %s: %s' % (line, name, ' '.join(figures))
                               for line, name, figures in missing),
        '\n  '.join(table.commands))


def test_the_tables_are_found():
    """Discovery finds the tables known to name their commands, each with figures."""
    where = {(t.source, t.rows[0][1]) for t in TABLES}
    assert ('doc/rdma.rst', '0.5 DCQCN') in where        # IRN against RoCE
    assert ('doc/rdma.rst', '0') in where                # two nodes, lossless first
    assert ('doc/mpi.rst', '2') in where                  # partitions, 2 ranks first
    assert ('doc/benchmarks.rst', '4 KiB, 2048: host pauses (victim p99)') in where
    assert any(not t.slow for t in TABLES) and any(t.slow for t in TABLES)
    assert all(any(figures for _, _, figures in t.rows) for t in TABLES)


def test_the_comparison(tmp_path):
    """The rule on made-up tables: continuation rows, rounding, each printed
    number used once, a stale figure reported with its row."""
    (tmp_path / 'x.rst').write_text(
        'Intro:\n\n.. table-command: rdma-sim --a.B=1\n   --c.D=2\n'
        '.. table-command-slow: scripts/x.py out\n\n'
        '======  =============\nrow     figures\n======  =============\n'
        'one     3.330 / 24.8, 7\n        x 98.00 (2)\ntwo     7\n======  =============\n')
    table, = tables_of(str(tmp_path / 'x.rst'))
    assert table.commands == ['rdma-sim --a.B=1 --c.D=2', 'scripts/x.py out'] and table.slow
    assert table.rows == [(10, 'one', ['3.330', '24.8', '7', '98.00', '2']), (12, 'two', ['7'])]
    printed = 'mean 3.330 p99 24.82, pauses 7; 97.995 Gb/s, 2 timeouts, pauses 7'
    assert missing_figures(table.rows, printed) == []
    assert missing_figures(table.rows, printed.replace('pauses 7;', '')) == [(12, 'two', ['7'])]
    assert missing_figures(table.rows, printed.replace('24.82', '24.86')) == [
        (10, 'one', ['24.8'])]
    (tmp_path / 'y.md').write_text('<!-- table-command: rdma-sim -->\n\n| a | b |\n|---|---|\n'
                                   '| 2 ranks | 160/160, 480 each |\n')
    table, = tables_of(str(tmp_path / 'y.md'))
    assert table.rows == [(5, '2 ranks', ['160', '160', '480'])] and not table.slow
    (tmp_path / 'z.rst').write_text('.. table-command: rdma-sim\n\nNot a table.\n')
    with pytest.raises(ValueError, match='no table right below'):
        tables_of(str(tmp_path / 'z.rst'))


def test_run_figures_prints_a_runs_figures(build_dir, tmp_path):
    """scripts/run_figures.py (the IRN and ECN tables' printer) on a tiny
    run: flows, mean and nearest-rank p99 of FCT and slowdown, the small
    flows' p99, worked here from fct.csv; summary.json's counters (all 0
    on this run)."""
    out = tmp_path / 'tiny'
    subprocess.run([os.path.join(build_dir, 'examples', 'rdma-sim'), '-c',
                    os.path.join(TOP, 'examples', 'configs', 'tiny.ini'),
                    '--output.dir=%s' % out], check=True, capture_output=True, timeout=60)
    r = subprocess.run([os.path.join(TOP, 'scripts', 'run_figures.py'), str(tmp_path)],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    with open(out / 'fct.csv') as f:
        flows = [row for row in csv.DictReader(f) if row['status'] == 'IBV_WC_SUCCESS']

    def p99(values):
        return sorted(values)[math.ceil(0.99 * len(values)) - 1]

    fct = [int(row['fct_ns']) / 1000 for row in flows]
    slowdown = [float(row['slowdown']) for row in flows]
    small = [float(row['slowdown']) for row in flows if int(row['size']) < 100000]
    assert len(small) < len(flows)
    assert r.stdout == ('%s: flows %d, FCT mean %.1f p99 %.1f us, slowdown mean %.3f p99 %.2f, '
                        'small p99 %.2f, drops 0, PFC pauses 0, timeouts 0, ECN marks 0\n'
                        % (out, len(flows), sum(fct) / len(fct), p99(fct),
                           sum(slowdown) / len(slowdown), p99(slowdown), p99(small)))
    empty = tmp_path / 'empty'
    empty.mkdir()
    r = subprocess.run([os.path.join(TOP, 'scripts', 'run_figures.py'), str(empty)],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and 'no rdma-sim run' in r.stderr
