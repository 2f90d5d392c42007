"""The slow-receiver study (examples/configs/slow-receiver.ini, scripts/slow_receiver.py):
NIC MTT misses that make a host pause its switch (Guo et al., SIGCOMM 2016, section 4.4),
shrunk to two incast rounds so it runs in seconds."""

import csv
import json
import os
import subprocess

import pytest

from conftest import TOP
from sweep_helpers import FAKE_SIM

CONFIG = os.path.join(TOP, 'examples', 'configs', 'slow-receiver.ini')
SCRIPT = os.path.join(TOP, 'scripts', 'slow_receiver.py')
SHORT = ['traffic.repeats=2', 'traffic.duration=400us', 'traffic.backgroundLoad=0.5']


def test_sweep_4k_pages_pause_2m_pages_do_not(build_dir, tmp_path):
    """At 4 KiB pages a 1 GiB footprint needs 262144 MTT entries against a 2048-entry
    cache: the receiver's blocking misses drain its buffer slower than its link fills
    it, so it sends pauses (pfc.csv sender 'host'); at 2 MiB pages 512 entries cover
    the footprint and it sends none, and the victims' p99 slowdown is lower."""
    out = tmp_path / 'sweep'
    args = ['/usr/bin/python3', SCRIPT, '-o', str(out), '--footprint', '1GiB', '-j', '2',
            '--sim', os.path.join(build_dir, 'examples', 'rdma-sim')]
    for s in SHORT:
        args += ['--set', s]
    r = subprocess.run(args, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    rows = {int(row['page_bytes']): row for row in csv.DictReader(open(out / 'slow-receiver.csv'))}
    small, huge = rows[4096], rows[2097152]
    assert int(small['working_set_entries']) == 262144 and int(huge['working_set_entries']) == 512
    assert int(small['host_pause_frames']) > 0
    assert int(huge['host_pause_frames']) * 10 <= int(small['host_pause_frames'])
    assert float(small['victim_p99']) > float(huge['victim_p99'])
    assert float(small['mtt_hit_rate']) < float(huge['mtt_hit_rate'])
    assert (out / 'slow-receiver.png').stat().st_size > 0
    # pfc.csv names the host that paused its ToR.
    folder = out / small['point']
    senders = [row for row in csv.DictReader(open(folder / 'pfc.csv')) if row['sender'] == 'host']
    assert len([row for row in senders if row['event'] == 'pause']) == int(small['host_pause_frames'])
    # Most come from the incast receiver; a victim's receiver may miss and pause too.
    per_node = {}
    for row in senders:
        per_node[row['node']] = per_node.get(row['node'], 0) + (row['event'] == 'pause')
    assert max(per_node.values()) >= 0.8 * sum(per_node.values()), per_node
    summary = json.load(open(folder / 'summary.json'))
    assert summary['pfc']['pause_frames_from_hosts'] == int(small['host_pause_frames'])


@pytest.mark.parametrize('args, message', [
    (['--cache.mtt.PageBytes=5000'], 'cache.mtt.PageBytes = 5000: expected a power of two of '
                                     'at least 4096 bytes'),
    (['--cache.mtt.PageBytes=2048'], "cache.mtt.PageBytes = '2048': expected a whole number "
                                     ">= 4096"),
    (['--nic.rx.BufferBytes=20000'], 'nic.rx.BufferBytes (20000) is below one largest frame'),
    (['--traffic.target.FootprintBytes=524288'], 'FootprintBytes (524288)'),
    (['--traffic.background=bursty'], "traffic.background = 'bursty': expected one of none,poisson"),
])
def test_bad_study_values_exit_2(run_example, tmp_path, args, message):
    """A page size that is not a power of two of at least 4 KiB, a receive buffer below
    one frame plus its PFC headroom, a footprint smaller than a message: exit 2, the key
    named, nothing written."""
    out = tmp_path / 'run'
    r = run_example('rdma-sim', '-c', CONFIG, '--output.dir=%s' % out, *args)
    assert r.returncode == 2, r.stderr
    assert message in r.stderr
    assert not out.exists()


def test_refused_configuration_exits_2_writing_nothing(tmp_path):
    """A study configuration rdma-sim --check refuses (the stand-in
    fake_rdma_sim knows none of the study's keys): the refusal printed, exit
    2, no output folder, no traceback."""
    out = tmp_path / 'sweep'
    r = subprocess.run(['/usr/bin/python3', SCRIPT, '-o', str(out), '--footprint', '1GiB',
                        '--sim', FAKE_SIM], capture_output=True, text=True, timeout=120)
    assert r.returncode == 2, r.stdout + r.stderr
    assert "slow-receiver.ini: unknown key 'topology." in r.stderr
    assert 'Traceback' not in r.stderr
    assert not out.exists()


def test_a_nic_slower_on_pcie_than_its_port_pauses_at_any_page_size(run_example, tmp_path):
    """nic.preset = nfp6000 (pcie-bench's NFP-6000: PCIe Gen3 x8, its DMA engine taking
    20 ns per 128 bytes of a write) writes 1 KiB payloads at 51.2 Gb/s: on 100 Gb/s host
    links the incast's receiver pauses its switch even with 2 MiB pages, where the
    default NIC (Gen3 x16) sends none, and rdma-sim says why before it runs. At 40 Gb/s,
    the NFP-6000's own port rate, there is no warning."""
    def run(name, *extra):
        out = tmp_path / name
        r = run_example('rdma-sim', '-c', CONFIG, '-q', '--output.dir=%s' % out,
                        '--cache.mtt.PageBytes=2097152', *['--' + s for s in SHORT], *extra)
        assert r.returncode == 0, r.stderr
        return r, json.load(open(out / 'summary.json'))['pfc']['pause_frames_from_hosts']

    warning = ("the NICs' PCIe link writes 1024-byte payloads at 51.2 Gb/s, below the 100 Gb/s "
               "host links (pcie keys, nic.preset = nfp6000)")
    r, pauses = run('nfp6000', '--nic.preset=nfp6000')
    assert warning in r.stderr
    assert pauses > 0
    r, pauses = run('default')
    assert 'PCIe link writes' not in r.stderr
    assert pauses == 0
    r = run_example('rdma-sim', '-c', CONFIG, '--check', '--output.dir=%s' % (tmp_path / 'c'),
                    '--nic.preset=nfp6000', '--topology.hostRate=40Gbps')
    assert r.returncode == 0, r.stderr
    assert 'PCIe link writes' not in r.stderr
