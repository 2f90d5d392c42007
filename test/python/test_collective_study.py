"""scripts/collective_study.py on a small fabric (k=4 fat-tree, 64 KiB
collectives): its three sweeps run the shipped configs, and its tables and
figure carry each run's own numbers (collectives.csv, jobs.csv,
summary.json)."""

import csv
import json
import os

import pytest

from sweep_helpers import load_script


def rows(path):
    with open(path, newline='') as f:
        return list(csv.DictReader(f))


def test_study_tables_carry_each_runs_figures(build_dir, tmp_path):
    study = load_script('collective_study')
    sim = os.path.join(build_dir, 'examples', 'rdma-sim')
    out = tmp_path / 'study'
    assert study.main(['-o', str(out), '--sim', sim, '-j', '2', '--timeout', '120',
                       '--set', 'topology.k=4', '--set', 'collective.bytes=64KiB',
                       '--set', 'collective.chunkBytes=16KiB']) == 0
    figures = json.load(open(out / 'study.json'))
    text = (out / 'study.txt').read_text()
    assert (out / 'collective-study.png').stat().st_size > 1000
    assert [(f['cc'], f['lb']) for f in figures['allreduce']] == [
        (cc, lb) for cc in ('dcqcn', 'hpcc') for lb in ('Ecmp', 'Spray')]
    for name, collective in (('allreduce', 'all-reduce'), ('moe', 'all-to-all')):
        for f in figures[name]:
            folder = out / name / ('cc.algorithm=%s_switch.LoadBalancing=%s' % (f['cc'], f['lb']))
            (c,) = rows(folder / 'collectives.csv')
            assert c['collective'] == collective and c['status'] == 'done'
            assert int(c['ranks']) == 16  # job.ranks = 0: every host of the k=4 fat-tree
            assert f['cct_us'] == int(c['cct_ns']) / 1e3
            assert '%.1f' % f['cct_us'] in text
            assert (f['slowest_src'], f['slowest_dst']) == (int(c['slowest_src']),
                                                            int(c['slowest_dst']))
            assert f['slowest_pair_us'] <= f['cct_us']
            summary = json.load(open(folder / 'summary.json'))
            assert f['pause_frames'] == summary['pfc']['pause_frames']
            assert f['ecn_marks'] == summary['ecn_marks']
    # Two jobs of 8 ranks, an iteration each, per placement.
    assert [p['placement'] for p in figures['jobs']] == ['contiguous', 'random']
    for p in figures['jobs']:
        its = rows(out / 'jobs' / ('job.placement=%s' % p['placement']) / 'jobs.csv')
        assert len(its) == 2 and {r['status'] for r in its} == {'done'}
        for j, v in p['jobs'].items():
            assert v['ranks'] == 8
            assert v['iterations_us'] == [int(r['time_ns']) / 1e3 for r in its
                                          if int(r['job']) == int(j)]
    # Run again: every point is reused, the same tables come out.
    assert study.main(['-o', str(out), '--sim', sim, '--set', 'topology.k=4',
                       '--set', 'collective.bytes=64KiB',
                       '--set', 'collective.chunkBytes=16KiB']) == 0
    assert (out / 'study.txt').read_text() == text


def test_a_refused_key_stops_the_study_with_status_2(build_dir, tmp_path):
    study = load_script('collective_study')
    sim = os.path.join(build_dir, 'examples', 'rdma-sim')
    with pytest.raises(SystemExit) as e:
        study.main(['-o', str(tmp_path / 'bad'), '--sim', sim, '--set', 'topology.k=4',
                    '--set', 'collective.bytes=64KiB'])  # 512 KiB chunks of a 64 KiB message
    assert e.value.code == 2
    assert not (tmp_path / 'bad' / 'allreduce' / 'results.csv').exists()
