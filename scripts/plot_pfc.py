#!/usr/bin/python3
"""PFC pause timeline: for every (node, port, priority class) that was
paused, a bar over each interval it stayed paused, from a run's pfc.csv.

  scripts/plot_pfc.py -o pfc out/run1
  scripts/plot_pfc.py -o pfc --node 4 out/run1

A class is paused from a pause event until the next resume (pause frames
meanwhile refresh it, 802.1Qbb); one still paused at the end lasts to the
end of the simulation (summary.json's sim_time_s, else the last event).
The label of each row gives the paused fraction of that time, and names
the node as the run's nodes.csv does (tor3, host12), or 'node N' where the
folder has no nodes.csv.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rdmasim_analysis as ra  # noqa: E402
import rdmasim_plotting as rp  # noqa: E402


def build_parser():
    p = rp.parser(__doc__.split('\n\n')[0])
    p.add_argument('run', help='run folder (pfc.csv, and summary.json for the end time)')
    p.add_argument('--node', type=int, action='append', help='only this node (repeatable)')
    return p


def draw(args):
    """The figure for parsed arguments (not yet saved)."""

    events = ra.read_pfc(args.run)
    if args.node:
        events = [e for e in events if e[1] in args.node]
    end_ns = max((e[0] for e in events), default=0)
    if os.path.isdir(args.run) and os.path.exists(os.path.join(args.run, ra.SUMMARY)):
        end_ns = max(end_ns, int(ra.read_summary(args.run)['sim_time_s'] * 1e9))
    intervals = ra.pause_intervals(events, end_ns)
    rows = sorted(k for k, v in intervals.items() if v)

    fig, (ax,) = rp.figure(width=6.0, height=1.2 + 0.35 * max(len(rows), 1))
    for i, key in enumerate(rows):
        spans = [(s * 1e-3, (e - s) * 1e-3) for s, e in intervals[key]]
        ax.broken_barh(spans, (i - 0.35, 0.7), color='tab:red')
    ax.set_yticks(range(len(rows)))
    nodes = ra.read_nodes(args.run)
    ax.set_yticklabels(['%s port %d class %d (%.1f%%)' % (
        ra.node_name(nodes, node), port, cls, 100.0 * sum(e - s for s, e in intervals[node, port, cls]) /
        max(end_ns, 1)) for node, port, cls in rows])
    ax.set_ylim(max(len(rows), 1) - 0.4, -0.6)  # first port on top
    ax.set_xlim(0, end_ns * 1e-3 if end_ns else 1)
    ax.set_xlabel('Time (\u00b5s)')
    ax.grid(axis='y', visible=False)
    if not rows:
        ax.text(0.5, 0.5, 'no PFC pause', transform=ax.transAxes, ha='center')
    fig.suptitle(args.title or 'PFC pause (paused intervals per port and class)')
    return fig


if __name__ == '__main__':
    sys.exit(rp.run_main(build_parser, draw))
