"""scripts/loss_sweep.py on a tiny grid, and rdma-sim's transport.recovery key:
IRN holds the analytic goodput bound where go-back-N falls behind, the rows
and the plot are written, bad recovery input exits 2 naming the key, the key
works through the Python API on a lossy fabric, and tshark decodes IRN's SACK
NAKs."""

import csv
import importlib.util
import json
import os
import shutil
import subprocess
import sys

import pytest

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))


def load_sweep():
    spec = importlib.util.spec_from_file_location(
        'loss_sweep', os.path.join(TOP, 'scripts', 'loss_sweep.py'))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_tiny_sweep(build_dir, tmp_path):
    sweep = load_sweep()
    out = tmp_path / 'ls'
    rc = sweep.main(['--quick', '--losses=0.01', '--out', str(out),
                     '--two-nodes', os.path.join(build_dir, 'examples', 'rdma-two-nodes'),
                     '--sim', os.path.join(build_dir, 'examples', 'rdma-sim')])
    assert rc == 0
    rows = {(r['setup'], r['recovery']): r for r in csv.DictReader(open(out / 'loss_sweep.csv'))}
    assert set(rows) == {(s, r) for s in ('two-nodes', 'fat-tree-k4')
                         for r in ('go-back-n', 'irn')}
    irn, gbn = rows['two-nodes', 'irn'], rows['two-nodes', 'go-back-n']
    # Bound: 100 Gb/s x 4096 / (4096 + 82) x (1 - 0.01).
    assert float(irn['bound_gbps']) == pytest.approx(100 * 4096 / 4178 * 0.99, rel=1e-4)
    assert float(irn['goodput_gbps']) >= 0.85 * float(irn['bound_gbps'])
    assert float(irn['goodput_gbps']) > float(gbn['goodput_gbps'])
    assert int(irn['drops']) > 0 and int(irn['retransmissions']) >= int(irn['drops'])
    assert int(irn['timeouts']) <= 1  # at most the stream's very last packet
    # On the fat-tree every link loses 1 %: frames are dropped and resent.
    for recovery in ('go-back-n', 'irn'):
        ft = rows['fat-tree-k4', recovery]
        assert int(ft['drops']) > 0 and int(ft['retransmissions']) > 0
        assert 0 < float(ft['goodput_gbps']) <= float(ft['bound_gbps']) * 1.001
    assert os.path.getsize(out / 'loss_sweep.png') > 10000
    assert len(json.load(open(out / 'loss_sweep.json'))) == 4


def test_default_rdma_sim_is_make_runs_build(tmp_path, monkeypatch):
    """Without --sim, the rdma-sim sweep.py would run (scripts/rdmasim_binary.py):
    make run's build, named in $RDMA_LTO_DIR/rdma-sim.path; --sim still wins."""
    sim = tmp_path / 'ns3.37-rdma-sim-default'
    sim.write_text('#!/bin/sh\n')
    sim.chmod(0o755)
    (tmp_path / 'rdma-sim.path').write_text('%s\n' % sim)
    monkeypatch.setenv('RDMA_LTO_DIR', str(tmp_path))
    monkeypatch.delenv('RDMA_SIM', raising=False)
    sweep = load_sweep()
    assert sweep.parse_args(['--out', str(tmp_path / 'o')]).sim == str(sim)
    assert sweep.parse_args(['--sim', '/x/rdma-sim']).sim == '/x/rdma-sim'


def test_bad_losses_are_refused(tmp_path):
    r = subprocess.run(['/usr/bin/python3', os.path.join(TOP, 'scripts', 'loss_sweep.py'),
                        '--losses=0.1,1', '--out', str(tmp_path)],
                       capture_output=True, text=True)
    assert r.returncode == 2
    assert '--losses' in r.stderr and '[0, 1)' in r.stderr


def run_sim(build_dir, tmp_path, *args):
    exe = os.path.join(build_dir, 'examples', 'rdma-sim')
    return subprocess.run([exe, '-c', os.path.join(TOP, 'examples', 'configs', 'tiny.ini'),
                           '--force', '--output.dir=%s' % (tmp_path / 'out')] + list(args),
                          capture_output=True, text=True, timeout=120)


