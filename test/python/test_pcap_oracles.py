"""System test: the frames the module writes are what real tools read.

rdma-wire-example writes an RC conversation covering every RC opcode the
module implements, a CNP and PFC pause/resume frames to a pcap (Ethernet link
type), with a manifest of the fields it put in each frame. Two decoders that
are not ours read the pcap:

- tshark (Wireshark 4.0) must decode every RoCE frame as InfiniBand with the
  manifest's opcode, QPN, PSN, AckReq, PadCnt, RETH/AETH/ImmDt/IETH/atomic
  fields and ICRC bytes, and every PFC frame as a class-based pause;
- scapy's contrib.roce must recompute every ICRC equal to the one on the wire
  (scapy 2.5 computes the RoCEv2 ICRC over IPv4 only; the IPv6 ICRC is checked
  against test vector TV12 by the rdma-wire-vectors suite).

Run: /usr/bin/python3 -m pytest test/python/test_pcap_oracles.py
"""

import csv
import shutil
import subprocess

import pytest

# Opcodes the module implements (IBA Vol 1 Table 38, RC) and the RoCEv2 CNP.
RC_OPCODES = set(range(0x00, 0x15)) | {0x16, 0x17}
CNP = 0x81

TSHARK_FIELDS = [
    'frame.number', 'infiniband.bth.opcode', 'infiniband.bth.destqp', 'infiniband.bth.psn',
    'infiniband.bth.a', 'infiniband.bth.padcnt', 'infiniband.bth.se', 'infiniband.reserved',
    'ip.dsfield.ecn', 'ipv6.tclass.ecn', 'vlan.priority', 'udp.srcport', 'udp.dstport',
    'udp.length', 'infiniband.reth.va', 'infiniband.reth.r_key', 'infiniband.reth.dmalen',
    'infiniband.aeth.syndrome', 'infiniband.aeth.msn', 'infiniband.immdt', 'infiniband.ieth',
    'infiniband.atomiceth.swapdt', 'infiniband.atomiceth.cmpdt',
    'infiniband.atomicacketh.origremdt', 'infiniband.invariant.crc', 'macc.opcode',
    'macc.cbfc.enbv', 'macc.cbfc.pause_time.c3', '_ws.malformed',
]

# Extension header bytes after the BTH, by opcode (IBA Table 38).
EXT_BYTES = {0x03: 4, 0x05: 4, 0x06: 16, 0x09: 4, 0x0A: 16, 0x0B: 20, 0x0C: 16, 0x0D: 4,
             0x0F: 4, 0x10: 4, 0x11: 4, 0x12: 12, 0x13: 28, 0x14: 28, 0x16: 4, 0x17: 4,
             CNP: 16}


def _tshark_rows(pcap):
    tshark = shutil.which('tshark')
    assert tshark, 'tshark is not installed (scripts/install-deps.sh installs it)'
    cmd = [tshark, '-r', pcap, '-T', 'fields', '-E', 'header=y', '-E', 'separator=\t',
           '-E', 'occurrence=f']
    for f in TSHARK_FIELDS:
        cmd += ['-e', f]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    rows = list(csv.DictReader(out.splitlines(), delimiter='\t'))
    return {int(r['frame.number']): r for r in rows}


def _manifest(path):
    with open(path) as f:
        return list(csv.DictReader(f, delimiter='\t'))


def _num(text, field=''):
    """tshark prints numbers in decimal or 0x hex depending on the field, and
    byte fields (ImmDt, IETH) as bare hex."""
    if field in BYTE_FIELDS:
        return int(text.replace(':', ''), 16)
    return int(text, 0)


BYTE_FIELDS = {'infiniband.immdt', 'infiniband.ieth', 'infiniband.reserved'}


@pytest.fixture(scope='module', params=['ipv4', 'ipv6-vlan'])
def capture(request, run_example, tmp_path_factory):
    d = tmp_path_factory.mktemp(request.param)
    pcap, manifest = str(d / 'wire.pcap'), str(d / 'wire.tsv')
    args = ['--pcap=' + pcap, '--manifest=' + manifest]
    if request.param == 'ipv6-vlan':
        args += ['--ipv6', '--vlan']
    res = run_example('rdma-wire-example', *args)
    assert res.returncode == 0, res.stderr
    assert 'parse-back mismatches: 0' in res.stdout
    return request.param, pcap, _manifest(manifest)


def test_every_opcode_is_present(capture):
    _, _, manifest = capture
    opcodes = {int(m['opcode']) for m in manifest if m['kind'] == 'roce'}
    assert opcodes == RC_OPCODES | {CNP}
    assert sum(m['kind'] == 'pfc' for m in manifest) == 2


