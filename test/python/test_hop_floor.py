"""rdma-hop-floor (the per-hop floor benchmark): on a line of two switches it
carries a flow's frames store-and-forward with the wire times it states,
one ACK per data frame, and reports bad input with exit status 2."""

import re

import pytest

# host 0 - switch 2 - switch 3 - host 1: three 100 Gb/s links of 1 us.
LINE = '4 2 3\n2 3\n0 2 100Gbps 1000ns 0\n2 3 100Gbps 1000ns 0\n3 1 100Gbps 1000ns 0\n'


def run_floor(run_example, tmp_path, frames, flows='1\n0 1 3 100 10000 2.0\n'):
    topo = tmp_path / 'line.txt'
    topo.write_text(LINE)
    flow_file = tmp_path / 'flows.txt'
    flow_file.write_text(flows)
    return run_example('rdma-hop-floor', '--topology=%s' % topo, '--flows=%s' % flow_file,
                       '--frames=%s' % frames, '--window=100')


@pytest.mark.parametrize('frames', ['packet', 'pod'])
def test_line_counts_and_times(run_example, tmp_path, frames):
    r = run_floor(run_example, tmp_path, frames)
    assert r.returncode == 0, r.stderr
    # 10 data frames of 1000 B, each answered by an ACK, over 3 links.
    assert 'link transmissions 60,' in r.stdout
    assert 'data packets 10,' in r.stdout
    # A data frame is 58 + 1000 + 4 B, 1082 B on the wire with preamble and
    # gap: 86.56 ns at 100 Gb/s; an ACK 84 B: 6.72 ns. The tenth data frame
    # leaves the host at 10 x 86.56 ns and crosses two more hops, store and
    # forward, behind the others without queueing; its ACK crosses three.
    last_data = 10 * 86.56 + 1000 + 2 * (86.56 + 1000)
    last_ack = last_data + 3 * (6.72 + 1000)
    sim_ns = float(re.search(r'simulated ([0-9.]+) ns', r.stdout).group(1))
    assert sim_ns == pytest.approx(2e9 + last_ack, abs=0.001)


def test_flow_naming_a_switch_is_refused(run_example, tmp_path):
    r = run_floor(run_example, tmp_path, 'packet', flows='1\n0 2 3 100 10000 2.0\n')
    assert r.returncode == 2
    assert 'names node 2, which is not a host of' in r.stderr


def test_bad_frames_value_is_refused(run_example, tmp_path):
    r = run_floor(run_example, tmp_path, 'struct')
    assert r.returncode == 2
    assert '--frames must be packet or pod' in r.stderr


@pytest.mark.parametrize('frames', ['packet', 'pod'])
def test_generated_fat_tree_permutation(run_example, frames):
    # k=2: two hosts in two pods, host - edge - agg - core - agg - edge - host
    # (6 links); the only permutation is 0 -> 1, 1 -> 0. 10 data frames of
    # 1000 B per flow, each answered by an ACK: 2 x 10 x 2 x 6 transmissions.
    r = run_example('rdma-hop-floor', '--fatTreeK=2', '--permutationBytes=10000',
                    '--frames=%s' % frames)
    assert r.returncode == 0, r.stderr
    assert '2 hosts, 2 flows, 2 done' in r.stdout
    assert 'link transmissions 240,' in r.stdout
    assert 'data packets 20,' in r.stdout


def test_odd_fat_tree_arity_is_refused(run_example):
    r = run_example('rdma-hop-floor', '--fatTreeK=3', '--permutationBytes=10000')
    assert r.returncode == 2
    assert 'fat-tree: k = 3 must be even and at least 2' in r.stderr
