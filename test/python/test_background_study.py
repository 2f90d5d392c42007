"""scripts/background_study.py on a small case (two servers, a 1 MiB ring,
0.5 ms of storage arrivals): its sweeps run the shipped config, and its
table and figure carry each run's own numbers (jobs.csv, collectives.csv,
fct.csv, summary.json), the seeds of a point pooled."""

import csv
import json
import os

import numpy as np

from sweep_helpers import load_script

SMALL = ['--set', 'topology.rail.Servers=2', '--set', 'job.ranks=16',
         '--set', 'collective.bytes=1MiB', '--set', 'traffic.duration=500us',
         '--set', 'job.iterations=2']


def rows(path):
    with open(path, newline='') as f:
        return list(csv.DictReader(f))


def test_study_pools_each_points_seeds_and_prints_their_figures(build_dir, tmp_path):
    study = load_script('background_study')
    sim = os.path.join(build_dir, 'examples', 'rdma-sim')
    out = tmp_path / 'study'
    args = ['-o', str(out), '--sim', sim, '-j', '2', '--timeout', '120', '--loads', '0.2,0.4',
            '--cc', 'dcqcn,none', '--seeds', '1,2'] + SMALL
    assert study.main(args) == 0
    points = json.load(open(out / 'study.json'))
    text = (out / 'study.txt').read_text()
    assert (out / 'background-study.png').stat().st_size > 1000
    assert [(p['cc'], p['load']) for p in points] == [
        (cc, load) for cc in ('dcqcn', 'none') for load in (0.0, 0.2, 0.4)]
    for p in points:
        assert p['runs'] == 2
        if p['load'] == 0:
            root, name = out / 'alone', 'cc.algorithm=%s_traffic.background=none' % p['cc']
        else:
            root, name = out / 'beside', 'cc.algorithm=%s_traffic.backgroundLoad=%s' % (
                p['cc'], p['load'])
        folders = [root / ('%s_seed=%d' % (name, seed)) for seed in (1, 2)]
        its = [int(r['time_ns']) / 1e3 for f in folders for r in rows(f / 'jobs.csv')]
        assert len(its) == 4 and p['iteration_mean_us'] == np.mean(its)
        assert p['iteration_max_us'] == max(its) and '%.1f' % max(its) in text
        flows = [float(r['slowdown']) for f in folders for r in rows(f / 'fct.csv')]
        assert p['flows'] == len(flows) == p['flows_done']
        if p['load'] == 0:
            assert flows == [] and p['slowdown_p99'] is None
        else:
            assert len(flows) > 20 and p['slowdown_p99'] == np.percentile(flows, 99)
        assert p['pause_frames'] == sum(
            json.load(open(f / 'summary.json'))['pfc']['pause_frames'] for f in folders)
    # Storage beside the ring makes its iterations longer.
    by = {(p['cc'], p['load']): p for p in points}
    for cc in ('dcqcn', 'none'):
        assert by[(cc, 0.4)]['iteration_mean_us'] > by[(cc, 0.0)]['iteration_mean_us']
    # A load outside (0, 1) is refused before anything runs.
    bad = tmp_path / 'bad'
    try:
        study.main(['-o', str(bad), '--sim', sim, '--loads', '0.5,1.2'])
    except SystemExit as e:
        assert e.code == 2
    else:
        raise AssertionError('--loads 1.2 was taken')
    assert not bad.exists()
