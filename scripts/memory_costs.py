#!/usr/bin/python3
"""Memory per item of rdma-sim, measured (a measurement, not a test).

Runs rdma-sim on a set of topologies and workloads, most stopped 1 us after
their flows start (the construction and every flow's QP pair, not the
traffic; two Poisson workloads of small flows run to their end), and reads
each run's peak resident set size from the kernel (/usr/bin/time -v,
"Maximum resident set size"). The item counts of a run (hosts, switches,
ports, routes, route next hops, flows, QP pairs at once, NIC pipelines) are
rdma-sim's own: a second run with --sim.maxMemory=1MiB is refused, and the
refusal lists them.

    scripts/memory_costs.py --sim build/examples/rdma-sim           # the table
    scripts/memory_costs.py --sim build/examples/rdma-sim --fit     # and a new fit
    scripts/memory_costs.py --sim build/examples/rdma-sim --large   # and a k=32 fat-tree

The table compares each measured peak with rdma-sim's estimate (the costs
in helper/parallel/rdma-memory-estimate.cc); --fit also fits new costs by least
squares (see fit()) over the runs. The runs take about two minutes and up
to about 1 GiB each (with --large, four minutes and 3 GiB).
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

# (name, options): permutation of 1000-byte flows on each topology, then
# all-to-all workloads (every QP pair open at once), then Poisson ones.
TOPOLOGY = ['--traffic.pattern=permutation', '--traffic.size=1000', '--sim.stopTime=1us']
RUNS = [
    ('fat-tree k=4', ['--topology.type=fat-tree', '--topology.k=4'] + TOPOLOGY),
    ('fat-tree k=8', ['--topology.type=fat-tree', '--topology.k=8'] + TOPOLOGY),
    ('fat-tree k=12', ['--topology.type=fat-tree', '--topology.k=12'] + TOPOLOGY),
    ('fat-tree k=16', ['--topology.type=fat-tree', '--topology.k=16'] + TOPOLOGY),
    ('fat-tree k=20', ['--topology.type=fat-tree', '--topology.k=20'] + TOPOLOGY),
    ('fat-tree k=24', ['--topology.type=fat-tree', '--topology.k=24'] + TOPOLOGY),
    # (A switch of this radix needs a larger shared buffer than the
    # default's 12 MiB for every port's reserve and headroom.)
    ('star 1000', ['--topology.type=star', '--topology.hosts=1000',
                   '--pfc.BufferSize=268435456'] + TOPOLOGY),
    ('star 4000', ['--topology.type=star', '--topology.hosts=4000',
                   '--pfc.BufferSize=268435456'] + TOPOLOGY),
    ('leaf-spine 64x64x1', ['--topology.type=leaf-spine', '--topology.leaves=64',
                            '--topology.spines=64', '--topology.hostsPerLeaf=1'] + TOPOLOGY),
    ('leaf-spine 32x32x32', ['--topology.type=leaf-spine', '--topology.leaves=32',
                             '--topology.spines=32', '--topology.hostsPerLeaf=32'] + TOPOLOGY),
    ('leaf-spine 512x1x1', ['--topology.type=leaf-spine', '--topology.leaves=512',
                            '--topology.spines=1', '--topology.hostsPerLeaf=1',
                            '--pfc.BufferSize=268435456'] + TOPOLOGY),
    ('fat-tree k=16, nic.pipeline', ['--topology.type=fat-tree', '--topology.k=16',
                                     '--nic.pipeline=true'] + TOPOLOGY),
    ('star 64, all-to-all', ['--topology.type=star', '--topology.hosts=64',
                             '--traffic.pattern=all-to-all', '--traffic.size=1000',
                             '--sim.stopTime=1us']),
    ('star 128, all-to-all', ['--topology.type=star', '--topology.hosts=128',
                              '--traffic.pattern=all-to-all', '--traffic.size=1000',
                              '--sim.stopTime=1us']),
    ('star 256, all-to-all', ['--topology.type=star', '--topology.hosts=256',
                              '--traffic.pattern=all-to-all', '--traffic.size=1000',
                              '--sim.stopTime=1us']),
    # Poisson arrivals of small flows (Google RPC sizes): few QPs open at once.
    ('star 16, Poisson 1 ms', ['--topology.type=star', '--topology.hosts=16',
                               '--traffic.cdf=googlerpc', '--traffic.duration=1ms',
                               '--sim.stopTime=20ms']),
    ('star 16, Poisson 4 ms', ['--topology.type=star', '--topology.hosts=16',
                               '--traffic.cdf=googlerpc', '--traffic.duration=4ms',
                               '--sim.stopTime=20ms']),
]
# With --large, a check beyond the fitted sizes (not in the fit): about
# 90 s and 3 GiB more.
LARGE = [('fat-tree k=32 (not in the fit)', ['--topology.type=fat-tree', '--topology.k=32']
          + TOPOLOGY)]
ITEMS = ['hosts', 'switches', 'ports', 'routes', 'route', 'flows', 'QP', 'NIC']
# The items as rdma-sim names them (their first word) and in the table.
HEADERS = ['hosts', 'switches', 'ports', 'routes', 'route next hops', 'flows',
           'QP pairs at once', 'NIC pipelines']


def refusal(sim, options, limit):
    """rdma-sim's refusal of a run under a memory limit: (what it covered,
    total bytes, {item: count}, bytes of the unit it was printed in), or
    None if it was not refused."""
    r = subprocess.run([sim, '-q', '--check', '--sim.maxMemory=%s' % limit,
                        '--output.dir=/nonexistent'] + options, capture_output=True, text=True)
    if r.returncode == 0:
        return None
    m = re.search(r'sim.maxMemory: (this run|this fabric alone) needs about ([0-9.]+) '
                  r'(B|KiB|MiB|GiB|TiB) to build \((.*)\), more than', r.stderr)
    if r.returncode != 2 or not m:
        sys.exit('rdma-sim did not refuse %s: %s' % (options, r.stderr))
    scale = {'B': 1, 'KiB': 2**10, 'MiB': 2**20, 'GiB': 2**30, 'TiB': 2**40}[m.group(3)]
    counts = {item: 0 for item in ITEMS}
    for count, item in re.findall(r'(\d+) (\w+)[^,]* x ', m.group(4)):
        if item in counts:
            counts[item] = int(count)
    return m.group(1), float(m.group(2)) * scale, counts, scale


def estimate(sim, options):
    """rdma-sim's estimate of a run: (total bytes, {item: count}), from its
    refusal. A generated fabric is first checked from its sizes alone (its
    flows not yet drawn), so the whole run's items come from a second check
    with a limit just above the fabric's estimate."""
    what, total, counts, unit = refusal(sim, options, '1MiB')
    if what == 'this fabric alone':
        # The fabric's total is printed to 0.01 of its unit: half of that
        # above it passes the first check, and the flows and QPs fail the second.
        whole = refusal(sim, options, '%dB' % int(total + 0.005 * unit + 1))
        if whole is not None:
            what, total, counts, unit = whole
    return total, counts


