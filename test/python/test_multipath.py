"""Many paths on plain ECMP switches: with nic.Entropy = packet every frame
of a QP carries a new RoCEv2 UDP source port, which the switches' per-flow
ECMP hash (addresses, protocol and both UDP ports) sends down any of the
k=4 fat tree's paths, so one QP's packets arrive out of order with no loss
at all. Go-back-N (IBA 9.7.5.1.2) takes each gap for a loss and resends;
selective repeat with a reorder window above the reordering resends nothing;
with nic.Entropy = qp nothing is out of order. A 16-host permutation of
200 kB WRITEs: about a second per run."""

import json
import os
import shutil
import subprocess

import pytest

BASE = ['--topology.type=fat-tree', '--topology.k=4', '--traffic.pattern=permutation',
        '--traffic.size=200000']


@pytest.fixture(scope='module')
def runs(run_example, tmp_path_factory):
    """summary.json of each (entropy, recovery, reorder window) run."""
    cache = {}

    def run(entropy, recovery, window=None, coalescing=None):
        key = (entropy, recovery, window, coalescing)
        if key not in cache:
            out = tmp_path_factory.mktemp('multipath') / 'out'
            args = BASE + ['--nic.Entropy=%s' % entropy, '--transport.recovery=%s' % recovery,
                           '--output.dir=%s' % out]
            if window is not None:
                args.append('--transport.irn.ReorderWindow=%d' % window)
            if coalescing is not None:
                args.append('--transport.irn.SackCoalescing=%d' % coalescing)
            r = run_example('rdma-sim', '-q', *args)
            assert r.returncode == 0, r.stderr
            with open(out / 'summary.json') as f:
                cache[key] = json.load(f)
        return cache[key]

    return run


def check_lossless(s, resent=False):
    """Every flow done, no timeout, and nothing dropped but, when something
    was resent, the copies and their ACKs still in flight when their QP pair
    was destroyed at the flow's completion (RdmaNic's DROP_UNKNOWN_QP): the
    fabric lost nothing (PFC, and no pause was needed)."""
    assert s['flows']['completed'] == s['flows']['total'] == 16
    assert s['recovery']['timeouts'] == 0
    assert s['pfc']['pause_frames'] == 0
    if not resent:
        assert s['drops'] == 0


@pytest.mark.parametrize('recovery', ['go-back-n', 'irn'])
def test_one_port_per_qp_keeps_order(runs, recovery):
    s = runs('qp', recovery)
    check_lossless(s)
    r = s['reordering']
    assert r['entropy'] == 'qp'
    assert r['out_of_order_arrivals'] == 0 and r['late_packets'] == 0
    assert r['retransmitted_packets'] == 0 and r['spurious_retransmissions'] == 0


def test_spraying_makes_go_back_n_resend(runs):
    s = runs('packet', 'go-back-n')
    check_lossless(s, resent=True)
    r = s['reordering']
    assert r['out_of_order_arrivals'] > 0 and r['late_packets'] > 0
    assert r['retransmitted_packets'] > 0
    # Nothing was lost: the copies that reached the responder had arrived before.
    assert r['spurious_retransmissions'] > 0
    assert r['spurious_retransmissions'] <= r['retransmitted_packets']
    assert sum(r['depth_packets']['histogram'].values()) == r['late_packets']
    assert sum(r['depth_us']['histogram'].values()) == r['late_packets']


def test_irn_first_gap_rule_resends_too(runs):
    """IRN's own rule (ReorderWindow 1, the default) takes the first gap for a loss."""
    s = runs('packet', 'irn')
    check_lossless(s, resent=True)
    r = s['reordering']
    assert r['out_of_order_arrivals'] > 0
    assert r['retransmitted_packets'] > 0


def test_irn_reorder_window_resends_nothing(runs):
    s = runs('packet', 'irn', 64)
    check_lossless(s)
    r = s['reordering']
    assert r['out_of_order_arrivals'] > 0 and r['late_packets'] > 0
    # The window is above every depth the responder saw...
    depths = r['depth_packets']['histogram']
    assert depths['65+'] == 0
    # ... so no gap was taken for a loss.
    assert r['retransmitted_packets'] == 0
    assert r['spurious_retransmissions'] == 0


def test_sack_coalescing_reports_sprayed_arrivals_in_fewer_sacks(runs):
    """transport.irn.SackCoalescing = 8: one SACK (with a bitmap) per 8
    out-of-order arrivals or SackDelay, instead of one each; every flow still
    finishes, nothing is taken for a loss, and fewer frames cross the fabric."""
    per_packet = runs('packet', 'irn', 64)
    s = runs('packet', 'irn', 64, 8)
    check_lossless(s)
    r = s['reordering']
    assert r['out_of_order_arrivals'] > 0
    assert r['retransmitted_packets'] == 0
    assert r['spurious_retransmissions'] == 0
    # IRN's responder: a SACK per out-of-order arrival.
    assert per_packet['recovery']['sequence_naks'] == per_packet['reordering']['out_of_order_arrivals']
    # Coalesced: each out-of-order arrival and each filled gap (a late
    # packet) is one thing to report, one SACK per 8 of them, plus the
    # SackDelay flushes; a fifth of IRN's count at most.
    naks = s['recovery']['sequence_naks']
    assert 0 < naks <= (r['out_of_order_arrivals'] + r['late_packets']) / 8 + 16
    assert naks < per_packet['recovery']['sequence_naks'] / 5
    assert s['link_transmissions'] < per_packet['link_transmissions']


