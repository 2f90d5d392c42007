"""Multi-plane fabrics (topology.planes; doc/trimming.rst, "Multi-plane
fabrics"): each host has a NIC port on every copy of the fabric; a sprayed
QP takes every plane (its rate is their sum), a pinned one (qp entropy)
keeps one; a plane that fails loses its share and the QPs move off it, at
once where the NIC's own port goes down, once the routes converge where a
link deeper in the plane fails; per-plane counters in summary.json; planes
a topology cannot carry are refused."""

import csv
import os

import pytest

from conftest import run_summary

# Two hosts of a k=4 fat tree in different pods: host 0 (under edge 16) to
# host 15 (under edge 23). Plane 1's copy of switch index i is node 36 + i.
SPRAY = ['--nic.Entropy=packet']


def one_flow(run_example, out, size, *args):
    flows = out.parent / (out.name + '-flows.txt')
    flows.write_text('1\n0 15 3 100 %d 0\n' % size)
    s = run_summary(run_example, out, '--topology.k=4', '--traffic.pattern=flow-file',
                    '--traffic.flowFile=%s' % flows, '--transport.recovery=irn', '--quiet',
                    *args)
    with open(out / 'fct.csv') as f:
        rec = list(csv.DictReader(f))
    assert len(rec) == 1 and rec[0]['status'] == 'IBV_WC_SUCCESS', rec
    return s, rec[0]


def test_a_sprayed_qp_takes_both_planes_at_their_summed_rate(run_example, tmp_path):
    size = 4000000
    one, r1 = one_flow(run_example, tmp_path / 'p1', size, *SPRAY)
    two, r2 = one_flow(run_example, tmp_path / 'p2', size, *SPRAY, '--topology.planes=2')
    # Serialization dominates a 4 MB flow: two 100G planes take it in about
    # half the time one does (200 Gb/s: 4 MB of payload in 160 us plus headers).
    ratio = float(r2['fct_ns']) / float(r1['fct_ns'])
    assert 0.5 <= ratio <= 0.56, (r1['fct_ns'], r2['fct_ns'])
    # The ideal FCT is the summed rate's (RdmaFabricPaths::GetBottleneckRate).
    assert float(r2['ideal_fct_ns']) < 0.56 * float(r1['ideal_fct_ns']), (r1, r2)
    assert float(r2['slowdown']) < 1.15, r2
    assert 'planes' not in one
    p = two['planes']
    assert len(p) == 2
    # Round robin over two idle ports: the data splits evenly.
    assert abs(p[0]['nic_tx_bytes'] - p[1]['nic_tx_bytes']) < 0.02 * size, p
    assert sum(x['nic_tx_bytes'] for x in p) > size


def test_a_pinned_qp_keeps_one_plane(run_example, tmp_path):
    size = 2000000
    s, r = one_flow(run_example, tmp_path / 'qp', size, '--nic.Entropy=qp',
                    '--topology.planes=2')
    p = s['planes']
    data = max(x['nic_tx_bytes'] for x in p)
    acks = min(x['nic_tx_bytes'] for x in p)
    # Every data frame on one plane (ACKs, from the other QP, may take either).
    assert data > size and acks < 0.1 * size, p
    # One port's rate: about twice the two planes' ideal (which has the base RTT in it too).
    assert 1.8 < float(r['slowdown']) < 2.1, r


