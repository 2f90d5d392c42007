"""scripts/bench_uec.py without htsim_uec: the network it gives rdma-sim for a
case, the peer's output it reads, and one whole invocation with a stand-in
for htsim_uec beside the real rdma-sim."""

import json
import os
import stat
import subprocess
import sys

import pytest

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(TOP, 'scripts'))
import bench_uec  # noqa: E402

SCRIPT = os.path.join(TOP, 'scripts', 'bench_uec.py')


def test_htsim_tail_is_the_last_finish():
    out = ('Flow Uec_0_15 flowId 1 uecSrc 0 finished at 1273.56 total messages 1\n'
           'Flow Uec_1_15 flowId 2 uecSrc 1 finished at 2478.53 total messages 1\n')
    assert bench_uec.htsim_tail_us(out) == (2478.53, 2)
    assert bench_uec.htsim_tail_us('nothing finished') == (None, 0)


def test_fat_tree_of_the_matrix(tmp_path):
    cm = tmp_path / 'x.cm'
    cm.write_text('Nodes 1024\nConnections 0\n')
    assert bench_uec.fat_tree_k(bench_uec.matrix_nodes(str(cm))) == 16
    with pytest.raises(ValueError, match='k\\^3/4'):
        bench_uec.fat_tree_k(100)


def test_rdma_sim_gets_htsim_uec_network(tmp_path):
    cm = tmp_path / 'x.cm'
    cm.write_text('Nodes 16\nConnections 0\n')
    args = bench_uec.our_args(str(cm), ['-end', '3000', '-cwnd', '50'], 'nscc', 'o')
    # One BDP of queue per port and ECN from 0.2 to 0.8 of it, in 4,150-byte packets.
    for a in ('--topology.k=4', '--link.queue.MaxBytes=178450', '--ecn.kmin=37350',
              '--ecn.kmax=145250', '--ecn.pmax=1', '--switch.trim.Classes=8',
              '--nic.Entropy=mixed', '--nic.EntropyPaths=64', '--sim.stopTime=3000us',
              '--transport.irn.AckBytes=16384',
              '--cc.nscc.InitialWindow=207500', '--transport.irn.BdpBytes=525852',
              # htsim_uec times a packet by its size alone: no preamble, FCS or gap.
              '--switch.trim.MaxBytes=356900', '--link.WireOverhead=0'):
        assert a in args
    assert '--transport.irn.RtoHigh=100656ns' in args and '--cc.rccc.Enabled=true' not in args
    assert '--cc.rccc.Enabled=true' in bench_uec.our_args(str(cm), [], 'none', 'o', rccc=True)
    one_path = bench_uec.our_args(str(cm), ['-paths', '1'], 'dcqcn', 'o')
    assert '--nic.Entropy=qp' in one_path
    assert not any(a.startswith('--cc.nscc') for a in one_path)
    # htsim_uec's -planes: a NIC port on each plane, BDP-FC at the ports' summed rate.
    two = bench_uec.our_args(str(cm), ['-planes', '2'], 'nscc', 'o')
    assert '--topology.planes=2' in two and '--transport.irn.BdpBytes=1051704' in two
    assert '--topology.planes=1' in args


def stand_in(tmp_path, script):
    """A stand-in htsim_uec (a shell `script`) beside the 'single' case's
    matrix, and the built rdma-sim (the test skips without one)."""
    peer = tmp_path / 'datacenter'
    (peer / 'connection_matrices').mkdir(parents=True)
    (peer / 'connection_matrices' / 'one.cm').write_text(
        'Nodes 16\nConnections 1\n0->13 start 0 size 2000000\n')
    fake = peer / 'htsim_uec'
    fake.write_text(script)
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    sim = os.path.join(os.environ.get('RDMA_BUILD_DIR', os.path.join(TOP, 'build')),
                       'examples', 'rdma-sim')
    if not os.access(sim, os.X_OK):
        pytest.skip('no rdma-sim built')
    return fake, sim


