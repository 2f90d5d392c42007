#!/usr/bin/python3
"""rdma-sim and ConWeave's simulator side by side on the same flows, alternating.

Usage: bench_conweave.py (--conweave-src DIR | --conweave-tree DIR) [--sim RDMA_SIM]
                         [--peer-dir DIR] [--out DIR] [--lb fecmp] [--time 0.005]
                         [--netload 50] [--cdf AliStorage2019] [--seed 1]
                         [--flows FILE] [--runs N] [--jobs N]

ConWeave's simulator (github.com/conweave-project/conweave-ns3, SIGCOMM'23; an
ns-3.19 tree derived from the HPCC simulator) is built from --conweave-src, a
checkout of it (a work tree or a git directory), in --peer-dir (default
/var/tmp/rdma-peer-conweave) with waf in ns-3's optimized profile and the
modules its scratch/network-load-balance.cc needs (Python 2.7: $PYTHON2,
pyenv's 2.7.x or python2.7 on PATH; about 7 minutes on two cores the first
time, nothing after); --conweave-tree names a tree already built so.

The case is its run.py's: --lb (fecmp, drill or letflow: the balancers this
module models) with PFC and go-back-N (--pfc 1 --irn 0), DCQCN, its
leaf_spine_128_100G_OS2 fabric (128 hosts, 100 Gb/s, 2:1), --time seconds of
--cdf arrivals from t = 2.0 s at --netload percent of the core (run.py's
--simul_time, --cdf, --netload). The flows: --flows (its five-field format),
or its own traffic_gen.py run with random.seed(--seed) (run.py does not seed
it: two of its runs see different flows). Both simulators read the same
config.txt, the one run.py's config_template gives for those arguments
(read from the tree, filled as its main fills it), with absolute paths:
ConWeave's simulator as run.py starts it, rdma-sim with --hpcc.config (which
selects cc.preset = conweave-sim).

Each of --runs rounds runs both, the order alternating from round to round;
wall time and peak RSS are each process's own (os.wait4; rdma-sim's RSS from
its summary.json). Prints compare_hpcc.py's table (slowdown p50/p95/p99 per
size bucket, ours / theirs, each side's slowdown against its own ideal FCT)
for every flow and for the flows its fctAnalysis.py counts (started after the
5 ms warm-up and done within 50 ms of the last arrival), then wall seconds
(medians), peak RSS, PFC pauses and the worst percentile ratio; writes the
same as JSON to OUT/bench-conweave.json. Exit 2 on bad input or a failed
run.
"""

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare_hpcc  # noqa: E402
from bench_peers import BenchError, find_python2, rotation, timed  # noqa: E402

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOPO = 'leaf_spine_128_100G_OS2'
LB_MODES = {'fecmp': 0, 'drill': 2, 'letflow': 6}  # run.py's lb_modes this module models
FLOWGEN_START = 2.0  # run.py FLOWGEN_DEFAULT_TIME
WARMUP_S = 0.005     # run.py: fctAnalysis.py's -sT is the start + 5 ms
EXTRA_S = 0.05       # and its -fT the last arrival + 50 ms
BINARY = os.path.join('build', 'scratch', 'network-load-balance')


def log(msg):
    print('bench_conweave: %s' % msg, file=sys.stderr, flush=True)


