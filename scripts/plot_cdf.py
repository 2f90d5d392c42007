#!/usr/bin/python3
"""Latency CDFs: the distribution of flow completion time (or slowdown) of
completed flows, one curve per run folder.

  scripts/plot_cdf.py -o cdf out/run1 out/run2
  scripts/plot_cdf.py -o cdf --metric slowdown --min-size 1e6 out/run1
  scripts/plot_cdf.py -o cdf --label run1=DCQCN --label run2=HPCC out/run1 out/run2

Reads fct.csv (status IBV_WC_SUCCESS rows); --min-size/--max-size keep
flows with min < size <= max bytes. Log x axis unless --linear.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rdmasim_analysis as ra  # noqa: E402
import rdmasim_plotting as rp  # noqa: E402

METRICS = {
    'fct': ('fct_ns', 1e-3, 'Flow completion time (\u00b5s)'),
    'slowdown': ('slowdown', 1.0, 'FCT slowdown (FCT / ideal FCT)'),
}


def build_parser():
    p = rp.parser(__doc__.split('\n\n')[0])
    p.add_argument('runs', nargs='+', help='run folders (or fct.csv files)')
    p.add_argument('--metric', choices=sorted(METRICS), default='fct')
    p.add_argument('--min-size', type=float, default=0.0, help='bytes (exclusive)')
    p.add_argument('--max-size', type=float, default=float('inf'), help='bytes (inclusive)')
    p.add_argument('--linear', action='store_true', help='linear x axis')
    rp.add_label_option(p)
    return p


def draw(args):
    """The figure for parsed arguments (not yet saved)."""
    col, scale, xlabel = METRICS[args.metric]

    fig, (ax,) = rp.figure(width=4.5, height=3.2)
    for run in args.runs:
        fct = ra.completed(ra.read_fct(run))
        keep = (fct['size'] > args.min_size) & (fct['size'] <= args.max_size)
        x, y = ra.ecdf(fct[col][keep] * scale)
        ax.step(x, y, where='post', label='%s (%d flows)' % (rp.relabel(args.label, rp.run_label(run)), x.size))
    if not args.linear:
        ax.set_xscale('log')
    ax.set_xlabel(xlabel)
    ax.set_ylabel('Fraction of flows (CDF)')
    ax.set_ylim(0, 1.02)
    ax.legend(fontsize='small')
    if args.title:
        fig.suptitle(args.title)
    return fig


if __name__ == '__main__':
    sys.exit(rp.run_main(build_parser, draw))
