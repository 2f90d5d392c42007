"""Sizes checked against the machine: rdma-sim estimates the memory a run
will take before building it (RdmaMemoryEstimate: hosts, switches, ports,
routes, flows, each at its measured cost; doc/rdma.rst, "Memory") and
refuses one whose estimate is above sim.maxMemory (default: the machine's
available memory) with exit 2, the estimate and its items, the limit and
where it came from, and how to override it; nothing is built or written.
Small runs print no construction progress."""

import os
import re
import resource

import pytest

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
TINY = os.path.join(TOP, 'examples', 'configs', 'tiny.ini')

# A k=32 fat-tree: 8192 hosts, 1280 switches, 24576 links, 8192 x 1280
# route entries; one 1000-byte flow per host.
K32 = ['--topology.type=fat-tree', '--topology.k=32', '--traffic.pattern=permutation',
       '--traffic.size=1000', '--sim.stopTime=1us']


def estimate_bytes(stderr):
    """The estimate a refusal names, in bytes."""
    m = re.search(r'needs about ([0-9.]+) (B|KiB|MiB|GiB|TiB) to build', stderr)
    assert m, stderr
    return float(m.group(1)) * {'B': 1, 'KiB': 2**10, 'MiB': 2**20, 'GiB': 2**30,
                                'TiB': 2**40}[m.group(2)]


def test_refused_over_the_limit_from_the_command_line(run_example, tmp_path):
    """The k=32 fabric alone is over 100 MB: refused from its sizes, before
    it is built or its flows drawn."""
    out = tmp_path / 'out'
    r = run_example('rdma-sim', '-q', '--output.dir=%s' % out, '--sim.maxMemory=100MB', *K32)
    assert r.returncode == 2, (r.returncode, r.stderr)
    e = r.stderr
    assert 'rdma-sim: sim.maxMemory: this fabric alone needs about' in e, e
    # Each item with its count (the k=32 fat-tree's), then the limit and its source.
    for part in ['8192 hosts x', '1280 switches x', '49152 ports x',
                 '10485760 routes (switches x hosts) x',
                 'more than the limit of 95.37 MiB (sim.maxMemory = 100MB, command line '
                 '--sim.maxMemory)', 'nothing was built', '--sim.maxMemory=SIZE']:
        assert part in e, (part, e)
    assert estimate_bytes(e) > 4 * 100e6, e
    assert r.stdout == ''
    assert not out.exists()


def test_a_huge_fabric_is_refused_before_it_is_built(run_example, tmp_path):
    """A star of 10^8 hosts: its links alone would take tens of GB to build;
    refused from its sizes, the process never growing past what the
    program itself takes."""
    out = tmp_path / 'out'
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    r = run_example('rdma-sim', '-q', '--output.dir=%s' % out, '--topology.type=star',
                    '--topology.hosts=100000000', '--sim.maxMemory=8GiB')
    assert r.returncode == 2, (r.returncode, r.stderr)
    assert 'this fabric alone needs about' in r.stderr and '100000000 hosts x' in r.stderr, \
        r.stderr
    # ru_maxrss of the largest child so far, KiB: the refusal took < 200 MiB
    # (building the star took 15.7 GB before the check came first).
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    assert peak == before or peak < 200 * 1024, peak
    assert not out.exists()


def test_the_workload_counts_after_the_fabric(run_example, tmp_path):
    """A fabric that fits with a workload that does not: the full check
    after the flows are drawn names them (16 QP pairs starting at once)."""
    r = run_example('rdma-sim', '-q', '--sim.maxMemory=1MiB', '--topology.k=4', *K32[2:])
    assert r.returncode == 2 and 'this fabric alone needs about' in r.stderr, r.stderr
    fabric = estimate_bytes(r.stderr)
    out = tmp_path / 'out'
    r = run_example('rdma-sim', '-q', '--output.dir=%s' % out, '--topology.k=4',
                    '--sim.maxMemory=%dB' % (fabric + 50000), *K32[2:])
    assert r.returncode == 2, (r.returncode, r.stderr)
    assert 'this run needs about' in r.stderr, r.stderr
    assert '16 flows x' in r.stderr and '16 QP pairs at once' in r.stderr, r.stderr
    assert not out.exists()


def test_refused_over_the_limit_from_an_ini_file(run_example, tmp_path):
    ini = tmp_path / 'big.ini'
    ini.write_text('[topology]\ntype = fat-tree\nk = 32\n[traffic]\npattern = permutation\n'
                   'size = 1000\n[sim]\nstopTime = 1us\nmaxMemory = 0.25GiB\n')
    out = tmp_path / 'out'
    r = run_example('rdma-sim', '-c', str(ini), '-q', '--output.dir=%s' % out)
    assert r.returncode == 2, (r.returncode, r.stderr)
    assert 'more than the limit of 256.00 MiB (sim.maxMemory = 0.25GiB, %s:9)' % ini in r.stderr, \
        r.stderr
    assert not out.exists()


def test_refused_over_the_machines_available_memory(run_example, tmp_path):
    """The default limit: MemAvailable. A k=256 fat-tree has 4194304 hosts and
    81920 switches: 344 billion route entries, about 1.7 TiB. Its estimate is
    read first under a 1 MiB limit; a machine with that much available skips
    rather than build it (regression: k=96's 20.8 GiB fitted a 24 GiB
    machine once routes cost 5 B, and the run went on past the timeout)."""
    args = ['-q', '--topology.k=256'] + K32[2:]
    probe = run_example('rdma-sim', '--sim.maxMemory=1MiB', *args)
    assert probe.returncode == 2, (probe.returncode, probe.stderr)
    available = next(int(l.split()[1]) * 1024 for l in open('/proc/meminfo')
                     if l.startswith('MemAvailable:'))
    if estimate_bytes(probe.stderr) <= available:
        pytest.skip('this machine has %d bytes available' % available)
    out = tmp_path / 'out'
    r = run_example('rdma-sim', '--output.dir=%s' % out, *args)
    assert r.returncode == 2, (r.returncode, r.stderr)
    assert "(the machine's available memory (MemAvailable, /proc/meminfo))" in r.stderr, r.stderr
    assert '4194304 hosts x' in r.stderr and '81920 switches x' in r.stderr, r.stderr
    assert not out.exists()


def test_a_run_within_the_limit_runs_without_construction_progress(run_example, tmp_path):
    """tiny.ini fits in 200 MB (its estimate is about 20 MiB) and is too
    small for a construction progress line."""
    out = tmp_path / 'out'
    r = run_example('rdma-sim', '-c', TINY, '--output.dir=%s' % out, '--sim.maxMemory=200MB')
    assert r.returncode == 0, r.stderr
    assert 'building:' not in r.stderr, r.stderr
    assert (out / 'summary.json').exists()
    r = run_example('rdma-sim', '-c', TINY, '-q', '--output.dir=%s' % (tmp_path / 'o2'),
                    '--sim.maxMemory=1MiB')
    assert r.returncode == 2 and 'needs about' in r.stderr, r.stderr
