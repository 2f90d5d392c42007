#!/usr/bin/python3
"""Training collectives on a 2:1 oversubscribed fat-tree: three sweeps, their
tables and one figure.

  scripts/collective_study.py -o out/collective-study
  scripts/collective_study.py -o out/collective-study --set collective.bytes=4MiB -j 2

Each study is a scripts/sweep.py run of a shipped config (so an interrupted
study resumes where it stopped), in a folder of its own under -o:

* allreduce: examples/configs/collective-allreduce-2to1.ini (128 ranks, ring
  all-reduce) over cc.algorithm = dcqcn, hpcc and switch.LoadBalancing =
  Ecmp, Spray: CCT, busbw, PFC pause frames, packets resent;
* moe: collective-moe-2to1.ini (128 ranks, pairwise all-to-all) over the
  same grid: CCT, busbw, the pair that landed last and when, pauses;
* jobs: collective-two-jobs-2to1.ini (two jobs of 64 ranks) over
  job.placement = contiguous, random: each job's iteration times, pauses.

--set KEY=VALUE goes to every run (collective.bytes sets the all-reduce's
and the all-to-all's size and the jobs' all-reduce). Prints the three
tables (reStructuredText, as doc/rdma.rst has them) and writes them to
OUTPUT/study.txt, every figure to OUTPUT/study.json, and the figure
(three panels: the all-reduce's and the all-to-all's CCT per congestion
control and load balancer, with the pauses written over the bars; each
job's mean iteration time per placement) to OUTPUT/collective-study.png
and .pdf, or to --figure PATH.
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

CONFIGS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                       'examples', 'configs')
FABRIC_GRID = ['--grid', 'cc.algorithm=dcqcn,hpcc', '--grid', 'switch.LoadBalancing=Ecmp,Spray']
#: name, config, grid
STUDIES = (
    ('allreduce', 'collective-allreduce-2to1.ini', FABRIC_GRID),
    ('moe', 'collective-moe-2to1.ini', FABRIC_GRID),
    ('jobs', 'collective-two-jobs-2to1.ini', ['--grid', 'job.placement=contiguous,random']),
)


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    p.add_argument('-o', '--output', required=True, help='output root: a sweep folder per study')
    sweep.add_study_options(p, 'collective-study')
    return p.parse_args(argv)


def run_sweeps(args):
    """Run (or resume) each study's sweep; return {name: results.csv rows}."""
    return {name: sweep.run_study_sweep(os.path.join(CONFIGS, config),
                                        os.path.join(args.output, name), grid, args)
            for name, config, grid in STUDIES}


def read_rows(path):
    with open(path, newline='') as f:
        return list(csv.DictReader(f))


def fabric_figures(root, row):
    """One point of the all-reduce or all-to-all study: its collective's
    figures (collectives.csv) and the run's pauses and resends (summary)."""
    folder = os.path.join(root, row['point'])
    (c,) = read_rows(os.path.join(folder, 'collectives.csv'))
    s = ra.read_summary(folder)
    done = c['status'] == 'done'
    return {'cc': row['cc.algorithm'], 'lb': row['switch.LoadBalancing'],
            'status': c['status'], 'bytes': int(c['bytes']), 'ranks': int(c['ranks']),
            'cct_us': int(c['cct_ns']) / 1e3 if done else None,
            'busbw_gbps': float(c['busbw_gbps']) if done else None,
            'slowest_src': int(c['slowest_src']) if done else None,
            'slowest_dst': int(c['slowest_dst']) if done else None,
            'slowest_pair_us': int(c['slowest_pair_ns']) / 1e3 if done else None,
            'pause_frames': s['pfc']['pause_frames'],
            'ecn_marks': s['ecn_marks'],
            'out_of_order': s['reordering']['out_of_order_arrivals'],
            'retransmissions': s['retransmissions'],
            'data_packets': s['data_packets_delivered'],
            'sim_time_s': s['sim_time_s'],
            'wall_s': s['wall_time_s']}


def job_figures(root, row):
    """One placement of the two-job study: per job its iteration times."""
    folder = os.path.join(root, row['point'])
    s = ra.read_summary(folder)
    jobs = {}
    for it in read_rows(os.path.join(folder, 'jobs.csv')):
        j = jobs.setdefault(int(it['job']), {'ranks': int(it['ranks']), 'iterations_us': []})
        j['iterations_us'].append(int(it['time_ns']) / 1e3 if it['status'] == 'done' else None)
    return {'placement': row['job.placement'], 'jobs': jobs,
            'pause_frames': s['pfc']['pause_frames'], 'ecn_marks': s['ecn_marks'],
            'wall_s': s['wall_time_s']}


def number(x, fmt):
    return '-' if x is None else fmt % x


def cct(f):
    """The CCT in us, or what an incomplete run got to: '> 100 ms'."""
    if f['cct_us'] is not None:
        return '%.1f' % f['cct_us']
    return '> %g ms' % (f['sim_time_s'] * 1e3)


