#!/usr/bin/python3
"""Compare an rdma-sim run with the HPCC simulator's on the same flows.

Usage: compare_hpcc.py OURS_DIR THEIRS_FCT_TXT [--theirs-pfc PFC_TXT] [--max-ratio R] [--json]

OURS_DIR is an rdma-sim output folder (its fct.txt, and summary.json when
present); THEIRS_FCT_TXT is the fct.txt the HPCC simulator wrote
(FCT_OUTPUT_FILE). Both are in the simulator's format, one line per
completed flow:

    sip dip sport dport size_bytes start_ns fct_ns ideal_fct_ns

and both get the simulator's slowdown rule, max(1, fct / ideal), each from
its own columns (its analysis script, fct_analysis.py, does the same). Per
flow-size bucket (0-10KB, 10KB-100KB, 100KB-1MB, 1MB-10MB, 10MB-inf, as
rdma-sim's summary.json) the p50, p95 and p99 (nearest rank) of both runs
are printed with ours / theirs, then the flows completed, PFC pauses (ours:
pause frames sent, summary.json; theirs: pause frames received, the lines
of type 1 in the simulator's PFC_OUTPUT_FILE, with --theirs-pfc) and wall
times (ours from summary.json).

--max-ratio R: exit 1 if a percentile of a bucket both runs fill differs by
more than a factor R either way (the "same answers" check). --json: print
the table as JSON instead. Bad input (a missing file, a malformed line)
exits 2 with the file and line.
"""

import argparse
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rdmasim_analysis as ra  # noqa: E402

#: bucket edges (bytes), as rdma-sim's RdmaSlowdownPercentiles
EDGES = [0, 1e4, 1e5, 1e6, 1e7, math.inf]


class InputError(Exception):
    """A file that cannot be read as expected; the message names it (and the line)."""


def text_rows(path):
    """Yield (line number, line, its blank-separated words) of each non-blank
    line of a text file; InputError naming the file if it cannot be read."""
    try:
        with open(path) as f:
            for n, line in enumerate(f, 1):
                parts = line.split()
                if parts:
                    yield n, line, parts
    except OSError as e:
        raise InputError('%s: %s' % (path, e.strerror)) from None


def read_hpcc_fct(path):
    """Read an fct.txt in the HPCC simulator's format.

    Returns a list of dicts with sip, dip, sport, dport (ints), size,
    start_ns, fct_ns, ideal_ns (ints) and slowdown = max(1, fct / ideal).
    Raises InputError naming the file and line of a malformed line.
    """
    flows = []
    for n, line, parts in text_rows(path):
        if len(parts) != 8:
            raise InputError('%s:%d: expected 8 columns (sip dip sport dport size start '
                             'fct ideal), got %d' % (path, n, len(parts)))
        try:
            sip, dip = int(parts[0], 16), int(parts[1], 16)
            sport, dport, size, start, fct, ideal = (int(p) for p in parts[2:])
        except ValueError:
            raise InputError('%s:%d: expected hex addresses and integers: %r'
                             % (path, n, line.strip())) from None
        if ideal <= 0:
            raise InputError('%s:%d: ideal FCT %d is not positive' % (path, n, ideal))
        flows.append({'sip': sip, 'dip': dip, 'sport': sport, 'dport': dport,
                      'size': size, 'start_ns': start, 'fct_ns': fct, 'ideal_ns': ideal,
                      'slowdown': max(1.0, fct / ideal)})
    return flows


def count_hpcc_pauses(path):
    """Pause frames received in the HPCC simulator's PFC_OUTPUT_FILE (lines
    'time node node_type if_index type'; type 1 = pause, 0 = resume)."""
    pauses = 0
    for n, line, parts in text_rows(path):
        if len(parts) != 5 or parts[4] not in ('0', '1'):
            raise InputError('%s:%d: expected "time node type ifindex 0|1", got %r'
                             % (path, n, line.strip()))
        pauses += parts[4] == '1'
    return pauses