def populate(src, tree):
    """Copy (or extract from a git directory) the checkout to tree, once."""
    if os.path.isfile(os.path.join(tree, 'wscript')):
        return
    if os.path.isfile(os.path.join(src, 'wscript')):
        log('copying %s to %s' % (src, tree))
        shutil.copytree(src, tree, symlinks=True, ignore=shutil.ignore_patterns('.git'))
        return
    git = subprocess.run(['git', '--git-dir', src, 'archive', 'HEAD'],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if git.returncode != 0:
        raise BenchError('%s: neither a checkout of ConWeave\'s simulator nor a git directory '
                         '(%s)' % (src, git.stderr.decode().strip()))
    log('extracting %s into %s' % (src, tree))
    os.makedirs(tree, exist_ok=True)
    subprocess.run(['tar', '-x', '-C', tree], input=git.stdout, check=True)


def build_peer(src, peer_dir, jobs):
    """Build the simulator's scratch/network-load-balance; return its tree."""
    tree = os.path.join(peer_dir, 'conweave-ns3')
    populate(src, tree)
    env = dict(os.environ)
    env.pop('CXXFLAGS', None)  # waf drops its profile's flags when CXXFLAGS is set
    cache = os.path.join(tree, 'build', 'c4che', '_cache.py')
    py2 = find_python2()
    if not (os.path.isfile(cache) and "BUILD_PROFILE = 'optimized'" in open(cache).read()):
        log('configuring the simulator (log %s/configure.log)' % peer_dir)
        with open(os.path.join(peer_dir, 'configure.log'), 'w') as out:
            if subprocess.call([py2, './waf', 'configure', '--build-profile=optimized',
                                '--enable-modules=applications,point-to-point,internet',
                                '--disable-python', '--disable-tests', '--disable-examples'],
                               cwd=tree, env=env, stdout=out, stderr=subprocess.STDOUT):
                raise BenchError('waf configure failed: %s/configure.log' % peer_dir)
    log('building the simulator with -j%d (log %s/build.log; ~7 min the first time)'
        % (jobs, peer_dir))
    with open(os.path.join(peer_dir, 'build.log'), 'w') as out:
        if subprocess.call([py2, './waf', 'build', '-j%d' % jobs], cwd=tree, env=env,
                           stdout=out, stderr=subprocess.STDOUT):
            raise BenchError('waf build failed: %s/build.log' % peer_dir)
    check_tree(tree)
    return tree


def check_tree(tree):
    """The tree must hold the built simulator, run.py and the topology."""
    for need in (BINARY, 'run.py', os.path.join('config', TOPO + '.txt'),
                 os.path.join('traffic_gen', 'traffic_gen.py')):
        if not os.path.exists(os.path.join(tree, need)):
            raise BenchError('%s: no %s (a built tree of ConWeave\'s simulator?)' % (tree, need))


def run_py_template(tree):
    """run.py's config_template, read from the tree (not run)."""
    path = os.path.join(tree, 'run.py')
    m = re.search(r'config_template\s*=\s*"""(.*?)"""', open(path).read(), re.S)
    if not m:
        raise BenchError('%s: no config_template' % path)
    return m.group(1)


def run_py_fields(lb, time_s, netload, flows, bw=100):
    """The format() fields run.py's main fills for --cc dcqcn --pfc 1 --irn 0
    (its defaults --buffer 9 --bw 100 --sw_monitoring_interval 10000; the
    ConWeave timers it writes for the balancers other than conweave)."""
    stop = FLOWGEN_START + float(time_s)
    return {
        'topo': TOPO, 'flow': flows, 'id': 'ID',
        'qlen_mon_start': FLOWGEN_START, 'qlen_mon_end': stop,
        'flowgen_start_time': FLOWGEN_START, 'flowgen_stop_time': stop,
        'sw_monitoring_interval': 10000, 'load': netload, 'buffer_size': '9',
        'lb_mode': LB_MODES[lb], 'enabled_pfc': 1, 'enabled_irn': 0, 'cc_mode': 1,
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
    p.add_argument('--lb', default='fecmp', choices=sorted(LB_MODES))
    p.add_argument('--time', default='0.005', help="run.py's --simul_time, seconds (>= 0.005)")
    p.add_argument('--netload', type=int, default=50, help="run.py's --netload, percent")
    p.add_argument('--cdf', default='AliStorage2019', help="run.py's --cdf")
    p.add_argument('--seed', type=int, default=1, help="traffic_gen.py's random.seed")
    p.add_argument('--flows', help='a flow file (five fields a line) instead of traffic_gen.py')
    p.add_argument('--runs', type=int, default=1, help='rounds (medians of the wall times)')
    p.add_argument('--jobs', type=int, default=2, help='waf -j')
    args = p.parse_args(argv)
    try:
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
        dirs = {'ours': os.path.join(out, 'ours'), 'theirs': os.path.join(out, 'theirs')}
        for d in dirs.values():
            os.makedirs(d, exist_ok=True)
        flows = os.path.abspath(args.flows) if args.flows else os.path.join(out, 'flows.txt')
        if not args.flows:
            make_flows(tree, args.cdf, args.netload, args.time, args.seed, flows)
        fields = run_py_fields(args.lb, args.time, args.netload,
                               os.path.splitext(os.path.basename(flows))[0])
        config = write_config(tree, fields, flows, dirs['theirs'])
        walls = {'ours': [], 'theirs': []}
        rss = {'ours': 0.0, 'theirs': 0.0}
        for r in range(args.runs):
            for side in rotation(['theirs', 'ours'], r):
                log('run %d/%d: %s' % (r + 1, args.runs,
                                       "ConWeave's simulator" if side == 'theirs'
                                       else 'rdma-sim'))
                if side == 'theirs':
                    wall, peak = run_theirs(tree, config, dirs['theirs'])
                else:
                    wall, peak = run_ours(args.sim, config, dirs['ours'])
                walls[side].append(wall)
                rss[side] = max(rss[side], peak)
        ours = compare_hpcc.read_hpcc_fct(os.path.join(dirs['ours'], 'fct.txt'))
        theirs = compare_hpcc.read_hpcc_fct(os.path.join(dirs['theirs'], 'out_fct.txt'))
        with open(os.path.join(dirs['ours'], 'summary.json')) as f:
            pauses_ours = json.load(f)['pfc']['pause_frames']
        pauses_theirs, episodes_theirs = count_pauses(os.path.join(dirs['theirs'],
                                                                   'out_pfc.txt'))
    except (BenchError, compare_hpcc.InputError, OSError, ValueError, KeyError) as e:
        print('bench_conweave.py: %s' % e, file=sys.stderr)
        return 2
    t0 = int((FLOWGEN_START + WARMUP_S) * 1e9)
    t1 = int((FLOWGEN_START + float(args.time) + EXTRA_S) * 1e9)

    def counted(flows):
        return [f for f in flows if f['start_ns'] > t0 and f['start_ns'] + f['fct_ns'] < t1]
    result = {'lb': args.lb, 'time_s': args.time, 'netload': args.netload, 'cdf': args.cdf,
              'flows': flows, 'runs': args.runs,
              'wall_s': {s: statistics.median(w) for s, w in walls.items()}, 'walls': walls,
              'rss_mb': rss, 'pauses_ours': pauses_ours, 'pause_frames_theirs': pauses_theirs,
              'pause_episodes_theirs': episodes_theirs, 'tables': {}}
    for name, (o, t) in (('all flows', (ours, theirs)),
                         ('after the warm-up', (counted(ours), counted(theirs)))):
        rows = compare_hpcc.compare(o, t)
        result['tables'][name] = {'buckets': rows, 'flows_ours': len(o), 'flows_theirs': len(t),
                                  'worst_ratio': compare_hpcc.worst_ratio(rows)}
        print('== %s, %s: slowdown, rdma-sim (--hpcc.config: cc.preset = conweave-sim) / '
              "ConWeave's simulator" % (args.lb, name))
        if o and t:
            print('\n'.join(compare_hpcc.format_table(rows)))
        print('flows %d / %d; worst ratio %.2f' % (len(o), len(t),
                                                   compare_hpcc.worst_ratio(rows)), flush=True)
    w = result['wall_s']
    print('\nwall s (median of %d) ours %.1f, theirs %.1f (%.1fx); peak RSS MiB ours %.0f, '
          'theirs %.0f; PFC pause frames ours %d, theirs %d (%d episodes: resumes)'
          % (args.runs, w['ours'], w['theirs'], w['theirs'] / w['ours'], rss['ours'],
             rss['theirs'], pauses_ours, pauses_theirs, episodes_theirs))
    with open(os.path.join(out, 'bench-conweave.json'), 'w') as f:
        json.dump(result, f, indent=2)
    return 0


if __name__ == '__main__':
    sys.exit(main())
