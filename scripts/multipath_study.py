#!/usr/bin/python3
"""Which load balancer, with which loss recovery: the many-paths study.

Three parts, each a set of scripts/sweep.py runs (one folder per point under
OUT/<sweep>/, with results.csv), then one table per part on standard output
and one figure:

* alistorage (ConWeave's experiment, Song et al., SIGCOMM 2023):
  examples/configs/multipath-alistorage-{pfc,irn}.ini, its 128-host
  leaf-spine (2:1) with AliStorage2019 flows at 50 % of the core, DCQCN as
  its run.py sets it (cc.preset = conweave-sim), under every
  switch.LoadBalancing (Ecmp, Spray, Drill, LetFlow, Adaptive) with
  go-back-N and PFC, and with IRN and no PFC: FCT slowdown p50 / p99 per
  size bucket, mean and p99 FCT, retransmissions.
* failure: the same with a leaf-spine link failing at --fail-at (1 ms;
  topology.failLinks = LEAF-SPINE@1ms, leaf 0 to spine 0; routes converge
  topology.routeConvergence later, 1 ms by default).
* permutation (htsim's case): examples/configs/multipath-permutation.ini, a
  k = --k fat tree (8: 128 hosts) where every host WRITEs 2 MB to another
  at once, PFC, no CC, under Ecmp, Spray and Adaptive with go-back-N, IRN
  and IRN with a reorder window of --window packets: mean and largest FCT,
  the aggregation-core links' utilisation over the run (summary.json's
  link_load.tier2: bytes sent over their capacity x the simulated time) and
  resent packets. --k16-points adds the points of KEY_POINTS at k = 16
  (1,024 hosts), which take minutes each.

    scripts/multipath_study.py --out out/multipath --figure doc/figures/multipath
    scripts/multipath_study.py --out out/multipath-quick --quick   # small and fast

Points already done (a complete summary.json) are not run again (sweep.py's
rule), so an interrupted study resumes. --jobs: points at once (2).
--quick runs a 16-host leaf-spine for 0.5 ms and a k = 4 fat tree with
200 kB flows. Exit 1 if a point failed, 2 on bad arguments.
"""

import argparse
import csv
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rdmasim_analysis as ra  # noqa: E402
import sweep  # noqa: E402

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CONFIGS = os.path.join(TOP, 'examples', 'configs')
BALANCERS = ['Ecmp', 'Spray', 'Drill', 'LetFlow', 'Adaptive']
FABRIC_BALANCERS = ['Ecmp', 'Spray', 'Adaptive']
LB_KEY = 'switch.LoadBalancing'
WINDOW_KEY = 'transport.irn.ReorderWindow'
#: (balancer, recovery) at k = 16: the per-packet balancers with what they
#: need (IRN with the reorder window) and per-flow ECMP with the same
KEY_POINTS = [('Ecmp', 'irn-window'), ('Spray', 'irn-window'), ('Adaptive', 'irn-window')]
QUICK = {'alistorage': ['--set', 'topology.leaves=4', '--set', 'topology.spines=4',
                        '--set', 'topology.hostsPerLeaf=4', '--set', 'traffic.duration=500us'],
         'permutation': ['--set', 'topology.k=4', '--set', 'traffic.size=200000']}


def run_sweep(out, name, config, grid, sets, jobs):
    """One sweep.py run into OUT/name; returns {grid values tuple: run folder}."""
    root = os.path.join(out, name)
    argv = ['-c', os.path.join(CONFIGS, config), '-o', root, '-j', str(jobs), '--no-progress']
    for key, values in grid:
        argv += ['--grid', '%s=%s' % (key, ','.join(values))]
    argv += sets
    print('multipath: sweep %s (%s)' % (name, ' '.join(argv[2:])), flush=True)
    status = sweep.main(argv)
    if status == 2:
        raise SystemExit(2)
    points = {}
    with open(os.path.join(root, sweep.RESULTS)) as f:
        for row in csv.DictReader(f):
            if row['status'] == 'ok':
                points[tuple(row[k] for k, _ in grid)] = os.path.join(root, row['point'])
    return points, status


