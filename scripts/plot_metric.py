#!/usr/bin/python3
"""Any metric of a sweep against a swept parameter: one series per value of
the other swept parameters (or of --group-by), each point the mean over its
seeds with error bars of the 95 % Student's t confidence interval, and each
seed's own value as a small dot beside it.

  scripts/plot_metric.py -o fig/p99 out/sweep/results.csv --x traffic.load \\
      --metric fct_slowdown.0-10000.p99
  scripts/plot_metric.py -o fig/pauses out/sweep/results.csv --x traffic.load \\
      --metric pfc.pause_frames --label cc.algorithm=hpcc=HPCC

The metric is a column of the sweep's results.csv (flows.completed,
pfc.pause_frames, drops, fct_slowdown.<bucket>.p99, cache.qpc.hit_rate,
completed_gbps, ...); the axes are labelled in words with units
(completed_gbps: 'Goodput of completed flows (Gb/s)'; traffic.load:
'Offered load (fraction of host line rate)'; --ylabel overrides), legend
entries and ticks name values readably (cc.algorithm=none: 'no CC'). An
empty cell (a bucket without flows, a failed point) is left out of the
mean, and a point with no value is not drawn. A point of two or more runs
has error bars, their lower end cut at the metric's floor (1 for a
slowdown, 0 for the rest: all are counts, rates, times or shares); the
legend says over how many seeds (or runs, naming the swept keys a
--group-by mean pools besides the seeds). Numeric x values sit on a linear
axis joined by lines (--logx: log), sizes with a unit (collective.bytes =
4MiB) as bytes; other values are categories in the sweep's order, each
series' points side by side and not joined. The y axis is log, with
labelled ticks at 1, 2 and 5 of each decade, when the values span more than
a decade (or with --logy). An unknown metric or x is refused (exit status
2) with the list of the available ones.
"""

import os
import sys

import numpy as np
from matplotlib.lines import Line2D

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
    a value), arrays of shape (len(xs),) in the metric's unit, values (each
    run's value: shape (most runs at one x, len(xs)), NaN-padded), and
    pooled (the swept keys its means pool besides the seeds).
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
        cols = [ra.column(at.get(v, []), metric, path) for v in xs]
        mean, half, runs = (np.array(a) for a in zip(*[rr.mean_ci(c) for c in cols]))
        each = np.full((max(len(c) for c in cols), len(xs)), np.nan)
        for j, c in enumerate(cols):
            each[:len(c), j] = c
        series.append({'label': rr.label(keys, values), 'mean': mean, 'half': half, 'runs': runs,
                       'values': each, 'pooled': res.pooled(members, keys + [x])})
    return [v for (v,) in xs], series


def number(text):
    """A value text as a float: a plain number, or a size with its unit
    ('4MiB' = 4194304.0, so collective.bytes sits on a numeric axis;
    rdmasim_analysis.size_bytes). Raises ValueError for anything else."""
    return ra.size_bytes(text)


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
    p.add_argument('--ylabel', help="y axis label (default: the metric's name and unit)")
    p.add_argument('--logx', action='store_true', help='log x axis (numeric x)')
    p.add_argument('--logy', action='store_true', help='log y axis (default: when the values span a decade)')
    return p


def draw(args):
    """The figure for parsed arguments (not yet saved): per series, its
    means (marker 'o', labelled with the legend text; joined by a line on a
    numeric x only) with error bars, and its runs' values as dots (gid
    'runs'); on a categorical x the points of series i sit at category
    index + rdmasim_plotting.dodge(i, series)."""
    xs, series = metric_series(args.results, args.metric, args.x, dict(args.where), args.group_by)
    pos = numbers(xs)
    numeric = pos is not None
    floor = rp.metric_floor(args.metric)
    fig, (ax,) = rp.figure(width=4.5, height=3.2)
    clipped = False
    for i, s in enumerate(series):
        color = 'C%d' % (i % 10)
        x = pos if numeric else np.arange(len(xs)) + rp.dodge(i, len(series))
        if np.nanmax(s['runs'], initial=0) > 1:
            rp.plot_runs(ax, x, s['values'], color)
        rp.plot_mean(ax, x, s['mean'], s['half'], label=rp.relabel(args.label, s['label']),
                     floor=floor, line=numeric, color=color)
        with np.errstate(invalid='ignore'):
            clipped |= bool(np.any(s['mean'] - s['half'] < floor))
    if not numeric:
        rp.categorical_x(ax, [rp.tick_name(args.x, v) for v in xs])
    elif args.logx:
        rp.readable_log(ax, pos, 'x')
    rp.log_y_if_wide([ax], [a for s in series for a in (s['mean'], s['values'])], args.logy)
    ax.set_xlabel(rp.key_label(args.x))
    ax.set_ylabel(args.ylabel or rp.metric_label(args.metric, ra.read_table(args.results)[0]))
    handles = [h for h in ax.get_legend_handles_labels()[0]] if len(series) > 1 else []
    note = rr.series_note(series)
    if note:
        unit = rr.runs_unit(sorted({k for s in series for k in s['pooled']}))
        handles.append(Line2D([], [], color='k', marker='.', markersize=4, alpha=0.6, linestyle='none',
                              label='one %s' % ('seed' if unit == 'seeds' else 'run')))
        if clipped:
            note += '\n(cut at %g, the least possible)' % floor
    if handles:
        ax.legend(handles=handles, fontsize='small', title=note, title_fontsize='small',
                  loc='upper left', bbox_to_anchor=(1.02, 1.0))
    if args.title:
        fig.suptitle(args.title)
    return fig


if __name__ == '__main__':
    sys.exit(rp.run_main(build_parser, draw))
