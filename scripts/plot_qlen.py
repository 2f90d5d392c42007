#!/usr/bin/python3
"""Switch queue lengths over time from a run's qlen.csv (the HPCC
simulator's queue monitor as a figure): queue length (KB) against simulated
time (us), one line per switch egress port, for the --top N ports with the
largest mean queue (default 8) or the ports --port NODE:PORT names.

  scripts/plot_qlen.py -o fig/qlen out/run1
  scripts/plot_qlen.py -o fig/qlen --top 3 out/run1
  scripts/plot_qlen.py -o fig/qlen --port 4:0 --port 4:1 out/run1

qlen.csv (time_ns,node,port,class,bytes) has a row every
output.qlenInterval for each switch egress (port, class) whose queue is not
empty. A port's length here is its bytes summed over the classes, and 0 at
a sample time where the file has no row for it: the sample times are the
interval's grid through the file's rows, the interval read from the run's
summary.json (its config's output.qlenInterval). Without a summary.json
(a bare qlen.csv), or with rows off that grid, the times between rows are
not known, so only the rows are drawn, as points. qlen.csv holds queue bytes only, not bytes sent, so
no link throughput is drawn: nothing here derives it from queue lengths.
A port is named as the run's nodes.csv names its node (tor3 port 1), else
node 4 port 1.
"""

import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rdmasim_analysis as ra  # noqa: E402
import rdmasim_plotting as rp  # noqa: E402


def sample_interval_ns(run):
    """The run's queue sampling period in ns (summary.json's
    output.qlenInterval), or None where the run has no summary.json."""
    folder = run if os.path.isdir(run) else os.path.dirname(run)
    if not os.path.exists(os.path.join(folder, ra.SUMMARY)):
        return None
    text = ra.read_summary(folder)['config'].get('output.qlenInterval')
    try:
        interval = ra.time_ns(text)
    except ValueError:
        raise ra.OutputError('%s: output.qlenInterval %r is not a time' %
                             (os.path.join(folder, ra.SUMMARY), text)) from None
    return interval if interval > 0 else None


def sample_grid(times, interval_ns):
    """Every sample time (ns, int64 array) from the first of times to the
    last, interval_ns apart; None without an interval or when a time is off
    that grid (then the times between rows are not known)."""
    times = np.unique(times)
    if not interval_ns or not times.size:
        return None
    step = int(round(interval_ns))
    if np.any((times - times[0]) % step):
        return None
    return np.arange(times[0], times[-1] + 1, step, dtype=np.int64)


def port_series(q, grid):
    """Each port's queue length over time.

    q: read_qlen's arrays; grid: sample_grid's times, or None. Returns
    {(node, port): (time_ns, bytes)}, int64 arrays of one shape: the
    port's bytes summed over classes at every grid time (0 where it has no
    row), or without a grid at the times of its own rows only.
    """
    out = {}
    for key in sorted(set(zip(q['node'].tolist(), q['port'].tolist()))):
        sel = (q['node'] == key[0]) & (q['port'] == key[1])
        t = grid if grid is not None else np.unique(q['time_ns'][sel])
        length = np.zeros(t.size, dtype=np.int64)
        np.add.at(length, np.searchsorted(t, q['time_ns'][sel]), q['bytes'][sel])
        out[key] = (t, length)
    return out


def pick_ports(series, top, ports):
    """The ports to draw: ports (a list of (node, port)) if given, each
    required to have rows, else the top ones by mean queue length (largest
    first; ties by node, port)."""
    if ports:
        missing = [p for p in ports if p not in series]
        if missing:
            raise ra.OutputError('qlen.csv has no rows for port %s (ports with rows: %s)' % (
                ', '.join('%d:%d' % p for p in missing), ', '.join('%d:%d' % p for p in series) or 'none'))
        return list(ports)
    return sorted(series, key=lambda k: (-series[k][1].sum(), k))[:top]


def _port(text):
    node, sep, port = text.partition(':')
    try:
        return int(node), int(port)
    except ValueError:
        raise argparse.ArgumentTypeError('%r: expected NODE:PORT (two integers)' % text) from None


def build_parser():
    p = rp.parser(__doc__.split('\n\n')[0])
    p.add_argument('run', help='run folder (qlen.csv; summary.json for the sample times, nodes.csv for names)')
    p.add_argument('--top', type=int, default=8, help='the N ports with the largest mean queue (default 8)')
    p.add_argument('--port', type=_port, action='append', metavar='NODE:PORT',
                   help='draw this port (repeatable; replaces --top)')
    return p


def draw(args):
    """The figure for parsed arguments (not yet saved)."""
    q = ra.read_qlen(args.run)
    grid = sample_grid(q['time_ns'], sample_interval_ns(args.run))
    series = port_series(q, grid)
    nodes = ra.read_nodes(args.run)
    fig, (ax,) = rp.figure(width=6.0, height=3.2)
    for node, port in pick_ports(series, args.top, args.port):
        t, length = series[node, port]
        ax.plot(t * 1e-3, length * 1e-3, marker='.' if grid is None else None,
                linestyle='none' if grid is None else '-',
                label='%s port %d' % (ra.node_name(nodes, node), port))
    ax.set_xlabel('Time (\u00b5s)')
    ax.set_ylabel('Queue length (KB)')
    ax.set_ylim(bottom=0)
    if series:
        ax.legend(fontsize='small', loc='upper left', bbox_to_anchor=(1.02, 1.0))
    else:
        ax.text(0.5, 0.5, 'no queue sample in qlen.csv', transform=ax.transAxes, ha='center')
    fig.suptitle(args.title or 'Switch egress queues (all classes)')
    return fig


if __name__ == '__main__':
    sys.exit(rp.run_main(build_parser, draw))
