#!/usr/bin/python3
"""A stand-in for rdma-sim, for the sweep and plot tests that say they use it.

It honours rdma-sim's command-line and output contract (see doc/rdma.rst,
"Sweeps and plots"): -c FILE.ini, --group.key=value overrides of known keys,
--output.dir refused when non-empty unless --force, exit 2 with a one-line
error for a bad key or value, --check (every check, a verdict line, exit 0,
nothing written), and summary.json, fct.csv, pfc.csv, qlen.csv and
cache.csv in the output folder. It simulates nothing: flows get sizes
and slowdowns drawn from random.Random(sim.seed), so outputs are a
deterministic function of the keys, and the summary's bucket percentiles are
computed here by hand (nearest rank, as rdma-sim's RdmaPercentile), not
with numpy, so the tests check the plot code's numpy reduction against an
independent one. If $FAKE_RDMA_SIM_COUNTER names a file, every run that
passes the checks appends a line to it (the tests count runs with it);
if $FAKE_RDMA_SIM_CHECKS names a file, every --check call appends one.
"""

import configparser
import json
import math
import os
import random
import sys

KEYS = {
    'sim.seed': '1',
    'traffic.load': '0.5',
    'traffic.flows': '200',
    'traffic.qps': '16',
    'cc.algorithm': 'dcqcn',
    'nic.qpc_cache_entries': '1024',
    'output.dir': 'rdma-sim-out',
}
CC = {'dcqcn': 1.0, 'hpcc': 0.5, 'timely': 1.2, 'dctcp': 1.1, 'swift': 0.8, 'nscc': 0.9, 'none': 2.0}
BUCKETS = [('0-10KB', 0, 10e3), ('10KB-100KB', 10e3, 100e3), ('100KB-1MB', 100e3, 1e6),
           ('1MB-10MB', 1e6, 10e6)]


def fail(msg):
    sys.stderr.write('rdma-sim: %s\n' % msg)
    sys.exit(2)


def percentile(sorted_vals, q):
    """Nearest rank, rdma-sim's rule: the ceil(q/100 x n)-th smallest value
    (the smallest for q = 0), written out."""
    if not sorted_vals:
        return None
    rank = max(1, int(math.ceil(q / 100.0 * len(sorted_vals))))
    return sorted_vals[rank - 1]


def log_call(variable, out):
    """Append out as a line to the file the environment variable names, if set."""
    path = os.environ.get(variable)
    if path:
        with open(path, 'a') as f:
            f.write(out + '\n')


def parse(argv):
    cfg, origin, flags = dict(KEYS), {}, set()
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ('-c', '--config'):
            if i + 1 >= len(argv):
                fail('-c needs a file')
            path = argv[i + 1]
            ini = configparser.ConfigParser()
            try:
                with open(path) as f:
                    ini.read_file(f)
            except OSError as e:
                fail('%s: %s' % (path, e.strerror))
            except configparser.Error as e:
                fail('%s: %s' % (path, str(e).splitlines()[0]))
            for section in ini.sections():
                for k, v in ini.items(section):
                    key = '%s.%s' % (section, k)
                    if key not in KEYS:
                        fail("%s: unknown key '%s'" % (path, key))
                    cfg[key], origin[key] = v, path
            i += 2
            continue
        if a in ('--force', '--check'):
            flags.add(a)
        elif a in ('--quiet', '-q'):
            pass
        elif a.startswith('--') and '=' in a:
            key, value = a[2:].split('=', 1)
            if key not in KEYS:
                fail("unknown option '--%s' (rdma-sim --help lists every option)" % key)
            cfg[key], origin[key] = value, 'command line --' + key
        else:
            fail("unknown option '%s'" % a)
        i += 1
    return cfg, origin, flags


def number(cfg, origin, key, kind, lo, hi):
    try:
        v = kind(cfg[key])
    except ValueError:
        v = None
    if v is None or not lo <= v <= hi:
        fail("%s: key '%s': '%s' is not a number in [%s, %s]" %
             (origin.get(key, 'default'), key, cfg[key], lo, hi))
    return v


