"""System test: the PFC frames a simulated port sends are what tshark reads.

rdma-pfc-link streams RDMA WRITEs from host A to host B over 100 Gb/s with a
1 us cable; B's port pauses class 5 once (1234 quanta, XON 3 us later) and
holds A's class 3 (the WRITEs, DSCP 26) paused from 20 us to 60 us with
2000-quanta pauses refreshed 2 us before they expire. It writes a pcap of
each port and a manifest of every PFC class entry it sent (PfcPauseTx).
tshark (not our code) must find in the pcaps:

- in B's pcap, one 60-byte MAC Control frame to 01-80-C2-00-00-01 per
  manifest time, decoded as a CBFC pause (opcode 0x0101) whose class-enable
  vector and eight pause times are the manifest's, stamped when its first
  bit left;
- in A's pcap, the same frames one PFC wire time (84 bytes, 6.72 ns) plus
  the cable delay later;
- class-3 pauses spaced by 2000 x 512 bit / 100 Gb/s - 2 us = 8.24 us;
- no frame from A starting while its class 3 is paused (between the arrival
  of the first pause and of the XON), and A's next frame starting when the
  XON arrives.

Run: /usr/bin/python3 -m pytest test/python/test_pfc_pcap.py
"""

import csv
import shutil
import subprocess
from decimal import Decimal

import pytest

RATE = 100e9
DELAY_NS = 1000
PFC_WIRE_NS = (60 + 24) * 8 / RATE * 1e9  # 6.72 ns
QUANTA = 2000
MARGIN_NS = 2000
FIELDS = ['frame.time_epoch', 'eth.src', 'eth.dst', 'eth.type', 'frame.len', 'macc.opcode',
          'macc.cbfc.enbv'] + ['macc.cbfc.pause_time.c%d' % c for c in range(8)] + \
         ['ip.src', '_ws.malformed']


@pytest.fixture(scope='module')
def run(run_example, tmp_path_factory):
    d = tmp_path_factory.mktemp('pfc')
    res = run_example('rdma-pfc-link', '--pcap=' + str(d / 'pfc'),
                      '--manifest=' + str(d / 'pfc.tsv'), '--quanta=%d' % QUANTA,
                      '--margin=%dns' % MARGIN_NS)
    assert res.returncode == 0, res.stdout + res.stderr
    with open(d / 'pfc.tsv') as f:
        manifest = list(csv.DictReader(f, delimiter='\t'))
    return {'a': str(d / 'pfc-0-0.pcap'), 'b': str(d / 'pfc-1-0.pcap'), 'manifest': manifest}


def _rows(pcap, display_filter):
    tshark = shutil.which('tshark')
    assert tshark, 'tshark is not installed (scripts/install-deps.sh installs it)'
    cmd = [tshark, '-r', pcap, '-Y', display_filter, '-T', 'fields', '-E', 'header=y',
           '-E', 'separator=\t', '-E', 'occurrence=f']
    for f in FIELDS:
        cmd += ['-e', f]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    rows = list(csv.DictReader(out.splitlines(), delimiter='\t'))
    for r in rows:
        r['ns'] = Decimal(r['frame.time_epoch']) * 10**9
    return rows


def _frames(manifest):
    """Manifest entries of node 1 grouped into frames: (time ns, {class: quanta})."""
    frames = {}
    for m in manifest:
        if m['node'] == '1':
            frames.setdefault(int(m['time_ps']), {})[int(m['class'])] = int(m['quanta'])
    return [(Decimal(t) / 1000, classes) for t, classes in sorted(frames.items())]


def test_manifest_has_the_scenario(run):
    frames = _frames(run['manifest'])
    c3 = [cl[3] for _, cl in frames if 3 in cl]
    c5 = [cl[5] for _, cl in frames if 5 in cl]
    assert c5 == [1234, 0]
    # Held 40 us at 8.24 us per refresh: the hold, 4 refreshes, then XON.
    assert c3 == [QUANTA] * 5 + [0]


def test_tshark_decodes_sent_pfc_frames(run):
    frames = _frames(run['manifest'])
    rows = _rows(run['b'], 'macc.opcode==0x0101')
    assert len(rows) == len(frames)
    for r, (t, classes) in zip(rows, frames):
        assert r['_ws.malformed'] == ''
        assert r['eth.dst'] == '01:80:c2:00:00:01'
        assert int(r['eth.type'], 0) == 0x8808
        assert int(r['frame.len']) == 60
        assert int(r['macc.opcode'], 0) == 0x0101
        assert int(r['macc.cbfc.enbv'], 0) == sum(1 << c for c in classes)
        for c in range(8):
            assert int(r['macc.cbfc.pause_time.c%d' % c]) == classes.get(c, 0), (c, r)
        # Stamped when its first bit left (nanosecond pcap: within 1 ns).
        assert abs(r['ns'] - t) < 1, (r['ns'], t)


def test_pfc_frames_arrive_after_wire_time_and_delay(run):
    frames = _frames(run['manifest'])
    rows = _rows(run['a'], 'macc.opcode==0x0101')
    assert len(rows) == len(frames)
    for r, (t, classes) in zip(rows, frames):
        assert int(r['macc.cbfc.enbv'], 0) == sum(1 << c for c in classes)
        expect = t + Decimal(PFC_WIRE_NS) + DELAY_NS
        assert abs(r['ns'] - expect) < 1, (r['ns'], expect)


def test_refresh_spacing(run):
    pauses = [t for t, cl in _frames(run['manifest']) if cl.get(3)]
    interval = Decimal(QUANTA * 512 / RATE * 1e9 - MARGIN_NS)  # 8240 ns
    # A refresh may wait behind one frame B is sending (an ACK: < 10 ns).
    for prev, cur in zip(pauses, pauses[1:]):
        assert interval <= cur - prev <= interval + 10, (prev, cur)


def test_no_data_from_a_while_paused(run):
    rows = _rows(run['a'], 'macc.opcode==0x0101')
    c3 = [r for r in rows if int(r['macc.cbfc.enbv'], 0) & 0x08]
    paused_at = c3[0]['ns']
    xon_at = c3[-1]['ns']
    assert int(c3[-1]['macc.cbfc.pause_time.c3']) == 0
    data = [r['ns'] for r in _rows(run['a'], 'ip.src==10.0.0.1')]
    assert data, 'no frames from A'
    during = [t for t in data if paused_at < t < xon_at]
    assert during == [], 'A started frames while paused: %s' % during[:5]
    after = [t for t in data if t >= xon_at]
    assert after and after[0] - xon_at < 1, 'A resumes when the XON arrives'
    assert any(t < paused_at for t in data), 'A was sending before the pause'
