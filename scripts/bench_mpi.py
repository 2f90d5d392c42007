#!/usr/bin/python3
"""Distributed-run benchmark of rdma-sim (a benchmark, not a test): each
case sequential and under mpirun -np N (the MPI build of `make mpi`), with
the wall times, the speed-up and what synchronization cost (doc/mpi.rst).

    scripts/bench_mpi.py --sim "$(cat /var/tmp/rdma-compat-mpi/rdma-sim.path)"
    scripts/bench_mpi.py --sim PATH --ranks 2 --cases hpcc-5ms

Per case it prints one line per run (wall seconds, events, M events/s) and
whether the distributed run's answers are the sequential run's (fct.csv,
pfc.csv, a collective run's collectives.csv and jobs.csv, summary.json's
counters and collectives block: "answers identical"), and
a line of the distributed run's figures from its summary.json "mpi" block:
frames sent between ranks, the granted-time windows (at most the active
simulated time over the lookahead: every window advances by at least the
lookahead), and the synchronization overhead: the ranks' wall time beyond
what their events cost at the sequential run's rate,
overhead_r = wall_r - events_r x (sequential wall / sequential events),
its mean over ranks, and that per window and per frame sent across.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), '..'))
CASES = {
    'k16-permutation': ['-c', os.path.join(TOP, 'examples/configs/fat-tree-k8-permutation.ini'),
                        '--topology.k=16'],
    'hpcc-5ms': ['-c', os.path.join(TOP, 'examples/configs/hpcc-fat-ws-hpcc-5ms.ini')],
    # A training job: the collective study's 128-rank ring all-reduce (k=8
    # fat tree, 2:1 oversubscribed, DCQCN, ECMP, 4 channels), of 64 MiB.
    'k8-allreduce': ['-c', os.path.join(TOP, 'examples/configs/collective-allreduce-2to1.ini'),
                     '--collective.bytes=64MiB'],
}
# A collective run's outputs, compared whole.
JOB_FILES = ('collectives.csv', 'jobs.csv')


def run(sim, args, ranks, out):
    cmd = [sim, '--quiet', '--force', '--output.dir=%s' % out] + args
    if ranks > 1:
        # Waiting ranks yield the core (a shared or oversubscribed machine;
        # on a cluster's dedicated cores busy polling is faster).
        cmd = ['mpirun', '-np', str(ranks), '--oversubscribe', '--allow-run-as-root',
               '--bind-to', 'none', '--mca', 'mpi_yield_when_idle', '1'] + cmd
    t0 = time.monotonic()
    r = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.monotonic() - t0
    if r.returncode != 0:
        sys.exit('bench_mpi: %s failed (exit %d):\n%s%s' %
                 (' '.join(cmd), r.returncode, r.stdout, r.stderr))
    with open(os.path.join(out, 'summary.json')) as f:
        summary = json.load(f)
    with open(os.path.join(out, 'fct.csv')) as f:
        fct = sorted(f.read().splitlines()[1:], key=lambda l: int(l.split(',')[0]))
    with open(os.path.join(out, 'pfc.csv')) as f:
        summary['pfc.csv'] = sorted(f.read().splitlines()[1:])
    for name in JOB_FILES:
        path = os.path.join(out, name)
        if os.path.exists(path):
            with open(path) as f:
                summary[name] = f.read()
    return wall, summary, fct


# summary.json's counters a distributed run must share with the sequential
# run (test_mpi.py checks the same); "events" is the ranks' sum, not one.
COUNTERS = ('flows', 'fct_slowdown', 'sim_time_s', 'data_packets_delivered', 'pfc',
            'ecn_marks', 'retransmissions', 'drops', 'collectives')


def answers(seq, seq_fct, par, par_fct):
    """'identical' if fct.csv, pfc.csv (rows sorted), collectives.csv and
    jobs.csv (when written) and the summary counters are the sequential
    run's, else what differs."""
    differ = ([] if par_fct == seq_fct else ['fct.csv']) + \
        ([] if par['pfc.csv'] == seq['pfc.csv'] else ['pfc.csv']) + \
        [f for f in JOB_FILES if par.get(f) != seq.get(f)] + \
        [k for k in COUNTERS if par.get(k) != seq.get(k)]
    return 'identical' if not differ else 'DIFFER (%s)' % ', '.join(differ)