def main(argv):
    cfg, origin, flags = parse(argv)
    seed = number(cfg, origin, 'sim.seed', int, 0, 2**32 - 1)
    load = number(cfg, origin, 'traffic.load', float, 0.01, 1.0)
    nflows = number(cfg, origin, 'traffic.flows', int, 1, 100000)
    qps = number(cfg, origin, 'traffic.qps', int, 1, 1 << 20)
    entries = number(cfg, origin, 'nic.qpc_cache_entries', int, 1, 1 << 20)
    if cfg['cc.algorithm'] not in CC:
        fail("%s: key 'cc.algorithm': '%s' is not one of %s" %
             (origin.get('cc.algorithm', 'default'), cfg['cc.algorithm'], ', '.join(CC)))
    out = cfg['output.dir']
    if os.path.isdir(out) and os.listdir(out) and '--force' not in flags:
        fail("output folder '%s' is not empty (--force writes into it)" % out)
    if '--check' in flags:
        log_call('FAKE_RDMA_SIM_CHECKS', out)
        print('rdma-sim: configuration checked, %d flows; this run needs about 24.00 MiB, within '
              'the limit of 8.00 GiB (sim.maxMemory = 8GiB); nothing run, nothing written' % nflows)
        return 0
    os.makedirs(out, exist_ok=True)
    log_call('FAKE_RDMA_SIM_COUNTER', out)

    rng = random.Random(seed)
    flows = []
    t = 0
    for i in range(nflows):
        size = int(10 ** rng.uniform(2.5, 7.0))
        ideal = int(2000 + size * 8 / 100)  # ns at 100 Gb/s plus 2 us base RTT
        slowdown = 1.0 + CC[cfg['cc.algorithm']] * load * rng.expovariate(1.0) * (1 + 1e4 / size)
        ok = rng.random() > 0.02
        t += int(rng.expovariate(1.0 / 1000))
        flows.append((i, i % 4, (i + 1) % 4, ('WRITE', 'READ', 'SEND')[i % 3], size, t,
                      int(ideal * slowdown), ideal, slowdown, i % qps, ok))
    with open(os.path.join(out, 'fct.csv'), 'w') as f:
        f.write('id,src,dst,op,size,start_ns,fct_ns,ideal_fct_ns,slowdown,qp,status\n')
        for fl in flows:
            f.write('%d,%d,%d,%s,%d,%d,%d,%d,%.6f,%d,%s\n' % (fl[:10] + (
                'IBV_WC_SUCCESS' if fl[10] else 'IBV_WC_RETRY_EXC_ERR',)))
    end_ns = max(fl[5] + fl[6] for fl in flows)

    buckets = {}
    for label, lo, hi in BUCKETS:
        vals = sorted(round(fl[8], 6) for fl in flows if fl[10] and lo <= fl[4] < hi)
        buckets[label] = {'lo': lo, 'hi': hi, 'count': len(vals),
                          **{n: percentile(vals, q) for n, q in (('p50', 50), ('p95', 95), ('p99', 99))}}

    pauses = []
    for port in range(2):
        tp = 0
        for _ in range(int(load * 6)):
            tp += rng.randint(500, 5000)
            pauses.append((tp, 4, port, 3, 'pause'))
            tp += rng.randint(200, 2000)
            pauses.append((tp, 4, port, 3, 'resume'))
    with open(os.path.join(out, 'pfc.csv'), 'w') as f:
        f.write('time_ns,node,port,class,event\n')
        for p in sorted(pauses):
            f.write('%d,%d,%d,%d,%s\n' % p)
    with open(os.path.join(out, 'qlen.csv'), 'w') as f:
        f.write('time_ns,node,port,class,bytes\n')
        for k in range(10):
            f.write('%d,4,0,3,%d\n' % (k * 1000, rng.randint(0, 200000)))

    accesses = 10 * nflows
    hit_rate = min(1.0, entries / qps)  # cyclic LRU over qps contexts: C/N
    hits = int(round(accesses * hit_rate))
    cache = {'qpc': {'hits': hits, 'misses': accesses - hits,
                     'evictions': max(0, accesses - hits - entries), 'hit_rate': hits / accesses}}
    with open(os.path.join(out, 'cache.csv'), 'w') as f:
        f.write('nic,table,hits,misses,evictions\n')
        c = cache['qpc']
        f.write('0,qpc,%d,%d,%d\n' % (c['hits'], c['misses'], c['evictions']))

    summary = {
        'config': cfg, 'seed': seed, 'wall_time_s': 0.001, 'sim_time_s': end_ns * 1e-9,
        'events': 10 * nflows, 'link_transmissions': 4 * nflows,
        'data_packets_delivered': sum(max(1, fl[4] // 1000) for fl in flows if fl[10]),
        'peak_rss_mb': 10.0,
        'flows': {'total': nflows, 'completed': sum(fl[10] for fl in flows),
                  'failed': sum(not fl[10] for fl in flows)},
        'fct_slowdown': buckets,
        'pfc': {'pause_frames': sum(p[4] == 'pause' for p in pauses),
                'resume_frames': sum(p[4] == 'resume' for p in pauses)},
        'drops': 0, 'retransmissions': sum(not fl[10] for fl in flows) * 7,
        'cache': cache, 'versions': {'rdma-sim': 'fake_rdma_sim.py'},
    }
    with open(os.path.join(out, 'summary.json'), 'w') as f:
        json.dump(summary, f, indent=1)
    print('fake rdma-sim: %d flows, %s' % (nflows, out))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
