"""rdma-fat-tree: the k=4 fat-tree runs its 16 flows, and a malformed HPCC
topology file is reported with its file and line and a non-zero exit."""

import re


def test_fat_tree_k4_flows_done(run_example):
    r = run_example('rdma-fat-tree', '--k=4', '--bytes=65536')
    assert r.returncode == 0, r.stderr
    # k^3/4 hosts, 5k^2/4 switches, 3k^3/4 links; every switch routes 16 hosts.
    assert 'fat-tree k=4: 16 hosts, 20 switches, 48 links' in r.stdout
    assert 'flows done: 16/16' in r.stdout
    goodput = float(re.search(r'aggregate goodput: ([0-9.]+) Gb/s', r.stdout).group(1))
    # 16 hosts at 100 Gb/s cannot exceed 1600 Gb/s of payload.
    assert 0 < goodput < 1600


def test_bad_topology_file_names_file_and_line(run_example, tmp_path):
    bad = tmp_path / 'bad.txt'
    bad.write_text('3 1 2\n2\n0 2 100Gbps 1000ns 0\n1 2 100Gbps 1000 0\n')
    r = run_example('rdma-fat-tree', '--topology=%s' % bad)
    assert r.returncode == 1
    assert '%s:4: expected link 2 of 2: <delay>' % bad in r.stderr
    assert "got '1000'" in r.stderr


def test_hpcc_file_runs(run_example, tmp_path):
    topo = tmp_path / 'star.txt'
    topo.write_text('5 1 4\n4\n' + ''.join('%d 4 25Gbps 0.001ms 0\n' % i for i in range(4)))
    r = run_example('rdma-fat-tree', '--topology=%s' % topo, '--bytes=4096')
    assert r.returncode == 0, r.stderr
    assert '4 hosts, 1 switches, 4 links' in r.stdout
    assert 'flows done: 4/4' in r.stdout
