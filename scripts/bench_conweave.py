#!/usr/bin/python3
"""rdma-sim and ConWeave's simulator side by side on the same flows, alternating.

Usage: bench_conweave.py (--conweave-src DIR | --conweave-tree DIR) [--sim RDMA_SIM]
                         [--peer-dir DIR] [--out DIR] [--lb fecmp[,drill,conga,...]]
                         [--recovery pfc[,irn]] [--time 0.005]
                         [--netload 50] [--cdf AliStorage2019] [--seed 1]
                         [--flows FILE] [--runs N] [--jobs N]

ConWeave's simulator (github.com/conweave-project/conweave-ns3, SIGCOMM'23; an
ns-3.19 tree derived from the HPCC simulator) is built from --conweave-src, a
checkout of it (a work tree or a git directory), in --peer-dir (default
/var/tmp/rdma-peer-conweave) with waf in ns-3's optimized profile and the
modules its scratch/network-load-balance.cc needs (Python 2.7: $PYTHON2,
pyenv's 2.7.x or python2.7 on PATH; about 7 minutes on two cores the first
time, nothing after); --conweave-tree names a tree already built so.

The case is its run.py's: --lb (fecmp, drill, conga or letflow: the balancers
this module models; a comma-separated list runs each) with --recovery pfc (PFC and
go-back-N, its --pfc 1 --irn 0) or irn (IRN without PFC, --pfc 0 --irn 1; a
list runs each), DCQCN, its
leaf_spine_128_100G_OS2 fabric (128 hosts, 100 Gb/s, 2:1), --time seconds of
--cdf arrivals from t = 2.0 s at --netload percent of the core (run.py's
--simul_time, --cdf, --netload). The flows: --flows (its five-field format),
or its own traffic_gen.py run with random.seed(--seed) (run.py does not seed
it: two of its runs see different flows). Both simulators read the same
config.txt, the one run.py's config_template gives for those arguments
(read from the tree, filled as its main fills it), with absolute paths:
ConWeave's simulator as run.py starts it, rdma-sim with --hpcc.config (which
selects cc.preset = conweave-sim).

Each of --runs rounds runs both on every case (balancer x recovery, in that
order), the order of the two alternating from one run to the next;
wall time and peak RSS are each process's own (os.wait4; rdma-sim's RSS from
its summary.json). Prints compare_hpcc.py's table (slowdown p50/p95/p99 per
size bucket, ours / theirs, each side's slowdown against its own ideal FCT)
for every flow and for the flows its fctAnalysis.py counts (started after the
5 ms warm-up and done within 50 ms of the last arrival), then wall seconds
(medians), peak RSS, PFC pauses and the worst percentile ratio; writes the
same as JSON to OUT/bench-conweave.json. One case writes OUT/ours and
OUT/theirs; several write OUT/LB-RECOVERY/{ours,theirs} and end with a table
of every case (mean FCT and p50 / p99 slowdown per bucket, after the warm-up)
and the order of the balancers by mean FCT on each side. Exit 2 on bad input
or a failed run.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare_hpcc  # noqa: E402
from bench_peers import rotation, timed  # noqa: E402
import peer_checkout  # noqa: E402
from peer_checkout import BenchError, run_py_template  # noqa: E402

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOPO = 'leaf_spine_128_100G_OS2'
LB_MODES = {'fecmp': 0, 'drill': 2, 'conga': 3, 'letflow': 6}  # run.py's lb_modes this module models
RECOVERIES = {'pfc': (1, 0), 'irn': (0, 1)}  # run.py's (--pfc, --irn): it refuses both or neither
FLOWGEN_START = 2.0  # run.py FLOWGEN_DEFAULT_TIME
WARMUP_S = 0.005     # run.py: fctAnalysis.py's -sT is the start + 5 ms
EXTRA_S = 0.05       # and its -fT the last arrival + 50 ms
BINARY = os.path.join('build', 'scratch', 'network-load-balance')


def log(msg):
    print('bench_conweave: %s' % msg, file=sys.stderr, flush=True)


def build_peer(src, peer_dir, jobs):
    """Build the simulator's scratch/network-load-balance; return its tree."""
    tree = peer_checkout.build(src, peer_dir, 'conweave-ns3', '', jobs, 7, log)
    check_tree(tree)
    return tree