def buckets_of(flows):
    """Per-bucket counts and p50/p95/p99 slowdowns of the flows."""
    return ra.bucket_percentiles([f['size'] for f in flows], [f['slowdown'] for f in flows],
                                 ra.edges_to_buckets(EDGES))


def compare(ours, theirs):
    """Rows of the comparison: per bucket, both runs' percentiles and ratios."""
    rows = []
    for a, b in zip(buckets_of(ours), buckets_of(theirs)):
        row = {'bucket': a['label'], 'n_ours': a['count'], 'n_theirs': b['count']}
        for name, _ in ra.PERCENTILES:
            row[name + '_ours'] = a[name]
            row[name + '_theirs'] = b[name]
            row[name + '_ratio'] = (a[name] / b[name]
                                    if a['count'] and b['count'] else math.nan)
        rows.append(row)
    return rows


def worst_ratio(rows):
    """The largest max(r, 1/r) over the percentiles of the buckets both runs fill."""
    worst = 1.0
    for row in rows:
        for name, _ in ra.PERCENTILES:
            r = row[name + '_ratio']
            if math.isfinite(r) and r > 0:
                worst = max(worst, r, 1.0 / r)
    return worst


def format_table(rows):
    """The comparison as text lines."""
    out = ['%-12s %11s  %-21s %-21s %-21s' % ('bucket', 'flows', 'p50 ours/theirs = x',
                                              'p95 ours/theirs = x', 'p99 ours/theirs = x')]
    for row in rows:
        cells = []
        for name, _ in ra.PERCENTILES:
            a, b, r = row[name + '_ours'], row[name + '_theirs'], row[name + '_ratio']
            cells.append('%6.2f/%-6.2f = %4.2f' % (a, b, r) if math.isfinite(r)
                         else '%6.2f/%-6.2f' % (a, b))
        out.append('%-12s %5d/%-5d  %-21s %-21s %-21s'
                   % (row['bucket'], row['n_ours'], row['n_theirs'], *cells))
    return out


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument('ours_dir', help='rdma-sim output folder (fct.txt, summary.json)')
    p.add_argument('theirs_fct', help="the HPCC simulator's fct.txt")
    p.add_argument('--theirs-pfc', help="the HPCC simulator's pfc.txt (PFC_OUTPUT_FILE)")
    p.add_argument('--max-ratio', type=float, help='exit 1 if a percentile differs by more')
    p.add_argument('--json', action='store_true', help='print JSON instead of a table')
    args = p.parse_args(argv)
    try:
        ours = read_hpcc_fct(os.path.join(args.ours_dir, 'fct.txt'))
        theirs = read_hpcc_fct(args.theirs_fct)
        summary = None
        if os.path.exists(os.path.join(args.ours_dir, ra.SUMMARY)):
            summary = ra.read_summary(args.ours_dir)
        theirs_pauses = count_hpcc_pauses(args.theirs_pfc) if args.theirs_pfc else None
    except (InputError, ra.OutputError) as e:
        print('compare_hpcc.py: %s' % e, file=sys.stderr)
        return 2
    rows = compare(ours, theirs)
    result = {'buckets': rows, 'flows_ours': len(ours), 'flows_theirs': len(theirs),
              'pauses_ours': summary['pfc']['pause_frames'] if summary else None,
              'pauses_theirs': theirs_pauses,
              'wall_s_ours': summary['wall_time_s'] if summary else None,
              'worst_ratio': worst_ratio(rows)}
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print('\n'.join(format_table(rows)))
        print('flows completed %d / %d; PFC pauses %s / %s; worst ratio %.2f'
              % (len(ours), len(theirs), result['pauses_ours'], result['pauses_theirs'],
                 result['worst_ratio']))
    if args.max_ratio is not None and result['worst_ratio'] > args.max_ratio:
        print('compare_hpcc.py: a percentile differs by %.2fx > %.2fx'
              % (result['worst_ratio'], args.max_ratio), file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
