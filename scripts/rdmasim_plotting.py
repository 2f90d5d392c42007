"""Figure plumbing shared by the plot scripts: headless matplotlib (Agg), one
house style, the common command-line options (-o, --title, --label,
--where, --group-by), readable names for configuration keys, their values
and results.csv's metric columns, means drawn with their error bars, points
on categorical axes, log axes with readable ticks, and saving as PNG and PDF.

Reading and reducing the data lives in rdmasim_analysis; this module only
draws.
"""

import argparse
import json
import math
import os
import re
import sys

import matplotlib
import numpy as np

matplotlib.use('Agg')  # headless: no display is needed or used
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib import ticker  # noqa: E402

import rdmasim_analysis as ra  # noqa: E402

#: the figure formats every script writes
FORMATS = ('png', 'pdf')

STYLE = {
    'figure.dpi': 100,
    'savefig.dpi': 150,
    'font.size': 9,
    'axes.grid': True,
    'grid.alpha': 0.3,
    'axes.spines.top': False,
    'axes.spines.right': False,
    'legend.frameon': False,
    'lines.markersize': 4,
}
# Set for the process (these modules serve the plot scripts only): the lines,
# legends and texts a script draws after figure() take the style too.
matplotlib.rcParams.update(STYLE)


def parser(description):
    """An argparse parser with the options every plot script has (-o, --title)."""
    p = argparse.ArgumentParser(description=description)
    p.add_argument('-o', '--output', required=True,
                   help='output path without extension: writes OUTPUT.png and OUTPUT.pdf')
    p.add_argument('--title', help='figure title')
    return p


def _assignment(text):
    """'RAW=TEXT' -> (RAW, TEXT), split at the last '=' (RAW may hold '=')."""
    raw, sep, shown = text.rpartition('=')
    if not sep or not raw:
        raise argparse.ArgumentTypeError('%r: expected RAW=TEXT' % text)
    return raw, shown


def _where(text):
    """'KEY=VALUE' -> (KEY, VALUE), split at the first '='."""
    key, sep, value = text.partition('=')
    if not sep or not key:
        raise argparse.ArgumentTypeError('%r: expected KEY=VALUE' % text)
    return key, value


def add_label_option(p):
    """--label RAW=TEXT (repeatable): legend text for a raw series label."""
    p.add_argument('--label', action='append', default=[], type=_assignment, metavar='RAW=TEXT',
                   help='show TEXT for the series labelled RAW (a run folder name, or a '
                        'sweep label such as cc.algorithm=hpcc); repeatable')


def add_sweep_options(p):
    """--where KEY=VALUE and --group-by KEY (both repeatable), for results.csv inputs."""
    p.add_argument('--where', action='append', default=[], type=_where, metavar='KEY=VALUE',
                   help='results.csv: only points with this parameter value (repeatable)')
    p.add_argument('--group-by', action='append', default=[], metavar='KEY',
                   help='results.csv: one series per value of this swept key (repeatable); '
                        'other keys are averaged over (default: one series per combination)')


# --------------------------------------------------------------------------- names

