#!/usr/bin/python3
"""Bus bandwidth against message size (the nccl-tests figure) and the
completion time against message size, one series per parallelism group,
collective, algorithm and rank count, from the collectives.csv of runs with
traffic.pattern = collective.

  scripts/plot_collectives.py -o busbw out/ring-1MiB out/ring-16MiB out/tree-16MiB
  scripts/plot_collectives.py -o busbw --link-gbps 100 out/sweep/*/

busbw is nccl-tests' (algbw x 2(n-1)/n for all-reduce, (n-1)/n for
all-gather, reduce-scatter and all-to-all, 1 for broadcast), drawn in GB/s
as nccl-tests prints it (10^9 bytes/s; 1 GB/s = 8 Gb/s). Each point is the
mean over the runs' completed collectives of that series and size (every
iteration of every job), with a bar from the smallest to the largest; the
right panel gives their CCT (us) the same way. A series is one parallelism
group (collectives.csv's group column: tp, dp, ep, pp; '' for a job
without), collective, algorithm and rank count; its points are joined
across sizes. Runs whose collectives.csv has no group column (older
versions) draw points only, not joined: tensor- and data-parallel
collectives of one job could not be told apart. --link-gbps RATE (repeatable)
draws the payload rate of full packets, the ceiling of busbw: RATE x
MTU / (MTU + 82) with MTU the run's transport.pathMtu (summary.json's
merged configuration; 1024, rdma-sim's default, when it has none) and 82
the wire bytes of a RoCEv2 packet beyond its payload (Ethernet 14, IPv4 20,
UDP 8, BTH 12, ICRC 4, FCS 4, preamble and SFD 8, inter-frame gap 12), one
line per rate and MTU among the runs; on a rail fabric with
tensor-parallel (TP) series, the intra-server (NVLink) rate's line too
(topology.rail.IntraServerRate), for those collectives never leave their
server. A third panel, each collective's CCT
over its series and size's mean, is drawn only when iterations differ by
more than SPREAD (1 %); on an idle fabric they do not, and it would be a
single vertical line.
"""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rdmasim_analysis as ra  # noqa: E402
import rdmasim_plotting as rp  # noqa: E402

#: bits per byte: busbw_gbps / GBPS_PER_GBYTES is GB/s
GBPS_PER_GBYTES = 8.0
#: the spread panel is drawn when some collective's CCT is this far from its mean
SPREAD = 0.01
#: legend names of collectives.csv's group values
GROUP_NAMES = {'tp': 'TP', 'dp': 'DP', 'ep': 'EP', 'pp': 'PP'}


def build_parser():
    p = rp.parser(__doc__.split('\n\n')[0])
    p.add_argument('runs', nargs='+', help='run folders (or collectives.csv files)')
    p.add_argument('--link-gbps', type=float, action='append', default=[],
                   help='draw the payload rate of full packets at this link rate, Gb/s (repeatable)')
    return p


def series(runs):
    """The series drawn, from the runs' completed collectives.

    Returns a list of dicts, one per (group, collective, algorithm, ranks)
    in sorted order: group (str, '' for none; None when a run's file has no
    group column), collective, algorithm, ranks, joined (whether its points
    may be joined: every file had the group column), sizes (message sizes,
    bytes, ascending: shape (sizes,)), busbw (GB/s) and cct_us (us): lists
    of arrays, one per size, of each collective's value, and spread (each
    collective's CCT over the mean CCT of its size).
    """
    rows = [r for run in runs for r in ra.read_collectives(run)]
    if not rows:
        raise ra.OutputError('no completed collective in %s' % ', '.join(runs))
    joined = all(r['group'] is not None for r in rows)
    by = {}
    for r in rows:
        key = (r['group'] or '', r['collective'], r['algorithm'], r['ranks'])
        by.setdefault(key, {}).setdefault(r['bytes'], []).append(r)
    out = []
    for (group, collective, algorithm, ranks), sizes in sorted(by.items()):
        order = sorted(sizes)
        cct = [np.array([r['cct_ns'] for r in sizes[b]]) / 1e3 for b in order]
        out.append({'group': group if joined else None, 'collective': collective,
                    'algorithm': algorithm, 'ranks': ranks, 'joined': joined,
                    'sizes': np.array(order, dtype=float),
                    'busbw': [np.array([r['busbw_gbps'] for r in sizes[b]]) / GBPS_PER_GBYTES
                              for b in order],
                    'cct_us': cct, 'spread': np.concatenate([c / c.mean() for c in cct])})
    return out


