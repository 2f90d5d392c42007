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
* failure: the same with a leaf-spine link failing at --fail-at (1 ms; with
  --quick 250 us): topology.failLinks = A-B@1ms, --fail A-B, by default
  leaf 0 to spine 0 of the fabric the configs and --set/--quick give (node
  ids are the hosts first, then the leaves, then the spines, as nodes.csv
  lists them, so A = leaves x hostsPerLeaf and B = A + leaves: 128-136 on
  the 128-host fabric, 16-20 on --quick's); routes converge
  topology.routeConvergence later, 1 ms by default.
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
rule), so an interrupted study resumes. --jobs: points at once (2);
--balancers and --fail-balancers: the AliStorage and failure parts' subsets.
--quick runs a 16-host leaf-spine (4 leaves of 4 hosts, 4 spines) for
0.5 ms and a k = 4 fat tree with 200 kB flows. The tables and the figure's
titles name the fabric, the duration and the flow size each part ran
(from the runs' summary.json and nodes.csv). The figure: mean and p99 FCT
of each balancer and recovery on the AliStorage leaf-spine (points on a
log axis; open markers: with the link failing), the permutation's largest
FCT (points, log axis) and its aggregation-core utilisation (bars from 0).
Exit 1 if a point failed, 2 on bad arguments.
"""

import argparse
import configparser
import csv
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rdmasim_analysis as ra  # noqa: E402
import rdmasim_plotting as rp  # noqa: E402
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
ALISTORAGE_CONFIGS = (('gbn+PFC', 'multipath-alistorage-pfc.ini'), ('IRN', 'multipath-alistorage-irn.ini'))
PERMUTATION_CONFIG = 'multipath-permutation.ini'
QUICK = {'alistorage': ['--set', 'topology.leaves=4', '--set', 'topology.spines=4',
                        '--set', 'topology.hostsPerLeaf=4', '--set', 'traffic.duration=500us'],
         'permutation': ['--set', 'topology.k=4', '--set', 'traffic.size=200000']}


def run_sweep(out, name, config, grid, sets, jobs):
    """One sweep.py run into OUT/name; returns ({grid values tuple: run
    folder} of the points that succeeded, sweep.py's exit status)."""
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
    """The figures of one point, from its summary.json, fct.csv and
    nodes.csv: flows, done, mean_us, p99_us, max_us (FCT of the flows done,
    us), resent, timeouts, spurious, lost, pauses, wall_s, buckets
    (slowdown percentiles per size bucket), util_<tier> (link_load),
    config (the run's merged configuration) and hosts (nodes.csv's hosts,
    None without the file)."""
    s = ra.read_summary(folder)
    fct = ra.read_fct(folder)
    done = ra.completed(fct)
    us = done['fct_ns'] / 1e3
    nodes = ra.read_nodes(folder)
    row = {'flows': len(fct['size']), 'done': len(us),
           'mean_us': float(np.mean(us)) if len(us) else float('nan'),
           'p99_us': float(np.percentile(us, 99, method='inverted_cdf')) if len(us) else float('nan'),
           'max_us': float(np.max(us)) if len(us) else float('nan'),
           'resent': s['recovery']['retransmissions'], 'timeouts': s['recovery']['timeouts'],
           'spurious': s.get('reordering', {}).get('spurious_retransmissions', 0),
           # frames lost: drops but the late copies a NIC got after their QP was gone
           'lost': s['drops'] - s.get('drops_where', {}).get('nics_to_gone_qps', 0),
           'pauses': s['pfc']['pause_frames'],
           'wall_s': s['wall_time_s'], 'buckets': ra.summary_buckets(s),
           'config': s.get('config', {}), 'nodes': nodes,
           'hosts': sum(1 for n in nodes.values() if n['kind'] == 'host') if nodes else None}
    for tier, load in s.get('link_load', {}).items():
        row['util_' + tier] = load['utilisation']
    return row


# --------------------------------------------------------------------------- what was run


def config_values(config, sets):
    """The keys of an rdma-sim INI file (a name in examples/configs) with
    sweep.py's --set KEY=VALUE arguments (a flat list, ['--set', 'k=v', ...])
    over them: {lower-case key: value text}."""
    parser = configparser.ConfigParser(interpolation=None)
    parser.optionxform = str
    parser.read(os.path.join(CONFIGS, config))
    values = {('%s.%s' % (section, key)).lower(): value
              for section in parser.sections() for key, value in parser[section].items()}
    for flag, kv in zip(sets[::2], sets[1::2]):
        key, _, value = kv.partition('=')
        values[key.strip().lower()] = value.strip()
    return values


def leaf_spine_link(values):
    """(leaf 0, spine 0): the node ids of leaf 0 and spine 0 of the leaf-spine
    the keys values (config_values) give. rdma-sim numbers the hosts first
    (leaves x hostsPerLeaf), then the leaves, then the spines
    (RdmaTopologySpec::LeafSpine; nodes.csv lists them). Raises ValueError
    when the fabric is not a leaf-spine or a key is missing."""
    if values.get('topology.type') != 'leaf-spine':
        raise ValueError('the fabric is %s, not a leaf-spine' % values.get('topology.type', 'unset'))
    try:
        leaves, per_leaf = int(values['topology.leaves']), int(values['topology.hostsperleaf'])
    except (KeyError, ValueError) as e:
        raise ValueError('topology.leaves and topology.hostsPerLeaf must be set (%s)' % e) from None
    return leaves * per_leaf, leaves * per_leaf + leaves


def link_words(link, nodes=None):
    """'leaf0-spine0 (nodes 16-20)' for a link (a, b) given nodes.csv's rows
    (rdmasim_analysis.read_nodes), else 'nodes 16-20'."""
    a, b = link
    if nodes and a in nodes and b in nodes:
        return '%s-%s (nodes %d-%d)' % (ra.node_name(nodes, a), ra.node_name(nodes, b), a, b)
    return 'nodes %d-%d' % (a, b)


def check_link(link, rows):
    """Whether the failed link (a, b) joins a leaf (tier 1) and a spine (tier
    2) in the nodes.csv of the runs (figures' rows); a message if not, else ''."""
    for r in rows.values():
        nodes = r.get('nodes')
        if nodes:
            tiers = [nodes.get(n, {}).get('tier') for n in link]
            if tiers != ['1', '2']:
                return ('the failed link %d-%d joins tiers %s in nodes.csv, not a leaf and a spine'
                        % (link[0], link[1], tiers))
            return ''
    return ''


def fabric_words(config, hosts=None):
    """The fabric a run's configuration (summary.json's config) gives:
    '16-host leaf-spine (4 leaves, 4 spines)', 'k=4 fat tree (16 hosts)';
    hosts: nodes.csv's host count, else computed from the keys."""
    kind = config.get('topology.type')
    if kind == 'leaf-spine':
        leaves, spines = int(config['topology.leaves']), int(config['topology.spines'])
        hosts = hosts or leaves * int(config['topology.hostsPerLeaf'])
        return '%d-host leaf-spine (%d leaves, %d spines)' % (hosts, leaves, spines)
    if kind == 'fat-tree':
        k = int(config['topology.k'])
        return 'k=%d fat tree (%d hosts)' % (k, hosts or k ** 3 // 4)
    return '%s%s' % (kind, ' (%d hosts)' % hosts if hosts else '')


def alistorage_words(rows, short=False):
    """What an AliStorage part ran, from one of its points (figures' rows):
    'AliStorage2019 at 50 % of the core, 16-host leaf-spine (4 leaves, 4
    spines), 0.5 ms of arrivals' (short: 'AliStorage, 16-host leaf-spine,
    0.5 ms')."""
    r = next(iter(rows.values()))
    c = r['config']
    duration = ra.format_time(ra.time_ns(c['traffic.duration']))
    fabric = fabric_words(c, r['hosts'])
    if short:
        return 'AliStorage, %s, %s' % (fabric.split(' (')[0], duration)
    load, over = float(c['traffic.load']), float(c.get('topology.oversubscription') or 0)
    where = ('%g %% of the core' % (100 * load * over) if over > 0
             else '%g %% of the hosts\' line rate' % (100 * load))
    return 'AliStorage2019 at %s, %s, %s of arrivals' % (where, fabric, duration)


def permutation_words(rows, short=False):
    """What a permutation part ran: '200 kB permutation, k=4 fat tree (16
    hosts)' (short: without the hosts)."""
    r = next(iter(rows.values()))
    c = r['config']
    fabric = fabric_words(c, r['hosts'])
    return '%s permutation, %s' % (ra.format_size(ra.size_bytes(c['traffic.size'])),
                                   fabric.split(' (')[0] if short else fabric)


# --------------------------------------------------------------------------- tables


def fmt(x, digits=2):
    return 'n/a' if x is None or x != x else '%.*f' % (digits, x)


def print_alistorage(title, rows):
    """rows: {(balancer, recovery): figures}."""
    print('\n== %s: FCT slowdown p50 / p99 per size bucket, mean and p99 FCT (us)' % title)
    buckets = [b for b in next(iter(rows.values()))['buckets'] if b['count']]
    labels = [b['label'] for b in buckets]
    print('(FCT of the flows done by sim.stopTime; lost: frames dropped, late copies to '
          'finished QPs aside)')
    print('%-10s %-9s %s  %9s %9s %8s %7s %7s' % (
        'balancer', 'recovery',
        ' '.join('%-14s' % ra.bucket_range_label(b['lo'], b['hi']) for b in buckets),
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


# --------------------------------------------------------------------------- runs


def alistorage(out, name, balancers, sets, jobs):
    rows, worst = {}, 0
    for rec, config in ALISTORAGE_CONFIGS:
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
        points, status = run_sweep(out, '%s-%s' % (name, rec), PERMUTATION_CONFIG,
                                   [(LB_KEY, lbs)], sets + extra, jobs)
        worst = max(worst, status)
        for lb in lbs:
            if (lb,) in points:
                rows[(lb, rec)] = figures(points[(lb,)])
    return rows, worst


# --------------------------------------------------------------------------- the figure

ALI_RECOVERIES = (('gbn+PFC', 'go-back-N, PFC'), ('IRN', 'IRN, no PFC'))
PERM_RECOVERIES = (('go-back-n', 'go-back-N'), ('irn', 'IRN'), ('irn-window', 'IRN, reorder window'))


def make_figure(study):
    """The study's figure (not saved) from study() results: up to four
    panels, (a) mean and (b) p99 FCT (us) of each balancer (categories) and
    recovery (side by side, a colour each) on the AliStorage leaf-spine, as
    points on a log axis, open where the link fails; (c) the permutation's
    largest FCT (us or ms, points, log axis) and (d) its aggregation-core
    utilisation (%, bars from 0). Each scatter's and bar set's label names
    its recovery (and ', link fails'); titles name what was run. Parts not
    run are left out."""
    parts = study['results']
    ali, fail, perm = (parts.get(k, {}) for k in ('alistorage', 'failure', 'permutation'))
    panels = (['mean', 'p99'] if ali or fail else []) + (['max', 'util'] if perm else [])
    fig, axes = rp.figure(ncols=max(1, len(panels)), width=3.3, height=3.6)
    ax = dict(zip(panels, axes))
    if ali or fail:
        lbs = [lb for lb in BALANCERS if any((lb, r) in p for p in (ali, fail) for r, _ in ALI_RECOVERIES)]
        title = alistorage_words(ali or fail, short=True)
        for key, panel, what in (('mean_us', 'mean', 'Mean FCT (\u00b5s)'),
                                 ('p99_us', 'p99', 'p99 FCT (\u00b5s)')):
            a = ax[panel]
            values = []
            for i, (rec, words) in enumerate(ALI_RECOVERIES):
                x = np.arange(len(lbs)) + rp.dodge(i, len(ALI_RECOVERIES), 0.5)
                for rows, filled, tail in ((ali, True, ''), (fail, False, ', link fails')):
                    ys = np.array([rows.get((lb, rec), {}).get(key, np.nan) for lb in lbs])
                    keep = np.isfinite(ys)
                    if keep.any():
                        a.scatter(x[keep], ys[keep], marker='o', s=26, zorder=3, linewidths=1.2,
                                  edgecolors='C%d' % i, facecolors='C%d' % i if filled else 'white',
                                  label=words + tail)
                        values.extend(ys[keep])
            balancer_ticks(a, lbs)
            rp.readable_log(a, values, 'y')
            a.set_ylabel(what)
            a.set_title(title, fontsize=8)
        ax['mean'].legend(fontsize=7, loc='upper left', bbox_to_anchor=(0.0, -0.28), ncol=2,
                          title=('open: ' + study['fail_words'].replace(' fails', '\nfails', 1)
                                 if fail else None), title_fontsize=7)
    if perm:
        lbs = [lb for lb in FABRIC_BALANCERS if any((lb, r) in perm for r, _ in PERM_RECOVERIES)]
        title = permutation_words(perm, short=True)
        largest = [r['max_us'] for r in perm.values() if np.isfinite(r['max_us'])]
        unit, scale = ('ms', 1e3) if largest and max(largest) >= 1e3 else ('\u00b5s', 1.0)
        values = []
        for i, (rec, words) in enumerate(PERM_RECOVERIES):
            x = np.arange(len(lbs)) + rp.dodge(i, len(PERM_RECOVERIES), 0.66)
            ys = np.array([perm.get((lb, rec), {}).get('max_us', np.nan) for lb in lbs]) / scale
            util = np.array([perm.get((lb, rec), {}).get('util_tier2', np.nan) for lb in lbs]) * 100
            keep = np.isfinite(ys)
            if keep.any():
                ax['max'].scatter(x[keep], ys[keep], s=26, zorder=3, color='C%d' % i, label=words)
                values.extend(ys[keep])
            ax['util'].bar(x, np.nan_to_num(util), width=0.2, color='C%d' % i, label=words)
        for panel in ('max', 'util'):
            balancer_ticks(ax[panel], lbs)
            ax[panel].set_title(title, fontsize=8)
        rp.readable_log(ax['max'], values, 'y')
        ax['max'].set_ylabel('Largest FCT (%s)' % unit)
        ax['util'].set_ylabel('Aggregation-core utilisation (%)')
        ax['util'].set_ylim(0, 100)
        ax['max'].legend(fontsize=7, loc='upper left', bbox_to_anchor=(0.0, -0.3))
    return fig


def balancer_ticks(ax, balancers):
    """The balancers as categories, named readably and slanted to fit."""
    rp.categorical_x(ax, [rp.tick_name(LB_KEY, lb) for lb in balancers])
    for t in ax.get_xticklabels():
        t.set_rotation(30)
        t.set_horizontalalignment('right')
        t.set_rotation_mode('anchor')


# --------------------------------------------------------------------------- the study


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument('--out', required=True, help='output root (one folder per sweep)')
    p.add_argument('--parts', default='alistorage,failure,permutation',
                   help='which parts, comma-separated')
    p.add_argument('--k', type=int, default=8, help='fat-tree arity of the permutation part')
    p.add_argument('--k16-points', action='store_true',
                   help='also the key points at k = 16 (1,024 hosts)')
    p.add_argument('--window', type=int, default=64, help='IRN reorder window, packets')
    p.add_argument('--fail', help='the link that fails, A-B (node ids; default: leaf 0 to '
                                  'spine 0 of the fabric run)')
    p.add_argument('--fail-at', help='when it fails (default 1ms; with --quick 250us, half-way '
                                     'through its arrivals)')
    p.add_argument('--balancers', default=','.join(BALANCERS),
                   help='the balancers of the AliStorage part, comma-separated')
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
    args.parts = [x.strip() for x in args.parts.split(',')]
    args.fail_at = args.fail_at or ('250us' if args.quick else '1ms')
    bad = [x for x in args.parts if x not in ('alistorage', 'failure', 'permutation')]
    lbs = [b for opt in (args.balancers, args.fail_balancers) for b in opt.split(',')]
    if (bad or args.k < 2 or args.k % 2 or args.window < 1
            or any(b not in BALANCERS for b in lbs)):
        print('multipath_study.py: --parts from alistorage, failure, permutation; --k even '
              '>= 2; --window >= 1; balancers from %s' % ', '.join(BALANCERS), file=sys.stderr)
        raise SystemExit(2)
    return args


def failed_link(args, ali_sets):
    """The link the failure part takes down, (a, b): --fail A-B, else leaf 0
    to spine 0 of the fabric its runs have (leaf_spine_link of the configs'
    keys with ali_sets over them). Exits 2 if neither can be had."""
    try:
        if args.fail:
            a, b = (int(x) for x in args.fail.split('-'))
            return a, b
        links = {leaf_spine_link(config_values(c, ali_sets)) for _, c in ALISTORAGE_CONFIGS}
    except ValueError as e:
        print('multipath_study.py: --fail %s: %s' % (args.fail or '(default)', e), file=sys.stderr)
        raise SystemExit(2)
    if len(links) != 1:
        print('multipath_study.py: the AliStorage configs give different fabrics; set --fail',
              file=sys.stderr)
        raise SystemExit(2)
    return links.pop()


def study(args):
    """Run the parts args ask for (parse_args) and print their tables.
    Returns {'results': {part: {(balancer, recovery): figures}}, 'status':
    the worst sweep exit status, 'fail_words': the failure as the figure
    says it, 'titles': {part: its table's title}}."""
    user_sets = [x for kv in args.set for x in ('--set', kv)]
    ali_sets = (QUICK['alistorage'] if args.quick else []) + (
        ['--set', 'traffic.duration=' + args.duration] if args.duration else []) + user_sets
    perm_sets = (QUICK['permutation'] if args.quick else
                 ['--set', 'topology.k=%d' % args.k]) + user_sets
    results, titles, worst = {}, {}, 0
    fail_words = ''
    if 'alistorage' in args.parts:
        results['alistorage'], s = alistorage(args.out, 'alistorage', args.balancers.split(','),
                                              ali_sets, args.jobs)
        worst = max(worst, s)
        if results['alistorage']:
            titles['alistorage'] = alistorage_words(results['alistorage'])
            print_alistorage(titles['alistorage'], results['alistorage'])
    if 'failure' in args.parts:
        link = failed_link(args, ali_sets)
        fail = ['--set', 'topology.failLinks=%d-%d@%s' % (link[0], link[1], args.fail_at)]
        results['failure'], s = alistorage(args.out, 'failure', args.fail_balancers.split(','),
                                           ali_sets + fail, args.jobs)
        worst = max(worst, s)
        if results['failure']:
            problem = check_link(link, results['failure'])
            if problem:
                print('multipath_study.py: warning: %s' % problem, file=sys.stderr)
            nodes = next(iter(results['failure'].values()))['nodes']
            c = next(iter(results['failure'].values()))['config']
            converge = c.get('topology.routeConvergence')
            fail_words = 'link %s fails at %s%s' % (
                link_words(link, nodes), ra.format_time(ra.time_ns(args.fail_at)),
                ', routes converge %s later' % ra.format_time(ra.time_ns(converge)) if converge else '')
            titles['failure'] = '%s; %s' % (alistorage_words(results['failure']), fail_words)
            print_alistorage(titles['failure'], results['failure'])
    if 'permutation' in args.parts:
        results['permutation'], s = permutation(args.out, 'permutation', FABRIC_BALANCERS,
                                                 perm_sets, args.window, args.jobs)
        worst = max(worst, s)
        if results['permutation']:
            titles['permutation'] = permutation_words(results['permutation'])
            print_permutation(titles['permutation'], results['permutation'])
        if args.k16_points:
            rows, s = permutation(args.out, 'permutation-k16', FABRIC_BALANCERS,
                                  ['--set', 'topology.k=16'] + user_sets, args.window, args.jobs,
                                  only=KEY_POINTS)
            worst = max(worst, s)
            if rows:
                titles['permutation-k16'] = permutation_words(rows)
                print_permutation(titles['permutation-k16'], rows)
    return {'results': results, 'status': worst, 'fail_words': fail_words, 'titles': titles}


def main(argv=None):
    try:
        args = parse_args(argv)
        done = study(args)
    except SystemExit as e:
        return e.code
    if args.figure and any(done['results'].values()):
        for path in rp.save(make_figure(done), args.figure):
            print('multipath: wrote %s' % path)
    return done['status']


if __name__ == '__main__':
    sys.exit(main())
