"""Shared pytest fixtures: where the standalone build is and how to run its programs."""

import os
import subprocess
import sys

import pytest

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))


@pytest.fixture(autouse=True)
def close_figures():
    """Close the figures a test drew (a plot script's draw() keeps them open)."""
    yield
    plt = sys.modules.get('matplotlib.pyplot')
    if plt is not None:
        plt.close('all')


@pytest.fixture(scope='session')
def build_dir():
    """The standalone CMake build (RDMA_BUILD_DIR, default <tree>/build)."""
    path = os.environ.get('RDMA_BUILD_DIR', os.path.join(TOP, 'build'))
    if not os.path.isdir(path):
        pytest.fail('no build at %s: run "make build" (or set RDMA_BUILD_DIR)' % path)
    return path


@pytest.fixture(scope='session')
def run_example(build_dir):
    """Run an example program of the build; return its CompletedProcess."""

    def run(name, *args):
        exe = os.path.join(build_dir, 'examples', name)
        if not os.access(exe, os.X_OK):
            pytest.fail('example %s is not built at %s' % (name, exe))
        return subprocess.run([exe] + list(args), capture_output=True, text=True, timeout=120)

    return run


def run_summary(run_example, out, *args):
    """Run rdma-sim with these arguments into the folder out; assert it
    succeeded and return its summary.json as a dict."""
    import json
    r = run_example('rdma-sim', '--output.dir=%s' % out, *args)
    assert r.returncode == 0, r.stderr
    with open(os.path.join(str(out), 'summary.json')) as f:
        return json.load(f)


def scapy_checked_roce_frames(pcap):
    """Recompute the ICRC of every RoCEv2 frame of a pcap with scapy and
    assert it equals the one on the wire; return how many were checked."""
    from scapy.all import Ether, raw, rdpcap
    from scapy.contrib.roce import BTH
    checked = 0
    for n, frame in enumerate(rdpcap(str(pcap)), start=1):
        wire = raw(frame)
        pkt = Ether(wire)
        if BTH not in pkt:
            continue
        pkt[BTH].icrc = None  # scapy computes it afresh when building
        assert raw(pkt)[-4:] == wire[-4:], '%s frame %d: ICRC differs from scapy' % (pcap, n)
        checked += 1
    return checked