def test_coalesced_sacks_decode_in_tshark(run_example, tmp_path):
    """A coalesced SACK is an RC ACKNOWLEDGE (sequence NAK) with 8 bytes of
    bitmap after its AETH: tshark decodes its BTH and AETH, calls no frame
    malformed, and the SACKs are the 62-byte ACK plus the 8 bytes."""
    tshark = shutil.which('tshark')
    assert tshark, 'tshark is not installed (scripts/install-deps.sh installs it)'
    out = tmp_path / 'out'
    r = run_example('rdma-sim', '-q', *BASE, '--nic.Entropy=packet', '--transport.recovery=irn',
                    '--transport.irn.ReorderWindow=64', '--transport.irn.SackCoalescing=8',
                    '--output.pcapNodes=0', '--output.dir=%s' % out)
    assert r.returncode == 0, r.stderr
    rows = subprocess.run(
        [tshark, '-r', str(out / 'pcap' / 'node-0-0.pcap'), '-T', 'fields', '-E',
         'separator=\t', '-e', 'infiniband.bth.opcode', '-e', 'infiniband.aeth.syndrome',
         '-e', 'infiniband.bth.psn', '-e', 'infiniband.aeth.msn', '-e', 'frame.len',
         '-e', '_ws.malformed'],
        capture_output=True, text=True, check=True).stdout.splitlines()
    rows = [line.split('\t') for line in rows]
    assert all(row[0] != '' for row in rows), 'a frame tshark does not read as InfiniBand'
    assert all(row[5] == '' for row in rows), 'tshark reports a malformed frame'
    sacks = [row for row in rows if row[0] == '17' and int(row[1]) == 0x60]
    assert sacks, 'host 0 received coalesced SACKs'
    for row in sacks:
        assert int(row[4]) == 62 + 8
        assert int(row[3]) > int(row[2]), 'the MSN is an out-of-order PSN past the ACK point'
    acks = [row for row in rows if row[0] == '17' and int(row[1]) != 0x60]
    assert acks and all(int(row[4]) == 62 for row in acks)


def test_flowlets_finish(runs):
    s = runs('flowlet', 'irn', 64)
    check_lossless(s)
    assert s['reordering']['entropy'] == 'flowlet'


def test_same_seed_same_spray(run_example, tmp_path):
    """The ports come from each NIC's own stream of the run's seed."""
    outs = []
    for name in ('a', 'b'):
        out = tmp_path / name
        r = run_example('rdma-sim', '-q', *BASE, '--nic.Entropy=packet',
                        '--transport.recovery=irn', '--output.dir=%s' % out)
        assert r.returncode == 0, r.stderr
        outs.append(out)
    for f in ('fct.csv', 'pfc.csv'):
        assert (outs[0] / f).read_bytes() == (outs[1] / f).read_bytes(), f
    a, b = (json.loads((o / 'summary.json').read_text())['reordering'] for o in outs)
    assert a == b


def test_qpc_entry_grows_with_the_window(run_example, tmp_path):
    """With the NIC pipeline, IRN's bitmaps count in each QPC entry's bytes."""
    sizes = {}
    for recovery in ('go-back-n', 'irn'):
        out = tmp_path / recovery
        r = run_example('rdma-sim', '-q', '--topology.type=star', '--topology.hosts=2',
                        '--traffic.pattern=permutation', '--traffic.size=10000',
                        '--nic.pipeline=true', '--transport.recovery=%s' % recovery,
                        '--transport.irn.BdpBytes=128KiB', '--output.dir=%s' % out)
        assert r.returncode == 0, r.stderr
        sizes[recovery] = json.loads((out / 'summary.json').read_text())['reordering'][
            'qpc_entry_bytes']
    # 128 KiB at a 1 KiB MTU: two bitmaps of 128 bits, 32 bytes.
    assert sizes == {'go-back-n': 256, 'irn': 256 + 32}


@pytest.mark.parametrize('recovery', ['go-back-n', 'irn'])
def test_every_resend_under_spraying_is_classified(runs, recovery):
    """With no frame lost, each resend makes one copy too many (itself or the
    original it overtook): it reaches a responder that had the PSN
    (spurious), or a QP already gone, or is on its way when the last flow
    ends; the three add up to the resends (summary.json reordering.resent)."""
    s = runs('packet', recovery)
    check_lossless(s, resent=True)
    r = s['reordering']['resent']
    assert r['lost_in_fabric'] == 0
    assert r['packets'] == s['recovery']['retransmissions'] > 0
    assert r['spurious'] + r['after_qp_gone'] + r['in_flight_or_replacing_losses'] == r['packets']
    assert min(r['spurious'], r['after_qp_gone'], r['in_flight_or_replacing_losses']) >= 0
    # A copy after its QP was gone is a request with data: no more of them
    # than the drops at gone QPs (which count ACKs too).
    assert r['after_qp_gone'] <= s['drops_where']['nics_to_gone_qps']


def test_data_placed_counts_each_psn_once(runs):
    """Regression: the progress line took every copy handed to a QP for data
    delivered (100 % while 15 of 16 flows ran on under spraying with
    go-back-N). data_packets_placed counts each PSN's payload once: the
    flows' packets exactly, 16 x ceil(200000 / 1024), however many copies
    arrived (data_packets_delivered)."""
    packets = 16 * -(-200000 // 1024)
    for entropy, recovery in (('qp', 'go-back-n'), ('packet', 'go-back-n'), ('packet', 'irn')):
        s = runs(entropy, recovery)
        assert s['data_packets_placed'] == packets, (entropy, recovery)
    assert runs('packet', 'go-back-n')['data_packets_delivered'] > packets
