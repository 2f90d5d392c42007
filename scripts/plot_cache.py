#!/usr/bin/python3
"""NIC cache hit rate and throughput versus the number of QPs, one line per
cache size.

  scripts/plot_cache.py -o cache qp-scaling.csv
  scripts/plot_cache.py -o cache out/sweep/results.csv --qps-key traffic.QpsPerPair \\
      --entries-key cache.qpc.Entries --table-name qpc

The first form reads examples/rdma-qp-scaling's CSV (x qps_made, hit rate
qpc_hits / (qpc_hits + qpc_misses), throughput payload_gbps) or any CSV with
columns cache_entries,qps,throughput_gbps,hit_rate. The second reads a sweep's
results.csv: x is the --qps-key parameter, lines the --entries-key
parameter, hit rate the cache.<table>.hit_rate metric and throughput the
completed flows' bytes over the simulated time (--throughput-column picks
another metric column). A point with several rows (seeds, or other swept
keys) is their mean; with two or more, error bars give the 95 % Student's
t confidence interval of that mean (the legend says over how many rows).
--label RAW=TEXT renames a line, RAW being KEY=VALUE of its cache size
(cache.qpc.Entries=64, or cache_entries=64 for the CSV forms).
"""

import os
import sys

import numpy as np
from matplotlib.ticker import ScalarFormatter

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rdmasim_analysis as ra  # noqa: E402
import rdmasim_plotting as rp  # noqa: E402
import rdmasim_results as rr  # noqa: E402


def build_parser():
    p = rp.parser(__doc__.split('\n\n')[0])
    p.add_argument('table', help='qp-scaling CSV or sweep results.csv')
    p.add_argument('--qps-key', help='results.csv: the parameter giving the number of QPs')
    p.add_argument('--entries-key', help='results.csv: the parameter giving the cache entries')
    p.add_argument('--table-name', dest='cache_table', default='qpc',
                   help='results.csv: the NIC cache table (default qpc)')
    p.add_argument('--throughput-column', default='throughput_gbps',
                   help='column in Gb/s (results.csv: default completed_gbps)')
    rp.add_label_option(p)
    return p


def draw(args):
    """The figure for parsed arguments (not yet saved)."""

    rows = ra.read_table(args.table)
    unit = 'rows'
    if args.qps_key:
        res = rr.Results(args.table)
        rows = res.select({})
        qps_col, entries_col = args.qps_key, args.entries_key
        unit = rr.runs_unit(res.pooled(rows, [qps_col, entries_col]))
        hit_col = 'cache.%s.hit_rate' % args.cache_table
        tput_col = args.throughput_column
        if tput_col == 'throughput_gbps':
            tput_col = 'completed_gbps'
    elif rows and 'qpc_hits' in rows[0]:  # rdma-qp-scaling's own CSV
        qps_col, entries_col, hit_col, tput_col = 'qps_made', 'cache_entries', None, 'payload_gbps'
    else:
        qps_col, entries_col, hit_col, tput_col = 'qps', 'cache_entries', 'hit_rate', args.throughput_column
    if not rows:
        raise ra.OutputError('%s: no rows' % args.table)
    qps = ra.column(rows, qps_col, args.table)
    entries = ra.column(rows, entries_col, args.table) if entries_col else np.zeros(len(rows))
    tput = ra.column(rows, tput_col, args.table)
    if hit_col:
        hit = ra.column(rows, hit_col, args.table)
    else:  # QPC lookups that hit: hits / (hits + misses)
        hits, misses = ra.column(rows, 'qpc_hits', args.table), ra.column(rows, 'qpc_misses', args.table)
        hit = hits / np.maximum(hits + misses, 1)

    fig, (ax_hit, ax_tput) = rp.figure(ncols=2, width=3.8, height=3.0)
    runs = []
    for e in np.unique(entries):
        sel = entries == e
        xs = np.unique(qps[sel])
        label = dict(args.label).get('%s=%g' % (entries_col, e), '%d entries' % e) if entries_col else None
        for ax, ys in ((ax_hit, hit), (ax_tput, tput)):
            mean, half, n = np.transpose([rr.mean_ci(ys[sel & (qps == x)]) for x in xs])
            rp.plot_mean(ax, xs, mean, half, label=label)
            runs.extend(n)
    for ax in (ax_hit, ax_tput):
        ax.set_xscale('log', base=2)
        ax.xaxis.set_major_formatter(ScalarFormatter())  # 16, 64, not 2^4, 2^6
        ax.set_xlabel('Queue pairs')
    ax_hit.set_ylabel('Cache hit rate (fraction of lookups)')
    ax_hit.set_ylim(0, 1.05)
    ax_tput.set_ylabel('Throughput (Gb/s)')
    ax_tput.set_ylim(bottom=0)
    note = rr.interval_note(runs, unit)
    if entries_col or note:
        title = '\n'.join(t for t in ('%s cache' % args.cache_table if entries_col else None, note) if t)
        ax_hit.legend(fontsize='small', title=title, title_fontsize='small')
    if args.title:
        fig.suptitle(args.title)
    return fig


if __name__ == '__main__':
    sys.exit(rp.run_main(build_parser, draw))
