#!/usr/bin/python3
"""Any metric of a sweep against a swept parameter: one line per value of
the other swept parameters (or of --group-by), each point the mean over its
seeds with error bars of the 95 % Student's t confidence interval.

  scripts/plot_metric.py -o fig/p99 out/sweep/results.csv --x traffic.load \\
      --metric fct_slowdown.0-10000.p99
  scripts/plot_metric.py -o fig/pauses out/sweep/results.csv --x traffic.load \\
      --metric pfc.pause_frames --label cc.algorithm=hpcc=HPCC

The metric is a column of the sweep's results.csv (flows.completed,
pfc.pause_frames, drops, fct_slowdown.<bucket>.p99, cache.qpc.hit_rate,
completed_gbps, ...; the y axis is in its unit); an empty cell (a bucket
without flows, a failed point) is left out of the mean, and a point with
no value is not drawn. A point of two or more runs has error bars; the
legend says over how many seeds (or runs, naming the swept keys a
--group-by mean pools besides the seeds). Numeric x values sit on a linear
axis (--logx: log), sizes with a unit (collective.bytes = 4MiB) as
bytes, others are categories in the sweep's order. The y axis
is log when the values span more than a decade (or with --logy). An
unknown metric or x is refused (exit status 2) with the list of the
available ones.
"""

import os
import re
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rdmasim_analysis as ra  # noqa: E402
import rdmasim_plotting as rp  # noqa: E402
import rdmasim_results as rr  # noqa: E402


def metric_series(path, metric, x, where=None, group_by=()):
    """The lines of a metric against a swept key x, from a results.csv.

    where: {key: value text} keeps the points with those values; group_by:
    the keys whose values make the lines (default every other swept key).
    Returns (xs, series): xs the x value texts in order (numeric ones
    sorted by value), series a list of dicts, each with label (raw), mean,
    half (the t-interval half-width, NaN under 2 runs), runs (the runs with
    a value), arrays of shape (len(xs),) in the metric's unit, and pooled
    (the swept keys its means pool besides the seeds).
    """
    where = where or {}
    res = rr.Results(path)
    res.check_param(x, '--x')
    res.check_metric(metric)
    rows = res.select(where)
    keys = res.series_keys(where, group_by, x)
    xs = list(rr.group(rows, [x]))
    if numbers([v for (v,) in xs]) is not None:
        xs.sort(key=lambda v: number(v[0]))
    series = []
    for values, members in rr.group(rows, keys).items():
        at = rr.group(members, [x])
        stats = [rr.mean_ci(ra.column(at.get(v, []), metric, path)) for v in xs]
        mean, half, runs = (np.array(a) for a in zip(*stats))
        series.append({'label': rr.label(keys, values), 'mean': mean, 'half': half, 'runs': runs,
                       'pooled': res.pooled(members, keys + [x])})
    return [v for (v,) in xs], series


#: byte units a size key takes, as rdma-sim reads them (RdmaParseByteSize):
#: decimal powers of 1000, binary (IEC 80000-13) powers of 1024
BYTE_UNITS = {'B': 1, 'kB': 1e3, 'KB': 1e3, 'MB': 1e6, 'GB': 1e9, 'TB': 1e12,
              'KiB': 2**10, 'MiB': 2**20, 'GiB': 2**30, 'TiB': 2**40}
_SIZE = re.compile(r'([0-9.]+(?:[eE][+-]?[0-9]+)?)(%s)' % '|'.join(BYTE_UNITS))


def number(text):
    """A value text as a float: a plain number, or a size with its unit
    ('4MiB' = 4194304.0, so collective.bytes sits on a numeric axis).
    Raises ValueError for anything else."""
    m = _SIZE.fullmatch(text.strip())
    return float(m.group(1)) * BYTE_UNITS[m.group(2)] if m else float(text)


def numbers(texts):
    """The texts as a float array (numbers, sizes with units), or None if
    one of them is not a number."""
    try:
        return np.array([number(t) for t in texts])
    except ValueError:
        return None


def build_parser():
    p = rp.parser(__doc__.split('\n\n')[0])
    p.add_argument('results', help="a sweep's results.csv")
    p.add_argument('--metric', required=True, help='the results.csv column drawn on y')
    p.add_argument('--x', required=True, help='the swept key on x')
    rp.add_sweep_options(p)
    rp.add_label_option(p)
    p.add_argument('--ylabel', help='y axis label (default: the metric column)')
    p.add_argument('--logx', action='store_true', help='log x axis (numeric x)')
    p.add_argument('--logy', action='store_true', help='log y axis (default: when the values span a decade)')
    return p


def draw(args):
    """The figure for parsed arguments (not yet saved)."""
    xs, series = metric_series(args.results, args.metric, args.x, dict(args.where), args.group_by)
    pos = numbers(xs)
    numeric = pos is not None
    if not numeric:
        pos = np.arange(len(xs), dtype=float)
    fig, (ax,) = rp.figure(width=4.5, height=3.2)
    for s in series:
        rp.plot_mean(ax, pos, s['mean'], s['half'], label=rp.relabel(args.label, s['label']))
    if not numeric:
        ax.set_xticks(pos)
        ax.set_xticklabels(xs)
        ax.set_xlim(-0.5, len(xs) - 0.5)
    elif args.logx:
        ax.set_xscale('log')
    rp.log_y_if_wide([ax], [s['mean'] for s in series], args.logy)
    ax.set_xlabel(args.x)
    ax.set_ylabel(args.ylabel or args.metric)
    note = rr.series_note(series)
    if len(series) > 1 or note:
        ax.legend(fontsize='small', title=note, title_fontsize='small')
    if args.title:
        fig.suptitle(args.title)
    return fig


if __name__ == '__main__':
    sys.exit(rp.run_main(build_parser, draw))
