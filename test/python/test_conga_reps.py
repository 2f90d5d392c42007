"""CONGA (switch.LoadBalancing = Conga; Alizadeh et al., SIGCOMM'14) and REPS
(nic.Entropy = reps; Bonato et al., arXiv:2407.21625) on whole fabrics."""

import collections
import ipaddress

import pytest

from conftest import run_summary

# Two leaves (nodes 8, 9), two spines (10, 11), four hosts under each leaf.
# Spine 10's link down to leaf 9 runs at 10 Gb/s, every other at 100 Gb/s:
# the path leaf 8 -> spine 10 -> leaf 9 is congested downstream of leaf 8,
# where only CONGA's fed-back metric can see it (leaf 8's own uplinks both
# run at 100 Gb/s).
TOPOLOGY = """12 4 12
8 9 10 11
0 8 100Gbps 0.001ms 0
1 8 100Gbps 0.001ms 0
2 8 100Gbps 0.001ms 0
3 8 100Gbps 0.001ms 0
4 9 100Gbps 0.001ms 0
5 9 100Gbps 0.001ms 0
6 9 100Gbps 0.001ms 0
7 9 100Gbps 0.001ms 0
8 10 100Gbps 0.001ms 0
8 11 100Gbps 0.001ms 0
9 10 10Gbps 0.001ms 0
9 11 100Gbps 0.001ms 0
"""


def write_inputs(folder, flows=64, size=200000, gap_us=40):
    """The topology, and `flows` flows of `size` bytes from leaf 8's hosts
    to leaf 9's, one every gap_us: each on a QP of its own (a new flowlet)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / 'topo.txt').write_text(TOPOLOGY)
    lines = ['%d' % flows]
    for i in range(flows):
        lines.append('%d %d 3 100 %d %.9f' % (i % 4, 4 + (i * 3) % 4, size, 2e-3 + i * gap_us * 1e-6))
    (folder / 'flows.txt').write_text('\n'.join(lines) + '\n')
    return ('--topology.type=hpcc', '--topology.file=%s' % (folder / 'topo.txt'),
            '--traffic.pattern=flow-file', '--traffic.flowFile=%s' % (folder / 'flows.txt'),
            '--quiet')


def uplink_bytes(out):
    """Bytes of the frames from leaf 8's hosts on each uplink of leaf 8 (its
    ports 4 and 5, toward spines 10 and 11), from its captures. Hosts 0-3
    are 10.0.0.1-4 (RdmaTopologyHelper: base address + host index)."""
    from scapy.utils import RawPcapReader
    hosts_a = {ipaddress.ip_address(a).packed for a in range(0x0A000001, 0x0A000005)}
    sent = collections.Counter()
    for port, spine in ((4, 10), (5, 11)):
        for frame, _ in RawPcapReader(str(out / 'pcap' / ('node-8-%d.pcap' % port))):
            ip = 18 if frame[12:14] == b'\x81\x00' else 14  # after an 802.1Q tag, if any
            if frame[ip - 2:ip] == b'\x08\x00' and frame[ip + 12:ip + 16] in hosts_a:
                sent[spine] += len(frame)
    return sent


def test_conga_moves_new_flowlets_off_the_congested_spine(run_example, tmp_path):
    """ECMP hashes half the flows onto spine 10, whose 10 Gb/s link to leaf 9
    it cannot see; CONGA's feedback (CE from spine 10's DRE, carried back by
    leaf 9 on the ACKs) steers new flowlets to spine 11."""
    args = write_inputs(tmp_path / 'in')
    got = {}
    for policy in ('Ecmp', 'Conga'):
        out = tmp_path / policy
        s = run_summary(run_example, out, *args, '--switch.LoadBalancing=%s' % policy,
                        '--output.pcapNodes=8')
        assert s['flows']['completed'] == s['flows']['total'] == 64
        got[policy] = uplink_bytes(out)
    ecmp = got['Ecmp'][10] / (got['Ecmp'][10] + got['Ecmp'][11])
    conga = got['Conga'][10] / (got['Conga'][10] + got['Conga'][11])
    assert 0.3 < ecmp < 0.7, got   # ECMP: about half, whatever the congestion
    assert conga < 0.2, got        # CONGA: most of it off the congested spine


@pytest.mark.parametrize('args, message', [
    (('--topology.type=fat-tree', '--topology.k=4'), 'joins two spines'),
    # Nodes named as nodes.csv names them (regression: "nodes 24 and 28").
    (('--topology.type=fat-tree', '--topology.k=4'), 'between agg0 (node 24) and core0 (node 32)'),
    (('--topology.type=star', '--topology.hosts=4'), 'has no link to a spine'),
    (('--topology.type=star', '--topology.hosts=4'), 'leaf switch switch0 (node 4)'),
    (('--topology.type=leaf-spine', '--switch.conga.FlowletTimeout=0s'),
     'switch.conga.FlowletTimeout'),
])
def test_conga_bad_input_exits_2_naming_the_key(run_example, tmp_path, args, message):
    out = tmp_path / 'out'
    r = run_example('rdma-sim', '--traffic.pattern=permutation', '--traffic.size=10000',
                    '--switch.LoadBalancing=Conga', '--output.dir=%s' % out, *args)
    assert r.returncode == 2, r.stderr
    assert message in r.stderr
    if 'FlowletTimeout' not in message:
        assert 'switch.LoadBalancing = Conga' in r.stderr
    assert not out.exists()


def request_ports(pcap):
    """The UDP source ports of the requests host 0 (10.0.0.1) sent, in order
    (its RC ACKs, opcode 0x11, left out)."""
    from scapy.utils import RawPcapReader
    ports = []
    for frame, _ in RawPcapReader(str(pcap)):
        ip = 18 if frame[12:14] == b'\x81\x00' else 14
        if frame[ip - 2:ip] != b'\x08\x00' or frame[ip + 12:ip + 16] != bytes([10, 0, 0, 1]):
            continue
        udp = ip + (frame[ip] & 15) * 4
        if frame[udp + 8] != 0x11:
            ports.append(int.from_bytes(frame[udp:udp + 2], 'big'))
    return ports


def test_reps_on_a_k4_fat_tree_reuses_entropies_and_completes(run_example, tmp_path):
    """A 16-host permutation of 200 kB over a k=4 fat tree with IRN: with
    nic.Entropy = packet nearly every request of host 0 has a port of its own
    (fresh draws from 16,384 ports); with reps the ports its ACKs and SACKs
    brought back (no ECN here) are sent again, so far fewer are distinct;
    every flow completes."""
    distinct = {}
    for entropy in ('packet', 'reps'):
        out = tmp_path / entropy
        s = run_summary(run_example, out, '--topology.type=fat-tree', '--topology.k=4',
                        '--traffic.pattern=permutation', '--traffic.size=200000',
                        '--transport.recovery=irn', '--nic.Entropy=%s' % entropy,
                        '--output.pcapNodes=0', '--quiet')
        assert s['flows']['completed'] == s['flows']['total'] == 16
        assert s['config']['nic.Entropy'] == entropy
        ports = request_ports(out / 'pcap' / 'node-0-0.pcap')
        assert len(ports) >= 196  # 200 kB at a 1 KiB MTU, and any resends
        distinct[entropy] = len(set(ports)) / len(ports)
    assert distinct['packet'] > 0.9, distinct
    assert distinct['reps'] < 0.8, distinct
