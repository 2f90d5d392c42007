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
"""

import argparse
import json
import os
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
    args = p.parse_args(argv)
    configs = args.configs or [os.path.join(TOP, c) for c in DEFAULT_CONFIGS]
    header = ('config', 'wall s', 'sim s', 'events/s', 'link tx/s', 'data pkts/s', 'peak RSS MB')
    print('%-34s %8s %8s %10s %10s %11s %11s' % header)
    with tempfile.TemporaryDirectory() as tmp:
        for i, config in enumerate(configs):
            s = run(args.sim, config, os.path.join(tmp, str(i)))
            wall = s['wall_time_s']
            print('%-34s %8.2f %8.4f %10.3g %10.3g %11.3g %11.1f' % (
                os.path.basename(config), wall, s['sim_time_s'], s['events'] / wall,
                s['link_transmissions'] / wall, s['data_packets_delivered'] / wall, s['peak_rss_mb']))
            sys.stdout.flush()
    return 0


if __name__ == '__main__':
    sys.exit(main())