#: how a legend names a value of a swept key: {key: {raw value: text}}
VALUE_NAMES = {
    'cc.algorithm': {'none': 'no CC', 'dcqcn': 'DCQCN', 'hpcc': 'HPCC', 'timely': 'TIMELY',
                     'dctcp': 'DCTCP', 'swift': 'Swift', 'nscc': 'NSCC'},
    'transport.recovery': {'go-back-n': 'go-back-N', 'irn': 'IRN'},
    'switch.LoadBalancing': {'Ecmp': 'ECMP', 'Spray': 'Spray', 'Drill': 'DRILL',
                             'LetFlow': 'LetFlow', 'Adaptive': 'Adaptive', 'Conga': 'CONGA'},
    'pfc.PfcEnabled': {'true': 'PFC', 'false': 'no PFC'},
}
#: how a legend names other swept keys' values: {key: format of the value}
KEY_FORMATS = {
    'traffic.load': 'load {}',
    'topology.k': 'k={}',
    'sim.seed': 'seed {}',
    'transport.pathMtu': 'MTU {} B',
    'transport.irn.ReorderWindow': 'reorder window {}',
    'nic.Entropy': '{} entropy',
}
#: axis labels of swept keys, with their units
KEY_LABELS = {
    'traffic.load': 'Offered load (fraction of host line rate)',
    'cc.algorithm': 'Congestion control',
    'transport.recovery': 'Loss recovery',
    'switch.LoadBalancing': 'Load balancing',
    'nic.Entropy': 'Path entropy',
    'pfc.PfcEnabled': 'PFC',
    'topology.k': 'Fat-tree arity k',
    'transport.pathMtu': 'Path MTU (bytes)',
    'transport.irn.ReorderWindow': 'IRN reorder window (packets)',
    'traffic.QpsPerPair': 'QPs per host pair',
    'collective.bytes': 'Message size (bytes)',
    'collective.algorithm': 'Collective algorithm',
    'collective.type': 'Collective',
}
#: axis labels of results.csv's metric columns (rdmasim_analysis.flatten_summary,
#: derived_metrics), with their units
METRIC_LABELS = {
    'completed_gbps': 'Goodput of completed flows (Gb/s)',
    'completed_bytes': 'Bytes of completed flows',
    'flows.total': 'Flows started',
    'flows.completed': 'Flows completed',
    'flows.failed': 'Flows failed',
    'flows.incomplete': 'Flows not done at the end',
    'pfc.pause_frames': 'PFC pause frames',
    'pfc.resume_frames': 'PFC resume frames',
    'pfc.pause_frames_from_hosts': 'PFC pause frames sent by hosts',
    'drops': 'Frames dropped',
    'retransmissions': 'Packets retransmitted',
    'wall_time_s': 'Wall-clock time (s)',
    'sim_time_s': 'Simulated time (s)',
    'events': 'Simulator events',
    'link_transmissions': 'Link transmissions',
    'data_packets_delivered': 'Data packets delivered',
    'peak_rss_mb': 'Peak memory (MB)',
    'jobs.iteration_time_ns': 'Iteration time (ns)',
    'jobs.exposed_comm_share': 'Exposed communication (share of iteration)',
    'collectives.completed': 'Collectives completed',
}
_COLLECTIVE_METRICS = {'busbw_gbps': 'busbw (Gb/s)', 'algbw_gbps': 'algbw (Gb/s)',
                       'cct_ns.mean': 'mean CCT (ns)', 'cct_ns.p50': 'median CCT (ns)',
                       'cct_ns.p99': 'p99 CCT (ns)', 'cct_ns.max': 'largest CCT (ns)',
                       'done': 'collectives done'}


def value_name(key, value):
    """How a legend or tick names one value of a swept key: VALUE_NAMES's
    text ('HPCC', 'no CC'), else KEY_FORMATS's ('load 0.5'), else KEY=VALUE."""
    names = VALUE_NAMES.get(key, {})
    if value in names:
        return names[value]
    if key in KEY_FORMATS:
        return KEY_FORMATS[key].format(value)
    return '%s=%s' % (key, value)


def tick_name(key, value):
    """How a categorical tick names a value of the axis's key: VALUE_NAMES's
    text, else the value itself (the axis label names the key)."""
    return VALUE_NAMES.get(key, {}).get(value, value)


def key_label(key):
    """The axis label of a swept key (KEY_LABELS; else the key itself)."""
    return KEY_LABELS.get(key, key)


def metric_label(column, row=None):
    """The axis label of a results.csv metric column, with its unit:
    METRIC_LABELS's, 'p99 FCT slowdown, <10 kB flows' for
    fct_slowdown.<bucket>.p99 (the bucket's range from row's
    fct_slowdown.<bucket>.lo and .hi columns, a results.csv row, else from
    the bucket's name when it is LO-HI in bytes), 'QPC cache hit rate
    (fraction of lookups)', 'busbw (Gb/s)' and the like for the collectives'
    columns; else the column name itself."""
    if column in METRIC_LABELS:
        return METRIC_LABELS[column]
    m = re.fullmatch(r'fct_slowdown\.(.+)\.(p50|p95|p99|count)', column)
    if m:
        where = _bucket_words(m.group(1), row or {})
        if m.group(2) == 'count':
            return 'Flows of %s' % where
        return '%s FCT slowdown, %s flows' % (m.group(2), where)
    m = re.fullmatch(r'cache\.(\w+)\.(hit_rate|hits|misses|evictions)', column)
    if m:
        what = {'hit_rate': 'hit rate (fraction of lookups)'}.get(m.group(2), m.group(2))
        return '%s cache %s' % (m.group(1).upper(), what)
    m = re.fullmatch(r'collectives\.(?:(.+)\.)?(busbw_gbps|algbw_gbps|cct_ns\.\w+|done)', column)
    if m and m.group(2) in _COLLECTIVE_METRICS:
        name = _COLLECTIVE_METRICS[m.group(2)]
        return ('%s %s' % (m.group(1).replace('.', ' '), name)) if m.group(1) else name[0].upper() + name[1:]
    return column


def metric_floor(column):
    """The least value a results.csv metric can take: 1 for an FCT slowdown
    percentile (a flow is never faster than its ideal), 0 for the others
    (counts, rates, times, shares)."""
    return 1.0 if re.fullmatch(r'fct_slowdown\..+\.p\d+', column) else 0.0