def series_label(s, ranks_differ):
    """'TP all-reduce ring' (+ ', 8 ranks' when the series' rank counts differ)."""
    words = [GROUP_NAMES.get(s['group'].lower(), s['group'])] if s['group'] else []
    words += [s['collective'], s['algorithm']]
    label = ' '.join(words)
    return label + (', %d ranks' % s['ranks'] if ranks_differ else '')


def ceilings(runs, link_gbps, tensor_parallel=False):
    """The payload-rate lines: [(link rate Gb/s, path MTU bytes, whether a
    run's summary gave the MTU, busbw ceiling GB/s, what link)], one per
    rate and distinct MTU of the runs (rdmasim_analysis.path_mtu): rate x
    MTU / (MTU + 82) / 8. With tensor-parallel series on a rail fabric, its
    intra-server (NVLink) rate too, whether asked or not: those collectives
    stay inside a server, so the NICs' rate is not their ceiling."""
    mtus = sorted({ra.path_mtu(run) for run in runs})
    rates = [(rate, 'link') for rate in link_gbps]
    if tensor_parallel:
        rates += sorted({(r, 'NVLink (TP)') for r in map(ra.intra_server_gbps, runs) if r})
    return [(rate, mtu, known, rate * ra.payload_share(mtu) / GBPS_PER_GBYTES, what)
            for rate, what in rates for mtu, known in mtus]


def draw(args):
    """The figure for parsed arguments (not yet saved): per series, in each
    of the busbw and CCT panels, its means (marker 'o', labelled, joined by
    a line when series() says so) with min-max bars; the payload rates as
    dashed lines (gid 'ceiling'); the spread panel only past SPREAD."""
    drawn = series(args.runs)
    spread = max(float(np.max(np.abs(s['spread'] - 1))) for s in drawn)
    ncols = 3 if spread > SPREAD else 2
    fig, axes = rp.figure(ncols=ncols, width=3.8, height=3.2)
    bw, ct = axes[0], axes[1]
    ranks_differ = len({s['ranks'] for s in drawn}) > 1
    for i, s in enumerate(drawn):
        color = 'C%d' % (i % 10)
        label = series_label(s, ranks_differ)
        for ax, values in ((bw, s['busbw']), (ct, s['cct_us'])):
            mean = np.array([v.mean() for v in values])
            # (clipped at 0: a mean of equal values may differ from them in the last bit)
            lo = np.maximum(mean - np.array([v.min() for v in values]), 0)
            hi = np.maximum(np.array([v.max() for v in values]) - mean, 0)
            ax.errorbar(s['sizes'], mean, yerr=[lo, hi], color=color, marker='o', capsize=2,
                        elinewidth=0.8, linestyle='-' if s['joined'] else 'none', label=label)
        if ncols == 3:
            values = np.sort(s['spread'])
            axes[2].step(values, np.arange(1, len(values) + 1) / len(values), where='post',
                         color=color, label=label)
    tensor_parallel = any((s['group'] or '').lower() == 'tp' for s in drawn)
    for i, (rate, mtu, known, ceiling, what) in enumerate(
            ceilings(args.runs, args.link_gbps, tensor_parallel)):
        bw.axhline(ceiling, color='gray', linestyle=('--', ':', '-.')[i % 3], linewidth=0.9,
                   gid='ceiling',
                   label='payload rate, %g Gb/s %s,\nMTU %d%s: %.1f GB/s' % (
                       rate, what, mtu, '' if known else ' (default)', ceiling))
    for ax in (bw, ct):
        rp.binary_size_axis(ax, [s['sizes'] for s in drawn])
        ax.set_xlabel('Message size')
    bw.set_ylabel('busbw (GB/s)')
    bw.set_ylim(bottom=0)
    rp.readable_log(ct, [v for s in drawn for v in s['cct_us']], 'y')
    ct.set_ylabel('CCT (\u00b5s)')
    title = None if all(s['joined'] for s in drawn) else (
        'no group column:\npoints not joined')
    bw.legend(fontsize='small', title=title, title_fontsize='small', loc='upper left',
              bbox_to_anchor=(0.0, -0.2), ncol=2)
    if ncols == 3:
        axes[2].set_xlabel('CCT / mean CCT of its size')
        axes[2].set_ylabel('Fraction of collectives')
    fig.suptitle(args.title or 'Collectives: bus bandwidth and completion time, mean and '
                               'range over iterations')
    return fig


if __name__ == '__main__':
    sys.exit(rp.run_main(build_parser, draw))
