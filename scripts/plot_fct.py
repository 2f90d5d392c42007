#!/usr/bin/python3
"""FCT slowdown versus flow size: median, 95th and 99th percentile per size
bucket, one panel each on a shared y axis (the figure style of the HPCC and
DCQCN papers), for one run or several overlaid.

  scripts/plot_fct.py -o fct out/run1 out/run2           run folders (fct.csv)
  scripts/plot_fct.py -o fct out/sweep/results.csv       every sweep point
  scripts/plot_fct.py -o fct out/sweep/results.csv --where cc.algorithm=hpcc
  scripts/plot_fct.py -o fct out/sweep/results.csv --group-by cc.algorithm \
      --label cc.algorithm=hpcc=HPCC --label cc.algorithm=dcqcn=DCQCN

For a run folder the percentiles are computed here with numpy from the
completed flows of fct.csv, in the buckets summary.json names (or --buckets).
For a sweep's results.csv each line is one point of the grid (or, with
--group-by KEY, one value of KEY, averaging over the other keys): the mean
over its seeds of each percentile of their summaries, a seed whose bucket
held no flows left out; with two or more seeds a point has error bars, the
95 % Student's t confidence interval of that mean (the legend says over how
many seeds). The number beside each point is the flows it rests on (summed
over seeds). Empty buckets draw no point. A bucket sits at its upper size
edge on the log x axis; the y axis is log when the values span more than a
decade (or with --logy).
"""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rdmasim_analysis as ra  # noqa: E402
import rdmasim_plotting as rp  # noqa: E402
import rdmasim_results as rr  # noqa: E402

PANELS = (('p50', 'Median'), ('p95', '95th percentile'), ('p99', '99th percentile'))


def run_series(run_dir, edges):
    """The series of one run folder, reduced from fct.csv.

    Returns a dict: label (the folder name), x (bucket positions, bytes),
    flows (completed flows per bucket), runs (1 per bucket), y and half
    ({p50, p95, p99: slowdowns per bucket, NaN for an empty bucket}; half
    all NaN: one run has no interval), pooled (()). Arrays of shape (buckets,).
    """
    fct = ra.completed(ra.read_fct(run_dir))
    if edges:
        buckets = ra.edges_to_buckets(edges)
    elif os.path.exists(os.path.join(run_dir, ra.SUMMARY)):
        buckets = ra.summary_buckets(ra.read_summary(run_dir))
    else:
        buckets = ra.edges_to_buckets(ra.default_edges(fct['size']))
    reduced = ra.bucket_percentiles(fct['size'], fct['slowdown'], buckets)
    nan = np.full(len(reduced), np.nan)
    return {'label': rp.run_label(run_dir), 'x': np.array([ra.bucket_x(b, fct['size']) for b in reduced]),
            'flows': np.array([b['count'] for b in reduced]), 'runs': np.ones(len(reduced), dtype=int),
            'y': {n: np.array([b[n] for b in reduced]) for n, _ in PANELS},
            'half': {n: nan for n, _ in PANELS}, 'pooled': ()}


def sweep_series(path, where, group_by=()):
    """The series of a results.csv: one per grid point, or per value of the
    group_by keys; where ({key: value text}) keeps the points with those values.

    Each is a dict as run_series gives, over the seeds (and pooled keys) of
    its rows: y the mean of each percentile over the runs whose bucket held
    flows, half its 95 % t-interval half-width (NaN under 2 such runs), runs
    how many such runs, flows the bucket's flows summed over the runs,
    pooled the other swept keys the means pool.
    """
    res = rr.Results(path)
    rows = res.select(where)
    keys = res.series_keys(where, group_by)
    series = []
    for values, members in rr.group(rows, keys).items():
        buckets = [ra.results_buckets(r) for r in members]
        labels = [b['label'] for b in buckets[0]]
        for r, bs in zip(members, buckets):
            if [b['label'] for b in bs] != labels:
                raise ra.OutputError('%s: points %s and %s have different FCT buckets' %
                                     (path, members[0]['point'], r['point']))
        s = {'label': rr.label(keys, values), 'x': np.array([ra.bucket_x(b) for b in buckets[0]]),
             'flows': np.sum([[b['count'] for b in bs] for bs in buckets], axis=0),
             'y': {}, 'half': {}, 'pooled': res.pooled(members, keys)}
        for name, _ in PANELS:
            s['y'][name], s['half'][name], s['runs'] = rr.mean_ci([[b[name] for b in bs] for bs in buckets])
        series.append(s)
    return series


def build_parser():
    p = rp.parser(__doc__.split('\n\n')[0])
    p.add_argument('inputs', nargs='+', help='run folders and/or sweep results.csv files')
    p.add_argument('--buckets', help='size bucket edges in bytes for run folders, e.g. 0,1e4,1e5,1e6,1e7')
    rp.add_sweep_options(p)
    rp.add_label_option(p)
    p.add_argument('--logy', action='store_true', help='log y axis (default: when the values span a decade)')
    return p


def draw(args):
    """The figure for parsed arguments (not yet saved)."""
    edges = [float(e) for e in args.buckets.split(',')] if args.buckets else None
    series = []
    for path in args.inputs:
        if os.path.isdir(path):
            series.append(run_series(path, edges))
        else:
            series.extend(sweep_series(path, dict(args.where), args.group_by))

    fig, axes = rp.figure(ncols=len(PANELS), width=3.3, height=2.8, sharey=True)
    for i, s in enumerate(series):
        for ax, (name, title) in zip(axes, PANELS):
            line = rp.plot_mean(ax, s['x'], s['y'][name], s['half'][name],
                                label=rp.relabel(args.label, s['label']))
            annotate_flows(ax, s['x'], s['y'][name], s['flows'], line.get_color(), below=i % 2)
    for ax, (name, title) in zip(axes, PANELS):
        ax.set_xscale('log')
        ax.set_title(title)
        ax.set_xlabel('Flow size (bytes)')
    rp.log_y_if_wide(axes, [s['y'][n] for s in series for n, _ in PANELS], args.logy)
    axes[0].set_ylabel('FCT slowdown (FCT / ideal FCT)')
    note = rr.series_note(series)
    if len(series) > 1 or note:
        axes[-1].legend(fontsize='small', loc='upper left', bbox_to_anchor=(1.02, 1.0), title=note,
                        title_fontsize='small')
    if args.title:
        fig.suptitle(args.title)
    return fig


def annotate_flows(ax, x, y, flows, color, below=False):
    """Write beside each drawn point (finite y) the number of flows it rests
    on: above right of it, or below right (every other series, so that two
    series' numbers at one bucket do not overlap)."""
    for xi, yi, n in zip(x, y, flows):
        if np.isfinite(yi):
            ax.annotate('%d' % n, (xi, yi), xytext=(3, -9 if below else 3), textcoords='offset points',
                        fontsize=6, color=color)


if __name__ == '__main__':
    sys.exit(rp.run_main(build_parser, draw))
