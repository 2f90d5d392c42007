#!/usr/bin/python3
"""Speed benchmark of rdma-sim (a benchmark, not a test).

Runs rdma-sim on benchmark configs and prints, per config, what its
summary.json measured: wall seconds, simulated seconds, scheduler events
per wall second, link transmissions per wall second, data packets
delivered per wall second and peak RSS. Run on an otherwise idle machine
with a Release build (`make bench`: ns-3 in its release profile, the module
as contrib/rdma; `make bench-debian`: against Debian's libns3, whose logs and
asserts are compiled in):

    scripts/bench.py --sim PATH            # the default set below
    scripts/bench.py examples/configs/incast.ini --sim build/examples/rdma-sim
    scripts/bench.py --runs 3 --sim PATH   # each figure the median of 3 runs

With --runs N every config runs N times and each figure is the median over
the runs (wall seconds and peak RSS of the runs themselves; the rates are
the run's counts over the median wall time, since the counts do not vary:
same config and seed, same simulation).
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), '..'))
DEFAULT_CONFIGS = [
    'examples/configs/fat-tree-websearch.ini',
    'examples/configs/fat-tree-k8-permutation.ini',
    'examples/configs/hpcc-fat-ws-hpcc.ini',
    'examples/configs/hpcc-fat-ws-hpcc-5ms.ini',
]


def run(sim, config, out):
    r = subprocess.run([sim, '-c', config, '--quiet', '--force', '--output.dir=%s' % out],
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError('%s: rdma-sim exit %d: %s' % (config, r.returncode, r.stderr.strip()))
    with open(os.path.join(out, 'summary.json')) as f:
        return json.load(f)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument('configs', nargs='*', help='config files (default: %s)' % ', '.join(DEFAULT_CONFIGS))
    p.add_argument('--sim', default=os.environ.get('RDMA_SIM', os.path.join(TOP, 'build', 'examples', 'rdma-sim')),
                   help='the rdma-sim binary')
    p.add_argument('--runs', type=int, default=1, help='runs per config; figures are medians (default 1)')
    args = p.parse_args(argv)
    if args.runs < 1:
        p.error('--runs must be at least 1')
    configs = args.configs or [os.path.join(TOP, c) for c in DEFAULT_CONFIGS]
    header = ('config', 'wall s', 'sim s', 'events/s', 'link tx/s', 'data pkts/s', 'peak RSS MB')
    print('%-34s %8s %8s %10s %10s %11s %11s' % header)
    with tempfile.TemporaryDirectory() as tmp:
        for i, config in enumerate(configs):
            runs = [run(args.sim, config, os.path.join(tmp, '%d-%d' % (i, r))) for r in range(args.runs)]
            s = runs[0]
            wall = statistics.median(r['wall_time_s'] for r in runs)
            rss = statistics.median(r['peak_rss_mb'] for r in runs)
            print('%-34s %8.2f %8.4f %10.3g %10.3g %11.3g %11.1f' % (
                os.path.basename(config), wall, s['sim_time_s'], s['events'] / wall,
                s['link_transmissions'] / wall, s['data_packets_delivered'] / wall, rss))
            sys.stdout.flush()
    return 0


if __name__ == '__main__':
    sys.exit(main())