def figures(folder):
    """The figures of one point: from summary.json and fct.csv."""
    s = ra.read_summary(folder)
    fct = ra.read_fct(folder)
    done = ra.completed(fct)
    us = done['fct_ns'] / 1e3
    row = {'flows': len(fct['size']), 'done': len(us),
           'mean_us': float(np.mean(us)) if len(us) else float('nan'),
           'p99_us': float(np.percentile(us, 99, method='inverted_cdf')) if len(us) else float('nan'),
           'max_us': float(np.max(us)) if len(us) else float('nan'),
           'resent': s['recovery']['retransmissions'], 'timeouts': s['recovery']['timeouts'],
           'spurious': s.get('reordering', {}).get('spurious_retransmissions', 0),
           # frames lost: drops but the late copies a NIC got after their QP was gone
           'lost': s['drops'] - s.get('drops_where', {}).get('nics_to_gone_qps', 0),
           'pauses': s['pfc']['pause_frames'],
           'wall_s': s['wall_time_s'], 'buckets': ra.summary_buckets(s)}
    for tier, load in s.get('link_load', {}).items():
        row['util_' + tier] = load['utilisation']
    return row


def fmt(x, digits=2):
    return 'n/a' if x is None or x != x else '%.*f' % (digits, x)


def print_alistorage(title, rows):
    """rows: {(balancer, recovery): figures}."""
    print('\n== %s: FCT slowdown p50 / p99 per size bucket, mean and p99 FCT (us)' % title)
    labels = [b['label'] for b in next(iter(rows.values()))['buckets'] if b['count']]
    print('(FCT of the flows done by sim.stopTime; lost: frames dropped, late copies to '
          'finished QPs aside)')
    print('%-10s %-9s %s  %9s %9s %8s %7s %7s' % (
        'balancer', 'recovery', ' '.join('%-14s' % lab for lab in labels),
        'mean FCT', 'p99 FCT', 'resent', 'lost', 'done'))
    for (lb, rec), r in rows.items():
        cells = []
        for b in r['buckets']:
            if b['label'] in labels:
                cells.append('%-14s' % ('%s / %s' % (fmt(b['p50']), fmt(b['p99']))))
        print('%-10s %-9s %s  %9s %9s %8d %7d %7s' % (
            lb, rec, ' '.join(cells), fmt(r['mean_us'], 1), fmt(r['p99_us'], 1), r['resent'],
            r['lost'], '%d/%d' % (r['done'], r['flows'])))


def print_permutation(title, rows):
    print('\n== %s: FCT mean and largest (us), aggregation-core utilisation, resent packets'
          % title)
    print('(of the flows done by sim.stopTime; core: aggregation-core links over the run)')
    print('%-10s %-12s %9s %9s %8s %9s %9s %8s %8s' % (
        'balancer', 'recovery', 'mean FCT', 'max FCT', 'core util', 'resent', 'spurious',
        'done', 'wall s'))
    for (lb, rec), r in rows.items():
        print('%-10s %-12s %9s %9s %8s %9d %9d %8s %8s' % (
            lb, rec, fmt(r['mean_us'], 1), fmt(r['max_us'], 1), fmt(r.get('util_tier2')),
            r['resent'], r['spurious'], '%d/%d' % (r['done'], r['flows']), fmt(r['wall_s'], 1)))


def alistorage(out, name, balancers, sets, jobs):
    rows, worst = {}, 0
    for rec, config in (('gbn+PFC', 'multipath-alistorage-pfc.ini'),
                        ('IRN', 'multipath-alistorage-irn.ini')):
        points, status = run_sweep(out, '%s-%s' % (name, rec.split('+')[0].lower()), config,
                                   [(LB_KEY, balancers)], sets, jobs)
        worst = max(worst, status)
        for lb in balancers:
            if (lb,) in points:
                rows[(lb, rec)] = figures(points[(lb,)])
    return rows, worst


