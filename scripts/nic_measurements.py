"""Reading data/nic-measurements/: one CSV per published source, '# key: text'
header lines (source, url, nic, host, notes), then a CSV header and rows with
the columns of COLUMNS (data/nic-measurements/README.md)."""

import csv
import os
import subprocess
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DIR = os.path.join(TOP, 'data', 'nic-measurements')
COLUMNS = ('figure', 'nic', 'operation', 'message_bytes', 'x_name', 'x_value', 'x_unit',
           'y_name', 'y_value', 'y_unit', 'where', 'quote')


class MeasurementError(ValueError):
    """A measurements file that does not have the documented shape."""


def read(path):
    """Returns (header, rows): header a dict of the '# key: text' lines, rows a
    list of dicts with COLUMNS as keys (text values). Raises
    MeasurementError naming the file and line when the CSV header is not
    COLUMNS or a row has another number of fields."""
    header, lines = {}, []
    with open(path, newline='') as f:
        for number, line in enumerate(f, 1):
            if line.startswith('# '):
                key, sep, text = line[2:].partition(':')
                if sep:
                    header[key.strip()] = text.strip()
            elif line.strip():
                lines.append((number, line))
    if not lines:
        raise MeasurementError('%s: no CSV header' % path)
    rows = []
    reader = csv.reader([text for _, text in lines])
    first = next(reader)
    if tuple(first) != COLUMNS:
        raise MeasurementError('%s:%d: the CSV header is not %s' %
                               (path, lines[0][0], ','.join(COLUMNS)))
    for (number, _), fields in zip(lines[1:], reader):
        if len(fields) != len(COLUMNS):
            raise MeasurementError('%s:%d: %d fields, expected %d' %
                                   (path, number, len(fields), len(COLUMNS)))
        rows.append(dict(zip(COLUMNS, fields)))
    return header, rows


def points(rows, operation, y_name):
    """The (message_bytes, y_value) pairs of the rows of one operation and
    quantity, as floats, in file order."""
    return [(float(r['message_bytes']), float(r['y_value'])) for r in rows
            if r['operation'] == operation and r['y_name'] == y_name]


def default_example(name):
    """An example's path in the build: $RDMA_BUILD_DIR or build/, examples/."""
    build = os.environ.get('RDMA_BUILD_DIR', os.path.join(TOP, 'build'))
    return os.path.join(build, 'examples', name)


def run_example(cmd):
    """Run an example that writes a CSV (cmd without its --out=), return the
    CSV's rows as dicts. Raises RuntimeError naming the command and its exit
    status ('exited N') and standard error when it fails."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, 'out.csv')
        r = subprocess.run(list(cmd) + ['--out=' + out], capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError('%s exited %d: %s' % (' '.join(cmd), r.returncode, r.stderr.strip()))
        with open(out) as f:
            return list(csv.DictReader(f))


def write_outputs(output, text, fig, name):
    """A study's outputs: print its table, write it to OUTPUT/study.txt and
    the figure to OUTPUT/NAME.png and .pdf (printing their paths)."""
    import rdmasim_plotting as rp  # matplotlib only for the studies that draw
    print(text, end='')
    with open(os.path.join(output, 'study.txt'), 'w') as f:
        f.write(text)
    for path in rp.save(fig, os.path.join(output, name)):
        print(path)