def tables(study):
    a = ra.rst_table(('cc', 'load balancing', 'CCT (us)', 'busbw (Gb/s)', 'PFC pauses',
                      'ECN marks', 'out of order', 'resent', 'data packets'),
                     [(f['cc'], f['lb'], cct(f), number(f['busbw_gbps'], '%.2f'),
                       f['pause_frames'], f['ecn_marks'], f['out_of_order'], f['retransmissions'],
                       f['data_packets'])
                      for f in study['allreduce']])
    b = ra.rst_table(('cc', 'load balancing', 'CCT (us)', 'busbw (Gb/s)', 'slowest pair',
                      'its end (us)', 'PFC pauses', 'ECN marks', 'data packets'),
                     [(f['cc'], f['lb'], cct(f), number(f['busbw_gbps'], '%.2f'),
                       '-' if f['slowest_src'] is None else '%d -> %d' % (f['slowest_src'],
                                                                          f['slowest_dst']),
                       number(f['slowest_pair_us'], '%.1f'), f['pause_frames'], f['ecn_marks'],
                       f['data_packets'])
                      for f in study['moe']])
    c = ra.rst_table(('placement', 'job', 'ranks', 'iteration times (us)', 'PFC pauses',
                      'ECN marks'),
                     [(p['placement'], j, v['ranks'],
                       ', '.join(number(t, '%.1f') for t in v['iterations_us']), p['pause_frames'],
                       p['ecn_marks'])
                      for p in study['jobs'] for j, v in sorted(p['jobs'].items())])
    return a, b, c


def draw(study, title=None):
    fig, axes = rp.figure(ncols=3, width=3.6, height=3.2)
    for ax, key, what in ((axes[0], 'allreduce', 'ring all-reduce'),
                          (axes[1], 'moe', 'all-to-all')):
        points = study[key]
        lbs = list(dict.fromkeys(f['lb'] for f in points))
        ccs = list(dict.fromkeys(f['cc'] for f in points))
        width = 0.8 / len(ccs)
        for i, cc in enumerate(ccs):
            x = np.arange(len(lbs)) + (i - (len(ccs) - 1) / 2) * width
            got = {f['lb']: f for f in points if f['cc'] == cc}
            y = [got[lb]['cct_us'] / 1e3 if got.get(lb) and got[lb]['cct_us'] else 0
                 for lb in lbs]
            bars = ax.bar(x, y, width, label=cc.upper())
            for bar, lb in zip(bars, lbs):
                if lb not in got:
                    continue
                f = got[lb]
                text = ('%d' % f['pause_frames'] if f['cct_us'] is not None
                        else 'not done\nby %g ms' % (f['sim_time_s'] * 1e3))
                ax.annotate(text, (bar.get_x() + bar.get_width() / 2, bar.get_height()),
                            ha='center', va='bottom', fontsize='x-small')
        ax.set_xticks(np.arange(len(lbs)))
        ax.set_xticklabels(lbs)
        done = [f['cct_us'] / 1e3 for f in points if f['cct_us'] is not None]
        if done:
            ax.set_ylim(0, 1.35 * max(done))  # room for the legend above the bars
        ax.set_ylabel('CCT (ms)')
        ax.set_title('%s, %d ranks, %s' % (what, points[0]['ranks'],
                                           ra_size(points[0]['bytes'])), fontsize='small')
        ax.legend(fontsize='x-small', title='numbers: PFC pauses', title_fontsize='x-small')
    ax = axes[2]
    placements = study['jobs']
    njobs = max(len(p['jobs']) for p in placements)
    width = 0.8 / njobs
    for j in range(njobs):
        x = np.arange(len(placements)) + (j - (njobs - 1) / 2) * width
        y = []
        for p in placements:
            times = [t for t in p['jobs'].get(j, {}).get('iterations_us', []) if t is not None]
            y.append(np.mean(times) / 1e3 if times else np.nan)
        ax.bar(x, y, width, label='job %d' % j)
    ax.set_xticks(np.arange(len(placements)))
    ax.set_xticklabels([p['placement'] for p in placements])
    ax.set_ylabel('mean iteration time (ms)')
    ax.set_title('two jobs sharing the fabric', fontsize='small')
    ax.legend(fontsize='x-small')
    if title:
        fig.suptitle(title)
    return fig


def ra_size(n):
    for unit, size in (('GiB', 2**30), ('MiB', 2**20), ('KiB', 2**10)):
        if n >= size and n % size == 0:
            return '%d %s' % (n // size, unit)
    return '%d B' % n


def main(argv=None):
    args = parse_args(argv)
    rows = run_sweeps(args)
    study = {
        'allreduce': [fabric_figures(os.path.join(args.output, 'allreduce'), r)
                      for r in rows['allreduce']],
        'moe': [fabric_figures(os.path.join(args.output, 'moe'), r) for r in rows['moe']],
        'jobs': [job_figures(os.path.join(args.output, 'jobs'), r) for r in rows['jobs']],
    }
    text = '\n\n'.join(tables(study)) + '\n'
    rp.write_study(args.output, text, study, draw(study),
                   args.figure or os.path.join(args.output, 'collective-study'))
    return 0


if __name__ == '__main__':
    sys.exit(main())
