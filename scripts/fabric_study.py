#!/usr/bin/python3
"""The fabrics of 2026 beside RoCE's: one table and one figure.

Four designs, each a set of rdma-sim keys on the same fat tree:

* RoCE: go-back-N, PFC, ECMP (one path per QP), DCQCN;
* IRN + spray: IRN with a reorder window of 64 packets, PFC off, every
  packet on its own path (nic.Entropy = packet), DCQCN;
* trim + NSCC: the same spraying, switches that trim what they would drop
  (switch.trim.Classes; doc/trimming.rst), UEC's NSCC;
* 2 planes: trim + NSCC on two planes of half the rate each
  (topology.planes = 2; doc/planes.rst): the same NIC and fabric capacity
  as one plane.

Three workloads: a permutation (every host WRITEs --size bytes to another
at once), an incast (--fan-in hosts WRITE --size bytes each to host 0) and
AliStorage2019 flow sizes at 50 % load for --duration. Each runs with
nothing failing, with an aggregation-core link failing at --fail-at, and,
for the multi-plane design, with plane 1 failing at --fail-at. Routes
converge --convergence after a link fails.

    scripts/fabric_study.py --out out/fabric-study --figure doc/figures/fabric-study

The table (standard output, and OUT/fabric-study.csv): per design,
workload and failure, the flows done, FCT slowdown p50 and p99, the last
FCT, drops and resent packets. The figure: p99 slowdown per design for
each workload (log axis), a bar per failure case. Runs are kept in OUT/<design>-
<workload>-<failure>/; a run with a complete summary.json is not run
again. Exit 1 if a run failed, 2 on bad arguments.
"""

import argparse
import csv
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rdmasim_binary  # noqa: E402

SPRAY = ['--pfc.PfcEnabled=false', '--transport.recovery=irn',
         '--transport.irn.ReorderWindow=64', '--nic.Entropy=packet']
TRIM = SPRAY + ['--switch.trim.Classes=8', '--cc.algorithm=nscc',
                '--ecn.kmin=20000', '--ecn.kmax=80000']
DESIGNS = [
    ('RoCE', ['--pfc.PfcEnabled=true', '--transport.recovery=go-back-n', '--nic.Entropy=qp',
              '--cc.algorithm=dcqcn']),
    ('IRN + spray', SPRAY + ['--cc.algorithm=dcqcn']),
    ('trim + NSCC', TRIM),
    ('2 planes', TRIM + ['--topology.planes=2', '--topology.hostRate=50Gbps',
                         '--topology.fabricRate=50Gbps', '--topology.coreRate=50Gbps']),
]
WORKLOADS = ['permutation', 'incast', 'alistorage']
FAILURES = ['none', 'link', 'plane']
#: k = 4: aggregation switch 24 (pod 0's first) to core 32
FAILED_LINK = '24-32'


def workload_args(name, a):
    """rdma-sim's traffic keys of a workload."""
    if name == 'permutation':
        return ['--traffic.pattern=permutation', '--traffic.size=%d' % a.size]
    if name == 'incast':
        return ['--traffic.pattern=incast', '--traffic.size=%d' % a.size,
                '--traffic.fanIn=%d' % a.fan_in]
    return ['--traffic.pattern=poisson', '--traffic.cdf=alistorage', '--traffic.load=0.5',
            '--traffic.duration=%s' % a.duration]


def failure_args(name, a):
    """rdma-sim's failure keys of a failure case."""
    converge = '--topology.routeConvergence=%s' % a.convergence
    if name == 'link':
        return ['--topology.failLinks=%s@%s' % (FAILED_LINK, a.fail_at), converge]
    if name == 'plane':
        return ['--topology.failPlanes=1@%s' % a.fail_at, converge]
    return []


def slug(*parts):
    """A folder name from a design, workload and failure."""
    return '-'.join(p.lower().replace(' + ', '-').replace(' ', '-') for p in parts)


def run(sim, folder, args):
    """One rdma-sim run into folder (kept if its summary.json is there);
    returns its summary, or None if it failed."""
    summary = os.path.join(folder, 'summary.json')
    if not os.path.exists(summary):
        r = subprocess.run([sim] + args + ['--output.dir=%s' % folder, '--force', '-q'],
                           capture_output=True, text=True)
        if r.returncode != 0:
            sys.stderr.write('fabric_study: %s failed (exit %d): %s\n'
                             % (folder, r.returncode, r.stderr.strip()[-500:]))
            return None
    with open(summary) as f:
        return json.load(f)


