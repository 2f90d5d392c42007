#!/usr/bin/python3
"""The sequential cost of the model event order (a benchmark, not a test;
doc/mpi.rst, "Event order"): one rdma-sim, ns-3's HeapScheduler (insertion
order, the scheduler before RdmaEventScheduler) against the default
RdmaEventScheduler, runs alternating; per config the CPU seconds (user +
sys of the child, os.wait4: steadier than wall time on a shared machine)
of each run, their medians and the difference.

    scripts/bench_event_order.py SIM 'CONFIG ARGS;CONFIG ARGS;...' PAIRS
    scripts/bench_event_order.py build/examples/rdma-sim \
        ' ;-c examples/configs/incast.ini' 5
"""
import json
import os
import subprocess
import sys
import tempfile
import time


def main():
    sim, cfgs, pairs = sys.argv[1], sys.argv[2].split(';'), int(sys.argv[3])
    with tempfile.TemporaryDirectory() as tmp:
        for cfg in cfgs:
            args = cfg.split()
            res = {'heap': [], 'model': []}
            for _ in range(pairs):
                for tag, extra in (('heap', ['--sim.scheduler=ns3::HeapScheduler']),
                                   ('model', [])):
                    out = os.path.join(tmp, tag)
                    t0 = time.monotonic()
                    p = subprocess.Popen([sim, '--quiet', '--force', '--output.dir=' + out] +
                                         args + extra)
                    _, status, ru = os.wait4(p.pid, 0)
                    if status != 0:
                        sys.exit('bench_event_order: %s %s failed' % (sim, ' '.join(args + extra)))
                    with open(os.path.join(out, 'summary.json')) as f:
                        events = json.load(f)['events']
                    res[tag].append((ru.ru_utime + ru.ru_stime, time.monotonic() - t0, events))
            h = sorted(x[0] for x in res['heap'])
            m = sorted(x[0] for x in res['model'])
            print('%s: heap CPU s %s (median %.2f), model %s (median %.2f): %+.1f %%; '
                  'events %d and %d' % (
                      cfg.strip() or 'default', ' '.join('%.2f' % x for x in h), h[len(h) // 2],
                      ' '.join('%.2f' % x for x in m), m[len(m) // 2],
                      100 * (m[len(m) // 2] / h[len(h) // 2] - 1), res['heap'][0][2],
                      res['model'][0][2]))
            sys.stdout.flush()


if __name__ == '__main__':
    main()
