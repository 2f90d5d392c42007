#!/usr/bin/python3
"""Storage traffic beside a training job on a rail fabric: the job's
iteration time and the flows' slowdown against the storage load.

  scripts/background_study.py -o out/background-study
  scripts/background_study.py -o out/background-study --loads 0.1,0.3 --cc dcqcn

A scripts/sweep.py run (so an interrupted study resumes where it stopped) of
examples/configs/storage-beside-training.ini: a data-parallel job's ring
all-reduce on a 4-server rail fabric, with AliStorage flows at every GPU's
NIC (traffic.background = poisson), over traffic.backgroundLoad (--loads)
and cc.algorithm (--cc), each with the seeds of --seeds (the storage
arrivals differ, and with them which of the ring's QPs congestion control
cuts). Load 0 is the job alone (traffic.background = none), its own sweep
in OUTPUT/alone. For each congestion control and load, over its seeds'
runs pooled, it prints (reStructuredText, as doc/rdma.rst has it) and writes to
OUTPUT/study.txt the job's mean and largest iteration time, its CCT's
median, and the flows' FCT slowdown (median and 99th percentile, all
sizes), with the PFC pauses; the figures to OUTPUT/study.json; and the
figure (iteration time, and the flows' p99 slowdown, against the load) to
OUTPUT/background-study.png and .pdf, or to --figure PATH.
"""

import argparse
import csv
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rdmasim_analysis as ra  # noqa: E402
import rdmasim_plotting as rp  # noqa: E402
import sweep  # noqa: E402

CONFIG = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                      'examples', 'configs', 'storage-beside-training.ini')


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    p.add_argument('-o', '--output', required=True, help='output root: the sweeps go under it')
    p.add_argument('--loads', default='0.1,0.2,0.3,0.4',
                   help='storage loads per NIC, fractions of its rate (default 0.1,0.2,0.3,0.4; '
                        'the job alone is always run)')
    p.add_argument('--cc', default='dcqcn,none',
                   help='congestion controls (default dcqcn,none: DCQCN, and PFC alone)')
    p.add_argument('--seeds', default='1,2,3', help='seeds of every point (default 1,2,3)')
    sweep.add_study_options(p, 'background-study')
    args = p.parse_args(argv)
    try:
        args.load_values = [float(x) for x in args.loads.split(',')]
    except ValueError:
        p.error('--loads %s: expected numbers, such as 0.1,0.3' % args.loads)
    if any(not 0 < x < 1 for x in args.load_values):
        p.error('--loads %s: each load is a fraction of the NIC rate, above 0 and below 1'
                % args.loads)
    return args


def point_runs(root, row):
    """One run: its iteration times and CCTs (us), its flows' slowdowns, its summary."""
    folder = os.path.join(root, row['point'])
    s = ra.read_summary(folder)
    with open(os.path.join(folder, 'jobs.csv'), newline='') as f:
        iterations = [int(r['time_ns']) / 1e3 for r in csv.DictReader(f)
                      if r['status'] == 'done']
    with open(os.path.join(folder, 'collectives.csv'), newline='') as f:
        ccts = [int(r['cct_ns']) / 1e3 for r in csv.DictReader(f) if r['status'] == 'done']
    with open(os.path.join(folder, 'fct.csv'), newline='') as f:
        flows = list(csv.DictReader(f))
    slowdowns = [float(r['slowdown']) for r in flows if r['status'] == 'IBV_WC_SUCCESS']
    return iterations, ccts, len(flows), slowdowns, s


def point_figures(runs, cc, load):
    """One congestion control and load: its seeds' runs pooled."""
    iterations = [t for r in runs for t in r[0]]
    ccts = [t for r in runs for t in r[1]]
    slowdowns = [x for r in runs for x in r[3]]
    return {'cc': cc, 'load': load, 'runs': len(runs),
            'iterations_done': len(iterations),
            'iterations': sum(r[4]['collectives']['total'] for r in runs),
            'iteration_mean_us': float(np.mean(iterations)) if iterations else None,
            'iteration_max_us': max(iterations) if iterations else None,
            'cct_p50_us': float(np.median(ccts)) if ccts else None,
            'flows': sum(r[2] for r in runs), 'flows_done': len(slowdowns),
            'slowdown_p50': float(np.percentile(slowdowns, 50)) if slowdowns else None,
            'slowdown_p99': float(np.percentile(slowdowns, 99)) if slowdowns else None,
            'pause_frames': sum(r[4]['pfc']['pause_frames'] for r in runs),
            'ecn_marks': sum(r[4]['ecn_marks'] for r in runs),
            'wall_s': sum(r[4]['wall_time_s'] for r in runs)}