def _bucket_words(bucket, row):
    """A bucket's range ('<10 kB') from a results.csv row, or from its name
    when that is LO-HI in bytes; else the name."""
    lo, hi = row.get('fct_slowdown.%s.lo' % bucket), row.get('fct_slowdown.%s.hi' % bucket)
    if lo in (None, ''):
        edges = re.fullmatch(r'([0-9.eE+]+)-([0-9.eE+]+|inf)', bucket)
        if not edges:
            return bucket
        lo, hi = edges.groups()
    return ra.bucket_range_label(float(lo), math.inf if hi in ('', None, 'inf') else float(hi))


def relabel(labels, raw):
    """The legend text for a raw series label, given --label's (RAW, TEXT)
    pairs: the TEXT of raw itself, else raw's ', '-separated parts each
    replaced by its TEXT where it has one, or else named by value_name
    ('cc.algorithm=none' -> 'no CC'; a part that is not KEY=VALUE, such as
    a run folder's name, stays as it is)."""
    labels = dict(labels)
    if raw in labels:
        return labels[raw]
    return ', '.join(labels.get(part, _part_name(part)) for part in raw.split(', '))


def _part_name(part):
    key, sep, value = part.partition('=')
    if sep and re.fullmatch(r'[A-Za-z0-9_]+(\.[A-Za-z0-9_]+)+', key) and '=' not in value:
        return value_name(key, value)
    return part  # a run folder's name (cc.algorithm=hpcc_seed=1) stays as it is


# --------------------------------------------------------------------------- drawing


def plot_mean(ax, x, mean, half, label=None, floor=None, line=True, **kw):
    """Draw means as markers (joined by a line if line), and error bars of
    +-half where half is finite, their lower end clipped at floor (the
    metric's least possible value, e.g. 1 for a slowdown, 0 for a count)
    when given; points whose mean is NaN (no run has a value) are left out.

    x, mean, half: arrays of one shape (half in the unit of mean, NaN for
    no bar). Returns the Line2D of the means.
    """
    x, mean, half = (np.asarray(a, dtype=float) for a in (x, mean, half))
    keep = np.isfinite(mean)
    (drawn,) = ax.plot(x[keep], mean[keep], marker='o', label=label,
                       linestyle='-' if line else 'none', **kw)
    bars = keep & np.isfinite(half)
    if bars.any():
        lo = mean[bars] - half[bars]
        if floor is not None:
            lo = np.maximum(lo, floor)
        ax.errorbar(x[bars], mean[bars], yerr=[mean[bars] - lo, half[bars]], fmt='none',
                    ecolor=drawn.get_color(), elinewidth=0.8, capsize=2)
    return drawn


def plot_runs(ax, x, values, color, **kw):
    """Each run's value as a small faint dot at its point's x: x of shape
    (points,), values of shape (runs, points) (NaN: no value, not drawn).
    Returns the Line2D (gid 'runs', no legend label), or None when nothing
    is drawn."""
    x = np.asarray(x, dtype=float)
    v = np.atleast_2d(np.asarray(values, dtype=float))
    xs = np.broadcast_to(x, v.shape)
    keep = np.isfinite(v)
    if not keep.any():
        return None
    (dots,) = ax.plot(xs[keep], v[keep], linestyle='none', marker='.', markersize=4,
                      alpha=0.6, color=color, gid='runs', **kw)
    return dots


def dodge(i, n, width=0.6):
    """The offset of series i of n around a categorical position, so that n
    series' points at one category sit side by side within width (0 for n = 1)."""
    return 0.0 if n <= 1 else (i - (n - 1) / 2.0) * width / n


def categorical_x(ax, labels):
    """Categories 0..n-1 on the x axis, each tick labelled, no vertical grid."""
    ax.set_xticks(np.arange(len(labels)))
    ax.set_xticklabels(labels)
    ax.set_xlim(-0.5, len(labels) - 0.5)
    ax.grid(False, axis='x')


def log_y_if_wide(axes, values, force=False):
    """Log y scale (readable_log) on every axis if force, or if the finite
    values are all positive and span more than a decade (largest > 10 x
    smallest). values: numbers or arrays of any shapes. Returns whether it did."""
    v = flat(values)
    v = v[np.isfinite(v)]
    if force or (v.size and v.min() > 0 and v.max() > 10 * v.min()):
        for ax in axes:
            readable_log(ax, v, 'y')
        return True
    return False


def flat(values):
    """Numbers, or arrays of any shapes, as one float array of shape (n,)."""
    parts = [np.asarray(v, dtype=float).ravel() for v in values]
    return np.concatenate(parts) if parts else np.zeros(0)


