#!/usr/bin/python3
"""Bus bandwidth against message size, one line per collective and
algorithm (the nccl-tests figure), and the spread of completion times
across iterations, from the collectives.csv of runs with traffic.pattern =
collective.

  scripts/plot_collectives.py -o busbw out/ring-1MiB out/ring-16MiB out/tree-16MiB
  scripts/plot_collectives.py -o busbw --link-gbps 100 out/sweep/*/

busbw is nccl-tests' (algbw x 2(n-1)/n for all-reduce, (n-1)/n for
all-gather, reduce-scatter and all-to-all, 1 for broadcast), so every
collective compares with the link rate; each point is the mean over the
runs' completed collectives of that size (every iteration of every job),
with a bar from the smallest to the largest. --link-gbps draws the link's
payload rate at a 1024-byte path MTU (rate x 1024 / 1106), the ceiling of
busbw. The right panel gives each series' CCT over its mean, per
iteration: how much iterations differ.
"""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rdmasim_analysis as ra  # noqa: E402
import rdmasim_plotting as rp  # noqa: E402

#: payload share of a full frame at a 1024-byte path MTU (82 bytes of headers and wire overhead)
PAYLOAD_SHARE = 1024 / 1106


def build_parser():
    p = rp.parser(__doc__.split('\n\n')[0])
    p.add_argument('runs', nargs='+', help='run folders (or collectives.csv files)')
    p.add_argument('--link-gbps', type=float, help='draw the payload rate of this link rate')
    return p


def series(runs):
    """{(collective, algorithm): {bytes: [busbw, ...]}} and {(collective,
    algorithm): [CCT / mean CCT of its size, ...]} over the runs."""
    rows = [r for run in runs for r in ra.read_collectives(run)]
    if not rows:
        raise ra.OutputError('no completed collective in %s' % ', '.join(runs))
    busbw = {}
    ccts = {}
    for r in rows:
        key = (r['collective'], r['algorithm'])
        busbw.setdefault(key, {}).setdefault(r['bytes'], []).append(r['busbw_gbps'])
        ccts.setdefault(key, {}).setdefault(r['bytes'], []).append(r['cct_ns'])
    spread = {k: [c / np.mean(v) for v in by.values() for c in v] for k, by in ccts.items()}
    return busbw, spread


def draw(args):
    """The figure for parsed arguments (not yet saved)."""
    busbw, spread = series(args.runs)
    fig, (ax, bx) = rp.figure(ncols=2, width=4.2)
    for key in sorted(busbw):
        sizes = sorted(busbw[key])
        mean = np.array([np.mean(busbw[key][s]) for s in sizes])
        lo = np.array([np.min(busbw[key][s]) for s in sizes])
        hi = np.array([np.max(busbw[key][s]) for s in sizes])
        (line,) = ax.plot(sizes, mean, marker='o', label='%s %s' % key)
        ax.vlines(sizes, lo, hi, color=line.get_color(), linewidth=0.8)
        values = np.sort(spread[key])
        bx.step(values, np.arange(1, len(values) + 1) / len(values), where='post',
                color=line.get_color(), label='%s %s' % key)
    if args.link_gbps:
        ax.axhline(args.link_gbps * PAYLOAD_SHARE, color='gray', linestyle='--', linewidth=0.8,
                   label='payload rate of %g Gb/s' % args.link_gbps)
    ax.set_xscale('log', base=2)
    ax.set_xlabel('Message size S (bytes)')
    ax.set_ylabel('busbw (Gb/s)')
    ax.set_ylim(bottom=0)
    ax.legend()
    bx.set_xlabel('CCT / mean CCT of its size')
    bx.set_ylabel('Fraction of collectives')
    fig.suptitle(args.title or 'Collectives: bus bandwidth and CCT spread')
    return fig


if __name__ == '__main__':
    sys.exit(rp.run_main(build_parser, draw))