def row(design, workload, failure, s, folder):
    """The table's row of one run."""
    with open(os.path.join(folder, 'fct.csv')) as f:
        recs = list(csv.DictReader(f))
    done = [r for r in recs if r['status'] == 'IBV_WC_SUCCESS']
    sd = sorted(float(r['slowdown']) for r in done)

    def pct(p):
        return sd[min(len(sd) - 1, int(p * len(sd)))] if sd else float('nan')
    last = max((float(r['start_ns']) + float(r['fct_ns']) for r in done), default=float('nan'))
    return {'design': design, 'workload': workload, 'failure': failure,
            'flows': len(recs), 'done': len(done), 'slowdown_p50': pct(0.5),
            'slowdown_p99': pct(0.99), 'last_fct_us': last / 1e3,
            'drops': s['drops'], 'resent': s['retransmissions']}


def plot(rows, path):
    """p99 slowdown per design, one panel per workload, a bar per failure."""
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt
    import numpy as np
    fig, axes = plt.subplots(1, len(WORKLOADS), figsize=(12, 3.6))
    names = [d for d, _ in DESIGNS]
    width = 0.8 / len(FAILURES)
    for ax, w in zip(axes, WORKLOADS):
        for i, fail in enumerate(FAILURES):
            ys = []
            for d in names:
                r = [x for x in rows if (x['design'], x['workload'], x['failure']) == (d, w, fail)]
                ys.append(r[0]['slowdown_p99'] if r and r[0]['done'] == r[0]['flows'] else np.nan)
            ax.bar(np.arange(len(names)) + (i - 1) * width, ys, width,
                   label={'none': 'nothing fails', 'link': 'a core link fails',
                          'plane': 'a plane fails'}[fail])
        ax.set_title(w)
        ax.set_xticks(np.arange(len(names)))
        ax.set_xticklabels(names, rotation=20, fontsize=8)
        ax.set_ylabel('FCT slowdown, p99 (log)')
        ax.set_yscale('log')
        ax.set_ylim(bottom=1)  # a slowdown is at least 1
    axes[0].legend(fontsize=7)
    fig.suptitle('k=4 fat tree, 100 Gb/s per host (missing bar: not every flow finished, '
                 'or the case does not apply)', fontsize=9)
    fig.tight_layout()
    fig.savefig('%s.png' % path, dpi=110)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--out', default='out/fabric-study')
    ap.add_argument('--figure', help='write the figure as FIGURE.png')
    ap.add_argument('--sim', default=None,
                    help="rdma-sim (default: $RDMA_SIM, make run's build, else make build's)")
    ap.add_argument('--size', type=int, default=1000000, help='permutation and incast bytes')
    ap.add_argument('--fan-in', type=int, default=15, help='incast senders')
    ap.add_argument('--duration', default='500us', help='AliStorage arrivals window')
    ap.add_argument('--fail-at', default='20us', help='when the link or plane fails')
    ap.add_argument('--convergence', default='100us', help='topology.routeConvergence')
    ap.add_argument('--stop-time', default='300ms',
                    help="sim.stopTime: past go-back-N's 67 ms timeout (transport.timeout 14)")
    a = ap.parse_args()
    if a.sim:
        sim = a.sim
    else:
        sim, why = rdmasim_binary.default_sim()
        print('rdma-sim: %s (%s)' % (sim, why))
    rows = []
    failed = False
    for design, keys in DESIGNS:
        for w in WORKLOADS:
            for fail in FAILURES:
                if fail == 'plane' and '--topology.planes=2' not in keys:
                    continue
                folder = os.path.join(a.out, slug(design, w, fail))
                args = ['--topology.k=4', '--sim.stopTime=%s' % a.stop_time] + keys + \
                    workload_args(w, a) + failure_args(fail, a)
                s = run(sim, folder, args)
                if s is None:
                    failed = True
                    continue
                rows.append(row(design, w, fail, s, folder))
    fields = ['design', 'workload', 'failure', 'flows', 'done', 'slowdown_p50',
              'slowdown_p99', 'last_fct_us', 'drops', 'resent']
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, 'fabric-study.csv'), 'w', newline='') as f:
        wr = csv.DictWriter(f, fieldnames=fields)
        wr.writeheader()
        wr.writerows(rows)
    print('%-12s %-12s %-7s %9s %8s %8s %12s %7s %7s' % (
        'design', 'workload', 'fails', 'done', 'p50', 'p99', 'last FCT us', 'drops', 'resent'))
    for r in rows:
        print('%-12s %-12s %-7s %4d of %-3d %8.2f %8.2f %12.1f %7d %7d' % (
            r['design'], r['workload'], r['failure'], r['done'], r['flows'], r['slowdown_p50'],
            r['slowdown_p99'], r['last_fct_us'], r['drops'], r['resent']))
    if a.figure:
        os.makedirs(os.path.dirname(os.path.abspath(a.figure)), exist_ok=True)
        plot(rows, a.figure)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