def test_one_case_beside_a_stand_in(run_example, tmp_path):
    fake, sim = stand_in(
        tmp_path, '#!/bin/sh\necho "Flow Uec_0_13 flowId 1 uecSrc 0 finished at 100.0"\n')
    out = tmp_path / 'out'
    r = subprocess.run([sys.executable, SCRIPT, '--htsim-uec', str(fake), '--sim', sim,
                        '--cases', 'single', '--out', str(out)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    row, = json.load(open(out / 'bench-uec.json'))
    assert row['htsim']['tail_us'] == 100.0 and row['htsim']['flows'] == 1
    # 2 MB across the idle fat tree: 489 frames at 100 Gb/s plus the RTT (176.9 us).
    assert 170 < row['ours']['tail_us'] < 180 and row['ours']['flows'] == 1
    assert row['tail_ratio'] == pytest.approx(row['ours']['tail_us'] / 100.0)
    # rdma-sim's peak is its own (summary.json); the shell stand-in's reads no
    # lower than the forking Python's, and says so.
    summary = json.load(open(out / 'single' / 'summary.json'))
    assert row['ours']['peak_rss_mb'] == summary['peak_rss_mb']
    assert row['htsim']['peak_rss_at_most'] and not row['ours']['peak_rss_at_most']
    assert '(at most ' in r.stdout
    bad = subprocess.run([sys.executable, SCRIPT, '--htsim-uec', str(fake), '--sim', sim,
                          '--cases', 'nope'], capture_output=True, text=True)
    assert bad.returncode == 2 and 'unknown case' in bad.stderr


def test_htsim_uec_sizes_its_network_from_the_tiers():
    # main_uec.cpp: RTT = 2 x hops x 1 us + (4,150 + 64) bytes at 100 Gb/s per hop;
    # the queue is that BDP in whole packets, ECN 0.2 and 0.8 of them, rounded up;
    # the RTO 15 us and six queues' drain time (htsim_uec prints "min RTO to 100.656").
    assert bench_uec.network(3) == {'bdp': 175284, 'queue': 178450, 'ecn_low': 37350,
                                    'ecn_high': 145250, 'rto_ns': 100656}
    assert bench_uec.network(2) == {'bdp': 116856, 'queue': 120350, 'ecn_low': 24900,
                                    'ecn_high': 99600, 'rto_ns': 72768}


def test_failed_links_and_topology_files(tmp_path):
    cm = tmp_path / 'x.cm'
    cm.write_text('Nodes 16\nConnections 0\n')
    # -failed 1: the first aggregation switch (node 24 of a k=4 fat tree) hears
    # its first core (node 32) at 25 % of the speed, one direction.
    args = bench_uec.our_args(str(cm), ['-failed', '1'], 'nscc', 'o')
    assert '--topology.slowLinks=32>24:0.25' in args
    two = bench_uec.our_args(str(cm), ['-failed', '2'], 'nscc', 'o')
    assert '--topology.slowLinks=32>24:0.25,33>24:0.25' in two
    with pytest.raises(ValueError, match='has 2 cores'):
        bench_uec.our_args(str(cm), ['-failed', '3'], 'nscc', 'o')
    topo = tmp_path / 'ls.topo'
    topo.write_text('Nodes 1024\nTiers 2\nPodsize 1024\n\nTier 0\nDownlink_speed_Gbps 100\n'
                    'Radix_Down 32\nRadix_Up 8\nDownlink_Latency_ns 1000\nOversubscribed 4\n'
                    'Switch_Latency_ns 0\n\nTier 1\nDownlink_speed_Gbps 100\nRadix_Down 32\n'
                    'Downlink_Latency_ns 1000\nSwitch_Latency_ns 0\n')
    cm.write_text('Nodes 1024\nConnections 0\n')
    ls = bench_uec.our_args(str(cm), ['-topo', 'ls.topo'], 'nscc', 'o', str(tmp_path))
    for a in ('--topology.type=leaf-spine', '--topology.leaves=32', '--topology.spines=8',
              '--topology.hostsPerLeaf=32', '--topology.oversubscription=0',
              '--topology.fabricRate=100Gbps', '--link.queue.MaxBytes=120350'):
        assert a in ls
    assert not any('OversubscribedCc' in a for a in ls)
    # RCCC alone on its 4:1 topology: htsim_uec's receiver OversubscribedCC, 0.9 / 4.
    rcv = bench_uec.our_args(str(cm), ['-topo', 'ls.topo'], 'none', 'o', str(tmp_path), rccc=True)
    assert '--cc.rccc.OversubscribedCc=true' in rcv
    assert '--cc.rccc.OversubscribedMinRate=0.225' in rcv
    topo.write_text(topo.read_text().replace('Downlink_speed_Gbps 100\nRadix_Down 32\nDownlink',
                                             'Downlink_speed_Gbps 400\nRadix_Down 32\nDownlink'))
    with pytest.raises(ValueError, match='only 2 tiers of 100 Gb/s'):
        bench_uec.our_args(str(cm), ['-topo', 'ls.topo'], 'nscc', 'o', str(tmp_path))


def test_seeds_draw_another_placement_each_run(run_example, tmp_path):
    """--seeds N: run i gives the peer -seed i+1 and rdma-sim switch.EcmpSeed=i,
    and the row keeps every run's tail beside their median."""
    # The stand-in ends its flow at 100 us + its -seed (0 without one).
    fake, sim = stand_in(tmp_path, '#!/bin/sh\nseed=0\nwhile [ $# -gt 0 ]; do '
                         '[ "$1" = -seed ] && seed=$2; shift; done\n'
                         'echo "Flow f finished at 10$seed.0"\n')
    out = tmp_path / 'out'
    r = subprocess.run([sys.executable, SCRIPT, '--htsim-uec', str(fake), '--sim', sim,
                        '--cases', 'single', '--seeds', '3', '--out', str(out)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    row, = json.load(open(out / 'bench-uec.json'))
    assert row['seeds'] == 3 and row['runs'] == 3
    assert row['htsim']['tails_us'] == [101.0, 102.0, 103.0]
    assert row['htsim']['tail_us'] == 102.0
    # One flow has one path whatever the seed: the same tail each run.
    assert len(set(row['ours']['tails_us'])) == 1 and len(row['ours']['tails_us']) == 3
    bad = subprocess.run([sys.executable, SCRIPT, '--htsim-uec', str(fake), '--sim', sim,
                          '--seeds', '-1'], capture_output=True, text=True)
    assert bad.returncode == 2 and '--seeds below 0' in bad.stderr


def test_instructions_count_each_side_under_callgrind(run_example, tmp_path):
    """--instructions: each side runs once under callgrind and the row gives
    the instructions each executed (callgrind's "I refs") and their ratio."""
    fake, sim = stand_in(
        tmp_path, '#!/bin/sh\necho "Flow Uec_0_13 flowId 1 uecSrc 0 finished at 100.0"\n')
    out = tmp_path / 'out'
    r = subprocess.run([sys.executable, SCRIPT, '--htsim-uec', str(fake), '--sim', sim,
                        '--cases', 'single', '--instructions', '--out', str(out)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    row, = json.load(open(out / 'bench-uec.json'))
    ours, peer = row['ours']['instructions'], row['htsim']['instructions']
    # A shell that echoes one line runs well under 10 M instructions; rdma-sim
    # building a 36-node fat tree and sending 2 MB, well over.
    assert 0 < peer < 10e6 < ours
    assert row['instruction_ratio'] == pytest.approx(ours / peer)
    assert 'instructions %.1f M' % (ours / 1e6) in r.stdout
    assert 170 < row['ours']['tail_us'] < 180, 'the run is the same under callgrind'
    assert bench_uec.instructions('==1== I   refs:      61,738,163\n') == 61738163
    assert bench_uec.instructions('no count') is None
    bad = subprocess.run([sys.executable, SCRIPT, '--htsim-uec', str(fake), '--sim', sim,
                          '--cases', 'single', '--instructions', '--runs', '2'],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and 'counts one run' in bad.stderr