def test_recovery_recorded_in_summary(build_dir, tmp_path):
    r = run_sim(build_dir, tmp_path, '--transport.recovery=irn', '--transport.irn.RtoLow=50us')
    assert r.returncode == 0, r.stderr
    summary = json.load(open(tmp_path / 'out' / 'summary.json'))
    assert summary['config']['transport.recovery'] == 'irn'
    assert summary['config']['transport.irn.RtoLow'] == '50us'
    assert summary['recovery']['policy'] == 'irn'
    assert summary['flows']['completed'] == summary['flows']['total'] > 0
    assert summary['recovery']['timeouts'] >= 0 and summary['recovery']['retransmissions'] >= 0


@pytest.mark.parametrize('arg,key', [
    ('--transport.recovery=sack', 'transport.recovery'),
    ('--topology.errorRate=1', 'topology.errorRate'),
    ('--topology.errorRate=-0.1', 'topology.errorRate'),
    ('--transport.irn.RtoLow=0s', 'transport.irn.RtoLow'),
    ('--transport.irn.RtoHigh=0s', 'transport.irn.RtoHigh'),
    ('--transport.irn.BdpBytes=1000', 'transport.irn.BdpBytes'),
])
def test_bad_recovery_input_exits_2(build_dir, tmp_path, arg, key):
    r = run_sim(build_dir, tmp_path, arg)
    assert r.returncode == 2, r.stdout + r.stderr
    assert key in r.stderr
    assert not (tmp_path / 'out' / 'summary.json').exists()


def test_lossy_links_need_the_icrc_check(build_dir, tmp_path):
    # Corrupted frames are only lost if the NICs check the ICRC: turning the
    # check off on a lossy fabric is refused, naming both keys.
    r = run_sim(build_dir, tmp_path, '--topology.errorRate=0.01', '--nic.VerifyIcrc=false')
    assert r.returncode == 2, r.stdout + r.stderr
    assert 'nic.VerifyIcrc' in r.stderr and 'topology.errorRate' in r.stderr


def test_python_api_and_lossy_fabric(build_dir):
    sys.path.insert(0, os.path.join(build_dir, 'python'))
    import rdmasim
    base = {'topology.type': 'star', 'topology.hosts': 4, 'traffic.pattern': 'permutation',
            'traffic.size': 200000, 'topology.errorRate': 0.01, 'cc.algorithm': 'none'}
    gbn = rdmasim.run(base, transport__recovery='go-back-n')
    irn = rdmasim.run(base, transport__recovery='irn', **{'transport.irn.RtoLow': '80us'})
    for r, name in ((gbn, 'go-back-n'), (irn, 'irn')):
        assert r.summary['recovery']['policy'] == name
        assert r.summary['flows']['completed'] == r.summary['flows']['total'] == 4
        assert r.summary['drops'] > 0  # 1 % of frames lost on every link
    assert irn.summary['config']['transport.irn.RtoLow'] == '80us'
    # Go-back-N resends whole windows for each loss, IRN the lost packets.
    assert irn.summary['recovery']['retransmissions'] < gbn.summary['recovery']['retransmissions']
    with pytest.raises(rdmasim.ConfigError) as err:
        rdmasim.run(base, **{'transport.irn.BdpBytes': 100})
    assert 'transport.irn.BdpBytes' in str(err.value)


def test_tshark_decodes_irn_sack_naks(run_example, tmp_path):
    # IRN's SACK rides in a standard NAK: BTH PSN = the expected PSN, AETH
    # syndrome 0x60 (NAK, PSN sequence error), AETH MSN = the SACKed PSN.
    r = run_example('rdma-two-nodes', '--pcap=%s' % (tmp_path / 'sr'), '--messages=4',
                    '--loss=0.01', '--recovery=ns3::RdmaSelectiveRepeat')
    assert r.returncode == 0, r.stdout + r.stderr
    tshark = shutil.which('tshark')
    assert tshark, 'tshark is not installed (scripts/install-deps.sh installs it)'
    out = subprocess.run(
        [tshark, '-r', str(tmp_path / 'sr-0-0.pcap'), '-Y', 'infiniband.aeth.syndrome == 0x60',
         '-T', 'fields', '-E', 'separator=\t', '-e', 'infiniband.bth.opcode',
         '-e', 'infiniband.bth.psn', '-e', 'infiniband.aeth.msn', '-e', '_ws.malformed'],
        capture_output=True, text=True, check=True).stdout
    naks = [line.split('\t') for line in out.splitlines()]
    assert len(naks) > 10
    for opcode, psn, msn, malformed in naks:
        assert opcode == '17' and malformed == ''  # RC ACKNOWLEDGE, well formed
        assert 0 < (int(msn) - int(psn)) % (1 << 24) < 1 << 16  # the SACK is past the gap
