#!/usr/bin/python3
"""rdma-sim and the HPCC simulator side by side, in one run, alternating.

Usage: bench_peers.py --hpcc-src DIR [--sim [LABEL=]RDMA_SIM ...] [--peer-dir DIR]
                      [--out DIR] [--cases 1ms-hpcc,1ms-dcqcn,5ms-hpcc,5ms-dcqcn]
                      [--floor RDMA_HOP_FLOOR] [--runs N] [--runs-5ms N] [--jobs N]

--hpcc-src is a checkout of the HPCC simulator
(github.com/alibaba-edu/High-Precision-Congestion-Control: a work tree with
simulation/, or a git directory). Its simulation/ tree is copied to
--peer-dir (default /var/tmp/rdma-peer-hpcc) and built there with waf in
ns-3's optimized profile (Python 2.7 needed: $PYTHON2, pyenv's 2.7.x or
python2.7 on PATH; about 8 minutes on two cores the first time, nothing
after) with the modules its scratch/third.cc needs.

Each case runs the shipped HPCC fat tree (data/topology/fat.txt, 320 hosts)
and a shipped WebSearch flow file (1 ms or 5 ms of arrivals at 30 % load)
under HPCC or DCQCN twice: rdma-sim with cc.preset = hpcc-sim (the
examples/configs/hpcc-fat-ws-*.ini configs), and the simulator with the
config.txt its run.py writes (run.py's own config_template, read from the
checkout, filled as its main does for --cc hp or --cc dcqcn and --bw 100).
Deviations from run.py, the same for every case: file paths absolute,
SIMULATOR_STOP_TIME 2.1 (rdma-sim's sim.stopTime; flows start at 2.0 s), the
queue monitor (QLEN_MON_START/END) after the stop time so that it never runs.
--floor runs rdma-hop-floor (examples/rdma-hop-floor.cc: one event per hop,
nothing modelled) on each case's files in turn with the others, with ns-3
Packets and with 16-byte structs as frames: ns-3's own floor on the same
machine in the same run. --sim may be given several times (e.g. lto=the `make bench` build,
debian=the `make build` one): every build and the simulator run in turn,
the order rotating from run to run and case to case so that each goes
first as often; wall time and peak RSS are each process's own (os.wait4).
The first --sim's answers are compared (every build of the module gives
the same outputs).

Prints, per case, compare_hpcc.py's table (slowdown p50/p95/p99 per size
bucket, ours / theirs), then one line per case: wall seconds of each side
(medians over --runs, or --runs-5ms for the 5 ms cases), the simulator's
wall over each build's, peak RSS, PFC pauses and the worst percentile
ratio, and whether each other build's fct.txt is byte-identical to the
first's; writes the same as JSON to OUT/bench-peers.json. Exit 2 on bad
input or a failed run.
"""

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare_hpcc  # noqa: E402
import peer_checkout  # noqa: E402
from peer_checkout import BenchError, run_py_template  # noqa: E402

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOPOLOGY = os.path.join(TOP, 'data', 'topology', 'fat.txt')
FLOWS = {'1ms': os.path.join(TOP, 'data', 'flows', 'ws_fat_l30_t0.001.txt'),
         '5ms': os.path.join(TOP, 'data', 'flows', 'ws_fat_l30_t0.005.txt')}
CONFIGS = {'hpcc': os.path.join(TOP, 'examples', 'configs', 'hpcc-fat-ws-hpcc.ini'),
           'dcqcn': os.path.join(TOP, 'examples', 'configs', 'hpcc-fat-ws-dcqcn.ini')}
CASES = ('1ms-hpcc', '1ms-dcqcn', '5ms-hpcc', '5ms-dcqcn')
STOP_TIME = '2.1'  # seconds, as the shipped configs' sim.stopTime


def log(msg):
    print('bench_peers: %s' % msg, file=sys.stderr, flush=True)


def build_peer(src, peer_dir, jobs):
    """Build the simulator's scratch/third; return the simulation/ tree."""
    tree = peer_checkout.build(src, peer_dir, 'simulation', 'simulation', jobs, 8, log)
    if not os.access(os.path.join(tree, 'build', 'scratch', 'third'), os.X_OK):
        raise BenchError('%s/build/scratch/third was not built' % tree)
    return tree


