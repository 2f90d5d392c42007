#!/usr/bin/python3
"""FCT slowdown per flow-size bucket: median, 95th and 99th percentile, one
panel each on a shared y axis (the figure of the HPCC and DCQCN papers),
for one run or several overlaid, or a sweep's points over their seeds.

  scripts/plot_fct.py -o fct out/run1 out/run2           run folders (fct.csv)
  scripts/plot_fct.py -o fct out/sweep/results.csv       every sweep point
  scripts/plot_fct.py -o fct out/sweep/results.csv --where cc.algorithm=hpcc
  scripts/plot_fct.py -o fct out/sweep/results.csv --group-by cc.algorithm \
      --label cc.algorithm=hpcc=HPCC --label cc.algorithm=dcqcn=DCQCN

The size buckets are categories on x, in size order, each labelled with
its range and the flows it holds (summed over a series' runs; 'a-b flows'
when the series differ); a series' points are joined across them, and
several series sit side by side at each bucket. A bucket no series has a
flow in is left out; a series' empty bucket draws no point.

A run folder's point is the nearest-rank percentile of its completed flows
(fct.csv) in the buckets summary.json names (or --buckets). A sweep's
results.csv gives one series per grid point, or per value of --group-by
KEY (pooling the other swept keys): the completed flows of its runs (the
seeds; each point's fct.csv, in the point folders beside results.csv) are
pooled and the point is their percentile, and each run's own percentile is
a small dot beside it, so the spread over seeds shows, and nothing is drawn
below a slowdown's floor of 1 (as a t-interval over three seeds would be).
Without the point folders the point is the median of the runs'
percentiles. A percentile that rests on too few flows to be more than the
largest of them (nearest rank: fewer than 100 flows for p99, 20 for p95) is
an open marker: it is the bucket's largest slowdown. Legend entries name
swept values readably (cc.algorithm=none is 'no CC'; --label overrides).
The y axis is log when the values span more than a decade (or --logy).
"""

import os
import sys

import numpy as np
from matplotlib.lines import Line2D

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rdmasim_analysis as ra  # noqa: E402
import rdmasim_plotting as rp  # noqa: E402
import rdmasim_results as rr  # noqa: E402

#: (percentile name, its q, panel title)
PANELS = (('p50', 50.0, 'Median'), ('p95', 95.0, '95th percentile'), ('p99', 99.0, '99th percentile'))


def unfinished_sizes(fct):
    """The sizes (bytes) of the flows of a read_fct() still running at the
    run's end (status INCOMPLETE): left out of every percentile, they are
    the tail, so the plot counts them per bucket."""
    return fct['size'][fct['status'] == ra.WC_INCOMPLETE]


def flows_series(label, buckets, runs, pooled=(), unfinished=()):
    """A series from its runs' completed flows, pooled.

    label: raw legend label; buckets: dicts with label, lo, hi (bytes, lo <=
    size < hi); runs: per run, (sizes, slowdowns) arrays of its completed
    flows; pooled: the swept keys the series pools besides the seeds.

    Returns a dict: label, buckets, runs (int), method 'pooled', pooled,
    flows (flows per bucket, all runs: shape (buckets,)), y ({p50, p95,
    p99: the nearest-rank percentile of the pooled flows per bucket, NaN
    for an empty one}), unfinished (flows per bucket still running at
    their run's end, all runs; unfinished: their sizes), per_run ({p50, p95, p99: shape (runs, buckets), each
    run's own percentile}), sparse ({p50, p95, p99: bool, shape (buckets,),
    True where the percentile is the largest of its flows:
    rdmasim_analysis.percentile_is_max}). Slowdowns are FCT / ideal FCT.
    """
    sizes = np.concatenate([np.asarray(s, dtype=float) for s, _ in runs])
    slowdowns = np.concatenate([np.asarray(d, dtype=float) for _, d in runs])
    together = ra.bucket_percentiles(sizes, slowdowns, buckets)
    each = [ra.bucket_percentiles(s, d, buckets) for s, d in runs]
    flows = np.array([b['count'] for b in together])
    sizes_left = np.asarray(list(unfinished), dtype=float)
    left = np.array([np.count_nonzero((sizes_left >= b['lo']) & (sizes_left < b['hi']))
                     for b in buckets])
    return {'label': label, 'buckets': [_edges(b) for b in buckets], 'runs': len(runs),
            'method': 'pooled', 'pooled': list(pooled), 'flows': flows, 'unfinished': left,
            'y': {n: np.array([b[n] for b in together]) for n, _, _ in PANELS},
            'per_run': {n: np.array([[b[n] for b in e] for e in each]) for n, _, _ in PANELS},
            'sparse': {n: np.array([ra.percentile_is_max(c, q) for c in flows])
                       for n, q, _ in PANELS}}