def peak_rss(sim, options, out):
    """Peak resident set size of one run, bytes (the kernel's, via /usr/bin/time -v)."""
    r = subprocess.run(['/usr/bin/time', '-v', sim, '-q', '--force', '--output.dir=%s' % out]
                       + options, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit('rdma-sim failed on %s: %s' % (options, r.stderr))
    return int(re.search(r'Maximum resident set size \(kbytes\): (\d+)', r.stderr).group(1)) * 1024


def fit(rows):
    """Per-item costs: the NIC pipeline's from the pair of runs that differ
    only by nic.pipeline; the others by least squares on the error relative
    to the square root of each measured peak (between absolute error, where
    the largest run decides, and relative error, where the smallest does:
    the large runs, whose refusal matters, weigh more), no cost negative."""
    by_name = {name: (c, m) for name, c, m, _ in rows}
    (c1, m1), (c0, m0) = by_name['fat-tree k=16, nic.pipeline'], by_name['fat-tree k=16']
    pipeline = (m1 - m0) / c1['NIC']
    rest = [r for r in rows if r[1]['NIC'] == 0 and r[0] not in dict(LARGE)]
    items = [i for i in ITEMS if i != 'NIC']
    a = np.array([[1.0] + [c[i] for i in items] for _, c, _, _ in rest])
    y = np.array([m for _, _, m, _ in rest])
    w = 1 / np.sqrt(y)
    active = list(range(a.shape[1]))
    while True:
        x, *_ = np.linalg.lstsq(a[:, active] * w[:, None], y * w, rcond=None)
        if (x >= 0).all():
            break
        del active[int(np.argmin(x))]
    costs = np.zeros(a.shape[1])
    costs[active] = x
    result = dict(zip(['base'] + items, costs))
    result['NIC'] = pipeline
    return result


def mib(b):
    return '%.1f' % (b / 2**20)


def main():
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument('--sim', default=os.path.join('build', 'examples', 'rdma-sim'))
    p.add_argument('--fit', action='store_true', help='also fit new per-item costs')
    p.add_argument('--large', action='store_true',
                   help='also run a k=32 fat-tree (about 3 GiB), not in the fit')
    args = p.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, options in RUNS + (LARGE if args.large else []):
            est, counts = estimate(args.sim, options)
            measured = peak_rss(args.sim, options, os.path.join(tmp, 'out'))
            rows.append((name, counts, measured, est))
    print('| run | %s | measured MiB | estimated MiB | estimate / measured |'
          % ' | '.join(HEADERS))
    print('| --- |%s ---: | ---: | ---: |' % (' ---: |' * len(ITEMS)))
    for name, c, measured, est in rows:
        print('| %s | %s | %s | %.2f |' % (name, ' | '.join(str(c[i]) for i in ITEMS),
                                           ' | '.join([mib(measured), mib(est)]), est / measured))
    if args.fit:
        costs = fit(rows)
        print('\nfitted bytes per item: ' +
              ', '.join('%s %.0f' % (k, v) for k, v in costs.items()))
        for name, c, measured, _ in rows:
            e = costs['base'] + sum(c[i] * costs[i] for i in ITEMS)
            print('  %-24s measured %8s MiB  fit %8s MiB  (%+.1f %%)'
                  % (name, mib(measured), mib(e), 100 * (e / measured - 1)))


if __name__ == '__main__':
    main()
