#!/usr/bin/python3
"""Speed-up and error of sim.fastForward (a benchmark, not a test).

Runs each case with the same rdma-sim, sim.fastForward = on and off (every
packet simulated) in turn, --runs times each, and prints per case the
median wall seconds of each (summary.json's wall_time_s), the speed-up
(their ratio), the collectives replayed of all, and the error of the fast run against
the packet-level one: the largest relative difference of a collective's CCT
and of an iteration's time (collectives.csv, jobs.csv), or of a flow's FCT
(fct.csv). Run on an otherwise idle machine, with `make run`'s build:

    scripts/bench_fastforward.py                   # the default cases below
    scripts/bench_fastforward.py --full            # and GPT-7B at full size (about 30 min)
    scripts/bench_fastforward.py --sim PATH --only gpt7b-1/64

doc/fast-forward.rst holds the measured table.
"""

import argparse
import csv
import json
import os
import statistics
import subprocess
import sys
import tempfile

from rdmasim_binary import default_sim

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CONFIGS = os.path.join(TOP, 'examples', 'configs')
GPT7B = os.path.join(CONFIGS, 'collective-gpt7b-rail.ini')

#: name -> (config, extra keys)
CASES = {
    'gpt7b-1/1024': (GPT7B, []),
    'gpt7b-1/64': (GPT7B, ['--job.workloadCommScale=0.015625']),
    'gpt7b-1/16': (GPT7B, ['--job.workloadCommScale=0.0625']),
    'moe-2to1': (os.path.join(CONFIGS, 'collective-moe-2to1.ini'), []),
    'two-jobs-2to1': (os.path.join(CONFIGS, 'collective-two-jobs-2to1.ini'), []),
    'websearch-hpcc-1ms': (os.path.join(CONFIGS, 'hpcc-fat-ws-hpcc.ini'), []),
}
FULL = {'gpt7b-full': (GPT7B, ['--job.workloadCommScale=1', '--sim.stopTime=150ms'])}


def run(sim, config, extra, mode, out):
    """One run; returns its summary.json."""
    cmd = [sim, '-c', config, '--quiet', '--force', '--output.dir=%s' % out,
           '--sim.fastForward=%s' % mode] + extra
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError('%s: exit %d: %s' % (' '.join(cmd), r.returncode, r.stderr.strip()))
    with open(os.path.join(out, 'summary.json')) as f:
        return json.load(f)


def rows(path, keys, value):
    """{key tuple: value} of a CSV's rows whose value is set."""
    if not os.path.exists(path):
        return {}
    with open(path) as f:
        return {tuple(r[k] for k in keys): float(r[value])
                for r in csv.DictReader(f) if r[value] != ''}


def largest_error(fast_dir, packet_dir, name, keys, value):
    """The largest |fast / packet - 1| over the rows of one output file; None if it has none."""
    fast = rows(os.path.join(fast_dir, name), keys, value)
    packet = rows(os.path.join(packet_dir, name), keys, value)
    if not packet:
        return None
    if set(fast) != set(packet):
        return float('inf')
    return max(abs(fast[k] / packet[k] - 1) if packet[k] else 0.0 for k in packet)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument('--sim', help='the rdma-sim binary (default: scripts/rdmasim_binary.py\'s rule)')
    p.add_argument('--full', action='store_true', help='also GPT-7B at full size (long)')
    p.add_argument('--only', action='append', choices=sorted(list(CASES) + list(FULL)),
                   help='run only this case (repeatable)')
    p.add_argument('--runs', type=int, default=3,
                   help='runs of each mode, alternating; times are medians (default 3)')
    args = p.parse_args(argv)
    if args.runs < 1:
        p.error('--runs must be at least 1')
    sim, why = (args.sim, '--sim') if args.sim else default_sim()
    print('rdma-sim: %s (%s)' % (sim, why))
    cases = dict(CASES, **(FULL if args.full else {}))
    if args.only:
        cases = {k: v for k, v in dict(CASES, **FULL).items() if k in args.only}
    print('%-20s %9s %9s %8s %11s %11s %11s %11s' % (
        'case', 'on s', 'off s', 'speedup', 'replayed', 'CCT err', 'iter err', 'FCT err'))
    pct = lambda e: '-' if e is None else '%.4f %%' % (100 * e)
    with tempfile.TemporaryDirectory() as tmp:
        for name, (config, extra) in cases.items():
            on_dir, off_dir = os.path.join(tmp, 'on'), os.path.join(tmp, 'off')
            walls = {'on': [], 'off': []}
            for _ in range(args.runs):
                on = run(sim, config, extra, 'on', on_dir)
                off = run(sim, config, extra, 'off', off_dir)
                walls['on'].append(on['wall_time_s'])
                walls['off'].append(off['wall_time_s'])
            ff = on.get('fast_forward', {})
            total = on.get('collectives', {}).get('total', 0)
            wall_on, wall_off = statistics.median(walls['on']), statistics.median(walls['off'])
            print('%-20s %9.2f %9.2f %7.1fx %11s %11s %11s %11s' % (
                name, wall_on, wall_off, wall_off / wall_on,
                '%d/%d' % (ff.get('collectives_replayed', 0), total) if total else '-',
                pct(largest_error(on_dir, off_dir, 'collectives.csv',
                                  ('job', 'iteration', 'item'), 'cct_ns')),
                pct(largest_error(on_dir, off_dir, 'jobs.csv', ('job', 'iteration'), 'time_ns')),
                pct(largest_error(on_dir, off_dir, 'fct.csv', ('id',), 'fct_ns'))))
            sys.stdout.flush()
    return 0


if __name__ == '__main__':
    sys.exit(main())