def percentile_series(label, runs, pooled=()):
    """A series from its runs' percentiles alone (results.csv rows whose
    folders are gone): runs, per run the buckets of rdmasim_analysis.
    results_buckets (one bucket list for every run). The dict flows_series
    gives, with method 'median': y the median over the runs that have
    flows in the bucket, sparse where any of those runs' percentile is the
    largest of its flows, flows the runs' flows summed."""
    counts = np.array([[b['count'] for b in r] for r in runs])
    per_run = {n: np.array([[b[n] for b in r] for r in runs], dtype=float) for n, _, _ in PANELS}
    y, sparse = {}, {}
    for n, q, _ in PANELS:
        v = per_run[n]
        have = np.isfinite(v).any(axis=0)
        y[n] = np.full(v.shape[1], np.nan)
        if have.any():
            y[n][have] = np.nanmedian(v[:, have], axis=0)
        sparse[n] = np.array([any(ra.percentile_is_max(c, q) for c in col) for col in counts.T])
    return {'label': label, 'buckets': [_edges(b) for b in runs[0]], 'runs': len(runs),
            'method': 'median', 'pooled': list(pooled), 'flows': counts.sum(axis=0),
            'unfinished': np.array([sum(int(b.get('unfinished') or 0) for b in col)
                                    for col in zip(*runs)]),
            'y': y, 'per_run': per_run, 'sparse': sparse}


def _edges(bucket):
    return {'label': bucket['label'], 'lo': bucket['lo'], 'hi': bucket['hi']}


def run_series(run_dir, edges):
    """The series of one run folder (flows_series of its fct.csv), labelled
    with the folder's name; edges: bucket edges in bytes, or None for
    summary.json's buckets (decades of the sizes without one)."""
    every = ra.read_fct(run_dir)
    fct = ra.completed(every)
    if edges:
        buckets = ra.edges_to_buckets(edges)
    elif os.path.exists(os.path.join(run_dir, ra.SUMMARY)):
        buckets = ra.summary_buckets(ra.read_summary(run_dir))
    else:
        buckets = ra.edges_to_buckets(ra.default_edges(fct['size']))
    return flows_series(rp.run_label(run_dir), buckets, [(fct['size'], fct['slowdown'])],
                        unfinished=unfinished_sizes(every))


def sweep_series(path, where, group_by=()):
    """The series of a results.csv: one per grid point, or per value of the
    group_by keys; where ({key: value text}) keeps the points with those
    values. Each pools its runs' flows (flows_series) when every run's
    fct.csv is in its point folder beside results.csv, else takes the
    median of their percentiles (percentile_series)."""
    res = rr.Results(path)
    rows = res.select(where)
    keys = res.series_keys(where, group_by)
    root = os.path.dirname(os.path.abspath(path))
    series = []
    for values, members in rr.group(rows, keys).items():
        buckets = [ra.results_buckets(r) for r in members]
        labels = [b['label'] for b in buckets[0]]
        for r, bs in zip(members, buckets):
            if [b['label'] for b in bs] != labels:
                raise ra.OutputError('%s: points %s and %s have different FCT buckets' %
                                     (path, members[0]['point'], r['point']))
        label, pooled = rr.label(keys, values), res.pooled(members, keys)
        folders = [os.path.join(root, r['point']) for r in members]
        if all(os.path.isfile(os.path.join(f, ra.FCT_CSV)) for f in folders):
            every = [ra.read_fct(f) for f in folders]
            flows = [ra.completed(f) for f in every]
            series.append(flows_series(label, buckets[0], [(f['size'], f['slowdown']) for f in flows],
                                       pooled, np.concatenate([unfinished_sizes(f) for f in every])))
        else:
            series.append(percentile_series(label, buckets, pooled))
    return series


def collect(args):
    """The series and the buckets drawn, for parsed arguments: (buckets,
    series), buckets the (lo, hi) pairs (bytes) with flows in some series,
    in size order; series as flows_series gives."""
    edges = [float(e) for e in args.buckets.split(',')] if args.buckets else None
    series = []
    for path in args.inputs:
        if os.path.isdir(path):
            series.append(run_series(path, edges))
        else:
            series.extend(sweep_series(path, dict(args.where), args.group_by))
    buckets = sorted({(b['lo'], b['hi']) for s in series for b, n in zip(s['buckets'], s['flows'])
                      if n > 0})
    return buckets, series


def bucket_ticks(buckets, series):
    """A tick label per bucket: its range and the flows behind it
    ('<10 kB\\n39 flows'; '37-39 flows' when the series differ)."""
    out = []
    for lo, hi in buckets:
        counts = sorted({int(n) for s in series for b, n in zip(s['buckets'], s['flows'])
                         if (b['lo'], b['hi']) == (lo, hi)})
        flows = '%d' % counts[0] if len(counts) == 1 else '%d\u2013%d' % (counts[0], counts[-1])
        left = sum(int(n) for s in series for b, n in zip(s['buckets'], s['unfinished'])
                   if (b['lo'], b['hi']) == (lo, hi))
        out.append('%s\n%s flows' % (ra.bucket_range_label(lo, hi), flows) +
                   ('\n+%d unfinished' % left if left else ''))
    return out


def unfinished_note(series):
    """The warning a figure of runs with unfinished flows carries (and
    prints): how many, and that the percentiles leave them out; '' if none."""
    left = sum(int(np.sum(s['unfinished'])) for s in series)
    if not left:
        return ''
    return ('%d flows were still running at their run\'s end (sim.stopTime): the percentiles '
            'leave them out, and they are the tail' % left)