def test_tshark_decodes_every_roce_frame(capture):
    variant, pcap, manifest = capture
    rows = _tshark_rows(pcap)
    assert len(rows) == len(manifest)
    for m in manifest:
        if m['kind'] != 'roce':
            continue
        n = int(m['frame'])
        r = rows[n]
        where = 'frame %d (opcode %s)' % (n, m['opcode'])
        assert r['_ws.malformed'] == '', where + ': tshark reports a malformed packet'
        assert _num(r['udp.dstport']) == 4791, where
        assert _num(r['udp.srcport']) == int(m['udp_sport']), where
        assert _num(r['infiniband.bth.opcode']) == int(m['opcode']), where
        assert _num(r['infiniband.bth.destqp']) == int(m['destqp']), where
        assert _num(r['infiniband.bth.psn']) == int(m['psn']), where
        op = int(m['opcode'])
        if op == CNP:
            # tshark 4.0 has no CNP dissector: BTH byte 4 is 'reserved', BECN = 0x40.
            assert _num(r['infiniband.reserved'], 'infiniband.reserved') & 0x40, where + ': BECN'
        else:
            assert (r['infiniband.bth.a'] in ('1', 'True')) == (m['ackreq'] == '1'), where
            assert _num(r['infiniband.bth.padcnt']) == int(m['padcnt']), where
            # ICRC: tshark shows the 4 wire bytes read big-endian; the manifest
            # has the CRC value, sent least significant byte first.
            icrc = int(m['icrc'])
            assert _num(r['infiniband.invariant.crc']) == int.from_bytes(
                icrc.to_bytes(4, 'little'), 'big'), where + ': ICRC'
        # Payload length from the UDP length: UDP 8, BTH 12, ext, pad, ICRC 4.
        payload = _num(r['udp.length']) - 8 - 12 - EXT_BYTES.get(op, 0) - int(m['padcnt']) - 4
        assert payload == int(m['payload']), where + ': payload bytes'
        # tshark 4.0 shows the AtomicETH VA and R_Key in the RETH's fields.
        atomic = op in (0x13, 0x14)
        for field, col in [('infiniband.reth.va', 'atomic_va' if atomic else 'reth_va'),
                           ('infiniband.reth.r_key', 'atomic_rkey' if atomic else 'reth_rkey'),
                           ('infiniband.reth.dmalen', 'reth_dmalen'),
                           ('infiniband.aeth.syndrome', 'aeth_syndrome'),
                           ('infiniband.aeth.msn', 'aeth_msn'), ('infiniband.immdt', 'immdt'),
                           ('infiniband.ieth', 'ieth_rkey'),
                           ('infiniband.atomiceth.swapdt', 'atomic_swap'),
                           ('infiniband.atomiceth.cmpdt', 'atomic_cmp'),
                           ('infiniband.atomicacketh.origremdt', 'atomic_orig')]:
            if m[col] == '':
                assert r[field] == '', '%s: unexpected %s' % (where, field)
            else:
                assert r[field] != '', '%s: tshark shows no %s' % (where, field)
                assert _num(r[field], field) == int(m[col]), '%s: %s' % (where, field)
        ecn = r['ipv6.tclass.ecn'] if variant == 'ipv6-vlan' else r['ip.dsfield.ecn']
        assert _num(ecn) == int(m['ecn']), where + ': ECN'
        if variant == 'ipv6-vlan':
            assert _num(r['vlan.priority']) == int(m['pcp']), where + ': PCP'


def test_tshark_decodes_pfc(capture):
    _, pcap, manifest = capture
    rows = _tshark_rows(pcap)
    pfc = [m for m in manifest if m['kind'] == 'pfc']
    for m in pfc:
        r = rows[int(m['frame'])]
        assert _num(r['macc.opcode']) == 0x0101, 'PFC opcode'
        assert _num(r['macc.cbfc.enbv']) == int(m['pfc_cev'])
        assert _num(r['macc.cbfc.pause_time.c3']) == int(m['pfc_time3'])
    assert [int(m['pfc_time3']) for m in pfc] == [65535, 0]  # pause, then XON


def test_scapy_recomputes_every_icrc(capture):
    variant, pcap, manifest = capture
    if variant != 'ipv4':
        pytest.skip('scapy 2.5 (Debian 12) computes the RoCEv2 ICRC over IPv4 only')
    from scapy.all import Ether, raw, rdpcap
    from scapy.contrib.roce import BTH
    frames = rdpcap(pcap)
    checked = 0
    for n, frame in enumerate(frames, start=1):
        wire = raw(frame)
        pkt = Ether(wire)
        if BTH not in pkt:
            continue
        pkt[BTH].icrc = None  # scapy computes it afresh when building
        rebuilt = raw(pkt)
        assert len(rebuilt) == len(wire), 'frame %d' % n
        assert rebuilt[-4:] == wire[-4:], 'frame %d: scapy ICRC %s, ours %s' % (
            n, rebuilt[-4:].hex(), wire[-4:].hex())
        checked += 1
    assert checked == sum(m['kind'] == 'roce' for m in manifest)


def test_scapy_rejects_a_corrupted_icrc(capture, tmp_path):
    """The scapy check can fail: flip one payload bit and the ICRCs differ."""
    variant, pcap, _ = capture
    if variant != 'ipv4':
        pytest.skip('scapy 2.5 computes the ICRC over IPv4 only')
    from scapy.all import Ether, raw, rdpcap
    from scapy.contrib.roce import BTH
    wire = bytearray(raw(rdpcap(pcap)[0]))
    wire[60] ^= 0x01
    pkt = Ether(bytes(wire))
    pkt[BTH].icrc = None
    assert raw(pkt)[-4:] != bytes(wire[-4:])