def readable_log(ax, values, axis='y'):
    """A log scale on ax's axis ('x' or 'y') whose ticks are labelled as plain
    numbers (20, 50, 100, not 2x10^1 or 10^2 alone), enough of them to read
    the values: at 1, 2, ..., 9 of each decade when the positive finite
    values (any shape) span under half a decade, 1, 1.5, 2, 3, 4, 5 and 7
    under 0.8 decades, 1, 2 and 5 up to 2.5,
    1 and 3 up to 4, each decade beyond; minor ticks unlabelled. Returns
    the mantissas labelled."""
    v = flat(values)
    v = v[np.isfinite(v) & (v > 0)]
    span = math.log10(v.max() / v.min()) if v.size else 1.0
    subs = (tuple(range(1, 10)) if span < 0.5 else (1.0, 1.5, 2.0, 3.0, 4.0, 5.0, 7.0) if span < 0.8
            else (1.0, 2.0, 5.0) if span <= 2.5 else (1.0, 3.0) if span <= 4 else (1.0,))
    which = ax.xaxis if axis == 'x' else ax.yaxis
    (ax.set_xscale if axis == 'x' else ax.set_yscale)('log')
    which.set_major_locator(ticker.LogLocator(base=10, subs=subs))
    which.set_major_formatter(ticker.FuncFormatter(lambda t, _: plain_number(t)))
    which.set_minor_formatter(ticker.NullFormatter())
    return subs


def binary_size_axis(ax, sizes, axis='x'):
    """A log2 axis of sizes in bytes labelled in binary units (256 KiB, 1
    MiB): ticks at the sizes themselves when they are at most 8 distinct
    powers of 2 (a sweep of nccl-tests' sizes), else at powers of 2, as
    many as fit. Returns the tick positions when they are the sizes, else None."""
    which = ax.xaxis if axis == 'x' else ax.yaxis
    (ax.set_xscale if axis == 'x' else ax.set_yscale)('log', base=2)
    distinct = sorted({float(v) for v in flat(sizes) if np.isfinite(v) and v > 0})
    if 0 < len(distinct) <= 8 and all(math.log2(v).is_integer() for v in distinct):
        which.set_major_locator(ticker.FixedLocator(distinct))
    else:
        which.set_major_locator(ticker.LogLocator(base=2, numticks=5))
        distinct = None
    which.set_major_formatter(ticker.FuncFormatter(lambda t, _: binary_size(t)))
    which.set_minor_locator(ticker.NullLocator())
    return distinct


def binary_size(n):
    """Bytes in binary units as nccl-tests sizes are given: 512 B, 256 KiB, 1 MiB, 1.5 GiB."""
    for unit, scale in (('GiB', 2.0 ** 30), ('MiB', 2.0 ** 20), ('KiB', 2.0 ** 10)):
        if n >= scale:
            return '%s %s' % (plain_number(n / scale), unit)
    return '%s B' % plain_number(n)


def plain_number(x):
    """A tick value as text: '0.5', '20', '3000', '1e+06' past 10^5."""
    if x == 0 or 1e-3 <= abs(x) < 1e5:
        return '%g' % float('%.3g' % x)
    return '%.0e' % x


def figure(ncols=1, width=4.0, height=3.0, sharey=False):
    """A new figure of ncols axes in the house style: (fig, [axes])."""
    fig, axes = plt.subplots(1, ncols, figsize=(width * ncols, height), squeeze=False,
                             sharey=sharey, layout='constrained')
    return fig, list(axes[0])


def save(fig, output):
    """Write the figure as OUTPUT.png and OUTPUT.pdf; return the paths."""
    os.makedirs(os.path.dirname(os.path.abspath(output)), exist_ok=True)
    paths = []
    for fmt in FORMATS:
        path = '%s.%s' % (output, fmt)
        fig.savefig(path, format=fmt)
        paths.append(path)
    plt.close(fig)
    return paths


def write_study(output, text, data, fig, figure):
    """A study's outputs: print its tables and write them to OUTPUT/study.txt,
    its figures to OUTPUT/study.json, and the figure to FIGURE.png and .pdf
    (printing the paths)."""
    print(text)
    with open(os.path.join(output, 'study.txt'), 'w') as f:
        f.write(text)
    with open(os.path.join(output, 'study.json'), 'w') as f:
        json.dump(data, f, indent=1, sort_keys=True)
    for path in save(fig, figure):
        print(path)


def run_label(path):
    """A legend label for a run folder: its folder name."""
    return os.path.basename(os.path.normpath(path))


def run_main(build_parser, draw, argv=None):
    """A plot script's command line: parse, draw, save as PNG and PDF, print the
    paths. An OutputError (a missing or malformed input) is reported as
    'script: message' with exit status 2; returns the exit status."""
    args = build_parser().parse_args(argv)
    try:
        paths = save(draw(args), args.output)
    except ra.OutputError as e:
        sys.stderr.write('%s: %s\n' % (os.path.basename(sys.argv[0]), e))
        return 2
    for path in paths:
        print(path)
    return 0