def build_parser():
    p = rp.parser(__doc__.split('\n\n')[0])
    p.add_argument('inputs', nargs='+', help='run folders and/or sweep results.csv files')
    p.add_argument('--buckets', help='size bucket edges in bytes for run folders, e.g. 0,1e4,1e5,1e6,1e7')
    rp.add_sweep_options(p)
    rp.add_label_option(p)
    p.add_argument('--logy', action='store_true', help='log y axis (default: when the values span a decade)')
    return p


def draw(args):
    """The figure for parsed arguments (not yet saved). Each panel holds,
    per series, a line joining its points (gid 'series'), the points as a
    scatter labelled with the series' legend text (open markers where
    sparse) and each run's percentiles as dots (gid 'runs'; only for a
    series of two or more runs); x positions are bucket indices (collect's
    order) plus the series' offset."""
    buckets, series = collect(args)
    # A bucket whose flows are all unfinished is drawn too (its tick says so).
    buckets = sorted(set(buckets) | {(b['lo'], b['hi']) for s in series
                                     for b, n in zip(s['buckets'], s['unfinished']) if n > 0})
    where = {b: i for i, b in enumerate(buckets)}
    fig, axes = rp.figure(ncols=len(PANELS), width=3.8, height=3.0, sharey=True)
    handles = []
    for i, s in enumerate(series):
        color = 'C%d' % (i % 10)
        pos = np.array([where.get((b['lo'], b['hi']), -1) for b in s['buckets']])
        inside = pos >= 0
        x = pos[inside] + rp.dodge(i, len(series))
        label = rp.relabel(args.label, s['label'])
        for ax, (name, _, _) in zip(axes, PANELS):
            y = s['y'][name][inside]
            keep = np.isfinite(y)
            if s['runs'] > 1:
                rp.plot_runs(ax, x, s['per_run'][name][:, inside], color)
            ax.plot(x[keep], y[keep], color=color, linewidth=1.0, alpha=0.7, gid='series')
            open_ = s['sparse'][name][inside][keep]
            ax.scatter(x[keep], y[keep], s=22, zorder=3, linewidths=1.0, edgecolors=color,
                       facecolors=[(1, 1, 1, 1) if o else color for o in open_], label=label)
        handles.append(Line2D([], [], color=color, marker='o', linewidth=1.0, label=label))
    for ax, (_, _, title) in zip(axes, PANELS):
        rp.categorical_x(ax, bucket_ticks(buckets, series))
        ax.tick_params(axis='x', labelsize=7)
        ax.set_title(title)
        ax.set_xlabel('Flow size')
    rp.log_y_if_wide(axes, [v for s in series for n, _, _ in PANELS
                            for v in (s['y'][n], s['per_run'][n].ravel())], args.logy)
    axes[0].set_ylabel('FCT slowdown (FCT / ideal FCT)')
    handles += key_handles(series)
    if len(series) > 1 or len(handles) > len(series):
        axes[-1].legend(handles=handles, fontsize='small', loc='upper left',
                        bbox_to_anchor=(1.02, 1.0))
    if args.title:
        fig.suptitle(args.title)
    note = unfinished_note(series)
    if note:
        print('plot_fct.py: warning: ' + note, file=sys.stderr)
        fig.text(0.01, -0.02, 'Warning: ' + note + '.', fontsize='small', color='C3',
                 va='top', gid='unfinished')
    return fig


def key_handles(series):
    """Legend entries that say what the markers are: the point (pooled flows
    of N seeds, or the median of N seeds' percentiles), a dot (one seed's
    percentile) and an open marker (too few flows), each only if drawn."""
    many = [s for s in series if s['runs'] > 1]
    out = []
    if many:
        ns = sorted({s['runs'] for s in many})
        count = '%d' % ns[0] if len(ns) == 1 else '%d\u2013%d' % (ns[0], ns[-1])
        unit = rr.runs_unit(sorted({k for s in many for k in s['pooled']}))
        point = ('percentile of the flows\nof %s %s pooled' % (count, unit)
                 if all(s['method'] == 'pooled' for s in many)
                 else 'median over %s %s' % (count, unit))
        out.append(Line2D([], [], color='k', marker='o', linestyle='none', label=point))
        out.append(Line2D([], [], color='k', marker='.', markersize=4, alpha=0.6,
                          linestyle='none',
                          label="one %s's percentile" % ('seed' if unit == 'seeds' else 'run')))
    if any(s['sparse'][n][np.isfinite(s['y'][n])].any() for s in series for n, _, _ in PANELS):
        out.append(Line2D([], [], color='k', marker='o', markerfacecolor='white', linestyle='none',
                          label='too few flows for the\npercentile (p99 < %d, p95 < %d):\n'
                                'the largest slowdown' % (ra.min_count(99.0), ra.min_count(95.0))))
    return out


if __name__ == '__main__':
    sys.exit(rp.run_main(build_parser, draw))