def run_py_fields(cc, bw):
    """The format() fields run.py's main fills for --cc dcqcn or hp, --bw bw
    (Python 2 integer division; its defaults --utgt 95 --mi 0 --hpai 0)."""
    f = {'topo': 'fat', 'trace': 'flow', 'failure': '', 'link_down': '0 0 0', 'enable_tr': 0,
         'u_tgt': 0.95, 'mi': 0, 'pint_log_base': 1.01, 'pint_prob': 1.0, 'dctcp_ai': 1000,
         't_alpha': 1, 't_dec': 4, 't_inc': 300, 'g': 0.00390625,
         'buffer_size': 16 * bw // 50,
         'kmax_map': '2 %d %d %d %d' % (bw * 10**9, 400 * bw // 25, 4 * bw * 10**9,
                                        400 * bw * 4 // 25),
         'kmin_map': '2 %d %d %d %d' % (bw * 10**9, 100 * bw // 25, 4 * bw * 10**9,
                                        100 * bw * 4 // 25),
         'pmax_map': '2 %d %.2f %d %.2f' % (bw * 10**9, 0.2, 4 * bw * 10**9, 0.2)}
    if cc == 'dcqcn':
        f.update(cc='dcqcn', mode=1, ai=5 * bw // 25, hai=50 * bw // 25, has_win=0, vwin=0,
                 us=0, int_multi=1, ack_prio=1)
    else:
        f.update(cc='hp95', mode=3, ai=10 * bw // 25, hai=10 * bw // 25, has_win=1, vwin=1,
                 us=1, int_multi=bw // 25, ack_prio=0)
    return f


def write_peer_config(tree, cc, flows, out, bw):
    """OUT/config.txt: run.py's config with absolute paths, the stop time and
    the queue monitor moved (see the module docstring)."""
    text = run_py_template(tree).format(**run_py_fields(cc, bw))
    with open(os.path.join(out, 'trace.txt'), 'w') as t:
        t.write('0\n')  # no traced nodes (ENABLE_TRACE 0; third.cc still reads the file)
    paths = {'TOPOLOGY_FILE': TOPOLOGY, 'FLOW_FILE': flows,
             'TRACE_FILE': os.path.join(out, 'trace.txt'),
             'TRACE_OUTPUT_FILE': os.path.join(out, 'mix.tr'),
             'FCT_OUTPUT_FILE': os.path.join(out, 'fct.txt'),
             'PFC_OUTPUT_FILE': os.path.join(out, 'pfc.txt'),
             'QLEN_MON_FILE': os.path.join(out, 'qlen.txt'),
             'SIMULATOR_STOP_TIME': STOP_TIME,
             'QLEN_MON_START': '100000000000', 'QLEN_MON_END': '100000000000'}
    lines = []
    for line in text.splitlines():
        key = line.split(' ', 1)[0]
        lines.append('%s %s' % (key, paths[key]) if key in paths else line)
    path = os.path.join(out, 'config.txt')
    with open(path, 'w') as f:
        f.write('\n'.join(lines) + '\n')
    return path


def timed(cmd, log_path, env=None):
    """Run cmd; return (wall seconds, peak RSS MiB) of that process alone
    (os.wait4's ru_maxrss, which starts from this Python's size: Linux keeps
    the high-water mark across execve; the HPCC simulator's is far above)."""
    with open(log_path, 'w') as out:
        start = time.monotonic()
        p = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env)
        _, status, usage = os.wait4(p.pid, 0)
        wall = time.monotonic() - start
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        raise BenchError('%s failed (exit %d), see %s' % (cmd[0], p.returncode, log_path))
    return wall, usage.ru_maxrss / 1024.0


def run_ours(sim, case, out):
    """Run rdma-sim; (wall s, peak RSS MiB: its summary.json's VmHWM, since a
    child's ru_maxrss keeps the forking Python's size across execve)."""
    length, cc = case.split('-')
    os.makedirs(out, exist_ok=True)
    wall, _ = timed([sim, '-c', CONFIGS[cc], '--traffic.flowFile=' + FLOWS[length],
                     '--cc.preset=hpcc-sim', '--output.dir=' + out, '--force', '-q'],
                    os.path.join(out, 'stdout.txt'))
    with open(os.path.join(out, 'summary.json')) as f:
        return wall, json.load(f)['peak_rss_mb']


FLOOR_FRAMES = {'floor-packet': 'packet', 'floor-struct': 'pod'}


def run_floor(floor, side, case, out):
    """rdma-hop-floor on the case's flow file: ns-3's own per-hop cost (one
    event per hop, nothing modelled) with ns-3 Packets or 16-byte structs."""
    length = case.split('-')[0]
    os.makedirs(out, exist_ok=True)
    log_path = os.path.join(out, 'stdout.txt')
    wall, peak = timed([floor, '--frames=' + FLOOR_FRAMES[side], '--topology=' + TOPOLOGY,
                        '--flows=' + FLOWS[length]], log_path)
    m = re.search(r'peak RSS ([0-9.]+) MiB', open(log_path).read())
    return wall, float(m.group(1)) if m else peak


def run_theirs(tree, case, out, bw):
    length, cc = case.split('-')
    os.makedirs(out, exist_ok=True)
    config = write_peer_config(tree, cc, FLOWS[length], out, bw)
    env = dict(os.environ)
    lib = os.path.join(tree, 'build')
    env['LD_LIBRARY_PATH'] = lib + (':' + env['LD_LIBRARY_PATH']
                                    if env.get('LD_LIBRARY_PATH') else '')
    return timed([os.path.join(tree, 'build', 'scratch', 'third'), config],
                 os.path.join(out, 'stdout.txt'), env)


def parse_sims(values, default):
    """--sim [LABEL=]PATH, repeatable: [(label, path)]; the first is the one
    whose answers are compared (every build gives the same answers)."""
    sims = []
    for v in values or [default]:
        label, sep, path = v.partition('=')
        if not sep:
            label, path = ('ours' if not sims else 'ours%d' % (len(sims) + 1)), v
        if not label or label == 'theirs' or label in [s[0] for s in sims]:
            raise BenchError('--sim %s: labels must be distinct and not "theirs"' % v)
        if not os.access(path, os.X_OK):
            raise BenchError('--sim %s: %s is not an rdma-sim (make build)' % (v, path))
        sims.append((label, path))
    return sims


def same_file(a, b):
    """Whether files a and b hold the same bytes."""
    with open(a, 'rb') as fa, open(b, 'rb') as fb:
        return fa.read() == fb.read()


def rotation(sides, turn):
    """The run order of turn: sides rotated by turn (each goes first in turn)."""
    k = turn % len(sides)
    return sides[k:] + sides[:k]


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument('--hpcc-src', required=True, help="the HPCC simulator's checkout")
    p.add_argument('--sim', action='append',
                   help='[LABEL=]PATH of an rdma-sim to run, repeatable (default: '
                        'build/examples/rdma-sim); the first one\'s answers are compared')
    p.add_argument('--peer-dir', default='/var/tmp/rdma-peer-hpcc',
                   help='where the simulator is built')
    p.add_argument('--floor', help='an rdma-hop-floor (same build as the first --sim) to run '
                                   'in turn with the others, with Packets and with structs')
    p.add_argument('--out', default=os.path.join(TOP, 'out', 'bench-peers'))
    p.add_argument('--cases', default=','.join(CASES))
    p.add_argument('--runs', type=int, default=1, help='runs of each case (medians)')
    p.add_argument('--runs-5ms', type=int, default=None,
                   help='runs of the 5 ms cases (default: --runs)')
    p.add_argument('--jobs', type=int, default=2, help='waf -j')
    p.add_argument('--bw', type=int, default=100, help="run.py's --bw (fat.txt's hosts: 100)")
    args = p.parse_args(argv)
    cases = args.cases.split(',')
    bad = [c for c in cases if c not in CASES]
    runs_5ms = args.runs if args.runs_5ms is None else args.runs_5ms
    if bad or args.runs < 1 or runs_5ms < 1:
        print('bench_peers.py: --cases: expected some of %s, got %s; --runs, --runs-5ms >= 1'
              % (','.join(CASES), ','.join(bad)), file=sys.stderr)
        return 2
    try:
        sims = parse_sims(args.sim, os.path.join(TOP, 'build', 'examples', 'rdma-sim'))
        tree = build_peer(os.path.abspath(args.hpcc_src), args.peer_dir, args.jobs)
        if args.floor and not os.access(args.floor, os.X_OK):
            raise BenchError('--floor %s: not an rdma-hop-floor' % args.floor)
        floors = list(FLOOR_FRAMES) if args.floor else []
        sides = [label for label, _ in sims] + ['theirs'] + floors
        path_of = dict(sims)
        first = sims[0][0]
        results = []
        turn = 0
        for case in cases:
            runs = runs_5ms if case.startswith('5ms') else args.runs
            walls = {s: [] for s in sides}
            rss = {s: 0.0 for s in sides}
            dirs = {s: os.path.join(args.out, case, s) for s in sides}
            for r in range(runs):
                for side in rotation(sides, turn):
                    log('%s run %d/%d: %s' % (case, r + 1, runs,
                                              'HPCC simulator' if side == 'theirs'
                                              else side if side in floors
                                              else 'rdma-sim (%s)' % side))
                    if side == 'theirs':
                        wall, peak = run_theirs(tree, case, dirs[side], args.bw)
                    elif side in floors:
                        wall, peak = run_floor(args.floor, side, case, dirs[side])
                    else:
                        wall, peak = run_ours(path_of[side], case, dirs[side])
                    walls[side].append(wall)
                    rss[side] = max(rss[side], peak)
                turn += 1
            ours = compare_hpcc.read_hpcc_fct(os.path.join(dirs[first], 'fct.txt'))
            theirs = compare_hpcc.read_hpcc_fct(os.path.join(dirs['theirs'], 'fct.txt'))
            rows = compare_hpcc.compare(ours, theirs)
            same = {s: same_file(os.path.join(dirs[first], 'fct.txt'),
                                 os.path.join(dirs[s], 'fct.txt')) for s, _ in sims[1:]}
            with open(os.path.join(dirs[first], 'summary.json')) as f:
                pauses_ours = json.load(f)['pfc']['pause_frames']
            results.append({
                'case': case, 'buckets': rows, 'worst_ratio': compare_hpcc.worst_ratio(rows),
                'flows_ours': len(ours), 'flows_theirs': len(theirs),
                'pauses_ours': pauses_ours,
                'pauses_theirs': compare_hpcc.count_hpcc_pauses(
                    os.path.join(dirs['theirs'], 'pfc.txt')),
                'runs': runs, 'fct_same_as_%s' % first: same,
                'wall_s': {s: statistics.median(walls[s]) for s in sides},
                'walls': walls, 'rss_mb': rss})
            print('== %s: slowdown, rdma-sim (%s, cc.preset=hpcc-sim) / HPCC simulator'
                  % (case, first))
            print('\n'.join(compare_hpcc.format_table(rows)), flush=True)
    except (BenchError, compare_hpcc.InputError, OSError) as e:
        print('bench_peers.py: %s' % e, file=sys.stderr)
        return 2
    print('\nwall seconds (median of each case\'s runs), peak RSS MiB; speed-up = the '
          'simulator\'s wall / rdma-sim\'s')
    head = ['case', 'runs'] + ['%s s' % s for s in sides] + \
        ['x %s' % s for s, _ in sims] + ['%s MiB' % s for s in sides] + \
        ['pauses o/t', 'worst x']
    print('  '.join(head))
    for r in results:
        w = r['wall_s']
        cells = [r['case'], str(r['runs'])] + ['%.2f' % w[s] for s in sides] + \
            ['%.2fx' % (w['theirs'] / w[s]) for s, _ in sims] + \
            ['%.0f' % r['rss_mb'][s] for s in sides] + \
            ['%d/%d' % (r['pauses_ours'], r['pauses_theirs']), '%.2f' % r['worst_ratio']]
        print('  '.join(cells))
        for s, identical in r['fct_same_as_%s' % first].items():
            if not identical:
                print('  %s: fct.txt of %s differs from %s\'s' % (r['case'], s, first))
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, 'bench-peers.json'), 'w') as f:
        json.dump({'sims': dict(sims), 'cases': results}, f, indent=2)
    return 0


if __name__ == '__main__':
    sys.exit(main())
