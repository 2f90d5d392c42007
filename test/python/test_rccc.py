"""RCCC, UEC 1.0's receiver credit (cc.rccc.*): an incast sends its
speculative window, then only what the receiver's NIC grants at 0.99 of its
line rate; the wire carries the pull target in the BTH's reserved bits and
the credit in frames of BTH opcode 0xC0, which Wireshark decodes and scapy
checks (their ICRC)."""

import csv
import os
import shutil
import subprocess

import pytest

from conftest import run_summary, scapy_checked_roce_frames

# 7 senders of 1 MB into host 15 of a k=4 fat tree: PFC off, 4 KiB MTU,
# queues of one BDP, the data class trimmed, IRN, no sender CC.
INCAST = ('--topology.type=fat-tree', '--topology.k=4', '--traffic.pattern=incast',
          '--traffic.receiver=15',
          '--transport.pathMtu=4096', '--pfc.PfcEnabled=false', '--pfc.BufferSize=1000000000',
          '--link.queue.MaxBytes=178450', '--switch.trim.Classes=8',
          '--switch.trim.MaxBytes=356900', '--transport.recovery=irn',
          '--transport.irn.ReorderWindow=64', '--cc.algorithm=none', '--nic.AckPriority=7')


def last_end_us(out):
    with open(os.path.join(str(out), 'fct.csv')) as f:
        return max(int(r['start_ns']) + int(r['fct_ns']) for r in csv.DictReader(f)) / 1e3


def test_an_incast_on_credit_arrives_at_the_receivers_rate(run_example, tmp_path):
    seven = ('--traffic.fanIn=7', '--traffic.size=1000000', '--quiet')
    on = run_summary(run_example, tmp_path / 'on', *INCAST, *seven, '--cc.rccc.Enabled=true')
    off = run_summary(run_example, tmp_path / 'off', *INCAST, *seven)
    for s in (on, off):
        assert s['flows']['completed'] == 7 and s['drops'] == 0
    assert on['recovery']['timeouts'] == 0
    # Without credit the senders keep the receiver's queue full and are trimmed
    # throughout; with it only their speculative windows (1.5 BDPs each, 95
    # packets of 4,150 bytes for the 7) meet a full queue.
    assert on['trimming']['trimmed_frames'] < 7 * 1.5 * 175284 / 4150 - 178450 / 4150
    assert off['trimming']['trimmed_frames'] > 3 * on['trimming']['trimmed_frames']
    # Every credit frame sent arrives, for a QP or as slow credit after its
    # transfer was done and the QP gone (not a drop), or is on its way when
    # the last flow ends (one every 1.3 us, 5 us from the senders).
    c = on['rccc']
    arrived = c['credits_received'] + c['credits_to_gone_qps']
    assert c['credits_received'] > 0 and 0 <= c['credits_sent'] - arrived < 16
    assert 'rccc' not in off
    # 7 MB through one 100 Gb/s port: at least 560 us; granted at 0.99 of line
    # rate after the first round trip, the last flow ends within 5 % of it.
    ideal = 7 * 1000000 * 8 / 100e3
    assert ideal < last_end_us(tmp_path / 'on') < 1.05 * ideal / 0.99


def test_credit_frames_are_rocev2_that_wireshark_decodes(run_example, tmp_path):
    pytest.importorskip('scapy.contrib.roce')
    out = tmp_path / 'pcap'
    run_summary(run_example, out, *INCAST, '--cc.rccc.Enabled=true', '--traffic.fanIn=3',
                '--traffic.size=200000', '--output.pcapNodes=15', '--quiet')
    pcap = out / 'pcap' / 'node-15-0.pcap'
    assert scapy_checked_roce_frames(pcap) > 0
    tshark = shutil.which('tshark')
    assert tshark, 'tshark is not installed (scripts/install-deps.sh installs it)'

    def fields(flt, *names):
        r = subprocess.run([tshark, '-r', str(pcap), '-Y', flt, '-T', 'fields']
                           + [a for n in names for a in ('-e', n)],
                           capture_output=True, text=True, check=True)
        return [line.split('\t') for line in r.stdout.splitlines()]

    # Credit frames: opcode 0xC0, to the senders, the cumulative pull in the PSN.
    credits = fields('infiniband.bth.opcode == 192', 'ip.dst', 'infiniband.bth.psn')
    assert credits and {d for d, _ in credits} <= {'10.0.0.%d' % h for h in range(1, 17)}
    assert '10.0.0.16' not in {d for d, _ in credits}
    for dst in {d for d, _ in credits}:
        pulls = [int(p) for d, p in credits if d == dst]
        assert pulls == sorted(pulls), 'cumulative'
    # Requests carry their pull target in the BTH's reserved bits.
    targets = fields('infiniband.bth.opcode == 6', 'infiniband.bth.reserved7')
    assert targets and any(int(t[0]) > 0 for t in targets)
    assert not fields('_ws.malformed', 'frame.number')


@pytest.mark.parametrize('args, key', [
    (['--cc.rccc.PullRate=0'], 'cc.rccc.PullRate'),
    (['--cc.rccc.PullRate=1.5'], 'cc.rccc.PullRate'),
    (['--cc.rccc.CreditPerPull=100'], 'cc.rccc.CreditPerPull'),
])
def test_bad_rccc_values_exit_2_naming_the_key(run_example, tmp_path, args, key):
    out = tmp_path / 'out'
    r = run_example('rdma-sim', *INCAST, '--cc.rccc.Enabled=true', *args,
                    '--output.dir=%s' % out)
    assert r.returncode == 2 and key in r.stderr, r.stderr
    assert not out.exists()


def test_rccc_settings_without_rccc_are_named_unused(run_example, tmp_path):
    """RCCC's settings in a run without it, and its rate control's floor
    without the rate control, are named unused (nothing silently ignored)."""
    base = ['--topology.type=star', '--topology.hosts=2', '--traffic.pattern=incast',
            '--traffic.fanIn=1', '--traffic.size=10000', '--quiet']
    r = run_example('rdma-sim', *base, '--cc.rccc.OversubscribedCc=true',
                    '--output.dir=%s' % (tmp_path / 'a'))
    assert r.returncode == 0, r.stderr
    assert ('cc.rccc.OversubscribedCc = true is not used: cc.rccc.Enabled = false'
            in r.stderr), r.stderr
    r = run_example('rdma-sim', *base, '--cc.rccc.Enabled=true',
                    '--cc.rccc.OversubscribedMinRate=0.2', '--output.dir=%s' % (tmp_path / 'b'))
    assert r.returncode == 0, r.stderr
    assert ('cc.rccc.OversubscribedMinRate = 0.2 is not used: cc.rccc.OversubscribedCc = false'
            in r.stderr), r.stderr