def test_a_failing_plane_loses_its_share_and_the_flows_finish(run_example, tmp_path):
    args = ['--topology.k=4', '--topology.planes=2', '--traffic.pattern=permutation',
            '--traffic.size=1000000', '--transport.recovery=irn', '--quiet'] + SPRAY
    ok = run_summary(run_example, tmp_path / 'ok', *args)
    cut = run_summary(run_example, tmp_path / 'cut', *args, '--topology.failPlanes=1@20us')
    assert cut['flows']['completed'] == ok['flows']['completed'] == 16
    p = cut['planes']
    # Plane 1 carried about 20 us of the run: far less than plane 0.
    assert p[1]['nic_tx_bytes'] < 0.5 * p[0]['nic_tx_bytes'], p
    okp = ok['planes']
    assert abs(okp[0]['nic_tx_bytes'] - okp[1]['nic_tx_bytes']) < 0.05 * okp[0]['nic_tx_bytes']
    # The NICs see their own ports go down: what is lost is what was on plane 1's wires.
    assert cut['recovery']['timeouts'] <= 16, cut['recovery']
    assert cut['sim_time_s'] > ok['sim_time_s']
    # The screen says it too: what the NICs sent on each plane.
    r = run_example('rdma-sim', *[a for a in args if a != '--quiet'],
                    '--topology.failPlanes=1@20us', '--output.dir=%s' % (tmp_path / 'screen'))
    assert r.returncode == 0, r.stderr
    assert 'planes: the NICs sent %.1f MB, %.1f MB on planes 0-1' % (
        p[0]['nic_tx_bytes'] / 1e6, p[1]['nic_tx_bytes'] / 1e6) in r.stdout, r.stdout


def test_a_qp_moves_off_a_plane_once_the_routes_converge(run_example, tmp_path):
    """Host 15's plane-1 link (15-43) fails: host 0's port on plane 1 stays
    up, so host 0 sends into it until the routes converge (5 us later), then
    sends on plane 0 only. Frames lost: about 5 us of one port's share, not
    half of everything after the failure."""
    size = 4000000
    s, r = one_flow(run_example, tmp_path / 'f', size, *SPRAY, '--topology.planes=2',
                    '--topology.failLinks=15-43@20us', '--topology.routeConvergence=5us')
    lost = s['drops'] - s['drops_where']['nics_to_gone_qps']
    # 5 us at 100 Gb/s is 61 frames of 1 KiB; frames on the wire and those
    # the edge switch held when the link went down add a few.
    assert 10 < lost < 150, s['drops_where']
    never, _ = one_flow(run_example, tmp_path / 'n', size, *SPRAY, '--topology.planes=2',
                        '--topology.failLinks=15-43@20us', '--topology.routeConvergence=10ms')
    # Without converged routes, plane 1 keeps taking half the frames into the cut.
    assert never['drops'] > 10 * lost, (never['drops_where'], s['drops_where'])


@pytest.mark.parametrize('args, key', [
    (['--topology.type=rail', '--traffic.pattern=collective', '--topology.planes=2'],
     'topology.planes'),
    (['--topology.planes=65'], 'topology.planes'),
    (['--topology.planes=0'], 'topology.planes'),
    (['--topology.planes=2', '--topology.failPlanes=2@1us'], 'topology.failPlanes'),
    (['--topology.failPlanes=1@1us'], 'topology.failPlanes'),
    (['--topology.planes=2', '--topology.failPlanes=1@1us,1@2us'], 'topology.failPlanes'),
])
def test_planes_a_fabric_cannot_carry_are_refused(run_example, tmp_path, args, key):
    out = tmp_path / 'bad'
    r = run_example('rdma-sim', '--topology.k=4', '--output.dir=%s' % out, *args)
    assert r.returncode == 2 and key in r.stderr, r.stderr
    assert not out.exists()


def test_an_hpcc_topology_file_has_one_plane(run_example, tmp_path):
    topo = tmp_path / 'topo.txt'
    topo.write_text('3 1 2\n2\n0 2 100Gbps 1us 0\n1 2 100Gbps 1us 0\n')
    out = tmp_path / 'bad'
    r = run_example('rdma-sim', '--topology.type=hpcc', '--topology.file=%s' % topo,
                    '--topology.planes=2', '--output.dir=%s' % out)
    assert r.returncode == 2 and 'topology.planes' in r.stderr and 'hpcc' in r.stderr, r.stderr
    assert not out.exists()