def check_tree(tree):
    """The tree must hold the built simulator, run.py and the topology."""
    for need in (BINARY, 'run.py', os.path.join('config', TOPO + '.txt'),
                 os.path.join('traffic_gen', 'traffic_gen.py')):
        if not os.path.exists(os.path.join(tree, need)):
            raise BenchError('%s: no %s (a built tree of ConWeave\'s simulator?)' % (tree, need))


def run_py_fields(lb, time_s, netload, flows, bw=100, recovery='pfc'):
    """The format() fields run.py's main fills for --cc dcqcn, --pfc/--irn by
    recovery
    (its defaults --buffer 9 --bw 100 --sw_monitoring_interval 10000; the
    ConWeave timers it writes for the balancers other than conweave)."""
    stop = FLOWGEN_START + float(time_s)
    return {
        'topo': TOPO, 'flow': flows, 'id': 'ID',
        'qlen_mon_start': FLOWGEN_START, 'qlen_mon_end': stop,
        'flowgen_start_time': FLOWGEN_START, 'flowgen_stop_time': stop,
        'sw_monitoring_interval': 10000, 'load': netload, 'buffer_size': '9',
        'lb_mode': LB_MODES[lb], 'enabled_pfc': RECOVERIES[recovery][0],
        'enabled_irn': RECOVERIES[recovery][1], 'cc_mode': 1,
        'cwh_tx_expiry_time': 1000, 'cwh_extra_reply_deadline': 4,
        'cwh_path_pause_time': 16, 'cwh_extra_voq_flush_time': 64,
        'cwh_default_voq_waiting_time': 400,
        'ai': 10 * bw / 25, 'hai': 25 * bw / 25, 'dctcp_ai': 1000, 'has_win': 0, 'var_win': 0,
        'fast_react': 0, 'mi': 0, 'int_multi': 1, 'ewma_gain': 0.00390625,
        'kmax_map': '6 ' + ' '.join('%d 400' % (bw * r) for r in
                                    (200000000, 500000000, 1000000000, 2000000000,
                                     2500000000, 4000000000)),
        'kmin_map': '6 ' + ' '.join('%d 100' % (bw * r) for r in
                                    (200000000, 500000000, 1000000000, 2000000000,
                                     2500000000, 4000000000)),
        # run.py formats the first two Pmax values with %d: 0 at 20 and 50 Gb/s
        'pmax_map': '6 %d %d %d %d %d %.2f %d %.2f %d %.2f %d %.2f' % (
            bw * 200000000, 0.2, bw * 500000000, 0.2, bw * 1000000000, 0.2,
            bw * 2000000000, 0.2, bw * 2500000000, 0.2, bw * 4000000000, 0.2),
    }


def write_config(tree, fields, flows_path, out):
    """OUT/config.txt: run.py's config with absolute paths (its template names
    config/{topo}.txt, config/{flow}.txt and mix/output/{id}/{id}_*: OUT/*)."""
    text = run_py_template(tree).format(**fields)
    lines = []
    for line in text.splitlines():
        key, _, value = line.partition(' ')
        if key == 'TOPOLOGY_FILE':
            value = os.path.join(tree, 'config', TOPO + '.txt')
        elif key == 'FLOW_FILE':
            value = flows_path
        elif value.startswith('mix/output/ID/ID_'):
            value = os.path.join(out, value[len('mix/output/ID/ID_'):])
        lines.append('%s %s' % (key, value) if value else line)
    path = os.path.join(out, 'config.txt')
    with open(path, 'w') as f:
        f.write('\n'.join(lines) + '\n')
    return path


def make_flows(tree, cdf, netload, time_s, seed, path):
    """Its traffic_gen.py as run.py runs it (host load = netload / the
    oversubscription, 2), with random seeded: the same flows every time."""
    gen = os.path.join(tree, 'traffic_gen')
    code = ('import random, sys; random.seed(%d); sys.path.insert(0, %r); sys.argv = %r; '
            'exec(compile(open(%r).read(), "traffic_gen.py", "exec"), {"__name__": "__main__"})'
            % (seed, gen, ['traffic_gen.py', '-c', os.path.join(gen, cdf + '.txt'), '-n', '128',
                           '-l', str(netload / 2 / 100.0), '-b', '100G', '-t', str(time_s),
                           '-o', path], os.path.join(gen, 'traffic_gen.py')))
    if subprocess.call([sys.executable, '-c', code], stdout=subprocess.DEVNULL):
        raise BenchError('traffic_gen.py failed for %s' % cdf)