def permutation(out, name, balancers, sets, window, jobs, only=None):
    """Go-back-N, IRN and IRN with the window; only: [(balancer, recovery)]."""
    rows, worst = {}, 0
    want = (lambda lb, rec: (lb, rec) in only) if only else (lambda lb, rec: True)
    for rec, extra in (('go-back-n', ['--set', 'transport.recovery=go-back-n']),
                       ('irn', ['--set', 'transport.recovery=irn']),
                       ('irn-window', ['--set', 'transport.recovery=irn'])):
        lbs = [lb for lb in balancers if want(lb, rec)]
        if not lbs:
            continue
        if rec == 'irn-window':
            extra += ['--set', '%s=%d' % (WINDOW_KEY, window)]
        points, status = run_sweep(out, '%s-%s' % (name, rec), 'multipath-permutation.ini',
                                   [(LB_KEY, lbs)], sets + extra, jobs)
        worst = max(worst, status)
        for lb in lbs:
            if (lb,) in points:
                rows[(lb, rec)] = figures(points[(lb,)])
    return rows, worst


def draw(parts, path, fail_label='a spine link fails'):
    import matplotlib
    matplotlib.use('Agg')
    import rdmasim_plotting as rp

    fig, axes = rp.figure(ncols=3, width=4.4, height=3.4)
    ali, fail, perm = parts.get('alistorage', {}), parts.get('failure', {}), \
        parts.get('permutation', {})
    recs = ['gbn+PFC', 'IRN']
    lbs = [lb for lb in BALANCERS if any((lb, r) in ali for r in recs)]
    x = np.arange(len(lbs))
    for i, rec in enumerate(recs):
        for ax, key in ((axes[0], 'mean_us'), (axes[1], 'p99_us')):
            ys = [ali.get((lb, rec), {}).get(key, np.nan) for lb in lbs]
            ax.bar(x + (i - 0.5) * 0.38, ys, 0.36, label=rec, color='C%d' % i)
            if fail:
                yf = [fail.get((lb, rec), {}).get(key, np.nan) for lb in lbs]
                ax.scatter(x + (i - 0.5) * 0.38, yf, marker='v', color='k', zorder=3,
                           label=fail_label if i == 0 else None)
    for ax, what in ((axes[0], 'mean FCT (us)'), (axes[1], 'p99 FCT (us)')):
        rp.log_y_if_wide([ax], [v for p in (ali, fail) for r in p.values()
                                for v in (r['mean_us'], r['p99_us'])])
        ax.set_xticks(x, lbs, rotation=20)
        ax.set_ylabel(what)
        ax.set_title('AliStorage, 128-host leaf-spine', fontsize=9)
        ax.grid(True, axis='y', alpha=0.3)
    axes[0].legend(fontsize=7)
    recs_p = ['go-back-n', 'irn', 'irn-window']
    names_p = {'go-back-n': 'go-back-N', 'irn': 'IRN', 'irn-window': 'IRN, reorder window'}
    lbs_p = [lb for lb in FABRIC_BALANCERS if any((lb, r) in perm for r in recs_p)]
    xp = np.arange(len(lbs_p))
    for i, rec in enumerate(recs_p):
        ys = [perm.get((lb, rec), {}).get('max_us', np.nan) / 1e3 for lb in lbs_p]
        bars = axes[2].bar(xp + (i - 1) * 0.27, ys, 0.25, label=names_p[rec], color='C%d' % i)
        for b, lb in zip(bars, lbs_p):
            u = perm.get((lb, rec), {}).get('util_tier2')
            if u is not None and b.get_height() == b.get_height():
                axes[2].annotate('%.0f%%' % (100 * u), (b.get_x() + b.get_width() / 2,
                                                        b.get_height()),
                                 ha='center', va='bottom', fontsize=6)
    axes[2].set_xticks(xp, lbs_p)
    axes[2].set_ylabel('largest FCT (ms)')
    axes[2].set_yscale('log')
    axes[2].set_title('2 MB permutation, fat tree (core utilisation)', fontsize=9)
    axes[2].legend(fontsize=7)
    axes[2].grid(True, axis='y', alpha=0.3)
    return rp.save(fig, path)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument('--out', required=True, help='output root (one folder per sweep)')
    p.add_argument('--parts', default='alistorage,failure,permutation',
                   help='which parts, comma-separated')
    p.add_argument('--k', type=int, default=8, help='fat-tree arity of the permutation part')
    p.add_argument('--k16-points', action='store_true',
                   help='also the key points at k = 16 (1,024 hosts)')
    p.add_argument('--window', type=int, default=64, help='IRN reorder window, packets')
    p.add_argument('--fail', default='128-136', help='the link that fails, A-B (node ids)')
    p.add_argument('--fail-at', default='1ms', help='when it fails')
    p.add_argument('--fail-balancers', default=','.join(BALANCERS),
                   help='the balancers of the failure part, comma-separated')
    p.add_argument('--duration', help='traffic.duration of the AliStorage parts (config: 3ms)')
    p.add_argument('--quick', action='store_true', help='small fabrics, short runs')
    p.add_argument('--figure', help='write the figure as FIGURE.png and .pdf')
    p.add_argument('-j', '--jobs', type=int, default=2)
    p.add_argument('--set', action='append', default=[], metavar='KEY=VALUE',
                   help='a key for every run of every part (repeatable), e.g. '
                        'cc.cnp.CnpOnNak=false')
    args = p.parse_args(argv)
    parts = [x.strip() for x in args.parts.split(',')]
    bad = [x for x in parts if x not in ('alistorage', 'failure', 'permutation')]
    if bad or args.k < 2 or args.k % 2 or args.window < 1:
        print('multipath_study.py: --parts from alistorage, failure, permutation; --k even '
              '>= 2; --window >= 1', file=sys.stderr)
        return 2
    user_sets = [x for kv in args.set for x in ('--set', kv)]
    ali_sets = (QUICK['alistorage'] if args.quick else []) + (
        ['--set', 'traffic.duration=' + args.duration] if args.duration else []) + user_sets
    perm_sets = (QUICK['permutation'] if args.quick else
                 ['--set', 'topology.k=%d' % args.k]) + user_sets
    results, worst = {}, 0
    if 'alistorage' in parts:
        results['alistorage'], s = alistorage(args.out, 'alistorage', BALANCERS, ali_sets,
                                              args.jobs)
        worst = max(worst, s)
        print_alistorage('AliStorage2019 at 50 % of the core, leaf-spine', results['alistorage'])
    if 'failure' in parts:
        fail = ['--set', 'topology.failLinks=%s@%s' % (args.fail, args.fail_at)]
        results['failure'], s = alistorage(args.out, 'failure',
                                           [b for b in BALANCERS if b in args.fail_balancers.split(',')],
                                           ali_sets + fail, args.jobs)
        worst = max(worst, s)
        print_alistorage('the same, link %s failing at %s' % (args.fail, args.fail_at),
                         results['failure'])
    if 'permutation' in parts:
        results['permutation'], s = permutation(args.out, 'permutation', FABRIC_BALANCERS,
                                                 perm_sets, args.window, args.jobs)
        worst = max(worst, s)
        print_permutation('2 MB permutation, fat tree k=%d' % (4 if args.quick else args.k),
                          results['permutation'])
        if args.k16_points:
            rows, s = permutation(args.out, 'permutation-k16', FABRIC_BALANCERS,
                                  ['--set', 'topology.k=16'] + user_sets, args.window, args.jobs,
                                  only=KEY_POINTS)
            worst = max(worst, s)
            print_permutation('2 MB permutation, fat tree k=16', rows)
    if args.figure:
        for path in draw(results, args.figure, 'link %s fails at %s' % (args.fail, args.fail_at)):
            print('multipath: wrote %s' % path)
    return worst


if __name__ == '__main__':
    sys.exit(main())