def pooled(root, rows, load_of):
    """The figures of each (cc, load) of a sweep's rows, seeds pooled."""
    groups = {}
    for row in rows:
        groups.setdefault((row['cc.algorithm'], load_of(row)), []).append(
            point_runs(root, row))
    return [point_figures(runs, cc, load) for (cc, load), runs in groups.items()]


def number(x, fmt):
    return '-' if x is None else fmt % x


def table(points):
    return ra.rst_table(
        ('cc', 'load', 'runs', 'iteration mean (us)', 'iteration max (us)', 'CCT p50 (us)', 'flows',
         'slowdown p50', 'slowdown p99', 'PFC pauses', 'ECN marks'),
        [(p['cc'], '%.1f' % p['load'], p['runs'], number(p['iteration_mean_us'], '%.1f'),
          number(p['iteration_max_us'], '%.1f'), number(p['cct_p50_us'], '%.1f'),
          '%d of %d' % (p['flows_done'], p['flows']) if p['flows'] else '-',
          number(p['slowdown_p50'], '%.2f'), number(p['slowdown_p99'], '%.2f'),
          p['pause_frames'], p['ecn_marks'])
         for p in points])


def draw(points, title=None):
    fig, axes = rp.figure(ncols=2, width=4.2, height=3.2)
    value = lambda p, key, scale=1.0: np.nan if p[key] is None else p[key] / scale
    for i, cc in enumerate(dict.fromkeys(p['cc'] for p in points)):
        mine = sorted((p for p in points if p['cc'] == cc), key=lambda p: p['load'])
        x = [p['load'] for p in mine]
        label = 'PFC alone' if cc == 'none' else cc.upper()
        color = 'C%d' % i  # one colour per congestion control
        axes[0].plot(x, [value(p, 'iteration_mean_us', 1e3) for p in mine], marker='o',
                     color=color, label=label + ', mean')
        axes[0].plot(x, [value(p, 'iteration_max_us', 1e3) for p in mine], marker='^',
                     linestyle='--', color=color, label=label + ', largest')
        flows = [p for p in mine if p['flows']]
        axes[1].plot([p['load'] for p in flows], [value(p, 'slowdown_p99') for p in flows],
                     marker='o', color=color, label=label + ', p99')
        axes[1].plot([p['load'] for p in flows], [value(p, 'slowdown_p50') for p in flows],
                     marker='s', linestyle=':', color=color, label=label + ', p50')
    axes[0].set_xlabel('storage load per NIC (fraction of 100 Gb/s)')
    axes[0].set_ylabel('job iteration time (ms)')
    axes[0].set_title('the training job', fontsize='small')
    axes[0].set_ylim(bottom=0)
    axes[1].set_xlabel('storage load per NIC (fraction of 100 Gb/s)')
    axes[1].set_ylabel('storage flows\' FCT slowdown')
    axes[1].set_yscale('log')
    axes[1].set_title('the storage flows beside it', fontsize='small')
    for ax in axes:
        ax.legend(fontsize='x-small')
    if title:
        fig.suptitle(title)
    return fig


def main(argv=None):
    args = parse_args(argv)
    seeds = ['--seeds', args.seeds, '--grid', 'cc.algorithm=' + args.cc]
    alone = sweep.run_study_sweep(CONFIG, os.path.join(args.output, 'alone'),
                                  seeds + ['--grid', 'traffic.background=none'], args)
    beside = sweep.run_study_sweep(CONFIG, os.path.join(args.output, 'beside'),
                                   seeds + ['--grid', 'traffic.backgroundLoad=' + args.loads],
                                   args)
    points = pooled(os.path.join(args.output, 'alone'), alone, lambda r: 0.0)
    points += pooled(os.path.join(args.output, 'beside'), beside,
                     lambda r: float(r['traffic.backgroundLoad']))
    order = {cc: i for i, cc in enumerate(args.cc.split(','))}
    points.sort(key=lambda p: (order.get(p['cc'], len(order)), p['load']))
    rp.write_study(args.output, table(points) + '\n', points, draw(points),
                   args.figure or os.path.join(args.output, 'background-study'))
    return 0


if __name__ == '__main__':
    sys.exit(main())