def run_theirs(tree, config, out):
    env = dict(os.environ)
    lib = os.path.join(tree, 'build')
    env['LD_LIBRARY_PATH'] = lib + (':' + env['LD_LIBRARY_PATH']
                                    if env.get('LD_LIBRARY_PATH') else '')
    return timed([os.path.join(tree, BINARY), config], os.path.join(out, 'stdout.txt'), env)


def run_ours(sim, config, out):
    wall, _ = timed([sim, '--hpcc.config=' + config, '--output.dir=' + out, '--force', '-q'],
                    os.path.join(out, '..', 'ours-stdout.txt'))
    with open(os.path.join(out, 'summary.json')) as f:
        return wall, json.load(f)['peak_rss_mb']


def count_pauses(pfc_txt):
    """Its PFC_OUTPUT_FILE: (pause frames received, resumes received). Its
    switches send a pause for every packet that arrives over the threshold
    (switch-node.cc CheckAndSendPfc), so resumes count the pause episodes."""
    pauses = resumes = 0
    with open(pfc_txt) as f:
        for line in f:
            p = line.split()
            if len(p) == 5:
                pauses += p[4] == '1'
                resumes += p[4] == '0'
    return pauses, resumes


def done_before(folder, side, flows):
    """Whether a side's folder holds a finished run's outputs: ours a
    summary.json (written last), theirs an FCT file with a line for every
    flow of the flow file (its simulator writes one as each flow ends)."""
    if side == 'ours':
        return os.path.isfile(os.path.join(folder, 'summary.json'))
    try:
        with open(flows) as f:
            total = int(f.readline().split()[0])
        with open(os.path.join(folder, 'out_fct.txt')) as f:
            return sum(1 for line in f if line.strip()) == total
    except (OSError, ValueError, IndexError):
        return False


def parse_list(text, known, what):
    """'a,b' -> ['a', 'b'], each in known; BenchError naming what otherwise."""
    items = [x.strip() for x in text.split(',')]
    for x in items:
        if x not in known:
            raise BenchError('%s %s: expected one or more of %s, comma-separated'
                             % (what, x, ', '.join(sorted(known))))
    return items


def case_result(dirs, time_s):
    """One case's comparison, read from its two folders."""
    ours = compare_hpcc.read_hpcc_fct(os.path.join(dirs['ours'], 'fct.txt'))
    theirs = compare_hpcc.read_hpcc_fct(os.path.join(dirs['theirs'], 'out_fct.txt'))
    with open(os.path.join(dirs['ours'], 'summary.json')) as f:
        pauses_ours = json.load(f)['pfc']['pause_frames']
    pauses_theirs, episodes_theirs = count_pauses(os.path.join(dirs['theirs'], 'out_pfc.txt'))
    t0 = int((FLOWGEN_START + WARMUP_S) * 1e9)
    t1 = int((FLOWGEN_START + float(time_s) + EXTRA_S) * 1e9)

    def counted(flows):
        return [f for f in flows if f['start_ns'] > t0 and f['start_ns'] + f['fct_ns'] < t1]
    result = {'pauses_ours': pauses_ours, 'pause_frames_theirs': pauses_theirs,
              'pause_episodes_theirs': episodes_theirs, 'tables': {}}
    for name, (o, t) in (('all flows', (ours, theirs)),
                         ('after the warm-up', (counted(ours), counted(theirs)))):
        rows = compare_hpcc.compare(o, t)
        result['tables'][name] = {
            'buckets': rows, 'flows_ours': len(o), 'flows_theirs': len(t),
            'worst_ratio': compare_hpcc.worst_ratio(rows),
            'mean_fct_us_ours': statistics.mean(f['fct_ns'] for f in o) / 1e3 if o else None,
            'mean_fct_us_theirs': statistics.mean(f['fct_ns'] for f in t) / 1e3 if t else None}
    return result