def main():
    p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    p.add_argument('--sim', required=True, help="the MPI build's rdma-sim")
    p.add_argument('--ranks', type=int, default=2)
    p.add_argument('--cases', default=','.join(CASES))
    a = p.parse_args()
    if not shutil.which('mpirun'):
        sys.exit('bench_mpi: no mpirun (make mpi installs openmpi-bin)')
    for case in a.cases.split(','):
        args = CASES[case]
        with tempfile.TemporaryDirectory() as tmp:
            seq_wall, seq, seq_fct = run(a.sim, args, 1, os.path.join(tmp, 'seq'))
            par_wall, par, par_fct = run(a.sim, args, a.ranks, os.path.join(tmp, 'par'))
        mpi = par['mpi']
        per_event = seq_wall / max(seq['events'], 1)
        overheads = [r['wall_time_s'] - r['events'] * per_event for r in mpi['per_rank']]
        overhead = sum(overheads) / len(overheads)
        sent = sum(r['frames_sent_to_other_ranks'] for r in mpi['per_rank'])
        # Active simulated time: from the first flow's start to the end.
        starts = [float(l.split(',')[5]) for l in seq_fct] if seq_fct else [0.0]
        active = seq['sim_time_s'] - min(starts) * 1e-9
        windows = active / (mpi['lookahead_ns'] * 1e-9) if mpi['lookahead_ns'] else 0
        print('%-16s sequential   %7.2f s wall, %10d events, %5.2f M events/s' %
              (case, seq_wall, seq['events'], seq['events'] / seq_wall / 1e6))
        print('%-16s %d ranks (%s) %7.2f s wall, %10d events, speed-up %.2fx, answers %s' %
              (case, mpi['ranks'], mpi['sync'], par_wall, par['events'], seq_wall / par_wall,
               answers(seq, seq_fct, par, par_fct)))
        print('%-16s   partition: %s; %d links between ranks, lookahead %d ns; per rank: %s' %
              (case, mpi['partition'], mpi['links_between_ranks'], mpi['lookahead_ns'],
               ', '.join('r%d %d nodes %d events %.2f s' %
                         (r['rank'], r['nodes'], r['events'], r['wall_time_s'])
                         for r in mpi['per_rank'])))
        print('%-16s   sync overhead: %.2f s per rank (mean), %d frames across ranks, '
              '<= %.0f windows (%.3f ms active / lookahead): %.2f us per window, '
              '%.2f us per frame across' %
              (case, overhead, sent, windows, active * 1e3,
               overhead / windows * 1e6 if windows else 0,
               overhead / sent * 1e6 if sent else 0))
        if par_fct != seq_fct:
            print('%-16s   answers: %s' % (case, fct_difference(seq_fct, par_fct)))
        sys.stdout.flush()


def fct_difference(seq_fct, par_fct):
    """How a distributed run's fct.csv rows (sorted by flow id) differ from
    the sequential run's: flows whose FCT differs, the largest per-flow
    difference, and the FCT distribution's p50/p95/p99 and total
    (doc/mpi.rst, "Same answers": compare by distributions)."""
    def fcts(rows):
        return {l.split(',')[0]: int(l.split(',')[6]) for l in rows}
    a, b = fcts(seq_fct), fcts(par_fct)
    if a.keys() != b.keys():
        return 'different flows completed (%d and %d)' % (len(a), len(b))
    rel = [abs(b[k] - a[k]) / a[k] for k in a if a[k]]
    sa, sb = sorted(a.values()), sorted(b.values())
    qs = []
    for q in (0.5, 0.95, 0.99):
        i = int(q * (len(sa) - 1))
        qs.append('p%g %.4f' % (100 * q, sb[i] / sa[i]))
    return ('%d of %d flows differ, at most %.1f %%; FCT ratio (ranks / sequential) %s, '
            'total %.4f' % (sum(1 for k in a if a[k] != b[k]), len(a), 100 * max(rel or [0]),
                            ', '.join(qs), sum(sb) / sum(sa)))


if __name__ == '__main__':
    main()
