"""HPCC with one QP's packets spread over many paths. HPCC (Li et al.,
SIGCOMM 2019, Algorithm 1) takes each link's utilization from the
difference between two INT records of that link; with spraying, hop j of
consecutive ACKs is a different egress, so the sender compares each record
with the last one of the same egress (IntHeader::EgressIds). Compared
position by position, the differences across egresses gave U in the
hundreds to thousands, the windows fell to MinRate x T and a k=4 fat-tree
permutation of 2 MB WRITEs had finished 4 of 16 flows after 100 ms
(slowdown p50 222), against 0.7 ms with ECMP. A run takes about two seconds."""

import csv
import json

import pytest

BASE = ['--topology.type=fat-tree', '--topology.k=4', '--traffic.pattern=permutation',
        '--traffic.size=2000000', '--cc.algorithm=hpcc', '--transport.recovery=irn',
        '--transport.irn.ReorderWindow=64']


@pytest.fixture(scope='module')
def runs(run_example, tmp_path_factory):
    """(summary.json, slowdowns) of each run, by its extra arguments."""
    cache = {}

    def run(*extra):
        if extra not in cache:
            out = tmp_path_factory.mktemp('hpcc_spray') / 'out'
            r = run_example('rdma-sim', '-q', *BASE, *extra, '--output.dir=%s' % out)
            assert r.returncode == 0, r.stderr
            with open(out / 'summary.json') as f:
                summary = json.load(f)
            with open(out / 'fct.csv') as f:
                slowdowns = [float(row['slowdown']) for row in csv.DictReader(f)
                             if row['slowdown']]  # empty: not completed
            cache[extra] = (summary, slowdowns)
        return cache[extra]

    return run


@pytest.mark.parametrize('spread', [['--switch.LoadBalancing=Spray'], ['--nic.Entropy=packet']],
                         ids=['switch-spray', 'nic-packet-entropy'])
def test_hpcc_with_spraying_keeps_up_with_ecmp(runs, spread):
    ecmp_summary, ecmp = runs('--switch.LoadBalancing=Ecmp')
    summary, sprayed = runs(*spread)
    assert ecmp_summary['flows']['completed'] == ecmp_summary['flows']['total'] == 16
    # Every flow completes, none by a timeout.
    assert summary['flows']['completed'] == summary['flows']['total'] == 16
    assert len(sprayed) == 16
    assert summary['recovery']['timeouts'] == 0
    # A permutation on a full-bisection fat tree: spreading packets avoids
    # ECMP's hash collisions (mean slowdown 2.32, largest 3.63 on
    # 2026-11-26), so HPCC must do better (1.22 and 1.25 that day).
    mean = sum(sprayed) / len(sprayed)
    ecmp_mean = sum(ecmp) / len(ecmp)
    assert mean < ecmp_mean, (mean, ecmp_mean)
    assert max(sprayed) < max(ecmp), (max(sprayed), max(ecmp))