def print_case(label, result):
    for name, table in result['tables'].items():
        print('== %s, %s: slowdown, rdma-sim (--hpcc.config: cc.preset = conweave-sim) / '
              "ConWeave's simulator" % (label, name))
        if table['flows_ours'] and table['flows_theirs']:
            print('\n'.join(compare_hpcc.format_table(table['buckets'])))
            print('mean FCT us %.1f / %.1f = %.2fx' % (
                table['mean_fct_us_ours'], table['mean_fct_us_theirs'],
                table['mean_fct_us_ours'] / table['mean_fct_us_theirs']))
        print('flows %d / %d; worst ratio %.2f' % (table['flows_ours'], table['flows_theirs'],
                                                   table['worst_ratio']), flush=True)


def summary_table(cases):
    """The flows the summary counts: after the warm-up, or every flow when a
    run is too short to have any after it (--time 0.005, the warm-up)."""
    after = 'after the warm-up'
    if all(c['tables'][after]['flows_ours'] and c['tables'][after]['flows_theirs']
           for c in cases.values()):
        return after
    return 'all flows'


def print_cases(cases):
    """Every case (flows after the warm-up, or all of them if the runs are no
    longer than it): mean FCT and p50 / p99 per bucket, ours / theirs, and
    each side's order of the balancers by mean FCT per recovery."""
    name = summary_table(cases)
    print('\n== every case, %s: ours / theirs (ratio)' % name)
    for key, c in cases.items():
        t = c['tables'][name]
        if not (t['flows_ours'] and t['flows_theirs']):
            continue
        print('%-14s mean FCT us %8.1f / %8.1f (%.2f); worst ratio %.2f' % (
            key, t['mean_fct_us_ours'], t['mean_fct_us_theirs'],
            t['mean_fct_us_ours'] / t['mean_fct_us_theirs'], t['worst_ratio']))
        for row in t['buckets']:
            print('  %-12s p50 %6.2f / %6.2f (%.2f)  p99 %7.2f / %7.2f (%.2f)' % (
                row['bucket'], row['p50_ours'], row['p50_theirs'], row['p50_ratio'],
                row['p99_ours'], row['p99_theirs'], row['p99_ratio']))
    for rec in sorted({c['recovery'] for c in cases.values()}):
        mine = [c for c in cases.values() if c['recovery'] == rec
                and c['tables'][name]['flows_ours']]
        for side in ('ours', 'theirs'):
            order = sorted(mine, key=lambda c: c['tables'][name]['mean_fct_us_' + side])
            print('%s, mean FCT order, %s: %s' % (rec, side, ' < '.join(c['lb'] for c in order)))


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument('--conweave-src', help="a checkout of ConWeave's simulator (built here)")
    src.add_argument('--conweave-tree', help="a tree of it already built (waf, optimized)")
    p.add_argument('--sim', default=os.path.join(TOP, 'build', 'examples', 'rdma-sim'),
                   help='the rdma-sim to run (default: make build\'s)')
    p.add_argument('--peer-dir', default='/var/tmp/rdma-peer-conweave',
                   help='where --conweave-src is built')
    p.add_argument('--out', default=os.path.join(TOP, 'out', 'bench-conweave'))
    p.add_argument('--lb', default='fecmp',
                   help='fecmp, drill, conga, letflow, or several comma-separated')
    p.add_argument('--recovery', default='pfc',
                   help='pfc (PFC, go-back-N) or irn (IRN, no PFC), or both comma-separated')
    p.add_argument('--time', default='0.005', help="run.py's --simul_time, seconds (>= 0.005)")
    p.add_argument('--netload', type=int, default=50, help="run.py's --netload, percent")
    p.add_argument('--cdf', default='AliStorage2019', help="run.py's --cdf")
    p.add_argument('--seed', type=int, default=1, help="traffic_gen.py's random.seed")
    p.add_argument('--flows', help='a flow file (five fields a line) instead of traffic_gen.py')
    p.add_argument('--runs', type=int, default=1, help='rounds (medians of the wall times)')
    p.add_argument('--jobs', type=int, default=2, help='waf -j')
    p.add_argument('--resume', action='store_true',
                   help='a side whose folder holds its finished outputs is not run again '
                        '(an interrupted run resumed; its wall time is not measured)')
    args = p.parse_args(argv)
    try:
        lbs = parse_list(args.lb, LB_MODES, '--lb')
        recoveries = parse_list(args.recovery, RECOVERIES, '--recovery')
        if float(args.time) < 0.005 or args.runs < 1 or args.netload % 2:
            raise BenchError('--time >= 0.005 (run.py: the warm-up), --runs >= 1, --netload '
                             'even (run.py: a multiple of the oversubscription, 2)')
        if not os.access(args.sim, os.X_OK):
            raise BenchError('--sim %s: not an rdma-sim (make build)' % args.sim)
        if args.conweave_tree:
            tree = os.path.abspath(args.conweave_tree)
            check_tree(tree)
        else:
            os.makedirs(args.peer_dir, exist_ok=True)
            tree = build_peer(os.path.abspath(args.conweave_src), args.peer_dir, args.jobs)
        out = os.path.abspath(args.out)
        os.makedirs(out, exist_ok=True)
        flows = os.path.abspath(args.flows) if args.flows else os.path.join(out, 'flows.txt')
        if not args.flows:
            make_flows(tree, args.cdf, args.netload, args.time, args.seed, flows)
        cases = {}
        for rec in recoveries:
            for lb in lbs:
                key = '%s-%s' % (lb, rec)
                base = out if len(lbs) * len(recoveries) == 1 else os.path.join(out, key)
                dirs = {'ours': os.path.join(base, 'ours'), 'theirs': os.path.join(base, 'theirs')}
                for d in dirs.values():
                    os.makedirs(d, exist_ok=True)
                fields = run_py_fields(lb, args.time, args.netload,
                                       os.path.splitext(os.path.basename(flows))[0],
                                       recovery=rec)
                cases[key] = {'lb': lb, 'recovery': rec, 'dirs': dirs,
                              'config': write_config(tree, fields, flows, dirs['theirs']),
                              'walls': {'ours': [], 'theirs': []},
                              'rss_mb': {'ours': 0.0, 'theirs': 0.0}}
        turn = 0
        for r in range(args.runs):
            for key, c in cases.items():
                for side in rotation(['theirs', 'ours'], turn):
                    if args.resume and r == 0 and done_before(c['dirs'][side], side, flows):
                        log('%s: %s done before (--resume), not run' % (key, side))
                        continue
                    log('run %d/%d, %s: %s' % (r + 1, args.runs, key,
                                               "ConWeave's simulator" if side == 'theirs'
                                               else 'rdma-sim'))
                    if side == 'theirs':
                        wall, peak = run_theirs(tree, c['config'], c['dirs']['theirs'])
                    else:
                        wall, peak = run_ours(args.sim, c['config'], c['dirs']['ours'])
                    c['walls'][side].append(wall)
                    c['rss_mb'][side] = max(c['rss_mb'][side], peak)
                turn += 1
                if r == args.runs - 1:
                    c.update(case_result(c['dirs'], args.time))
                    if len(cases) > 1:
                        print_case(key, c)  # as soon as it is done
    except (BenchError, compare_hpcc.InputError, OSError, ValueError, KeyError) as e:
        print('bench_conweave.py: %s' % e, file=sys.stderr)
        return 2
    result = {'lb': args.lb, 'recovery': args.recovery, 'time_s': args.time,
              'netload': args.netload, 'cdf': args.cdf, 'flows': flows, 'runs': args.runs,
              'cases': {}}
    for key, c in cases.items():
        c['wall_s'] = {s: statistics.median(w) if w else None for s, w in c['walls'].items()}
        if len(cases) == 1:
            print_case(c['lb'], c)
        w, rss = c['wall_s'], c['rss_mb']
        walls = ('ours %.1f, theirs %.1f (%.1fx)' % (w['ours'], w['theirs'], w['theirs'] / w['ours'])
                 if w['ours'] and w['theirs'] else 'ours %s, theirs %s' % (w['ours'], w['theirs']))
        print('\n%s: wall s (median of %d) %s; peak RSS MiB ours %.0f, theirs %.0f; PFC pause '
              'frames ours %d, theirs %d (%d episodes: resumes)\n'
              % (key, args.runs, walls, rss['ours'], rss['theirs'], c['pauses_ours'],
                 c['pause_frames_theirs'], c['pause_episodes_theirs']), flush=True)
        result['cases'][key] = {k: v for k, v in c.items() if k not in ('dirs', 'config')}
    if len(cases) > 1:
        print_cases(cases)
    else:
        # one case: its figures at the top level too, as before
        result.update(next(iter(result['cases'].values())))
    with open(os.path.join(out, 'bench-conweave.json'), 'w') as f:
        json.dump(result, f, indent=2)
    return 0


if __name__ == '__main__':
    sys.exit(main())
