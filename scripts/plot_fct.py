#!/usr/bin/python3
"""FCT slowdown versus flow size: median, 95th and 99th percentile per size
bucket, one panel each (the figure style of the HPCC and DCQCN papers), for
one run or several overlaid.

  scripts/plot_fct.py -o fct out/run1 out/run2           run folders (fct.csv)
  scripts/plot_fct.py -o fct out/sweep/results.csv       every sweep point
  scripts/plot_fct.py -o fct out/sweep/results.csv --where cc.algorithm=hpcc

For a run folder the percentiles are computed here with numpy from the
completed flows of fct.csv, in the buckets summary.json names (or --buckets).
For a sweep's results.csv each line is one point of the grid, the
percentiles of its summary averaged over its seeds. A bucket sits at its
upper size edge on the log x axis.
"""

import os
import sys
import warnings

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rdmasim_analysis as ra  # noqa: E402
import rdmasim_plotting as rp  # noqa: E402

PANELS = (('p50', 'Median'), ('p95', '95th percentile'), ('p99', '99th percentile'))


def run_series(run_dir, edges):
    """(label, x, {p50, p95, p99}) of one run folder, reduced from fct.csv."""
    fct = ra.completed(ra.read_fct(run_dir))
    if edges:
        buckets = ra.edges_to_buckets(edges)
    elif os.path.exists(os.path.join(run_dir, ra.SUMMARY)):
        buckets = ra.summary_buckets(ra.read_summary(run_dir))
    else:
        buckets = ra.edges_to_buckets(ra.default_edges(fct['size']))
    reduced = ra.bucket_percentiles(fct['size'], fct['slowdown'], buckets)
    x = [ra.bucket_x(b, fct['size']) for b in reduced]
    return rp.run_label(run_dir), x, {n: [b[n] for b in reduced] for n, _ in PANELS}


def sweep_series(path, where):
    """One (label, x, {p50, p95, p99}) per grid point of a results.csv (mean over seeds)."""
    rows = ra.read_table(path)
    if not rows:
        raise ra.OutputError('%s: no rows' % path)
    cols = list(rows[0])
    if 'point' not in cols or 'seed' not in cols:
        raise ra.OutputError('%s: not a sweep results.csv (no point/seed columns)' % path)
    params = cols[cols.index('point') + 1:cols.index('seed')]
    groups = {}
    for r in rows:
        if r['status'] != 'ok' or any(r.get(k) != v for k, v in where.items()):
            continue
        groups.setdefault(tuple(r[k] for k in params), []).append(r)
    series = []
    for values, members in groups.items():
        buckets = [ra.results_buckets(r) for r in members]
        label = ', '.join('%s=%s' % kv for kv in zip(params, values) if kv[0] not in where) or 'all'
        x = [ra.bucket_x(b) for b in buckets[0]]
        with warnings.catch_warnings():  # a bucket empty in every seed stays NaN (a gap)
            warnings.simplefilter('ignore', RuntimeWarning)
            ys = {n: np.nanmean([[b[n] for b in bs] for bs in buckets], axis=0) for n, _ in PANELS}
        series.append((label, x, ys))
    if not series:
        raise ra.OutputError('%s: no successful point matches' % path)
    return series


def build_parser():
    p = rp.parser(__doc__.split('\n\n')[0])
    p.add_argument('inputs', nargs='+', help='run folders and/or sweep results.csv files')
    p.add_argument('--buckets', help='size bucket edges in bytes for run folders, e.g. 0,1e4,1e5,1e6,1e7')
    p.add_argument('--where', action='append', default=[], metavar='KEY=VALUE',
                   help='only sweep points with this parameter value')
    p.add_argument('--logy', action='store_true', help='log y axis')
    return p


def draw(args):
    """The figure for parsed arguments (not yet saved)."""
    edges = [float(e) for e in args.buckets.split(',')] if args.buckets else None
    where = dict(w.split('=', 1) for w in args.where)

    series = []
    for path in args.inputs:
        if os.path.isdir(path):
            series.append(run_series(path, edges))
        else:
            series.extend(sweep_series(path, where))

    fig, axes = rp.figure(ncols=len(PANELS), width=3.3, height=2.8)
    for ax, (name, title) in zip(axes, PANELS):
        for label, x, ys in series:
            ax.plot(x, ys[name], marker='o', label=label)
        ax.set_xscale('log')
        if args.logy:
            ax.set_yscale('log')
        ax.set_title(title)
        ax.set_xlabel('Flow size (bytes)')
    axes[0].set_ylabel('FCT slowdown (FCT / ideal FCT)')
    if len(series) > 1:
        axes[-1].legend(fontsize='small', loc='upper left', bbox_to_anchor=(1.02, 1.0))
    if args.title:
        fig.suptitle(args.title)
    return fig


if __name__ == '__main__':
    sys.exit(rp.run_main(build_parser, draw))
