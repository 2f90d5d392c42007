"""System test: an RC conversation simulated end to end is what real tools read.

rdma-two-nodes runs every RC operation between two hosts at 100 Gb/s and
writes a pcap of each port (QbbHelper's pcap, Ethernet link type). tshark
must decode every frame as InfiniBand without a malformed one, the request
PSNs host A sends must be consecutive modulo 2^24 from the connection's
first PSN (0xFFFFF0, so they wrap), and scapy must recompute every ICRC.

Run: /usr/bin/python3 -m pytest test/python/test_transport_pcap.py
"""

import shutil
import subprocess

import pytest

from conftest import scapy_checked_roce_frames

FIRST_PSN = 0xFFFFF0  # RdmaConnectionConfig psnA in rdma-two-nodes
REQUESTS = set(range(0x00, 0x0D)) | {0x13, 0x14, 0x16, 0x17}  # request opcodes


@pytest.fixture(scope='module')
def capture(run_example, tmp_path_factory):
    d = tmp_path_factory.mktemp('two-nodes')
    res = run_example('rdma-two-nodes', '--pcap=' + str(d / 'two'), '--messages=2')
    assert res.returncode == 0, res.stdout + res.stderr
    return str(d / 'two-0-0.pcap'), res.stdout


def _rows(pcap):
    tshark = shutil.which('tshark')
    assert tshark, 'tshark is not installed (scripts/install-deps.sh installs it)'
    out = subprocess.run(
        [tshark, '-r', pcap, '-T', 'fields', '-E', 'separator=\t', '-e', 'ip.src',
         '-e', 'infiniband.bth.opcode', '-e', 'infiniband.bth.psn', '-e', '_ws.malformed'],
        capture_output=True, text=True, check=True).stdout
    return [line.split('\t') for line in out.splitlines()]


def test_every_frame_decodes(capture):
    pcap, _ = capture
    rows = _rows(pcap)
    assert len(rows) > 100
    assert all(r[1] != '' for r in rows), 'a frame tshark does not read as InfiniBand'
    assert all(r[3] == '' for r in rows), 'tshark reports a malformed frame'
    opcodes = {int(r[1]) for r in rows}
    # A's port sees A's requests and B's responses: every kind appears.
    assert {0x00, 0x01, 0x02, 0x05, 0x06, 0x07, 0x08, 0x0B, 0x0C, 0x13, 0x14} <= opcodes
    assert {0x0D, 0x0E, 0x0F, 0x11, 0x12} <= opcodes


def test_request_psns_are_consecutive_and_wrap(capture):
    pcap, _ = capture
    # A READ request stands for as many PSNs as its responses.
    rows = [r for r in _rows(pcap) if r[0] == '10.0.0.1' and int(r[1]) in REQUESTS]
    expect = FIRST_PSN
    wrapped = False
    for r in rows:
        psn = int(r[2])
        assert psn == expect, 'request PSN %d, expected %d' % (psn, expect)
        step = 1
        if int(r[1]) == 0x0C:  # READ request of 64 KiB at a 4096-byte MTU
            step = 16
        nxt = (psn + step) % (1 << 24)
        wrapped = wrapped or nxt < psn
        expect = nxt
    assert wrapped, 'the PSNs never wrapped past 2^24 - 1'
    assert len(rows) > 100


def test_scapy_recomputes_every_icrc(capture):
    pcap, _ = capture
    assert scapy_checked_roce_frames(pcap) > 100


def test_summary_reports_success(capture):
    _, stdout = capture
    assert 'bytes placed as expected: yes' in stdout
    assert 'receive completions on B: 3 of 3' in stdout
    assert stdout.count('IBV_WC_SUCCESS') == 7
